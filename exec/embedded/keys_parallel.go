package embedded

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/rkql/rkql/exec"
)

var _ exec.ParallelKeyScanner = (*Store)(nil)

// minSubtreesPerPart is how many subtrees of the b-tree a part of a
// parallel key scan gets at least, so that parts of uneven subtrees still
// do about the same work.
const minSubtreesPerPart = 8

// ScanKeysParallel is ScanKeys over up to parts goroutines: the range's
// b-tree is cut into runs of whole subtrees, one run a part, in key
// order, and each part walks its run from the mapped store file with its
// own fn. It reads in one read transaction. A range too small to cut, or
// a store file that cannot be mapped, is read by ScanKeys with part 0's
// fn alone.
func (s *Store) ScanKeysParallel(ctx context.Context, tableName string, r exec.Range, opts exec.ReadOptions, parts int, newFn func(part int) func(key []byte) error) error {
	t, err := s.keysTable(ctx, tableName, &opts)
	if err != nil {
		return err
	}
	start, stop := nonEmpty(r.Start), nonEmpty(r.Stop)
	if parts < 2 || t.absent || emptyRange(start, stop) {
		return s.ScanKeys(ctx, tableName, r, opts, newFn(0))
	}
	tx, err := s.db.Begin(false)
	if err != nil {
		return wrapDB(err)
	}
	defer func() { _ = tx.Rollback() }()
	bk, err := t.bucket(tx)
	if err != nil {
		return err
	}
	root := uint64(bk.Root())
	base, ok := s.leafScan(tx, stop)
	if root == 0 || !ok {
		_ = tx.Rollback()
		return s.ScanKeys(ctx, tableName, r, opts, newFn(0))
	}
	subs, err := base.subtrees(root, start, parts*minSubtreesPerPart)
	if err != nil {
		return pageErr(err, t)
	}
	if len(subs) < 2*minSubtreesPerPart {
		_ = tx.Rollback()
		return s.ScanKeys(ctx, tableName, r, opts, newFn(0))
	}
	parts = min(parts, len(subs)/minSubtreesPerPart)
	if st := opts.Stats; st != nil {
		st.RPCs.Add(1)
		st.Regions.Add(int64(t.regionsTouched(start, stop)))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	scans := make([]*keyScan, parts)
	for i := range scans {
		scans[i] = s.newKeyScan(t, &opts, newFn(i), stop, math.MaxInt)
		scans[i].ctx = ctx
	}
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for i, k := range scans {
		run := subs[i*len(subs)/parts : (i+1)*len(subs)/parts]
		wg.Go(func() {
			ls := base
			ls.to = k
			for _, sub := range run {
				if err := ls.visit(sub.page, sub.start, sub.depth); err != nil {
					if !errors.Is(err, errStopScan) {
						errs[i] = err
						cancel()
					}
					return
				}
			}
		})
	}
	wg.Wait()
	if st := opts.Stats; st != nil {
		for _, k := range scans {
			st.RowsRead.Add(int64(k.n))
			st.Bytes.Add(int64(k.bsize))
		}
	}
	// The first error in key order is the one a serial scan would give;
	// a part cancelled by another's error gives the context's.
	var first error
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			first = err
			break
		}
		first = cmpErr(first, err)
	}
	if first != nil {
		return pageErr(first, t)
	}
	return nil
}

// pageErr turns a damaged page into the store's corruption error.
func pageErr(err error, t *table) error {
	if errors.Is(err, errPageDamaged) {
		return fmt.Errorf("%w: table %s: a page of its tree cannot be read", ErrCorrupt, t.spec.Name)
	}
	return err
}

// subtree is a page of the b-tree whose keys a part walks: start is where
// the walk begins in it (nil: its first key), depth its level.
type subtree struct {
	page  uint64
	start []byte
	depth int
}

// subtrees cuts the part of the tree rooted at root that holds keys from
// start to ls.stop into at least want subtrees, in key order, by going
// down a level at a time while there are fewer; it stops at the leaves.
// Only the first subtree keeps start.
func (ls *leafScan) subtrees(root uint64, start []byte, want int) ([]subtree, error) {
	level := []subtree{{page: root, start: start}}
	for len(level) < want {
		if level[0].depth > maxTreeDepth {
			return nil, errPageDamaged
		}
		var next []subtree
		for _, sub := range level {
			p, err := ls.page(sub.page)
			if err != nil {
				return nil, err
			}
			flags, count := ne.Uint16(p[8:]), int(ne.Uint16(p[10:]))
			if flags != flagBranch {
				return level, nil // the leaves: no level below
			}
			if pageHeaderSize+count*elementSize > len(p) {
				return nil, errPageDamaged
			}
			i, err := branchStart(p, count, sub.start)
			if err != nil {
				return nil, err
			}
			for first := i; i < count; i++ {
				k, child, ok := branchKey(p, i)
				if !ok {
					return nil, errPageDamaged
				}
				if i > first && ls.stop != nil && bytes.Compare(k, ls.stop) >= 0 {
					break
				}
				st := sub.start
				if i > first {
					st = nil
				}
				next = append(next, subtree{page: child, start: st, depth: sub.depth + 1})
			}
		}
		if len(next) == 0 {
			return level, nil
		}
		level = next
	}
	return level, nil
}
