package exec

import (
	"testing"

	"github.com/rkql/rkql/catalog"
)

func TestMarkerHides(t *testing.T) {
	col := Marker{Family: "f", Qualifier: "a", Timestamp: 100}
	ver := Marker{Family: "f", Qualifier: "a", Timestamp: 100, Exact: true}
	fam := Marker{Family: "f", WholeFamily: true, Timestamp: 100}
	famVer := Marker{Family: "f", WholeFamily: true, Timestamp: 100, Exact: true}
	tests := []struct {
		name string
		m    Marker
		fam  string
		qual string
		ts   int64
		want bool
	}{
		{"column-older", col, "f", "a", 99, true},
		{"column-same", col, "f", "a", 100, true},
		{"column-newer", col, "f", "a", 101, false},
		{"column-other-qualifier", col, "f", "b", 50, false},
		{"column-other-family", col, "g", "a", 50, false},
		{"version-same", ver, "f", "a", 100, true},
		{"version-older", ver, "f", "a", 99, false},
		{"family-any-column", fam, "f", "b", 100, true},
		{"family-empty-qualifier", fam, "f", "", 1, true},
		{"family-newer", fam, "f", "b", 101, false},
		{"family-other", fam, "g", "b", 1, false},
		{"family-version-same", famVer, "f", "z", 100, true},
		{"family-version-older", famVer, "f", "z", 99, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.m.Hides(tt.fam, tt.qual, tt.ts); got != tt.want {
				t.Errorf("%+v.Hides(%s:%s@%d) = %v, want %v", tt.m, tt.fam, tt.qual, tt.ts, got, tt.want)
			}
		})
	}
}

// standingRows sees a put a marker hides as not written: the column keeps
// its old value, and a row whose puts are all hidden and whose old cells
// the write deletes does not stand.
func TestStandingRowsMarkers(t *testing.T) {
	cat, err := catalog.Parse([]byte(`
tables:
  - name: s
    hbase: s
    families: [{name: f}]
    columns:
      - {name: k, type: STRING}
      - {name: a, type: STRING, column: "f:a"}
      - {name: b, type: STRING, column: "f:b"}
    rowkey: [{field: k}]
`))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := cat.Table("s")
	const ts = 100
	row := func(k, a, b string) catalog.Row {
		r := tb.NewRow()
		r[0] = catalog.String(k)
		if a != "" {
			r[1] = catalog.String(a)
		}
		if b != "" {
			r[2] = catalog.String(b)
		}
		return r
	}
	show := func(r catalog.Row) string {
		if r == nil {
			return "none"
		}
		return r[0].Text() + " " + r[1].Text() + " " + r[2].Text()
	}
	tests := []struct {
		name    string
		old     catalog.Row // nil: no visible row
		cells   []Cell      // the old row's cells
		markers []Marker
		write   catalog.Row
		cols    []int
		want    string
	}{
		{"no marker", row("x", "a0", ""), []Cell{{Family: "f", Qualifier: "a", Timestamp: 50}}, nil,
			row("x", "a1", "b1"), nil, "x a1 b1"},
		{"column marker hides a", row("x", "", "b0"), []Cell{{Family: "f", Qualifier: "b", Timestamp: 50}},
			[]Marker{{Family: "f", Qualifier: "a", Timestamp: 150}}, row("x", "a1", "b1"), nil, "x NULL b1"},
		{"family marker hides the row", nil, nil, []Marker{{Family: "f", WholeFamily: true, Timestamp: 100}},
			row("x", "a1", "b1"), nil, "none"},
		{"older marker hides nothing", nil, nil, []Marker{{Family: "f", WholeFamily: true, Timestamp: 99}},
			row("x", "a1", "b1"), nil, "x a1 b1"},
		{"hidden put, old cell outlives", row("x", "", "b0"), []Cell{{Family: "f", Qualifier: "b", Timestamp: 150}},
			[]Marker{{Family: "f", Qualifier: "a", Timestamp: 150}}, row("x", "a1", ""), nil, "x NULL b0"},
		{"hidden put, old cell deleted", row("x", "", "b0"), []Cell{{Family: "f", Qualifier: "b", Timestamp: 50}},
			[]Marker{{Family: "f", Qualifier: "a", Timestamp: 150}}, row("x", "a1", ""), nil, "none"},
		{"hidden put, unlisted column stays", row("x", "", "b0"), []Cell{{Family: "f", Qualifier: "b", Timestamp: 50}},
			[]Marker{{Family: "f", Qualifier: "a", Timestamp: 150}}, row("x", "a1", ""), []int{0, 1}, "x NULL b0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := RowMutation(tb, tt.write, ts, nil, tt.cols)
			if err != nil {
				t.Fatal(err)
			}
			old := map[string]catalog.Row{}
			if tt.old != nil {
				old[string(m.Key)] = tt.old
			}
			stored := map[string]*StoreRow{string(m.Key): {Key: m.Key, Cells: tt.cells, Markers: tt.markers}}
			got := standingRows(tb, []Mutation{m}, []catalog.Row{tt.write}, tt.cols, ts, old, stored)
			if show(got[0]) != tt.want {
				t.Errorf("got %s, want %s", show(got[0]), tt.want)
			}
		})
	}
}
