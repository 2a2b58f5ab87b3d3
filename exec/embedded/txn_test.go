package embedded

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/exec"
)

// TestAtomically checks a statement's transaction: its writes span
// several of Options.RowsPerTx and its Gets see them, scans see the store
// as committed, an error or a cancel leaves nothing, a reopened store
// holds what committed, and a change of tables inside one is refused
// rather than left waiting for it.
func TestAtomically(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, dir, Options{RowsPerTx: 3})
	if err := s.CreateTable(ctx, testSpec("t1")); err != nil {
		t.Fatal(err)
	}
	putKeys(t, s, "t1", "a")
	keys := func(n int, prefix string) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("%s%02d", prefix, i))
		}
		return out
	}
	boom := errors.New("boom")
	err := s.Atomically(ctx, func() error {
		putKeys(t, s, "t1", keys(10, "b")...)
		rows, err := s.Get(ctx, "t1", [][]byte{[]byte("b09")}, exec.ReadOptions{})
		if err != nil || len(rows) != 1 {
			t.Errorf("Get inside the transaction: %v %v, want its own write", rows, err)
		}
		if got := scanRows(t, s, "t1", exec.Range{}, exec.ReadOptions{}); len(got) != 1 {
			t.Errorf("scan inside the transaction: %q, want the committed row alone", got)
		}
		if err := s.CreateTable(ctx, testSpec("t2")); !errors.Is(err, errInTxn) {
			t.Errorf("CreateTable inside: %v, want errInTxn", err)
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want fn's", err)
	}
	if got := scanRows(t, s, "t1", exec.Range{}, exec.ReadOptions{}); len(got) != 1 {
		t.Fatalf("after the rollback: %q, want the first row alone", got)
	}
	cctx, cancel := context.WithCancel(ctx)
	err = s.Atomically(cctx, func() error {
		putKeys(t, s, "t1", keys(10, "c")...)
		cancel()
		return s.Mutate(cctx, "t1", []exec.Mutation{{Key: []byte("d"), Cells: []exec.Cell{cell("cf:q", 1, "d")}}})
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the cancel", err)
	}
	if err := s.Atomically(ctx, func() error { putKeys(t, s, "t1", keys(10, "e")...); return nil }); err != nil {
		t.Fatal(err)
	}
	want := append([]string{"a"}, keys(10, "e")...)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTest(t, dir, Options{})
	var got []string
	for _, r := range scanRows(t, s, "t1", exec.Range{}, exec.ReadOptions{}) {
		got = append(got, strings.Fields(r)[0])
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("reopened: %q, want %q", got, want)
	}
}

// TestAtomicallyBudget checks that a statement's transaction refuses more
// row writes than Options.MaxTxnRows, and leaves nothing.
func TestAtomicallyBudget(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t, Options{MaxTxnRows: 15})
	var keys []string
	for i := range 10 {
		keys = append(keys, fmt.Sprintf("k%02d", i))
	}
	err := s.Atomically(ctx, func() error {
		putKeys(t, s, "t1", keys...)
		muts := []exec.Mutation{}
		for _, k := range keys {
			muts = append(muts, exec.Mutation{Key: []byte(k + "x"), Cells: []exec.Cell{cell("cf:q", 1, k)}})
		}
		return s.Mutate(ctx, "t1", muts)
	})
	if err == nil || !strings.Contains(err.Error(), "more than 15 row writes") {
		t.Fatalf("err = %v, want the budget's", err)
	}
	if got := scanRows(t, s, "t1", exec.Range{}, exec.ReadOptions{}); len(got) != 0 {
		t.Errorf("after a refused transaction: %q, want nothing", got)
	}
}
