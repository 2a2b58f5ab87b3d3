package embedded

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/rkql/rkql/exec"
)

func put(key string, cells ...exec.Cell) exec.Mutation {
	return exec.Mutation{Key: []byte(key), Cells: cells}
}

// mutateCase is a sequence of Mutate calls and the rows they leave.
type mutateCase struct {
	name  string
	calls [][]exec.Mutation // each inner slice is one Mutate call
	want  []string          // scan with 3 versions
}

func mutateCases() []mutateCase {
	return []mutateCase{
		{
			name:  "cells sorted by family, qualifier, newest first",
			calls: [][]exec.Mutation{{put("r", cell("one:b", 1, "1"), cell("cf:z", 2, "2"), cell("cf:a", 1, "3"), cell("cf:a", 7, "4"))}},
			want:  []string{"r cf:a@7=4 cf:a@1=3 cf:z@2=2 one:b@1=1"},
		},
		{
			name:  "same timestamp replaces",
			calls: [][]exec.Mutation{{put("r", cell("cf:q", 10, "old"))}, {put("r", cell("cf:q", 10, "new"))}},
			want:  []string{"r cf:q@10=new"},
		},
		{
			name:  "same cell twice in one call keeps the last",
			calls: [][]exec.Mutation{{put("r", cell("cf:q", 10, "a")), put("r", cell("cf:q", 10, "b"))}},
			want:  []string{"r cf:q@10=b"},
		},
		{
			name: "older than the kept versions is dropped",
			calls: [][]exec.Mutation{
				{put("r", cell("cf:q", 10, "a"), cell("cf:q", 20, "b"), cell("cf:q", 30, "c"))},
				{put("r", cell("cf:q", 5, "old"))},
			},
			want: []string{"r cf:q@30=c cf:q@20=b cf:q@10=a"},
		},
		{
			name: "newer pushes the oldest out",
			calls: [][]exec.Mutation{
				{put("r", cell("cf:q", 10, "a"), cell("cf:q", 20, "b"), cell("cf:q", 30, "c"))},
				{put("r", cell("cf:q", 15, "mid"))},
			},
			want: []string{"r cf:q@30=c cf:q@20=b cf:q@15=mid"},
		},
		{
			name: "delete row then put",
			calls: [][]exec.Mutation{
				{put("r", cell("cf:a", 1, "a"), cell("cf:b", 1, "b")), put("s", cell("cf:a", 1, "s"))},
				{{Key: []byte("r"), DeleteRow: true, Cells: []exec.Cell{cell("cf:c", 2, "c")}}},
			},
			want: []string{"r cf:c@2=c", "s cf:a@1=s"},
		},
		{
			name: "delete row alone",
			calls: [][]exec.Mutation{
				{put("r", cell("cf:a", 1, "a")), put("s", cell("cf:a", 1, "s"))},
				{{Key: []byte("r"), DeleteRow: true}, {Key: []byte("missing"), DeleteRow: true}},
			},
			want: []string{"s cf:a@1=s"},
		},
		{
			name: "delete then put in one call applies in order",
			calls: [][]exec.Mutation{{
				put("r", cell("cf:a", 1, "a")),
				{Key: []byte("r"), DeleteRow: true},
				put("r", cell("cf:b", 1, "b")),
			}},
			want: []string{"r cf:b@1=b"},
		},
		{
			name:  "put with no cells writes nothing",
			calls: [][]exec.Mutation{{put("r")}},
			want:  nil,
		},
		{
			// Delete.addColumns(f, q, 20): versions at or before 20 go,
			// newer ones stay.
			name: "column delete up to its timestamp keeps newer versions",
			calls: [][]exec.Mutation{
				{put("r", cell("cf:a", 10, "a10"), cell("cf:a", 20, "a20"), cell("cf:a", 30, "a30"), cell("cf:b", 30, "b30"))},
				{{Key: []byte("r"), Deletes: []exec.Cell{cell("cf:a", 20, ""), cell("cf:b", 20, "")}}},
			},
			want: []string{"r cf:a@30=a30 cf:b@30=b30"},
		},
		{
			name: "column delete at 0 deletes up to the time of the write",
			calls: [][]exec.Mutation{
				{put("r", cell("cf:a", 10, "a10"), cell("cf:a", 1<<60, "future"), cell("cf:b", 10, "b10"))},
				{{Key: []byte("r"), Deletes: []exec.Cell{cell("cf:a", 0, "")}}},
			},
			want: []string{fmt.Sprintf("r cf:a@%d=future cf:b@10=b10", int64(1<<60))},
		},
		{
			name:  "empty and binary values",
			calls: [][]exec.Mutation{{put("\x00\xff", cell("cf:", 1, ""), cell("cf:\x00", 1, "\x00\x01"))}},
			want:  []string{"\x00\xff cf:@1= cf:\x00@1=\x00\x01"},
		},
	}
}

func TestMutate(t *testing.T) {
	for _, tc := range mutateCases() {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestStore(t, Options{})
			for _, muts := range tc.calls {
				mustMutate(t, s, "t1", muts...)
			}
			got := scanRows(t, s, "t1", exec.Range{}, exec.ReadOptions{Versions: 3})
			if !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if n, err := s.Count(context.Background(), "t1"); err != nil || n != int64(len(tc.want)) {
				t.Errorf("count = %d, %v; want %d", n, err, len(tc.want))
			}
		})
	}
}

