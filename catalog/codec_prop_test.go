package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// fieldSpec is one way of writing a field f into a key. The key is the
// spec's components, which use f and, where something must follow f, a
// STRING field tail that runs to the end of the key.
type fieldSpec struct {
	name   string
	typ    string
	rowkey []string
	// ordered is what OrderPreserving must say for f.
	ordered bool
}

var fieldSpecs = []fieldSpec{
	// Text.
	{"text_delim_underscore", "STRING", []string{`{field: f}`, `{literal: "_"}`, `{field: tail}`}, false},
	{"text_delim_nul", "STRING", []string{`{field: f}`, `{literal: "\x00"}`, `{field: tail}`}, true},
	{"text_desc", "STRING", []string{`{field: f, order: desc}`, `{field: tail}`}, true},
	{"text_desc_delim", "STRING", []string{`{field: f, order: desc}`, `{literal: "|"}`, `{field: tail}`}, true},
	{"text_desc_reverse", "STRING", []string{`{field: f, order: desc, reverse: true}`, `{field: tail}`}, false},
	{"text_desc_rpad_x_8", "STRING", []string{`{field: f, order: desc, width: 8, pad: "x"}`, `{field: tail}`}, false},
	{"text_delim_two_bytes", "STRING", []string{`{field: f}`, `{literal: "xx"}`, `{field: tail}`}, false},
	{"text_to_end", "STRING", []string{`{field: tail, width: 3, pad: "-"}`, `{field: f}`}, true},
	{"text_rpad_x_8", "STRING", []string{`{field: f, width: 8, pad: "x"}`, `{field: tail}`}, false},
	{"text_rpad_nul_6", "STRING", []string{`{field: f, width: 6, pad: "\x00"}`, `{field: tail}`}, false},
	{"text_rpad_space_default", "STRING", []string{`{field: f, width: 5}`, `{field: tail}`}, false},
	{"text_lpad_zero_6", "STRING", []string{`{field: f, width: 6, pad: "0", align: right}`, `{field: tail}`}, false},
	{"text_lpad_ff_4", "STRING", []string{`{field: f, width: 4, pad: '\xFF', align: right}`, `{field: tail}`}, false},
	{"text_reverse_delim", "STRING", []string{`{field: f, reverse: true}`, `{literal: "|"}`, `{field: tail}`}, false},
	{"text_reverse_rpad", "STRING", []string{`{field: f, reverse: true, width: 8, pad: "x"}`, `{field: tail}`}, false},
	{"text_reverse_end", "STRING", []string{`{field: f, reverse: true}`}, false},
	{"bytes_delim_nul", "BYTES", []string{`{field: f}`, `{literal: "\x00"}`, `{field: tail}`}, true},
	{"bytes_desc", "BYTES", []string{`{field: f, order: desc}`, `{field: tail}`}, true},
	{"bytes_fixed_4", "BYTES", []string{`{field: f, width: 4, pad: "\x00"}`, `{field: tail}`}, false},
	{"bytes_reverse_end", "BYTES", []string{`{field: f, reverse: true}`}, false},
	{"bytes_to_end", "BYTES", []string{`{field: f}`}, true},
	// Decimal.
	{"dec_bigint_10_asc", "BIGINT", []string{`{field: f, encoding: decimal, width: 10}`, `{field: tail}`}, true},
	{"dec_bigint_10_desc", "BIGINT", []string{`{field: f, encoding: decimal, width: 10, order: desc}`, `{field: tail}`}, true},
	{"dec_bigint_19_desc", "BIGINT", []string{`{field: f, encoding: decimal, width: 19, order: desc}`, `{field: tail}`}, true},
	{"dec_int_2_asc", "INT", []string{`{field: f, encoding: decimal, width: 2}`, `{field: tail}`}, true},
	{"dec_ts_13_asc", "TIMESTAMP", []string{`{field: f, encoding: decimal, width: 13}`, `{field: tail}`}, true},
	{"dec_date_8_desc", "DATE", []string{`{field: f, encoding: decimal, width: 8, order: desc}`, `{field: tail}`}, true},
	{"dec_date_8_asc", "DATE", []string{`{field: f, encoding: decimal, width: 8}`, `{field: tail}`}, true},
	{"dec_bool_1", "BOOLEAN", []string{`{field: f, encoding: decimal, width: 1}`, `{field: tail}`}, true},
	{"dec_var_tilde", "BIGINT", []string{`{field: f, encoding: decimal}`, `{literal: "~"}`, `{field: tail}`}, false},
	{"dec_var_digit_delim", "BIGINT", []string{`{field: f, encoding: decimal}`, `{literal: "0"}`, `{field: tail}`}, false},
	{"dec_var_end", "INT", []string{`{field: f, encoding: decimal}`}, false},
	// Binary, sign bit flipped.
	{"bin_bigint_asc", "BIGINT", []string{`{field: f, encoding: binary}`, `{field: tail}`}, true},
	{"bin_bigint_desc", "BIGINT", []string{`{field: f, encoding: binary, order: desc}`, `{field: tail}`}, true},
	{"bin_int_asc", "INT", []string{`{field: f, encoding: binary}`, `{field: tail}`}, true},
	{"bin_int_desc", "INT", []string{`{field: f, order: desc}`, `{field: tail}`}, true},
	{"bin_ts_asc", "TIMESTAMP", []string{`{field: f}`, `{field: tail}`}, true},
	{"bin_ts_desc", "TIMESTAMP", []string{`{field: f, encoding: binary, order: desc}`, `{field: tail}`}, true},
	{"bin_date_asc", "DATE", []string{`{field: f, encoding: binary}`, `{field: tail}`}, true},
	{"bin_date_desc", "DATE", []string{`{field: f, encoding: binary, order: desc}`, `{field: tail}`}, true},
	{"bin_double_asc", "DOUBLE", []string{`{field: f}`, `{field: tail}`}, true},
	{"bin_double_desc", "DOUBLE", []string{`{field: f, order: desc}`, `{field: tail}`}, true},
	{"bin_bool_asc", "BOOLEAN", []string{`{field: f}`, `{field: tail}`}, true},
	{"bin_bool_desc", "BOOLEAN", []string{`{field: f, order: desc}`, `{field: tail}`}, true},
	// Java's Bytes.toBytes: ascending, in order within each sign only
	// (TestSignSplitOrder); desc is MAX - v, in order across zero.
	{"java_bigint_asc", "BIGINT", []string{`{field: f, encoding: java}`, `{field: tail}`}, false},
	{"java_bigint_desc", "BIGINT", []string{`{field: f, encoding: java, order: desc}`, `{field: tail}`}, true},
	{"java_int_asc", "INT", []string{`{field: f, encoding: java}`, `{field: tail}`}, false},
	{"java_int_desc", "INT", []string{`{field: f, encoding: java, order: desc}`, `{field: tail}`}, true},
	{"java_int3_desc", "INT", []string{`{field: f, encoding: java, width: 3, order: desc}`, `{field: tail}`}, true},
	{"java_bigint2_asc", "BIGINT", []string{`{field: f, encoding: java, width: 2}`, `{field: tail}`}, false},
	{"java_ts_desc", "TIMESTAMP", []string{`{field: f, encoding: java, order: desc}`, `{field: tail}`}, true},
	{"java_date_asc", "DATE", []string{`{field: f, encoding: java}`, `{field: tail}`}, false},
	{"java_bool_desc", "BOOLEAN", []string{`{field: f, encoding: java, order: desc}`, `{field: tail}`}, true},
}

