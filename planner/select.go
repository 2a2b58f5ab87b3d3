package planner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// Output is one result column: its name, its type, and how the plan
// computes it from the rows its root yields.
type Output struct {
	Name string
	Type catalog.Type
	Expr expr.Scalar
}

// Col returns the column an output reads, or -1 when it is computed.
func (o Output) Col() int {
	if c, ok := o.Expr.(*expr.Col); ok {
		return c.Index
	}
	return -1
}

// Select is a planned SELECT: a tree of operators, and the columns its
// root's rows are projected to.
type Select struct {
	Table *catalog.Table
	// Root is the top of the plan tree.
	Root Node
	// Access is the tree's leaf, the read the plan starts from.
	Access *Access
	// Limit is the statement's LIMIT, or NoLimit.
	Limit  int64
	Output []Output
	// Order is the ORDER BY the query asked for, less the columns the
	// WHERE clause pins to one value.
	Order []SortKey
	Notes []string
	// Raw is SELECT RAW *: the result is every cell of the rows selected
	// (exec.QueryRaw), not their logical columns.
	Raw bool
}

func (*Select) plan() {}

// IndexLookup returns the plan's index lookup, or nil when it reads the
// data table directly.
func (s *Select) IndexLookup() *IndexLookup {
	ix, _ := Find[*IndexLookup](s.Root)
	return ix
}

// IndexLookups returns every index lookup of the plan: the one IndexLookup
// finds, or those of a union's branches.
func (s *Select) IndexLookups() []*IndexLookup {
	if ix := s.IndexLookup(); ix != nil {
		return []*IndexLookup{ix}
	}
	var out []*IndexLookup
	if u, ok := Find[*Union](s.Root); ok {
		for _, b := range u.Branches {
			out = append(out, b.IndexLookups()...)
		}
	}
	return out
}

// Options are the session settings the planner honours.
type Options struct {
	// AllowFullScan permits plans that read the whole table.
	AllowFullScan bool
	Limits        Limits
	// Now is the clock NOW() reads, once per statement; nil means
	// time.Now.
	Now func() time.Time
}

