package embedded

import (
	"context"

	"github.com/rkql/rkql/exec"
)

var _ exec.ExistingIncrementer = (*Store)(nil)

// IncrementExisting is Increment of a row that exists: the row's read
// and the increment are one write transaction, run one at a time with
// the store's other increments and check-and-puts.
func (s *Store) IncrementExisting(ctx context.Context, table string, key []byte, family, qualifier string, delta int64) (int64, bool, error) {
	s.cellAtomic.Lock()
	defer s.cellAtomic.Unlock()
	var n int64
	var ok bool
	err := s.Atomically(ctx, func() error {
		rows, err := s.Get(ctx, table, [][]byte{key}, exec.ReadOptions{})
		if err != nil || len(rows) == 0 {
			return err
		}
		ok = true
		n, err = s.increment(ctx, table, key, family, qualifier, delta)
		return err
	})
	return n, ok, err
}
