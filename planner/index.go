package planner

import (
	"context"
	"fmt"
	"slices"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// candidate is one way to read a table: the table itself or an index.
type candidate struct {
	ix      *catalog.Index
	t       *catalog.Table // the table scanned
	kp      *keyPlan
	conj    []expr.Expr // conjuncts over t's columns
	orig    []expr.Expr // the data-table conjunct each came from
	covered bool
	toData  []int
	// ttl is a family with a TTL that the index copies from, which keeps
	// the index from covering.
	ttl *catalog.Family
}

// ttlFamily returns a data-table family with a TTL that holds a column
// index table it copies (a key field or a covered column), or nil.
func ttlFamily(t, it *catalog.Table) *catalog.Family {
	for _, c := range it.Columns {
		d, ok := t.Column(c.Name)
		if !ok || t.Columns[d].Family == "" {
			continue
		}
		if f, ok := t.Family(t.Columns[d].Family); ok && f.TTL > 0 {
			return f
		}
	}
	return nil
}

// better reports whether a serves the query better than b: a point lookup
// first, then the most key components bound, then covered over
// uncovered, then fewer ranges.
func better(a, b *candidate) bool {
	ra, rb := a.rank(), b.rank()
	for i := range ra {
		if ra[i] != rb[i] {
			return ra[i] > rb[i]
		}
	}
	return false
}

func (c *candidate) rank() [5]int {
	kp := c.kp
	full, points, covered := 0, 0, 0
	if !kp.full {
		full = 1
	}
	if kp.points || kp.empty {
		points = 1
	}
	if c.covered {
		covered = 1
	}
	return [5]int{full, points, boundBytes(kp), covered, -len(kp.ranges)}
}

// boundBytes is how many leading key bytes the query fixes: the least,
// over the plan's ranges, of the bytes a range's start and stop share (a
// point's whole key).
func boundBytes(kp *keyPlan) int {
	least := -1
	for _, r := range kp.ranges {
		n := len(r.Start)
		if !r.Point {
			n = 0
			for n < len(r.Start) && n < len(r.Stop) && r.Start[n] == r.Stop[n] {
				n++
			}
		}
		if least < 0 || n < least {
			least = n
		}
	}
	return max(least, 0)
}

// indexCandidate plans the query over index ix, or returns nil when the
// index cannot serve it.
func indexCandidate(ctx context.Context, t *catalog.Table, ix *catalog.Index, conj []expr.Expr, needed []int, lim Limits) (*candidate, error) {
	it := ix.Table
	toIx := map[int]int{}
	toData := make([]int, len(it.Columns))
	for i, c := range it.Columns {
		d, _ := t.Column(c.Name)
		toData[i], toIx[d] = d, i
	}
	cand := &candidate{ix: ix, t: it, toData: toData, covered: true}
	for _, col := range needed {
		// An index entry's _ts is when the entry was written, not the
		// data row's newest cell: _ts is never covered.
		if _, ok := toIx[col]; !ok || col == t.TsIndex() {
			cand.covered = false
		}
	}
	if it.Phoenix != nil && it.Phoenix.Uncovered {
		// Phoenix leaves stale rows in an uncovered index and checks
		// each row against its data row: so does rkql.
		cand.covered = false
	}
	if f := ttlFamily(t, it); f != nil {
		// Cells of a family with a TTL expire in the data table but not
		// in the index, so a covered copy may outlive them: every hit is
		// checked against its data row.
		cand.covered = false
		cand.ttl = f
	}
	for _, p := range conj {
		if q, ok := remap(p, toIx); ok {
			cand.conj = append(cand.conj, q)
			cand.orig = append(cand.orig, p)
		}
	}
	kp, err := planKeysOr(ctx, it, cand.conj, lim)
	if err != nil {
		return nil, err
	}
	cand.kp = kp
	// A Phoenix global index has a row for every data row, NULLs and all;
	// rkql's own has none for a row with a NULL key field.
	if kp.full || !ix.Phoenix && !nullsExcluded(t, it, cand.conj) {
		return nil, nil
	}
	return cand, nil
}

// nullsExcluded reports whether every index key field that may be NULL in
// the data table is constrained by a predicate NULL cannot pass: rows
// with a NULL there have no index entry.
func nullsExcluded(t *catalog.Table, it *catalog.Table, conj []expr.Expr) bool {
	for _, col := range it.KeyColumns() {
		d, _ := t.Column(it.Columns[col].Name)
		if t.Columns[d].KeyField {
			continue
		}
		if !slices.ContainsFunc(conj, func(p expr.Expr) bool { return rejectsNull(p, col) }) {
			return false
		}
	}
	return true
}

func rejectsNull(p expr.Expr, col int) bool {
	switch p := p.(type) {
	case *expr.In:
		return p.Col == col && !p.Not
	case *expr.Like:
		return p.Col == col && !p.Not
	case *expr.IsNull:
		return p.Col == col && p.Not
	case expr.ColumnExpr:
		return p.Column() == col
	case *expr.Or:
		for _, t := range p.Terms {
			if !rejectsNull(t, col) {
				return false
			}
		}
		return len(p.Terms) > 0
	case *expr.And:
		return slices.ContainsFunc(p.Terms, func(t expr.Expr) bool { return rejectsNull(t, col) })
	}
	return false
}

// remap rewrites p over another table's columns; ok is false when p
// reads a column the other table lacks.
func remap(p expr.Expr, m map[int]int) (expr.Expr, bool) {
	switch p := p.(type) {
	case expr.ColumnExpr:
		c, ok := m[p.Column()]
		return p.WithColumn(c), ok
	case *expr.And:
		terms, ok := remapAll(p.Terms, m)
		return &expr.And{Terms: terms}, ok
	case *expr.Or:
		terms, ok := remapAll(p.Terms, m)
		return expr.NewOr(terms), ok
	case *expr.Not:
		q, ok := remap(p.X, m)
		return &expr.Not{X: q}, ok
	case *expr.Const:
		return p, true
	}
	return nil, false
}

func remapAll(ps []expr.Expr, m map[int]int) ([]expr.Expr, bool) {
	out := make([]expr.Expr, len(ps))
	for i, t := range ps {
		q, ok := remap(t, m)
		if !ok {
			return nil, false
		}
		out[i] = q
	}
	return out, true
}

// neededColumns lists the data columns a query reads: its outputs, its
// WHERE and its ORDER BY.
func neededColumns(sel *Select, count bool, conj []expr.Expr, order []SortKey) []int {
	var out []int
	for _, o := range sel.Output {
		if !count {
			out = append(out, expr.ScalarColumns(o.Expr)...)
		}
	}
	for _, p := range conj {
		out = append(out, predColumns(p)...)
	}
	for _, k := range order {
		out = append(out, k.Col)
	}
	return out
}

func predColumns(p expr.Expr) []int {
	switch p := p.(type) {
	case expr.ColumnExpr:
		return []int{p.Column()}
	case expr.ScalarCond:
		return p.Columns()
	case *expr.And:
		return termColumns(p.Terms)
	case *expr.Or:
		return termColumns(p.Terms)
	case *expr.Not:
		return predColumns(p.X)
	}
	return nil
}

func termColumns(ps []expr.Expr) []int {
	var out []int
	for _, t := range ps {
		out = append(out, predColumns(t)...)
	}
	return out
}

// chooseIndex picks the cheapest of the data table and its indexes,
// honouring the statement's hint.
func (pl *Planner) chooseIndex(ctx context.Context, s *parser.SelectStmt, t *catalog.Table, data *candidate, needed []int) (*candidate, []string, error) {
	var notes []string
	hint := s.Hint
	indexes := t.ReadIndexes()
	if (hint != nil && hint.NoIndex) || len(indexes) == 0 {
		return data, nil, nil
	}
	if s.Versions > 1 {
		if hint != nil {
			return nil, nil, errAt(hint.HintPos, "an index holds only the newest version: VERSIONS reads the data table")
		}
		return data, nil, nil
	}
	if hint != nil && !hint.NoIndex {
		found := false
		for _, ix := range indexes {
			found = found || ix.Name == hint.Index.Name
		}
		if !found {
			return nil, nil, errAt(hint.Index.NamePos, "table %s has no index %q", t.Name, hint.Index.Name)
		}
	}
	best := data
	for _, ix := range indexes {
		if hint != nil && ix.Name != hint.Index.Name {
			continue
		}
		if ix.Unbuilt && hint != nil {
			return nil, nil, errAt(hint.Index.NamePos, "%s", unbuiltText(t, ix))
		}
		c, err := indexCandidate(ctx, t, ix, data.conj, needed, pl.opts.Limits)
		if err != nil {
			return nil, nil, keysErr(s.Table.NamePos, err)
		}
		if ix.Unbuilt {
			if c != nil {
				notes = append(notes, fmt.Sprintf("index %s (%s) was passed over: %s.", ix.Name, ix.Table.Key, unbuiltText(t, ix)))
			}
			continue
		}
		if c == nil {
			if hint != nil {
				return nil, nil, errAt(hint.Index.NamePos, "index %s cannot serve this query: nothing binds the start of its key %s", ix.Name, ix.Table.Key)
			}
			continue
		}
		if hint != nil || better(c, best) {
			best = c
			continue
		}
		notes = append(notes, fmt.Sprintf("index %s (%s) was passed over: the %s serves the query as well or better.", ix.Name, ix.Table.Key, describeCand(best)))
	}
	if best != data {
		why := fmt.Sprintf("index %s fixes the first %d key bytes, where table %s fixes %d", best.ix.Name, boundBytes(best.kp), t.Name, boundBytes(data.kp))
		switch {
		case hint != nil:
			why = "USE INDEX asked for " + best.ix.Name
		case data.kp.full:
			why = fmt.Sprintf("nothing binds the start of the key of %s, and the key of index %s starts with what the query binds", t.Name, best.ix.Name)
		case best.kp.points && !data.kp.points:
			why = fmt.Sprintf("index %s serves it with a point lookup", best.ix.Name)
		}
		notes = append([]string{why + "."}, notes...)
		if best.ix.Phoenix {
			notes = append(notes, fmt.Sprintf("%s is Phoenix's global index %s: an index row whose empty column does not say verified (\\x01) is checked against its data row, and kept only if the row exists with the indexed values.", best.ix.Name, best.ix.Table.Phoenix.Name))
		}
		if f := best.ttl; f != nil {
			notes = append(notes, fmt.Sprintf("family %s of %s has a TTL of %d s, which index %s does not follow, so each hit is checked against its data row.", f.Name, t.Name, f.TTL, best.ix.Name))
		}
	}
	return best, notes, nil
}

// unbuiltText says that index ix of t is not built, and what builds it.
func unbuiltText(t *catalog.Table, ix *catalog.Index) string {
	return fmt.Sprintf("index %s is not built, so its entries may not match %s (BUILD INDEX %s ON %s fills it)", ix.Name, t.Name, ix.Name, t.Name)
}

// unbuiltServing returns the first index of t that is not built but would
// serve a query with the conjuncts conj, or nil.
func unbuiltServing(ctx context.Context, t *catalog.Table, conj []expr.Expr, needed []int, lim Limits) *catalog.Index {
	for _, ix := range t.Indexes {
		if !ix.Unbuilt {
			continue
		}
		if c, err := indexCandidate(ctx, t, ix, conj, needed, lim); err == nil && c != nil {
			return ix
		}
	}
	return nil
}

func describeCand(c *candidate) string {
	if c.ix == nil {
		return "data table"
	}
	return "index " + c.ix.Name
}
