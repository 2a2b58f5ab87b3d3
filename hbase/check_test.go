package hbase

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// faultText is f in a line: kind [start,end) region (other), with "-"
// for no region, "^" for the start of the table and "$" for its end.
func faultText(f Fault) string {
	key := func(k []byte, empty string) string {
		if len(k) == 0 {
			return empty
		}
		return string(k)
	}
	name := func(r *Region) string {
		if r == nil {
			return "-"
		}
		return string(r.Name)
	}
	s := fmt.Sprintf("%s [%s,%s) %s", f.Kind, key(f.Start, "^"), key(f.End, "$"), name(f.Region))
	if f.Other != nil {
		s += " (" + name(f.Other) + ")"
	}
	return s
}

func faultsText(fs []Fault) string {
	var out []string
	for _, f := range fs {
		out = append(out, faultText(f))
	}
	return strings.Join(out, "; ")
}

// openRegion is a region [start, end) of table t, open on server s1:1,
// named by its start key ("r" for the first).
func openRegion(start, end string) *Region {
	name := "t," + start + ",1.r" + start + "."
	return &Region{Table: "t", Name: []byte(name), StartKey: []byte(start), EndKey: []byte(end), Server: "s1:1", state: "OPEN"}
}

func regionList(bounds ...string) []*Region {
	var out []*Region
	for i := 0; i+1 < len(bounds); i += 2 {
		out = append(out, openRegion(bounds[i], bounds[i+1]))
	}
	return out
}

func TestTilingFaults(t *testing.T) {
	for _, tt := range []struct {
		name    string
		regions []*Region
		want    string
	}{
		{"healthy", regionList("", "b", "b", "d", "d", ""), ""},
		{"one region", regionList("", ""), ""},
		{"none", nil, "no regions [^,$) -"},
		{"hole at the start", regionList("a", "b", "b", ""), "hole [^,a) -"},
		{"hole in the middle", regionList("", "b", "c", "d", "d", ""), "hole [b,c) -"},
		{"two holes", regionList("", "b", "c", "d", "e", ""), "hole [b,c) -; hole [d,e) -"},
		{"no end", regionList("", "b", "b", "d"), "hole [d,$) -"},
		{"holes at both ends", regionList("b", "d"), "hole [^,b) -; hole [d,$) -"},
		{"overlap", regionList("", "c", "b", "d", "d", ""), "overlap [b,c) t,b,1.rb. (t,,1.r.)"},
		{"overlap to the end", regionList("", "", "b", ""), "overlap [b,$) t,b,1.rb. (t,,1.r.)"},
		{"region inside another", regionList("", "e", "b", "c", "e", ""), "overlap [b,c) t,b,1.rb. (t,,1.r.)"},
		{"overlap across two", regionList("", "e", "b", "c", "c", "f", "f", ""), "overlap [b,c) t,b,1.rb. (t,,1.r.); overlap [c,e) t,c,1.rc. (t,,1.r.)"},
		{"overlap then hole", regionList("", "c", "b", "d", "e", ""), "overlap [b,c) t,b,1.rb. (t,,1.r.); hole [d,e) -"},
		{"same start twice", regionList("", "b", "b", "d", "b", "d", "d", ""), "overlap [b,d) t,b,1.rb. (t,b,1.rb.)"},
		{"bad range", regionList("", "b", "b", "a", "b", ""), "bad key range [b,a) t,b,1.rb."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := faultsText(tilingFaults(tt.regions, nil, nil)); got != tt.want {
				t.Errorf("%s: faults\n  %s\nwant\n  %s", regionStarts(tt.regions), got, tt.want)
			}
			// The read path refuses exactly the lists with a fault.
			if err := checkTiling("t", tt.regions, nil, nil); (err == nil) != (tt.want == "") {
				t.Errorf("checkTiling: %v, want a fault: %v", err, tt.want != "")
			}
		})
	}
}

func TestTableFaults(t *testing.T) {
	live := map[string]bool{"s1:1": true}
	mk := func(edit func(rs []*Region)) []*Region {
		rs := regionList("", "b", "b", "d", "d", "")
		edit(rs)
		return rs
	}
	since := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		name    string
		state   string
		regions []*Region
		rit     []RegionTransition
		want    string
		detail  string
	}{
		{"healthy", "ENABLED", mk(func([]*Region) {}), nil, "", ""},
		{"closed", "ENABLED", mk(func(rs []*Region) { rs[1].state = "CLOSED" }), nil,
			"not deployed [b,d) t,b,1.rb.", "its state in hbase:meta is CLOSED (last on s1:1)"},
		{"no server", "ENABLED", mk(func(rs []*Region) { rs[1].Server, rs[1].state = "", "" }), nil,
			"not deployed [b,d) t,b,1.rb.", "hbase:meta names no server for it"},
		{"offline", "ENABLED", mk(func(rs []*Region) { rs[2].offline = true }), nil,
			"not deployed [d,$) t,d,1.rd.", "hbase:meta marks it offline"},
		{"dead server", "ENABLED", mk(func(rs []*Region) { rs[0].Server = "s2:1" }), nil,
			"not deployed [^,b) t,,1.r.", "hbase:meta puts it on s2:1, which is not a live region server"},
		{"disabled", "DISABLED", mk(func(rs []*Region) {
			for _, r := range rs {
				r.state = "CLOSED"
			}
		}), nil, "", ""},
		{"in transition", "ENABLED", mk(func(rs []*Region) { rs[1].state = "CLOSING" }),
			[]RegionTransition{{Region: "t,b,1.rb.", State: "CLOSING", Since: since}, {Region: "u,b,1.ub.", State: "OPENING", Since: since}},
			"in transition [b,d) t,b,1.rb.", "the master has it CLOSING since 2026-01-02 03:04:05; its state in hbase:meta is CLOSING (last on s1:1)"},
		{"in transition, not in meta", "ENABLED", mk(func([]*Region) {}),
			[]RegionTransition{{Region: "t,a,0.ra.", State: "SPLITTING", Since: since}},
			"in transition [a,$) t,a,0.ra.", "the master has it SPLITTING since 2026-01-02 03:04:05; hbase:meta lists it as no region of the table (a split parent?)"},
		{"hole and undeployed, in key order", "ENABLED", func() []*Region {
			rs := regionList("", "b", "c", "d", "d", "")
			rs[2].state = "OFFLINE"
			return rs
		}(), nil, "hole [b,c) -; not deployed [d,$) t,d,1.rd.", "its state in hbase:meta is OFFLINE (last on s1:1)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := tableFaults("t", tt.state, tt.regions, live, tt.rit)
			if got := faultsText(fs); got != tt.want {
				t.Errorf("faults\n  %s\nwant\n  %s", got, tt.want)
			}
			if tt.detail != "" && (len(fs) == 0 || fs[len(fs)-1].Detail != tt.detail) {
				t.Errorf("faults %+v: want the last to say %q", fs, tt.detail)
			}
		})
	}
}
