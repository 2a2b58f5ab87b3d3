package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/rkql/rkql/engine"
)

const importSynopsis = `usage: rkql import --table T [flags] FILE
  FILE is JSON lines (one object per line, keyed by column name), a JSON
  array of such objects, or CSV or TSV with a header row of column names,
  as rkql's output formats write them; - is stdin. --format, else the
  extension (.csv, .tsv, .jsonl, .json), else the first line decides ('{'
  or '[' first: JSON; a tab: TSV; else CSV).
flags:
`

// parseImportFlags parses import's flags, which may come before or after
// FILE.
func parseImportFlags(args []string, w io.Writer) (*options, string, error) {
	o := &options{progressInterval: time.Second}
	fs := flag.NewFlagSet("rkql import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	commonFlags(fs, o)
	fs.StringVar(&o.table, "table", "", "the logical `table` to load (required)")
	fs.StringVar(&o.format, "format", "", "input `format`: "+strings.Join(engine.ImportFormats, "|")+" (default: by the extension, else the first line)")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "most time each batch write to the store may take, not the whole import (0 for none)")
	// The flag package calls Usage on every error; only -h prints it.
	fs.Usage = func() {}
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usageFunc(fs, w, importSynopsis)()
				return nil, "", err
			}
			return nil, "", &usageError{msg: "import: " + err.Error() + " (rkql import -h for help)"}
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	o.format = strings.ToLower(o.format)
	if err := checkCommon(fs, o); err != nil {
		return nil, "", &usageError{msg: "import: " + err.Error()}
	}
	switch {
	case o.table == "":
		return nil, "", &usageError{msg: "import: --table is required (rkql import --table T FILE)"}
	case len(files) != 1:
		return nil, "", &usageError{msg: fmt.Sprintf("import: want one FILE (or - for stdin), got %d", len(files))}
	case o.timeout < 0:
		return nil, "", &usageError{msg: "import: --timeout must not be negative"}
	case o.format != "" && !slices.Contains(engine.ImportFormats, o.format):
		return nil, "", &usageError{msg: fmt.Sprintf("import: unknown --format %q (want %s)", o.format, strings.Join(engine.ImportFormats, ", "))}
	}
	return o, files[0], nil
}

// runImport is `rkql import`.
func runImport(ctx context.Context, args []string, e env) int {
	o, file, err := parseImportFlags(args, e.stderr)
	if err != nil {
		return reportStartup(e, err)
	}
	sess, err := newSession(o, e, true)
	if err != nil {
		return reportStartup(e, err)
	}
	defer sess.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	// Ctrl-C must end an import waiting on an idle pipe, a terminal or a
	// FIFO, whose reads would otherwise block until the writer closes.
	var in io.Reader
	name := "stdin"
	if file == "-" {
		in = newCancelReader(ctx, e.stdin)
	} else {
		f, err := os.Open(file)
		if err != nil {
			return reportStartup(e, err)
		}
		defer f.Close()
		in, name = f, file
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			in = newCancelReader(ctx, f)
		}
	}
	p := &progress{w: e.stderr, on: e.term.stderr, every: o.progressInterval, last: time.Now()}
	var replaced int64
	note := func(msg string) {
		p.clear()
		fmt.Fprintf(e.stderr, "rkql: note: %s\n", msg)
	}
	n, err := sess.Engine().Import(ctx, in, engine.ImportOptions{Table: o.table, Name: name, Format: o.format, Progress: p.report, WriteTimeout: o.timeout,
		Replaced: func(r int64) { replaced = r }, SecondWrite: note})
	p.clear()
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("import cancelled (%d rows written)", n)
		}
		return reportStartup(e, err)
	}
	tail := ""
	if replaced > 0 {
		tail = fmt.Sprintf(", %d of them replacing a row with the same key", replaced)
	}
	if _, err := fmt.Fprintf(e.stdout, "imported %d %s into %s%s\n", n, plural(n), o.table, tail); err != nil {
		fmt.Fprintf(e.stderr, "rkql: imported %d %s into %s, but writing that failed: %s\n", n, plural(n), o.table, oneLine(err.Error()))
		return exitFail
	}
	return exitOK
}

func plural(n int64) string {
	if n == 1 {
		return "row"
	}
	return "rows"
}

// progress prints "imported N rows…" on a terminal at most once per
// interval, overwriting itself.
type progress struct {
	w     io.Writer
	on    bool
	every time.Duration
	last  time.Time
	width int
}

func (p *progress) report(n int64) {
	if !p.on || time.Since(p.last) < p.every {
		return
	}
	p.last = time.Now()
	msg := fmt.Sprintf("imported %d rows…", n)
	fmt.Fprintf(p.w, "\r%s", msg)
	p.width = len(msg)
}

// clear erases the progress line, if one was printed.
func (p *progress) clear() {
	if p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		p.width = 0
	}
}
