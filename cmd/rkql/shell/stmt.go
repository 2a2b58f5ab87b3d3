package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// result is a statement's output: rows to stream through a rowWriter,
// plain text, or a command tag.
type result struct {
	cols []column
	// next returns the next row, and io.EOF after the last.
	next  func(ctx context.Context) (catalog.Row, error)
	close func()
	// notes follow a table or Markdown result (DESCRIBE's key, families
	// and splits); the other formats leave them out.
	notes []string
	// noFooter leaves out "(n rows)": the notes say what the rows are.
	noFooter bool
	// text is printed as it is (EXPLAIN).
	text string
	// tag is a command tag such as "INSERT 3".
	tag string
	// warnings, when set, is asked after the result is written for
	// lines to print on stderr.
	warnings func() []string
}

// rowsResult is a result over rows already in memory.
func rowsResult(cols []column, rows []catalog.Row) *result {
	i := 0
	return &result{cols: cols, next: func(context.Context) (catalog.Row, error) {
		if i >= len(rows) {
			return nil, io.EOF
		}
		i++
		return rows[i-1], nil
	}}
}

// runStatement parses, plans and runs one statement of a chunk; stmtText
// starts at offset off of the chunk. Every failure, a panic included, is
// reported as one line.
func (s *Session) runStatement(ctx context.Context, in IO, src source, off int, stmtText string) {
	stmts, err := parser.Parse(stmtText)
	if err != nil {
		s.reportErr(in, src, off, err)
		return
	}
	for _, st := range stmts {
		s.runOne(ctx, in, src, off, st)
	}
}

func (s *Session) runOne(ctx context.Context, in IO, src source, off int, st parser.Stmt) {
	begin := s.cfg.Clock()
	ctx, cancel := s.statementContext(ctx)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			s.fail(in, src.prefix(off+int(max(st.Pos(), 0)))+fmt.Sprintf("internal error: %v", r), "")
		}
	}()
	res, err := s.execute(ctx, st)
	if err == nil {
		err = s.write(ctx, in.Stdout(), res)
		if res != nil && res.warnings != nil {
			flush(in.Stdout())
			for _, w := range res.warnings() {
				fmt.Fprintf(in.Stderr(), "rkql: warning: %s\n", w)
			}
		}
	}
	if err != nil {
		s.reportErr(in, src, off, stmtError(ctx, err, st))
		return
	}
	if s.set.Timing {
		fmt.Fprintf(in.Stdout(), "Time: %.3f ms\n", float64(s.cfg.Clock().Sub(begin).Microseconds())/1000)
	}
}

// stmtErr is a failed statement's error with where to point: pos is an
// offset in the statement's text, or parser.NoPos when the error has none;
// start is where the statement begins.
type stmtErr struct {
	pos, start parser.Pos
	msg        string
}

func (e *stmtErr) Error() string { return e.msg }

// stmtError gives an error its position in the statement, and says plainly
// when the statement was cancelled or timed out.
func stmtError(ctx context.Context, err error, st parser.Stmt) *stmtErr {
	e := &stmtErr{pos: parser.NoPos, start: st.Pos(), msg: err.Error()}
	var pe *planner.Error
	switch {
	case errors.As(err, &pe):
		e.pos, e.msg = pe.Pos, pe.Msg
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		e.msg = "statement timed out"
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		e.msg = "statement cancelled"
	}
	return e
}

// reportErr reports err of the statement at offset off of the chunk.
func (s *Session) reportErr(in IO, src source, off int, err error) {
	var (
		pe *parser.Error
		se *stmtErr
	)
	switch {
	case src.generated && errors.As(err, &pe):
		s.fail(in, pe.Msg, "")
	case src.generated && errors.As(err, &se):
		s.fail(in, se.msg, "")
	case errors.As(err, &pe):
		p := off + int(pe.Pos)
		s.fail(in, src.position(p)+": "+pe.Msg, src.context(p))
	case errors.As(err, &se) && se.pos >= 0:
		p := off + int(se.pos)
		s.fail(in, src.position(p)+": "+se.msg, src.context(p))
	case errors.As(err, &se):
		s.fail(in, src.prefix(off+int(max(se.start, 0)))+se.msg, "")
	default:
		s.fail(in, src.prefix(off)+err.Error(), "")
	}
}

// write prints a result in the session's format.
func (s *Session) write(ctx context.Context, out io.Writer, res *result) error {
	if res == nil {
		return nil
	}
	if res.close != nil {
		defer res.close()
	}
	switch {
	case res.text != "":
		_, err := io.WriteString(out, res.text)
		return err
	case res.tag != "":
		if !s.set.Quiet {
			_, err := io.WriteString(out, res.tag+"\n")
			return err
		}
		return nil
	case res.next == nil:
		return nil
	}
	w := newRowWriter(s.set.Format, out, s.set.Footer && !res.noFooter)
	if err := w.begin(res.cols); err != nil {
		return err
	}
	var n int64
	for {
		r, err := res.next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// Close what was written so far, then report the error.
			_ = w.end(-1)
			return err
		}
		if err := w.row(r); err != nil {
			return err
		}
		n++
	}
	if err := w.end(n); err != nil {
		return err
	}
	if len(res.notes) > 0 && (s.set.Format == FormatTable || s.set.Format == FormatMarkdown) {
		_, err := io.WriteString(out, strings.Join(res.notes, "\n")+"\n")
		return err
	}
	return nil
}

