package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/rkql/rkql/catalog"
)

// buildBatch is how many writes BUILD INDEX sends at a time.
const buildBatch = 5000

// BuildIndex makes ix hold exactly the entries t's rows give: it deletes
// every entry the index holds (left from an earlier index of the same
// name, or from writes while it was not built), then writes each data
// row's entry, verified, in batches. It returns how many entries it
// wrote and how many it deleted. An index unique on its key is refused
// two rows that give one entry. progress, when set, is told how many
// entries are written so far.
func (x *Executor) BuildIndex(ctx context.Context, t *catalog.Table, ix *catalog.Index, progress func(int64)) (written, removed int64, err error) {
	if err := x.EnsureTable(ctx, ix.Table); err != nil {
		return 0, 0, err
	}
	if removed, err = x.clearTable(ctx, ix.Table); err != nil {
		return 0, removed, err
	}
	var batch []Mutation
	flush := func() error {
		if err := x.buildUnique(ctx, t, ix, batch); err != nil {
			return err
		}
		if err := x.mutate(ctx, ix.Physical, batch); err != nil {
			return err
		}
		written += int64(len(batch))
		batch = batch[:0]
		if progress != nil {
			progress(written)
		}
		return nil
	}
	err = x.scanAll(ctx, t, func(r *Row) error {
		m, ok, err := indexEntry(ix, t, r.Vals[:len(t.Columns)], true)
		if err != nil || !ok {
			return err
		}
		batch = append(batch, m)
		if len(batch) == buildBatch {
			return flush()
		}
		return nil
	})
	if err != nil {
		return written, removed, err
	}
	return written, removed, flush()
}

// buildUnique refuses a batch of BUILD INDEX entries of an index unique
// on its key when two of them, or one of them and an entry the build
// wrote before, share a key: two rows would share one entry, and the
// index would lose one of them.
func (x *Executor) buildUnique(ctx context.Context, t *catalog.Table, ix *catalog.Index, batch []Mutation) error {
	if holdsKey(ix, t) || len(batch) == 0 {
		return nil
	}
	keys := make([][]byte, 0, len(batch))
	seen := make(map[string]bool, len(batch))
	for _, m := range batch {
		if seen[string(m.Key)] {
			return buildUniqueErr(ix, t, m.Key)
		}
		seen[string(m.Key)] = true
		keys = append(keys, m.Key)
	}
	have, err := x.Store.Get(ctx, ix.Physical, keys, ReadOptions{})
	if err != nil {
		return err
	}
	if len(have) > 0 {
		return buildUniqueErr(ix, t, have[0].Key)
	}
	return nil
}

func buildUniqueErr(ix *catalog.Index, t *catalog.Table, key []byte) error {
	return fmt.Errorf("index %s: two rows of %s have %s, and the index's key must be unique (it leaves out key fields of %s)", ix.Name, t.Name, entryText(ix, key), t.Name)
}

// clearTable deletes every row of t's physical table, in batches, and
// returns how many it deleted.
func (x *Executor) clearTable(ctx context.Context, t *catalog.Table) (int64, error) {
	it, err := x.Store.Scan(ctx, t.Physical, Range{}, ReadOptions{Table: t, Columns: []int{}})
	if err != nil {
		return 0, err
	}
	defer it.Close()
	var n int64
	var batch []Mutation
	for {
		sr, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, err
		}
		batch = append(batch, Mutation{Key: sr.Key, DeleteRow: true})
		if len(batch) == buildBatch {
			if err := x.mutate(ctx, t.Physical, batch); err != nil {
				return n, err
			}
			n += int64(len(batch))
			batch = batch[:0]
		}
	}
	if err := x.mutate(ctx, t.Physical, batch); err != nil {
		return n, err
	}
	return n + int64(len(batch)), nil
}