func (s fieldSpec) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tables:\n  - name: t\n    families: [{name: d}]\n    columns:\n")
	fmt.Fprintf(&b, "      - {name: f, type: %s}\n", s.typ)
	b.WriteString("      - {name: tail, type: STRING, column: \"d:tail\"}\n    rowkey:\n")
	for _, c := range s.rowkey {
		b.WriteString("      - " + c + "\n")
	}
	return b.String()
}

func (s fieldSpec) table(t testing.TB) *Table {
	return mustTable(t, mustParse(t, s.yaml()), "t")
}

// specRow makes a row of a spec's table with f = v and a random tail.
func specRow(r *rand.Rand, tb *Table, v Value) Row {
	row := tb.NewRow()
	row[0] = v
	_, tc := tailComp(tb)
	if tc != nil {
		row[1] = genEncodable(r, tc)
	}
	return row
}

func tailComp(tb *Table) (int, *Component) {
	for i := range tb.Key.Components {
		if c := &tb.Key.Components[i]; c.Kind == KindField && c.Field == "tail" {
			return i, c
		}
	}
	return -1, nil
}

// TestFieldRoundTrip: for every field encoding, a key decodes to the row
// it was encoded from, and re-encodes to the same bytes; EncodeField
// refuses exactly the values the test's own rules say it cannot hold.
func TestFieldRoundTrip(t *testing.T) {
	for si, s := range fieldSpecs {
		t.Run(s.name, func(t *testing.T) {
			tb := s.table(t)
			_, fc := fieldComp(t, tb, "f")
			r := rand.New(rand.NewPCG(1, uint64(si)))
			accepted := 0
			for range 3000 {
				row := specRow(r, tb, genValue(r, fc.typ))
				key, err := tb.EncodeKey(row, nil)
				want := encodable(fc, row[0])
				if err != nil {
					var ke *KeyError
					if want || !errors.As(err, &ke) {
						t.Fatalf("EncodeKey(f=%s) = %v, want a key", row[0], err)
					}
					continue
				}
				if !want {
					t.Fatalf("EncodeKey(f=%s) = '%s', want an error", row[0], ToStringBinary(key))
				}
				accepted++
				got := tb.NewRow()
				if err := tb.DecodeKey(key, got, nil); err != nil {
					t.Fatalf("DecodeKey('%s') for f=%s: %v", ToStringBinary(key), row[0], err)
				}
				for i := range row {
					if !sameValue(got[i], row[i]) {
						t.Fatalf("key '%s': column %d decoded as %s, encoded %s", ToStringBinary(key), i, got[i], row[i])
					}
				}
				again, err := tb.EncodeKey(got, nil)
				if err != nil || !bytes.Equal(again, key) {
					t.Fatalf("re-encoding f=%s gave '%s' (%v), want '%s'", got[0], ToStringBinary(again), err, ToStringBinary(key))
				}
			}
			if accepted < 300 {
				t.Fatalf("only %d of 3000 random values were encodable; the generator misses this encoding", accepted)
			}
		})
	}
}

