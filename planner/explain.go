package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
)

// LookupBatch is how many index hits one data-table multi-get serves.
const LookupBatch = 100

// Explained is the EXPLAIN model of a SELECT: one tree of nodes with
// attributes, from which both the text and the JSON renderings are made,
// so that they cannot disagree. Steps lists the plan's nodes from the
// leaf up, as EXPLAIN prints them; Plan holds the statement-wide lines.
type Explained struct {
	Steps []Step
	// Plan holds COST, NOTE and, after a run, ANALYZE.
	Plan []Attr
}

// Step is one plan node as EXPLAIN shows it.
type Step struct {
	// Op is the node's kind, e.g. "RANGE SCAN", "CLIENT MERGE SORT".
	Op string
	// Title is the node's first line in the text rendering.
	Title string
	Attrs []Attr
}

// Attr is one attribute of a step or of the plan. Label is the text
// label; a "{}" in it is replaced by the value, otherwise the value
// follows the label. The JSON key is the label in snake case, without
// the placeholder. Value is a string, an int64, a float64, a bool (the
// label alone when true), a []string (one text line each) or, for
// Detail attributes, any JSON value.
type Attr struct {
	Label string
	Value any
	// Detail attributes appear in JSON only (per-range bounds, say):
	// text shows their summary in another attribute.
	Detail bool
}

// Analysis is what EXPLAIN ANALYZE measured by running the statement.
// Every figure is counted while the statement runs; none is estimated.
type Analysis struct {
	RowsRead     int64 // rows the stores walked, filtered or not, where the store reports it
	RowsReceived int64 // rows the stores returned to rkql
	RowsReturned int64 // rows the statement returned
	Cells        int64 // cells received
	Bytes        int64 // bytes received from the store (on the wire for HBase)
	RPCs         int64
	Regions      int64
	// DataReads counts data rows read through an index; Dangling counts
	// index entries skipped because their data row no longer matches.
	DataReads int64
	Dangling  int64
	// Malformed counts rows skipped because they do not fit the layout.
	Malformed int64
	Millis    float64
	// Parts counts the parts (regions) a parallel read read side by
	// side; SlowestPartMillis is the time the slowest one took.
	Parts             int64
	SlowestPartMillis float64
}

// ExplainEnv is what EXPLAIN knows of the store beyond the plan.
type ExplainEnv struct {
	// Regions maps a physical table name to its regions' start keys, in
	// order (the first is empty). A table it lacks counts as one region.
	Regions map[string][][]byte
}

// Placing is what a store takes of a plan's work, as EXPLAIN shows it. A
// plan as the planner returns it runs every step in the client; a placed
// plan (exec.Place) says, without changing the plan, which of its work
// the store does.
type Placing interface {
	// ScanAttrs are the attributes of access a that say what the store
	// does with the rows it reads, after its key ranges.
	ScanAttrs(a *Access) []Attr
	// MultiRange reports whether the store reads a's ranges with one scan
	// per region.
	MultiRange(a *Access) bool
	// Cond is the part of f's condition left to the client; nil when the
	// store evaluates all of it.
	Cond(f *Filter) expr.Expr
	// Server says how the store computes n, a Count or an Aggregate,
	// where the data lives; "" when the client does.
	Server(n Node) string
	// Parallel is how a's read is cut for parallel scanners: the parts
	// and the workers that read them side by side; 0, 0 when it is read
	// by one scanner.
	Parallel(a *Access) (parts, workers int)
}

// unplaced is the Placing of a plan no store has placed.
type unplaced struct{}

func (unplaced) ScanAttrs(a *Access) []Attr {
	var asOf []Attr
	if text, ok := a.TimeRangeText(); ok {
		asOf = []Attr{{Label: "TIMERANGE", Value: text}}
	}
	switch {
	case a.Columns == nil:
		return asOf
	case len(a.Columns) == 0:
		return append(asOf, Attr{Label: "CLIENT COLUMNS", Value: "none: the key serves the query"})
	}
	return append(asOf, Attr{Label: "CLIENT COLUMNS", Value: strings.Join(a.ColumnNames(a.Columns), ", ")})
}

