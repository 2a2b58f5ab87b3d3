package hbasestore

import (
	"context"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/hbase"
)

var _ exec.CellAtomic = (*Store)(nil)

// Increment is HBase's Increment: the region server adds to the counter.
func (s *Store) Increment(ctx context.Context, table string, key []byte, family, qualifier string, delta int64) (int64, error) {
	n, err := s.c.Increment(ctx, table, key, []byte(family), []byte(qualifier), delta)
	return n, mapErr(err)
}

// CheckAndPut is HBase's checkAndMutate of a Put: the region server
// compares and writes.
func (s *Store) CheckAndPut(ctx context.Context, table string, m exec.Mutation, family, qualifier string, expected []byte) (bool, error) {
	ts := s.nextTimestamp()
	cells := make([]hbase.Cell, len(m.Cells))
	for i, c := range m.Cells {
		t := c.Timestamp
		if t == 0 {
			t = ts
		}
		cells[i] = hbase.Cell{Family: []byte(c.Family), Qualifier: []byte(c.Qualifier), Timestamp: t, Value: c.Value}
	}
	p, err := hbase.NewPut(table, m.Key, cells)
	if err != nil {
		return false, err
	}
	ok, err := s.c.CheckAndPut(ctx, p, []byte(family), []byte(qualifier), expected)
	return ok, mapErr(err)
}
