// Package planner turns a parsed statement and a catalog into a plan: the
// cheapest way the table's rowkey layout allows to read what the statement
// asks for. Plans are values; package exec runs them.
//
//	SELECT … WHERE …                     catalog.Table (rowkey layout)
//	        │                                     │
//	        ▼                                     ▼
//	  compile: WHERE → expr.Expr (typed, positions) ─► planKeys: walk the key's
//	                                              components left to right
//	        ┌──────────────────────────────────────┘
//	        ▼
//	  per component:  literal      append its bytes
//	                  field = / IN append each value (SKIP SCAN on several)
//	                  hash, bucket computed when their inputs are bound,
//	                               else one range per value (PARALLEL n-WAY)
//	                  salt, random one range or key per value
//	                  field range  ends the key: FieldSpan gives its bytes,
//	                               a descending field swaps the bounds
//	        │
//	        ▼
//	  Access (POINT LOOKUP | RANGE SCAN | SKIP SCAN | FULL SCAN) + residual
//	  filter, then the order: the key's own order, a reverse scan, a merge of
//	  sorted ranges (CLIENT MERGE SORT), or a bounded client sort.
//
// This is the planner's part of the pipeline drawn in DESIGN.md ("How a
// statement runs"). The plan leaves every filter and every row limit to
// the client; exec.Place moves to the store what it can do, a per-scan
// row limit included.
//
// Above the read, a SELECT may compute: an Aggregate (GROUP BY and
// aggregates; it streams when the key's leading components hold the
// grouped columns, otherwise it hashes), HAVING as a Filter over its rows,
// a Project of the select list and of ORDER BY expressions, a Distinct
// (over the table's rows, which a loose scan may serve, or over the
// Project's), a Sort and a Limit with OFFSET. An OR that no one access
// serves but each branch does is a Union of the branches' plans, below
// all of these. Expressions compile into expr.Scalar values in a
// scope (the table's columns, or an aggregation's groups and
// aggregates); constant subexpressions fold into literals first, so that
// ts > NOW() - INTERVAL '1' HOUR narrows the key as a literal does.
//
// The same walk runs over each index table of the catalog; chooseIndex
// picks by, in turn: a point lookup, more key components bound, covered
// over uncovered, fewer ranges. Hints (USE INDEX, NO INDEX) override it.
// An index the catalog records as unbuilt is never read: it is passed
// over with a note, and USE INDEX of it, or a full scan it alone would
// have spared, is an error naming BUILD INDEX.
//
// Invariants: every predicate not proven by the key bytes ("absorbed")
// stays in a filter, so a plan never returns a row the WHERE clause
// rejects; ranges are sorted and never overlap, so no row is read twice;
// a FULL SCAN is refused unless the session or statement allows it.
//
// Every statement plans, not only reads and writes. A layout statement
// (Layout: CREATE TABLE … ROWKEY, CREATE INDEX, DROP, TRUNCATE, ALTER,
// SHOW CATALOG) plans to a LayoutPlan that names the catalog's tables and
// indexes it touches and carries its new entries in the catalog's YAML
// shape (ddl.go, ddlspec.go); the engine edits the file. The design
// statements (LINT, SHOW CREATE TABLE, SIMULATE WRITES, ADVISE) plan to
// the tables they judge (design.go), which package design answers.
//
// EXPLAIN is a model (Explained) built from the plan itself, rendered as
// text and JSON. Select.Explain shows the plan as planned; a store's
// placement (exec.Place) shows what it takes through ExplainPlaced and a
// Placing, without changing the plan.
package planner
