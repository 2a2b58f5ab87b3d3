package exec

import "context"

// ExistingIncrementer is a CellAtomic that can make its Increment
// conditional on the row: the counter changes only when the row has a
// cell, in the same atomic step, so that an UPDATE's increment never
// creates a row (HBase's checkAndMutate of an Increment under a
// FirstKeyOnlyFilter condition; the embedded store's write transaction).
type ExistingIncrementer interface {
	CellAtomic
	// IncrementExisting adds delta to family:qualifier of row key when
	// the row exists (a row without the column counts from 0) and
	// returns its new value; ok is false, and nothing is written, when
	// it does not exist.
	IncrementExisting(ctx context.Context, table string, key []byte, family, qualifier string, delta int64) (n int64, ok bool, err error)
}
