package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/rkql/rkql/cmd/rkql/shell"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/planner"
)

// scriptIO plays typed lines to a session and records what a terminal
// would show: each prompt with the line typed after it, then the output,
// with stdout and stderr interleaved.
type scriptIO struct {
	lines       []string
	out         *bytes.Buffer
	interactive bool
}

func (s *scriptIO) ReadLine(prompt string) (string, error) {
	if len(s.lines) == 0 {
		return "", io.EOF
	}
	l := s.lines[0]
	s.lines = s.lines[1:]
	if s.interactive {
		fmt.Fprintf(s.out, "%s%s\n", prompt, l)
	}
	return l, nil
}

func (s *scriptIO) Stdout() io.Writer { return s.out }
func (s *scriptIO) Stderr() io.Writer { return s.out }
func (s *scriptIO) Interactive() bool { return s.interactive }

// fakeClock advances 1.5 ms each time it is read, so timings are exact.
func fakeClock() func() time.Time {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	return func() time.Time {
		now = now.Add(1500 * time.Microsecond)
		return now
	}
}

// transcript is the state of one transcript file: a store directory that
// outlives sessions, and the current session.
type transcript struct {
	t    *testing.T
	dir  string
	sess *shell.Session
}

func (tr *transcript) open(td *datadriven.TestData) {
	if tr.sess != nil {
		_ = tr.sess.Close()
	}
	o := options{catalog: "testdata/catalog.yaml", store: tr.dir}
	if td.HasArg("example-catalog") {
		o.catalog = ""
	}
	cf, err := loadCatalog(&o)
	if err != nil {
		tr.t.Fatalf("%s: %v", td.Pos, err)
	}
	set := shell.Settings{Format: shell.FormatTable, Footer: true, Caret: true}
	var format string
	if td.MaybeScanArgs(tr.t, "format", &format) {
		if set.Format, err = shell.ParseFormat(format); err != nil {
			tr.t.Fatalf("%s: %v", td.Pos, err)
		}
	}
	set.Timeout = time.Minute
	file := cf.path
	if o.catalog != "" {
		file = "" // the transcripts never write their testdata
	}
	tr.sess = shell.New(shell.Config{
		Catalog:       cf.cat,
		CatalogSource: cf.src,
		CatalogFile:   file,
		Open: func(ctx context.Context) (exec.Store, error) {
			// A fixed clock makes region names and cell timestamps exact.
			clock := func() time.Time { return time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC) }
			return embedded.Open(tr.dir, embedded.Options{Clock: clock, NoSync: true})
		},
		CreateOnDemand: true,
		Planner:        planner.Options{AllowFullScan: td.HasArg("allow-full-scan")},
		Settings:       set,
		Clock:          fakeClock(),
		ConnInfo:       "embedded store $TMP, catalog testdata/catalog.yaml",
		TermSize:       func() (int, int, bool) { return 60, 24, true },
	})
}

func (tr *transcript) run(td *datadriven.TestData) string {
	switch td.Cmd {
	case "session":
		tr.open(td)
		return ""
	case "run":
		if tr.sess == nil {
			tr.open(&datadriven.TestData{})
		}
		var out bytes.Buffer
		// $TMP names a directory of the transcript's own, for files.
		input := strings.ReplaceAll(td.Input, "$TMP", tr.dir)
		in := &scriptIO{lines: strings.Split(input, "\n"), out: &out, interactive: true}
		var name string
		if td.MaybeScanArgs(tr.t, "script", &name) {
			in.interactive = false
		}
		err := tr.sess.RunNamed(context.Background(), in, name)
		if err != nil && !errors.Is(err, shell.ErrFailed) {
			tr.t.Fatalf("%s: %v", td.Pos, err)
		}
		if errors.Is(err, shell.ErrFailed) {
			out.WriteString("[failed]\n")
		}
		return strings.ReplaceAll(out.String(), tr.dir, "$TMP")
	case "import":
		if tr.sess == nil {
			tr.open(&datadriven.TestData{})
		}
		opts := engine.ImportOptions{}
		td.ScanArgs(tr.t, "table", &opts.Table)
		td.ScanArgs(tr.t, "name", &opts.Name)
		td.MaybeScanArgs(tr.t, "batch", &opts.Batch)
		n, err := tr.sess.Engine().Import(context.Background(), strings.NewReader(td.Input+"\n"), opts)
		if err != nil {
			return fmt.Sprintf("rkql: %v\n", err)
		}
		return fmt.Sprintf("imported %d rows\n", n)
	}
	tr.t.Fatalf("%s: unknown command %q", td.Pos, td.Cmd)
	return ""
}

// TestTranscripts runs the shell through its IO interface against a
// temporary embedded store: each file of testdata/transcripts is a
// session, with typed input and the exact output.
func TestTranscripts(t *testing.T) {
	datadriven.Walk(t, "testdata/transcripts", func(t *testing.T, path string) {
		tr := &transcript{t: t, dir: t.TempDir()}
		defer func() {
			if tr.sess != nil {
				_ = tr.sess.Close()
			}
		}()
		datadriven.RunTest(t, path, func(_ *testing.T, td *datadriven.TestData) string { return tr.run(td) })
	})
}

// The example catalog is built in and must load.
func TestExampleCatalog(t *testing.T) {
	cf, err := loadCatalog(&options{store: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cf.cat.Table("orders"); !ok {
		t.Fatalf("the example catalog has no orders table: %v", cf.cat.Names())
	}
}
