package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"

	"github.com/rkql/rkql/exec"
)

var _ exec.CellAtomic = (*Store)(nil)

// Increment adds delta to an 8-byte counter cell: its read and its write
// are one write transaction (Atomically), and the store's increments and
// check-and-puts run one at a time. As HBase's Increment, the new cell's
// timestamp is the write time or one past the old cell's, whichever is
// later: a process whose clock (or whose write timestamps, which run
// ahead of it under load) is behind the last writer's still writes the
// newest cell.
func (s *Store) Increment(ctx context.Context, table string, key []byte, family, qualifier string, delta int64) (int64, error) {
	s.cellAtomic.Lock()
	defer s.cellAtomic.Unlock()
	var n int64
	err := s.Atomically(ctx, func() error {
		var err error
		n, err = s.increment(ctx, table, key, family, qualifier, delta)
		return err
	})
	return n, err
}

// increment is Increment's read and write, inside its transaction and
// under cellAtomic.
func (s *Store) increment(ctx context.Context, table string, key []byte, family, qualifier string, delta int64) (int64, error) {
	v, ts, ok, err := s.newestCell(ctx, table, key, family, qualifier)
	if err != nil {
		return 0, err
	}
	if ok && len(v) != 8 {
		return 0, fmt.Errorf("embedded: increment of table %s row %s %s:%s: the cell is %d bytes, not an 8-byte counter", table, binaryString(key), family, qualifier, len(v))
	}
	var n int64
	if ok {
		n = int64(binary.BigEndian.Uint64(v))
	}
	n += delta
	return n, s.Mutate(ctx, table, []exec.Mutation{{Key: key, Cells: []exec.Cell{{Family: family, Qualifier: qualifier,
		Timestamp: max(s.writeTimestamp(), ts+1), Value: binary.BigEndian.AppendUint64(nil, uint64(n))}}}})
}

// CheckAndPut applies m when family:qualifier of its row holds expected
// (no cell for nil), in one write transaction.
func (s *Store) CheckAndPut(ctx context.Context, table string, m exec.Mutation, family, qualifier string, expected []byte) (bool, error) {
	s.cellAtomic.Lock()
	defer s.cellAtomic.Unlock()
	done := false
	err := s.Atomically(ctx, func() error {
		v, _, ok, err := s.newestCell(ctx, table, m.Key, family, qualifier)
		if err != nil {
			return err
		}
		if ok != (expected != nil) || (ok && !bytes.Equal(v, expected)) {
			return nil
		}
		done = true
		return s.Mutate(ctx, table, []exec.Mutation{m})
	})
	return done, err
}

// newestCell reads the newest value of family:qualifier in row key, and
// its timestamp.
func (s *Store) newestCell(ctx context.Context, table string, key []byte, family, qualifier string) ([]byte, int64, bool, error) {
	rows, err := s.Get(ctx, table, [][]byte{key}, exec.ReadOptions{})
	if err != nil {
		return nil, 0, false, err
	}
	for _, r := range rows {
		for _, c := range r.Cells {
			if c.Family == family && c.Qualifier == qualifier {
				return c.Value, c.Timestamp, true, nil
			}
		}
	}
	return nil, 0, false, nil
}
