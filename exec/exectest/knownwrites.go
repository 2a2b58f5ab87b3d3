package exectest

// WriteDivergence is a write sequence whose result through rkql is known
// to differ from the model, with a reproduction. RunWrites leaves out an
// operation of its shape (and counts it) so that the run stays green and
// checks everything else; TestKnownWriteDivergences (in exec/embedded and
// exec/hbase) fails once a reproduction no longer differs, so that the
// entry is removed when the cause is fixed.
type WriteDivergence struct {
	Name string
	// Why says what the model answers and what rkql answers.
	Why string
	// Markers says the divergence shows on a store that keeps delete
	// markers (HBase) rather than on the embedded store.
	Markers bool
	// Catalog is the catalog file of the reproduction, relative to the
	// module root; Statements run on an empty store, at the clock
	// Start (ms) when it is not 0; Query then returns Got, where the
	// model answers Want (rows as the shell prints them, one a line).
	Catalog    string
	Start      int64
	Statements []string
	Query      string
	Want, Got  string
}

const writeDivDeleteFuture = "delete-leaves-future-cells"

// KnownWriteDivergences is the to-do list of write fixes. Keep it short
// by fixing them; never add an entry without a reproduction.
var KnownWriteDivergences = []WriteDivergence{}
