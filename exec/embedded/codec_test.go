package embedded

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// codecTable has families a (3 versions), b (1) and c (2, TTL 1 s).
func codecTable() *table {
	spec := testSpec("codec")
	spec.Families = nil
	m := tableMeta{Spec: spec}
	m.Spec.Families = append(m.Spec.Families,
		familySpec("c", 2, 1), familySpec("a", 3, 0), familySpec("b", 0, 0))
	return newTable(m, nil)
}

func TestRowRoundTrip(t *testing.T) {
	tb := codecTable()
	r := rand.New(rand.NewPCG(7, 9))
	noCutoff := make([]int64, len(tb.fams))
	for i := range 500 {
		var cells []wcell
		for range 1 + r.IntN(12) {
			cells = append(cells, wcell{
				fam:  r.IntN(len(tb.fams)),
				qual: string(rune('p' + r.IntN(3))),
				ts:   r.Int64N(6) * (1 + r.Int64N(1<<40)),
				val:  bytes.Repeat([]byte{byte(i)}, r.IntN(300)),
			})
		}
		cells = normalize(tb, cells, noCutoff)
		enc := appendRow(nil, tb, cells)
		got, ok := decodeRow(tb, enc, nil)
		if !ok {
			t.Fatalf("case %d: decode failed on %x", i, enc)
		}
		if fmt.Sprint(got) != fmt.Sprint(cells) {
			t.Fatalf("case %d: round trip\n got %v\nwant %v", i, got, cells)
		}
		for j := 1; j < len(got); j++ {
			if compareCells(got[j-1], got[j]) >= 0 {
				t.Fatalf("case %d: cells out of order at %d: %v", i, j, got)
			}
		}
		perCol := map[string]int{}
		for _, c := range got {
			k := fmt.Sprint(c.fam, c.qual)
			if perCol[k]++; perCol[k] > tb.fams[c.fam].versions {
				t.Fatalf("case %d: column %s keeps %d versions", i, k, perCol[k])
			}
		}
	}
}

func TestDecodeRejectsMalformed(t *testing.T) {
	tb := codecTable()
	good := appendRow(nil, tb, []wcell{{fam: 0, qual: "q", ts: 9, val: []byte("v")}, {fam: 0, qual: "q", ts: 3, val: []byte("w")}})
	tests := map[string][]byte{
		"empty":           {},
		"wrong format":    append([]byte{2}, good[1:]...),
		"truncated":       good[:len(good)-1],
		"trailing byte":   append(bytes.Clone(good), 0),
		"unknown family":  bytes.Replace(good, []byte("a"), []byte("z"), 1),
		"zero columns":    {rowFormat, 1, 'a', 0},
		"huge count":      {rowFormat, 1, 'a', 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 'q'},
		"delta past zero": {rowFormat, 1, 'a', 1, 1, 'q', 2, 3, 0, 4, 0},
		"zero delta":      {rowFormat, 1, 'a', 1, 1, 'q', 2, 3, 0, 0, 0},
	}
	if _, ok := decodeRow(tb, good, nil); !ok {
		t.Fatal("the valid row does not decode")
	}
	for name, raw := range tests {
		if cells, ok := decodeRow(tb, raw, nil); ok {
			t.Errorf("%s: decoded %x as %v", name, raw, cells)
		}
		b := newRowBuilder(tb, 3, 0)
		if row, err := b.build([]byte("k"), raw); err == nil {
			t.Errorf("%s: built %x as %v", name, raw, row)
		}
	}
}

// FuzzDecodeRow checks that no stored bytes make the decoders panic, that
// both decoders agree on what is valid, and that a valid row re-encodes to
// the same bytes.
func FuzzDecodeRow(f *testing.F) {
	tb := codecTable()
	f.Add(appendRow(nil, tb, []wcell{{fam: 0, qual: "q", ts: 9, val: []byte("v")}}))
	f.Add(appendRow(nil, tb, []wcell{{fam: 0, qual: "", ts: 9}, {fam: 0, qual: "", ts: 1}, {fam: 2, qual: "x", ts: 1 << 62}}))
	f.Add([]byte{rowFormat})
	f.Fuzz(func(t *testing.T, raw []byte) {
		cells, ok := decodeRow(tb, raw, nil)
		_, err := newRowBuilder(tb, 1000, 0).build([]byte("k"), raw)
		if built := err == nil; ok != built {
			t.Fatalf("decodeRow ok=%v, build ok=%v", ok, built)
		}
		if !ok {
			return
		}
		// Encoding is canonical only for rows that are in stored order.
		for j := 1; j < len(cells); j++ {
			if compareCells(cells[j-1], cells[j]) >= 0 {
				return
			}
		}
		if enc := appendRow(nil, tb, cells); !bytes.Equal(enc, raw) {
			t.Fatalf("re-encoded %x as %x", raw, enc)
		}
	})
}
