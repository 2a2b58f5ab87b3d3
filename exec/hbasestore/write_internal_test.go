package hbasestore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

func TestRounds(t *testing.T) {
	cases := []struct {
		keys string // one key per letter
		want string // rounds separated by '|'
	}{
		{"", ""},
		{"abc", "abc"},
		{"aba", "ab|a"},
		{"aaab", "ab|a|a"},
		{"abcabca", "abc|abc|a"},
	}
	for _, c := range cases {
		t.Run(c.keys, func(t *testing.T) {
			var muts []exec.Mutation
			for i, k := range c.keys {
				muts = append(muts, exec.Mutation{Key: []byte{byte(k)}, Cells: []exec.Cell{{Value: []byte{byte(i)}}}})
			}
			var parts []string
			for _, r := range rounds(muts) {
				var b strings.Builder
				last := -1
				for _, m := range r {
					b.Write(m.Key)
					// Within a round, mutations keep their order.
					if i := int(m.Cells[0].Value[0]); i < last {
						t.Errorf("round %q out of order", b.String())
					} else {
						last = i
					}
				}
				parts = append(parts, b.String())
			}
			if got := strings.Join(parts, "|"); got != c.want {
				t.Errorf("rounds %q, want %q", got, c.want)
			}
		})
	}
}

func TestNextTimestamp(t *testing.T) {
	now := time.UnixMilli(1000)
	s := &Store{opts: Options{Clock: func() time.Time { return now }}.withDefaults()}
	var got []int64
	for range 3 {
		got = append(got, s.nextTimestamp())
	}
	now = time.UnixMilli(2000)
	got = append(got, s.nextTimestamp())
	now = time.UnixMilli(1500) // the clock goes back
	got = append(got, s.nextTimestamp())
	if fmt.Sprint(got) != "[1000 1001 1002 2000 2001]" {
		t.Errorf("timestamps %v", got)
	}
}

func TestToHBaseRejects(t *testing.T) {
	if _, err := toHBase("t", &exec.Mutation{}, 5); err == nil {
		t.Error("empty key accepted")
	}
	m := &exec.Mutation{Key: []byte("k"), Cells: []exec.Cell{{Family: "f", Timestamp: -2}}}
	if _, err := toHBase("t", m, 5); err == nil {
		t.Error("negative timestamp accepted")
	}
	m = &exec.Mutation{Key: []byte("k"), DeleteRow: true, Cells: []exec.Cell{{Family: "f", Qualifier: "q"}}}
	ms, err := toHBase("t", m, 5)
	if err != nil || len(ms) != 2 {
		t.Fatalf("row rewrite: %d mutations, %v", len(ms), err)
	}
	if _, ok := ms[0].(*hbase.Delete); !ok {
		t.Errorf("first mutation is %T, want the delete", ms[0])
	}
}

// TestIntegrationScanPrefetch checks that Scan sends its first RPC before
// the first Next: 16 scans opened one after another are all under way
// before any is read.
func TestIntegrationScanPrefetch(t *testing.T) {
	q := hbasetest.Quorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Open(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	name := hbasetest.TableName("rkql_prefetch")
	var splits [][]byte
	for i := 1; i < 16; i++ {
		splits = append(splits, []byte{byte(i)})
	}
	if err := s.CreateTable(ctx, exec.TableSpec{Name: name, Families: []exec.FamilySpec{{Name: "f"}}, Splits: splits}); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := s.DropTable(context.Background(), name); err != nil {
			t.Error(err)
		}
	}()
	var its []*scanIter
	for i := range 16 {
		it, err := s.Scan(ctx, name, exec.Range{Start: []byte{byte(i)}, Stop: []byte{byte(i + 1)}}, exec.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		its = append(its, it.(*scanIter))
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, it := range its {
		for it.sc.Stats().Regions == 0 {
			if time.Now().After(deadline) {
				t.Fatal("a scan has not opened its region without a Next")
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}
