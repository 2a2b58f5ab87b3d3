package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

// importCatalog has t (no indexes: the sorted path) and u, whose index on
// e leaves out u's key, so that two rows may not share an e.
func importCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Parse([]byte(`
tables:
  - name: t
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: v, type: STRING, column: "d:v"}
    rowkey:
      - {field: k}
  - name: u
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: e, type: STRING, column: "d:e"}
    rowkey:
      - {field: k}
    indexes:
      - name: u_by_e
        rowkey:
          - {field: e}
        carries: [k]
`))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hookStore is an embedded store whose Mutate calls go through hook, told
// the physical table and which call to it this is, from 1.
type hookStore struct {
	exec.Store
	hook func(ctx context.Context, table string, call int) error
	mu   sync.Mutex
	n    map[string]int
}

func (h *hookStore) Mutate(ctx context.Context, table string, muts []exec.Mutation) error {
	h.mu.Lock()
	h.n[table]++
	call := h.n[table]
	h.mu.Unlock()
	if err := h.hook(ctx, table, call); err != nil {
		return err
	}
	return h.Store.Mutate(ctx, table, muts)
}

func mustParse(t *testing.T, q string) parser.Stmt {
	t.Helper()
	sts, err := parser.Parse(q)
	if err != nil || len(sts) != 1 {
		t.Fatalf("parse %q: %v", q, err)
	}
	return sts[0]
}

// importEngine is an engine over an empty embedded store and
// importCatalog, whose writes go through hook when it is set.
func importEngine(t *testing.T, hook func(ctx context.Context, table string, call int) error) *Engine {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var store exec.Store = st
	if hook != nil {
		store = &hookStore{Store: st, hook: hook, n: map[string]int{}}
	}
	return New(Config{Catalog: importCatalog(t), CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return store, nil }})
}

// selectTexts runs q and returns its rows, each as its values' String()
// joined by " | ", so that NULL, ” and 'x' differ.
func selectTexts(t *testing.T, e *Engine, q string) []string {
	t.Helper()
	ctx := context.Background()
	res, err := e.Run(ctx, mustParse(t, q))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var out []string
	for {
		r, err := res.Rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		vs := make([]string, len(r))
		for i, v := range r {
			vs[i] = v.String()
		}
		out = append(out, strings.Join(vs, " | "))
	}
}

func jsonLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "{\"k\":\"k%06d\",\"v\":\"x\"}\n", i)
	}
	return b.String()
}

func checkImportErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("import succeeded, want an error matching %q", want)
	}
	if !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Fatalf("error %q does not match %q", err, want)
	}
}

// A JSON array file holds exactly one array, closed, and then only white
// space.
func TestImportJSONArrayStrict(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"missing ]", "[\n{\"k\":\"a\"},\n{\"k\":\"b\"}\n", `^in\.json:3: the JSON array is not closed: the input ends before its \] \(0 rows written\)$`},
		{"trailing garbage", "[{\"k\":\"a\"}]\nxyz\n", `^in\.json:2: after the JSON array's closing \]: invalid character 'x'.* \(0 rows written\)$`},
		{"second array", "[{\"k\":\"a\"}]\n[{\"k\":\"b\"}]\n", `^in\.json:2: more input after the JSON array's closing \] \(\[\): a file holds one array \(0 rows written\)$`},
		{"trailing comma", "[{\"k\":\"a\"},]", `^in\.json:1: not a JSON object: .*\(0 rows written\)$`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := importEngine(t, nil)
			_, err := s.Import(context.Background(), strings.NewReader(tc.in), ImportOptions{Table: "t", Name: "in.json"})
			checkImportErr(t, err, tc.want)
		})
	}
	s := importEngine(t, nil)
	n, err := s.Import(context.Background(), strings.NewReader("[{\"k\":\"a\"},\n{\"k\":\"b\"}]\n \n"), ImportOptions{Table: "t", Name: "in.json"})
	if err != nil || n != 2 {
		t.Fatalf("a well-formed array: %d rows, %v", n, err)
	}
}

// A column named twice in a CSV header is an error naming both fields.
func TestImportCSVDuplicateHeader(t *testing.T) {
	s := importEngine(t, nil)
	_, err := s.Import(context.Background(), strings.NewReader("k,v, k\na,b,c\n"), ImportOptions{Table: "t", Name: "in.csv"})
	checkImportErr(t, err, `^in\.csv:1: header: column "k" is both field 1 and field 3 \(0 rows written\)$`)
}

// When a write fails part way through a sorted import, the rows counted
// are the ones the store committed.
func TestImportCountsCommittedRows(t *testing.T) {
	full := errors.New("no space left on device")
	s := importEngine(t, func(_ context.Context, _ string, call int) error {
		if call == 3 {
			return full
		}
		return nil
	})
	n, err := s.Import(context.Background(), strings.NewReader(jsonLines(25_000)), ImportOptions{Table: "t", Name: "in.jsonl"})
	checkImportErr(t, err, `^in\.jsonl: no space left on device \(20000 rows written, and up to 5000 more of the write that failed may have been\)$`)
	if n != 20_000 {
		t.Fatalf("Import returned %d rows, want 20000", n)
	}
	if got := len(selectTexts(t, s, "SELECT k FROM t ALLOW FULL SCAN")); got != 20_000 {
		t.Fatalf("the store holds %d rows, want 20000", got)
	}
}

