// Package exec runs plans against a Store and streams the rows back.
//
// It defines the Store interface it consumes: Get, Scan, Mutate and table
// administration over physical HBase tables, with rows as keys and cells.
// exec/embedded implements it over a local bbolt file and exec/hbasestore over
// a real cluster.
//
// Place makes a placed plan (exec/placed) of a planner's plan: what the
// store takes of each access's filter, limit and columns, and the counts
// and aggregates it computes. Run and QueryRaw run a placed plan; Query
// runs a plan as planned, every step in the client. Neither changes the
// planner's nodes.
//
//	Access ──► points:  Store.Get, decode, filter
//	       └─► ranges:  one Store.Scan each ──► rangeIter (decode, filter,
//	                    per-range limit) ──► concatIter (key order) or
//	                    mergeIter (k-way heap on the key bytes after the
//	                    fan-out components)
//	       └─► loose:   one short scan per distinct key prefix (distinct.go)
//	       ──► lookupIter (index plans: verify entries, multi-get data rows)
//	Union  ──► each branch's plan in turn, each data row once
//	       ──► distinct over table rows (bounded by DistinctBudget)
//	       ──► COUNT, or aggregate (one group; stream: one group at a
//	           time; hash: bounded by GroupBudget) ──► HAVING filter
//	       ──► project (select list, ORDER BY expressions) ──► distinct
//	       ──► sort (top-N heap with a LIMIT; else bounded by SortBudget)
//	       ──► limit and offset ──► outputs ──► Rows
//
// Each aggregate keeps a partial state (AggState) that merges, so that a
// store computing partial aggregates per region could feed the same node.
//
// A keys-only COUNT over a store that implements KeyScanner takes the
// keys straight from the store's read loop and checks each against the
// layout with catalog.KeyChecker; no row is built. Over a
// ParallelKeyScanner it counts parts of the range on several goroutines,
// one KeyChecker each, and adds them up in key order.
//
// A write statement runs inside Executor.Atomically: over a Transactor
// (the embedded store) it is one unit, and a failure, a cancel or a
// timeout leaves nothing of it; over another store (HBase) its batches
// stay as they are written, and the engine's WriteError says how many
// rows did.
//
// Rows stream: nothing holds a whole result except a client sort, which is
// bounded by SortBudget rows. It holds each row as one byte encoding of
// the columns the query still reads, sort keys first (sortcodec.go), in
// 64 KiB chunks, and compares rows on the encoding: about 25 bytes a row
// for a BIGINT and a short STRING, against some 250 as catalog values. A
// top-N's replaced rows stay in their chunks until they take more room
// than the held ones, then the held rows are copied to fresh chunks, so
// it holds at most about twice what its rows need.
//
// A reader that keeps no row asks for RowReuser, and a plain read then
// decodes each row into the memory of the one before.
//
// Writes (InsertColumns, Delete, BuildIndex, CheckIndex) keep index
// tables in step with their data table in three phases, described on
// StatusQualifier, so that a write that stops half-way never makes a read
// return a row that does not match.
package exec
