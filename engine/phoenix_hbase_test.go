package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
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

// pxTable is a Phoenix table the write test creates through Phoenix and
// describes to rkql by hand.
type pxTable struct {
	name, ddl, yaml string
	// nullKey: the key is (N, K) with K nullable, the last field.
	nullKey bool
}

func pxTables() []pxTable {
	const cols = "K VARCHAR NOT NULL, N INTEGER NOT NULL, D DOUBLE, S VARCHAR, B BIGINT, CONSTRAINT PK PRIMARY KEY (K, N DESC)"
	const keyKN = "      - {field: k, encoding: phoenix}\n      - {field: n, encoding: phoenix, order: desc}\n"
	yaml := func(name, phys string, salt int, d, s, b, empty string, key ...string) string {
		keys := keyKN
		if len(key) > 0 {
			keys = key[0]
		}
		salted := ""
		if salt > 0 {
			salted = fmt.Sprintf("      - {salt: %d}\n", salt)
		}
		return fmt.Sprintf(`  - name: %s
    hbase: %s
    families: [{name: "0"}]
    columns:
      - {name: k, type: STRING}
      - {name: n, type: INT}
      - {name: d, type: DOUBLE, column: "0:%s", encoding: phoenix}
      - {name: s, type: STRING, column: "0:%s", encoding: phoenix}
      - {name: b, type: BIGINT, column: "0:%s", encoding: phoenix}
    rowkey:
%s%s    phoenix: {table: %s, empty_column: "0:%s"}
`, name, phys, d, s, b, salted, keys, phys, empty)
	}
	return []pxTable{
		{"PHX_WRITE.PLAIN", "CREATE TABLE PHX_WRITE.PLAIN (" + cols + ") COLUMN_ENCODED_BYTES=0, SALT_BUCKETS=4",
			yaml("px_plain", "PHX_WRITE.PLAIN", 4, "D", "S", "B", "_0"), false},
		{"PHX_WRITE.ENC", "CREATE TABLE PHX_WRITE.ENC (" + cols + ")",
			yaml("px_enc", "PHX_WRITE.ENC", 0, `\x80\x0B`, `\x80\x0C`, `\x80\x0D`, `\x00\x00\x00\x00`), false},
		{"PHX_WRITE.ENC_SALTED", "CREATE TABLE PHX_WRITE.ENC_SALTED (" + cols + ") SALT_BUCKETS=3",
			yaml("px_enc_salted", "PHX_WRITE.ENC_SALTED", 3, `\x80\x0B`, `\x80\x0C`, `\x80\x0D`, `\x00\x00\x00\x00`), false},
		{"PHX_WRITE.NULL_KEY", "CREATE TABLE PHX_WRITE.NULL_KEY (N INTEGER NOT NULL, K VARCHAR, D DOUBLE, S VARCHAR, B BIGINT, CONSTRAINT PK PRIMARY KEY (N, K)) SALT_BUCKETS=2",
			yaml("px_null_key", "PHX_WRITE.NULL_KEY", 2, `\x80\x0B`, `\x80\x0C`, `\x80\x0D`, `\x00\x00\x00\x00`,
				"      - {field: n, encoding: phoenix}\n      - {field: k, encoding: phoenix}\n"), true},
	}
}

// pxRow is a row of the model: its key and its three columns, "" for NULL.
type pxRow struct {
	k       string
	n       int
	d, s, b string
}

func (r pxRow) String() string {
	or := func(v string) string {
		if v == "" {
			return "NULL"
		}
		return v
	}
	return fmt.Sprintf("%s %d %s %s %s", or(r.k), r.n, or(r.d), or(r.s), or(r.b))
}

