package exectest

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// The second oracle is sqlite3, driven through its command-line shell
// rather than a Go library: the module then needs no SQLite binding (the
// pure Go ones are a transpiled C library far larger than rkql, which
// every test build on a small machine would compile), and the oracle is
// the very sqlite3 a user compares rkql with, Debian's package. One
// shell process serves a whole run: statements go in on its standard
// input, rows come back in its quote mode, which keeps every value's
// type (an INTEGER has no point, a REAL has one or is Inf, TEXT is
// quoted, a BLOB is X'…', NULL is NULL), and a marker row ends each
// answer. Errors come back on standard error, which stdio does not
// buffer as it buffers the rows: there a statement that must fail (a
// JSON path rkqlend_N, a one-line runtime error) ends each answer, so that both streams are
// read to the end of the same statement, and no error can land inside
// a row.

// ErrNoSQLite is returned by OpenSQLite when no sqlite3 program is found.
var ErrNoSQLite = errors.New("exectest: sqlite3 not found (install Debian's sqlite3 package)")

// SQLite is one sqlite3 shell over an in-memory database. It is not safe
// for concurrent use.
type SQLite struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	errs *bufio.Reader
	n    int // markers sent
}

// SQLValue is one value sqlite3 returned: Kind is 'i' (INTEGER), 'r'
// (REAL), 't' (TEXT), 'b' (BLOB) or 'n' (NULL).
type SQLValue struct {
	Kind byte
	I    int64
	F    float64
	S    string
	B    []byte
}

// SQLError is an error sqlite3 reported for a statement.
type SQLError struct{ Msg string }

func (e *SQLError) Error() string { return "sqlite3: " + e.Msg }

// OpenSQLite starts sqlite3 (the program named by $RKQL_SQLITE3, or
// sqlite3 on the PATH) over an empty in-memory database, with LIKE
// case-sensitive as rkql's is.
func OpenSQLite() (*SQLite, error) {
	prog := os.Getenv("RKQL_SQLITE3")
	if prog == "" {
		p, err := exec.LookPath("sqlite3")
		if err != nil {
			return nil, ErrNoSQLite
		}
		prog = p
	}
	cmd := exec.Command(prog, "-batch", ":memory:")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errs, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("exectest: start sqlite3: %w", err)
	}
	s := &SQLite{cmd: cmd, in: in, out: bufio.NewReader(out), errs: bufio.NewReader(errs)}
	if err := s.Exec(".mode quote\nPRAGMA case_sensitive_like = ON;"); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close ends the shell.
func (s *SQLite) Close() error {
	s.in.Close()
	return s.cmd.Wait()
}

// Exec runs statements that return no rows.
func (s *SQLite) Exec(sql string) error {
	rows, err := s.Query(sql)
	if err == nil && len(rows) > 0 {
		return fmt.Errorf("exectest: %q returned %d rows", sql, len(rows))
	}
	return err
}

// Query runs sql (one statement, or several of which only the last
// returns rows) and returns its rows.
func (s *SQLite) Query(sql string) ([][]SQLValue, error) {
	// An open quote would swallow the markers, and the shell would wait
	// for the rest of the statement for ever.
	if openQuote(sql) {
		return nil, fmt.Errorf("exectest: a quote is left open in %q", sql)
	}
	s.n++
	marker := fmt.Sprintf("rkql-end-%d", s.n)
	if _, err := fmt.Fprintf(s.in, "%s\n;\nSELECT '%s';\nSELECT json_extract('{}', 'rkqlend_%d');\n", sql, marker, s.n); err != nil {
		return nil, fmt.Errorf("exectest: write to sqlite3: %w", err)
	}
	var rows [][]SQLValue
	for {
		row, err := s.readRow()
		if err != nil {
			return nil, fmt.Errorf("exectest: read sqlite3's rows: %w", err)
		}
		if len(row) == 1 && row[0].Kind == 't' && row[0].S == marker {
			break
		}
		rows = append(rows, row)
	}
	// Standard error, to the failing statement after the marker.
	var msg []string
	end := fmt.Sprintf("'rkqlend_%d'", s.n)
	for {
		line, err := s.errs.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("exectest: sqlite3 ended: %w", err)
		}
		if strings.Contains(line, end) {
			break
		}
		if len(msg) < 3 {
			msg = append(msg, strings.TrimSpace(line))
		}
	}
	if len(msg) > 0 {
		return nil, &SQLError{Msg: strings.Join(msg, " ")}
	}
	return rows, nil
}

