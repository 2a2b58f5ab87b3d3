package hbase

import (
	"fmt"
	"testing"

	"github.com/rkql/rkql/hbase/internal/pb"
	"google.golang.org/protobuf/proto"
)

func TestParseRegionName(t *testing.T) {
	tests := []struct {
		name, table, start string
		id                 uint64
		err                bool
	}{
		{name: "t,,1600000000000.0123456789abcdef0123456789abcdef.", table: "t", start: "", id: 1600000000000},
		{name: "ns:t,r020,1600000000001.abcdef.", table: "ns:t", start: "r020", id: 1600000000001},
		{name: "t,a,b,c,42.x.", table: "t", start: "a,b,c", id: 42},
		{name: "hbase:meta,,1", table: "hbase:meta", start: "", id: 1},
		{name: "t,k,7_0001.enc.", table: "t", start: "k", id: 7},
		{name: "t", err: true},
		{name: ",a,1", err: true},
		{name: "t,a", err: true},
		{name: "t,a,xyz.", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, start, id, err := parseRegionName([]byte(tt.name))
			if (err != nil) != tt.err {
				t.Fatalf("err = %v", err)
			}
			if err == nil && (table != tt.table || string(start) != tt.start || id != tt.id) {
				t.Errorf("got %q %q %d", table, start, id)
			}
		})
	}
}

// metaRow builds an hbase:meta row as the server returns it.
func metaRow(t *testing.T, ns, table, start, end string, id uint64, server string, offline, split bool) *Result {
	t.Helper()
	ri := &pb.RegionInfo{
		RegionId:  proto.Uint64(id),
		TableName: &pb.TableName{Namespace: []byte(ns), Qualifier: []byte(table)},
		StartKey:  []byte(start), EndKey: []byte(end),
		Offline: proto.Bool(offline), Split: proto.Bool(split),
	}
	b, err := proto.Marshal(ri)
	if err != nil {
		t.Fatal(err)
	}
	name := metaKey(table, []byte(start), fmt.Sprintf("%d.enc.", id))
	res := &Result{Row: name}
	res.Cells = append(res.Cells, Cell{Row: name, Family: []byte("info"), Qualifier: []byte("regioninfo"), Value: append([]byte("PBUF"), b...)})
	if server != "" {
		res.Cells = append(res.Cells, Cell{Row: name, Family: []byte("info"), Qualifier: []byte("server"), Value: []byte(server)})
	}
	return res
}

func TestRegionFromMeta(t *testing.T) {
	r, parent, err := regionFromMeta(metaRow(t, "default", "t", "b", "c", 7, "h:16020", false, false))
	if err != nil || parent {
		t.Fatal(err, parent)
	}
	if r.Table != "t" || string(r.StartKey) != "b" || string(r.EndKey) != "c" || r.ID != 7 || r.Server != "h:16020" || string(r.Name) != "t,b,7.enc." {
		t.Errorf("region %+v", r)
	}
	r, _, _ = regionFromMeta(metaRow(t, "ns", "t", "", "", 1, "", false, false))
	if r.Table != "ns:t" || r.Server != "" {
		t.Errorf("region %+v", r)
	}
	if _, parent, _ := regionFromMeta(metaRow(t, "default", "t", "", "", 1, "h:1", true, true)); !parent {
		t.Error("split parent not recognised")
	}
	if _, _, err := regionFromMeta(&Result{Row: []byte("t")}); err != errNotRegionRow {
		t.Errorf("row without regioninfo: %v", err)
	}
	bad := metaRow(t, "default", "t", "", "", 1, "", false, false)
	bad.Cells[0].Value = []byte("XXXX")
	if _, _, err := regionFromMeta(bad); err == nil {
		t.Error("want an error without PBUF")
	}
}

