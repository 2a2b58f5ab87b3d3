package hbase

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rkql/rkql/hbase/filter"
	"github.com/rkql/rkql/hbase/internal/pb"
)

func TestNewGet(t *testing.T) {
	g, err := NewGet("t", []byte("k"), Columns("cf", "a", "b"), Families("meta"), Versions(3),
		TimeRange(10, 20), WithFilter(filter.KeyOnly{}))
	if err != nil {
		t.Fatal(err)
	}
	p := g.pb
	if string(p.Row) != "k" || len(p.Column) != 2 || len(p.Column[0].Qualifier) != 2 || string(p.Column[1].Family) != "meta" ||
		p.GetMaxVersions() != 3 || p.GetTimeRange().GetFrom() != 10 || p.GetTimeRange().GetTo() != 20 ||
		p.GetFilter().GetName() != "org.apache.hadoop.hbase.filter.KeyOnlyFilter" {
		t.Errorf("get proto %v", p)
	}
	if g.Table() != "t" || string(g.Key()) != "k" {
		t.Error("accessors")
	}
}

func TestRaw(t *testing.T) {
	raw := func(attrs []*pb.NameBytesPair) bool {
		for _, a := range attrs {
			if a.GetName() == "_raw_" && len(a.Value) == 1 && a.Value[0] != 0 {
				return true
			}
		}
		return false
	}
	g, err := NewGet("t", []byte("k"), Raw())
	if err != nil || !raw(g.pb.Attribute) {
		t.Errorf("raw get: %v, %v", g, err)
	}
	s, err := NewScan("t", nil, nil, Raw())
	if err != nil || !raw(s.pb.Attribute) {
		t.Errorf("raw scan: %v, %v", s, err)
	}
	g, _ = NewGet("t", []byte("k"))
	s, _ = NewScan("t", nil, nil)
	if raw(g.pb.Attribute) || raw(s.pb.Attribute) {
		t.Error("a plain get or scan is raw")
	}
}

func TestRequestErrors(t *testing.T) {
	long := make([]byte, maxKeyLen+1)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"get-empty-table", second(NewGet("", []byte("k"))), "empty table name"},
		{"get-empty-key", second(NewGet("t", nil)), "empty row key"},
		{"get-long-key", second(NewGet("t", long)), "longer than 32767"},
		{"get-reversed", second(NewGet("t", []byte("k"), Reversed())), "Reversed does not apply to a get"},
		{"get-timestamp", second(NewGet("t", []byte("k"), Timestamp(1))), "Timestamp does not apply to a get"},
		{"get-empty-family", second(NewGet("t", []byte("k"), Families(""))), "empty column family"},
		{"get-zero-option", second(NewGet("t", []byte("k"), Option{})), "zero Option"},
		{"get-bad-filter", second(NewGet("t", []byte("k"), WithFilter(filter.Page{Size: -1}))), "negative page size"},
		{"scan-backwards", second(NewScan("t", []byte("b"), []byte("a"))), "past stop key"},
		{"scan-reversed-backwards", second(NewScan("t", []byte("a"), []byte("b"), Reversed())), "past stop key"},
		{"scan-negative", second(NewScan("t", nil, nil, Caching(-1))), "negative"},
		{"scan-long-stop", second(NewScan("t", nil, long)), "longer than 32767"},
		{"get-negative-time", second(NewGet("t", []byte("k"), TimeRange(-1, 5))), "time range [-1, 5)"},
		{"scan-time-backwards", second(NewScan("t", nil, nil, TimeRange(5, 4))), "time range [5, 4)"},
		{"get-scan-metrics", second(NewGet("t", []byte("k"), TrackScanMetrics())), "TrackScanMetrics does not apply to a get"},
		{"put-no-cells", second(NewPut("t", []byte("k"), nil)), "no cells"},
		{"put-no-family", second(NewPut("t", []byte("k"), []Cell{{Qualifier: []byte("q")}})), "without a family"},
		{"put-other-row", second(NewPut("t", []byte("k"), []Cell{{Row: []byte("x"), Family: []byte("f")}})), "is not the put's row"},
		{"put-versions", second(NewPut("t", []byte("k"), []Cell{{Family: []byte("f")}}, Versions(2))), "Versions does not apply to a put"},
		{"delete-raw", second(NewDelete("t", []byte("k"), Raw())), "Raw does not apply to a delete"},
		{"delete-filter", second(NewDelete("t", []byte("k"), WithFilter(filter.KeyOnly{}))), "WithFilter does not apply to a delete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil || !strings.Contains(tt.err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", tt.err, tt.want)
			}
		})
	}
}

