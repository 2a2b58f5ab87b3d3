package planner

import (
	"fmt"
	"slices"
	"strings"
)

// JoinRuns is a Placing that also has what each join step measured
// while the plan ran; EXPLAIN ANALYZE shows it on the step.
type JoinRuns interface {
	JoinRun(s *JoinStep) *JoinRun
}

// explainJoin builds the model of a plan whose leaf is a join: the first
// table's steps, then for each joined table its read and the join, then
// the steps above.
func (s *Select) explainJoin(j *Join, env ExplainEnv, an *Analysis, pl Placing) *Explained {
	e := &Explained{}
	fe := j.First.ExplainPlaced(env, nil, pl)
	e.Steps = append(e.Steps, fe.Steps...)
	costs := []string{fmt.Sprintf("%s: %s", j.First.Table.Name, costOf(fe))}
	if _, ok := derivedOf(j.First); ok {
		costs = []string{costOf(fe)} // it names the derived table
	}
	notes := slices.Clone(j.First.Notes)
	if _, ok := derivedOf(j.First); ok {
		notes = noteOf(fe) // its own and its SELECT's
	}
	index := j.First.IndexLookup() != nil
	runs, _ := pl.(JoinRuns)
	for _, st := range j.Steps {
		re := st.Right.ExplainPlaced(env, nil, pl)
		for k, rs := range re.Steps {
			if k == 0 && st.Kind == LookupJoin {
				// The batch's own keys make the ranges: the read as the
				// plan of one key shows it, without that key's bytes.
				op := rs.Op
				if st.Right.IndexLookup() != nil {
					op = "INDEX LOOKUP"
				}
				rs.Title = fmt.Sprintf("%s OVER %s FOR EACH BATCH", op, st.Right.Access.Table.Name)
				rs.Attrs = slices.DeleteFunc(slices.Clone(rs.Attrs), func(a Attr) bool { return a.Label == "BYTES" || a.Label == "ranges" })
				for i, a := range rs.Attrs {
					if a.Label == "ACCESS" {
						rs.Attrs[i].Value = rs.Op
					}
				}
			}
			rs.Title = fmt.Sprintf("JOIN %s: %s", st.Name, rs.Title)
			rs.Attrs = append([]Attr{{Label: "join", Value: st.Name, Detail: true}}, rs.Attrs...)
			e.Steps = append(e.Steps, rs)
		}
		e.Steps = append(e.Steps, st.step(runs))
		if st.Kind == LookupJoin {
			costs = append(costs, fmt.Sprintf("%s: one read per batch of %d left rows, each %s", st.Name, st.Batch, st.batchCost()))
		} else if _, ok := derivedOf(st.Right); ok {
			costs = append(costs, costOf(re)+", once")
		} else {
			costs = append(costs, fmt.Sprintf("%s: %s, once", st.Name, costOf(re)))
		}
		if _, ok := derivedOf(st.Right); ok {
			notes = append(notes, noteOf(re)...) // each named by the derived table
		} else {
			for _, n := range st.Right.Notes {
				if st.Kind == HashJoin {
					notes = append(notes, st.Name+": "+n)
				}
			}
		}
		index = index || st.Right.IndexLookup() != nil
	}
	for _, n := range Path(s.Root)[1:] {
		e.Steps = append(e.Steps, explainNode(n, pl)...)
	}
	e.Plan = append(e.Plan, Attr{Label: "COST", Value: strings.Join(costs, "; ")})
	if notes = append(notes, s.Notes...); len(notes) > 0 {
		e.Plan = append(e.Plan, Attr{Label: "NOTE", Value: notes})
	}
	if an != nil {
		e.Plan = append(e.Plan, analysisAttrs(an, index)...)
	}
	return e
}

// costOf is the COST line of a model.
func costOf(e *Explained) string {
	for _, a := range e.Plan {
		if v, ok := a.Value.(string); ok && a.Label == "COST" {
			return v
		}
	}
	return ""
}

// noteOf is the NOTE lines of a model.
func noteOf(e *Explained) []string {
	for _, a := range e.Plan {
		if v, ok := a.Value.([]string); ok && a.Label == "NOTE" {
			return slices.Clone(v)
		}
	}
	return nil
}