func (unplaced) MultiRange(*Access) bool     { return false }
func (unplaced) Cond(f *Filter) expr.Expr    { return f.Cond }
func (unplaced) Server(Node) string          { return "" }
func (unplaced) Parallel(*Access) (int, int) { return 0, 0 }

// Explain builds the EXPLAIN model of s as planned, every step in the
// client; an is nil unless it ran.
func (s *Select) Explain(env ExplainEnv, an *Analysis) *Explained {
	return s.ExplainPlaced(env, an, unplaced{})
}

// ExplainPlaced builds the EXPLAIN model of s placed on a store as pl
// says; an is nil unless it ran.
func (s *Select) ExplainPlaced(env ExplainEnv, an *Analysis, pl Placing) *Explained {
	e := &Explained{}
	if u, ok := Find[*Union](s.Root); ok {
		return s.explainUnion(u, env, an, pl)
	}
	if j, ok := Find[*Join](s.Root); ok {
		return s.explainJoin(j, env, an, pl)
	}
	if d, ok := Find[*Derived](s.Root); ok {
		return s.explainDerived(d, env, an, pl)
	}
	for _, n := range Path(s.Root) {
		e.Steps = append(e.Steps, explainNode(n, pl)...)
	}
	if ix := s.IndexLookup(); ix != nil {
		// The access reads the index table: say so, as Phoenix does.
		a := s.Access
		st := &e.Steps[0]
		st.Title = "INDEX LOOKUP OVER " + a.Table.Name + a.bounds()
		access := Attr{Label: "ACCESS", Value: strings.TrimSuffix(a.Header(), " OVER "+a.Table.Name)}
		st.Attrs = append([]Attr{access}, st.Attrs...)
	}
	e.Plan = append(e.Plan, Attr{Label: "COST", Value: s.Access.cost(env, pl)})
	if len(s.Notes) > 0 {
		e.Plan = append(e.Plan, Attr{Label: "NOTE", Value: s.Notes})
	}
	if an != nil {
		e.Plan = append(e.Plan, analysisAttrs(an, s.IndexLookup() != nil)...)
	}
	return e
}

// explainUnion builds the model of a plan whose leaf is a union: each
// branch's steps, titled with its number, then the union and the steps
// above it.
func (s *Select) explainUnion(u *Union, env ExplainEnv, an *Analysis, pl Placing) *Explained {
	e := &Explained{}
	var costs, notes []string
	index := false
	for i, b := range u.Branches {
		be := b.ExplainPlaced(env, nil, pl)
		for _, st := range be.Steps {
			st.Title = fmt.Sprintf("BRANCH %d: %s", i+1, st.Title)
			st.Attrs = append([]Attr{{Label: "branch", Value: int64(i + 1), Detail: true}}, st.Attrs...)
			e.Steps = append(e.Steps, st)
		}
		costs = append(costs, fmt.Sprintf("branch %d: %s", i+1, b.Access.cost(env, pl)))
		for _, n := range b.Notes {
			notes = append(notes, fmt.Sprintf("branch %d: %s", i+1, n))
		}
		index = index || b.IndexLookup() != nil
	}
	e.Steps = append(e.Steps, Step{Op: "CLIENT UNION", Title: fmt.Sprintf("CLIENT UNION OF %d BRANCHES, EACH DATA ROW ONCE", len(u.Branches)),
		Attrs: []Attr{{Label: "branches", Value: int64(len(u.Branches)), Detail: true}}})
	for _, n := range Path(s.Root)[1:] {
		e.Steps = append(e.Steps, explainNode(n, pl)...)
	}
	e.Plan = append(e.Plan, Attr{Label: "COST", Value: strings.Join(costs, "; ")})
	if notes = append(slices.Clone(s.Notes), notes...); len(notes) > 0 {
		e.Plan = append(e.Plan, Attr{Label: "NOTE", Value: notes})
	}
	if an != nil {
		e.Plan = append(e.Plan, analysisAttrs(an, index)...)
	}
	return e
}

