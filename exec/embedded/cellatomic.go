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
// check-and-puts run one at a time.
func (s *Store) Increment(ctx context.Context, table string, key []byte, family, qualifier string, delta int64) (int64, error) {
	s.cellAtomic.Lock()
	defer s.cellAtomic.Unlock()
	var n int64
	err := s.Atomically(ctx, func() error {
		v, ok, err := s.newestCell(ctx, table, key, family, qualifier)
		if err != nil {
			return err
		}
		if ok && len(v) != 8 {
			return fmt.Errorf("embedded: increment of table %s row %s %s:%s: the cell is %d bytes, not an 8-byte counter", table, binaryString(key), family, qualifier, len(v))
		}
		if ok {
			n = int64(binary.BigEndian.Uint64(v))
		}
		n += delta
		return s.Mutate(ctx, table, []exec.Mutation{{Key: key, Cells: []exec.Cell{{Family: family, Qualifier: qualifier,
			Value: binary.BigEndian.AppendUint64(nil, uint64(n))}}}})
	})
	return n, err
}

// CheckAndPut applies m when family:qualifier of its row holds expected
// (no cell for nil), in one write transaction.
func (s *Store) CheckAndPut(ctx context.Context, table string, m exec.Mutation, family, qualifier string, expected []byte) (bool, error) {
	s.cellAtomic.Lock()
	defer s.cellAtomic.Unlock()
	done := false
	err := s.Atomically(ctx, func() error {
		v, ok, err := s.newestCell(ctx, table, m.Key, family, qualifier)
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

// newestCell reads the newest value of family:qualifier in row key.
func (s *Store) newestCell(ctx context.Context, table string, key []byte, family, qualifier string) ([]byte, bool, error) {
	rows, err := s.Get(ctx, table, [][]byte{key}, exec.ReadOptions{})
	if err != nil {
		return nil, false, err
	}
	for _, r := range rows {
		for _, c := range r.Cells {
			if c.Family == family && c.Qualifier == qualifier {
				return c.Value, true, nil
			}
		}
	}
	return nil, false, nil
}
