package hbasestore_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase/hbasetest"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// TestIntegrationInsertNullAtTimestamp: INSERT … TIMESTAMP t with a NULL
// deletes the column's versions at or before t only, as Java's
// Delete.addColumns(family, qualifier, t): a version at t+1000, written by
// rkql or put directly (as a Java client would), reads back whether it
// was written before or after the INSERT.
func TestIntegrationInsertNullAtTimestamp(t *testing.T) {
	st := openStore(t, hbasestore.Options{})
	name := hbasetest.TableName("rkql_nullts")
	dropAtEnd(t, st, []string{name})
	cat, err := catalog.Parse([]byte(fmt.Sprintf(`
tables:
  - name: dev
    hbase: %s
    families:
      - {name: m, versions: 3}
    columns:
      - {name: id, type: STRING}
      - {name: model, type: STRING, column: "m:model"}
    rowkey:
      - {field: id}
`, name)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	x := &exec.Executor{Store: st}
	pl := planner.New(cat, planner.Options{})
	tbl, _ := cat.Table("dev")
	if err := x.EnsureTable(ctx, tbl); err != nil {
		t.Fatal(err)
	}
	run := func(q string) string {
		t.Helper()
		stmt, err := parser.ParseOne(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		p, err := pl.Plan(context.Background(), stmt)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		switch p := p.(type) {
		case *planner.Insert:
			if err := x.Insert(ctx, p.Table, p.Rows, p.Timestamp, nil); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			return ""
		case *planner.Select:
			rows, err := x.Query(ctx, p, nil)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			defer rows.Close()
			var out []string
			for {
				r, err := rows.Next(ctx)
				if err == io.EOF {
					return strings.Join(out, "\n")
				}
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				out = append(out, r[0].Text())
			}
		}
		t.Fatalf("%s: unexpected plan %T", q, p)
		return ""
	}
	// A put at an explicit timestamp, as a Java client writes it.
	javaPut := func(id, model string, ts int64) {
		t.Helper()
		m := exec.Mutation{Key: []byte(id), Cells: []exec.Cell{{Family: "m", Qualifier: "model", Value: []byte(model), Timestamp: ts}}}
		if err := st.Mutate(ctx, name, []exec.Mutation{m}); err != nil {
			t.Fatal(err)
		}
	}
	ts := time.Now().Add(-time.Hour).UnixMilli()
	steps := []struct {
		name, id, want string
		do             func(id string)
	}{
		{"rkql write at t+1000 after the NULL", "a", "later", func(id string) {
			run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('%s', NULL) TIMESTAMP %d", id, ts))
			run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('%s', 'later') TIMESTAMP %d", id, ts+1000))
		}},
		{"java put at t+1000 after the NULL", "b", "java", func(id string) {
			run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('%s', NULL) TIMESTAMP %d", id, ts))
			javaPut(id, "java", ts+1000)
		}},
		{"java put at t+1000 before the NULL", "c", "java", func(id string) {
			javaPut(id, "java", ts+1000)
			run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('%s', NULL) TIMESTAMP %d", id, ts))
		}},
		{"the NULL deletes versions at or before t", "d", "NULL", func(id string) {
			javaPut(id, "old", ts-1000)
			javaPut(id, "same", ts)
			run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('%s', NULL) TIMESTAMP %d", id, ts))
		}},
		{"a NULL without TIMESTAMP deletes up to now", "e", "NULL", func(id string) {
			javaPut(id, "java", ts+1000)
			run(fmt.Sprintf("INSERT INTO dev (id, model) VALUES ('%s', NULL)", id))
		}},
	}
	for _, s := range steps {
		s.do(s.id)
		if got := run(fmt.Sprintf("SELECT model FROM dev WHERE id = '%s'", s.id)); got != s.want {
			t.Errorf("%s: model = %q, want %q", s.name, got, s.want)
		}
	}
}