func explainNode(n Node, pl Placing) []Step {
	switch n := n.(type) {
	case *Access:
		return []Step{n.step(pl)}
	case *MergeSort:
		return []Step{{Op: "CLIENT MERGE SORT", Title: "CLIENT MERGE SORT ON " + strings.Join(n.On, ", "),
			Attrs: []Attr{{Label: "on", Value: n.On, Detail: true}}}}
	case *Distinct:
		return []Step{{Op: "CLIENT DISTINCT", Title: "CLIENT DISTINCT ON " + strings.Join(n.Names, ", "),
			Attrs: []Attr{{Label: "on", Value: n.Names, Detail: true}}}}
	case *Filter:
		cond := pl.Cond(n)
		if cond == nil {
			return nil // the store evaluates all of it
		}
		return []Step{{Op: "CLIENT FILTER", Title: "CLIENT FILTER BY " + cond.String(),
			Attrs: []Attr{{Label: "condition", Value: cond.String(), Detail: true}}}}
	case *IndexLookup:
		return []Step{n.step()}
	case *Sort:
		return []Step{n.step()}
	case *Count:
		if server := pl.Server(n); server != "" {
			return []Step{{Op: "SERVER AGGREGATE COUNT", Title: "SERVER AGGREGATE COUNT",
				Attrs: []Attr{{Label: "BY", Value: server},
					{Label: "NOTE", Value: "the regions count every row in the ranges, including rows whose key does not fit the layout, which a client count skips"}}}}
		}
		return []Step{{Op: "CLIENT COUNT", Title: "CLIENT COUNT"}}
	case *Limit:
		return []Step{n.step()}
	case *Aggregate:
		return []Step{n.step(pl.Server(n))}
	case *Project:
		return []Step{n.step()}
	}
	panic(fmt.Sprintf("planner: EXPLAIN of unknown node %T", n))
}

func (n *IndexLookup) step() Step {
	st := Step{Op: "INDEX LOOKUP", Attrs: []Attr{{Label: "index", Value: n.Index.Name, Detail: true}, {Label: "data table", Value: n.Data.Name, Detail: true}}}
	if n.Index.Phoenix {
		st.Attrs = append(st.Attrs, Attr{Label: "PHOENIX INDEX", Value: fmt.Sprintf("%s, Phoenix's global index of %s", n.Index.Table.Phoenix.Name, n.Index.Table.Phoenix.IndexOf)})
	}
	if n.Covered {
		st.Title = "CLIENT INDEX LOOKUP, COVERED"
		st.Attrs = append(st.Attrs, Attr{Label: "COVERED", Value: fmt.Sprintf("verified entries hold every column the query reads, so %s is read only for unverified ones", n.Data.Name)})
	} else {
		st.Title = fmt.Sprintf("POINT LOOKUP ON n KEYS OVER %s", n.Data.Name)
		st.Attrs = append(st.Attrs, Attr{Label: "BATCH", Value: fmt.Sprintf("one multi-get per %d index hits", LookupBatch)})
	}
	if n.Index.Phoenix {
		st.Attrs = append(st.Attrs, Attr{Label: "CLIENT CHECK", Value: fmt.Sprintf("an index row whose empty column is not \\x01 (verified) is dropped unless its %s row exists with the indexed values", n.Data.Name)})
	}
	if n.DataOnly != nil {
		st.Attrs = append(st.Attrs, Attr{Label: "CLIENT FILTER BY", Value: n.DataOnly.String()})
	}
	return st
}

func (n *Sort) step() Step {
	keys := orderNames(n.Keys)
	if n.Limit != NoLimit {
		return Step{Op: "CLIENT TOP N SORT", Title: fmt.Sprintf("CLIENT TOP %d SORTED BY %s", n.Limit, strings.Join(keys, ", ")),
			Attrs: []Attr{{Label: "keys", Value: keys, Detail: true}, {Label: "top", Value: n.Limit, Detail: true}}}
	}
	return Step{Op: "CLIENT SORT", Title: "CLIENT SORTED BY " + strings.Join(keys, ", "),
		Attrs: []Attr{{Label: "keys", Value: keys, Detail: true}}}
}

