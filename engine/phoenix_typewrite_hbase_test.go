package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/internal/phoenixtest"
)

// TestPhoenixReadsRkqlWritesOfEveryType: the four tables of the read test
// (fourteen Phoenix types; plain and encoded qualifiers, salted and not,
// ascending and descending key columns of seven types, nullable trailing
// VARCHAR keys, ascending and descending), and a salted one stored as
// SINGLE_CELL_ARRAY_WITH_OFFSETS, are created by Phoenix, which
// UPSERTs some rows; rkql, through the same hand-written catalog entries,
// INSERTs whole rows, UPSERTs some columns (NULLs among them), UPDATEs and
// DELETEs, Phoenix's rows and its own; Phoenix's SELECT then returns
// exactly the rows of the model, as does rkql's.
func TestPhoenixReadsRkqlWritesOfEveryType(t *testing.T) {
	zk := phoenixtest.Require(t)
	seed := rand.Uint64()
	if s, err := strconv.ParseUint(os.Getenv("RKQL_DIFF_SEED"), 10, 64); err == nil && s > 0 {
		seed = s
	}
	t.Logf("seed %d (RKQL_DIFF_SEED reruns it)", seed)
	g := prGen{rand.New(rand.NewPCG(seed, 29))}
	r := g.r
	var tables []prTable
	for _, tb := range prTables() {
		tb.name = strings.Replace(tb.name, "PHX_READ.", "PHX_TWRITE.", 1)
		tb.rk += "_w"
		tables = append(tables, tb)
	}
	// And one stored as SINGLE_CELL_ARRAY_WITH_OFFSETS, salted.
	cells := prTable{name: "PHX_TWRITE.CELLS", rk: "pr_cells_w", encoded: true, salt: 3,
		key: []prCol{{name: "KT", kind: prTimestamp, desc: true}, {name: "K", kind: prVarchar, null: true}}}
	tables = append(tables, cells)
	ddl := func(tb prTable) string {
		if tb.name != cells.name {
			return tb.ddl()
		}
		return strings.Replace(tb.ddl(), "CREATE TABLE", "CREATE IMMUTABLE TABLE", 1) + ", IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS"
	}
	yaml := func(tb prTable) string {
		if tb.name != cells.name {
			return tb.yaml()
		}
		return strings.Replace(tb.yaml(), `empty_column: "0:\x00\x00\x00\x00"}`, `empty_column: "0:\x00\x00\x00\x00", storage: single_cell_array_with_offsets}`, 1)
	}
	keyOf := func(tb prTable, row []prValue) string {
		var key []string
		for i := range tb.key {
			key = append(key, row[i].canon)
		}
		return strings.Join(key, "\x00")
	}
	// value is g.value, with a DECIMAL in rkql's SQL in its own form
	// (1.5, not 1.500), as rkql writes only that.
	value := func(k prKind) prValue {
		v := g.value(k)
		if k == prDecimal && strings.Contains(v.px, ".") {
			d := strings.TrimRight(strings.TrimRight(v.px, "0"), ".")
			if d == "-0" {
				d = "0"
			}
			v.rk = "'" + d + "'"
		}
		return v
	}
	newRow := func(tb prTable) []prValue {
		cols := tb.cols()
		row := make([]prValue, len(cols))
		for i, c := range cols {
			switch {
			case i >= len(tb.key) && r.IntN(5) == 0, c.null && r.IntN(3) == 0:
				row[i] = prNull
			default:
				row[i] = value(c.kind)
			}
		}
		return row
	}

	// Phoenix creates the tables, then UPSERTs rows (after all the DDL:
	// a CREATE drops a connection's uncommitted UPSERTs).
	var setup, upserts []string
	models := make([]map[string][]prValue, len(tables))
	for ti, tb := range tables {
		setup = append(setup, "DROP TABLE IF EXISTS "+tb.name, ddl(tb))
		models[ti] = map[string][]prValue{}
		var names []string
		for _, c := range tb.cols() {
			names = append(names, c.name)
		}
		for len(models[ti]) < 30 {
			row := newRow(tb)
			if _, dup := models[ti][keyOf(tb, row)]; dup {
				continue
			}
			models[ti][keyOf(tb, row)] = row
			var vals []string
			for _, v := range row {
				vals = append(vals, v.px)
			}
			upserts = append(upserts, fmt.Sprintf("UPSERT INTO %s (%s) VALUES (%s)", tb.name, strings.Join(names, ", "), strings.Join(vals, ", ")))
		}
	}
	phoenixtest.RunBatch(t, 200, append(setup, upserts...)...)

	src := "tables:\n"
	for _, tb := range tables {
		src += yaml(tb)
	}
	cat, err := catalog.Parse([]byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	ctx := context.Background()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: zk}, hbasestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := engine.New(engine.Config{Catalog: cat,
		Open:    func(context.Context) (exec.Store, error) { return st, nil },
		Confirm: func(context.Context, string) (bool, error) { return true, nil },
	})

	var queries []string
	for ti, tb := range tables {
		cols := tb.cols()
		nk := len(tb.key)
		model := models[ti]
		var live []string
		for k := range model {
			live = append(live, k)
		}
		sort.Strings(live)
		deleted := map[string]bool{}
		where := func(row []prValue) string {
			var cs []string
			for i, c := range tb.key {
				if row[i] == prNull {
					cs = append(cs, strings.ToLower(c.name)+" IS NULL")
				} else {
					cs = append(cs, strings.ToLower(c.name)+" = "+row[i].rk)
				}
			}
			return strings.Join(cs, " AND ")
		}
		var script strings.Builder
		var inserts, upsertsN, updates, deletes, nulls int
		for step := 0; step < 120; step++ {
			switch op := r.IntN(10); {
			case op < 4: // a whole new row
				row := newRow(tb)
				k := keyOf(tb, row)
				if deleted[k] || model[k] != nil {
					continue
				}
				model[k] = row
				live = append(live, k)
				var names, vals []string
				for i, c := range cols {
					names = append(names, strings.ToLower(c.name))
					vals = append(vals, row[i].rk)
				}
				fmt.Fprintf(&script, "INSERT INTO %s (%s) VALUES (%s);\n", tb.rk, strings.Join(names, ", "), strings.Join(vals, ", "))
				inserts++
			case op < 8 && len(live) > 0: // some columns of a row, by UPSERT or UPDATE
				k := live[r.IntN(len(live))]
				row := append([]prValue(nil), model[k]...)
				var names, vals, sets []string
				for i := nk; i < len(cols); i++ {
					if r.IntN(4) > 0 {
						continue
					}
					row[i] = value(cols[i].kind)
					if r.IntN(4) == 0 {
						row[i] = prNull
						nulls++
					}
					names = append(names, strings.ToLower(cols[i].name))
					vals = append(vals, row[i].rk)
					sets = append(sets, strings.ToLower(cols[i].name)+" = "+row[i].rk)
				}
				if len(sets) == 0 {
					continue
				}
				model[k] = row
				if op < 6 {
					var keys, kvals []string
					for i, c := range tb.key {
						keys = append(keys, strings.ToLower(c.name))
						kvals = append(kvals, row[i].rk)
					}
					fmt.Fprintf(&script, "UPSERT INTO %s (%s) VALUES (%s);\n", tb.rk,
						strings.Join(append(keys, names...), ", "), strings.Join(append(kvals, vals...), ", "))
					upsertsN++
				} else {
					fmt.Fprintf(&script, "UPDATE %s SET %s WHERE %s;\n", tb.rk, strings.Join(sets, ", "), where(row))
					updates++
				}
			case len(live) > 0: // DELETE; the key is not written again
				i := r.IntN(len(live))
				k := live[i]
				fmt.Fprintf(&script, "DELETE FROM %s WHERE %s;\n", tb.rk, where(model[k]))
				live = append(live[:i], live[i+1:]...)
				delete(model, k)
				deleted[k] = true
				deletes++
			}
		}
		out := runText(t, e, script.String())
		if strings.Contains(out, "error") || strings.Contains(out, "UPDATE 0") || strings.Contains(out, "DELETE 0") {
			t.Fatalf("%s:\n%s\n%s", tb.name, script.String(), out)
		}
		t.Logf("%s: rkql wrote %d INSERTs, %d UPSERTs of some columns, %d UPDATEs (%d NULLs), %d DELETEs; %d rows left",
			tb.name, inserts, upsertsN, updates, nulls, deletes, len(model))
		var names []string
		for _, c := range cols {
			names = append(names, c.name)
		}
		queries = append(queries, "SELECT "+strings.Join(names, ", ")+" FROM "+tb.name)
	}

	got := phoenixtest.Run(t, queries...)
	for ti, tb := range tables {
		cols := tb.cols()
		var want []string
		for _, row := range models[ti] {
			var vs []string
			for _, v := range row {
				vs = append(vs, v.canon)
			}
			want = append(want, strings.Join(vs, " | "))
		}
		sort.Strings(want)
		var px []string
		for _, row := range got[ti].Rows {
			var vs []string
			for i, v := range row {
				vs = append(vs, canonPhoenix(cols[i].kind, v))
			}
			px = append(px, strings.Join(vs, " | "))
		}
		sort.Strings(px)
		if strings.Join(px, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: Phoenix reads %d rows, the model holds %d:\n%s", tb.name, len(px), len(want), diffSides(px, want))
		} else {
			t.Logf("%s: Phoenix reads the %d rows rkql left, equal", tb.name, len(px))
		}
		var names []string
		for _, c := range cols {
			names = append(names, strings.ToLower(c.name))
		}
		rows, _, err := e.Exec(ctx, "SELECT "+strings.Join(names, ", ")+" FROM "+tb.rk+" ALLOW FULL SCAN")
		if err != nil {
			t.Fatal(err)
		}
		var rk []string
		for _, row := range rows {
			var vs []string
			for i, v := range row {
				vs = append(vs, canonRkql(cols[i].kind, v))
			}
			rk = append(rk, strings.Join(vs, " | "))
		}
		sort.Strings(rk)
		if strings.Join(rk, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: rkql reads %d rows, the model holds %d:\n%s", tb.name, len(rk), len(want), diffSides(rk, want))
		}
	}
}
