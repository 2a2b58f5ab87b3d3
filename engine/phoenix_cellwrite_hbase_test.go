package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/internal/phoenixtest"
)

// caCols are the columns of the cell-array tables, key first; caKinds
// their kinds for pxCanon (s text, n number).
var caCols = []string{"k", "n", "a", "b", "c", "d", "e"}

const caKinds = "snnsnns"

// TestPhoenixReadsRkqlCellArrayWrites: Phoenix creates two tables stored
// as SINGLE_CELL_ARRAY_WITH_OFFSETS (salted and not, a descending key
// field, two families) and UPSERTs rows; rkql imports both with CREATE
// TABLE … FROM PHOENIX, then INSERTs whole rows, UPSERTs some columns
// (NULLs among them, several rows of one key in a statement), UPDATEs
// and DELETEs random rows, Phoenix's rows and its own alike. Phoenix's
// SELECT through JDBC then returns exactly the rows of the model, as does
// rkql's; and a whole row rkql writes has the cells, byte for byte, of the
// same row Phoenix wrote.
func TestPhoenixReadsRkqlCellArrayWrites(t *testing.T) {
	zk := phoenixtest.Require(t)
	tables := []string{"PHX_CELLW.CELLS", "PHX_CELLW.CELLS_SALTED"}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 23))
	// A row is its seven literals, "" for NULL.
	gen := []func() string{
		func() string { return fmt.Sprintf("k%d", r.IntN(25)) },
		func() string { return fmt.Sprint(r.IntN(41) - 20) },
		func() string { return fmt.Sprint(r.IntN(2001) - 1000) },
		func() string { return fmt.Sprintf("b%d", r.IntN(100)) },
		func() string { return fmt.Sprint(float64(r.IntN(2001)-1000) / 4) },
		func() string { return fmt.Sprint(r.Int64N(1<<50) - 1<<49) },
		func() string { return fmt.Sprintf("e%d", r.IntN(100)) },
	}
	val := func(i int) string {
		if i >= 2 && r.IntN(4) == 0 {
			return ""
		}
		return gen[i]()
	}
	lit := func(i int, v string) string {
		switch {
		case v == "":
			return "NULL"
		case caKinds[i] == 's':
			return "'" + v + "'"
		}
		return v
	}
	canon := func(row []string) string {
		var vs []string
		for i, v := range row {
			if v == "" {
				vs = append(vs, "NULL")
			} else if caKinds[i] == 's' {
				vs = append(vs, v)
			} else {
				vs = append(vs, pxCanon("n", json.Number(v)))
			}
		}
		return strings.Join(vs, " | ")
	}
	id := func(row []string) string { return row[0] + "/" + row[1] }

	// Phoenix creates the tables and writes rows of its own; "twin"
	// rows are written again by rkql under another key, to compare cells.
	// The DDL first: Phoenix drops the uncommitted UPSERTs of a
	// connection when it runs a CREATE TABLE.
	var setup, upserts []string
	models := make([]map[string][]string, len(tables))
	twins := make([][][]string, len(tables))
	for ti, name := range tables {
		salt := ""
		if ti == 1 {
			salt = ", SALT_BUCKETS = 4"
		}
		setup = append(setup, "DROP TABLE IF EXISTS "+name,
			"CREATE IMMUTABLE TABLE "+name+" (K VARCHAR NOT NULL, N INTEGER NOT NULL, A INTEGER, B VARCHAR, C DOUBLE, X.D BIGINT, X.E VARCHAR, "+
				"CONSTRAINT PK PRIMARY KEY (K, N DESC)) IMMUTABLE_STORAGE_SCHEME = SINGLE_CELL_ARRAY_WITH_OFFSETS, UPDATE_CACHE_FREQUENCY = 60000"+salt)
		models[ti] = map[string][]string{}
		for len(models[ti]) < 40 {
			row := make([]string, 7)
			for i := range row {
				row[i] = val(i)
			}
			if len(twins[ti]) < 6 {
				twins[ti] = append(twins[ti], row)
			}
			models[ti][id(row)] = row
			var ls []string
			for i, v := range row {
				ls = append(ls, lit(i, v))
			}
			upserts = append(upserts, fmt.Sprintf("UPSERT INTO %s (K, N, A, B, C, D, E) VALUES (%s)", name, strings.Join(ls, ", ")))
		}
	}
	phoenixtest.RunBatch(t, 100, append(setup, upserts...)...)

	ctx := context.Background()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: zk}, hbasestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	file := filepath.Join(t.TempDir(), "catalog.yaml")
	src := []byte("tables: []\n")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(engine.Config{Catalog: cat, CatalogSource: src, CatalogFile: file,
		Open:    func(context.Context) (exec.Store, error) { return st, nil },
		Confirm: func(context.Context, string) (bool, error) { return true, nil },
	})
	names := []string{"cells", "cells_salted"}
	for ti, name := range tables {
		out := runText(t, e, "CREATE TABLE "+names[ti]+" FROM PHOENIX '"+name+"';")
		if !strings.Contains(out, "# saved to") || !strings.Contains(out, "single_cell_array_with_offsets") {
			t.Fatalf("import of %s:\n%s", name, out)
		}
	}

	var queries []string
	for ti, name := range tables {
		tb := names[ti]
		model := models[ti]
		// The twins and the rows of Phoenix they copy are not written
		// again.
		var live []string
		fixed := map[string]bool{}
		for _, tw := range twins[ti] {
			fixed[id(tw)] = true
		}
		for k := range model {
			if !fixed[k] {
				live = append(live, k)
			}
		}
		sort.Strings(live)
		deleted := map[string]bool{}
		pick := func() []string { // a live row, or a new key
			if len(live) > 0 && r.IntN(3) > 0 {
				return slices.Clone(model[live[r.IntN(len(live))]])
			}
			for {
				row := []string{gen[0](), gen[1](), "", "", "", "", ""}
				if k := id(row); !deleted[k] && model[k] == nil {
					return row
				}
			}
		}
		put := func(row []string) {
			if model[id(row)] == nil {
				live = append(live, id(row))
			}
			model[id(row)] = row
		}
		var script strings.Builder
		var inserts, upserts, upsertRows, nulls, updates, deletes int
		// The twins: Phoenix's rows again under a new key.
		for i, tw := range twins[ti] {
			row := slices.Clone(tw)
			row[0] = fmt.Sprintf("twin%d", i)
			model[id(row)] = row
			var ls []string
			for i, v := range row {
				ls = append(ls, lit(i, v))
			}
			fmt.Fprintf(&script, "INSERT INTO %s (k, n, a, b, c, d, e) VALUES (%s);\n", tb, strings.Join(ls, ", "))
			inserts++
		}
		for step := 0; step < 200; step++ {
			switch op := r.IntN(10); {
			case op < 2: // a whole row
				row := pick()
				for i := 2; i < 7; i++ {
					row[i] = val(i)
				}
				put(row)
				var ls []string
				for i, v := range row {
					ls = append(ls, lit(i, v))
				}
				fmt.Fprintf(&script, "INSERT INTO %s (k, n, a, b, c, d, e) VALUES (%s);\n", tb, strings.Join(ls, ", "))
				inserts++
			case op < 6: // some columns of one to three rows
				var cols []int
				for i := 2; i < 7; i++ {
					if r.IntN(2) == 0 {
						cols = append(cols, i)
					}
				}
				var tuples []string
				for n := 1 + r.IntN(3); n > 0; n-- {
					row := pick()
					ls := []string{lit(0, row[0]), lit(1, row[1])}
					for _, c := range cols {
						row[c] = val(c)
						if row[c] == "" {
							nulls++
						}
						ls = append(ls, lit(c, row[c]))
					}
					put(row)
					tuples = append(tuples, "("+strings.Join(ls, ", ")+")")
					upsertRows++
				}
				names := []string{"k", "n"}
				for _, c := range cols {
					names = append(names, caCols[c])
				}
				fmt.Fprintf(&script, "UPSERT INTO %s (%s) VALUES %s;\n", tb, strings.Join(names, ", "), strings.Join(tuples, ", "))
				upserts++
			case op < 9 && len(live) > 0: // UPDATE of a row
				row := slices.Clone(model[live[r.IntN(len(live))]])
				var sets []string
				for i := 2; i < 7; i++ {
					if r.IntN(3) == 0 || i == 6 && len(sets) == 0 {
						row[i] = val(i)
						if row[i] == "" {
							nulls++
						}
						sets = append(sets, caCols[i]+" = "+lit(i, row[i]))
					}
				}
				put(row)
				fmt.Fprintf(&script, "UPDATE %s SET %s WHERE k = '%s' AND n = %s;\n", tb, strings.Join(sets, ", "), row[0], row[1])
				updates++
			case len(live) > 0: // DELETE; the key is not written again
				i := r.IntN(len(live))
				k := live[i]
				row := model[k]
				live = append(live[:i], live[i+1:]...)
				delete(model, k)
				deleted[k] = true
				fmt.Fprintf(&script, "DELETE FROM %s WHERE k = '%s' AND n = %s;\n", tb, row[0], row[1])
				deletes++
			}
		}
		// An UPDATE over a scan, filtering on a column of the cell.
		n := 0
		for _, row := range model {
			if row[2] != "" && caInt(row[2]) > 500 {
				row[3] = "scan"
				n++
			}
		}
		fmt.Fprintf(&script, "UPDATE %s SET b = 'scan' WHERE a > 500 ALLOW FULL SCAN;\n", tb)
		updates += n
		out := runText(t, e, script.String())
		if strings.Contains(out, "error") {
			t.Fatalf("%s: %s", name, out)
		}
		t.Logf("%s: rkql wrote %d INSERTs, %d UPSERTs of some columns (%d rows), %d NULLs, %d UPDATEs (%d by a scan), %d DELETEs; %d rows left",
			name, inserts, upserts, upsertRows, nulls, updates, n, deletes, len(model))
		queries = append(queries, "SELECT K, N, A, B, C, D, E FROM "+name)
	}

	got := phoenixtest.Run(t, queries...)
	for ti, name := range tables {
		var want []string
		for _, row := range models[ti] {
			want = append(want, canon(row))
		}
		sort.Strings(want)
		var ph []string
		for _, vs := range got[ti].Rows {
			var cs []string
			for i, v := range vs {
				cs = append(cs, pxCanon(caKinds[i:i+1], v))
			}
			ph = append(ph, strings.Join(cs, " | "))
		}
		sort.Strings(ph)
		if strings.Join(ph, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: Phoenix reads %d rows, the model holds %d:\n%s", name, len(ph), len(want), diffLines(ph, want))
		} else {
			t.Logf("%s: Phoenix reads the %d rows rkql left, equal", name, len(ph))
		}
		rows, _, err := e.Exec(ctx, "SELECT k, n, a, b, c, d, e FROM "+names[ti]+" ALLOW FULL SCAN")
		if err != nil {
			t.Fatal(err)
		}
		var rk []string
		for _, row := range rows {
			var cs []string
			for i, v := range row {
				cs = append(cs, pxCanon(caKinds[i:i+1], v))
			}
			rk = append(rk, strings.Join(cs, " | "))
		}
		sort.Strings(rk)
		if strings.Join(rk, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: rkql reads %d rows, the model holds %d:\n%s", name, len(rk), len(want), diffLines(rk, want))
		} else {
			t.Logf("%s: rkql reads the same %d rows", name, len(rk))
		}
		compareTwinCells(t, ctx, st, name, twins[ti], models[ti], id)
	}
}