func TestMutateErrors(t *testing.T) {
	tests := []struct {
		name string
		muts []exec.Mutation
		want string
	}{
		{"unknown family", []exec.Mutation{put("a", cell("cf:q", 1, "x")), put("b", cell("nope:q", 1, "x"))},
			"embedded: table t1 has no family nope"},
		{"empty key", []exec.Mutation{put("", cell("cf:q", 1, "x"))}, "embedded: table t1: empty row key"},
		{"key too long", []exec.Mutation{put(strings.Repeat("k", 1<<15), cell("cf:q", 1, "x"))},
			"embedded: table t1: row key of 32768 bytes is longer than 32767"},
		{"negative timestamp", []exec.Mutation{put("a", cell("cf:q", -1, "x"))},
			"embedded: table t1: row a: negative timestamp -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestStore(t, Options{})
			err := s.Mutate(context.Background(), "t1", tc.muts)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if n, _ := s.Count(context.Background(), "t1"); n != 0 {
				t.Errorf("%d rows written by a failed call", n)
			}
		})
	}
}

func TestMutateTimestamps(t *testing.T) {
	clock := newTestClock()
	s := newTestStore(t, Options{Clock: clock.Now})
	t0 := clock.Now().UnixMilli()
	// The clock does not move: each call still gets a later timestamp, and
	// all cells of one call share one.
	mustMutate(t, s, "t1", put("a", cell("cf:x", 0, "1"), cell("cf:y", 0, "1")), put("b", cell("cf:x", 0, "1")))
	mustMutate(t, s, "t1", put("a", cell("cf:x", 0, "2")))
	mustMutate(t, s, "t1", put("a", cell("cf:x", 42, "old")))
	got := scanRows(t, s, "t1", exec.Range{}, exec.ReadOptions{Versions: 3})
	want := []string{
		fmt.Sprintf("a cf:x@%d=2 cf:x@%d=1 cf:x@42=old cf:y@%d=1", t0+1, t0, t0),
		fmt.Sprintf("b cf:x@%d=1", t0),
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestMutateLargeUnsortedBatch(t *testing.T) {
	s := newTestStore(t, Options{RowsPerTx: 100})
	const n = 1050
	muts := make([]exec.Mutation, n)
	for i, p := range rand.New(rand.NewPCG(1, 2)).Perm(n) {
		k := fmt.Sprintf("k%04d", p)
		muts[i] = put(k, cell("cf:q", 1, k), cell("one:q", 1, strings.Repeat("v", p%50)))
	}
	mustMutate(t, s, "t1", muts...)
	if c, err := s.Count(context.Background(), "t1"); err != nil || c != n {
		t.Fatalf("count = %d, %v; want %d", c, err, n)
	}
	rows := scanRows(t, s, "t1", exec.Range{}, exec.ReadOptions{})
	for i, r := range rows {
		k := fmt.Sprintf("k%04d", i)
		want := fmt.Sprintf("%s cf:q@1=%s one:q@1=%s", k, k, strings.Repeat("v", i%50))
		if r != want {
			t.Fatalf("row %d: got %q, want %q", i, r, want)
		}
	}
	if len(rows) != n {
		t.Errorf("scan returned %d rows, want %d", len(rows), n)
	}
}

func TestMutateCancelled(t *testing.T) {
	s := newTestStore(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.Mutate(ctx, "t1", []exec.Mutation{put("a", cell("cf:q", 1, "x"))})
	if err != context.Canceled {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func TestMutateAppendPath(t *testing.T) {
	// Each step is one Mutate call; the first two append past the table's
	// end, the third lands between existing keys, the fourth repeats a key
	// in an appending batch.
	s := newTestStore(t, Options{})
	mustMutate(t, s, "t1", put("m", cell("cf:q", 1, "m1")))
	mustMutate(t, s, "t1", put("n", cell("cf:q", 1, "n1")), put("o", cell("cf:q", 1, "o1")))
	mustMutate(t, s, "t1", put("a", cell("cf:q", 1, "a1")), put("m", cell("cf:q", 2, "m2")), put("z", cell("cf:q", 1, "z1")))
	mustMutate(t, s, "t1", put("zz", cell("cf:q", 1, "zz1")), put("zz", cell("cf:q", 2, "zz2")), put("zzz", cell("cf:r", 1, "zzz1")))
	got := scanRows(t, s, "t1", exec.Range{}, exec.ReadOptions{Versions: 3})
	want := []string{
		"a cf:q@1=a1", "m cf:q@2=m2 cf:q@1=m1", "n cf:q@1=n1", "o cf:q@1=o1",
		"z cf:q@1=z1", "zz cf:q@2=zz2 cf:q@1=zz1", "zzz cf:r@1=zzz1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestMutateAppendFillsPages(t *testing.T) {
	s := newTestStore(t, Options{})
	mustMutate(t, s, "t1", benchMutations(20000)...)
	err := s.db.View(func(tx *bolt.Tx) error {
		st := tx.Bucket([]byte("t1")).Stats()
		if fill := float64(st.LeafInuse) / float64(st.LeafAlloc); fill < 0.8 {
			t.Errorf("leaf pages %.0f%% full after a sorted load, want >= 80%%", 100*fill)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
