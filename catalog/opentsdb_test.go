package catalog

import (
	"encoding/hex"
	"math"
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
	src, err := os.ReadFile("../examples/opentsdb_pairs.yaml")
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

// ip is an integer point, fp a float one.
func ip(ms, off, n int64) WidePoint {
	return WidePoint{Millis: ms, Offset: off, Value: float64(n), Int: n, IsInt: true}
}

func fp(ms, off int64, v float64) WidePoint { return WidePoint{Millis: ms, Offset: off, Value: v} }

func TestOpenTSDBPoints(t *testing.T) {
	w := tsdbWide(t)
	for _, c := range []struct {
		name, qual, val string
		want            []WidePoint
	}{
		// 10 s, 1-byte integer 5.
		{"second int", "00A0", "05", []WidePoint{ip(10000, 10, 5)}},
		// 3599 s, 2-byte integer -300.
		{"second int16", "E0F1", "FED4", []WidePoint{ip(3599000, 3599, -300)}},
		// 10.5 s = 10500 ms = 0xA4100 >> 6; flags 0xB: a 4-byte float 1.5.
		{"ms float", "F00A410B", "3FC00000", []WidePoint{fp(10500, 10, 1.5)}},
		// 1 ms, flags 0xF: an 8-byte double 0.25.
		{"ms double", "F000004F", "3FD0000000000000", []WidePoint{fp(1, 0, 0.25)}},
		// The last millisecond OpenTSDB writes, 3599999 = 0x36EE7F; 4-byte int.
		{"ms last", "FDBB9FC3", "00010000", []WidePoint{ip(3599999, 3599, 65536)}},
		// Flags 0xB (4-byte float) over 8 bytes whose first 4 are zero, as
		// early versions wrote floats: the last 4 are the value.
		{"legacy float", "00AB", "000000003FC00000", []WidePoint{fp(10000, 10, 1.5)}},
		// A single second point's length is its value's, not its flags'.
		{"flags say 8 bytes", "00A7", "05", []WidePoint{ip(10000, 10, 5)}},
		// Compacted: 10 s int 5, 10.5 s float 1.5, 3599 s int -300, meta
		// byte 1 (seconds and milliseconds mixed).
		{"compacted mixed", "00A0 F00A410B E0F1", "05 3FC00000 FED4 01",
			[]WidePoint{ip(10000, 10, 5), fp(10500, 10, 1.5), ip(3599000, 3599, -300)}},
		// Compacted seconds only: 0 s 8-byte int 2^40, 60 s double 2.5, meta 0.
		{"compacted seconds", "0007 03CF", "0000010000000000 4004000000000000 00",
			[]WidePoint{ip(0, 0, 1<<40), fp(60000, 60, 2.5)}},
		// An integer beyond 2^53 reads exactly: 2^53 + 1 in 8 bytes.
		{"int 2^53+1", "00A7", "0020000000000001", []WidePoint{ip(10000, 10, 1<<53+1)}},
		// An append cell: 60 s int 7, 10 s int 5, 10.5 s float 1.5, then
		// 60 s again as a double 2.5, which replaces the first: the later
		// pair wins, and the points come in time order.
		{"append", "050000", "03C0 07 00A0 05 F00A410B 3FC00000 03CF 4004000000000000",
			[]WidePoint{ip(10000, 10, 5), fp(10500, 10, 1.5), fp(60000, 60, 2.5)}},
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
		{"histogram", "060000", "00", "not a data point"},
		{"append cut in a value", "050000", "00A0 05 00A1 FE", "shorter than the flags"},
		{"append cut in a qualifier", "050000", "00A0 05 F0", "ends inside a point"},
		{"append empty", "050000", "", "holds no point"},
		{"empty", "", "05", "not a data point"},
	} {
		t.Run(c.name, func(t *testing.T) {
			val := []byte(c.val)
			if !strings.HasPrefix(c.val, "{") {
				val = tsdbHex(t, c.val)
			}
			got, err := w.Points([]WidePoint{fp(1, 2, 3)}, tsdbHex(t, c.qual), val)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("err %v, want one saying %q", err, c.err)
			}
			if len(got) != 1 || got[0] != fp(1, 2, 3) {
				t.Errorf("a rejected cell changed the points: %+v", got)
			}
		})
	}
}

