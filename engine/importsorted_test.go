package engine

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rkql/rkql/exec"
)

// The sorter yields every mutation, encoded and decoded again, in key order, mutations of one key in
// the order they were added, whether its runs stay in memory or spill.
func TestMutationSorter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var in []exec.Mutation
	for i := range 3000 {
		m := exec.Mutation{Key: fmt.Appendf(nil, "k%03d", r.IntN(700))}
		switch i % 3 {
		case 0:
			m.Cells = []exec.Cell{{Family: "f", Qualifier: "q", Timestamp: int64(i), Value: fmt.Appendf(nil, "v%d", i)}}
		case 1:
			m.Cells = []exec.Cell{{Family: "f", Qualifier: "a", Value: []byte{}}, {Family: "g", Qualifier: "b", Timestamp: -1, Value: []byte{0, 1}}}
			m.Deletes = []exec.Cell{{Family: "f", Qualifier: "q"}}
		case 2:
			m.DeleteRow = true
		}
		in = append(in, m)
	}
	// The expected order, by an independent stable sort.
	want := slices.Clone(in)
	slices.SortStableFunc(want, func(a, b exec.Mutation) int { return bytes.Compare(a.Key, b.Key) })
	for _, limit := range []int{1 << 30, 4096, 300} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			s := newMutationSorter(limit)
			defer s.Close()
			for i := range in {
				if err := s.add(&in[i]); err != nil {
					t.Fatal(err)
				}
			}
			if limit < 1<<30 && s.s.Runs() < 2 {
				t.Fatalf("%d runs spilled, want several", s.s.Runs())
			}
			var got []exec.Mutation
			err := s.each(512, func(b []exec.Mutation) error {
				if len(b) > 512 {
					t.Errorf("batch of %d, want at most 512", len(b))
				}
				got = append(got, b...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("mutations (-want +got):\n%s", d)
			}
		})
	}
}
