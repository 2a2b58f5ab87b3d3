package shell

import (
	"context"
	"strings"
	"testing"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec/embedded"
)

// BenchmarkReleaseStore is what the REPL pays for closing the embedded
// store after each statement (Config.ReleaseStore) so that other processes
// can use it: a point SELECT on a store of 50,000 rows, with the store
// reopened for each statement, and, as the raw baseline, with it held.
//
//	go test -run XXX -bench ReleaseStore ./cmd/rkql/shell/
func BenchmarkReleaseStore(b *testing.B) {
	dir := b.TempDir()
	open := engine.OpenWith(func(context.Context) (*embedded.Store, error) {
		return embedded.Open(dir, embedded.Options{NoSync: true})
	})
	load := New(Config{Catalog: importCatalog(b), CreateOnDemand: true, Open: open})
	if _, err := load.Engine().Import(context.Background(), strings.NewReader(jsonLines(50_000)), engine.ImportOptions{Table: "t", Name: "t.jsonl"}); err != nil {
		b.Fatal(err)
	}
	if err := load.Close(); err != nil {
		b.Fatal(err)
	}
	for _, release := range []bool{true, false} {
		name := "held"
		if release {
			name = "released"
		}
		b.Run(name, func(b *testing.B) {
			s := New(Config{Catalog: importCatalog(b), CreateOnDemand: true, Open: open, ReleaseStore: release,
				Settings: Settings{Format: FormatTSV}})
			defer s.Close()
			for b.Loop() {
				io := &stmtIO{in: []string{"SELECT v FROM t WHERE k = 'k012345';"}}
				if err := s.Run(context.Background(), io); err != nil || !strings.HasSuffix(io.out.String(), "v\nx\n") {
					b.Fatalf("%v: %q %q", err, io.out.String(), io.err.String())
				}
			}
		})
	}
}
