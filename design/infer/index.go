package infer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// Lookup reads the rows of a physical table that have the given keys;
// a key with no row is left out.
type Lookup func(table string, keys [][]byte) ([]Row, error)

// lookupMax is how many sampled keys an index check looks up.
const lookupMax = 64

// indexLike finds a catalog table whose key fields the proposal's key
// fields repeat: keys built from them name rows that exist in that
// table. It names those fields, and the other columns whose values equal
// the found rows' columns, after the table's columns, and says so.
func (p *Proposal) indexLike(s Sample, opt Options) {
	if opt.Known == nil || opt.Lookup == nil {
		return
	}
	inf, err := load(&p.Spec)
	if err != nil {
		return
	}
	rows := decodeRows(inf, s.Rows[:min(len(s.Rows), lookupMax)])
	if rows == nil {
		return
	}
	for _, t := range opt.Known.Tables {
		if t.Physical == p.Spec.HBase || t.Physical == p.Spec.Name || t.Expands() || hasRandom(t) {
			continue
		}
		if m, found, ok := matchKey(t, inf, rows, opt.Lookup); ok {
			p.nameAfter(t, inf, rows, m, found)
			return
		}
	}
}

func hasRandom(t *catalog.Table) bool {
	for i := range t.Key.Components {
		if t.Key.Components[i].Kind == catalog.KindRandom {
			return true
		}
	}
	return false
}

