// Package ref is the reference evaluator of the differential suite:
// brute force, a full scan and a filter, computed with its own SQL
// semantics so that a planned result can be checked against an answer
// that shares no code with the code under test. It imports only catalog
// (types, values, key and cell codecs) and parser (the statement's AST);
// internal/arch forbids it the planner, package expr and exec.
//
//	stored rows ──Decoder──> logical rows ──Evaluate──> Result <──Compare── planned rows
//
// Decoder reads a stored row's key and cells into logical rows, a key
// group's repetitions and a wide family's points with its own reading of
// their bytes (expand.go), and families whose qualifiers are data, a MAP
// column's entries and a wide family's qualifier fields (qualifier.go). Evaluate answers a SELECT over such rows:
// three-valued logic and comparisons (truth.go, value.go), expressions
// and their types (expr.go), scalar functions (func.go), GROUP BY,
// HAVING and aggregates (agg.go), DISTINCT, ORDER BY, OFFSET and LIMIT
// (eval.go). Result holds the answer as groups of rows that may come in
// any order, so Compare accepts every correct ordering and nothing else.
package ref