func second[T any](_ T, err error) error { return err }

func TestNewScan(t *testing.T) {
	s, err := NewScan("t", []byte("z"), []byte("a"), Reversed(), Caching(7), MaxResultSize(100), Limit(3), MaxVersions(2))
	if err != nil {
		t.Fatal(err)
	}
	if !s.pb.GetReversed() || s.pb.GetMaxVersions() != 2 || s.opts.caching != 7 || s.opts.maxResultSize != 100 || s.opts.limit != 3 {
		t.Errorf("scan %+v", s)
	}
	if _, err := NewScan("t", nil, nil); err != nil {
		t.Errorf("open scan: %v", err)
	}
}

func TestNewPut(t *testing.T) {
	p, err := NewPut("t", []byte("k"), []Cell{
		{Family: []byte("a"), Qualifier: []byte("q1"), Value: []byte("1")},
		{Family: []byte("b"), Qualifier: []byte("q2"), Value: []byte("2"), Timestamp: 5},
		{Row: []byte("k"), Family: []byte("a"), Qualifier: []byte("q3")},
	}, Timestamp(9))
	if err != nil {
		t.Fatal(err)
	}
	m := p.proto()
	if m.GetMutateType() != pb.MutationProto_PUT || m.GetTimestamp() != 9 || len(m.ColumnValue) != 2 {
		t.Fatalf("put %v", m)
	}
	a, b := m.ColumnValue[0], m.ColumnValue[1]
	if string(a.Family) != "a" || len(a.QualifierValue) != 2 || a.QualifierValue[0].Timestamp != nil ||
		string(a.QualifierValue[1].Qualifier) != "q3" || a.QualifierValue[1].Value == nil {
		t.Errorf("family a: %v", a)
	}
	if string(b.Family) != "b" || b.QualifierValue[0].GetTimestamp() != 5 {
		t.Errorf("family b: %v", b)
	}
}

func TestNewDelete(t *testing.T) {
	d, err := NewDelete("t", []byte("k"))
	if err != nil || d.proto().GetMutateType() != pb.MutationProto_DELETE || len(d.proto().ColumnValue) != 0 || d.proto().Timestamp != nil {
		t.Fatalf("row delete %v %v", d, err)
	}
	d, err = NewDelete("t", []byte("k"), Families("f"), Columns("g", "q1", "q2"), Timestamp(7))
	if err != nil {
		t.Fatal(err)
	}
	cv := d.proto().ColumnValue
	if len(cv) != 2 || cv[0].QualifierValue[0].GetDeleteType() != pb.MutationProto_DELETE_FAMILY ||
		cv[0].QualifierValue[0].GetTimestamp() != 7 || len(cv[1].QualifierValue) != 2 ||
		cv[1].QualifierValue[1].GetDeleteType() != pb.MutationProto_DELETE_MULTIPLE_VERSIONS {
		t.Errorf("delete %v", cv)
	}
	// ColumnsAt: each column's own newest version to delete, as Java's
	// Delete.addColumns(f, q, ts); the others keep the Delete's.
	d, err = NewDelete("t", []byte("k"), ColumnsAt(5, "f", "a"), Columns("f", "b"), ColumnsAt(0, "g", "c"), Timestamp(9))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"f:a@5", "f:b@9", "g:c@0"}
	var got []string
	for _, cv := range d.proto().ColumnValue {
		for _, qv := range cv.QualifierValue {
			if qv.GetDeleteType() != pb.MutationProto_DELETE_MULTIPLE_VERSIONS || qv.Timestamp == nil {
				t.Errorf("%s:%s: %v", cv.Family, qv.Qualifier, qv)
			}
			got = append(got, fmt.Sprintf("%s:%s@%d", cv.Family, qv.Qualifier, qv.GetTimestamp()))
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ColumnsAt delete: %v, want %v", got, want)
	}
	for _, bad := range []Option{ColumnsAt(-1, "f", "a"), ColumnsAt(3, "f")} {
		if _, err := NewDelete("t", []byte("k"), bad); err == nil {
			t.Errorf("NewDelete with %s: no error", bad.name)
		}
	}
	if _, err := NewGet("t", []byte("k"), ColumnsAt(1, "f", "a")); err == nil {
		t.Errorf("ColumnsAt on a get: no error")
	}
}

