package hbasestore

import (
	"strings"
	"testing"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/hbase/filter"
)

// TestQualifierFilter checks the filter each kind of qualifier range
// becomes: a point a QualifierFilter, a prefix a ColumnPrefixFilter, any
// other range a ColumnRangeFilter, with a FamilyFilter for the table's
// other families.
func TestQualifierFilter(t *testing.T) {
	q := &exec.QualifierRanges{Family: "d", Ranges: []exec.Range{
		{Start: []byte("a"), Stop: []byte("a\x00")},
		{Start: []byte("doc-1"), Stop: []byte("doc-2")},
		{Start: []byte("m"), Stop: []byte("p")},
		{Start: []byte("x")},
	}}
	f, how := qualifierFilter(q)
	want := "FilterList(MUST_PASS_ONE: QualifierFilter(= 'a'), ColumnPrefixFilter('doc-1'), ColumnRangeFilter(['m', 'p')), ColumnRangeFilter(['x', )), FamilyFilter(!= 'd'))"
	if len(how) != 1 || how[0] != want {
		t.Errorf("how = %q\nwant %q", how, want)
	}
	l, ok := f.(filter.List)
	if !ok || l.Operator != filter.MustPassOne || len(l.Filters) != 5 {
		t.Fatalf("filter = %#v", f)
	}
	if r, ok := l.Filters[3].(filter.ColumnRange); !ok || string(r.Min) != "x" || r.Max != nil || !r.MinInclusive {
		t.Errorf("open range = %#v", l.Filters[3])
	}
	q.Alone = true
	q.Ranges = q.Ranges[1:2]
	if f, how := qualifierFilter(q); strings.Join(how, "") != "ColumnPrefixFilter('doc-1')" {
		t.Errorf("alone: %T %q", f, how)
	}
}

// TestProjectionOfEntries checks that a MAP read by entries asks for
// those cells of its family, and never for them as the stripped first
// cell, while a MAP read whole asks for its family.
func TestProjectionOfEntries(t *testing.T) {
	cat, err := exectest.QualifierCatalog("")
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("profiles")
	tags, _ := tb.Column("tags")
	whole := projection(exec.ReadOptions{Table: tb, Columns: []int{tags}}, nil)
	if l := whole.(filter.List); len(l.Filters) != 2 {
		t.Errorf("whole map: %#v", whole)
	}
	byEntries := projection(exec.ReadOptions{Table: tb, Columns: []int{tags}, Entries: map[int][][]byte{tags: {[]byte("golf"), []byte("music")}}}, nil)
	l := byEntries.(filter.List)
	if len(l.Filters) != 3 {
		t.Fatalf("by entries: %#v", byEntries)
	}
	for _, f := range l.Filters[1:] {
		and, ok := f.(filter.List)
		if !ok || and.Operator != filter.MustPassAll || len(and.Filters) != 2 {
			t.Errorf("entry filter %#v is not family AND qualifier", f)
		}
	}
}

// TestQualifierFilterLongList checks that many points become one range.
func TestQualifierFilterLongList(t *testing.T) {
	q := &exec.QualifierRanges{Family: "d", Alone: true}
	for i := 0; i < maxServerTests+1; i++ {
		p := []byte{byte(i >> 8), byte(i)}
		q.Ranges = append(q.Ranges, exec.Range{Start: p, Stop: append(append([]byte(nil), p...), 0)})
	}
	f, how := qualifierFilter(q)
	r, ok := f.(filter.ColumnRange)
	if !ok || len(how) != 1 || string(r.Min) != "\x00\x00" || r.Max == nil {
		t.Errorf("%d points: %#v %q", len(q.Ranges), f, how)
	}
}