// execute plans and runs one statement.
func (s *Session) execute(ctx context.Context, st parser.Stmt) (*result, error) {
	p, err := s.pl.Plan(st)
	if err != nil {
		return nil, err
	}
	if what := writeStatement(p); what != "" {
		if err := s.writable(what); err != nil {
			return nil, err
		}
	}
	switch p := p.(type) {
	case *planner.Select:
		return s.query(ctx, p)
	case *planner.Explain:
		return s.explain(ctx, p)
	case *planner.Insert:
		return s.insert(ctx, p)
	case *planner.ShowTables:
		return s.showTables(ctx)
	case *planner.ShowRegions:
		return s.showRegions(ctx, p.Table)
	case *planner.Describe:
		return describe(p.Table), nil
	case *planner.CreateTable:
		return s.createTable(ctx, p.Table)
	case *planner.EncodeKey:
		return encodeKey(p), nil
	case *planner.DecodeKey:
		return decodeKey(p), nil
	case *planner.Delete:
		return s.deleteRows(ctx, p)
	case *planner.BuildIndex:
		return s.buildIndex(ctx, p)
	case *planner.CheckIndex:
		return s.checkIndex(ctx, p)
	}
	return nil, fmt.Errorf("%s is not supported by the shell yet", strings.SplitN(st.String(), " ", 2)[0])
}

// writeStatement names a plan that writes or changes a table, or returns
// "" for one that only reads.
func writeStatement(p planner.Plan) string {
	switch p := p.(type) {
	case *planner.Insert:
		return "INSERT"
	case *planner.CreateTable:
		return "CREATE TABLE"
	case *planner.Delete:
		return "DELETE"
	case *planner.BuildIndex:
		return "BUILD INDEX"
	case *planner.CheckIndex:
		if p.Repair {
			return "CHECK INDEX … REPAIR"
		}
	}
	return ""
}

func (s *Session) query(ctx context.Context, sel *planner.Select) (*result, error) {
	x, err := s.executor(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.ensure(ctx, x, sel.Table); err != nil {
		return nil, err
	}
	stats := &exec.Stats{}
	rows, err := x.Query(ctx, sel, stats)
	if err != nil {
		return nil, err
	}
	cols := make([]column, len(sel.Output))
	for i, o := range sel.Output {
		cols[i] = column{Name: o.Name, Type: o.Type}
	}
	return &result{cols: cols, next: rows.Next, close: func() { _ = rows.Close() },
		warnings: func() []string { return malformed(sel.Table.Name, stats) }}, nil
}

// malformed says how many rows a statement skipped because they do not
// fit the table's layout.
func malformed(table string, stats *exec.Stats) []string {
	n := stats.Malformed.Load()
	if n == 0 {
		return nil
	}
	return []string{fmt.Sprintf("skipped %d %s of %s that do not fit its layout (first: %v)",
		n, plural(n, "row", "rows"), table, stats.FirstMalformed())}
}

func (s *Session) explain(ctx context.Context, e *planner.Explain) (*result, error) {
	var an *planner.Analysis
	if e.Analyze {
		x, err := s.executor(ctx)
		if err != nil {
			return nil, err
		}
		if err := s.ensure(ctx, x, e.Select.Table); err != nil {
			return nil, err
		}
		if an, err = s.analyze(ctx, x, e.Select); err != nil {
			return nil, err
		}
	}
	if e.JSON {
		return &result{text: e.Select.JSON(an)}, nil
	}
	return &result{text: e.Select.Text(an)}, nil
}

// analyze runs a query, draining its rows, and measures it.
func (s *Session) analyze(ctx context.Context, x *exec.Executor, sel *planner.Select) (*planner.Analysis, error) {
	var stats exec.Stats
	begin := s.cfg.Clock()
	rows, err := x.Query(ctx, sel, &stats)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var n int64
	for {
		_, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		n++
	}
	return &planner.Analysis{
		RowsRead:     stats.RowsRead.Load(),
		RowsReturned: n,
		RPCs:         stats.RPCs.Load(),
		Regions:      stats.Regions.Load(),
		DataReads:    stats.DataReads.Load(),
		Dangling:     stats.Dangling.Load(),
		Malformed:    stats.Malformed.Load(),
		Millis:       float64(s.cfg.Clock().Sub(begin).Microseconds()) / 1000,
	}, nil
}

func (s *Session) insert(ctx context.Context, ins *planner.Insert) (*result, error) {
	x, err := s.executor(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.ensure(ctx, x, ins.Table); err != nil {
		return nil, err
	}
	if err := x.InsertColumns(ctx, ins.Table, ins.Columns, ins.Rows, ins.Timestamp, nil); err != nil {
		return nil, err
	}
	return &result{tag: fmt.Sprintf("INSERT %d", len(ins.Rows))}, nil
}

// createTable creates t's physical table, which must not exist, and its
// index tables, which may.
func (s *Session) createTable(ctx context.Context, t *catalog.Table) (*result, error) {
	x, err := s.executor(ctx)
	if err != nil {
		return nil, err
	}
	if err := x.Store.CreateTable(ctx, exec.Spec(t)); err != nil {
		if errors.Is(err, exec.ErrTableExists) {
			return nil, fmt.Errorf("HBase table %s of %s already exists", t.Physical, t.Name)
		}
		return nil, err
	}
	for _, ix := range t.Indexes {
		if err := x.EnsureTable(ctx, ix.Table); err != nil {
			return nil, err
		}
	}
	return &result{tag: "CREATE TABLE"}, nil
}
