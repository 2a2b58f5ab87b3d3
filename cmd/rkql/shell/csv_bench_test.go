package shell

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

const csvBenchRows = 100_000

// discardIO runs one statement and throws its output away, counting bytes.
type discardIO struct {
	stmt string
	done bool
	n    int64
}

func (d *discardIO) ReadLine(string) (string, error) {
	if d.done {
		return "", io.EOF
	}
	d.done = true
	return d.stmt, nil
}
func (d *discardIO) Write(p []byte) (int, error) { d.n += int64(len(p)); return len(p), nil }
func (d *discardIO) Stdout() io.Writer           { return d }
func (d *discardIO) Stderr() io.Writer           { return d }
func (d *discardIO) Interactive() bool           { return false }

// BenchmarkCSVExport writes 100k logs rows as CSV: through the shell, as
// `rkql --format csv -e 'SELECT * FROM logs ALLOW FULL SCAN'` does (rkql),
// against a hand-written loop over the same store scan that decodes the
// key and cells and appends the text (raw).
//
//	go test -run XXX -bench CSVExport -benchtime 5x ./cmd/rkql/shell/
func BenchmarkCSVExport(b *testing.B) {
	cat, t := logsCatalog(b)
	st, err := embedded.Open(b.TempDir(), embedded.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	x := &exec.Executor{Store: st}
	if err := x.EnsureTable(ctx, t); err != nil {
		b.Fatal(err)
	}
	if err := x.Insert(ctx, t, examples.Rows(t, csvBenchRows, 1), 0, nil); err != nil {
		b.Fatal(err)
	}
	var size int64
	b.Run("rkql", func(b *testing.B) {
		s := New(Config{Catalog: cat, Settings: Settings{Format: FormatCSV},
			Open: engine.Opened(st)})
		for b.Loop() {
			d := &discardIO{stmt: "SELECT * FROM logs ALLOW FULL SCAN"}
			if err := s.Run(ctx, d); err != nil {
				b.Fatal(err)
			}
			size = d.n
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/csvBenchRows, "ns/row")
	})
	b.Run("raw", func(b *testing.B) {
		for b.Loop() {
			it, err := st.Scan(ctx, t.Physical, exec.Range{}, exec.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			var buf []byte
			var n int64
			row := t.NewRow()
			for {
				sr, err := it.Next(ctx)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				if err := t.DecodeKey(sr.Key, row, nil); err != nil {
					b.Fatal(err)
				}
				for _, c := range sr.Cells {
					if row[3], err = t.Columns[3].DecodeCell(c.Value); err != nil {
						b.Fatal(err)
					}
				}
				buf = append(buf[:0], row[0].S...)
				buf = append(append(buf, ','), row[1].S...)
				buf = strconv.AppendInt(append(buf, ','), row[2].I, 10)
				buf = append(append(append(buf, ','), row[3].S...), '\n')
				n += int64(len(buf))
			}
			it.Close()
			if n == 0 || !bytes.Contains(buf, []byte(",")) {
				b.Fatal("no rows")
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/csvBenchRows, "ns/row")
	})
	if size < csvBenchRows*20 {
		b.Fatalf("wrote %d bytes for %d rows", size, csvBenchRows)
	}
}
