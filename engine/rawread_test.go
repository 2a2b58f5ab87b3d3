package engine_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
)

// rawEngine is an engine over an embedded store whose catalog is empty,
// holding the table raw_t with families f and g written by st.Mutate.
func rawEngine(t *testing.T, cells []exectest.RawCell) *engine.Engine {
	t.Helper()
	cat, err := catalog.Parse([]byte("tables: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	st := tempStore(t)
	ctx := context.Background()
	if err := st.CreateTable(ctx, exectest.RawTableSpec("ns:raw_t")); err != nil {
		t.Fatal(err)
	}
	if err := st.Mutate(ctx, "ns:raw_t", exectest.RawMutations(cells)); err != nil {
		t.Fatal(err)
	}
	return engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
}

// TestRawReadDifferential: random raw reads of a table the catalog does
// not describe, on the embedded store, return what the model of the
// written cells says: the conditions the read's bounds take (key points
// and ranges, time range, families and qualifiers) and those the client
// evaluates together give the cells a full scan filtered by every
// condition gives.
func TestRawReadDifferential(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	cells := exectest.RandomRawCells(r)
	e := rawEngine(t, cells)
	exectest.RawDifferential(t, r, cells, "ns:raw_t", 400, func(q string) ([]catalog.Row, error) {
		rows, _, err := e.Exec(context.Background(), q)
		return rows, err
	})
}

// TestRawCast: CAST(_value AS …) reads a cell's bytes as Java's
// Bytes.toBytes wrote them, and bytes of another width are an error
// naming them.
func TestRawCast(t *testing.T) {
	be := binary.BigEndian
	cells := []exectest.RawCell{
		{Key: []byte("k"), Fam: "f", Qual: []byte("long"), Ts: 1, Val: be.AppendUint64(nil, uint64(0xffffffffffffff85))},
		{Key: []byte("k"), Fam: "f", Qual: []byte("int"), Ts: 1, Val: be.AppendUint32(nil, 0x80000000)},
		{Key: []byte("k"), Fam: "f", Qual: []byte("short"), Ts: 1, Val: be.AppendUint16(nil, 0xfffe)},
		{Key: []byte("k"), Fam: "f", Qual: []byte("double"), Ts: 1, Val: be.AppendUint64(nil, 0x400c000000000000)},
		{Key: []byte("k"), Fam: "f", Qual: []byte("float"), Ts: 1, Val: be.AppendUint32(nil, 0xc0200000)},
		{Key: []byte("k"), Fam: "f", Qual: []byte("bool"), Ts: 1, Val: []byte{1}},
		{Key: []byte("k"), Fam: "f", Qual: []byte("text"), Ts: 1, Val: []byte("h\xc3\xa9llo")},
	}
	e := rawEngine(t, cells)
	for _, c := range []struct{ typ, qual, want string }{
		{"BIGINT", "long", "-123"}, {"INT", "int", "-2147483648"}, {"SMALLINT", "short", "-2"},
		{"DOUBLE", "double", "3.5"}, {"FLOAT", "float", "-2.5"}, {"BOOLEAN", "bool", "TRUE"}, {"VARCHAR", "text", "héllo"},
	} {
		q := fmt.Sprintf("SELECT CAST(_value AS %s) AS v FROM RAW 'ns:raw_t' WHERE _key = 'k' AND _qualifier = '%s'", c.typ, c.qual)
		rows, _, err := e.Exec(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(rows) != 1 || rows[0][0].Text() != c.want {
			t.Errorf("%s: %v, want %s", q, rows, c.want)
		}
	}
	_, _, err := e.Exec(context.Background(), "SELECT CAST(_value AS BIGINT) FROM RAW 'ns:raw_t' WHERE _key = 'k' AND _qualifier = 'int'")
	if err == nil || !strings.Contains(err.Error(), `'\x80\x00\x00\x00' is 4 bytes, and Bytes.toBytes(long) writes 8`) {
		t.Errorf("BIGINT of 4 bytes: %v", err)
	}
	// A raw read writes nothing: an INSERT into the table is refused.
	_, _, err = e.Exec(context.Background(), `INSERT INTO "ns:raw_t" (a) VALUES (1)`)
	if err == nil || !strings.Contains(err.Error(), "raw reads are read-only") {
		t.Errorf("INSERT into a raw table: %v", err)
	}
}
