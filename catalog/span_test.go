package catalog

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func inSpan(s KeySpan, b []byte) bool {
	return (s.Start == nil || bytes.Compare(b, s.Start) >= 0) &&
		(s.Stop == nil || bytes.Compare(b, s.Stop) < 0)
}

func inBounds(v Value, lo, hi Bound) bool {
	if lo.Set {
		if c := Compare(v, lo.Value); c < 0 || (c == 0 && !lo.Inclusive) {
			return false
		}
	}
	if hi.Set {
		if c := Compare(v, hi.Value); c > 0 || (c == 0 && !hi.Inclusive) {
			return false
		}
	}
	return true
}

func genBound(r *rand.Rand, c *Component) Bound {
	if r.IntN(5) == 0 {
		return Bound{}
	}
	v := genValue(r, c.typ)
	if c.typ == TypeDouble && r.IntN(50) == 0 {
		v = Double(math.NaN())
	}
	return Bound{Set: true, Value: v, Inclusive: r.IntN(2) == 0}
}

// keyParts encodes row and returns the bytes of component i alone and
// from component i to the end of the key.
func keyParts(t *testing.T, tb *Table, row Row, i int) ([]byte, []byte) {
	key, err := tb.EncodeKey(row, nil)
	if err != nil {
		t.Fatalf("EncodeKey: %v", err)
	}
	offs := make([]int, len(tb.Key.Components)+1)
	if err := tb.DecodeKey(key, tb.NewRow(), offs); err != nil {
		t.Fatalf("DecodeKey: %v", err)
	}
	return key[offs[i]:offs[i+1]], key[offs[i]:]
}

// checkSpan checks a span against one value: a value the predicate holds
// for must lie in the span, alone and with the key's later bytes after
// it; when the span is exact, a value it does not hold for must not.
func checkSpan(t *testing.T, what string, s KeySpan, v Value, match bool, alone, withRest []byte) {
	if match {
		if s.Empty {
			t.Fatalf("%s: span is empty, but %s matches", what, v)
		}
		if !inSpan(s, alone) || !inSpan(s, withRest) {
			t.Fatalf("%s: %s ('%s', key '%s') is outside [%s, %s)", what, v,
				ToStringBinary(alone), ToStringBinary(withRest), spanEnd(s.Start), spanEnd(s.Stop))
		}
		return
	}
	if s.Exact && !s.Empty && (inSpan(s, alone) || inSpan(s, withRest)) {
		t.Fatalf("%s: exact span [%s, %s) holds %s ('%s'), which does not match", what,
			spanEnd(s.Start), spanEnd(s.Stop), v, ToStringBinary(withRest))
	}
}

func spanEnd(b []byte) string {
	if b == nil {
		return "open"
	}
	return "'" + ToStringBinary(b) + "'"
}

func boundString(lo, hi Bound) string {
	var b strings.Builder
	if lo.Set {
		b.WriteString(lo.Value.String())
		if lo.Inclusive {
			b.WriteString(" <= ")
		} else {
			b.WriteString(" < ")
		}
	}
	b.WriteString("f")
	if hi.Set {
		if hi.Inclusive {
			b.WriteString(" <= ")
		} else {
			b.WriteString(" < ")
		}
		b.WriteString(hi.Value.String())
	}
	return b.String()
}