// step is the access's EXPLAIN node: the read, then what pl says the
// store does with its rows.
func (a *Access) step(pl Placing) Step {
	op := a.kindWords()
	if a.Loose > 0 {
		op = "LOOSE " + op
	}
	st := Step{Op: op, Title: a.Header() + a.bounds()}
	add := func(label string, v any) { st.Attrs = append(st.Attrs, Attr{Label: label, Value: v}) }
	detail := func(label string, v any) { st.Attrs = append(st.Attrs, Attr{Label: label, Value: v, Detail: true}) }
	detail("table", a.Table.Name)
	detail("ways", a.Ways)
	detail("reverse", a.Reverse)
	add("KEY", a.Table.Key.String())
	if b := a.bytesLine(); b != "" {
		add("BYTES", b)
	}
	if a.Loose > 0 {
		add("LOOSE", fmt.Sprintf("one row per distinct key prefix %s, then a new read from past that prefix", strings.Join(a.loosePrefix(), " | ")))
		detail("loose prefix", a.loosePrefix())
	}
	if a.Union > 0 && a.Kind != EmptyResult {
		add("UNION", fmt.Sprintf("the key ranges of %d OR branches, merged so that no row is read twice; every row is tested against the whole WHERE clause", a.Union))
	}
	detail("ranges", a.jsonRanges())
	st.Attrs = append(st.Attrs, pl.ScanAttrs(a)...)
	return st
}

// loosePrefix names the key components whose distinct values a loose
// scan reads once each.
func (a *Access) loosePrefix() []string {
	parts := []string{}
	for i := range a.Table.Key.Components[:a.Loose] {
		parts = append(parts, a.Table.Key.Components[i].String())
	}
	return parts
}

// ColumnNames names each of the table's columns cols as EXPLAIN does:
// the name and the cell it is stored in.
func (a *Access) ColumnNames(cols []int) []string {
	out := make([]string, 0, len(cols))
	for _, c := range cols {
		col := a.Table.Columns[c]
		if qs, ok := a.Entries[c]; ok && col.MapFamily != "" {
			for _, q := range qs {
				k, err := col.MapKeys.Decode(q)
				if err != nil {
					k = catalog.Bytes(q)
				}
				out = append(out, fmt.Sprintf("%s[%s] (%s:%s)", col.Name, k, col.MapFamily, catalog.ToStringBinary(q)))
			}
			continue
		}
		if col.MapFamily != "" {
			out = append(out, fmt.Sprintf("%s (family %s)", col.Name, col.MapFamily))
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s:%s)", col.Name, col.Family, col.Qualifier))
	}
	return out
}

type jsonRange struct {
	Start string   `json:"start"`
	Stop  string   `json:"stop,omitempty"`
	Point bool     `json:"point,omitempty"`
	From  []string `json:"from"`
	To    []string `json:"to"`
}

func (a *Access) jsonRanges() []jsonRange {
	out := []jsonRange{}
	for _, r := range a.Ranges {
		jr := jsonRange{Start: catalog.ToStringBinary(r.Start), Point: r.Point, From: r.From, To: r.To}
		if !r.Point {
			jr.Stop = catalog.ToStringBinary(r.Stop)
		}
		out = append(out, jr)
	}
	return out
}

