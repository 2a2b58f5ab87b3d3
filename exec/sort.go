package exec

import (
	"container/heap"
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/rkql/rkql/planner"
)

// topHeap keeps the best n rows: its root is the worst of them.
type topHeap struct {
	rows []rowRef
	less func(a, b rowRef) bool
}

func (h *topHeap) Len() int           { return len(h.rows) }
func (h *topHeap) Less(i, j int) bool { return h.less(h.rows[j], h.rows[i]) }
func (h *topHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *topHeap) Push(x any)         { h.rows = append(h.rows, x.(rowRef)) }
func (h *topHeap) Pop() any {
	r := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return r
}

// sort drains in and returns its rows sorted: with a limit through a
// bounded heap, otherwise up to the sort budget. It holds each row as one
// encoding of the columns the nodes above read (Sort.Keep), sort keys
// first, in an arena (see sortCodec and rowArena), and decodes the rows
// on the way out.
func (x *Executor) sort(ctx context.Context, in rowIter, s *planner.Sort) (rowIter, error) {
	defer in.close()
	budget := x.SortBudget
	if budget <= 0 {
		budget = 1_000_000
	}
	var (
		rows []rowRef
		c    *sortCodec
		a    = &rowArena{}
		h    *topHeap
		enc  []byte // the row being added, encoded
	)
	less := func(i, j rowRef) bool { return c.compare(a.row(i), a.row(j)) < 0 }
	for {
		r, err := in.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if c == nil {
			c = newSortCodec(s.Keep, len(r.Vals), s.Keys)
			h = &topHeap{less: less}
		}
		enc = c.encode(enc[:0], r.Vals)
		if s.Limit != planner.NoLimit {
			if int64(h.Len()) < s.Limit {
				if h.Len() >= budget {
					return nil, fmt.Errorf("%w: ORDER BY … LIMIT %d needs a client sort holding more than %d rows; lower the LIMIT or raise --sort-budget", ErrSortBudget, s.Limit, budget)
				}
				heap.Push(h, a.add(enc))
			} else if h.Len() > 0 && c.compare(enc, a.row(h.rows[0])) < 0 {
				a.drop(c.size(a.row(h.rows[0])))
				h.rows[0] = a.add(enc)
				heap.Fix(h, 0)
				if a.wasteful() {
					a = a.compact(h.rows, c)
				}
			}
			continue
		}
		if len(rows) >= budget {
			return nil, fmt.Errorf("%w: ORDER BY needs a client sort of more than %d rows; add a LIMIT or raise --sort-budget", ErrSortBudget, budget)
		}
		rows = append(rows, a.add(enc))
	}
	if c == nil {
		return &sliceIter{}, nil
	}
	if s.Limit != planner.NoLimit {
		rows = h.rows
	}
	sort.SliceStable(rows, func(i, j int) bool { return less(rows[i], rows[j]) })
	return &unpackIter{rows: rows, a: a, c: c}, nil
}

// unpackIter decodes sorted rows at full width; the columns the sort did
// not keep are zero values no node above reads.
type unpackIter struct {
	rows []rowRef
	a    *rowArena
	c    *sortCodec
	i    int
}

func (u *unpackIter) next(context.Context) (*Row, error) {
	if u.i >= len(u.rows) {
		u.close() // the arena goes as soon as the last row is out
		return nil, io.EOF
	}
	r := u.rows[u.i]
	u.i++
	return &Row{Vals: u.c.decode(u.a.row(r))}, nil
}

func (u *unpackIter) close() { u.rows, u.a, u.i = nil, nil, 0 }
