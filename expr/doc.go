// Package expr is rkql's scalar expression layer: the conditions of a
// WHERE clause and the values a plan computes, compiled against one
// table's logical row.
//
// A logical row (catalog.Row) holds a table's columns in catalog order,
// followed by the _ts pseudo-column (catalog.Table.TsColumn). Expressions
// name columns by that index and carry the column's name for printing.
//
// Conditions are evaluated with SQL's three-valued logic: a comparison
// with NULL is Unknown, AND and OR follow Kleene's tables, and Match
// treats Unknown as false. String renders an expression in the SQL that
// EXPLAIN prints; it parses back to an equal condition.
//
// Scalars (Scalar) compute values: columns, literals, arithmetic (exact
// over BIGINT, an overflow is ErrOverflow; a zero divisor gives NULL),
// ||, functions, CASE, CAST and timestamp ± interval. A condition over
// a value that cannot be computed (Compare, IsNullOf, LikeOf) fails with
// its error; Match fails only when whether the row is kept depends on
// it, so that the answer does not depend on the order of terms, nor on
// which ones a store or a key range applied first.
//
// Functions is the one table of scalar functions: each entry's name,
// parameters, result type rule, evaluation (Build), doc line and
// example. The planner checks calls against it, the shell's \h shows it,
// and docs/functions.md is generated from it (TestFunctionReference).
//
// The package imports catalog only. The planner compiles parser ASTs into
// expressions, the executor and the stores evaluate them, and a store
// that evaluates them on the server translates them (exec/hbasestore).
//
// Invariant: expressions are immutable once built, so plans that share
// them may run concurrently.
package expr
