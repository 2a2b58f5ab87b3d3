package engine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
)

// Column is one column of a result.
type Column struct {
	Name string
	Type catalog.Type
}

// Result is a statement's outcome: rows to stream, a command tag, or
// text. Exactly one of Rows, Tag and Text is set (none for a statement
// with no output).
type Result struct {
	Columns []Column
	// Rows streams the result's rows; the caller reads it to io.EOF or
	// closes it, and must Close it either way.
	Rows exec.Rows
	// Tag is a command tag such as "INSERT 3".
	Tag string
	// Text is printed as it is (EXPLAIN).
	Text string
	// Notes follow a table of rows (DESCRIBE's key, families and splits)
	// in the formats meant for people.
	Notes []string
	// NoFooter leaves out "(n rows)": the notes say what the rows are.
	NoFooter bool
	// Stats are the figures of the statement's reads, complete once Rows
	// has been read to the end; nil for a statement that reads nothing.
	Stats *exec.Stats
	// Warnings, when set, is asked once the rows have been read for lines
	// to show the user, such as rows skipped because they do not fit the
	// layout.
	Warnings func() []string
}

// ReuseRows tells the result's rows that the reader keeps no row past its
// next call to Next, so that a plain read may decode each row into the
// memory of the one before (exec.RowReuser). Call it before the first
// Next; rows that cannot reuse their memory ignore it.
func (r *Result) ReuseRows() {
	if ru, ok := r.Rows.(exec.RowReuser); ok {
		ru.ReuseRows()
	}
}

// Close releases the result's rows, if any.
func (r *Result) Close() error {
	if r == nil || r.Rows == nil {
		return nil
	}
	return r.Rows.Close()
}

// sliceRows serves rows held in memory.
type sliceRows struct {
	rows []catalog.Row
	i    int
}

func (s *sliceRows) Next(context.Context) (catalog.Row, error) {
	if s.i >= len(s.rows) {
		return nil, io.EOF
	}
	s.i++
	return s.rows[s.i-1], nil
}

func (s *sliceRows) Close() error { return nil }

// rowsResult is a result over rows already in memory.
func rowsResult(cols []Column, rows []catalog.Row) *Result {
	return &Result{Columns: cols, Rows: &sliceRows{rows: rows}}
}

func strCols(names ...string) []Column {
	cols := make([]Column, len(names))
	for i, n := range names {
		cols[i] = Column{Name: n, Type: catalog.TypeString}
	}
	return cols
}

// malformed says how many rows a statement skipped because they do not
// fit the table's layout.
// ErrMalformed is a row that does not fit its table's layout, read with
// Config.Strict set.
var ErrMalformed = errors.New("a row does not fit its table's layout")

// strictRows fails at the first row skipped as malformed.
type strictRows struct {
	exec.Rows
	stats *exec.Stats
}

func (s *strictRows) Next(ctx context.Context) (catalog.Row, error) {
	r, err := s.Rows.Next(ctx)
	if s.stats.Malformed.Load() > 0 {
		return nil, fmt.Errorf("%w (--strict): %v", ErrMalformed, s.stats.FirstMalformed())
	}
	return r, err
}

// strict finishes a query's result: under Config.Strict a malformed row
// ends its rows with ErrMalformed, otherwise it is skipped and counted in
// a warning.
func (e *Engine) strict(res *Result, table string) *Result {
	stats := res.Stats
	if e.cfg.Strict {
		res.Rows = &strictRows{Rows: res.Rows, stats: stats}
		return res
	}
	res.Warnings = func() []string { return malformed(table, stats) }
	return res
}

func malformed(table string, stats *exec.Stats) []string {
	n := stats.Malformed.Load()
	if n == 0 {
		return nil
	}
	return []string{fmt.Sprintf("skipped %d %s of %s that do not fit its layout (first: %v)",
		n, plural(n, "row", "rows"), table, stats.FirstMalformed())}
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