// decodeRows reads sampled rows, key and cells, with inf; nil when one
// does not fit.
func decodeRows(inf *catalog.Table, rows []Row) []catalog.Row {
	var out []catalog.Row
	for _, sr := range rows {
		r := inf.NewRow()
		if inf.DecodeKey(sr.Key, r, nil) != nil {
			return nil
		}
		for _, cl := range sr.Cells {
			for i, c := range inf.Columns {
				if c.Family == cl.Family && c.Qualifier == cl.Qualifier {
					v, err := c.DecodeCell(cl.Value)
					if err != nil {
						return nil
					}
					r[i] = v
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// compatible: a value of type a can stand for one of type b.
func compatible(a, b catalog.Type) bool {
	class := func(t catalog.Type) catalog.Type {
		switch t {
		case catalog.TypeBytes:
			return catalog.TypeString
		case catalog.TypeInt:
			return catalog.TypeBigint
		}
		return t
	}
	return class(a) == class(b)
}

// as converts v to type t (compatible ones only).
func as(v catalog.Value, t catalog.Type) catalog.Value {
	switch {
	case v.Type == t:
		return v
	case t == catalog.TypeBytes:
		return catalog.Bytes([]byte(v.S))
	case t == catalog.TypeString:
		return catalog.String(string(v.B))
	}
	v.Type = t
	return v
}

// matchKey tries each way of giving t's key fields values from inf's key
// fields; ok when the keys they build name rows of t for nine in ten of
// the sampled keys. m maps t's key columns to inf's columns.
func matchKey(t, inf *catalog.Table, rows []catalog.Row, look Lookup) (map[int]int, []Row, bool) {
	kc := t.KeyColumns()
	var choices [][]int
	for _, c := range kc {
		var ch []int
		for j, ic := range inf.Columns {
			if compatible(ic.Type, t.Columns[c].Type) {
				ch = append(ch, j)
			}
		}
		if len(ch) == 0 {
			return nil, nil, false
		}
		choices = append(choices, ch)
	}
	tries := 0
	var walk func(i int, m map[int]int) (map[int]int, []Row, bool)
	walk = func(i int, m map[int]int) (map[int]int, []Row, bool) {
		if i == len(kc) {
			tries++
			found, ok := probe(t, rows, m, look)
			return m, found, ok
		}
		for _, j := range choices[i] {
			if slices.Contains(mapValues(m), j) || tries >= 32 {
				continue
			}
			next := map[int]int{kc[i]: j}
			for k, v := range m {
				next[k] = v
			}
			if mm, found, ok := walk(i+1, next); ok {
				return mm, found, true
			}
		}
		return nil, nil, false
	}
	return walk(0, map[int]int{})
}

func mapValues(m map[int]int) []int {
	var out []int
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// probe builds t's key of each row under m and looks the keys up.
func probe(t *catalog.Table, rows []catalog.Row, m map[int]int, look Lookup) ([]Row, bool) {
	var keys [][]byte
	for _, r := range rows {
		tr := t.NewRow()
		for c, j := range m {
			tr[c] = as(r[j], t.Columns[c].Type)
		}
		k, err := t.EncodeKey(tr, nil)
		if err != nil {
			continue // a NULL, say: this row tells nothing
		}
		keys = append(keys, k)
	}
	if len(keys)*2 < len(rows) {
		return nil, false
	}
	found, err := look(t.Physical, keys)
	if err != nil || len(found)*10 < len(keys)*9 || len(found) == 0 {
		return nil, false
	}
	return found, true
}

// nameAfter renames the proposal's columns after t's and records why.
func (p *Proposal) nameAfter(t, inf *catalog.Table, rows []catalog.Row, m map[int]int, found []Row) {
	rename := map[string]string{}
	var pairs []string
	for c, j := range m {
		rename[inf.Columns[j].Name] = t.Columns[c].Name
	}
	for c, j := range m {
		pairs = append(pairs, inf.Columns[j].Name+" = "+t.Columns[c].Name)
	}
	slices.Sort(pairs)
	// Other key fields: equal to a stored column of every row found.
	byKey := map[string]catalog.Row{}
	for _, fr := range found {
		r := t.NewRow()
		if t.DecodeKey(fr.Key, r, nil) != nil {
			continue
		}
		for _, cl := range fr.Cells {
			for i, c := range t.Columns {
				if c.Family == cl.Family && c.Qualifier == cl.Qualifier {
					if v, err := c.DecodeCell(cl.Value); err == nil {
						r[i] = v
					}
				}
			}
		}
		byKey[keyOf(t, r)] = r
	}
	var also []string
	for j, ic := range inf.Columns {
		if _, done := rename[ic.Name]; done {
			continue
		}
		for c, tc := range t.Columns {
			if slices.Contains(mapsValues(rename), tc.Name) || !compatible(ic.Type, tc.Type) {
				continue
			}
			if sameEverywhere(t, rows, byKey, m, j, c) {
				rename[ic.Name] = tc.Name
				also = append(also, ic.Name+" = "+tc.Name)
				break
			}
		}
	}
	p.Spec = renameSpec(p.Spec, rename)
	for i, c := range p.Spec.Rowkey {
		if i < len(p.Parts) {
			p.Parts[i].What = what(c)
			for _, col := range p.Spec.Columns {
				if c.Field != "" && col.Name == c.Field {
					p.Parts[i].What = col.Type + " " + p.Parts[i].What
				}
			}
		}
	}
	ev := fmt.Sprintf("keys of %s built from its columns (%s) name rows of %s for %d of %d sampled rows looked up",
		t.Name, strings.Join(pairs, ", "), t.Name, len(found), len(rows))
	if len(also) > 0 {
		ev += fmt.Sprintf("; %s hold(s) the values of those rows", strings.Join(also, ", "))
	}
	p.Parts = append(p.Parts, Part{What: "an index-like table of " + t.Name, Evidence: ev, Sure: Verified,
		Other: "a table of its own whose key repeats the fields of " + t.Name,
		Tell:  "entries whose rows are missing from " + t.Name + " would say so"})
	p.Note = fmt.Sprintf("it reads as an index of %s (or a copy of it): the entry names its columns after those of %s", t.Name, t.Name)
}

// keyOf is a row's key fields as text, to match a found row to a sample.
func keyOf(t *catalog.Table, r catalog.Row) string {
	var b strings.Builder
	for _, c := range t.KeyColumns() {
		b.WriteString(r[c].String() + "\x00")
	}
	return b.String()
}

// sameEverywhere: inf's column j equals t's column c in every sampled
// row whose data row was found.
func sameEverywhere(t *catalog.Table, rows []catalog.Row, byKey map[string]catalog.Row, m map[int]int, j, c int) bool {
	n := 0
	for _, r := range rows {
		tr := t.NewRow()
		for kc, ij := range m {
			tr[kc] = as(r[ij], t.Columns[kc].Type)
		}
		d, ok := byKey[keyOf(t, tr)]
		if !ok {
			continue
		}
		if r[j].Null != d[c].Null || !r[j].Null && !catalog.Equal(as(r[j], t.Columns[c].Type), d[c]) {
			return false
		}
		n++
	}
	return n > 0
}

func mapsValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// renameSpec renames columns and every reference to them.
func renameSpec(s catalog.TableSpec, re map[string]string) catalog.TableSpec {
	r := func(n string) string {
		if v, ok := re[n]; ok {
			return v
		}
		return n
	}
	s.Columns = slices.Clone(s.Columns)
	for i := range s.Columns {
		s.Columns[i].Name = r(s.Columns[i].Name)
	}
	s.Rowkey = slices.Clone(s.Rowkey)
	for i := range s.Rowkey {
		c := &s.Rowkey[i]
		if c.Field != "" {
			c.Field = r(c.Field)
		}
		if c.Bucket != "" {
			c.Bucket = r(c.Bucket)
		}
		of := make([]string, len(c.Of))
		for k, f := range c.Of {
			of[k] = r(f)
		}
		if len(of) > 0 {
			c.Of = of
		}
	}
	return s
}