// openQuote reports whether sql ends inside a quoted text or name.
func openQuote(sql string) bool {
	var in byte
	for i := 0; i < len(sql); i++ {
		switch c := sql[i]; {
		case in == 0 && (c == '\'' || c == '"'):
			in = c
		case c == in && i+1 < len(sql) && sql[i+1] == in:
			i++
		case c == in:
			in = 0
		}
	}
	return in != 0
}

// readRow reads one row: values separated by commas, ended by a newline.
func (s *SQLite) readRow() ([]SQLValue, error) {
	var row []SQLValue
	for {
		v, err := s.readValue()
		if err != nil {
			return nil, err
		}
		row = append(row, v)
		c, err := s.out.ReadByte()
		if err != nil {
			return nil, err
		}
		switch c {
		case ',':
		case '\n':
			return row, nil
		default:
			return nil, fmt.Errorf("%q after a value", c)
		}
	}
}

// readValue reads one quote-mode value.
func (s *SQLite) readValue() (SQLValue, error) {
	c, err := s.out.ReadByte()
	if err != nil {
		return SQLValue{}, err
	}
	if c == '\'' {
		var b strings.Builder
		for {
			c, err := s.out.ReadByte()
			if err != nil {
				return SQLValue{}, err
			}
			if c == '\'' {
				if next, err := s.out.Peek(1); err == nil && next[0] == '\'' {
					s.out.ReadByte()
				} else {
					return SQLValue{Kind: 't', S: b.String()}, nil
				}
			}
			b.WriteByte(c)
		}
	}
	if c == 'X' {
		if c, err := s.out.ReadByte(); err != nil || c != '\'' {
			return SQLValue{}, fmt.Errorf("a blob without its quote")
		}
		rest, err := s.out.ReadString('\'')
		if err != nil {
			return SQLValue{}, err
		}
		b, err := hex.DecodeString(strings.TrimSuffix(rest, "'"))
		if err != nil {
			return SQLValue{}, fmt.Errorf("exectest: sqlite3 blob: %w", err)
		}
		return SQLValue{Kind: 'b', B: b}, nil
	}
	s.out.UnreadByte()
	var tok strings.Builder
	for {
		c, err := s.out.ReadByte()
		if err != nil {
			return SQLValue{}, err
		}
		if !strings.ContainsRune("0123456789+-.eEInfNUL", rune(c)) {
			s.out.UnreadByte()
			break
		}
		tok.WriteByte(c)
	}
	return parseSQLToken(tok.String())
}

// parseSQLToken reads NULL, an INTEGER or a REAL.
func parseSQLToken(t string) (SQLValue, error) {
	switch t {
	case "NULL":
		return SQLValue{Kind: 'n'}, nil
	case "Inf":
		return SQLValue{Kind: 'r', F: math.Inf(1)}, nil
	case "-Inf":
		return SQLValue{Kind: 'r', F: math.Inf(-1)}, nil
	}
	if !strings.ContainsAny(t, ".eE") {
		i, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return SQLValue{}, fmt.Errorf("exectest: sqlite3 integer %q: %w", t, err)
		}
		return SQLValue{Kind: 'i', I: i}, nil
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return SQLValue{}, fmt.Errorf("exectest: sqlite3 real %q: %w", t, err)
	}
	return SQLValue{Kind: 'r', F: f}, nil
}

// OpenSQLiteT starts sqlite3 for a test and ends it with the test.
// Without sqlite3 the test is skipped, except under CI or
// RKQL_REQUIRE_HBASE=1, whose set-up installs it: there its absence fails.
func OpenSQLiteT(t testing.TB) *SQLite {
	t.Helper()
	db, err := OpenSQLite()
	if errors.Is(err, ErrNoSQLite) && os.Getenv("CI") == "" && os.Getenv("RKQL_REQUIRE_HBASE") != "1" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