// TestPhoenixReadsRkqlWrites: Phoenix creates tables (plain and encoded
// qualifiers, salted and not, a descending key field, a nullable
// trailing VARCHAR key field with an ascending INTEGER before it); rkql INSERTs,
// UPDATEs (some columns to NULL) and DELETEs random rows; then Phoenix's
// SELECT through JDBC returns exactly the rows of the model, as does
// rkql's.
func TestPhoenixReadsRkqlWrites(t *testing.T) {
	zk := phoenixtest.Require(t)
	tables := pxTables()
	var setup []string
	for _, tb := range tables {
		setup = append(setup, "DROP TABLE IF EXISTS "+tb.name, tb.ddl)
	}
	phoenixtest.Exec(t, setup...)

	src := "tables:\n"
	for _, tb := range tables {
		src += tb.yaml
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

	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	val := func(gen func() string) string {
		if r.IntN(4) == 0 {
			return ""
		}
		return gen()
	}
	genD := func() string { return fmt.Sprint(float64(r.IntN(20001)-10000) / 8) }
	genS := func() string { return fmt.Sprintf("s%d", r.IntN(1000)) }
	genB := func() string { return fmt.Sprint(r.Int64N(1<<62) - 1<<61) }
	lit := func(v string, quote bool) string {
		switch {
		case v == "":
			return "NULL"
		case quote:
			return "'" + v + "'"
		}
		return v
	}
	var queries []string
	models := make([]map[string]pxRow, len(tables))
	for ti, tb := range tables {
		name := cat.Tables[ti].Name
		model := map[string]pxRow{}
		var live []string
		deleted := map[string]bool{}
		id := func(k string, n int) string { return fmt.Sprintf("%s/%d", k, n) }
		var script strings.Builder
		inserts, updates, deletes := 0, 0, 0
		for len(model) < 150 {
			row := pxRow{k: fmt.Sprintf("k%d", r.IntN(40)), n: r.IntN(101) - 50, d: val(genD), s: val(genS), b: val(genB)}
			if tb.nullKey && r.IntN(4) == 0 {
				row.k = ""
			}
			if deleted[id(row.k, row.n)] {
				continue
			}
			if _, ok := model[id(row.k, row.n)]; !ok {
				live = append(live, id(row.k, row.n))
			}
			model[id(row.k, row.n)] = row
			inserts++
			fmt.Fprintf(&script, "INSERT INTO %s (k, n, d, s, b) VALUES (%s, %d, %s, %s, %s);\n",
				name, lit(row.k, true), row.n, lit(row.d, false), lit(row.s, true), lit(row.b, false))
		}
		// Each row is updated or deleted at most once, so that no two
		// writes of a cell share a millisecond with a delete of it.
		r.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
		for i, key := range live[:100] {
			row := model[key]
			if i < 30 {
				delete(model, key)
				deletes++
				fmt.Fprintf(&script, "DELETE FROM %s WHERE %s AND n = %d;\n", name, keyIs(row.k), row.n)
				continue
			}
			var sets []string
			if r.IntN(2) == 0 {
				row.d = val(genD)
				sets = append(sets, "d = "+lit(row.d, false))
			}
			if r.IntN(2) == 0 {
				row.s = val(genS)
				sets = append(sets, "s = "+lit(row.s, true))
			}
			if len(sets) == 0 || r.IntN(2) == 0 {
				row.b = val(genB)
				sets = append(sets, "b = "+lit(row.b, false))
			}
			model[key] = row
			updates++
			fmt.Fprintf(&script, "UPDATE %s SET %s WHERE %s AND n = %d;\n", name, strings.Join(sets, ", "), keyIs(row.k), row.n)
		}
		if out := runText(t, e, script.String()); strings.Contains(out, "error") {
			t.Fatalf("%s: %s", name, out)
		}
		nullKeys := 0
		for _, row := range model {
			if row.k == "" {
				nullKeys++
			}
		}
		if tb.nullKey && nullKeys == 0 {
			t.Fatalf("%s: no row with a NULL key", tb.name)
		}
		t.Logf("%s: rkql wrote %d INSERTs, %d UPDATEs, %d DELETEs; %d rows left", tb.name, inserts, updates, deletes, len(model))
		if tb.nullKey {
			t.Logf("%s: %d of the rows have a NULL key field", tb.name, nullKeys)
		}
		models[ti] = model
		queries = append(queries, "SELECT K, N, D, S, B FROM "+tb.name)
	}

	got := phoenixtest.Run(t, queries...)
	for ti, tb := range tables {
		var want []string
		for _, row := range models[ti] {
			want = append(want, row.String())
		}
		sort.Strings(want)
		var ph []string
		for _, vs := range got[ti].Rows {
			if len(vs) != 5 {
				t.Fatalf("%s: Phoenix row %v", tb.name, vs)
			}
			var row pxRow
			row.k, _ = vs[0].(string)
			n, _ := vs[1].(json.Number).Int64()
			row.n = int(n)
			if d, ok := vs[2].(json.Number); ok {
				f, _ := d.Float64()
				row.d = fmt.Sprint(f)
			}
			row.s, _ = vs[3].(string)
			if b, ok := vs[4].(json.Number); ok {
				row.b = b.String()
			}
			ph = append(ph, row.String())
		}
		sort.Strings(ph)
		if strings.Join(ph, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: Phoenix reads %d rows, the model holds %d:\n%s", tb.name, len(ph), len(want), diffLines(ph, want))
		} else {
			t.Logf("%s: Phoenix reads the %d rows rkql left, equal", tb.name, len(ph))
		}
		// rkql reads the same.
		rows, _, err := e.Exec(ctx, "SELECT k, n, d, s, b FROM "+cat.Tables[ti].Name+" ALLOW FULL SCAN")
		if err != nil {
			t.Fatal(err)
		}
		var rk []string
		for _, row := range rows {
			var vs []string
			for _, v := range row {
				if !v.Null && v.Type == catalog.TypeString {
					vs = append(vs, v.S)
				} else {
					vs = append(vs, v.String())
				}
			}
			rk = append(rk, strings.Join(vs, " "))
		}
		sort.Strings(rk)
		if strings.Join(rk, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: rkql reads %d rows, the model holds %d:\n%s", tb.name, len(rk), len(want), diffLines(rk, want))
		}
	}
}

// keyIs is the condition that k is v ("": NULL).
func keyIs(v string) string {
	if v == "" {
		return "k IS NULL"
	}
	return "k = '" + v + "'"
}

// diffLines lists the lines only one of got and want holds.
func diffLines(got, want []string) string {
	in := func(s []string) map[string]bool {
		m := map[string]bool{}
		for _, x := range s {
			m[x] = true
		}
		return m
	}
	g, w := in(got), in(want)
	var b strings.Builder
	for _, x := range got {
		if !w[x] {
			fmt.Fprintf(&b, "  only read:     %s\n", x)
		}
	}
	for _, x := range want {
		if !g[x] {
			fmt.Fprintf(&b, "  only in model: %s\n", x)
		}
	}
	return b.String()
}
