package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// AccessKind is how a table is read.
type AccessKind int

// Access kinds, named as EXPLAIN names them.
const (
	PointLookup AccessKind = iota
	RangeScan
	SkipScan
	FullScan
	EmptyResult
)

// Access is the leaf of a plan: the key ranges or points of one table.
type Access struct {
	Table  *catalog.Table
	Kind   AccessKind
	Ranges []KeyRange
	// Ways is the fan-out over hash, bucket, salt or random components
	// (1 when none): the ranges are read in parallel.
	Ways int64
	// Reverse reads every range backwards.
	Reverse bool
	// Filter is the residual predicate the store evaluates on each row
	// (SERVER FILTER BY); nil when none.
	Filter Pred
	// Limit caps the rows each range returns; 0 means none.
	Limit int64
	// Versions per cell; 0 means the newest only.
	Versions int
}

// MergeSort merges the ranges' streams, each already sorted, on the key
// bytes from component From onwards (CLIENT MERGE SORT).
type MergeSort struct {
	From int
	Desc bool
	// On names the fields the merge orders by, for EXPLAIN.
	On []string
}

// SortKey is one column of a client sort.
type SortKey struct {
	Col  int
	Name string
	Desc bool
}

// Sort is a client sort; with Limit it keeps only the top rows.
type Sort struct {
	Keys  []SortKey
	Limit int64 // -1 when none
}

// Output is one result column.
type Output struct {
	Name string
	// Col is the column index; len(Table.Columns) is the _ts pseudo-column.
	Col  int
	Type catalog.Type
}

// Select is a planned SELECT.
type Select struct {
	Table  *catalog.Table
	Access *Access
	// Index, when set, turns the index rows the Access reads back into
	// data rows.
	Index  *IndexStage
	Merge  *MergeSort // nil unless several ranges are merged into order
	Sort   *Sort      // nil unless the client must sort
	Limit  int64      // -1 when none
	Output []Output
	// Order is the ORDER BY the query asked for, less the columns the
	// WHERE clause pins to one value.
	Order []SortKey
	// Count is SELECT COUNT(*): one row with the number of matches.
	Count bool
	Notes []string
}

func (*Select) plan() {}

// Options are the session settings the planner honours.
type Options struct {
	// AllowFullScan permits plans that read the whole table.
	AllowFullScan bool
	Limits        Limits
	// BruteForce plans every SELECT as a full scan with every predicate as
	// a filter and a client sort: the reference the differential tests
	// compare planned queries against.
	BruteForce bool
}

