// Package exec runs plans against a Store and streams the rows back.
//
// It defines the Store interface it consumes: Get, Scan, Mutate and table
// administration over physical HBase tables, with rows as keys and cells.
// exec/embedded implements it over a local bbolt file and exec/hbase over
// a real cluster.
//
//	Access ──► points:  Store.Get, decode, filter
//	       └─► ranges:  one Store.Scan each ──► rangeIter (decode, filter,
//	                    per-range limit) ──► concatIter (key order) or
//	                    mergeIter (k-way heap on the key bytes after the
//	                    fan-out components)
//	       ──► lookupIter (index plans: verify entries, multi-get data rows)
//	       ──► sort (top-N heap with a LIMIT; else bounded by SortBudget)
//	       ──► limit ──► project / COUNT ──► Rows
//
// A keys-only COUNT over a store that implements KeyScanner takes the
// keys straight from the store's cursor loop and checks each against the
// layout with catalog.KeyChecker; no row is built.
//
// Rows stream: nothing holds a whole result except a client sort, which is
// bounded. A reader that keeps no row asks for RowReuser, and a plain read
// then decodes each row into the memory of the one before. Writes (InsertColumns, Delete, BuildIndex, CheckIndex) keep index
// tables in step with their data table in three phases, described on
// StatusQualifier, so that a write that stops half-way never makes a read
// return a row that does not match.
package exec
