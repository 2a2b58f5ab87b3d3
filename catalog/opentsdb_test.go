package catalog

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// The cells below are built by hand from OpenTSDB 2.x's format: a second
// point's qualifier is offset << 4 | flags in 2 bytes, a millisecond
// point's 0xF << 28 | ms << 6 | flags in 4, flags & 8 a float and
// (flags & 7) + 1 the value's length; a compacted cell concatenates the
// qualifiers and the values and ends the value with a meta byte.

func tsdbWide(t *testing.T) *Wide {
	t.Helper()
	src, err := os.ReadFile("../examples/opentsdb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tb := mustTable(t, mustParse(t, string(src)), "tsdb")
	if tb.Wide == nil || !tb.Wide.OpenTSDB {
		t.Fatalf("tsdb's wide family is not read as OpenTSDB's: %+v", tb.Wide)
	}
	return tb.Wide
}

func tsdbHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOpenTSDBPoints(t *testing.T) {
	w := tsdbWide(t)
	for _, c := range []struct {
		name, qual, val string
		want            []WidePoint
	}{
		// 10 s, 1-byte integer 5.
		{"second int", "00A0", "05", []WidePoint{{10000, 10, 5}}},
		// 3599 s, 2-byte integer -300.
		{"second int16", "E0F1", "FED4", []WidePoint{{3599000, 3599, -300}}},
		// 10.5 s = 10500 ms = 0xA4100 >> 6; flags 0xB: a 4-byte float 1.5.
		{"ms float", "F00A410B", "3FC00000", []WidePoint{{10500, 10, 1.5}}},
		// 1 ms, flags 0xF: an 8-byte double 0.25.
		{"ms double", "F000004F", "3FD0000000000000", []WidePoint{{1, 0, 0.25}}},
		// The last millisecond OpenTSDB writes, 3599999 = 0x36EE7F; 4-byte int.
		{"ms last", "FDBB9FC3", "00010000", []WidePoint{{3599999, 3599, 65536}}},
		// Flags 0xB (4-byte float) over 8 bytes whose first 4 are zero, as
		// early versions wrote floats: the last 4 are the value.
		{"legacy float", "00AB", "000000003FC00000", []WidePoint{{10000, 10, 1.5}}},
		// A single second point's length is its value's, not its flags'.
		{"flags say 8 bytes", "00A7", "05", []WidePoint{{10000, 10, 5}}},
		// Compacted: 10 s int 5, 10.5 s float 1.5, 3599 s int -300, meta
		// byte 1 (seconds and milliseconds mixed).
		{"compacted mixed", "00A0 F00A410B E0F1", "05 3FC00000 FED4 01",
			[]WidePoint{{10000, 10, 5}, {10500, 10, 1.5}, {3599000, 3599, -300}}},
		// Compacted seconds only: 0 s 8-byte int 2^40, 60 s double 2.5, meta 0.
		{"compacted seconds", "0007 03CF", "0000010000000000 4004000000000000 00",
			[]WidePoint{{0, 0, 1 << 40}, {60000, 60, 2.5}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := w.Points(nil, tsdbHex(t, c.qual), tsdbHex(t, c.val))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("points %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("point %d: %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestOpenTSDBPointsRejected(t *testing.T) {
	w := tsdbWide(t)
	for _, c := range []struct{ name, qual, val, err string }{
		{"compacted without meta byte", "00A0 F00A410B E0F1", "05 3FC00000 FED4", "compacted cell"},
		{"compacted value short", "00A0 F00A410B E0F1", "05 3FC00000 FE", "shorter than the flags"},
		{"compacted value long", "00A0 E0F1", "05 FED4 00 00", "not its 2 points' 3 and a meta byte"},
		{"compacted qualifier cut in a ms point", "00A0 F00A", "05 00", "ends inside a point"},
		{"compacted 3-byte int", "00A2 E0F1", "000001 FED4 00", "does not fit the flags"},
		{"ms length mismatch", "F00A410B", "3FC0", "shorter than the flags"},
		{"ms value long", "F00A4100", "0505", "does not fit the flags"},
		{"legacy float not zero", "00AB", "000000013FC00000", "first 4 are not zero"},
		{"float of 2 bytes", "00A9", "3FC0", "does not fit the flags"},
		{"annotation", "010000", `{"description":"x"}`, "not a data point"},
		{"append", "050000", "00A005", "not a data point"},
		{"empty", "", "05", "not a data point"},
	} {
		t.Run(c.name, func(t *testing.T) {
			val := []byte(c.val)
			if !strings.HasPrefix(c.val, "{") {
				val = tsdbHex(t, c.val)
			}
			got, err := w.Points([]WidePoint{{1, 2, 3}}, tsdbHex(t, c.qual), val)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("err %v, want one saying %q", err, c.err)
			}
			if len(got) != 1 || got[0] != (WidePoint{1, 2, 3}) {
				t.Errorf("a rejected cell changed the points: %+v", got)
			}
		})
	}
}

// TestOpenTSDBRowCell: INSERT writes a 2-byte point for a whole second
// and a 4-byte one otherwise, never a compacted cell.
func TestOpenTSDBRowCell(t *testing.T) {
	w := tsdbWide(t)
	const base = 1714557600000 // 2024-05-01 10:00:00
	row := func(off *int64, ts int64, v float64) Row {
		r := make(Row, w.Value+1)
		for i := range r {
			r[i] = Value{Null: true}
		}
		r[w.Base] = TimestampMillis(base)
		r[w.Value] = Double(v)
		if off != nil {
			r[w.Offset] = Value{Type: TypeInt, I: *off}
		}
		if ts != 0 {
			r[w.Time] = TimestampMillis(ts)
		}
		return r
	}
	ten := int64(10)
	for _, c := range []struct {
		name      string
		row       Row
		qual, val string
	}{
		{"offset", row(&ten, 0, 5), "00A0", "05"},
		{"whole second", row(nil, base+10000, -300), "00A1", "FED4"},
		{"millisecond", row(nil, base+10500, 1.5), "F00A410F", "3FF8000000000000"},
		{"millisecond and offset", row(&ten, base+10500, 70000), "F00A4103", "00011170"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, v, ok, err := w.RowCell(c.row)
			if err != nil || !ok {
				t.Fatalf("RowCell: %v, %v", ok, err)
			}
			if hex.EncodeToString(q) != strings.ToLower(c.qual) || hex.EncodeToString(v) != strings.ToLower(c.val) {
				t.Fatalf("writes %x = %x, want %s = %s", q, v, c.qual, c.val)
			}
			p, err := w.Points(nil, q, v)
			if err != nil || len(p) != 1 || p[0].Value != c.row[w.Value].F {
				t.Fatalf("reads back as %+v, %v", p, err)
			}
		})
	}
	eleven := int64(11)
	for _, r := range []Row{row(&eleven, base+10500, 1), row(nil, base-1, 1), row(nil, base+4194304, 1)} {
		if _, _, _, err := w.RowCell(r); err == nil {
			t.Errorf("RowCell of offset %v, time %v: no error", r[w.Offset], r[w.Time])
		}
	}
}

func TestWideQualifierFormat(t *testing.T) {
	const head = `
tables:
  - name: p
    families: [{name: t}]
    columns:
      - {name: k, type: BIGINT}
      - {name: off, type: INT}
      - {name: v, type: DOUBLE}
    rowkey:
      - {field: k}
    wide:
      family: t
      offset: off
      value: v
`
	for _, c := range []struct{ qual, err string }{
		{"{format: opentsdb}", ""},
		{"{format: opentsdb, width: 2}", "format opentsdb takes no width or shift"},
		{"{format: influx}", `unknown qualifier format "influx"`},
		{"{width: 2, shift: 4}", ""},
	} {
		_, err := Parse([]byte(head + "      qualifier: " + c.qual + "\n"))
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("qualifier %s: %v, want %q", c.qual, err, c.err)
		}
	}
}

// FuzzOpenTSDBPoints: no cell panics, and a cell read is either all its
// points or an error with none.
func FuzzOpenTSDBPoints(f *testing.F) {
	f.Add([]byte{0x00, 0xA0, 0xF0, 0x0A, 0x41, 0x0B, 0xE0, 0xF1}, []byte{5, 0x3F, 0xC0, 0, 0, 0xFE, 0xD4, 1})
	f.Add([]byte{0xF0, 0x0A, 0x41}, []byte{1, 2, 3})
	f.Add([]byte{0x00, 0xAB}, []byte{0, 0, 0, 0, 0x3F, 0xC0, 0, 0})
	f.Add([]byte{0x01, 0x00, 0x00}, []byte("{}"))
	w := &Wide{OpenTSDB: true, QualWidth: 2, Shift: 4}
	f.Fuzz(func(t *testing.T, qual, val []byte) {
		got, err := w.Points(nil, qual, val)
		if err != nil && len(got) != 0 {
			t.Fatalf("error %v with points %+v", err, got)
		}
		if err == nil && len(got) == 0 {
			t.Fatalf("no points and no error")
		}
		for _, p := range got {
			if p.Millis < 0 || p.Millis > 1<<22 || p.Offset != p.Millis/1000 {
				t.Fatalf("point %+v", p)
			}
		}
	})
}
