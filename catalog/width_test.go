package catalog

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"testing"
	"time"
)

// oneField is a table whose key is the one field x of type typ, written
// with the component spec comp.
func oneField(t *testing.T, typ, comp string) (*Table, *Component) {
	t.Helper()
	src := "tables:\n  - name: w\n    families: [{name: d}]\n    columns:\n      - {name: x, type: " + typ + "}\n" +
		"      - {name: v, type: STRING, column: \"d:v\"}\n    rowkey:\n      - " + comp + "\n"
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	tb, _ := c.Table("w")
	return tb, &tb.Key.Components[0]
}

func be(n uint64, w int) []byte {
	b := binary.BigEndian.AppendUint64(nil, n)
	return b[8-w:]
}

// TestWidths: integers in 1 to 8 bytes, signed or unsigned, and
// timestamps in seconds, milliseconds or microseconds, encode to the bytes
// Java's ByteBuffer/Bytes would write and decode back.
func TestWidths(t *testing.T) {
	may1 := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	ms := may1.UnixMilli()
	cases := []struct {
		typ, comp string
		val       Value
		want      []byte // nil: refused
	}{
		{"BIGINT", "{field: x, encoding: java, width: 3, unsigned: true}", Bigint(256), []byte{0, 1, 0}},
		{"BIGINT", "{field: x, encoding: java, width: 3, unsigned: true}", Bigint(1<<24 - 1), []byte{0xFF, 0xFF, 0xFF}},
		{"BIGINT", "{field: x, encoding: java, width: 3, unsigned: true}", Bigint(1 << 24), nil},
		{"BIGINT", "{field: x, encoding: java, width: 3}", Bigint(1<<23 - 1), []byte{0x7F, 0xFF, 0xFF}},
		{"BIGINT", "{field: x, encoding: java, width: 3}", Bigint(1 << 23), nil},
		{"BIGINT", "{field: x, encoding: java, width: 1, unsigned: true}", Bigint(200), []byte{200}},
		{"INT", "{field: x, encoding: sortable, width: 2}", Int(-1), []byte{0x7F, 0xFF}},
		{"INT", "{field: x, encoding: sortable, width: 2}", Int(1), []byte{0x80, 0x01}},
		{"INT", "{field: x, encoding: sortable, width: 2}", Int(40000), nil},
		{"BIGINT", "{field: x, encoding: java, width: 5, order: desc}", Bigint(1), be(1<<39-2, 5)},
		{"TIMESTAMP", "{field: x, encoding: java, width: 4, unit: s}", TimestampMillis(ms), be(uint64(may1.Unix()), 4)},
		{"TIMESTAMP", "{field: x, encoding: java, width: 4, unit: s}", TimestampMillis(ms + 1), nil},
		{"TIMESTAMP", "{field: x, encoding: java, unit: us}", TimestampMillis(ms + 7), be(uint64(may1.UnixMicro()+7000), 8)},
		{"TIMESTAMP", "{field: x, encoding: java}", TimestampMillis(ms), be(uint64(ms), 8)},
		{"TIMESTAMP", "{field: x, encoding: decimal, width: 10, unit: s}", TimestampMillis(ms), []byte(strconv.FormatInt(may1.Unix(), 10))},
		{"TIMESTAMP", "{field: x, encoding: sortable, width: 4, unit: s}", TimestampMillis(ms), be(uint64(may1.Unix())^1<<31, 4)},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %s %s", c.typ, c.comp, c.val), func(t *testing.T) {
			_, comp := oneField(t, c.typ, c.comp)
			got, err := comp.EncodeField(nil, c.val)
			if c.want == nil {
				if err == nil {
					t.Fatalf("encoded as % X, want refused", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, c.want) {
				t.Fatalf("bytes % X, want % X", got, c.want)
			}
			back, n, err := comp.DecodeField(got)
			if err != nil || n != len(got) || !sameValue(back, c.val) {
				t.Fatalf("decoded %v (%d bytes, %v), want %v", back, n, err, c.val)
			}
		})
	}
}

// TestMicrosFloor: microseconds read back floored to the millisecond.
func TestMicrosFloor(t *testing.T) {
	_, comp := oneField(t, "TIMESTAMP", "{field: x, encoding: java, unit: us}")
	v, _, err := comp.DecodeField(be(1999, 8))
	if err != nil || v.I != 1 {
		t.Fatalf("got %v, %v; want 1 ms", v, err)
	}
}

// TestUnitSpans: a range of TIMESTAMP values in milliseconds covers
// exactly the keys of the stored seconds or microseconds inside it.
func TestUnitSpans(t *testing.T) {
	for _, comp := range []string{"{field: x, encoding: java, width: 4, unit: s}", "{field: x, encoding: java, unit: us}",
		"{field: x, encoding: decimal, width: 10, unit: s}", "{field: x, encoding: sortable, unit: s, order: desc}"} {
		_, c := oneField(t, "TIMESTAMP", comp)
		bounds := []int64{0, 999, 1000, 1001, 5500, 6000, 9999}
		for _, lo := range bounds {
			for _, hi := range bounds {
				for _, inc := range []bool{true, false} {
					sp := c.FieldSpan(Bound{Set: true, Value: TimestampMillis(lo), Inclusive: inc}, Bound{Set: true, Value: TimestampMillis(hi), Inclusive: inc})
					for v := int64(0); v <= 11000; v += 250 {
						if c.Unit == Seconds && v%1000 != 0 {
							continue
						}
						key, err := c.EncodeField(nil, TimestampMillis(v))
						if err != nil {
							t.Fatal(err)
						}
						in := !sp.Empty && (sp.Start == nil || bytes.Compare(key, sp.Start) >= 0) && (sp.Stop == nil || bytes.Compare(key, sp.Stop) < 0)
						want := (v > lo || inc && v == lo) && (v < hi || inc && v == hi)
						if in != want {
							t.Fatalf("%s: %d in [%d, %d] (inclusive %v): span says %v", comp, v, lo, hi, inc, in)
						}
					}
				}
			}
		}
	}
}
