// Package engine runs rkql statements: it is the one place where a parsed
// statement becomes a plan, is placed on a store, and runs. The pipeline
// is drawn once, in DESIGN.md ("How a statement runs"); the engine is
// everything in it after the parser.
//
// An Engine holds a catalog, a planner and a lazily opened Store. Run takes
// one parsed statement and returns a Result: rows to stream (with their
// columns), a command tag such as "INSERT 3", or text (EXPLAIN). Every
// figure EXPLAIN ANALYZE shows comes from the Stats the engine collects
// while the statement runs.
//
// The shell (cmd/rkql/shell) reads statements and formats Results; the
// tests run statements through Run. None of them plans or executes by
// itself.
//
// The bulk import is the engine's too (import.go): Import reads csv, tsv,
// json or jsonl (importsource.go, importcsv.go, importtsv.go,
// importjson.go; values as importconvert.go reads them) and ImportRows
// takes rows already made; `rkql import` runs the first and the examples
// loader the second. Both read and check one batch ahead of the writes.
// A table with indexes is written batch by batch through Write, with its
// entries; one without is read whole, its mutations put in key order by an
// external merge sort (internal/extsort, importsorted.go) and written
// 10,000 at a time, so that a bad line writes nothing. Every error names
// the input, and the line (and column) where there is one, and how many
// rows were written (ImportError).
//
// Every statement takes one path: text → parser → planner → one switch
// over the plan's type in RunPlan → Result. The layout statements
// (CREATE TABLE … ROWKEY, CREATE INDEX, DROP, TRUNCATE, ALTER, SHOW
// CATALOG) plan too: the planner finds the tables they name and turns
// their definitions into the catalog's YAML shape, and the engine edits
// the catalog file through catalog's text edits, creates or drops
// physical tables, and swaps the engine's catalog and planner (ddl.go).
// The design statements (LINT, SIMULATE, SHOW CREATE TABLE, ADVISE) are
// answered by package design from their plans. DELETE, TRUNCATE and
// dropping a physical table ask Config.Confirm first; one not confirmed
// fails and changes nothing. DROP TABLE of a name the catalog lacks drops
// the stored table of that name that no catalog table describes, if there
// is one (dropstored.go).
//
// A layout statement that edits the catalog or its physical tables is
// one unit across processes (catlock.go), and so is each mark BUILD INDEX
// makes of an index's state: under an exclusive flock on
// <catalog>.lock it reads the file as it is now, plans the statement
// against it, computes the edit, creates or drops the physical tables,
// and writes the file (a temporary file renamed over it). Lock order: the catalog lock, then the store's
// (the embedded store's flock on rkql.db). An engine that holds its store
// and finds the catalog locked closes the store before it waits, so no
// process waits for the catalog while holding the store.
//
// Invariants:
//   - A read-only engine refuses every statement that writes before it
//     touches the store.
//   - A read creates nothing: a table never created on a store that
//     creates tables on demand answers with no rows and a note.
//   - The catalog file is written only with text that loads.
//   - A SELECT is placed (exec.Place) with the session's pushdown
//     setting, and the placed plan, not the planner's, is what runs and
//     what EXPLAIN shows, so EXPLAIN shows the plan that runs.
//   - An Engine is not safe for concurrent use; the Results it returns
//     are read by one goroutine.
package engine
