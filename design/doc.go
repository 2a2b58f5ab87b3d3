// Package design judges rowkey layouts from the catalog alone and writes
// the text of the statements that do: LINT finds the anti-patterns
// rowkey-design guides warn about (hotspots, long keys, delimiters and
// padding that break order, …) (LintReport), SIMULATE shows how a write
// stream spreads over a table's regions (SimulateReport), and SHOW CREATE
// TABLE turns a catalog table back into the CREATE TABLE and CREATE INDEX
// statements that make it again (ShowCreate, CreateTable, CreateIndex),
// followed, as comments, by the HBase shell create statements that make
// its HBase tables with their families' settings and split points
// (HBaseShell).
// Its subpackage advise answers ADVISE: it ranks key designs for a
// workload by planning its queries under each.
//
// The engine runs these statements by calling this package with their
// plans' values; nothing here touches a store.
package design
