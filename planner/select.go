package planner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
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
	if d, ok := Find[*Derived](s.Root); ok {
		return d.Inner.IndexLookups()
	}
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
	// UIDs looks up OpenTSDB's uids of names while planning, so that
	// metric = 'name' narrows the key to the metric's uid; nil leaves
	// such a condition to the filter.
	UIDs UIDResolver
}

// UIDResolver looks up the uid OpenTSDB gave a name: in the uid table
// (physical name) table, the uid of kind (catalog.TSDBMetrics, TSDBTagK,
// TSDBTagV) of name, and false when it has none.
type UIDResolver interface {
	UID(ctx context.Context, table, kind, name string) (int64, bool, error)
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
func fullScanMessage(t *catalog.Table, unbounded string) string {
	msg := fmt.Sprintf("query on %s would read the whole table (FULL SCAN)%s: nothing binds the start of its rowkey %s", t.Name, unbounded, t.Key)
	if lead := leadingFields(t); len(lead) > 0 {
		msg += fmt.Sprintf("; bind %s with = or IN", strings.Join(lead, ", "))
		for _, c := range t.Key.Components {
			if c.Kind == catalog.KindField && c.Reverse && slices.Contains(lead, c.Field) {
				msg += fmt.Sprintf(" (%s is stored reversed, so of the LIKE patterns only '%%suffix' uses the key)", c.Field)
			}
		}
	}
	var ixs []string
	for _, ix := range t.ReadIndexes() {
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
