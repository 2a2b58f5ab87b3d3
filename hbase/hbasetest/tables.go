package hbasetest

import (
	"context"
	"testing"
	"time"
)

// Admin is what DropAtEnd needs of an HBase admin client (*hbase.Admin).
// The package names it, not hbase's type, so that hbase's own tests may
// use it.
type Admin interface {
	DisableTable(ctx context.Context, table string) error
	DeleteTable(ctx context.Context, table string) error
}

// DropAtEnd disables and deletes table when t ends, whatever happened: a
// test's tables are its own, and none outlives it. A failure is an error
// of t.
func DropAtEnd(t testing.TB, a Admin, table string) {
	t.Helper()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := a.DisableTable(ctx, table); err != nil {
			t.Errorf("disable %s: %v", table, err)
		}
		if err := a.DeleteTable(ctx, table); err != nil {
			t.Errorf("delete %s: %v", table, err)
		}
	})
}

// WhileRunning runs op in the background and calls check over and over
// while it runs, then, once op has returned nil, once more: a reader
// that must see the same answer while the cluster changes under it
// (regions reopening after an alter) and after. It returns how many
// checks ran and op's error; after an error it checks no more.
func WhileRunning(op func() error, check func(n int)) (int, error) {
	done := make(chan error, 1)
	go func() { done <- op() }()
	for n := 0; ; n++ {
		select {
		case err := <-done:
			if err != nil {
				return n, err
			}
			check(n)
			return n + 1, nil
		default:
		}
		check(n)
	}
}
