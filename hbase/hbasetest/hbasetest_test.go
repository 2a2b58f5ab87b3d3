package hbasetest

import (
	"net"
	"regexp"
	"strings"
	"testing"
)

// recorder stands in for a test and records how Quorum ended it.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skipf(format string, args ...any)  { r.skipped = format }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = format }

func deadQuorum(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestQuorumSkipsOrFails(t *testing.T) {
	t.Setenv(EnvQuorum, deadQuorum(t))
	t.Setenv(EnvRequire, "")
	r := &recorder{TB: t}
	Quorum(r)
	if r.skipped == "" || r.failed != "" {
		t.Errorf("without %s: skipped %q failed %q, want a skip", EnvRequire, r.skipped, r.failed)
	}
	t.Setenv(EnvRequire, "1")
	r = &recorder{TB: t}
	Quorum(r)
	if r.failed == "" {
		t.Errorf("with %s=1: skipped %q, want a failure", EnvRequire, r.skipped)
	}
}

func TestTableName(t *testing.T) {
	a, b := TableName("my-test.x"), TableName("my-test.x")
	if a == b {
		t.Errorf("two calls gave %q", a)
	}
	if !regexp.MustCompile(`^my_test_x_[0-9a-f]{8}$`).MatchString(a) {
		t.Errorf("TableName = %q", a)
	}
	if !strings.HasPrefix(TableName(""), "_") {
		t.Error("empty prefix")
	}
}
