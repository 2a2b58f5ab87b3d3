package hbasestore

import (
	"context"

	"github.com/rkql/rkql/exec"
)

var _ exec.ExistingIncrementer = (*Store)(nil)

// IncrementExisting is one checkAndMutate of an Increment: the region
// server tests that the row exists and adds to the counter.
func (s *Store) IncrementExisting(ctx context.Context, table string, key []byte, family, qualifier string, delta int64) (int64, bool, error) {
	n, ok, err := s.c.IncrementExisting(ctx, table, key, []byte(family), []byte(qualifier), delta)
	return n, ok, mapErr(err)
}