// A unique-index conflict names the input line of the row.
func TestImportConflictNamesLine(t *testing.T) {
	s := importEngine(t, nil)
	in := "{\"k\":\"a\",\"e\":\"x\"}\n{\"k\":\"b\",\"e\":\"y\"}\n\n{\"k\":\"c\",\"e\":\"x\"}\n"
	_, err := s.Import(context.Background(), strings.NewReader(in), ImportOptions{Table: "u", Name: "in.jsonl"})
	checkImportErr(t, err, `^in\.jsonl:4: index u_by_e: another row of u already has e = 'x'.* \(0 rows written\)$`)
	// Against a row already stored.
	if _, err := s.Import(context.Background(), strings.NewReader(in[:len(in)-20]), ImportOptions{Table: "u", Name: "in.jsonl"}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Import(context.Background(), strings.NewReader("{\"k\":\"d\",\"e\":\"z\"}\n{\"k\":\"e\",\"e\":\"y\"}\n"), ImportOptions{Table: "u", Name: "more.jsonl"})
	checkImportErr(t, err, `^more\.jsonl:2: index u_by_e: another row of u already has e = 'y'.* \(0 rows written\)$`)
}

// A store that stops answering ends the import at the write timeout, with
// the limit named and the rows committed counted.
func TestImportWriteTimeout(t *testing.T) {
	for _, table := range []string{"t", "u"} {
		t.Run(table, func(t *testing.T) {
			s := importEngine(t, func(ctx context.Context, phys string, call int) error {
				if phys == table && call >= 2 {
					<-ctx.Done()
					return ctx.Err()
				}
				return nil
			})
			in := jsonLines(15_000)
			if table == "u" {
				in = regexp.MustCompile(`"k(\d+)","v":"x"`).ReplaceAllString(in, `"k$1","e":"e$1"`)
			}
			start := time.Now()
			// The sorted path writes 10000 rows at a time; the other
			// writes a batch.
			want := `\(10000 rows written, and up to 5000 more of the write that failed may have been\)$`
			if table == "u" {
				want = `\(5000 rows written, and up to 5000 more of the write that failed may have been\)$`
			}
			_, err := s.Import(context.Background(), strings.NewReader(in), ImportOptions{Table: table, Name: "in.jsonl", WriteTimeout: time.Second, Batch: 5000})
			checkImportErr(t, err, `^in\.jsonl: a write to the store took longer than 1s \(the --timeout limit on each batch write; 0 turns it off\): .*`+want)
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("the import took %s", d)
			}
		})
	}
}

// An OpenTSDB row's base is the hour of its time: an import that gives the
// time may leave the base out, as INSERT may, and each point lands in the
// row of its own hour.
func TestImportOpenTSDBBaseFromTime(t *testing.T) {
	cat, err := catalog.Parse(examples.OpenTSDBPairsYAML)
	if err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := New(Config{Catalog: cat, CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return st, nil }})
	in := "metric,tagk,tagv,ts,value\n1,2,3,2024-05-01 10:00:07,1.5\n1,2,3,2024-05-01 11:59:59,2.5\n"
	if _, err := s.Import(context.Background(), strings.NewReader(in), ImportOptions{Table: "tsdb", Name: "in.csv"}); err != nil {
		t.Fatal(err)
	}
	got := selectTexts(t, s, "SELECT base, offset, value FROM tsdb WHERE metric = 1 AND tagk = 2 AND tagv = 3")
	want := []string{`'2024-05-01 10:00:00.000' | 7 | 1.5`, `'2024-05-01 11:00:00.000' | 3599 | 2.5`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}

	// Without the time, the base is still a key column the header needs.
	_, err = s.Import(context.Background(), strings.NewReader("metric,tagk,tagv,value\n1,2,3,1\n"), ImportOptions{Table: "tsdb", Name: "in.csv"})
	checkImportErr(t, err, `key column base is missing`)
}

// ImportRows loads rows already made as Import loads the rows it reads:
// a bad row stops it at its place in the sequence, from 1, with nothing
// written on the sorted path, and the sequence is stopped, not left
// waiting; good rows are all written, on both paths.
func TestImportRows(t *testing.T) {
	for _, table := range []string{"t", "u"} {
		t.Run(table, func(t *testing.T) {
			e := importEngine(t, nil)
			tb, _ := e.Catalog().Table(table)
			row := func(k string) catalog.Row {
				r := tb.NewRow()
				r[0], r[1] = catalog.String(k), catalog.String("x"+k)
				return r
			}
			stopped := make(chan struct{})
			bad := func(yield func(catalog.Row) bool) {
				defer close(stopped)
				for i := range 10 {
					r := row(fmt.Sprint(i))
					if i == 2 {
						r[0] = catalog.Null(catalog.TypeString)
					}
					if !yield(r) {
						return
					}
				}
			}
			_, err := e.ImportRows(context.Background(), bad, ImportOptions{Table: table, Name: "gen", Batch: 2})
			want := `^gen:3: key field k: a key field cannot be NULL \(0 rows written\)$`
			if table == "u" {
				want = `^gen:3: key field k: a key field cannot be NULL \(2 rows written\)$`
			}
			checkImportErr(t, err, want)
			<-stopped
			var rows []catalog.Row
			for i := range 7 {
				rows = append(rows, row(fmt.Sprint(i)))
			}
			var progress []int64
			n, err := e.ImportRows(context.Background(), slices.Values(rows), ImportOptions{Table: table, Name: "gen", Batch: 3,
				Progress: func(n int64) { progress = append(progress, n) }})
			if err != nil || n != 7 {
				t.Fatalf("ImportRows: %d rows, %v", n, err)
			}
			if len(progress) == 0 || progress[len(progress)-1] != 7 {
				t.Errorf("progress %v, want it to end at 7", progress)
			}
			if got := len(selectTexts(t, e, "SELECT k FROM "+table+" ALLOW FULL SCAN")); got != 7 {
				t.Errorf("the table holds %d rows, want 7", got)
			}
		})
	}
}