func TestContains(t *testing.T) {
	r := &Region{StartKey: []byte("b"), EndKey: []byte("d")}
	first := &Region{EndKey: []byte("b")}
	last := &Region{StartKey: []byte("d")}
	tests := []struct {
		r            *Region
		key          string
		in, inBefore bool
	}{
		{r, "a", false, false},
		{r, "b", true, false},
		{r, "c", true, true},
		{r, "d", false, true},
		{r, "e", false, false},
		{first, "", true, false},
		{first, "b", false, true},
		{last, "", false, true},
		{last, "zzz", true, true},
		{last, "d", true, false},
	}
	for _, tt := range tests {
		if got := tt.r.Contains([]byte(tt.key)); got != tt.in {
			t.Errorf("[%q,%q).Contains(%q) = %v", tt.r.StartKey, tt.r.EndKey, tt.key, got)
		}
		if got := tt.r.containsBefore([]byte(tt.key)); got != tt.inBefore {
			t.Errorf("[%q,%q).containsBefore(%q) = %v", tt.r.StartKey, tt.r.EndKey, tt.key, got)
		}
	}
}

func TestRegionCache(t *testing.T) {
	c := newRegionCache()
	mk := func(start, end, server string) *Region {
		return &Region{Table: "t", Name: []byte("t," + start + ",1." + server), StartKey: []byte(start), EndKey: []byte(end), Server: server}
	}
	a, b, cc := mk("", "b", "s1"), mk("b", "d", "s2"), mk("d", "", "s1")
	c.add(cc)
	c.add(a)
	c.add(b)
	name := func(r *Region) string {
		if r == nil {
			return "nil"
		}
		return string(r.StartKey) + "-" + string(r.EndKey)
	}
	lookups := []struct {
		key    string
		before bool
		want   string
	}{
		{"", false, "-b"},
		{"a", false, "-b"},
		{"b", false, "b-d"},
		{"c", false, "b-d"},
		{"zz", false, "d-"},
		{"", true, "d-"},
		{"b", true, "-b"},
		{"d", true, "b-d"},
		{"e", true, "d-"},
	}
	for _, l := range lookups {
		if got := name(c.lookup("t", []byte(l.key), l.before)); got != l.want {
			t.Errorf("lookup(%q, before=%v) = %s, want %s", l.key, l.before, got, l.want)
		}
	}
	if c.lookup("other", []byte("a"), false) != nil {
		t.Error("hit in an unknown table")
	}
	// A split of b-d replaces it.
	c.add(mk("b", "c", "s3"))
	if got := name(c.lookup("t", []byte("c"), false)); got != "nil" {
		t.Errorf("after split, lookup(c) = %s, want a miss", got)
	}
	if got := name(c.lookup("t", []byte("bb"), false)); got != "b-c" {
		t.Errorf("after split, lookup(bb) = %s", got)
	}
	c.removeServer("s1")
	if c.lookup("t", []byte("a"), false) != nil || c.lookup("t", []byte("x"), false) != nil {
		t.Error("regions on s1 still cached")
	}
	c.remove(mk("b", "c", "s3"))
	if c.lookup("t", []byte("bb"), false) != nil {
		t.Error("removed region still cached")
	}
	c.add(a)
	c.removeTable("t")
	if c.lookup("t", []byte("a"), false) != nil {
		t.Error("table still cached")
	}
}

func TestTableNames(t *testing.T) {
	for _, tt := range []struct{ in, ns, q, back string }{
		{"t", "default", "t", "t"},
		{"ns:t", "ns", "t", "ns:t"},
		{"hbase:meta", "hbase", "meta", "hbase:meta"},
	} {
		tn := tableName(tt.in)
		if string(tn.Namespace) != tt.ns || string(tn.Qualifier) != tt.q || tableString(tn) != tt.back {
			t.Errorf("%q: %v / %q", tt.in, tn, tableString(tn))
		}
	}
	if got := string(metaKey("t", []byte("row1"), metaNines)); got != "t,row1,99999999999999" {
		t.Errorf("metaKey = %q", got)
	}
}
