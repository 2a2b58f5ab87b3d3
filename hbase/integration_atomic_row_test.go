package hbase_test

import "testing"

// TestIntegrationIncrementExisting checks that a conditional increment
// writes nothing to a row that does not exist, counts from 0 in a row
// without the column, and returns the new value.
func TestIntegrationIncrementExisting(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	key, fam, q := []byte("r001"), []byte("cf"), []byte("n")
	if n, ok, err := e.c.IncrementExisting(ctx, e.table, key, fam, q, 5); err != nil || ok || n != 0 {
		t.Fatalf("no row: %d %v %v", n, ok, err)
	}
	if n, err := e.c.Increment(ctx, e.table, key, fam, []byte("other"), 1); err != nil || n != 1 {
		t.Fatalf("other column: %d %v", n, err)
	}
	if n, ok, err := e.c.IncrementExisting(ctx, e.table, key, fam, q, 5); err != nil || !ok || n != 5 {
		t.Fatalf("row without the column: %d %v %v", n, ok, err)
	}
	if n, ok, err := e.c.IncrementExisting(ctx, e.table, key, fam, q, -2); err != nil || !ok || n != 3 {
		t.Fatalf("again: %d %v %v", n, ok, err)
	}
}
