package exectest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// rawCatalog is RunRaw's table: a qualifier with a byte over 0x7F, two
// versions kept.
const rawCatalog = `tables:
  - name: rawt
    hbase: %s
    families: [{name: d, versions: 2}]
    columns:
      - {name: id, type: BIGINT}
      - {name: v, type: STRING, column: "d:\x70\x87"}
      - {name: n, type: BIGINT, column: "d:n"}
    rowkey:
      - {field: id, encoding: decimal, width: 3}
    indexes:
      - name: rawt_by_n
        hbase: %s_by_n
        rowkey: [{field: n, encoding: java}]
        carries: [id]
`

// RunRaw checks SELECT RAW on st: every cell of the rows selected, mapped
// or not, versions included, through the data table and through an
// index, and, with no condition, rows whose key does not fit the layout.
// It also checks that the qualifier "\x70\x87" is stored as those two
// bytes. physical names the HBase table it creates (and physical_by_n).
func RunRaw(t *testing.T, st exec.Store, physical string) {
	ctx := context.Background()
	cat, err := catalog.Parse([]byte(fmt.Sprintf(rawCatalog, physical, physical)))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("rawt")
	x := &exec.Executor{Store: st}
	if err := x.EnsureTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	for _, ix := range tb.Indexes {
		if err := x.EnsureTable(ctx, ix.Table); err != nil {
			t.Fatal(err)
		}
	}
	row := func(id int64, v string, n int64) catalog.Row {
		return catalog.Row{catalog.Bigint(id), catalog.String(v), catalog.Bigint(n)}
	}
	if err := x.Insert(ctx, tb, []catalog.Row{row(1, "a", 10), row(2, "b", 20)}, 1000, nil); err != nil {
		t.Fatal(err)
	}
	if err := x.Insert(ctx, tb, []catalog.Row{row(1, "a2", 10)}, 2000, nil); err != nil {
		t.Fatal(err)
	}
	// A cell the catalog does not map, and a row whose key is not three
	// digits.
	err = st.Mutate(ctx, tb.Physical, []exec.Mutation{
		{Key: []byte("001"), Cells: []exec.Cell{{Family: "d", Qualifier: "x\x00", Timestamp: 1500, Value: []byte{0xFF, 'z'}}}},
		{Key: []byte("zz"), Cells: []exec.Cell{{Family: "d", Qualifier: "n", Timestamp: 1000, Value: []byte("?")}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	it, err := st.Scan(ctx, tb.Physical, exec.Range{Start: []byte("002"), Stop: []byte("003")}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sr, err := it.Next(ctx)
	it.Close()
	if err != nil {
		t.Fatal(err)
	}
	var quals []string
	for _, c := range sr.Cells {
		quals = append(quals, fmt.Sprintf("% X", c.Qualifier))
	}
	if got := strings.Join(quals, ","); got != "6E,70 87" {
		t.Errorf("stored qualifiers of row 002 = %s, want 6E,70 87", got)
	}

	cases := []struct{ q, want string }{
		{"SELECT RAW * FROM rawt WHERE id = 1", `
001|d|n|1970-01-01 00:00:02.000|\x00\x00\x00\x00\x00\x00\x00\x0A|n
001|d|p\x87|1970-01-01 00:00:02.000|a2|v
001|d|x\x00|1970-01-01 00:00:01.500|\xFFz|NULL`},
		{"SELECT RAW * FROM rawt WHERE id = 1 VERSIONS 2", `
001|d|n|1970-01-01 00:00:02.000|\x00\x00\x00\x00\x00\x00\x00\x0A|n
001|d|n|1970-01-01 00:00:01.000|\x00\x00\x00\x00\x00\x00\x00\x0A|n
001|d|p\x87|1970-01-01 00:00:02.000|a2|v
001|d|p\x87|1970-01-01 00:00:01.000|a|v
001|d|x\x00|1970-01-01 00:00:01.500|\xFFz|NULL`},
		{"SELECT RAW * FROM rawt WHERE n = 20", `
002|d|n|1970-01-01 00:00:01.000|\x00\x00\x00\x00\x00\x00\x00\x14|n
002|d|p\x87|1970-01-01 00:00:01.000|b|v`},
		{"SELECT RAW * FROM rawt WHERE v >= 'a' LIMIT 1 ALLOW FULL SCAN", `
001|d|n|1970-01-01 00:00:02.000|\x00\x00\x00\x00\x00\x00\x00\x0A|n
001|d|p\x87|1970-01-01 00:00:02.000|a2|v
001|d|x\x00|1970-01-01 00:00:01.500|\xFFz|NULL`},
		{"SELECT RAW * FROM rawt ALLOW FULL SCAN", `
001|d|n|1970-01-01 00:00:02.000|\x00\x00\x00\x00\x00\x00\x00\x0A|n
001|d|p\x87|1970-01-01 00:00:02.000|a2|v
001|d|x\x00|1970-01-01 00:00:01.500|\xFFz|NULL
002|d|n|1970-01-01 00:00:01.000|\x00\x00\x00\x00\x00\x00\x00\x14|n
002|d|p\x87|1970-01-01 00:00:01.000|b|v
zz|d|n|1970-01-01 00:00:01.000|?|n`},
		// The LIMIT bounds the scan of the whole table: no ALLOW FULL
		// SCAN, and the store stops after the LIMIT's rows.
		{"SELECT RAW * FROM rawt LIMIT 2", `
001|d|n|1970-01-01 00:00:02.000|\x00\x00\x00\x00\x00\x00\x00\x0A|n
001|d|p\x87|1970-01-01 00:00:02.000|a2|v
001|d|x\x00|1970-01-01 00:00:01.500|\xFFz|NULL
002|d|n|1970-01-01 00:00:01.000|\x00\x00\x00\x00\x00\x00\x00\x14|n
002|d|p\x87|1970-01-01 00:00:01.000|b|v`},
		{"SELECT RAW * FROM rawt LIMIT 1 VERSIONS 2", `
001|d|n|1970-01-01 00:00:02.000|\x00\x00\x00\x00\x00\x00\x00\x0A|n
001|d|n|1970-01-01 00:00:01.000|\x00\x00\x00\x00\x00\x00\x00\x0A|n
001|d|p\x87|1970-01-01 00:00:02.000|a2|v
001|d|p\x87|1970-01-01 00:00:01.000|a|v
001|d|x\x00|1970-01-01 00:00:01.500|\xFFz|NULL`},
		{"SELECT RAW * FROM rawt LIMIT 1 OFFSET 1 ALLOW FULL SCAN", `
002|d|n|1970-01-01 00:00:01.000|\x00\x00\x00\x00\x00\x00\x00\x14|n
002|d|p\x87|1970-01-01 00:00:01.000|b|v`},
		// An OR that an index serves in part: RAW reads one access.
		{"SELECT RAW * FROM rawt WHERE id = 1 OR n = 20 ALLOW FULL SCAN", `
001|d|n|1970-01-01 00:00:02.000|\x00\x00\x00\x00\x00\x00\x00\x0A|n
001|d|p\x87|1970-01-01 00:00:02.000|a2|v
001|d|x\x00|1970-01-01 00:00:01.500|\xFFz|NULL
002|d|n|1970-01-01 00:00:01.000|\x00\x00\x00\x00\x00\x00\x00\x14|n
002|d|p\x87|1970-01-01 00:00:01.000|b|v`},
		{"SELECT v FROM rawt WHERE id = 1", "\na2"},
	}
	pl := planner.New(cat, planner.Options{})
	for _, c := range cases {
		t.Run(c.q, func(t *testing.T) {
			got, err := runRaw(ctx, x, pl, c.q)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.TrimPrefix(c.want, "\n"); got != want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// runRaw plans and runs a SELECT, RAW or not, and renders its rows with
// | between values.
func runRaw(ctx context.Context, x *exec.Executor, pl *planner.Planner, q string) (string, error) {
	stmt, err := parser.ParseOne(q)
	if err != nil {
		return "", err
	}
	p, err := pl.Plan(context.Background(), stmt)
	if err != nil {
		return "", err
	}
	sel := p.(*planner.Select)
	placed, err := exec.Place(ctx, x.Store, sel, exec.PlaceOptions{})
	if err != nil {
		return "", err
	}
	var rows exec.Rows
	if sel.Raw {
		rows, err = x.QueryRaw(ctx, placed, nil)
	} else {
		rows, err = x.Run(ctx, placed, nil)
	}
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var lines []string
	for {
		r, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			return strings.Join(lines, "\n"), nil
		}
		if err != nil {
			return "", err
		}
		vals := make([]string, len(r))
		for i, v := range r {
			vals[i] = v.Text()
		}
		lines = append(lines, strings.Join(vals, "|"))
	}
}