func (pl *Planner) selectPlan(s *parser.SelectStmt) (*Select, error) {
	t, err := pl.table(s.Table)
	if err != nil {
		return nil, err
	}
	c := &compiler{t: t}
	sel := &Select{Table: t, Limit: s.Limit}
	if err := c.outputs(sel, s); err != nil {
		return nil, err
	}
	var where Pred
	if s.Where != nil {
		if where, err = c.pred(s.Where); err != nil {
			return nil, err
		}
	}
	conj := conjuncts(where)
	order, err := c.orderKeys(s.Order, conj)
	if err != nil {
		return nil, err
	}
	sel.Order = order
	kp, err := planKeys(t, conj, pl.opts.Limits)
	if err != nil {
		return nil, errAt(s.Table.NamePos, "%v", err)
	}
	if pl.opts.BruteForce {
		kp = &keyPlan{full: true, ways: 1, absorbed: map[Pred]bool{}, term: len(t.Key.Components),
			ranges: []KeyRange{{From: []string{"*"}, To: []string{"*"}}}}
	}
	cand := &candidate{t: t, kp: kp, conj: conj, orig: conj, covered: true}
	if !pl.opts.BruteForce {
		var why []string
		if cand, why, err = pl.chooseIndex(s, t, cand, neededColumns(s, sel, conj, order)); err != nil {
			return nil, err
		}
		sel.Notes = append(sel.Notes, why...)
	}
	kp = cand.kp
	if kp.full && !(pl.opts.AllowFullScan || s.AllowFullScan || pl.opts.BruteForce) {
		return nil, errAt(s.Table.NamePos, "%s", fullScanMessage(t, where))
	}
	acc := &Access{Table: cand.t, Ranges: kp.ranges, Ways: kp.ways, Versions: s.Versions}
	var residual, dataResidual []Pred
	for i, p := range cand.conj {
		if !kp.absorbed[p] {
			residual = append(residual, p)
			dataResidual = append(dataResidual, cand.orig[i])
		}
	}
	acc.Filter = andOf(residual)
	if cand.ix != nil {
		var dataOnly []Pred
		for _, p := range conj {
			if !slices.Contains(cand.orig, p) {
				dataOnly = append(dataOnly, p)
			}
		}
		sel.Index = &IndexStage{Index: cand.ix, Data: t, Covered: cand.covered, ToData: cand.toData,
			Filter: andOf(append(dataResidual, dataOnly...)), DataOnly: andOf(dataOnly)}
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
	sel.Access = acc
	sel.Notes = append(sel.Notes, kp.notes...)
	pl.order(sel, kp, order, cand.toData)
	if sel.Sort == nil && s.Limit >= 0 && !sel.Count && sel.Index == nil {
		acc.Limit = s.Limit
	}
	sel.Notes = append(sel.Notes, notes(sel, kp)...)
	return sel, nil
}

func (c *compiler) outputs(sel *Select, s *parser.SelectStmt) error {
	t := c.t
	if s.Star {
		for i, col := range t.Columns {
			sel.Output = append(sel.Output, Output{Name: col.Name, Col: i, Type: col.Type})
		}
		return nil
	}
	for _, it := range s.Items {
		switch e := it.Expr.(type) {
		case *parser.ColumnRef:
			i, err := c.column(e.NamePos, e.Name)
			if err != nil {
				return err
			}
			name := e.Name
			if it.Alias != "" {
				name = it.Alias
			}
			sel.Output = append(sel.Output, Output{Name: name, Col: i, Type: c.colType(i)})
		case *parser.CallExpr:
			if e.Name != "COUNT" || !e.Star || len(s.Items) != 1 {
				return errAt(e.NamePos, "only COUNT(*) alone is supported as a function")
			}
			name := "count"
			if it.Alias != "" {
				name = it.Alias
			}
			sel.Count = true
			sel.Output = []Output{{Name: name, Col: -1, Type: catalog.TypeBigint}}
		default:
			return errAt(e.Pos(), "select a column name or COUNT(*), not %s", e)
		}
	}
	return nil
}

// orderKeys resolves ORDER BY, dropping columns the WHERE clause pins to
// one value, since they cannot change the order.
func (c *compiler) orderKeys(items []parser.OrderItem, conj []Pred) ([]SortKey, error) {
	pinned := map[int]bool{}
	for col, fc := range gather(c.t, conj) {
		if fc.hasEq && len(fc.eq) == 1 {
			pinned[col] = true
		}
	}
	var keys []SortKey
	for _, it := range items {
		i, err := c.column(it.Column.NamePos, it.Column.Name)
		if err != nil {
			return nil, err
		}
		if pinned[i] {
			continue
		}
		keys = append(keys, SortKey{Col: i, Name: it.Column.Name, Desc: it.Desc})
	}
	return keys, nil
}

// keyOrder lists the fields, from the key component term on, whose order
// a forward scan of one range returns rows in.
func keyOrder(t *catalog.Table, term int) []SortKey {
	var out []SortKey
	comps := t.Key.Components
	for i := term; i < len(comps); i++ {
		c := &comps[i]
		if c.Kind == catalog.KindLiteral {
			continue
		}
		if !c.OrderPreserving() {
			break
		}
		out = append(out, SortKey{Col: c.Column(), Name: c.Field, Desc: c.Descending()})
	}
	return out
}

// order decides between scan order, a merge of sorted ranges, a reverse
// scan and a client sort.
func (pl *Planner) order(sel *Select, kp *keyPlan, want []SortKey, toData []int) {
	acc := sel.Access
	if sel.Count || acc.Kind == EmptyResult {
		return
	}
	natural := keyOrder(acc.Table, kp.term)
	for i := range natural {
		if toData != nil {
			natural[i].Col = toData[natural[i].Col]
		}
	}
	if kp.points || pl.opts.BruteForce {
		natural = nil
	}
	multi := len(acc.Ranges) > 1
	if len(want) == 0 {
		if multi && kp.ways > 1 && len(natural) > 0 {
			sel.Merge = &MergeSort{From: kp.term, On: names(natural)}
		}
		return
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
				sel.Merge = &MergeSort{From: kp.term, Desc: opposite, On: orderNames(want)}
			}
			return
		}
	}
	sel.Sort = &Sort{Keys: want, Limit: sel.Limit}
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
func fullScanMessage(t *catalog.Table, where Pred) string {
	msg := fmt.Sprintf("query on %s would read the whole table (FULL SCAN): nothing binds the start of its rowkey %s", t.Name, t.Key)
	if lead := leadingFields(t); len(lead) > 0 {
		msg += fmt.Sprintf("; bind %s with = or IN", strings.Join(lead, ", "))
	}
	var ixs []string
	for _, ix := range t.Indexes {
		ixs = append(ixs, fmt.Sprintf("%s (%s)", strings.Join(leadingFields(ix.Table), ", "), ix.Name))
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