func TestTableSpecProto(t *testing.T) {
	off := false
	spec := TableSpec{Name: "ns:t", Families: []FamilySpec{{
		Name: "f", Versions: 3, TTL: 90 * 60e9, Compression: "snappy", BloomFilter: "rowcol",
		BlockSize: 4096, BlockCache: &off, InMemory: true, Attributes: map[string]string{"DATA_BLOCK_ENCODING": "FAST_DIFF"},
	}}}
	p, err := spec.proto()
	if err != nil {
		t.Fatal(err)
	}
	if string(p.TableName.Namespace) != "ns" || string(p.TableName.Qualifier) != "t" {
		t.Errorf("table name %v", p.TableName)
	}
	got := map[string]string{}
	for _, a := range p.ColumnFamilies[0].Attributes {
		got[string(a.First)] = string(a.Second)
	}
	want := map[string]string{"VERSIONS": "3", "TTL": "5400", "COMPRESSION": "SNAPPY", "BLOOMFILTER": "ROWCOL",
		"BLOCKSIZE": "4096", "BLOCKCACHE": "false", "IN_MEMORY": "true", "DATA_BLOCK_ENCODING": "FAST_DIFF"}
	if len(got) != len(want) {
		t.Errorf("attributes %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	back := familyFromProto(p.ColumnFamilies[0])
	if back.Versions != 3 || back.TTL != 90*60e9 || back.Compression != "SNAPPY" || back.BlockCache == nil || *back.BlockCache ||
		!back.InMemory || back.Attributes["DATA_BLOCK_ENCODING"] != "FAST_DIFF" {
		t.Errorf("round trip %+v", back)
	}
	for _, bad := range []TableSpec{{}, {Name: "t"}, {Name: "t", Families: []FamilySpec{{}}}} {
		if _, err := bad.proto(); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
}

func TestBlockCache(t *testing.T) {
	s, err := NewScan("t", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGet("t", []byte("k"))
	if err != nil {
		t.Fatal(err)
	}
	if s.pb.CacheBlocks != nil || g.pb.CacheBlocks != nil {
		t.Errorf("cache_blocks set without BlockCache: scan %v, get %v", s.pb.CacheBlocks, g.pb.CacheBlocks)
	}
	for _, on := range []bool{false, true} {
		s, err := NewScan("t", nil, nil, BlockCache(on))
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewGet("t", []byte("k"), BlockCache(on))
		if err != nil {
			t.Fatal(err)
		}
		if s.pb.CacheBlocks == nil || *s.pb.CacheBlocks != on || g.pb.CacheBlocks == nil || *g.pb.CacheBlocks != on {
			t.Errorf("BlockCache(%v): scan %v, get %v", on, s.pb.CacheBlocks, g.pb.CacheBlocks)
		}
	}
	if _, err := NewPut("t", []byte("k"), []Cell{{Family: []byte("f"), Value: []byte("v")}}, BlockCache(false)); err == nil {
		t.Error("BlockCache accepted by a Put")
	}
}
