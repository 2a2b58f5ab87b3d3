package shell

import (
	"fmt"
	"io"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
)

// Format is an output format.
type Format int

// The output formats.
const (
	FormatTable Format = iota
	FormatCSV
	FormatTSV
	FormatJSON
	FormatJSONL
	FormatMarkdown
)

var formatNames = [...]string{
	FormatTable:    "table",
	FormatCSV:      "csv",
	FormatTSV:      "tsv",
	FormatJSON:     "json",
	FormatJSONL:    "jsonl",
	FormatMarkdown: "markdown",
}

func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return "unknown"
	}
	return formatNames[f]
}

// FormatNames lists the formats, for usage messages.
func FormatNames() string { return strings.Join(formatNames[:], "|") }

// ParseFormat returns the named format, case-insensitively.
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if strings.EqualFold(s, n) {
			return Format(i), nil
		}
	}
	return 0, fmt.Errorf("unknown format %q (want %s)", s, FormatNames())
}

// column is one column of a result.
type column = engine.Column

// rowWriter writes one result set. begin is called once, then row for each
// row, then end with the row count, or -1 when the rows stopped on an error.
// A writer holds at most a bounded number of rows, and keeps no row slice
// past its call to row: the next row may reuse its memory.
type rowWriter interface {
	begin(cols []column) error
	row(r catalog.Row) error
	end(n int64) error
}

// newRowWriter returns the writer of format f. footer adds "(n rows)" after
// a table.
func newRowWriter(f Format, w io.Writer, footer bool) rowWriter {
	switch f {
	case FormatCSV:
		return &csvWriter{w: w}
	case FormatTSV:
		return &tsvWriter{w: w}
	case FormatJSON:
		return &jsonWriter{w: w, array: true}
	case FormatJSONL:
		return &jsonWriter{w: w}
	case FormatMarkdown:
		return &markdownWriter{w: w}
	}
	return &tableWriter{w: w, footer: footer, chunk: tableChunk}
}

// uniqueNames are the names of cols as the formats that key by name
// (csv, tsv, json, jsonl) write them, each once. A column keeps its name
// unless an earlier column has it; then it is name_2, name_3, …, the
// first that no column has and no earlier one was given. So SELECT
// UPPER(a), UPPER(b) is keyed upper and upper_2.
func uniqueNames(cols []column) []string {
	names := make([]string, len(cols))
	taken := make(map[string]bool, len(cols))
	for _, c := range cols {
		taken[c.Name] = true
	}
	used := make(map[string]bool, len(cols))
	for i, c := range cols {
		name := c.Name
		for n := 2; used[name]; n++ {
			if name = fmt.Sprintf("%s_%d", c.Name, n); taken[name] {
				name = c.Name // another column's own name: try the next
			}
		}
		used[name] = true
		names[i] = name
	}
	return names
}

// cellText is a value as the text formats show it; NULL is shown as null.
func cellText(v catalog.Value, null string) string {
	if v.Null {
		return null
	}
	return v.Text()
}

// rowCount is psql's footer: "(1 row)", "(3 rows)".
func rowCount(n int64) string {
	if n == 1 {
		return "(1 row)"
	}
	return fmt.Sprintf("(%d rows)", n)
}
