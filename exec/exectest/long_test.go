package exectest

import (
	"fmt"
	"testing"
)

// TestSize: -short picks the short size whatever RKQL_LONG says;
// otherwise RKQL_LONG=1 picks the long one, and anything else the normal.
func TestSize(t *testing.T) {
	for _, c := range []struct {
		env  string
		want int
	}{{"1", 3}, {"", 2}, {"0", 2}} {
		t.Setenv(EnvLong, c.env)
		want := c.want
		if testing.Short() {
			want = 1
		}
		if got := Size(1, 2, 3); got != want {
			t.Errorf("%s=%q: Size(1, 2, 3) = %d, want %d", EnvLong, c.env, got, want)
		}
	}
}

// TestAddCounts: every counter of a run's statistics is summed, and the
// other fields are left to the caller.
func TestAddCounts(t *testing.T) {
	s := WriteStats{Ops: 1, Hidden: 2, Known: map[string]int{"a": 1}}
	s.add(WriteStats{Ops: 10, UpdatedRows: 3, Hidden: 5, Known: map[string]int{"a": 2, "b": 1}})
	want := WriteStats{Ops: 11, UpdatedRows: 3, Hidden: 7, Known: map[string]int{"a": 3, "b": 1}}
	if fmt.Sprint(s) != fmt.Sprint(want) {
		t.Errorf("got %+v, want %+v", s, want)
	}
	var q SQLiteStats
	q.Add(SQLiteStats{Tables: 1, BothRefused: 2, Differ: []string{"x"}})
	q.Add(SQLiteStats{Tables: 1, NonEmpty: 4})
	if q.Tables != 2 || q.BothRefused != 2 || q.NonEmpty != 4 || len(q.Differ) != 1 {
		t.Errorf("got %+v", q)
	}
}
