package planner_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// countdown is a context whose Err says it was cancelled from its at-th
// call on (never, when at is 0), and counts its calls: it ends a
// planning at a chosen check, with no clock involved.
type countdown struct {
	context.Context
	at    int64
	calls atomic.Int64
}

func (c *countdown) Err() error {
	if n := c.calls.Add(1); c.at > 0 && n >= c.at {
		return context.Canceled
	}
	return nil
}

// TestPlanCancelled plans statements that take long (a huge IN list,
// the key ranges of IN lists on several key fields, a union of many OR
// branches), ending the context at checks spread over the whole
// planning: each time Plan must return context.Canceled, so that no check
// is ignored and the loops that run long check.
func TestPlanCancelled(t *testing.T) {
	pl := planner.New(exampleCatalog(t), planner.Options{})
	list := func(n int, f func(int) string) string {
		vals := make([]string, n)
		for i := range vals {
			vals[i] = f(i)
		}
		return strings.Join(vals, ", ")
	}
	var ors []string
	for i := range 300 {
		ors = append(ors, fmt.Sprintf("(seller = 's%d' AND ts = TIMESTAMP '2024-05-01 10:00:00' AND order_id = %d)", i, i))
	}
	for _, c := range []struct{ name, q string }{
		{"in-list", "SELECT * FROM orders WHERE seller = 's1' AND order_id IN (" + list(10000, func(i int) string { return fmt.Sprint(i) }) + ") ALLOW FULL SCAN"},
		{"key-ranges", "SELECT * FROM user_calendar_record WHERE uid IN (" + list(40, func(i int) string { return fmt.Sprint(i + 1) }) +
			") AND date IN (" + list(40, func(i int) string { return fmt.Sprintf("DATE '2024-01-%02d'", i%28+1) }) + ") AND type IN (1, 2, 3)"},
		{"or-union", "SELECT * FROM orders WHERE " + strings.Join(ors, " OR ")},
	} {
		t.Run(c.name, func(t *testing.T) {
			stmt, err := parser.ParseOne(c.q)
			if err != nil {
				t.Fatal(err)
			}
			full := &countdown{Context: context.Background()}
			if _, err := pl.Plan(full, stmt); err != nil {
				t.Fatalf("not cancelled: %v", err)
			}
			checks := full.calls.Load()
			if checks < 100 {
				t.Fatalf("planning checked its context %d times; want the long loops to check it", checks)
			}
			for i := int64(0); i < 25; i++ {
				at := 1 + i*(checks-1)/24
				_, err := pl.Plan(&countdown{Context: context.Background(), at: at}, stmt)
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("cancelled at check %d of %d: got %v, want context.Canceled", at, checks, err)
				}
			}
		})
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	stmt, err := parser.ParseOne("SELECT * FROM orders WHERE seller = 's1'")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pl.Plan(cancelled, stmt); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled context: got %v, want context.Canceled", err)
	}
}
