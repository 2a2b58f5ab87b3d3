package hbasetest

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// fakeAdmin records the calls DropAtEnd makes.
type fakeAdmin struct {
	calls []string
	fail  error
}

func (a *fakeAdmin) DisableTable(_ context.Context, table string) error {
	a.calls = append(a.calls, "disable "+table)
	return a.fail
}

func (a *fakeAdmin) DeleteTable(_ context.Context, table string) error {
	a.calls = append(a.calls, "delete "+table)
	return a.fail
}

// TestDropAtEnd: the table is disabled then deleted when the test ends,
// not before.
func TestDropAtEnd(t *testing.T) {
	a := &fakeAdmin{}
	t.Run("inner", func(t *testing.T) {
		DropAtEnd(t, a, "x")
		if len(a.calls) != 0 {
			t.Errorf("dropped before the end: %v", a.calls)
		}
	})
	if want := []string{"disable x", "delete x"}; !slices.Equal(a.calls, want) {
		t.Errorf("calls %v, want %v", a.calls, want)
	}
}

// TestWhileRunning: checks run while the operation does, one runs after
// it succeeds, and none after it fails.
func TestWhileRunning(t *testing.T) {
	release := make(chan struct{})
	var seen []int
	n, err := WhileRunning(func() error { <-release; return nil }, func(i int) {
		seen = append(seen, i)
		if i == 2 {
			close(release)
		}
	})
	if err != nil || n < 4 || n != len(seen) || seen[n-1] != n-1 {
		t.Errorf("ran %d checks %v, %v; want at least 4 (three while running, one after)", n, seen, err)
	}
	boom := errors.New("boom")
	release = make(chan struct{})
	seen = nil
	n, err = WhileRunning(func() error { <-release; return boom }, func(i int) {
		seen = append(seen, i)
		if i == 0 {
			close(release)
		}
	})
	if !errors.Is(err, boom) || n != len(seen) {
		t.Errorf("ran %d checks %v, %v; want the error and no check after it", n, seen, err)
	}
}