func (pl *Planner) selectPlan(ctx context.Context, s *parser.SelectStmt) (*Select, error) {
	t, err := pl.table(s.Table)
	if err != nil {
		return nil, err
	}
	if !pl.noUnion {
		// One statement reads one NOW(), when it first needs it: the
		// branches of a union, planned apart, see the instant the whole
		// WHERE clause does.
		now := time.Now
		if pl.opts.Now != nil {
			now = pl.opts.Now
		}
		pinned := *pl
		pinned.opts.Now = sync.OnceValue(now)
		pl = &pinned
	}
	c := &compiler{ctx: ctx, t: t, now: pl.opts.Now}
	sel := &Select{Table: t, Limit: s.Limit, Raw: s.Raw}
	sh, err := c.shape(sel, s)
	if err != nil {
		return nil, err
	}
	var where expr.Expr
	if s.Where != nil {
		w, err := c.foldConstants(s.Where)
		if err != nil {
			return nil, err
		}
		if where, err = c.pred(w); err != nil {
			return nil, err
		}
	}
	conj := expr.Conjuncts(where)
	order, err := c.orderKeys(sh.order, conj)
	if err != nil {
		return nil, err
	}
	sel.Order = order
	kp, err := planKeysOr(ctx, t, conj, pl.opts.Limits)
	if err != nil {
		return nil, keysErr(s.Table.NamePos, err)
	}
	needed := append(neededColumns(sel, sh.count || sh.project != nil, conj, order), sh.cols...)
	cand := &candidate{t: t, kp: kp, conj: conj, orig: conj, covered: true}
	hinted := s
	if sh.key {
		// An index entry's key is not the row's: _key reads the data table.
		noIx := *s
		noIx.Hint = &parser.IndexHint{HintPos: s.Table.NamePos, NoIndex: true}
		hinted = &noIx
	}
	cand, why, err := pl.chooseIndex(ctx, hinted, t, cand, needed)
	if err != nil {
		return nil, err
	}
	sel.Notes = append(sel.Notes, why...)
	kp = cand.kp
	if kp.full {
		if subs := pl.unionBranches(ctx, hinted, t, slices.Contains(needed, t.TsIndex())); subs != nil {
			return pl.unionSelect(s, sel, sh, subs, where, order), nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if kp.full && !(pl.opts.AllowFullScan || s.AllowFullScan) {
		msg := fullScanMessage(t, where)
		if ix := unbuiltServing(ctx, t, conj, needed, pl.opts.Limits); ix != nil && (hinted.Hint == nil || !hinted.Hint.NoIndex) {
			msg = fmt.Sprintf("query on %s would read the whole table (FULL SCAN): index %s would serve it, but it is not built (BUILD INDEX %s ON %s fills it); or add ALLOW FULL SCAN to read the table anyway", t.Name, ix.Name, ix.Name, t.Name)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, errAt(s.Table.NamePos, "%s", msg)
	}
	acc := &Access{Table: cand.t, Ranges: kp.ranges, Ways: kp.ways, Versions: s.Versions, KeyText: sh.key, Union: kp.union}
	var residual, dataResidual []expr.Expr
	for i, p := range cand.conj {
		if !kp.absorbed[p] {
			residual = append(residual, p)
			dataResidual = append(dataResidual, cand.orig[i])
		}
	}
	switch {
	case kp.empty:
		acc.Kind, acc.Ranges = EmptyResult, nil
	case kp.full:
		acc.Kind = FullScan
	case kp.points:
		acc.Kind = PointLookup
	case len(kp.ranges) > 1 && (kp.skip || kp.ways == 1):
		acc.Kind = SkipScan
	default:
		acc.Kind = RangeScan
	}
	if cand.ix == nil && s.Versions <= 1 {
		acc.Columns = storedColumns(t, needed)
	}
	sel.Access = acc
	sel.Notes = append(sel.Notes, kp.notes...)
	var merge *MergeSort
	var sorter *Sort
	if sh.agg != nil {
		merge = pl.aggStrategy(sh.agg, acc, kp, conj, cand.toData)
	} else {
		limit := sel.Limit
		if limit != NoLimit {
			limit += s.Offset
		}
		merge, sorter = pl.order(acc, kp, order, cand.toData, sh.count, limit)
	}
	var root Node = acc
	if merge != nil {
		merge.In = acc
		root = merge
	}
	if f := expr.AndOf(residual); f != nil && cand.ttl == nil {
		// An index copying a family with a TTL may hold values its data
		// row no longer has: its conditions are tested on the data rows
		// the lookup reads (IndexLookup.Filter), never on the copies.
		root = &Filter{Cond: f, In: root}
	}
	if cand.ix != nil {
		var dataOnly []expr.Expr
		for _, p := range conj {
			if !slices.Contains(cand.orig, p) {
				dataOnly = append(dataOnly, p)
			}
		}
		root = &IndexLookup{Index: cand.ix, Data: t, Covered: cand.covered, ToData: cand.toData,
			Filter: expr.AndOf(append(dataResidual, dataOnly...)), DataOnly: expr.AndOf(dataOnly), In: root}
	}
	if sh.distinctRows {
		root = pl.distinct(sel, root, merge, cand.ix != nil)
	}
	if sorter != nil {
		sorter.In = root
		for _, o := range sel.Output {
			sorter.Keep = append(sorter.Keep, expr.ScalarColumns(o.Expr)...)
		}
		for _, k := range sorter.Keys {
			sorter.Keep = append(sorter.Keep, k.Col)
		}
		root = sorter
	}
	root = sh.top(root, s)
	sel.Root = root
	sel.Notes = append(sel.Notes, notes(sel, kp, sorter)...)
	sel.Notes = append(sel.Notes, sh.hashNote()...)
	return sel, nil
}

// distinct puts a client DISTINCT on the outputs above root, and makes
// the access a loose scan when the outputs are the leading fields of the
// key and the access reads the data table forward, range after range.
func (pl *Planner) distinct(sel *Select, root Node, merge *MergeSort, index bool) Node {
	d := &Distinct{In: root}
	for _, o := range sel.Output {
		d.Cols = append(d.Cols, o.Col())
		d.Names = append(d.Names, o.Name)
	}
	acc := sel.Access
	switch {
	case index || merge != nil || acc.Reverse || acc.Versions > 1:
	case acc.Kind == FullScan || acc.Kind == RangeScan || acc.Kind == SkipScan:
		if k := loosePrefix(acc.Table, d.Cols); k > 0 {
			acc.Loose = k
			sel.Notes = append(sel.Notes, fmt.Sprintf("DISTINCT %s is the start of the key, so the scan reads one row per distinct prefix and skips the rest of it.", strings.Join(d.Names, ", ")))
		}
	}
	return d
}

// loosePrefix is the number of leading key components of t that a loose
// scan for the distinct values of cols steps by, or 0 when none serves:
// the components must hold exactly those fields (literals, and hash or
// bucket values of them, or a salt byte, besides), end where their bytes
// end (a delimited field with the literal that ends it), and leave some
// of the key after them.
func loosePrefix(t *catalog.Table, cols []int) int {
	need := map[int]bool{}
	for _, c := range cols {
		if c < 0 || c >= len(t.Columns) || !t.Columns[c].KeyField {
			return 0
		}
		need[c] = true
	}
	comps := t.Key.Components
	left := len(need)
	for k := range comps {
		c := &comps[k]
		switch c.Kind {
		case catalog.KindField:
			if !need[c.Column()] {
				return 0
			}
			left--
		case catalog.KindHash, catalog.KindBucket:
			for _, in := range c.InputColumns() {
				if !need[in] {
					return 0
				}
			}
		case catalog.KindRandom:
			return 0
		}
		if left == 0 {
			end := k + 1
			if _, fixed := c.FixedWidth(); c.Kind == catalog.KindField && !fixed && c.Delimiter() != "" {
				// The prefix takes the literal that ends the field:
				// without it, the prefix of 'ab|' would end the read
				// before 'abc|'.
				end++
			}
			if end < len(comps) && prefixExact(t, end) {
				return end
			}
			return 0
		}
	}
	return 0
}

// storedColumns lists the value columns among needed, each once, in
// table order: what a read of t must fetch besides the key. It returns
// nil, meaning every column, when they are all needed, or when the _ts
// pseudo-column is, since a row's newest timestamp may be in any of its
// cells.
func storedColumns(t *catalog.Table, needed []int) []int {
	out := []int{}
	for i, col := range t.Columns {
		if !col.KeyField && slices.Contains(needed, i) {
			out = append(out, i)
		}
	}
	stored := 0
	for _, col := range t.Columns {
		if !col.KeyField {
			stored++
		}
	}
	if slices.Contains(needed, t.TsIndex()) || len(out) == stored && stored > 0 {
		return nil // every column: nothing to project away
	}
	return out
}

// orderKeys resolves ORDER BY columns of the table, dropping columns the
// WHERE clause pins to one value, since they cannot change the order.
func (c *compiler) orderKeys(items []SortKey, conj []expr.Expr) ([]SortKey, error) {
	pinned := c.pinned(conj)
	var keys []SortKey
	for _, it := range items {
		if !pinned[it.Col] {
			keys = append(keys, it)
		}
	}
	return keys, nil
}

// pinned lists the columns the conditions pin to one value.
func (c *compiler) pinned(conj []expr.Expr) map[int]bool {
	pinned := map[int]bool{}
	for col, fc := range gather(c.t, conj) {
		if fc.hasEq && len(fc.eq) == 1 {
			pinned[col] = true
		}
	}
	return pinned
}

// keyOrder lists the fields, from the key component term on, whose order
// a forward scan of one range returns rows in. A SignSplit field is in
// order only at term, and only when oneSign says each range holds values
// of one sign.
func keyOrder(t *catalog.Table, term int, oneSign bool) []SortKey {
	var out []SortKey
	comps := t.Key.Components
	for i := term; i < len(comps); i++ {
		c := &comps[i]
		if c.Kind == catalog.KindLiteral {
			continue
		}
		if !c.OrderPreserving() && !(i == term && oneSign && c.SignSplit()) {
			break
		}
		out = append(out, SortKey{Col: c.Column(), Name: c.Field, Desc: c.Descending()})
	}
	return out
}

// order decides between scan order, a merge of sorted ranges, a reverse
// scan and a client sort. It may set acc.Reverse.
func (pl *Planner) order(acc *Access, kp *keyPlan, want []SortKey, toData []int, count bool, limit int64) (*MergeSort, *Sort) {
	if count || acc.Kind == EmptyResult {
		return nil, nil
	}
	natural := keyOrder(acc.Table, kp.term, kp.oneSign)
	for i := range natural {
		if toData != nil {
			natural[i].Col = toData[natural[i].Col]
		}
	}
	if kp.points {
		natural = nil
	}
	multi := len(acc.Ranges) > 1
	if len(want) == 0 {
		if multi && kp.ways > 1 && len(natural) > 0 {
			return &MergeSort{From: kp.term, On: names(natural)}, nil
		}
		return nil, nil
	}
	if len(want) <= len(natural) {
		same, opposite := true, true
		for i, k := range want {
			if k.Col != natural[i].Col {
				same, opposite = false, false
				break
			}
			if k.Desc != natural[i].Desc {
				same = false
			} else {
				opposite = false
			}
		}
		if same || opposite {
			acc.Reverse = opposite
			if multi {
				return &MergeSort{From: kp.term, Desc: opposite, On: orderNames(want)}, nil
			}
			return nil, nil
		}
	}
	return nil, &Sort{Keys: want, Limit: limit}
}

func names(ks []SortKey) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.Name
	}
	return out
}

func orderNames(ks []SortKey) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.Name
		if k.Desc {
			out[i] += " DESC"
		}
	}
	return out
}

