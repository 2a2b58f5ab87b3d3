// Package embedded is rkql's default Store: HBase-shaped tables kept in one
// local bbolt file, so the shell works without a cluster.
//
//	Mutate ──sort by key──> one write tx per 10k rows ──> bbolt
//	        (in Atomically: the statement's one write tx)
//	Get ──────────────────> one read tx per call ─────────> bbolt
//	Scan ─> RowIter.Next ─> one read tx per refill ───────> bbolt
//	                        (≤1024 rows, re-seek after the last key)
//
// Open returns a *Store, which implements exec.Store and adds DropTable,
// Count and Spec. Options' zero value gives the defaults; Clock makes TTL
// testable.
//
// Processes share a store through bbolt's flock on rkql.db: a Store opened
// for writing holds it exclusively, one opened with Options.ReadOnly holds
// it shared, so any number of readers open at once while a writer waits for
// all of them, and they for it. Open gives up after Options.LockTimeout
// with an error matching ErrInUse. Check takes the shared lock, Repair the
// exclusive one. A read-only Store writes nothing: a missing store reads as
// empty, CreateTable of a new table makes one in memory only, and writes
// fail with ErrReadOnly. Readers never see half a write: a writer commits
// before it lets go of the lock, and each read runs in a bbolt transaction.
//
// # On-disk layout
//
// The store is a directory holding one file, rkql.db. Inside it:
//
//   - the bucket "#meta" maps each physical table name ("ns:table" or
//     "table") to the JSON form of its metadata: the exec.TableSpec it was
//     created with (families with VERSIONS and TTL, split keys) and its
//     creation time in milliseconds, which becomes the region id. The key
//     "#format" holds the format version, currently "1". Neither '#' nor the
//     byte 0x00 may appear in a table name, so meta keys never collide.
//   - one top-level bucket per table, named like the table. Its keys are the
//     HBase rowkeys, byte for byte; its values hold all the cells of a row.
//
// Beside rkql.db, rkql.db.tables keeps a copy of every table's metadata
// (a JSON object of name to meta entry), rewritten whenever a table is
// created, dropped or altered. Only Repair reads it, when the meta bucket
// is lost.
//
// A row value is
//
//	row     = 0x01 family+
//	family  = uvarint(len) name  uvarint(ncolumns) column+
//	column  = uvarint(len) qualifier  uvarint(nversions) version+
//	version = uvarint(ts or delta) uvarint(len) value
//
// The first version of a column stores its timestamp (milliseconds since the
// epoch); each later one stores how much older it is than the one before.
//
// # Invariants
//
//   - Families are sorted by name, qualifiers by bytes within a family, and
//     versions by timestamp, newest first, with no two versions of a column
//     sharing a timestamp. Readers rely on this to stop early.
//   - A column holds at most its family's VERSIONS versions; older versions
//     are trimmed when the row is written. Cells already past their family's
//     TTL are dropped on write as well; reads hide the ones that expire later.
//   - A row with no cells is not stored: its key is deleted.
//   - A delete removes the versions it covers and leaves no marker, so a
//     put written later at an older timestamp shows (on HBase a marker
//     hides it); a Get asking for ReadOptions.Markers gets none.
//   - A row is one bbolt value, so each row's mutation is atomic. A Mutate
//     call is not: it commits in transactions of up to Options.RowsPerTx
//     rows, except inside Atomically, where every Mutate writes into the
//     statement's one transaction (at most Options.MaxTxnRows row writes)
//     and every Get reads through it; scans read what is committed.
//   - Cells written with timestamp 0 get the write time. All cells of one
//     Mutate call share one timestamp, and successive calls get strictly
//     increasing ones, even within one millisecond.
//   - The in-memory copy of a table's metadata is checked against its meta
//     entry in every transaction, so a table dropped and created again
//     under the same name is never read or written with the old families.
//
// # Writes
//
// Mutate sorts its batch by key (bbolt inserts in key order are an order
// of magnitude faster) and reads each row before rewriting it. When every
// key of a transaction lies past the table's last key, as in a sorted bulk
// load, no row can exist yet: the read is skipped and pages are filled to
// 90% instead of bbolt's 50%, which halves the file. There is therefore no
// separate bulk-load call.
//
// # Reads
//
// A scan holds no transaction between calls to Next: each refill opens a read
// transaction, copies up to a batch of rows out of it, and closes it. A scan
// left open therefore never blocks a writer, not even one in the same
// goroutine that makes the file grow (bbolt remaps the file only when no
// read transaction is open). The price is that a scan is not one snapshot:
// rows written after it started may or may not be seen, as with an HBase scan
// that spans regions. Stats count rows walked up to the last row handed out,
// so LIMIT and early Close report what was really read. Each Get or Scan
// call counts one RPC, and the regions its range overlaps according to the
// table's split keys (for a Get, the distinct regions of its keys).
// Versions, TTL and Filter apply in that order; a row left with no cell is
// skipped but still counts as read.
//
// A Filter runs while the read transaction is open and must not call back
// into the Store; a row it cannot decide (an overflow) ends the read with
// the filter's error.
//
// ScanKeys (exec.KeyScanner) serves a count: it hands each visible row's
// key, borrowed, to a callback instead of building rows, in read
// transactions of 16 times ScanBatch rows. Without a filter it decides a
// row's visibility without building cells: in a table with a TTL it walks
// the row's cells for a newest version inside its family's TTL; in a table
// without one every cell is visible, so it reads the row's first family
// header only (format byte, a family of the table, its column count) and
// leaves a damaged tail to the reads that return cells and to Check.
//
// # Damage
//
// bbolt reads its file through a memory map and trusts it: a page past the
// end of a truncated file is a SIGBUS, a wild page id a SIGSEGV, a bad page
// header a panic. Open therefore trusts nothing it has not checked:
//
//   - before bbolt sees the file, an empty file (a missing one is a new
//     store), a file with no valid meta page, and a file shorter than its
//     meta page's high-water mark (pgid × page size) are errors;
//   - bbolt runs with faults turned into panics (debug.SetPanicOnFault),
//     and any panic becomes an error; the file's lock is dropped, so a later
//     Open in the same process is not locked out;
//   - once this process holds the lock, every page reachable from the meta
//     page is read with ReadAt, not through the map, and checked: page ids,
//     types, entry bounds, key order, no page reached twice, the freelist,
//     and no page neither in use nor free (files over Options.VerifyLimit,
//     4 MiB by default, so that start-up stays quick, get the first two
//     checks only).
//
// Damage is one line matching ErrDamaged, naming the file and saying what
// to do. Check reports every problem, one line each, then runs bbolt's own
// tx.Check on a file whose pages are sound. Repair copies what is readable
// (table metadata, and each row that decodes) key by key into a new file,
// keeps the damaged file as rkql.db.damaged-<time> and moves the new one in
// place; rows on unreadable pages, and rows of a table whose metadata is
// lost, are counted, not saved. Where the tree is damaged (a file cut short
// loses its root page, which bbolt rewrites at the end of the file at each
// commit), Repair also reads the intact leaf pages the tree no longer
// reaches, one by one, and saves the rows it can place in their table; see
// salvage.go for how, and for what it cannot tell.
package embedded
