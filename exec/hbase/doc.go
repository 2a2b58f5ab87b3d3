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
// ReadOptions.Filter is a Go function: it runs here, on each row as it
// arrives, and a Limit is then counted after it; without a Filter the
// Limit goes to the server. Stats.RowsRead counts the rows received,
// Stats.RPCs and Stats.Regions come from the client's scanner statistics
// (for Get: one RPC per region server and the regions the keys fall in).
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
package hbase
