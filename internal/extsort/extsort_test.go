package extsort

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
)

type rec struct{ key, value string }

// The sorter yields every record in key order, records of one key in the
// order they were added, whether its runs stay in memory or spill.
func TestSorterOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var in []rec
	for i := range 3000 {
		v := fmt.Sprintf("v%d", i)
		if i%7 == 0 {
			v = "" // an empty value is a record too
		}
		in = append(in, rec{fmt.Sprintf("k%03d", r.IntN(700)), v})
	}
	in = append(in, rec{"", "empty key"})
	// The expected order, by an independent stable sort.
	want := slices.Clone(in)
	slices.SortStableFunc(want, func(a, b rec) int { return bytes.Compare([]byte(a.key), []byte(b.key)) })
	for _, limit := range []int{1 << 30, 4096, 300} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			s := New(limit)
			defer s.Close()
			for _, x := range in {
				if err := s.Add([]byte(x.key), []byte(x.value)); err != nil {
					t.Fatal(err)
				}
			}
			if limit < 1<<30 && s.Runs() < 2 {
				t.Fatalf("%d runs spilled, want several", s.Runs())
			}
			if limit == 1<<30 && s.Runs() != 0 {
				t.Fatalf("%d runs spilled, want none", s.Runs())
			}
			it, err := s.Iter()
			if err != nil {
				t.Fatal(err)
			}
			var got []rec
			for {
				k, v, err := it.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, rec{string(k), string(v)})
			}
			if !slices.Equal(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("record %d: got %q, want %q (%d records, want %d)", i, got[i], want[i], len(got), len(want))
					}
				}
				t.Fatalf("got %d records, want %d", len(got), len(want))
			}
			if err := s.Add([]byte("late"), nil); err == nil {
				t.Fatal("Add after Iter succeeded")
			}
		})
	}
}

// A spilled run whose bytes are changed under the sorter is reported, not
// read as records.
func TestSorterBadRecord(t *testing.T) {
	s := New(1)
	defer s.Close()
	for _, k := range []string{"b", "a"} {
		if err := s.Add([]byte(k), []byte("value")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.runs[0].WriteAt([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F}, 0); err != nil {
		t.Fatal(err)
	}
	_, err := s.Iter()
	if !errors.Is(err, ErrBadRecord) {
		t.Fatalf("Iter: %v, want ErrBadRecord", err)
	}
}
