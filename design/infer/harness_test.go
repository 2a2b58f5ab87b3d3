package infer_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/design/infer"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// written is a table as a Java application would have filled it: each
// key and cell built from a row's values with the hand-written example
// entry, whose encoders catalog/java_test.go checks against Java's own
// Bytes.toBytes, String.hashCode and MessageDigest.
type written struct {
	hand   *catalog.Table
	cat    *catalog.Catalog // the catalog hand is in
	rows   []catalog.Row    // the values, one per distinct key
	sample infer.Sample
}

func handCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// write encodes rows with the hand-written entry of table.
func write(t *testing.T, table string, rows []catalog.Row) *written {
	t.Helper()
	c := handCatalog(t)
	hand, ok := c.Table(table)
	if !ok {
		t.Fatalf("no example table %s", table)
	}
	return encode(t, c, hand, rows)
}

// encode builds the keys and cells of rows with the entry hand.
func encode(t *testing.T, c *catalog.Catalog, hand *catalog.Table, rows []catalog.Row) *written {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 7))
	w := &written{hand: hand, cat: c, sample: infer.Sample{Table: hand.Physical, Regions: 1}}
	at := map[string]int{}
	for _, row := range rows {
		key, err := hand.EncodeRowKey(row, func(n int64) int64 { return r.Int64N(n) })
		if err != nil {
			t.Fatal(err)
		}
		sr := infer.Row{Key: key}
		for i, c := range hand.Columns {
			if c.Family != "" && !row[i].Null {
				sr.Cells = append(sr.Cells, infer.Cell{Family: c.Family, Qualifier: c.Qualifier, Value: c.EncodeCell(row[i])})
			}
		}
		if i, dup := at[string(key)]; dup { // a later put overwrites the row
			w.rows[i], w.sample.Rows[i] = row, sr
			continue
		}
		at[string(key)] = len(w.rows)
		w.rows = append(w.rows, row)
		w.sample.Rows = append(w.sample.Rows, sr)
	}
	return w
}

// generated is n rows of the example generator's values for table.
func generated(t *testing.T, table string, n int) []catalog.Row {
	hand, _ := handCatalog(t).Table(table)
	return examples.Rows(hand, n, 1)
}

// check infers the table without its hand-written entry and checks the
// proposal: it loads, reads every written row back as its values, and
// plans the point lookup and the range scan on the same key bytes as the
// hand-written entry. point and scan are WHERE clauses over the
// hand-written columns; {col} in them is replaced by the value of col
// in the first written row, {col+} by its value in the row where col is
// the greatest.
func check(t *testing.T, w *written, point, scan string) *infer.Proposal {
	t.Helper()
	p := infer.Infer(w.sample, infer.Options{Name: "inferred"})
	t.Logf("proposal:\n%s", p.Text())
	if !p.Found {
		t.Fatalf("no layout found: %s", p.Note)
	}
	src := "tables:\n" + indent(p.YAML(), "  ")
	cat, err := catalog.Parse([]byte(src))
	if err != nil {
		t.Fatalf("the proposal does not load: %v\n%s", err, src)
	}
	inf, _ := cat.Table("inferred")
	names := readBack(t, w, inf)
	for _, where := range []string{point, scan} {
		hw := fill(w, where, nil, nil)
		iw := fill(w, where, names, inf)
		want := ranges(t, w.cat, w.hand.Name, hw)
		got := ranges(t, cat, "inferred", iw)
		t.Logf("WHERE %s: %.200s", iw, got)
		if want != got {
			t.Errorf("WHERE %s\n  hand-written: %s\n  inferred (WHERE %s): %s", hw, want, iw, got)
		}
	}
	return p
}