// fullScanMessage says why a query would read the whole table, and what
// would serve it.
func fullScanMessage(t *catalog.Table, where expr.Expr) string {
	msg := fmt.Sprintf("query on %s would read the whole table (FULL SCAN): nothing binds the start of its rowkey %s", t.Name, t.Key)
	if lead := leadingFields(t); len(lead) > 0 {
		msg += fmt.Sprintf("; bind %s with = or IN", strings.Join(lead, ", "))
		for _, c := range t.Key.Components {
			if c.Kind == catalog.KindField && c.Reverse && slices.Contains(lead, c.Field) {
				msg += fmt.Sprintf(" (%s is stored reversed, so of the LIKE patterns only '%%suffix' uses the key)", c.Field)
			}
		}
	}
	var ixs []string
	for _, ix := range t.Indexes {
		if !ix.Unbuilt {
			ixs = append(ixs, fmt.Sprintf("%s (%s)", strings.Join(leadingFields(ix.Table), ", "), ix.Name))
		}
	}
	if len(ixs) > 0 {
		msg += ", or bind the start of an index: " + strings.Join(ixs, ", ")
	}
	return msg + "; or add ALLOW FULL SCAN to read it anyway"
}

// leadingFields names the fields that bind the first component of t's key
// that is not a literal.
func leadingFields(t *catalog.Table) []string {
	for _, c := range t.Key.Components {
		switch c.Kind {
		case catalog.KindField, catalog.KindBucket:
			return []string{c.Field}
		case catalog.KindHash:
			return c.Inputs
		case catalog.KindLiteral, catalog.KindSalt:
			continue
		}
		return nil
	}
	return nil
}
