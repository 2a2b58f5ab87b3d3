package hbasestore

import (
	"context"
	"fmt"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/hbase"
)

// Mutate applies the mutations with explicit timestamps (see the package
// documentation): in rounds when a key repeats, each round in MultiMutate
// batches of Options.MutateBatch mutations.
func (s *Store) Mutate(ctx context.Context, table string, muts []exec.Mutation) error {
	for _, round := range rounds(muts) {
		ts := s.nextTimestamp()
		var batch []hbase.Mutation
		for i, m := range round {
			hm, err := toHBase(table, m, ts)
			if err != nil {
				return err
			}
			batch = append(batch, hm...)
			if len(batch) > 0 && (len(batch) >= s.opts.MutateBatch || i == len(round)-1) {
				if err := s.c.MultiMutate(ctx, batch); err != nil {
					return mapErr(err)
				}
				batch = batch[:0]
			}
		}
	}
	return nil
}

// nextTimestamp returns a write timestamp in milliseconds later than any
// handed out before: the clock's, or the last one plus one.
func (s *Store) nextTimestamp() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts := s.opts.Clock().UnixMilli()
	if ts <= s.mu.lastTS {
		ts = s.mu.lastTS + 1
	}
	s.mu.lastTS = ts
	return ts
}

// rounds splits muts so that no key repeats within a round: the n-th
// mutation of a key goes in round n. Order within a key is kept.
func rounds(muts []exec.Mutation) [][]*exec.Mutation {
	if len(muts) == 0 {
		return nil
	}
	seen := make(map[string]int, len(muts))
	out := [][]*exec.Mutation{make([]*exec.Mutation, 0, len(muts))}
	for i := range muts {
		m := &muts[i]
		n := seen[string(m.Key)]
		seen[string(m.Key)] = n + 1
		if n == len(out) {
			out = append(out, nil)
		}
		out[n] = append(out[n], m)
	}
	return out
}

// toHBase turns one mutation into at most two client mutations: a Delete
// of the row or of the named columns, then a Put of the cells. Cells with
// Timestamp 0 are put at ts. A delete must not hide a cell written with it,
// and HBase hides every put at or before a delete's timestamp, so a row
// delete goes one millisecond before the oldest cell, and a column delete
// at its own timestamp (ts when 0), or before the oldest new cell of the
// same column.
func toHBase(table string, m *exec.Mutation, ts int64) ([]hbase.Mutation, error) {
	if len(m.Key) == 0 {
		return nil, fmt.Errorf("hbase store: table %s: empty row key", table)
	}
	rowDelTS := ts
	if m.DeleteAt > 0 {
		rowDelTS = m.DeleteAt
	}
	// The newest version each deleted column loses.
	colDelTS := make(map[[2]string]int64, len(m.Deletes))
	for _, c := range m.Deletes {
		t := c.Timestamp
		if t == 0 {
			t = ts
		}
		if t < 0 {
			return nil, fmt.Errorf("hbase store: table %s: negative timestamp %d", table, t)
		}
		fq := [2]string{c.Family, c.Qualifier}
		if old, ok := colDelTS[fq]; ok {
			t = max(t, old)
		}
		colDelTS[fq] = t
	}
	cells := make([]hbase.Cell, len(m.Cells))
	for i, c := range m.Cells {
		t := c.Timestamp
		if t == 0 {
			t = ts
		}
		if t < 0 {
			return nil, fmt.Errorf("hbase store: table %s: negative timestamp %d", table, t)
		}
		rowDelTS = min(rowDelTS, t-1)
		fq := [2]string{c.Family, c.Qualifier}
		if d, ok := colDelTS[fq]; ok {
			colDelTS[fq] = min(d, t-1)
		}
		cells[i] = hbase.Cell{Family: []byte(c.Family), Qualifier: []byte(c.Qualifier), Timestamp: t, Value: c.Value}
	}
	var out []hbase.Mutation
	switch {
	case m.DeleteRow:
		d, err := hbase.NewDelete(table, m.Key, hbase.Timestamp(rowDelTS))
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	case len(m.Deletes) > 0:
		var opts []hbase.Option
		done := make(map[[2]string]bool, len(m.Deletes))
		for _, c := range m.Deletes {
			fq := [2]string{c.Family, c.Qualifier}
			if done[fq] {
				continue
			}
			done[fq] = true
			if t := colDelTS[fq]; t >= 0 {
				opts = append(opts, hbase.ColumnsAt(t, c.Family, c.Qualifier))
			}
		}
		if len(opts) > 0 {
			d, err := hbase.NewDelete(table, m.Key, opts...)
			if err != nil {
				return nil, err
			}
			out = append(out, d)
		}
	}
	if len(cells) > 0 {
		p, err := hbase.NewPut(table, m.Key, cells, hbase.Timestamp(ts))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// ConcurrentWrites says that Mutate may be called from several goroutines
// at once (exec.ConcurrentWriter): each call is its own Multi requests.
func (s *Store) ConcurrentWrites() bool { return true }