// readBack decodes every written row with the inferred table and maps
// each hand-written column to the inferred column that holds its value
// in every row; it fails when a column has none.
func readBack(t *testing.T, w *written, inf *catalog.Table) map[string]string {
	t.Helper()
	got := make([]catalog.Row, len(w.rows))
	for i, sr := range w.sample.Rows {
		row := inf.NewRow()
		if err := inf.DecodeKey(sr.Key, row, nil); err != nil {
			t.Fatalf("the inferred layout does not read key '%s': %v", catalog.ToStringBinary(sr.Key), err)
		}
		for j, c := range inf.Columns {
			if c.Family == "" {
				continue
			}
			for _, cl := range sr.Cells {
				if cl.Family == c.Family && cl.Qualifier == c.Qualifier {
					v, err := c.DecodeCell(cl.Value)
					if err != nil {
						t.Fatalf("column %s: %v", c.Name, err)
					}
					row[j] = v
				}
			}
		}
		got[i] = row
	}
	names := map[string]string{}
	for h, hc := range w.hand.Columns {
		found := false
		for j, ic := range inf.Columns {
			if slices.Contains(mapsValues(names), ic.Name) {
				continue
			}
			same := true
			for i := range w.rows {
				if canon(w.rows[i][h]) != canon(got[i][j]) {
					same = false
					break
				}
			}
			if same {
				names[hc.Name], found = ic.Name, true
				break
			}
		}
		if !found {
			var g []string
			for j, ic := range inf.Columns {
				g = append(g, fmt.Sprintf("%s=%s", ic.Name, got[0][j].Text()))
			}
			t.Errorf("column %s (first row %s) is read back by no inferred column (first row: %s)", hc.Name, w.rows[0][h].Text(), strings.Join(g, " "))
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return names
}

func mapsValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// canon is a value's content: text and bytes alike by their bytes, the
// integer types alike by their number; a DATE, TIMESTAMP or DOUBLE only
// equals its own type.
func canon(v catalog.Value) string {
	if v.Null {
		return "NULL"
	}
	switch v.Type {
	case catalog.TypeString:
		return "b:" + v.S
	case catalog.TypeBytes:
		return "b:" + string(v.B)
	case catalog.TypeBigint, catalog.TypeInt:
		return fmt.Sprintf("i:%d", v.I)
	}
	return v.Type.String() + ":" + v.Text()
}

// fill replaces {col} and {col+} in where with literals, and with names
// set each column name with the inferred column's.
func fill(w *written, where string, names map[string]string, inf *catalog.Table) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(where, '{')
		if i < 0 {
			b.WriteString(where)
			break
		}
		j := strings.IndexByte(where[i:], '}') + i
		b.WriteString(where[:i])
		col, greatest := strings.CutSuffix(where[i+1:j], "+")
		h, _ := w.hand.Column(col)
		v := w.rows[0][h]
		if greatest {
			for _, r := range w.rows {
				if catalog.Compare(r[h], v) > 0 {
					v = r[h]
				}
			}
		}
		b.WriteString(literal(v, inf, names[col]))
		where = where[j+1:]
	}
	out := b.String()
	if names == nil {
		return out
	}
	toks := strings.Fields(out)
	for i, tok := range toks {
		if n, ok := names[tok]; ok {
			toks[i] = n
		}
	}
	return strings.Join(toks, " ")
}

// literal writes v as SQL for a column of inf's type.
func literal(v catalog.Value, inf *catalog.Table, col string) string {
	if inf != nil {
		if i, ok := inf.Column(col); ok && inf.Columns[i].Type == catalog.TypeString && v.Type == catalog.TypeBytes {
			return catalog.String(string(v.B)).String()
		}
	}
	return v.String()
}

// ranges plans SELECT * FROM t WHERE where and renders its key ranges.
func ranges(t *testing.T, c *catalog.Catalog, table, where string) string {
	t.Helper()
	stmt, err := parser.ParseOne("SELECT * FROM " + table + " WHERE " + where)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	p, err := planner.New(c, planner.Options{}).Plan(context.Background(), stmt)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var b bytes.Buffer
	for _, a := range p.(*planner.Select).Accesses() {
		fmt.Fprintf(&b, "kind %d ×%d:", a.Kind, a.Ways)
		for _, r := range a.Ranges {
			if r.Point {
				fmt.Fprintf(&b, " get '%s'", catalog.ToStringBinary(r.Start))
			} else {
				fmt.Fprintf(&b, " ['%s', '%s')", catalog.ToStringBinary(r.Start), catalog.ToStringBinary(r.Stop))
			}
		}
	}
	return b.String()
}

func indent(text, prefix string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			b.WriteString(prefix + l)
		}
	}
	return b.String()
}
