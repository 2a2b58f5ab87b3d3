package engine

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

const importBenchRows = 100_000

// logsJSONL returns n generated logs rows as JSON lines.
func logsJSONL(b *testing.B, t *catalog.Table, n int) []byte {
	return logsAs(b, "jsonl", t, n)
}

// logsAs returns n generated logs rows in format f, written as rkql's
// output formats write them: values in their text form, NULL as null in
// JSON, an empty field in CSV and \N in TSV.
func logsAs(b *testing.B, f string, t *catalog.Table, n int) []byte {
	b.Helper()
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	rec := make([]string, len(t.Columns))
	header := func(sep string) {
		buf.WriteString(strings.Join(t.ColumnNames(), sep) + "\n")
	}
	switch f {
	case "csv":
		_ = cw.Write(t.ColumnNames())
	case "tsv":
		header("\t")
	case "json":
		buf.WriteString("[\n")
	}
	tsv := strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)
	for i, r := range examples.Rows(t, n, 1) {
		switch f {
		case "csv":
			for j, v := range r {
				rec[j] = ""
				if !v.Null {
					rec[j] = v.Text()
				}
			}
			_ = cw.Write(rec)
		case "tsv":
			for j, v := range r {
				rec[j] = `\N`
				if !v.Null {
					rec[j] = tsv.Replace(v.Text())
				}
			}
			buf.WriteString(strings.Join(rec, "\t") + "\n")
		default:
			if f == "json" && i > 0 {
				buf.WriteString(",\n")
			}
			obj := map[string]any{}
			for j, v := range r {
				obj[t.Columns[j].Name] = nil
				if !v.Null {
					obj[t.Columns[j].Name] = v.Text()
				}
			}
			line, err := json.Marshal(obj)
			if err != nil {
				b.Fatal(err)
			}
			buf.Write(line)
			if f == "jsonl" {
				buf.WriteByte('\n')
			}
		}
	}
	cw.Flush()
	if f == "json" {
		buf.WriteString("\n]\n")
	}
	return buf.Bytes()
}

func logsCatalog(b *testing.B) (*catalog.Catalog, *catalog.Table) {
	b.Helper()
	cat, err := catalog.LoadFile("../examples/catalog.yaml")
	if err != nil {
		b.Fatal(err)
	}
	t, _ := cat.Table("logs")
	return cat, t
}

// BenchmarkImportRead reads and converts 100k generated logs rows in each
// input format, as rkql prints them, without writing them anywhere.
//
//	go test -run XXX -bench ImportRead -benchtime 3x ./engine/
func BenchmarkImportRead(b *testing.B) {
	_, t := logsCatalog(b)
	for _, f := range []string{"csv", "tsv", "jsonl", "json"} {
		data := logsAs(b, f, t, importBenchRows)
		b.Run(f, func(b *testing.B) {
			for b.Loop() {
				src, err := newRowSource(t, "", "logs."+f, bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for {
					_, _, err := src.next()
					if err != nil {
						if !errors.Is(err, io.EOF) {
							b.Fatal(err)
						}
						break
					}
					n++
				}
				if n != importBenchRows {
					b.Fatalf("read %d rows", n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/importBenchRows, "ns/row")
		})
	}
}

// BenchmarkImport loads 100k generated logs rows, from JSON lines and from
// CSV, into a fresh embedded store per iteration (import, import-csv),
// against writing the same rows' mutations, built beforehand and sorted,
// straight to the store (raw).
//
//	go test -run XXX -bench Import -benchtime 3x ./engine/
func BenchmarkImport(b *testing.B) {
	cat, t := logsCatalog(b)
	data := logsJSONL(b, t, importBenchRows)
	csvData := logsAs(b, "csv", t, importBenchRows)
	ctx := context.Background()
	open := func(b *testing.B) *embedded.Store {
		st, err := embedded.Open(b.TempDir(), embedded.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return st
	}
	perRow := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/importBenchRows, "ns/row")
	}
	imp := func(data []byte, name string) func(b *testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				st := open(b)
				s := New(Config{Catalog: cat, CreateOnDemand: true,
					Open: func(context.Context) (exec.Store, error) { return st, nil }})
				b.StartTimer()
				n, err := s.Import(ctx, bytes.NewReader(data), ImportOptions{Table: "logs", Name: name})
				if err != nil || n != importBenchRows {
					b.Fatalf("imported %d rows, %v", n, err)
				}
				b.StopTimer()
				st.Close()
				b.StartTimer()
			}
			perRow(b)
		}
	}
	b.Run("import", imp(data, "logs.jsonl"))
	b.Run("import-csv", imp(csvData, "logs.csv"))
	b.Run("raw", func(b *testing.B) {
		muts := make([]exec.Mutation, 0, importBenchRows)
		for _, r := range examples.Rows(t, importBenchRows, 1) {
			m, err := exec.RowMutation(t, r, 0, nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			muts = append(muts, m)
		}
		for b.Loop() {
			b.StopTimer()
			st := open(b)
			x := &exec.Executor{Store: st}
			if err := x.EnsureTable(ctx, t); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := st.Mutate(ctx, t.Physical, muts); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			st.Close()
			b.StartTimer()
		}
		perRow(b)
	})
}
