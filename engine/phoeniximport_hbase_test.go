package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/internal/phoenixtest"
)

// pxCanon writes a value of a Phoenix row (as phoenixSQL decodes it) or
// of an rkql row in one form for comparing: numbers as the float they
// are, times as milliseconds, NULL as NULL. kind is n (number), t (time),
// b (boolean) or s (text).
func pxCanon(kind string, v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case catalog.Value:
		switch {
		case x.Null:
			return "NULL"
		case x.Type == catalog.TypeTimestamp:
			return strconv.FormatInt(x.I, 10)
		case x.Type == catalog.TypeString && kind != "n":
			return x.S
		case x.Type == catalog.TypeString:
			return pxCanon(kind, json.Number(x.S))
		case x.Type == catalog.TypeDouble:
			return strconv.FormatFloat(x.F, 'g', -1, 64)
		case x.Type == catalog.TypeInt || x.Type == catalog.TypeBigint:
			return strconv.FormatFloat(float64(x.I), 'g', -1, 64)
		}
		if kind == "b" {
			return strings.ToLower(x.String())
		}
		return x.String()
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return "bad number " + string(x)
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	case string:
		if kind == "t" {
			ts, err := time.Parse(time.RFC3339Nano, x)
			if err != nil {
				return "bad time " + x
			}
			return strconv.FormatInt(ts.UnixMilli(), 10)
		}
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// TestPhoenixImportReads: Phoenix creates a salted table with a
// descending TIMESTAMP and a nullable trailing VARCHAR key, encoded
// qualifiers and two families, a covered global index of it, and an
// unsalted table with plain qualifiers and a descending BIGINT key, and a
// table stored as SINGLE_CELL_ARRAY_WITH_OFFSETS in two families, and
// UPSERTs random rows. CREATE TABLE … FROM PHOENIX imports all four from
// SYSTEM.CATALOG, and rkql's SELECTs return Phoenix's rows; a point
// lookup in the salted table finds the row at Phoenix's own key, salt
// byte included.
func TestPhoenixImportReads(t *testing.T) {
	zk := phoenixtest.Require(t)
	const (
		salted = "PHX_IMPORT.SALTED"
		index  = "PHX_IMPORT.SALTED_BY_CPU"
		plain  = "PHX_IMPORT.PLAIN"
		cells  = "PHX_IMPORT.CELLS"
	)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 11))
	maybe := func(s string) string {
		if r.IntN(4) == 0 {
			return "NULL"
		}
		return s
	}
	stmts := []string{
		"DROP TABLE IF EXISTS " + salted + " CASCADE", "DROP TABLE IF EXISTS " + plain, "DROP TABLE IF EXISTS " + cells,
		"CREATE TABLE " + salted + " (HOST VARCHAR NOT NULL, TS TIMESTAMP NOT NULL, DOMAIN VARCHAR, CPU DOUBLE, N INTEGER, CODE CHAR(3), B.BYTES_IN UNSIGNED_LONG, " +
			"CONSTRAINT PK PRIMARY KEY (HOST, TS DESC, DOMAIN)) SALT_BUCKETS = 4, UPDATE_CACHE_FREQUENCY = 60000",
		"CREATE INDEX SALTED_BY_CPU ON " + salted + " (CPU) INCLUDE (CODE)",
		"CREATE TABLE " + plain + " (ID BIGINT NOT NULL, K2 INTEGER NOT NULL, V VARCHAR, D DECIMAL(10, 2), F BOOLEAN, " +
			"CONSTRAINT PK PRIMARY KEY (ID DESC, K2)) COLUMN_ENCODED_BYTES = 0, UPDATE_CACHE_FREQUENCY = 60000",
		"CREATE IMMUTABLE TABLE " + cells + " (K VARCHAR NOT NULL PRIMARY KEY, A INTEGER, B VARCHAR, C DOUBLE, X.D BIGINT, X.E VARCHAR) " +
			"IMMUTABLE_STORAGE_SCHEME = SINGLE_CELL_ARRAY_WITH_OFFSETS, UPDATE_CACHE_FREQUENCY = 60000",
	}
	var withDomain []string
	for i := 0; i < 60; i++ {
		host := fmt.Sprintf("h%d", r.IntN(8))
		ts := fmt.Sprintf("2024-05-%02d %02d:%02d:%02d.%03d", 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(1000))
		domain := "NULL"
		if r.IntN(3) > 0 {
			domain = fmt.Sprintf("'d%d.com'", r.IntN(5))
			withDomain = append(withDomain, host+" "+domain)
		}
		stmts = append(stmts, fmt.Sprintf("UPSERT INTO %s (HOST, TS, DOMAIN, CPU, N, CODE, BYTES_IN) VALUES ('%s', TO_TIMESTAMP('%s'), %s, %s, %s, %s, %s)",
			salted, host, ts, domain, maybe(fmt.Sprint(float64(r.IntN(2001)-1000)/8)), maybe(fmt.Sprint(r.IntN(2001)-1000)),
			maybe(fmt.Sprintf("'c%02d'", r.IntN(100))), maybe(fmt.Sprint(r.Int64N(1<<62)))))
		stmts = append(stmts, fmt.Sprintf("UPSERT INTO %s (ID, K2, V, D, F) VALUES (%d, %d, %s, %s, %s)",
			plain, r.Int64N(1<<40)-1<<39, r.IntN(100)-50, maybe(fmt.Sprintf("'v%d'", r.IntN(100))),
			maybe(fmt.Sprintf("%d.%02d", r.IntN(20000)-10000, r.IntN(100))), maybe([]string{"TRUE", "FALSE"}[r.IntN(2)])))
		stmts = append(stmts, fmt.Sprintf("UPSERT INTO %s (K, A, B, C, D, E) VALUES ('k%d', %s, %s, %s, %s, %s)",
			cells, i, maybe(fmt.Sprint(r.IntN(2001)-1000)), maybe(fmt.Sprintf("'b%d'", r.IntN(100))),
			maybe(fmt.Sprint(float64(r.IntN(2001)-1000)/4)), maybe(fmt.Sprint(r.Int64N(1<<50)-1<<49)), maybe(fmt.Sprintf("'e%d'", r.IntN(100)))))
	}
	stmts = append(stmts,
		"SELECT HOST, TS, DOMAIN, CPU, N, CODE, BYTES_IN FROM "+salted,
		"SELECT ID, K2, V, D, F FROM "+plain,
		"SELECT /*+ INDEX("+salted+" SALTED_BY_CPU) */ CPU, HOST, TS, DOMAIN, CODE FROM "+salted,
		"SELECT K, A, B, C, D, E FROM "+cells)
	res := phoenixtest.RunBatch(t, 100, stmts...)
	got := func(i int) [][]any { return res[len(res)-4+i].Rows }

	ctx := context.Background()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: zk}, hbasestore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "catalog.yaml")
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
	for _, q := range []string{
		"CREATE TABLE FROM PHOENIX '" + salted + "';",
		"CREATE TABLE plain FROM PHOENIX '" + strings.ToLower(plain) + "';",
		"CREATE TABLE by_cpu FROM PHOENIX '" + index + "';",
		"CREATE TABLE FROM PHOENIX '" + cells + "';",
	} {
		out := runText(t, e, q)
		if !strings.Contains(out, "# saved to") {
			t.Fatalf("%s\n%s", q, out)
		}
		t.Logf("%s\n%s", q, out)
	}
	compare := func(name, rkql string, kinds string, want [][]any) {
		t.Helper()
		var ph, rk []string
		for _, row := range want {
			var vs []string
			for i, v := range row {
				vs = append(vs, pxCanon(kinds[i:i+1], v))
			}
			ph = append(ph, strings.Join(vs, " | "))
		}
		rows, _, err := e.Exec(ctx, rkql)
		if err != nil {
			t.Fatalf("%s: %v", rkql, err)
		}
		for _, row := range rows {
			var vs []string
			for i, v := range row {
				vs = append(vs, pxCanon(kinds[i:i+1], v))
			}
			rk = append(rk, strings.Join(vs, " | "))
		}
		sort.Strings(ph)
		sort.Strings(rk)
		if strings.Join(ph, "\n") != strings.Join(rk, "\n") || len(ph) == 0 {
			t.Errorf("%s: rkql reads %d rows, Phoenix %d:\n%s", name, len(rk), len(ph), diffLines(rk, ph))
		} else {
			t.Logf("%s: rkql reads Phoenix's %d rows", name, len(ph))
		}
	}
	compare(salted, "SELECT host, ts, domain, cpu, n, code, bytes_in FROM salted ALLOW FULL SCAN", "stsnnsn", got(0))
	compare(plain, "SELECT id, k2, v, d, f FROM plain ALLOW FULL SCAN", "nnsnb", got(1))
	compare(index, "SELECT cpu, host, ts, domain, code FROM by_cpu ALLOW FULL SCAN", "nstss", got(2))
	compare(cells, "SELECT k, a, b, c, d, e FROM cells ALLOW FULL SCAN", "snsnns", got(3))

	// A point lookup: rkql's key, salt byte included, is Phoenix's.
	keys := map[string]bool{}
	it, err := st.Scan(ctx, salted, exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for {
		row, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		keys[catalog.ToStringBinary(row.Key)] = true
	}
	it.Close()
	rows, _, err := e.Exec(ctx, "SELECT host, ts, domain FROM salted WHERE domain IS NOT NULL LIMIT 10 ALLOW FULL SCAN")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, row := range rows {
		if row[2].Null {
			continue
		}
		q := fmt.Sprintf("SELECT n FROM salted WHERE host = '%s' AND ts = %d AND domain = '%s'", row[0].S, row[1].I, row[2].S)
		plan := runText(t, e, "EXPLAIN "+q+";")
		bytesLine := ""
		for _, l := range strings.Split(plan, "\n") {
			if f := strings.Fields(l); len(f) == 2 && f[0] == "BYTES" {
				bytesLine = f[1]
			}
		}
		if !strings.Contains(plan, "POINT LOOKUP") || !keys[bytesLine] {
			t.Errorf("%s plans a lookup of %q, which is not a key Phoenix wrote:\n%s", q, bytesLine, plan)
		}
		checked++
	}
	if checked == 0 && len(withDomain) > 0 {
		t.Errorf("rkql reads no row with a domain; Phoenix wrote %d", len(withDomain))
	}
	t.Logf("%d point lookups at Phoenix's keys", checked)
	plan := runText(t, e, "EXPLAIN SELECT * FROM salted WHERE host = 'h2';")
	if !strings.Contains(plan, "PARALLEL 4-WAY") || !strings.Contains(plan, "all 4 salt buckets") {
		t.Errorf("EXPLAIN over the salted table:\n%s", plan)
	}
	for q, want := range map[string]string{
		"INSERT INTO salted (host, ts, domain, n) VALUES ('x', 1, 'y', 1);":     "global index " + index,
		"INSERT INTO by_cpu (cpu, host, ts, domain) VALUES ('1', 'x', 1, 'y');": "Phoenix's index " + index + " of " + salted,
	} {
		if out := runText(t, e, q); !strings.Contains(out, want) {
			t.Errorf("%s: %s, want %q", q, out, want)
		}
	}
}
