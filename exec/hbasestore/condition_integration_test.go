package hbasestore_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/expr"
)

// TestConditionOverflow: on HBase, which cannot push arithmetic, an
// integer overflow in a WHERE condition fails the statement in the
// client's filter with the select list's error, with pushdown on and
// off; a pushed term that rejects the row first keeps it from failing,
// and a DELETE that fails deletes nothing.
func TestConditionOverflow(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, hbasestore.Options{CompressionFallback: true})
	cat, names := scratchCatalog(t)
	dropAtEnd(t, st, names)
	e := engine.New(engine.Config{Catalog: cat, CreateOnDemand: true, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	if _, _, err := e.Exec(ctx, "INSERT INTO sites (domain, owner, visits) VALUES ('a.com', 'o1', 9223372036854775807), ('b.com', 'o2', 5)"); err != nil {
		t.Fatal(err)
	}
	_, err := result(ctx, e, "SELECT visits + 1 FROM sites ALLOW FULL SCAN")
	if !errors.Is(err, expr.ErrOverflow) {
		t.Fatalf("the select list: got %v, want an overflow", err)
	}
	want := err.Error()
	for _, on := range []bool{true, false} {
		e.SetPushdown(on)
		for _, q := range []string{
			"SELECT domain FROM sites WHERE visits + 1 > 0 ALLOW FULL SCAN",
			"SELECT domain FROM sites WHERE owner = 'o1' AND visits + 1 > 0",
			"DELETE FROM sites WHERE visits + 1 > 0 ALLOW FULL SCAN",
		} {
			got, _, err := e.Exec(ctx, q)
			if err == nil || err.Error() != want {
				t.Errorf("pushdown %v: %s: got %d rows and %v, want %q", on, q, len(got), err, want)
			}
		}
		got, err := result(ctx, e, "SELECT domain FROM sites WHERE owner = 'o2' AND visits + 1 > 0 ALLOW FULL SCAN")
		if err != nil || !slices.Equal(got, []string{"('b.com')"}) {
			t.Errorf("pushdown %v: owner = 'o2' AND visits + 1 > 0: got %v, %v, want b.com", on, got, err)
		}
	}
	got, err := result(ctx, e, "SELECT domain FROM sites ALLOW FULL SCAN")
	if err != nil || len(got) != 2 {
		t.Errorf("after the failed DELETEs: got %v, %v, want both rows", got, err)
	}
}
