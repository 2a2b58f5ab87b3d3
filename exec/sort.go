package exec

import (
	"container/heap"
	"context"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/planner"
)

// topHeap keeps the best n rows: its root is the worst of them.
type topHeap struct {
	rows []*Row
	less func(a, b *Row) bool
}

func (h *topHeap) Len() int           { return len(h.rows) }
func (h *topHeap) Less(i, j int) bool { return h.less(h.rows[j], h.rows[i]) }
func (h *topHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *topHeap) Push(x any)         { h.rows = append(h.rows, x.(*Row)) }
func (h *topHeap) Pop() any {
	r := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return r
}

// sort drains in and returns its rows sorted: with a limit through a
// bounded heap, otherwise up to the sort budget. It holds each row packed:
// only the columns the nodes above read (Sort.Keep), in a slice of its
// own, and hands them on unpacked.
func (x *Executor) sort(ctx context.Context, in rowIter, s *planner.Sort) (rowIter, error) {
	defer in.close()
	budget := x.SortBudget
	if budget <= 0 {
		budget = 1_000_000
	}
	var (
		rows []*Row
		p    *packer
		h    *topHeap
		less func(a, b *Row) bool // over packed rows
	)
	for {
		r, err := in.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if p == nil {
			p = newPacker(s.Keep, len(r.Vals), s.Keys)
			less = p.less
			h = &topHeap{less: less}
		}
		if s.Limit != planner.NoLimit {
			if int64(h.Len()) < s.Limit {
				if h.Len() >= budget {
					return nil, fmt.Errorf("%w: ORDER BY … LIMIT %d needs a client sort holding more than %d rows; lower the LIMIT or raise --sort-budget", ErrSortBudget, s.Limit, budget)
				}
				heap.Push(h, p.pack(r))
			} else if h.Len() > 0 && p.beats(r, h.rows[0]) {
				h.rows[0] = p.pack(r)
				heap.Fix(h, 0)
			}
			continue
		}
		if len(rows) >= budget {
			return nil, fmt.Errorf("%w: ORDER BY needs a client sort of more than %d rows; add a LIMIT or raise --sort-budget", ErrSortBudget, budget)
		}
		rows = append(rows, p.pack(r))
	}
	if p == nil {
		return &sliceIter{}, nil
	}
	if s.Limit != planner.NoLimit {
		rows = h.rows
	}
	sort.SliceStable(rows, func(i, j int) bool { return less(rows[i], rows[j]) })
	return &unpackIter{rows: rows, p: p}, nil
}

// packer packs rows for a sort: a packed row holds the kept columns'
// values in order, and nothing of the key or slab it was decoded from.
type packer struct {
	keep  []int // columns kept, in packed order
	width int   // the unpacked row's length
	keys  []planner.SortKey
	at    []int // each sort key's position in a packed row
	full  []int // each sort key's position in an unpacked row
}

func newPacker(keep []int, width int, keys []planner.SortKey) *packer {
	if keep == nil {
		keep = make([]int, width)
		for i := range keep {
			keep[i] = i
		}
	}
	keep = slices.Clone(keep)
	slices.Sort(keep)
	keep = slices.Compact(keep)
	p := &packer{keep: keep, width: width, keys: keys}
	for _, k := range keys {
		i, _ := slices.BinarySearch(keep, k.Col)
		p.at = append(p.at, i)
		p.full = append(p.full, k.Col)
	}
	return p
}

func (p *packer) pack(r *Row) *Row {
	vals := make(catalog.Row, len(p.keep))
	for i, c := range p.keep {
		vals[i] = r.Vals[c]
	}
	return &Row{Vals: vals}
}

// compare orders a's and b's sort keys, found at positions ia and ib;
// NULL sorts first ascending.
func (p *packer) compare(a catalog.Row, ia []int, b catalog.Row, ib []int) int {
	for i, k := range p.keys {
		c := catalog.Compare(a[ia[i]], b[ib[i]])
		if c == 0 {
			continue
		}
		if k.Desc {
			return -c
		}
		return c
	}
	return 0
}

// less orders two packed rows.
func (p *packer) less(a, b *Row) bool { return p.compare(a.Vals, p.at, b.Vals, p.at) < 0 }

// beats reports whether row r, not packed, sorts before packed row b.
func (p *packer) beats(r, b *Row) bool { return p.compare(r.Vals, p.full, b.Vals, p.at) < 0 }

// unpackIter hands sorted packed rows on at full width; the columns the
// sort did not keep are zero values no node above reads.
type unpackIter struct {
	rows []*Row
	p    *packer
	i    int
}

func (u *unpackIter) next(context.Context) (*Row, error) {
	if u.i >= len(u.rows) {
		return nil, io.EOF
	}
	r := u.rows[u.i]
	u.rows[u.i] = nil
	u.i++
	vals := make(catalog.Row, u.p.width)
	for i, c := range u.p.keep {
		vals[c] = r.Vals[i]
	}
	return &Row{Vals: vals}, nil
}

func (u *unpackIter) close() { u.rows = nil }