// TestOpenTSDBRowCell: INSERT writes a 2-byte point for a whole second
// and a 4-byte one otherwise, never a compacted cell; without an integer
// column, a whole value as an integer.
func TestOpenTSDBRowCell(t *testing.T) {
	w := tsdbWide(t)
	w.Integer = -1
	const base = 1714557600000 // 2024-05-01 10:00:00
	row := func(off *int64, ts int64, v float64) Row {
		r := make(Row, 8)
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

// tsdbRow is a row of examples/opentsdb.yaml's tsdb with base, offset,
// ts, value and int_value (nil: NULL) set.
func tsdbRow(w *Wide, base, off, ts, v, n any) Row {
	r := make(Row, 8)
	for i := range r {
		r[i] = Value{Null: true}
	}
	set := func(i int, x any, mk func(any) Value) {
		if x != nil {
			r[i] = mk(x)
		}
	}
	set(w.Base, base, func(x any) Value { return TimestampMillis(x.(int64)) })
	set(w.Offset, off, func(x any) Value { return Value{Type: TypeInt, I: x.(int64)} })
	set(w.Time, ts, func(x any) Value { return TimestampMillis(x.(int64)) })
	set(w.Value, v, func(x any) Value { return Double(x.(float64)) })
	set(w.Integer, n, func(x any) Value { return Bigint(x.(int64)) })
	return r
}

// TestOpenTSDBRowHour: a point's row is the hour of its time, before 1970
// too; a base that is not that hour, or not on an hour, and an offset past
// the hour are refused, since OpenTSDB reads a second qualifier past
// 3,839 s as a millisecond one, and one past 3,599 s out of order.
func TestOpenTSDBRowHour(t *testing.T) {
	w := tsdbWide(t)
	const base = int64(1714557600000) // 2024-05-01 10:00:00
	for _, c := range []struct {
		name       string
		row        Row
		base       int64
		qual, fail string
	}{
		{"last second", tsdbRow(w, nil, nil, base+3599000, nil, int64(5)), base, "E0F0", ""},
		{"last second given", tsdbRow(w, base, int64(3599), base+3599000, nil, int64(5)), base, "E0F0", ""},
		{"next hour", tsdbRow(w, nil, nil, base+3600000, nil, int64(5)), base + 3600000, "0000", ""},
		{"last millisecond", tsdbRow(w, nil, nil, base+3599999, nil, int64(5)), base, "FDBB9FC0", ""},
		{"before 1970", tsdbRow(w, nil, nil, int64(-1000), nil, int64(5)), -3600000, "E0F0", ""},
		{"before 1970 ms", tsdbRow(w, nil, nil, int64(-3600500), nil, int64(5)), -7200000, "FDBB2300", ""},
		{"base of another hour", tsdbRow(w, base, nil, base+3840000, nil, int64(5)), 0, "", "is not the hour of time '2024-05-01 11:04:00.000': that point belongs in the row of base '2024-05-01 11:00:00.000'"},
		{"base a second off", tsdbRow(w, base, nil, base+3601000, nil, int64(5)), 0, "", "is not the hour of time"},
		{"base not on the hour", tsdbRow(w, base+1000, nil, base+2000, nil, int64(5)), 0, "", "is not the hour of time"},
		{"base not on the hour, no time", tsdbRow(w, base+1000, int64(1), nil, nil, int64(5)), 0, "", "is not on the hour"},
		{"offset 3600", tsdbRow(w, base, int64(3600), nil, nil, int64(5)), 0, "", "offset 3600 s is not within the row's hour (0 to 3599)"},
		{"offset 3840", tsdbRow(w, base, int64(3840), nil, nil, int64(5)), 0, "", "offset 3840 s is not within the row's hour"},
		{"offset 3599", tsdbRow(w, base, int64(3599), nil, nil, int64(5)), base, "E0F0", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := w.Complete(c.row)
			var q []byte
			if err == nil {
				q, _, _, err = w.RowCell(r)
			}
			if c.fail != "" {
				if err == nil || !strings.Contains(err.Error(), c.fail) {
					t.Fatalf("err %v, want one saying %q", err, c.fail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r[w.Base].I != c.base || hex.EncodeToString(q) != strings.ToLower(c.qual) {
				t.Fatalf("base %d qualifier %x, want %d %s", r[w.Base].I, q, c.base, c.qual)
			}
			if c.row[w.Base].Null && !c.row[w.Base].Null {
				t.Fatal("Complete changed its argument")
			}
		})
	}
}

// TestOpenTSDBRowValue: values are written as TSDB.addPoint writes them,
// NaN and infinities refused; with an integer column an integer exactly
// and a value alone as a double, -0 included, so that each reads back
// as it was written.
func TestOpenTSDBRowValue(t *testing.T) {
	w := tsdbWide(t)
	if w.Integer < 0 {
		t.Fatal("tsdb has no integer column")
	}
	noInt := *w
	noInt.Integer = -1
	const base = int64(1714557600000)
	for _, c := range []struct {
		name string
		w    *Wide
		v, n any
		val  string
		int  bool
		fail string
	}{
		{"2^53+1", w, nil, int64(1<<53 + 1), "0020000000000001", true, ""},
		{"int and value", w, 5.0, int64(5), "05", true, ""},
		{"int -2^63", w, nil, int64(-1 << 63), "8000000000000000", true, ""},
		{"whole value alone", w, 5.0, nil, "4014000000000000", false, ""},
		{"-0", w, math.Copysign(0, -1), nil, "8000000000000000", false, ""},
		{"-0 without integer column", &noInt, math.Copysign(0, -1), nil, "8000000000000000", false, ""},
		{"whole without integer column", &noInt, 5.0, nil, "05", true, ""},
		{"int and other value", w, 6.0, int64(5), "", false, "value 6 and integer 5 of one point differ"},
		{"+Inf", w, math.Inf(1), nil, "", false, "not a number OpenTSDB stores"},
		{"-Inf", &noInt, math.Inf(-1), nil, "", false, "not a number OpenTSDB stores"},
		{"NaN", w, math.NaN(), nil, "", false, "not a number OpenTSDB stores"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, v, ok, err := c.w.RowCell(tsdbRow(c.w, base, int64(60), nil, c.v, c.n))
			if c.fail != "" {
				if err == nil || !strings.Contains(err.Error(), c.fail) {
					t.Fatalf("err %v, want one saying %q", err, c.fail)
				}
				return
			}
			if err != nil || !ok {
				t.Fatalf("RowCell: %v, %v", ok, err)
			}
			if hex.EncodeToString(v) != strings.ToLower(c.val) {
				t.Fatalf("value %x, want %s", v, c.val)
			}
			p, err := c.w.Points(nil, q, v)
			if err != nil || len(p) != 1 || p[0].IsInt != c.int {
				t.Fatalf("reads back as %+v, %v", p, err)
			}
			r := tsdbRow(c.w, base, nil, nil, nil, nil)
			c.w.Set(r, p[0])
			want := tsdbRow(c.w, base, int64(60), base+60000, c.v, c.n)
			if c.w.Integer >= 0 && c.v == nil {
				want[c.w.Value] = Double(float64(c.n.(int64)))
			}
			if c.w.Integer < 0 {
				want[w.Integer] = Value{Null: true}
			}
			got := r[c.w.Value]
			if got.F != want[c.w.Value].F || math.Signbit(got.F) != math.Signbit(want[c.w.Value].F) || r[w.Integer].Null != want[w.Integer].Null || r[w.Integer].I != want[w.Integer].I {
				t.Fatalf("reads back as value %v int %v, want %v %v", got, r[w.Integer], want[c.w.Value], want[w.Integer])
			}
		})
	}
	if _, _, ok, err := w.RowCell(tsdbRow(w, base, int64(60), nil, nil, nil)); ok || err != nil {
		t.Errorf("no value nor integer: %v, %v; want no point", ok, err)
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
	f.Add([]byte{0x05, 0x00, 0x00}, []byte{0x03, 0xC0, 7, 0x00, 0xA0, 5, 0x03, 0xC0, 8})
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

// TestWideInteger: the integer column is a BIGINT column of its own, from
// the cell.
func TestWideInteger(t *testing.T) {
	const head = `
tables:
  - name: p
    families: [{name: t}, {name: f}]
    columns:
      - {name: k, type: BIGINT}
      - {name: off, type: BIGINT}
      - {name: v, type: DOUBLE}
      - {name: n, type: BIGINT}
      - {name: d, type: DOUBLE, column: "f:d"}
    rowkey:
      - {field: k}
    wide:
      family: t
      qualifier: {format: opentsdb}
      offset: off
      value: v
`
	for _, c := range []struct{ integer, err string }{
		{"n", ""},
		{"d", `wide: column "d" is DOUBLE, not BIGINT`},
		{"off", `cannot be both the offset and the integer`},
		{"k", `comes from the cell`},
		{"x", `"x" is not a column`},
	} {
		cat, err := Parse([]byte(head + "      integer: " + c.integer + "\n"))
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("integer %s: %v, want %q", c.integer, err, c.err)
		}
		if err == nil {
			tb := mustTable(t, cat, "p")
			if tb.Wide.Integer != 3 || !tb.Columns[3].FromCell {
				t.Errorf("integer %s: column %d, from cell %v", c.integer, tb.Wide.Integer, tb.Columns[3].FromCell)
			}
		}
	}
}
