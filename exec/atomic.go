package exec

import (
	"context"
	"strconv"
)

// Transactor is a Store that can make the writes of one statement one
// unit. The embedded store runs them in one transaction; HBase has no
// transaction across rows, and its Store is not a Transactor.
type Transactor interface {
	// Atomically runs fn. The Store's writes while fn runs are applied
	// together when fn returns nil, and none is applied when it returns
	// an error. Reads by key (Get) while fn runs see those writes.
	Atomically(ctx context.Context, fn func() error) error
}

// Atomically runs fn as one unit when x's store is a Transactor, and
// reports whether it did: when so and fn fails, nothing fn wrote stays.
func (x *Executor) Atomically(ctx context.Context, fn func() error) (atomic bool, err error) {
	if t, ok := x.Store.(Transactor); ok {
		return true, t.Atomically(ctx, fn)
	}
	return false, fn()
}

// BatchError is a write of Rows rows that failed: on a store without
// transactions, some of them may have been written. Its text is Err's.
type BatchError struct {
	Rows int
	Err  error
}

func (e *BatchError) Error() string { return e.Err.Error() }

func (e *BatchError) Unwrap() error { return e.Err }

// Thousands writes n in decimal with commas between groups of three
// digits: 91000 is "91,000".
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}
