package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// semiBatch is what a lookup semi-join's reads of the inner table did,
// for EXPLAIN: the values a read serves, the reads, what one read costs
// (as planned), and the store's round trips, measured.
type semiBatch struct {
	batch int
	reads int
	cost  string
	rpcs  int64
	plan  []string // the titles of one read's plan steps
}

// semiLookups reads the inner rows of a lookup semi-join for the outer
// values probe as a lookup join reads its batches: one read per
// planner.JoinBatch values (query gives the statement of a batch), each
// one multi-get of its keys when they bind the inner table's whole key
// (one RPC per region server, in parallel), several batches at once
// (exec.LookupBatches). Every batch is planned and placed first; ok is
// false when one cannot be planned (the hash form runs then), and
// nothing has been read. The reads' figures are added to st.
func (e *Engine) semiLookups(ctx context.Context, probe []parser.Expr, st *runStats, query func(vals []parser.Expr) *parser.SelectStmt) ([]catalog.Row, semiBatch, bool, error) {
	sb := semiBatch{batch: planner.JoinBatch}
	if len(probe) == 0 {
		return nil, sb, true, nil
	}
	var x *exec.Executor
	var plans []*placed.Plan
	for from := 0; from < len(probe); from += planner.JoinBatch {
		q := query(probe[from:min(from+planner.JoinBatch, len(probe))])
		if hasSubquery(q) {
			return nil, sb, false, nil
		}
		p, err := e.pl.Plan(ctx, q)
		if err != nil {
			return nil, sb, false, nil // not bound by the values either
		}
		sel, ok := p.(*planner.Select)
		if !ok || sel.Raw {
			return nil, sb, false, nil
		}
		if sb.cost == "" {
			sb.cost = planner.BatchCost(sel, planner.JoinBatch)
			for _, step := range sel.Explain(planner.ExplainEnv{}, nil).Steps {
				sb.plan = append(sb.plan, step.Title)
			}
		}
		// A subquery only reads: the store it opens first is opened to read.
		prev := e.reading
		e.reading = true
		bx, pp, err := e.prepare(ctx, sel)
		e.reading = prev
		if errors.Is(err, errNeverCreated) {
			continue // the table holds no row
		}
		if err != nil {
			return nil, sb, true, err
		}
		x = bx
		plans = append(plans, pp)
	}
	sb.reads = len(plans)
	budget := e.subqueryBudget()
	var held, rpcs atomic.Int64
	var mu sync.Mutex
	batches, err := exec.LookupBatches(ctx, len(plans), func(ctx context.Context, i int) ([]catalog.Row, error) {
		var bst exec.Stats
		rows, err := x.RunAll(ctx, plans[i], &bst)
		rpcs.Add(bst.RPCs.Load())
		mu.Lock()
		st.add(&bst)
		mu.Unlock()
		if err != nil {
			return nil, err
		}
		if e.cfg.Strict && bst.Malformed.Load() > 0 {
			return nil, fmt.Errorf("%w (--strict): %v", ErrMalformed, bst.FirstMalformed())
		}
		if held.Add(int64(len(rows))) > int64(budget) {
			return nil, &parser.Error{Pos: parser.NoPos, Err: ErrSubqueryBudget,
				Msg: fmt.Sprintf("the subquery yields more than %d rows, the sort budget: narrow its WHERE or raise the budget", budget)}
		}
		return rows, nil
	})
	sb.rpcs = rpcs.Load()
	if err != nil {
		return nil, sb, true, err
	}
	var out []catalog.Row
	for _, b := range batches {
		out = append(out, b...)
	}
	return out, sb, true, nil
}

// batchAttrs are the EXPLAIN lines of a lookup semi-join's batches: the
// batch size and the cost of one read always, the reads and their RPCs
// as measured with ANALYZE.
func (r subqueryRun) batchAttrs(analyze bool) []planner.Attr {
	b := r.batch
	if b == nil {
		return nil
	}
	attrs := []planner.Attr{
		{Label: "BATCH", Value: fmt.Sprintf("one read of the inner table per %d outer values, up to %d at once, the values found matched in the client", b.batch, exec.LookupDepth)},
		{Label: "batch rows", Value: int64(b.batch), Detail: true},
	}
	if b.cost != "" {
		attrs = append(attrs, planner.Attr{Label: "COST", Value: fmt.Sprintf("one read per batch of %d outer values, each %s", b.batch, b.cost)})
	}
	if analyze {
		attrs = append(attrs, planner.Attr{Label: "ANALYZE", Value: fmt.Sprintf("outer values %d, reads %d in %d RPCs, rows found %d", r.outer, b.reads, b.rpcs, r.rows)},
			planner.Attr{Label: "outer values", Value: int64(r.outer), Detail: true},
			planner.Attr{Label: "reads", Value: int64(b.reads), Detail: true},
			planner.Attr{Label: "rpcs", Value: b.rpcs, Detail: true})
	}
	return attrs
}
