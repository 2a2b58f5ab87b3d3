package engine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

// fuzzCatalog has a table of every column type without indexes (loaded
// by the sorted path) and one with a unique index (loaded batch by batch
// with its index entries).
var fuzzCatalog = sync.OnceValues(func() (*catalog.Catalog, error) {
	return catalog.Parse([]byte(`
tables:
  - name: t
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: n, type: BIGINT}
      - {name: i, type: INT, column: "d:i"}
      - {name: f, type: DOUBLE, column: "d:f"}
      - {name: b, type: BOOLEAN, column: "d:b"}
      - {name: ts, type: TIMESTAMP, column: "d:ts"}
      - {name: dt, type: DATE, column: "d:dt"}
      - {name: raw, type: BYTES, column: "d:raw"}
    rowkey:
      - {field: k}
      - {literal: "|"}
      - {field: n, encoding: binary}
  - name: u
    families: [{name: d}]
    columns:
      - {name: k, type: STRING}
      - {name: e, type: STRING, column: "d:e"}
      - {name: n, type: BIGINT, column: "d:n"}
    rowkey:
      - {field: k}
    indexes:
      - name: u_by_e
        rowkey:
          - {field: e}
        carries: [k]
        covers: [n]
`))
})

// keyLog is an embedded store that records the keys each successful
// Mutate of one table put.
type keyLog struct {
	exec.Store
	table string
	mu    sync.Mutex
	puts  []string
}

func (k *keyLog) Mutate(ctx context.Context, table string, muts []exec.Mutation) error {
	if err := k.Store.Mutate(ctx, table, muts); err != nil || table != k.table {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, m := range muts {
		if !m.DeleteRow {
			k.puts = append(k.puts, string(m.Key))
		}
	}
	return nil
}

// fuzzImport imports data into a fresh embedded store and checks that
// nothing panics, that a failure is one line, and that the rows it says
// it wrote are the rows the table holds: one per distinct key written
// (a later row of the same key replaces an earlier one).
//
// An indexed table is written batch by batch, and rows of one key within
// a batch reach the store once, as the last of them; the import still
// counts each row. With batches of one row, or without indexes, every row
// counted is a row the store was given.
func fuzzImport(t *testing.T, name string, data []byte, indexed bool, batch uint8) {
	cat, err := fuzzCatalog()
	if err != nil {
		t.Fatal(err)
	}
	st, err := embedded.Open(t.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	table := "t"
	if indexed {
		table = "u"
	}
	tb, _ := cat.Table(table)
	log := &keyLog{Store: st, table: tb.Physical}
	s := New(Config{Catalog: cat, CreateOnDemand: true,
		Open: func(context.Context) (exec.Store, error) { return log, nil }})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := s.Import(ctx, bytes.NewReader(data), ImportOptions{Table: table, Name: name, Batch: 1 + int(batch%4)})
	if err != nil {
		if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("error is not one line: %q", msg)
		}
		if ctx.Err() != nil {
			t.Fatalf("import of %d bytes ran 30s: %v", len(data), err)
		}
	}
	distinct := map[string]bool{}
	for _, k := range log.puts {
		distinct[k] = true
	}
	exact := !indexed || batch%4 == 0
	if n < 0 || exact && n != int64(len(log.puts)) || n < int64(len(log.puts)) {
		t.Fatalf("import says %d rows written (err %v), the store was given %d", n, err, len(log.puts))
	}
	it, err2 := st.Scan(ctx, tb.Physical, exec.Range{}, exec.ReadOptions{})
	if errors.Is(err2, exec.ErrTableNotFound) && n == 0 {
		return
	}
	if err2 != nil {
		t.Fatalf("scan: %v", err2)
	}
	defer it.Close()
	var got int
	for {
		r, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("scan: %v", err)
		}
		if !distinct[string(r.Key)] {
			t.Fatalf("the table holds key %q, which the import did not write", r.Key)
		}
		got++
	}
	if got != len(distinct) {
		t.Fatalf("import wrote %d rows under %d distinct keys (err %v); the table holds %d", n, len(distinct), err, got)
	}
}

func FuzzImportJSON(f *testing.F) {
	for _, s := range []string{
		`{"k": "a", "n": 1, "i": 2, "f": 1.5, "b": true, "ts": "2024-01-02T03:04:05Z", "dt": "2024-01-02", "raw": "eA=="}` + "\n",
		`{"k": "a", "n": 1}` + "\n" + `{"k": "a", "n": 1, "i": 3}` + "\n",
		`[{"k": "x", "n": -9223372036854775808}, {"k": "y", "n": 9223372036854775807, "f": -0.0}]`,
		`[{"k": "x", "n": 1}] [`,
		`{"k": "x", "n": 1e3, "i": 2147483648}`,
		`{"k": "\u0000|", "n": 0, "dt": "0001-01-01", "ts": 0}`,
		`{"k": "a", "e": "p", "n": 1}` + "\n" + `{"k": "b", "e": "p", "n": 2}` + "\n",
		`{"k": "a", "e": "p"}` + "\n" + `{"k": "a", "e": "q"}` + "\n" + `{"k": "c"}` + "\n",
		`{"k": "a", "nope": 1}`,
		"\ufeff{\"k\": \"a\", \"n\": 1}",
	} {
		f.Add([]byte(s), false, uint8(2))
		f.Add([]byte(s), true, uint8(0))
		f.Add([]byte(s), true, uint8(2))
	}
	f.Fuzz(func(t *testing.T, data []byte, indexed bool, batch uint8) {
		fuzzImport(t, "in.jsonl", data, indexed, batch)
	})
}

func FuzzImportCSV(f *testing.F) {
	for _, s := range []string{
		"k,n,i,f,b,ts,dt,raw\na,1,2,1.5,true,2024-01-02 03:04:05,2024-01-02,eA==\n",
		"k,n\na,1\na,1\nb,2\n",
		"n,k\n1,\"multi\nline\"\n2,\"q\"\"uote\"\n",
		"k,n\n\"unterminated,1\n",
		"k,k\na,b\n",
		"k,n,i\na,1\nb,2,3,4\n",
		"k,e,n\na,p,1\nb,p,2\n",
		"k,e\na,p\na,q\nc,\n",
		"\ufeffk,n\na,1\r\nb,2\r\n",
		"",
	} {
		f.Add([]byte(s), false, uint8(2))
		f.Add([]byte(s), true, uint8(0))
		f.Add([]byte(s), true, uint8(2))
	}
	f.Fuzz(func(t *testing.T, data []byte, indexed bool, batch uint8) {
		fuzzImport(t, "in.csv", data, indexed, batch)
	})
}

func FuzzImportTSV(f *testing.F) {
	for _, s := range []string{
		"k\tn\ti\tf\tb\tts\tdt\traw\na\t1\t2\t1.5\ttrue\t2024-01-02 03:04:05\t2024-01-02\t\\\\x00\n",
		"k\tn\na\\tb\t1\n\\N\t2\n\\E\t3\n",
		"k\tn\na\\q\t1\n",
		"k\tn\na\t\\x4\n",
		"k\tn\na\\u00e9\t1\r\n\nb\\\\\t2\n",
		"k\te\tn\na\tp\t1\nb\tp\t2\n",
		"k\tk\na\tb\n",
		"",
	} {
		f.Add([]byte(s), false, uint8(2))
		f.Add([]byte(s), true, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, indexed bool, batch uint8) {
		fuzzImport(t, "in.tsv", data, indexed, batch)
	})
}