// TestFieldOrder: for every component whose OrderPreserving is true, value
// order is byte order (reversed when Desc), for the component's bytes
// alone and for whole keys with other bytes after it.
func TestFieldOrder(t *testing.T) {
	for si, s := range fieldSpecs {
		t.Run(s.name, func(t *testing.T) {
			tb := s.table(t)
			_, fc := fieldComp(t, tb, "f")
			if fc.OrderPreserving() != s.ordered {
				t.Fatalf("OrderPreserving() = %v, want %v", fc.OrderPreserving(), s.ordered)
			}
			if !s.ordered {
				return
			}
			r := rand.New(rand.NewPCG(2, uint64(si)))
			for range 3000 {
				a, b := genEncodable(r, fc), genEncodable(r, fc)
				if r.IntN(8) == 0 {
					b = a
				}
				want := sign(Compare(a, b))
				if fc.Desc {
					want = -want
				}
				ea, err1 := fc.EncodeField(nil, a)
				eb, err2 := fc.EncodeField(nil, b)
				if err1 != nil || err2 != nil {
					t.Fatalf("EncodeField: %v, %v", err1, err2)
				}
				if want == 0 && !sameValue(a, b) {
					continue // -0 and +0: equal values, distinct bytes
				}
				if got := sign(bytes.Compare(ea, eb)); got != want {
					t.Fatalf("%s vs %s: bytes compare %d ('%s' vs '%s'), want %d", a, b, got, ToStringBinary(ea), ToStringBinary(eb), want)
				}
				// Other bytes after f differ between the two keys; bytes
				// before it (text_to_end) must be the same.
				ra, rb := specRow(r, tb, a), specRow(r, tb, b)
				if fi, _ := fieldComp(t, tb, "f"); fi > 0 {
					rb[1] = ra[1]
				}
				ka, _ := tb.EncodeKey(ra, nil)
				kb, _ := tb.EncodeKey(rb, nil)
				if want != 0 {
					if got := sign(bytes.Compare(ka, kb)); got != want {
						t.Fatalf("%s vs %s: keys compare %d ('%s' vs '%s'), want %d", a, b, got, ToStringBinary(ka), ToStringBinary(kb), want)
					}
				}
			}
		})
	}
}

