package ref

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
)

// TestExpandRow reads one tsdb row built by hand: metric 7, base hour
// 2024-05-01 10:00:00 (0x663212A0 seconds), tag pairs (1,2) and (3,0x0A0B0C),
// and points of every form with an older version of one of them, read in
// time order.
func TestExpandRow(t *testing.T) {
	cat, err := catalog.Parse(examples.OpenTSDBPairsYAML)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("tsdb")
	type storeRow struct {
		Key   []byte
		Cells []Cell
	}
	scanRow := func(tb *catalog.Table, sr *storeRow) ([]catalog.Row, error) {
		return NewDecoder(tb).Rows(sr.Key, sr.Cells)
	}
	key := []byte{0, 0, 0, 7, 0x66, 0x32, 0x12, 0xA0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0x0A, 0x0B, 0x0C}
	// The salt is abs(Arrays.hashCode(metric and tags) % 20).
	h := int32(1)
	for _, b := range append(append([]byte{}, key[1:4]...), key[8:]...) {
		h = 31*h + int32(int8(b))
	}
	key[0] = byte(max(h%20, -(h % 20)))
	q := func(off, flags int) string { return string([]byte{byte(off >> 4), byte(off<<4 | flags)}) }
	sr := &storeRow{Key: key, Cells: []Cell{
		{Family: "t", Qualifier: q(5, 0), Timestamp: 9, Value: []byte{0xFE}},                                 // -2
		{Family: "t", Qualifier: q(70, 1), Timestamp: 8, Value: []byte{0xFF, 0x00}},                          // -256
		{Family: "t", Qualifier: q(70, 1), Timestamp: 7, Value: []byte{0x00, 0x01}},                          // older
		{Family: "t", Qualifier: q(600, 3), Timestamp: 6, Value: []byte{0, 1, 0, 0}},                         // 65536
		{Family: "t", Qualifier: q(601, 7), Timestamp: 5, Value: []byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0}}, // -2^32
		{Family: "t", Qualifier: q(3599, 0xB), Timestamp: 4, Value: []byte{0x40, 0x20, 0, 0}},                // 2.5
		{Family: "t", Qualifier: q(3000, 0xF), Timestamp: 3, Value: []byte{0xC0, 0x04, 0, 0, 0, 0, 0, 0}},    // -2.5
	}}
	rows, err := scanRow(tb, sr)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, RowText(r))
	}
	// An integer point also fills the exact BIGINT column; a float point
	// leaves it NULL.
	point := func(k, v, off, ts, val, stamp string) string {
		integer := val
		switch val {
		case "-4.294967296e+09":
			integer = "-4294967296"
		case "2.5", "-2.5":
			integer = "NULL"
		}
		return "(BIGINT:7, TIMESTAMP:'2024-05-01 10:00:00.000', BIGINT:" + k + ", BIGINT:" + v + ", INT:" + off +
			", TIMESTAMP:'2024-05-01 " + ts + "', DOUBLE:" + val + ", BIGINT:" + integer + ", TIMESTAMP:'1970-01-01 00:00:00.00" + stamp + "')"
	}
	var want []string
	for _, tag := range [][2]string{{"1", "2"}, {"3", "658188"}} {
		want = append(want,
			point(tag[0], tag[1], "5", "10:00:05.000", "-2", "9"),
			point(tag[0], tag[1], "70", "10:01:10.000", "-256", "8"),
			point(tag[0], tag[1], "600", "10:10:00.000", "65536", "6"),
			point(tag[0], tag[1], "601", "10:10:01.000", "-4.294967296e+09", "5"),
			point(tag[0], tag[1], "3000", "10:50:00.000", "-2.5", "3"),
			point(tag[0], tag[1], "3599", "10:59:59.000", "2.5", "4"))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The writer's bytes read back as the points it was given.
	w := examples.NewOpenTSDB()
	w.Add(examples.Point{Metric: "m", Tags: map[string]string{"a": "x", "b": "y"}, Time: time.Date(2024, 5, 1, 10, 0, 7, 0, time.UTC), Value: float32(-0.75)})
	c := w.Points[0]
	rows, err = scanRow(tb, &storeRow{Key: c.Key, Cells: []Cell{{Family: "t", Qualifier: string(c.Qualifier), Timestamp: 1, Value: c.Value}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0][6].F != -0.75 || rows[1][6].F != -0.75 || rows[0][2].I != 1 || rows[1][2].I != 2 || rows[1][4].I != 7 {
		t.Fatalf("the writer's point reads as %v", rows)
	}

	// A key whose group is cut short, and a value its flags do not fit.
	if _, err := scanRow(tb, &storeRow{Key: key[:len(key)-2], Cells: sr.Cells}); err == nil {
		t.Error("a group cut short reads")
	}
	// A 2-byte point's value is as long as it is, whatever its flags say;
	// a length no value has is skipped with the row's other cells read.
	odd := &storeRow{Key: key, Cells: []Cell{
		{Family: "t", Qualifier: q(1, 3), Value: []byte{1, 2}},
		{Family: "t", Qualifier: q(2, 0), Value: []byte{1, 2, 3}},
	}}
	rows, err = scanRow(tb, odd)
	if err != nil || len(rows) != 2 || rows[0][6].F != 258 || rows[0][4].I != 1 {
		t.Errorf("a 2-byte value under flags of 4 bytes and a 3-byte one read as %v, %v", rows, err)
	}
}

// TestRefTSDBCell reads millisecond points and compacted cells built by
// hand, the engine's duplicate rule, and cells that do not fit.
func TestRefTSDBCell(t *testing.T) {
	sec := func(off, flags int) []byte { return []byte{byte(off >> 4), byte(off<<4 | flags)} }
	ms := func(off, flags int) []byte {
		u := 0xF<<28 | uint32(off)<<6 | uint32(flags)
		return []byte{byte(u >> 24), byte(u >> 16), byte(u >> 8), byte(u)}
	}
	cat := func(b ...[]byte) []byte {
		var out []byte
		for _, x := range b {
			out = append(out, x...)
		}
		return out
	}
	text := func(pts []refPt) string {
		var s []string
		for _, p := range pts {
			s = append(s, fmt.Sprintf("%d/%d=%g@%d", p.off, p.ms, p.v, p.stamp))
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct {
		qual, val []byte
		want      string // "" for a cell that does not fit
	}{
		{ms(1500, 0), []byte{0xFF}, "1/1500=-1@0"},
		{ms(3599999, 0xB), []byte{0xC0, 0x20, 0, 0}, "3599/3599999=-2.5@0"},
		{ms(7, 1), []byte{1}, ""},                              // flags say 2 bytes
		{ms(7, 0xB), []byte{0, 0, 0, 0, 0x40, 0x20, 0, 0}, ""}, // no 8-byte fix for ms
		{sec(9, 0xB), []byte{0, 0, 0, 0, 0x40, 0x20, 0, 0}, "9/9000=2.5@0"},
		{sec(9, 0xB), []byte{0, 0, 0, 1, 0x40, 0x20, 0, 0}, ""},
		// Seconds and milliseconds mixed, and the meta byte.
		{cat(sec(1, 0), ms(1250, 1), sec(2, 0xF)), cat([]byte{5, 1, 0}, []byte{0x3F, 0xF0, 0, 0, 0, 0, 0, 0}, []byte{1}), "1/1000=5@0 1/1250=256@0 2/2000=1@0"},
		{cat(sec(1, 0), sec(3, 0)), []byte{5, 6, 0}, "1/1000=5@0 3/3000=6@0"},
		{cat(sec(1, 0), sec(3, 0)), []byte{5, 6}, ""},       // no meta byte
		{cat(sec(1, 0), sec(3, 0)), []byte{5, 6, 0, 0}, ""}, // a byte too many
		{cat(sec(1, 0), ms(5, 0)[:2]), []byte{5, 6, 0}, ""}, // ends inside a ms point
		{cat(sec(1, 0), sec(3, 2)), []byte{5, 6, 7, 0}, ""}, // a 3-byte integer
		{[]byte{1, 0, 5}, []byte("note"), ""},               // an annotation
		{nil, []byte{1}, ""},
	} {
		pts, err := refTSDBCell(c.qual, c.val)
		if got := text(pts); got != c.want || (err == nil) != (c.want != "") {
			t.Errorf("cell % X = % X: %q, %v; want %q", c.qual, c.val, got, err, c.want)
		}
	}

	// A compacted cell and, later, single cells for two of its times,
	// one a millisecond point at a whole second; an older compacted
	// version is ignored; a damaged cell is skipped.
	cells := []Cell{
		{Family: "t", Qualifier: string(sec(4, 0)), Timestamp: 30, Value: []byte{40}},
		{Family: "t", Qualifier: string(cat(sec(1, 0), ms(2500, 0), sec(4, 0))), Timestamp: 20, Value: []byte{1, 2, 3, 1}},
		{Family: "t", Qualifier: string(cat(sec(1, 0), ms(2500, 0), sec(4, 0))), Timestamp: 10, Value: []byte{7, 7, 7, 1}},
		{Family: "t", Qualifier: string(cat(sec(8, 0), sec(9, 0))), Timestamp: 30, Value: []byte{8, 9}},
		{Family: "t", Qualifier: string(ms(1000, 0)), Timestamp: 25, Value: []byte{10}},
		{Family: "t", Qualifier: string(ms(2500, 0)), Timestamp: 5, Value: []byte{20}},
	}
	c, err := catalog.Parse(examples.OpenTSDBPairsYAML)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := c.Table("tsdb")
	got := text(refWidePoints(tb, cells))
	if want := "1/1000=10@25 2/2500=2@20 4/4000=40@30"; got != want {
		t.Errorf("points %s, want %s", got, want)
	}
}
