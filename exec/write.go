package exec

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/rkql/rkql/catalog"
)

// EmptyQualifier is the cell written for a row whose columns are all key
// fields, since HBase has no row without a cell.
const EmptyQualifier = "_0"

// RowMutation returns the write of one logical row of t. Every non-NULL stored
// column becomes a cell at timestamp ts (0: the time of the write).
func RowMutation(t *catalog.Table, row catalog.Row, ts int64, rnd func(int64) int64) (Mutation, error) {
	if rnd == nil {
		rnd = rand.Int64N
	}
	key, err := t.EncodeKey(row, rnd)
	if err != nil {
		return Mutation{}, err
	}
	m := Mutation{Key: key}
	for i, c := range t.Columns {
		if c.Family == "" || row[i].Null {
			continue
		}
		m.Cells = append(m.Cells, Cell{Family: c.Family, Qualifier: c.Qualifier, Timestamp: ts, Value: c.EncodeCell(row[i])})
	}
	if len(m.Cells) == 0 {
		m.Cells = append(m.Cells, Cell{Family: t.Families[0].Name, Qualifier: EmptyQualifier, Timestamp: ts})
	}
	return m, nil
}

// Insert writes logical rows in batches. progress, when set, is told how
// many rows are written so far.
func (x *Executor) Insert(ctx context.Context, t *catalog.Table, rows []catalog.Row, ts int64, progress func(int)) error {
	const batch = 5000
	muts := make([]Mutation, 0, min(batch, len(rows)))
	for i, r := range rows {
		m, err := RowMutation(t, r, ts, nil)
		if err != nil {
			return err
		}
		muts = append(muts, m)
		if len(muts) == batch || i == len(rows)-1 {
			if err := x.Store.Mutate(ctx, t.Physical, muts); err != nil {
				return err
			}
			muts = muts[:0]
			if progress != nil {
				progress(i + 1)
			}
		}
	}
	return nil
}

// Spec returns the physical table spec of a catalog table.
func Spec(t *catalog.Table) TableSpec {
	s := TableSpec{Name: t.Physical, Splits: t.SplitKeys()}
	for _, f := range t.Families {
		s.Families = append(s.Families, FamilySpec{
			Name: f.Name, Versions: f.Versions, TTL: f.TTL, Compression: f.Compression,
			BloomFilter: f.BloomFilter, BlockSize: f.BlockSize, BlockCache: f.BlockCache, InMemory: f.InMemory,
		})
	}
	return s
}

// EnsureTable creates t's physical table if it does not exist.
func (x *Executor) EnsureTable(ctx context.Context, t *catalog.Table) error {
	if err := x.Store.CreateTable(ctx, Spec(t)); err != nil && !errors.Is(err, ErrTableExists) {
		return err
	}
	return nil
}
