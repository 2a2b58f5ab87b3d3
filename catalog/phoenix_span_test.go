package catalog

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// A range of a Phoenix VARCHAR or DECIMAL key field spans every key whose
// field lies in it: ascending and descending, the field last or followed
// by a nullable field (left out of the key when NULL), for random values
// and bounds. The span is not exact, so keys outside the range may be in
// it; none inside may be out of it.
func TestPhoenixVarSpan(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	for _, p := range []struct{ typ, phoenix string }{{"STRING", "VARCHAR"}, {"DOUBLE", "DECIMAL"}, {"BIGINT", "DECIMAL"}} {
		for _, order := range []string{"asc", "desc"} {
			for _, last := range []bool{true, false} {
				gcol := `{name: g, type: STRING, column: "0:g"}`
				rowkey := fmt.Sprintf("      - {field: f, encoding: phoenix, phoenix: %s, order: %s}\n", p.phoenix, order)
				if !last {
					rowkey += "      - {field: g, encoding: phoenix}\n"
					gcol = "{name: g, type: STRING}"
				}
				src := fmt.Sprintf("tables:\n  - name: t\n    families: [{name: \"0\"}]\n    columns:\n      - {name: f, type: %s}\n      - %s\n      - {name: v, type: STRING, column: \"0:v\"}\n    rowkey:\n%s", p.typ, gcol, rowkey)
				cat, err := Parse([]byte(src))
				if err != nil {
					t.Fatalf("%v\n%s", err, src)
				}
				tb, _ := cat.Table("t")
				c := &tb.Key.Components[0]
				value := func() Value {
					switch p.typ {
					case "STRING":
						return String(string([]byte{'a' + byte(r.IntN(3)), 'a' + byte(r.IntN(3))})[:1+r.IntN(2)])
					case "BIGINT":
						return Bigint(int64(r.IntN(41) - 20))
					}
					return Double(float64(r.IntN(161)-80) / 8)
				}
				for i := 0; i < 300; i++ {
					var lo, hi Bound
					if r.IntN(4) > 0 {
						lo = Bound{Set: true, Value: value(), Inclusive: r.IntN(2) == 0}
					}
					if r.IntN(4) > 0 {
						hi = Bound{Set: true, Value: value(), Inclusive: r.IntN(2) == 0}
					}
					s := c.FieldSpan(lo, hi)
					if s.Start == nil && s.Stop == nil && !s.Empty && (lo.Set || hi.Set) {
						t.Fatalf("%s %s: [%v, %v] does not narrow the span", p.phoenix, order, lo, hi)
					}
					if s.Exact {
						t.Fatalf("%s %s: the span of [%v, %v] says exact", p.phoenix, order, lo, hi)
					}
					for j := 0; j < 30; j++ {
						v := value()
						in := (!lo.Set || Compare(v, lo.Value) > 0 || lo.Inclusive && Compare(v, lo.Value) == 0) &&
							(!hi.Set || Compare(v, hi.Value) < 0 || hi.Inclusive && Compare(v, hi.Value) == 0)
						if !in {
							continue
						}
						row := tb.NewRow()
						row[0] = v
						if !last && r.IntN(2) == 0 {
							row[1] = String("g")
						}
						key, err := tb.EncodeKey(row, nil)
						if err != nil {
							t.Fatal(err)
						}
						if s.Empty || s.Start != nil && bytes.Compare(key, s.Start) < 0 || s.Stop != nil && bytes.Compare(key, s.Stop) >= 0 {
							t.Fatalf("%s(%s) %s, last %v: %v is in [%+v, %+v] but key %s is not in the span %s - %s (empty %v)",
								p.phoenix, p.typ, order, last, v, lo, hi, ToStringBinary(key), ToStringBinary(s.Start), ToStringBinary(s.Stop), s.Empty)
						}
					}
				}
			}
		}
	}
}
