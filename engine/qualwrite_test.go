package engine_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
)

// TestQualifierWrites writes seed 002's tables whose qualifiers are data
// through statements: qualifier-rows of an inverted index by INSERT,
// UPSERT, UPDATE and DELETE, and a profile's tags, a MAP over a family,
// entry by entry and whole; after each, the rows read back and the cells
// stored are what the statement must leave.
func TestQualifierWrites(t *testing.T) {
	runQualifierWrites(t, tempStore(t), "")
}

// TestIntegrationQualifierWrites is TestQualifierWrites on a real HBase.
func TestIntegrationQualifierWrites(t *testing.T) {
	q := hbasetest.Quorum(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := hbasestore.OpenWith(ctx, hbase.Config{ZKQuorum: q, ZKRoot: hbasetest.Root()}, hbasestore.Options{CompressionFallback: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	prefix := hbasetest.TableName("qualmap_w") + "_"
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		for _, n := range []string{"inverted", "inverted_text", "profiles"} {
			if err := st.DropTable(ctx, prefix+n); err != nil && !errors.Is(err, exec.ErrTableNotFound) {
				t.Errorf("clean-up: %v", err)
			}
		}
	})
	runQualifierWrites(t, st, prefix)
}

func runQualifierWrites(t *testing.T, st exec.Store, prefix string) {
	ctx := context.Background()
	cat, err := exectest.QualifierCatalog(prefix)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range cat.Tables {
		if err := (&exec.Executor{Store: st}).EnsureTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	e.SetConfirm(func(context.Context, string) (bool, error) { return true, nil })
	run := func(q string) ([]string, error) {
		t.Helper()
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(ctx, stmt)
		if err != nil {
			return nil, err
		}
		defer res.Close()
		if res.Rows == nil {
			return []string{res.Tag}, nil
		}
		var out []string
		for {
			r, err := res.Rows.Next(ctx)
			if err == io.EOF {
				return out, nil
			}
			if err != nil {
				return nil, err
			}
			var cells []string
			for _, v := range r {
				cells = append(cells, v.Text())
			}
			out = append(out, strings.Join(cells, " "))
		}
	}
	ok := func(q string, want ...string) {
		t.Helper()
		got, err := run(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("%s\n got: %q\nwant: %q", q, got, want)
		}
	}
	fails := func(q, want string) {
		t.Helper()
		if _, err := run(q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", q, err, want)
		}
	}
	cells := func(table, key string) string {
		t.Helper()
		tb, _ := cat.Table(table)
		srs, err := st.Get(ctx, tb.Physical, [][]byte{[]byte(key)}, exec.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, sr := range srs {
			for _, c := range sr.Cells {
				out = append(out, c.Family+":"+catalog.ToStringBinary([]byte(c.Qualifier))+"="+catalog.ToStringBinary(c.Value))
			}
		}
		return strings.Join(out, " ")
	}

	// Each qualifier a row: the document id is the qualifier, as
	// Bytes.toBytes(long) writes it, the score its cell.
	ok("INSERT INTO inverted (term, doc_id, score) VALUES ('hbase', 7, 0.5), ('hbase', -3, 1.25), ('scan', 7, 2.0)", "INSERT 3")
	ok("SELECT doc_id, score FROM inverted WHERE term = 'hbase' ORDER BY doc_id", "-3 1.25", "7 0.5")
	if got, want := cells("inverted", "hbase"), `d:\x00\x00\x00\x00\x00\x00\x00\x07=?\xE0\x00\x00\x00\x00\x00\x00 d:\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFD=?\xF4\x00\x00\x00\x00\x00\x00`; got != want {
		t.Errorf("cells of hbase:\n got %s\nwant %s", got, want)
	}
	ok("UPSERT INTO inverted (term, doc_id, score) VALUES ('hbase', 7, 9.0)", "UPSERT 1")
	ok("UPDATE inverted SET score = 3.0 WHERE term = 'hbase' AND doc_id = -3", "UPDATE 1")
	ok("SELECT doc_id, score FROM inverted WHERE term = 'hbase' ORDER BY doc_id", "-3 3", "7 9")
	ok("DELETE FROM inverted WHERE term = 'hbase' AND doc_id = 7", "DELETE 1")
	ok("SELECT term, doc_id, score FROM inverted WHERE term IN ('hbase', 'scan') ORDER BY term", "hbase -3 3", "scan 7 2")
	ok("UPDATE inverted SET score = NULL WHERE term = 'scan' AND doc_id = 7", "UPDATE 1")
	ok("SELECT doc_id FROM inverted WHERE term = 'scan'")
	ok("DELETE FROM inverted WHERE doc_id < 0 ALLOW FULL SCAN", "DELETE 1")
	ok("SELECT COUNT(*) FROM inverted ALLOW FULL SCAN", "0")
	fails("UPDATE inverted SET doc_id = 5 WHERE term = 'hbase'", "doc_id is the qualifier of inverted's cells")
	fails("INSERT INTO inverted (term, score) VALUES ('x', 1.0)", "doc_id is the qualifier of family d: it must be given")

	// The family as one MAP column: entries by UPDATE, one at a time or
	// all deleted at once.
	ok("INSERT INTO profiles (user, name) VALUES ('u1', 'Ann'), ('u2', 'Bo')", "INSERT 2")
	ok("UPDATE profiles SET tags['golf'] = 'pro', tags['music'] = 'jazz' WHERE user = 'u1'", "UPDATE 1")
	ok("UPDATE profiles SET tags['sports'] = 'fan' WHERE user >= 'u1'", "UPDATE 2")
	ok("SELECT user, tags, tags['golf'] FROM profiles WHERE user IN ('u1', 'u2')", "u1 {golf: pro, music: jazz, sports: fan} pro", "u2 {sports: fan} NULL")
	if got, want := cells("profiles", "u1"), "base:name=Ann tags:golf=pro tags:music=jazz tags:sports=fan"; got != want {
		t.Errorf("cells of u1:\n got %s\nwant %s", got, want)
	}
	ok("SELECT user FROM profiles WHERE tags['music'] = 'jazz' ALLOW FULL SCAN", "u1")
	// SELECT RAW names the MAP as the column of each cell of its family.
	raw, err := run("SELECT RAW * FROM profiles WHERE user = 'u1'")
	if err != nil {
		t.Fatal(err)
	}
	var rawCols []string
	for _, r := range raw {
		f := strings.Fields(r)
		rawCols = append(rawCols, f[1]+":"+f[2]+"="+f[len(f)-1])
	}
	if got, want := strings.Join(rawCols, " "), "base:name=name tags:golf=tags tags:music=tags tags:sports=tags"; got != want {
		t.Errorf("SELECT RAW columns of u1:\n got %s\nwant %s", got, want)
	}
	ok("UPDATE profiles SET tags['golf'] = NULL WHERE user = 'u1'", "UPDATE 1")
	ok("SELECT tags FROM profiles WHERE user = 'u1'", "{music: jazz, sports: fan}")
	ok("UPDATE profiles SET tags = NULL WHERE user = 'u1'", "UPDATE 1")
	ok("SELECT name, tags FROM profiles WHERE user = 'u1'", "Ann NULL")
	// The row keeps the marker cell a write of no cell leaves, as any
	// UPDATE that only deletes does.
	if got, want := cells("profiles", "u1"), "base:_0= base:name=Ann"; got != want {
		t.Errorf("cells of u1 after tags = NULL:\n got %s\nwant %s", got, want)
	}
	fails("UPDATE profiles SET tags = 'x' WHERE user = 'u1'", "set one entry (tags['key'] = value), or the whole map to NULL")
	fails("UPDATE profiles SET name['x'] = 'y' WHERE user = 'u1'", "name is a STRING, not a MAP")
	fails("UPDATE profiles SET tags['a'] = '1', tags['a'] = '2' WHERE user = 'u1'", "tags['a'] is set twice")
	fails("SELECT name['x'] FROM profiles WHERE user = 'u1'", "name is a STRING, not a MAP")
}

// TestMapRefusedWhereCompared checks that a MAP is refused where values
// are sorted, grouped or compared, with the position of the map.
func TestMapRefusedWhereCompared(t *testing.T) {
	cat, err := exectest.QualifierCatalog("")
	if err != nil {
		t.Fatal(err)
	}
	st := tempStore(t)
	e := engine.New(engine.Config{Catalog: cat, Open: func(context.Context) (exec.Store, error) { return st, nil }})
	for q, want := range map[string]string{
		"SELECT user FROM profiles ORDER BY tags ALLOW FULL SCAN":                "tags is a MAP, which cannot be sorted",
		"SELECT tags, COUNT(*) FROM profiles GROUP BY tags ALLOW FULL SCAN":      "tags is a MAP, which cannot be grouped",
		"SELECT DISTINCT tags FROM profiles ALLOW FULL SCAN":                     "tags is a MAP, which DISTINCT cannot compare",
		"SELECT MAX(tags) FROM profiles ALLOW FULL SCAN":                         "tags is a MAP, which cannot be aggregated by MAX",
		"SELECT user FROM profiles WHERE tags[1 +] = 'x'":                        "1:41: unexpected",
		"SELECT user FROM profiles WHERE tags = 'x' ALLOW FULL SCAN":             "column tags is MAP, and 'x' is not a valid MAP",
		"SELECT tags['golf'], COUNT(*) FROM profiles GROUP BY 1 ALLOW FULL SCAN": "",
	} {
		stmt, perr := parser.ParseOne(q)
		var err error
		if perr != nil {
			err = perr
		} else {
			var res *engine.Result
			if res, err = e.Run(context.Background(), stmt); err == nil {
				res.Close()
			}
		}
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", q, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want one containing %q", q, err, want)
		}
	}
}
