package exectest

import (
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"

	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
)

// TestExpandRow reads one tsdb row built by hand: metric 7, base hour
// 2024-05-01 10:00:00 (0x663212A0 seconds), tag pairs (1,2) and (3,0x0A0B0C),
// and points of every form with an older version of one of them.
func TestExpandRow(t *testing.T) {
	cat, err := openTSDBCatalog("tsdb", true)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("tsdb")
	scanRow := func(tb *catalog.Table, sr *exec.StoreRow) ([]catalog.Row, error) {
		return logicalRows(tb, storedColumns(tb), sr)
	}
	key := []byte{0, 0, 0, 7, 0x66, 0x32, 0x12, 0xA0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0x0A, 0x0B, 0x0C}
	// The salt is abs(Arrays.hashCode(metric and tags) % 20).
	h := int32(1)
	for _, b := range append(append([]byte{}, key[1:4]...), key[8:]...) {
		h = 31*h + int32(int8(b))
	}
	key[0] = byte(max(h%20, -(h % 20)))
	q := func(off, flags int) string { return string([]byte{byte(off >> 4), byte(off<<4 | flags)}) }
	sr := &exec.StoreRow{Key: key, Cells: []exec.Cell{
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
		got = append(got, rowText(r))
	}
	point := func(k, v, off, ts, val, stamp string) string {
		return "(BIGINT:7, TIMESTAMP:'2024-05-01 10:00:00.000', BIGINT:" + k + ", BIGINT:" + v + ", INT:" + off +
			", TIMESTAMP:'2024-05-01 " + ts + "', DOUBLE:" + val + ", TIMESTAMP:'1970-01-01 00:00:00.00" + stamp + "')"
	}
	var want []string
	for _, tag := range [][2]string{{"1", "2"}, {"3", "658188"}} {
		want = append(want,
			point(tag[0], tag[1], "5", "10:00:05.000", "-2", "9"),
			point(tag[0], tag[1], "70", "10:01:10.000", "-256", "8"),
			point(tag[0], tag[1], "600", "10:10:00.000", "65536", "6"),
			point(tag[0], tag[1], "601", "10:10:01.000", "-4.294967296e+09", "5"),
			point(tag[0], tag[1], "3599", "10:59:59.000", "2.5", "4"),
			point(tag[0], tag[1], "3000", "10:50:00.000", "-2.5", "3"))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The writer's bytes read back as the points it was given.
	w := examples.NewOpenTSDB()
	w.Add(examples.Point{Metric: "m", Tags: map[string]string{"a": "x", "b": "y"}, Time: time.Date(2024, 5, 1, 10, 0, 7, 0, time.UTC), Value: float32(-0.75)})
	c := w.Points[0]
	rows, err = scanRow(tb, &exec.StoreRow{Key: c.Key, Cells: []exec.Cell{{Family: "t", Qualifier: string(c.Qualifier), Timestamp: 1, Value: c.Value}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0][6].F != -0.75 || rows[1][6].F != -0.75 || rows[0][2].I != 1 || rows[1][2].I != 2 || rows[1][4].I != 7 {
		t.Fatalf("the writer's point reads as %v", rows)
	}

	// A key whose group is cut short, and a value its flags do not fit.
	if _, err := scanRow(tb, &exec.StoreRow{Key: key[:len(key)-2], Cells: sr.Cells}); err == nil {
		t.Error("a group cut short reads")
	}
	bad := &exec.StoreRow{Key: key, Cells: []exec.Cell{{Family: "t", Qualifier: q(1, 3), Value: []byte{1, 2}}}}
	if _, err := scanRow(tb, bad); err == nil {
		t.Error("a 2-byte value under flags of 4 bytes reads")
	}
}
