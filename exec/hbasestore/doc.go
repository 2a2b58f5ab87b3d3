// Package hbase is the exec.Store over a real HBase cluster, through rkql's
// native client (package github.com/rkql/rkql/hbase).
//
//	exec.Executor
//	   │ Get(keys)            ──> one MultiGet per batch of keys: one Multi
//	   │                          RPC per region server, in parallel
//	   │ Scan(range, opts)    ──> one streaming Scanner, forward or reversed;
//	   │                          its first RPC starts at once, in the
//	   │                          background, so the scans of a fan-out are
//	   │                          in flight together
//	   │ Mutate(mutations)    ──> Deletes then Puts in MultiMutate batches,
//	   │                          with explicit timestamps (see below)
//	   │ CreateTable, Tables, Regions ──> the client's Admin and hbase:meta
//	   v
//	hbase.Client ──> region servers, master, ZooKeeper
//
// Open connects; OpenWith takes Options. A *Store is safe for concurrent
// use; its RowIters are not.
//
// # Reads
//
// A Range [Start, Stop) read in reverse is a reversed HBase scan from Stop,
// left out, down to Start, taken in (the client's ExcludeStart and
// IncludeStop options), so it reads exactly the keys a forward scan reads.
// The region servers do what Pushdown declares (pushdown.go): the column
// projection, keys-only reads, the row limit, several ranges read forward
// by one scan, each part of a filter that an HBase filter decides
// exactly as SQL does, and reads that skip the block cache
// (ReadOptions.NoBlockCache is cache_blocks = false in each Scan and Get). Place asks first and sends only those; a read
// carrying anything else is refused with exec.ErrNotPushable. A read
// becomes one filter, a MUST_PASS_ALL list of, in order:
//
//	MultiRowRangeFilter         the ranges of a multi-range scan
//	the pushed conjuncts        SingleColumnValueFilters (stored columns),
//	                            RowFilters with a regex over the whole key
//	                            (key fields), FilterLists for AND and OR
//	the projection              Or(And(FirstKeyOnly, Qualifier != each
//	                            wanted, KeyOnly), Qualifier = each wanted):
//	                            every row, with only the wanted cells, or
//	                            its first cell emptied; And(FirstKeyOnly,
//	                            KeyOnly) for keys alone
//
// The value tests come before the projection, which skips cells, so that
// each sees every cell of the row; the columns they test are among the
// wanted ones, or a SingleColumnValueFilter would not see its column.
// Regexes decode bytes as ISO-8859-1, so that they match bytes; a LIKE
// character is a valid UTF-8 sequence or else one byte, as Go reads it.
//
// A Get with ReadOptions.Markers sends a second, raw MultiGet (hbase.Raw)
// beside the plain one, at the same time, and keeps only the delete
// markers of its answer: a row delete's family markers, a NULL's column
// markers, and single-version ones written by other clients.
//
// Regions, and so SHOW REGIONS and the regions an aggregate asks, come
// from the client's Regions: a list that tiles the table, or an error
// naming the gap hbase:meta left while a split, merge or reopen was being
// written. A Scan walks its range region by region through the client,
// so it never skips a region either.
//
// Stats.Bytes are the response bytes read off the socket, Stats.RPCs and
// Stats.Regions come from the client's scanner statistics, and
// Stats.RowsRead from the servers' ROWS_SCANNED (for Get: the rows
// returned, as a Get reports no counters; RPCs are the Multi calls sent).
//
// # Write timestamps
//
// HBase resolves a delete and a put of one cell by timestamp, not by
// arrival: a delete marker at time T hides every put at T or before, even
// one sent after it. A row rewritten within one millisecond would vanish
// if both took the server's clock. So every Mutate call takes one
// timestamp ts from a clock that never repeats or goes back (the wall
// clock, or the last timestamp plus one), and cells with Timestamp 0 are
// put at ts. A row delete (DeleteRow) that comes with cells is sent one
// millisecond before the oldest of them, so it hides everything written
// before and never the new cells; a column delete (Deletes) is sent at its
// own Timestamp (ts when 0), or before the oldest new cell of the same
// column, as a Delete.addColumns: versions written after it stay. A
// mutation that only deletes a row deletes it at ts. When one call names a key more than once, each
// later mutation of the key goes in a later round with a later timestamp,
// so the last one wins, as on the embedded store.
//
// # Known limits
//
//   - A mutation that deletes and puts is two HBase actions, not one atomic
//     row mutation: a reader may see the row between them.
//   - A row delete with cells of an explicit older timestamp T is sent at
//     T-1 so that it does not hide them; newer cells of the row survive it.
//     Writers with other clocks (other clients, server timestamps) are
//     ordered by HBase's rules, not these.
//   - CreateTable fails when the cluster cannot load a family's compression
//     codec, unless Options.CompressionFallback is set; then the family is
//     created without compression and Store.Fallbacks says so.
package hbasestore