// TestFieldSpanDifferential compares FieldSpan with a brute-force filter:
// for random bounds and values, every value within the bounds has its key
// bytes in the span, and an exact span holds no value outside them.
func TestFieldSpanDifferential(t *testing.T) {
	for si, s := range fieldSpecs {
		t.Run(s.name, func(t *testing.T) {
			tb := s.table(t)
			fi, fc := fieldComp(t, tb, "f")
			r := rand.New(rand.NewPCG(6, uint64(si)))
			exact := 0
			for range 300 {
				lo, hi := genBound(r, fc), genBound(r, fc)
				if r.IntN(6) == 0 && lo.Set {
					hi = Bound{Set: true, Value: lo.Value, Inclusive: r.IntN(2) == 0}
				}
				span := fc.FieldSpan(lo, hi)
				if span.Exact {
					exact++
				}
				for range 30 {
					v := genEncodable(r, fc)
					if r.IntN(5) == 0 && lo.Set && encodable(fc, lo.Value) {
						v = lo.Value
					}
					alone, withRest := keyParts(t, tb, specRow(r, tb, v), fi)
					checkSpan(t, boundString(lo, hi), span, v, inBounds(v, lo, hi), alone, withRest)
					// A SignSplit field's range is its parts' exact spans.
					parts := fc.SignParts(lo, hi)
					if fc.SignSplit() && parts == nil && !span.Empty {
						t.Fatalf("%s: no parts, span %+v", boundString(lo, hi), span)
					}
					in := 0
					for _, p := range parts {
						ps := fc.FieldSpan(p.Lo, p.Hi)
						checkSpan(t, boundString(p.Lo, p.Hi), ps, v, inBounds(v, p.Lo, p.Hi), alone, withRest)
						if !ps.Exact {
							t.Fatalf("%s: part %s is not exact", boundString(lo, hi), boundString(p.Lo, p.Hi))
						}
						if inSpan(ps, alone) {
							in++
						}
					}
					if parts != nil && in != boolInt(inBounds(v, lo, hi)) {
						t.Fatalf("%s: %s lies in %d parts", boundString(lo, hi), v, in)
					}
				}
			}
			if (s.ordered || fc.SignSplit()) && fc.Enc != KeyText && exact == 0 {
				t.Fatalf("no span of an order-preserving field was exact")
			}
		})
	}
}

// TestPrefixSpanDifferential: every text value starting with p (ending
// with p on a reversed field) lies in PrefixSpan(p).
func TestPrefixSpanDifferential(t *testing.T) {
	for si, s := range fieldSpecs {
		t.Run(s.name, func(t *testing.T) {
			tb := s.table(t)
			fi, fc := fieldComp(t, tb, "f")
			_, okPrefix := fc.PrefixSpan("a", false)
			_, okSuffix := fc.PrefixSpan("a", true)
			wantPrefix := fc.Enc == KeyText && !fc.Reverse && !(fc.Width > 0 && fc.PadLeft) && !(fc.Desc && fc.Width > 0)
			wantSuffix := fc.Enc == KeyText && fc.Reverse && !(fc.Width > 0 && fc.PadLeft)
			if okPrefix != wantPrefix || okSuffix != wantSuffix {
				t.Fatalf("PrefixSpan ok = %v (prefix), %v (suffix); want %v, %v", okPrefix, okSuffix, wantPrefix, wantSuffix)
			}
			if !okPrefix && !okSuffix {
				return
			}
			r := rand.New(rand.NewPCG(7, uint64(si)))
			for range 300 {
				p := genText(r)
				if len(p) > 4 {
					p = p[:r.IntN(5)]
				}
				span, ok := fc.PrefixSpan(p, okSuffix)
				if !ok {
					t.Fatalf("PrefixSpan(%q) not ok", p)
				}
				for range 30 {
					v := genEncodable(r, fc)
					text := v.S
					if v.Type == TypeBytes {
						text = string(v.B)
					}
					match := strings.HasPrefix(text, p)
					if okSuffix {
						match = strings.HasSuffix(text, p)
					}
					alone, withRest := keyParts(t, tb, specRow(r, tb, v), fi)
					checkSpan(t, "prefix "+p, span, v, match, alone, withRest)
				}
			}
		})
	}
}

