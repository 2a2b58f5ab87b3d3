package phoenixtest

import (
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// TestPhoenixSQLValues runs the real command on a Phoenix HBase: a
// statement separator inside a string and a comment, every documented
// value form, NULLs, and a failed statement with and without --continue.
func TestPhoenixSQLValues(t *testing.T) {
	Require(t)
	rs := Run(t,
		"DROP TABLE IF EXISTS PHX_SQL.VALS",
		"CREATE TABLE PHX_SQL.VALS (K VARCHAR PRIMARY KEY, I INTEGER, B BIGINT, D DOUBLE, F FLOAT,"+
			" DEC DECIMAL(20,5), BL BOOLEAN, DT DATE, TS TIMESTAMP, VB VARBINARY, C CHAR(3), A INTEGER ARRAY)",
		"UPSERT INTO PHX_SQL.VALS VALUES ('a;b', -7, 9007199254740993, 0.1, 1.5, 12345678901234.56789, TRUE,"+
			" TO_DATE('2024-05-01 12:00:00.123'), TO_TIMESTAMP('1969-12-31 23:59:59.999'), X'00ff10', 'xy', ARRAY[1, 2, 3]) /* ; */",
		"UPSERT INTO PHX_SQL.VALS (K) VALUES ('n') -- a comment; not a statement",
		"SELECT * FROM PHX_SQL.VALS ORDER BY K")
	q := rs[4]
	if rs[2].Update != 1 || !q.Query {
		t.Fatalf("results %+v", rs)
	}
	var types []string
	for _, c := range q.Columns {
		types = append(types, c.Name+" "+c.Type)
	}
	if got, want := strings.Join(types, ", "), "K VARCHAR, I INTEGER, B BIGINT, D DOUBLE, F FLOAT, DEC DECIMAL, BL BOOLEAN, DT DATE, TS TIMESTAMP, VB VARBINARY, C CHAR, A INTEGER ARRAY"; got != want {
		t.Errorf("columns %s\nwant    %s", got, want)
	}
	n := func(s string) json.Number { return json.Number(s) }
	want := [][]any{
		{"a;b", n("-7"), n("9007199254740993"), n("0.1"), n("1.5"), n("12345678901234.56789"), true,
			"2024-05-01T12:00:00.123Z", "1969-12-31T23:59:59.999Z", "00ff10", "xy", []any{n("1"), n("2"), n("3")}},
		{"n", nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
	}
	if !reflect.DeepEqual(q.Rows, want) {
		t.Errorf("rows\n%v\nwant\n%v", q.Rows, want)
	}

	// A failed statement: an error line, exit status 1; the statements
	// after it run only with --continue.
	for _, cont := range []bool{false, true} {
		var args []string
		if cont {
			args = append(args, "--continue")
		}
		cmd := exec.Command(os.Getenv(EnvSQL), append(args, "SELECT * FROM PHX_SQL.NO_SUCH_TABLE", "SELECT COUNT(*) FROM PHX_SQL.VALS")...)
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Errorf("--continue %v: exit %v, want status 1\n%s", cont, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if !strings.HasPrefix(lines[0], `{"stmt":1,"error":"`) || !strings.Contains(lines[0], "NO_SUCH_TABLE") {
			t.Errorf("--continue %v: first line %s", cont, lines[0])
		}
		ran := strings.Contains(string(out), `{"stmt":2,"row":[2]}`)
		if ran != cont {
			t.Errorf("--continue %v: second statement ran: %v\n%s", cont, ran, out)
		}
	}
}