// batchCost says what one lookup of the step reads.
func (st *JoinStep) batchCost() string { return BatchCost(st.Right, st.Batch) }

// BatchCost says what one read of a lookup's batch of n keys reads, sel
// being the read of one batch: a lookup join's, or a lookup semi-join's.
func BatchCost(sel *Select, n int) string {
	if sel.IndexLookup() != nil {
		return fmt.Sprintf("a read of index %s for up to %d keys and a multi-get of the rows it finds", sel.IndexLookup().Index.Name, n)
	}
	if sel.Access.Kind == PointLookup {
		return fmt.Sprintf("one multi-get of up to %d keys, one RPC per region server", n)
	}
	return fmt.Sprintf("up to %d key prefix scans", n)
}

// step is the join's EXPLAIN node.
func (st *JoinStep) step(runs JoinRuns) Step {
	outer := ""
	if st.Outer {
		outer = "LEFT "
	}
	as := st.Table.Name
	if st.Name != st.Table.Name {
		as += " AS " + st.Name
	}
	var s Step
	if st.Kind == LookupJoin {
		s = Step{Op: "CLIENT " + outer + "LOOKUP JOIN", Title: fmt.Sprintf("CLIENT %sLOOKUP JOIN %s, BATCHES OF %d LEFT ROWS", outer, as, st.Batch)}
		how := "one multi-get of the batch's keys"
		switch {
		case st.Right.IndexLookup() != nil:
			how = fmt.Sprintf("one read of index %s for the batch's keys", st.Right.IndexLookup().Index.Name)
		case st.Right.Access.Kind != PointLookup:
			how = "one scan of each of the batch's key prefixes"
		}
		s.Attrs = append(s.Attrs, Attr{Label: "BATCH", Value: fmt.Sprintf("%s per %d left rows, the rows matched to them in the client", how, st.Batch)})
	} else {
		s = Step{Op: "CLIENT " + outer + "HASH JOIN", Title: fmt.Sprintf("CLIENT %sHASH JOIN %s", outer, as)}
		s.Attrs = append(s.Attrs, Attr{Label: "BUILD", Value: fmt.Sprintf("every row %s reads, held in memory by its join values (within the sort budget), probed by each left row", st.Name)})
	}
	s.Attrs = append(s.Attrs, Attr{Label: "batch rows", Value: int64(st.Batch), Detail: true}, Attr{Label: "table", Value: st.Table.Name, Detail: true})
	if len(st.On) > 0 {
		s.Attrs = append(s.Attrs, Attr{Label: "ON", Value: strings.Join(st.On, " AND ")})
	} else {
		s.Attrs = append(s.Attrs, Attr{Label: "ON", Value: "no equality of columns: every pair is tested"})
	}
	if st.Cond != nil {
		s.Attrs = append(s.Attrs, Attr{Label: "CLIENT FILTER PAIRS BY", Value: st.Cond.String()})
	}
	if runs != nil {
		if r := runs.JoinRun(st); r != nil {
			a := fmt.Sprintf("left rows %d, reads %d, keys looked up %d, rows of %s %d, joined rows %d", r.LeftRows, r.Batches, r.Keys, st.Name, r.RightRows, r.Rows)
			if st.Kind == LookupJoin {
				a = fmt.Sprintf("left rows %d, reads %d in %d RPCs, keys looked up %d, rows of %s %d, joined rows %d", r.LeftRows, r.Batches, r.RPCs, r.Keys, st.Name, r.RightRows, r.Rows)
			}
			s.Attrs = append(s.Attrs, Attr{Label: "ANALYZE", Value: a},
				Attr{Label: "left rows", Value: r.LeftRows, Detail: true}, Attr{Label: "reads", Value: r.Batches, Detail: true},
				Attr{Label: "keys", Value: r.Keys, Detail: true}, Attr{Label: "right rows", Value: r.RightRows, Detail: true}, Attr{Label: "joined rows", Value: r.Rows, Detail: true})
			if st.Kind == LookupJoin {
				s.Attrs = append(s.Attrs, Attr{Label: "rpcs", Value: r.RPCs, Detail: true})
			}
		}
	}
	return s
}
