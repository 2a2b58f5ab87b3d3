package hbasestore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
)

// TestIntegrationIndexHonoursMarkers: HBase keeps a delete's marker, which
// hides every later put at or before its timestamp. Index upkeep must see
// the row as HBase will show it, so that a query through the index answers
// what the data table answers, and CHECK INDEX finds nothing wrong.
func TestIntegrationIndexHonoursMarkers(t *testing.T) {
	_, sess := writeSession(t)
	ctx := context.Background()
	T := time.Now().Add(-time.Hour).UnixMilli()
	future := time.Now().Add(time.Hour).UnixMilli()
	exe := func(q string) string {
		t.Helper()
		rows, _, err := sess.Exec(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var lines []string
		for _, r := range rows {
			var cells []string
			for _, v := range r {
				cells = append(cells, v.Text())
			}
			lines = append(lines, strings.Join(cells, " "))
		}
		return strings.Join(lines, "\n")
	}
	ins := func(format string, args ...any) { t.Helper(); exe(fmt.Sprintf(format, args...)) }

	// a: a NULL's column marker hides an older put of the indexed column.
	ins("INSERT INTO sites (domain, owner) VALUES ('a.com', NULL) TIMESTAMP %d", T)
	ins("INSERT INTO sites (domain, owner) VALUES ('a.com', 'oa') TIMESTAMP %d", T-100)
	// b: a DELETE's row marker hides an older INSERT of the whole row.
	ins("INSERT INTO sites (domain, owner, visits) VALUES ('b.com', 'ob0', 1) TIMESTAMP %d", T)
	exe("DELETE FROM sites WHERE domain = 'b.com'")
	ins("INSERT INTO sites (domain, owner, visits) VALUES ('b.com', 'ob', 2) TIMESTAMP %d", T-100)
	// c: a marker in the future hides an INSERT without TIMESTAMP.
	ins("INSERT INTO sites (domain, owner) VALUES ('c.com', NULL) TIMESTAMP %d", future)
	ins("INSERT INTO sites (domain, owner, visits) VALUES ('c.com', 'oc', 3)")
	// d: a put after the marker shows.
	ins("INSERT INTO sites (domain, owner) VALUES ('d.com', NULL) TIMESTAMP %d", T)
	ins("INSERT INTO sites (domain, owner, visits) VALUES ('d.com', 'od', 4) TIMESTAMP %d", T+100)
	// e: the marker hides a covered column's put; the entry keeps NULL.
	ins("INSERT INTO sites (domain, owner, visits) VALUES ('e.com', 'oe', 5) TIMESTAMP %d", T)
	ins("INSERT INTO sites (domain, visits) VALUES ('e.com', NULL) TIMESTAMP %d", T+300)
	ins("INSERT INTO sites (domain, owner, visits) VALUES ('e.com', 'oe', 6) TIMESTAMP %d", T+200)
	// f: the old entry goes when the indexed column's put is hidden.
	ins("INSERT INTO sites (domain, owner, visits) VALUES ('f.com', 'of0', 7) TIMESTAMP %d", T)
	ins("INSERT INTO sites (domain, owner) VALUES ('f.com', NULL) TIMESTAMP %d", T+100)
	ins("INSERT INTO sites (domain, owner, visits) VALUES ('f.com', 'of', 8) TIMESTAMP %d", T+50)

	data := "a.com NULL NULL\nc.com NULL 3\nd.com od 4\ne.com oe NULL\nf.com NULL 8"
	if got := exe("SELECT domain, owner, visits FROM sites NO INDEX ORDER BY domain ALLOW FULL SCAN"); got != data {
		t.Fatalf("data table:\n%s\nwant\n%s", got, data)
	}
	for q, want := range map[string]string{
		"SELECT domain, visits FROM sites WHERE owner = 'oa'":                 "",
		"SELECT domain, visits FROM sites WHERE owner = 'ob'":                 "",
		"SELECT domain, visits FROM sites WHERE owner = 'oc'":                 "",
		"SELECT domain, visits FROM sites WHERE owner = 'od'":                 "d.com 4",
		"SELECT domain, visits FROM sites WHERE owner = 'oe'":                 "e.com NULL",
		"SELECT domain, visits FROM sites WHERE owner >= 'o' ORDER BY domain": "d.com 4\ne.com NULL",
	} {
		if got := exe(q); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", q, got, want)
		}
	}
	if got, want := exe("CHECK INDEX sites_by_owner"), "5 2 3 0 0 0 0 0"; got != want {
		t.Errorf("CHECK INDEX: %s, want %s", got, want)
	}
}

// TestIntegrationGetMarkers: a Get asking for markers returns a row's
// delete markers, and a row holding markers alone.
func TestIntegrationGetMarkers(t *testing.T) {
	st := openStore(t, hbasestore.Options{})
	name := scratchTable(t, st)
	ctx := context.Background()
	m := put("a", "f:x=1", "g:y=2")
	for i := range m.Cells {
		m.Cells[i].Timestamp = 1000
	}
	mut := func(ms ...exec.Mutation) {
		t.Helper()
		if err := st.Mutate(ctx, name, ms); err != nil {
			t.Fatal(err)
		}
	}
	mut(m, exec.Mutation{Key: []byte("a"), Deletes: []exec.Cell{{Family: "f", Qualifier: "x", Timestamp: 2000}}},
		exec.Mutation{Key: []byte("b"), DeleteRow: true, DeleteAt: 3000})
	rows, err := st.Get(ctx, name, [][]byte{[]byte("a"), []byte("b"), []byte("c")}, exec.ReadOptions{Markers: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s: %d cells, markers %v", r.Key, len(r.Cells), r.Markers))
	}
	want := "a: 1 cells, markers [{f x false false 2000}]\nb: 0 cells, markers [{f  true false 3000} {g  true false 3000}]"
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	if _, err := st.Get(ctx, name, [][]byte{[]byte("a")}, exec.ReadOptions{Markers: true, Limit: 1}); err == nil {
		t.Error("markers with a limit: no error")
	}
}
