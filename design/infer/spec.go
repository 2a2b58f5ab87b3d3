package infer

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
)

func catalogDecimal(w int) catalog.ComponentSpec {
	return catalog.ComponentSpec{Encoding: "decimal", Width: w}
}

func catalogReverse() catalog.ComponentSpec { return catalog.ComponentSpec{Reverse: true} }

func randomSpec(mod int64) catalog.ComponentSpec { return catalog.ComponentSpec{Random: mod} }

// name gives every field of ps a column name: ts, date, or kN, and
// returns the pieces with Field set.
func name(ps []piece) []piece {
	out := make([]piece, len(ps))
	used := map[string]bool{}
	k := 0
	for i, p := range ps {
		out[i] = p
		if !p.isField() {
			continue
		}
		n := p.role
		if n == "" || used[n] {
			for {
				k++
				n = fmt.Sprintf("k%d", k)
				if !used[n] {
					break
				}
			}
		}
		used[n] = true
		out[i].comp.Field = n
	}
	return out
}

// keySpec is a table spec of the key alone: one column per field.
func keySpec(tname string, ps []piece) catalog.TableSpec {
	spec := catalog.TableSpec{Name: tname}
	for _, p := range ps {
		spec.Rowkey = append(spec.Rowkey, p.comp)
		if p.isField() {
			spec.Columns = append(spec.Columns, catalog.ColumnSpec{Name: p.comp.Field, Type: p.typ})
		}
	}
	return spec
}

// load checks spec as the catalog loader does and returns its table.
func load(spec *catalog.TableSpec) (*catalog.Table, error) {
	src := "tables:\n" + indent(catalog.RenderTable(spec), "  ")
	c, err := catalog.Parse([]byte(src))
	if err != nil {
		return nil, err
	}
	t, _ := c.Table(spec.Name)
	return t, nil
}

// decodeAll reads every key with t; a key that does not fit is an error.
func decodeAll(t *catalog.Table, keys [][]byte) ([]catalog.Row, error) {
	rows := make([]catalog.Row, len(keys))
	for i, k := range keys {
		rows[i] = t.NewRow()
		if err := t.DecodeKey(k, rows[i], nil); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// verify checks that t reads every key and writes it back byte for byte,
// a random component with the value the key holds.
func verify(t *catalog.Table, keys [][]byte) error {
	comps := t.Key.Components
	for _, k := range keys {
		row := t.NewRow()
		offs := make([]int, len(comps)+1)
		if err := t.DecodeKey(k, row, offs); err != nil {
			return err
		}
		var rnd []int64
		for i := range comps {
			if comps[i].Kind == catalog.KindRandom {
				v, err := comps[i].DecodeNumber(k[offs[i]:])
				if err != nil {
					return err
				}
				rnd = append(rnd, v)
			}
		}
		got, err := t.EncodeKey(row, func(int64) int64 { v := rnd[0]; rnd = rnd[1:]; return v })
		if err != nil {
			return fmt.Errorf("key '%s' reads back but does not encode: %w", catalog.ToStringBinary(k), err)
		}
		if !bytes.Equal(got, k) {
			return fmt.Errorf("key '%s' reads back and encodes as '%s'", catalog.ToStringBinary(k), catalog.ToStringBinary(got))
		}
	}
	return nil
}

// what renders a piece as the catalog writes it.
func what(c catalog.ComponentSpec) string {
	spec := catalog.TableSpec{Name: "x", Rowkey: []catalog.ComponentSpec{c}}
	r := catalog.RenderTable(&spec)
	i := strings.Index(r, "rowkey:\n    - ")
	return strings.TrimSpace(r[i+len("rowkey:\n    - "):])
}

// tableName derives a logical name from a physical table name.
func tableName(physical string) string {
	_, n, ok := strings.Cut(physical, ":")
	if !ok {
		n = physical
	}
	var b strings.Builder
	for i, r := range n {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9':
			b.WriteRune(r)
		case i == 0 && r >= '0' && r <= '9':
			b.WriteString("t" + string(r))
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "t"
	}
	return b.String()
}

// renumber names the kN fields k1, k2, … in key order again once a
// field has become a derived component, and the derived components'
// inputs with them.
func renumber(ps []piece) []piece {
	out := make([]piece, len(ps))
	re := map[string]string{}
	k := 0
	for i, p := range ps {
		out[i] = p
		if p.isField() && p.comp.Field != p.role {
			k++
			re[p.comp.Field] = fmt.Sprintf("k%d", k)
			out[i].comp.Field = re[p.comp.Field]
		}
	}
	for i := range out {
		c := &out[i].comp
		if n, ok := re[c.Bucket]; ok {
			c.Bucket = n
		}
		if len(c.Of) > 0 {
			of := make([]string, len(c.Of))
			for j, f := range c.Of {
				of[j] = f
				if n, ok := re[f]; ok {
					of[j] = n
				}
			}
			c.Of = of
		}
	}
	return out
}