// compareTwinCells checks that each twin row rkql wrote whole has the
// cells of the row Phoenix wrote with the same values, where neither was
// written again since.
func compareTwinCells(t *testing.T, ctx context.Context, st exec.Store, name string, twins [][]string, model map[string][]string, id func([]string) string) {
	t.Helper()
	cells := map[string]string{} // key → its cells, as text
	it, err := st.Scan(ctx, name, exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for {
		sr, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var cs []string
		for _, c := range sr.Cells {
			cs = append(cs, c.Family+":"+catalog.ToStringBinary([]byte(c.Qualifier))+" = "+catalog.ToStringBinary(c.Value))
		}
		sort.Strings(cs)
		cells[string(sr.Key)] = strings.Join(cs, ", ")
	}
	// A row's key: K, its separator, N descending; a salted table's
	// starts with one more byte.
	find := func(row []string) (string, bool) {
		n := uint32(int32(caInt(row[1]))) ^ 1<<31 ^ 0xFFFFFFFF
		want := row[0] + "\x00" + string([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
		for key, c := range cells {
			if key == want || len(key) > 0 && key[1:] == want {
				return c, true
			}
		}
		return "", false
	}
	compared := 0
	for i, tw := range twins {
		twin := slices.Clone(tw)
		twin[0] = fmt.Sprintf("twin%d", i)
		if !slices.Equal(model[id(tw)], tw) || !slices.Equal(model[id(twin)], twin) {
			continue // written again since
		}
		p, ok1 := find(tw)
		q, ok2 := find(twin)
		if !ok1 || !ok2 {
			t.Errorf("%s: no stored row for %s or %s", name, tw[0], twin[0])
			continue
		}
		if p != q {
			t.Errorf("%s: Phoenix's cells of %v:\n  %v\nrkql's of the same values:\n  %v", name, tw, p, q)
		}
		compared++
	}
	t.Logf("%s: %d whole rows rkql wrote have Phoenix's cells byte for byte", name, compared)
}

func caInt(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}