// TestHostnameTrap is the classic warning about keys of fields with no
// boundary: with keys host1, host12, host2,
// a scan for hostname BETWEEN 'host1' AND 'host2' must find host12 (it is
// inside the string range) and must not lose host1 or host2, whether the
// field ends at a delimiter or is padded to a fixed width.
func TestHostnameTrap(t *testing.T) {
	designs := []struct {
		name   string
		rowkey string
	}{
		{"delimiter", "      - {field: hostname}\n      - {literal: \"_\"}\n      - {field: ts, encoding: binary}\n"},
		{"rpad_x_20", "      - {field: hostname, width: 20, pad: x}\n      - {field: ts, encoding: binary}\n"},
		{"delimiter_nul", "      - {field: hostname}\n      - {literal: \"\\x00\"}\n      - {field: ts, encoding: binary}\n"},
		{"end_of_key", "      - {field: ts, encoding: binary}\n      - {field: hostname}\n"},
	}
	for _, d := range designs {
		t.Run(d.name, func(t *testing.T) {
			cat := mustParse(t, "tables:\n  - name: logs\n    columns:\n      - {name: hostname, type: STRING}\n      - {name: ts, type: BIGINT}\n    rowkey:\n"+d.rowkey)
			tb := mustTable(t, cat, "logs")
			hi, hc := fieldComp(t, tb, "hostname")
			lo, up := Bound{Set: true, Value: String("host1"), Inclusive: true}, Bound{Set: true, Value: String("host2"), Inclusive: true}
			span := hc.FieldSpan(lo, up)
			if span.Empty {
				t.Fatal("span is empty")
			}
			for _, h := range []string{"host1", "host12", "host2", "host", "host3", "host10", "host19z", "host2a"} {
				for _, ts := range []int64{math.MinInt64, -1, 0, 7, math.MaxInt64} {
					row := tb.NewRow()
					row[0], row[1] = String(h), Bigint(ts)
					alone, withRest := keyParts(t, tb, row, hi)
					match := h >= "host1" && h <= "host2"
					if h == "host12" && !match {
						t.Fatal("host12 must be inside ['host1', 'host2']")
					}
					checkSpan(t, "host1 <= hostname <= host2", span, String(h), match, alone, withRest)
				}
			}
			// The span must not reach past the range's own keys: no host3.
			row := tb.NewRow()
			row[0], row[1] = String("host3"), Bigint(0)
			alone, _ := keyParts(t, tb, row, hi)
			if inSpan(span, alone) {
				t.Fatalf("span [%s, %s) holds host3", spanEnd(span.Start), spanEnd(span.Stop))
			}
		})
	}
}

// namedFieldSpec is the entry of fieldSpecs called name.
func namedFieldSpec(t *testing.T, name string) fieldSpec {
	t.Helper()
	for _, fs := range fieldSpecs {
		if fs.name == name {
			return fs
		}
	}
	t.Fatalf("no field spec %s", name)
	return fieldSpec{}
}

// TestDoubleZeroSpan: -0 and +0 are equal values with different bytes, so
// a bound at zero must keep both on the same side.
func TestDoubleZeroSpan(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, spec := range []string{"bin_double_asc", "bin_double_desc"} {
		tb := namedFieldSpec(t, spec).table(t)
		fi, fc := fieldComp(t, tb, "f")
		for _, zero := range []float64{0, negZero} {
			for _, inc := range []bool{true, false} {
				bounds := [][2]Bound{
					{{Set: true, Value: Double(zero), Inclusive: inc}, {}},
					{{}, {Set: true, Value: Double(zero), Inclusive: inc}},
					{{Set: true, Value: Double(zero), Inclusive: inc}, {Set: true, Value: Double(zero), Inclusive: inc}},
				}
				for _, b := range bounds {
					span := fc.FieldSpan(b[0], b[1])
					for _, v := range []float64{negZero, 0, -1, 1, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64} {
						row := tb.NewRow()
						row[0], row[1] = Double(v), String("t")
						alone, withRest := keyParts(t, tb, row, fi)
						checkSpan(t, spec+" "+boundString(b[0], b[1]), span, Double(v), inBounds(Double(v), b[0], b[1]), alone, withRest)
					}
				}
			}
		}
	}
}

// TestDecimalDateSpanFarBounds: bounds beyond the years yyyyMMdd holds
// clamp instead of wrapping around.
func TestDecimalDateSpanFarBounds(t *testing.T) {
	for _, spec := range []string{"dec_date_8_asc", "dec_date_8_desc"} {
		tb := namedFieldSpec(t, spec).table(t)
		fi, fc := fieldComp(t, tb, "f")
		far := []Value{DateDays(math.MinInt64 / 2), DateDays(-800000), DateDays(3000000), DateDays(1 << 50), DateDays(math.MaxInt64)}
		vals := []Value{DateFromYMD(1, 1, 1), DateFromYMD(2019, 2, 17), DateFromYMD(9999, 12, 31), DateFromYMD(1970, 1, 1)}
		for _, b := range far {
			for _, inc := range []bool{true, false} {
				for _, pair := range [][2]Bound{
					{{Set: true, Value: b, Inclusive: inc}, {}},
					{{}, {Set: true, Value: b, Inclusive: inc}},
				} {
					span := fc.FieldSpan(pair[0], pair[1])
					for _, v := range vals {
						row := tb.NewRow()
						row[0], row[1] = v, String("t")
						alone, withRest := keyParts(t, tb, row, fi)
						checkSpan(t, spec+" "+boundString(pair[0], pair[1]), span, v, inBounds(v, pair[0], pair[1]), alone, withRest)
					}
				}
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