func analysisAttrs(an *Analysis, index bool) []Attr {
	out := []Attr{
		{Label: "ANALYZE", Value: fmt.Sprintf("rows read %d, rows received %d, rows returned %d, cells %d, bytes received %d, RPCs %d, regions %d, time %.1f ms",
			an.RowsRead, an.RowsReceived, an.RowsReturned, an.Cells, an.Bytes, an.RPCs, an.Regions, an.Millis)},
		{Label: "rows read", Value: an.RowsRead, Detail: true},
		{Label: "rows received", Value: an.RowsReceived, Detail: true},
		{Label: "rows returned", Value: an.RowsReturned, Detail: true},
		{Label: "cells", Value: an.Cells, Detail: true},
		{Label: "bytes received", Value: an.Bytes, Detail: true},
		{Label: "rpcs", Value: an.RPCs, Detail: true},
		{Label: "regions", Value: an.Regions, Detail: true},
		{Label: "millis", Value: an.Millis, Detail: true},
	}
	if index {
		out = append(out, Attr{Label: "INDEX", Value: fmt.Sprintf("data-table reads %d, dangling index entries %d", an.DataReads, an.Dangling)},
			Attr{Label: "data reads", Value: an.DataReads, Detail: true}, Attr{Label: "dangling", Value: an.Dangling, Detail: true})
	}
	if an.Parts > 0 {
		out = append(out, Attr{Label: "PARALLEL", Value: fmt.Sprintf("%d parts read side by side, the slowest in %.1f ms", an.Parts, an.SlowestPartMillis)},
			Attr{Label: "parts", Value: an.Parts, Detail: true}, Attr{Label: "slowest part millis", Value: an.SlowestPartMillis, Detail: true})
	}
	if an.Malformed > 0 {
		out = append(out, Attr{Label: "SKIPPED", Value: fmt.Sprintf("%d rows that do not fit the layout", an.Malformed)},
			Attr{Label: "malformed", Value: an.Malformed, Detail: true})
	}
	return out
}

// Text renders the model as EXPLAIN prints it.
func (e *Explained) Text() string {
	var b strings.Builder
	for _, st := range e.Steps {
		b.WriteString(st.Title)
		b.WriteByte('\n')
		for _, a := range st.Attrs {
			writeAttr(&b, "    ", a)
		}
	}
	for _, a := range e.Plan {
		writeAttr(&b, "", a)
	}
	return b.String()
}

// writeAttr writes a text attribute: the label padded to six columns and
// the value, one line per value of a list.
func writeAttr(b *strings.Builder, indent string, a Attr) {
	if a.Detail {
		return
	}
	var vals []string
	switch v := a.Value.(type) {
	case string:
		vals = []string{v}
	case []string:
		vals = v
	case int64:
		vals = []string{fmt.Sprint(v)}
	case float64:
		vals = []string{fmt.Sprintf("%.1f", v)}
	case bool:
		if !v {
			return
		}
		vals = []string{""}
	default:
		panic(fmt.Sprintf("planner: EXPLAIN attribute %s has a %T value", a.Label, a.Value))
	}
	if len(vals) == 0 {
		return
	}
	label := a.Label
	for i, v := range vals {
		b.WriteString(indent)
		line := ""
		switch {
		case i > 0:
			line = strings.Repeat(" ", max(len(label), 6)+1) + v
		case strings.Contains(label, "{}"):
			line = strings.Replace(label, "{}", v, 1)
		case v == "":
			line = label
		default:
			line = fmt.Sprintf("%-6s %s", label, v)
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
}

// JSON renders the model as EXPLAIN (FORMAT JSON) prints it.
func (e *Explained) JSON() string {
	type obj = map[string]any
	steps := make([]obj, len(e.Steps))
	for i, st := range e.Steps {
		o := obj{"node": st.Op, "title": st.Title}
		for _, a := range st.Attrs {
			o[jsonKey(a.Label)] = a.Value
		}
		steps[i] = o
	}
	plan := obj{"plan": steps}
	for _, a := range e.Plan {
		plan[jsonKey(a.Label)] = a.Value
	}
	if _, ok := plan["note"]; !ok {
		plan["note"] = []string{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(plan); err != nil {
		panic(fmt.Sprintf("planner: EXPLAIN JSON: %v", err))
	}
	return buf.String()
}

// jsonKey turns a text label into a JSON key: lower case, words joined by
// underscores, without the value placeholder.
func jsonKey(label string) string {
	words := strings.Fields(strings.ReplaceAll(label, "{}", ""))
	for i, w := range words {
		words[i] = strings.ToLower(strings.Trim(w, "-,"))
	}
	return strings.Join(words, "_")
}

// String is the plan's EXPLAIN text, with costs counted as if every
// table were one region.
func (s *Select) String() string { return s.Explain(ExplainEnv{}, nil).Text() }
