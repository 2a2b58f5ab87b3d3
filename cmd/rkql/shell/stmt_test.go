package shell

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/parser"
)

// TestStmtErrorPartialWrite checks that a write statement stopped by its
// timeout or a cancel says what it left: how many rows stay on a store
// without transactions, and that none does on one that undid it.
func TestStmtErrorPartialWrite(t *testing.T) {
	st, err := parser.ParseOne("UPDATE t SET v = 1 WHERE k > 0")
	if err != nil {
		t.Fatal(err)
	}
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	cancelled, stop := context.WithCancel(context.Background())
	stop()
	wrap := func(ctx context.Context, we engine.WriteError) error {
		we.Err = fmt.Errorf("hbase: %w", ctx.Err())
		return &we
	}
	for _, tc := range []struct {
		ctx  context.Context
		err  error
		want string
	}{
		{expired, wrap(expired, engine.WriteError{Verb: "UPDATE", Done: 91_000, Unsure: 1000}),
			"UPDATE timed out after 91,000 rows were updated, and up to 1,000 more may have been (the --timeout limit, 30s; 0 turns it off)"},
		{expired, wrap(expired, engine.WriteError{Verb: "INSERT", Done: 10_000}),
			"INSERT timed out after 10,000 rows were inserted (the --timeout limit, 30s; 0 turns it off)"},
		{cancelled, wrap(cancelled, engine.WriteError{Verb: "DELETE", Done: 1, Unsure: 1000}),
			"DELETE cancelled after 1 row was deleted, and up to 1,000 more may have been"},
		{expired, wrap(expired, engine.WriteError{Verb: "UPDATE", Done: 91_000, Undone: true}),
			"UPDATE timed out and was undone: no row was updated (the --timeout limit, 30s; 0 turns it off)"},
		{cancelled, wrap(cancelled, engine.WriteError{Verb: "DELETE", Done: 4000, Undone: true}),
			"DELETE cancelled and was undone: no row was deleted"},
		{expired, fmt.Errorf("scan: %w", context.DeadlineExceeded),
			"statement timed out after 30s (the --timeout limit; 0 turns it off)"},
	} {
		if got := stmtError(tc.ctx, tc.err, st, 30*time.Second).msg; got != tc.want {
			t.Errorf("%v:\n got %q\nwant %q", tc.err, got, tc.want)
		}
	}
}
