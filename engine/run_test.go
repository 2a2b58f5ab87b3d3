package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/parser"
)

// A cancelled statement stops before planning; Ctrl-C and the timeout
// reach planning too.
func TestRunCancelledBeforePlanning(t *testing.T) {
	e := newEngine(t, embedded.Pushdown{})
	stmt, err := parser.ParseOne("SELECT * FROM orders WHERE seller = 's1'")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Run(ctx, stmt); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
