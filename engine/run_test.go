package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
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

// stopAt is a context whose Err says it was cancelled from its at-th
// call on: it ends a statement at a chosen check, with no clock.
type stopAt struct {
	context.Context
	at, calls int
}

func (c *stopAt) Err() error {
	if c.calls++; c.calls >= c.at {
		return context.Canceled
	}
	return nil
}

// A statement cancelled while it is planned stops planning, on the
// statement's goroutine, and says so.
func TestRunCancelledWhilePlanning(t *testing.T) {
	e := newEngine(t, embedded.Pushdown{})
	var b strings.Builder
	b.WriteString("SELECT * FROM orders WHERE seller = 's1' AND order_id IN (0")
	for i := 1; i < 5000; i++ {
		fmt.Fprintf(&b, ", %d", i)
	}
	b.WriteString(")")
	stmt, err := parser.ParseOne(b.String())
	if err != nil {
		t.Fatal(err)
	}
	ctx := &stopAt{Context: context.Background(), at: 1000}
	_, err = e.Run(ctx, stmt)
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "planning: ") {
		t.Fatalf("got %v, want planning: context canceled", err)
	}
	if ctx.calls > 1000+10 {
		t.Fatalf("the context was asked %d more times after it ended: planning went on", ctx.calls-1000)
	}
}
