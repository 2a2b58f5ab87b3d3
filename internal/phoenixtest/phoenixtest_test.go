package phoenixtest

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fake points the package at a listener and at a script that prints out
// whatever its stdin, saving the statements it read in a file.
func fake(t *testing.T, out string) (stdin string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	dir := t.TempDir()
	in := filepath.Join(dir, "stdin")
	script := filepath.Join(dir, "sql")
	src := "#!/bin/sh\ncat >" + in + "\ncat <<'EOF'\n" + out + "EOF\n"
	if err := os.WriteFile(script, []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvQuorum, l.Addr().String())
	t.Setenv(EnvSQL, script)
	return in
}

func TestRunParsesLines(t *testing.T) {
	in := fake(t, `{"stmt":1,"update":0}
{"stmt":2,"update":3}
{"stmt":3,"columns":[{"name":"K","type":"VARCHAR"},{"name":"V","type":"BIGINT"}]}
{"stmt":3,"row":["a",9007199254740993]}
{"stmt":3,"row":[null,-1]}
{"stmt":3,"end":true,"rows":2}
`)
	if q := Require(t); q == "" {
		t.Fatal("no quorum")
	}
	rs := Run(t, "CREATE TABLE T (K VARCHAR PRIMARY KEY, V BIGINT)", "UPSERT INTO T VALUES ('a', 1);", "SELECT * FROM T")
	if len(rs) != 3 || rs[0].Query || rs[1].Update != 3 || !rs[2].Query {
		t.Fatalf("results %+v", rs)
	}
	if want := []Column{{"K", "VARCHAR"}, {"V", "BIGINT"}}; !reflect.DeepEqual(rs[2].Columns, want) {
		t.Errorf("columns %v, want %v", rs[2].Columns, want)
	}
	want := [][]any{{"a", json.Number("9007199254740993")}, {nil, json.Number("-1")}}
	if !reflect.DeepEqual(rs[2].Rows, want) {
		t.Errorf("rows %v, want %v", rs[2].Rows, want)
	}
	got, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	if w := "CREATE TABLE T (K VARCHAR PRIMARY KEY, V BIGINT)\n;\nUPSERT INTO T VALUES ('a', 1)\n;\nSELECT * FROM T\n;\n"; string(got) != w {
		t.Errorf("stdin %q, want %q", got, w)
	}
}

func TestRequireSkipsWhenUnset(t *testing.T) {
	t.Setenv(EnvQuorum, "")
	t.Setenv(EnvRequire, "")
	skipped := true
	t.Run("inner", func(t *testing.T) {
		Require(t)
		skipped = false
	})
	if !skipped {
		t.Error("Require returned without a server")
	}
}