// TestEncodeFieldRejects: values outside what a field holds are errors,
// never silently truncated bytes.
func TestEncodeFieldRejects(t *testing.T) {
	cases := []struct {
		spec string // a fieldSpecs name
		v    Value
		want string
	}{
		{"bin_int_asc", Bigint(1 << 40), "key field f: 1099511627776 is out of range for INT in 4 bytes"},
		{"java_int_asc", Bigint(1 << 31), "key field f: 2147483648 is out of range for INT in 4 bytes"},
		{"java_int_asc", Bigint(-1<<31 - 1), "key field f: -2147483649 is out of range for INT in 4 bytes"},
		{"java_bigint2_asc", Bigint(-1<<15 - 1), "key field f: -32769 is out of range for BIGINT in 2 bytes"},
		{"java_int3_desc", Bigint(1 << 23), "key field f: 8388608 is out of range for INT in 3 bytes"},
		{"bin_bool_asc", Value{Type: TypeBoolean, I: 2}, "key field f: TRUE is out of range for BOOLEAN in 1 bytes"},
		{"bin_bigint_asc", String("7"), "key field f: '7' is STRING, not BIGINT"},
		{"text_delim_underscore", Bigint(7), "key field f: 7 is BIGINT, not text"},
		{"bin_double_asc", Bigint(7), "key field f: 7 is BIGINT, not DOUBLE"},
		{"bin_double_asc", Double(nan()), "key field f: NaN cannot be written into a key"},
		{"text_delim_underscore", String("a_b"), "key field f: 'a_b' contains the delimiter '_'"},
		{"text_delim_two_bytes", String("ax"), "key field f: 'ax' contains the delimiter 'xx'"},
		{"dec_var_digit_delim", Bigint(10), "key field f: 10 contains the delimiter '0'"},
		{"text_rpad_x_8", String("abcdefgx"), "key field f: 'abcdefgx' ends with the pad byte 'x' and could not be read back"},
		{"text_rpad_x_8", String("abcdefghi"), "key field f: 'abcdefghi' is 9 bytes, longer than the field's fixed width of 8"},
		{"text_lpad_zero_6", String("0abc"), "key field f: '0abc' starts with the pad byte '0' and could not be read back"},
		{"text_reverse_delim", String("a\xffb"), `key field f: 'a\xFFb' is not UTF-8 text and cannot be reversed`},
		{"text_delim_nul", String("a\x00b\x1b[2J"), `key field f: 'a\x00b\x1B[2J' contains the delimiter '\x00'`},
		{"dec_bigint_10_asc", Bigint(10_000_000_000), "key field f: 10000000000 does not fit in 10 digits"},
		{"dec_bigint_10_desc", Bigint(-5), "key field f: -5 is negative and cannot be written as zero-padded digits"},
		{"bin_ts_asc", Null(TypeTimestamp), "key field f: a key field cannot be NULL"},
	}
	for _, tc := range cases {
		t.Run(tc.spec+"/"+tc.v.String(), func(t *testing.T) {
			var spec fieldSpec
			for _, s := range fieldSpecs {
				if s.name == tc.spec {
					spec = s
				}
			}
			_, fc := fieldComp(t, spec.table(t), "f")
			b, err := fc.EncodeField(nil, tc.v)
			if err == nil {
				t.Fatalf("EncodeField(%s) = '%s', want error %q", tc.v, ToStringBinary(b), tc.want)
			}
			if err.Error() != tc.want {
				t.Fatalf("EncodeField(%s) error\n got: %s\nwant: %s", tc.v, err, tc.want)
			}
		})
	}
}

func nan() float64 { return math.NaN() }
