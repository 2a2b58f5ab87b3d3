package embedded_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

var errInjected = errors.New("injected write failure")

// faultStore fails the Mutate call number failAt (1-based) on table, and
// every later one until cleared: a writer that dies part-way.
type faultStore struct {
	exec.Store
	table  string
	calls  int
	failAt int
}

func (f *faultStore) Mutate(ctx context.Context, table string, muts []exec.Mutation) error {
	if f.failAt > 0 && table == f.table {
		f.calls++
		if f.calls >= f.failAt {
			return errInjected
		}
	}
	return f.Store.Mutate(ctx, table, muts)
}

func queryRows(t *testing.T, x *exec.Executor, pl *planner.Planner, q string) ([]string, *exec.Stats, *planner.Select) {
	t.Helper()
	sel := planSelect(t, pl, q)
	ctx := context.Background()
	stats := &exec.Stats{}
	rows, err := x.Query(ctx, sel, stats)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for {
		r, err := rows.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var cells []string
		for _, v := range r {
			cells = append(cells, v.String())
		}
		out = append(out, strings.Join(cells, ","))
	}
	sort.Strings(out)
	return out, stats, sel
}

// TestIndexWritesFailingHalfWay interrupts updates that move index entries
// at each step of the write, and checks that reads through the indexes
// still equal reads of the data table, and that CHECK INDEX … REPAIR
// restores a clean check.
func TestIndexWritesFailingHalfWay(t *testing.T) {
	cat, err := catalog.LoadFile("../../examples/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	orders, _ := cat.Table("orders")
	ctx := context.Background()
	for _, step := range []struct {
		name   string
		table  string
		failAt int
	}{
		{"second index, phase 1", "orders_by_id", 1},
		{"data write", "orders", 1},
		{"index phase 3", "orders_by_buyer", 2},
		{"second index phase 3", "orders_by_id", 2},
	} {
		t.Run(step.name, func(t *testing.T) {
			fs := &faultStore{Store: openStore(t)}
			x := &exec.Executor{Store: fs}
			if err := x.EnsureTable(ctx, orders); err != nil {
				t.Fatal(err)
			}
			rows := examples.Rows(orders, 500, 3)
			if err := x.Insert(ctx, orders, rows, 0, nil); err != nil {
				t.Fatal(err)
			}
			// Move 50 orders to buyer 'moved' with a new amount, failing
			// part-way.
			var upd []catalog.Row
			for _, r := range rows[:50] {
				u := append(catalog.Row{}, r...)
				u[1] = catalog.String("moved")
				u[4] = catalog.Double(1)
				upd = append(upd, u)
			}
			fs.table, fs.failAt = step.table, step.failAt
			if err := x.Insert(ctx, orders, upd, 0, nil); !errors.Is(err, errInjected) {
				t.Fatalf("update: got %v, want the injected failure", err)
			}
			fs.failAt = 0
			pl := planner.New(cat, planner.Options{AllowFullScan: true})
			buyers := []string{"moved", rows[0][1].S, rows[1][1].S, rows[2][1].S}
			check := func() (dangling int64) {
				t.Helper()
				for _, b := range buyers {
					for _, items := range []string{"*", "amount, status, ts"} {
						q := fmt.Sprintf("SELECT %s FROM orders WHERE buyer = '%s'", items, b)
						got, stats, sel := queryRows(t, x, pl, q)
						if sel.IndexLookup() == nil {
							t.Fatalf("%s: not planned through an index", q)
						}
						want, _, _ := queryRows(t, x, pl, strings.Replace(q, "FROM orders", "FROM orders NO INDEX", 1))
						if strings.Join(got, "\n") != strings.Join(want, "\n") {
							t.Errorf("%s:\n index gave %d rows %v\n data gave %d rows %v", q, len(got), got, len(want), want)
						}
						dangling += stats.Dangling.Load()
					}
				}
				for _, r := range rows[:5] {
					q := fmt.Sprintf("SELECT * FROM orders WHERE order_id = %d", r[2].I)
					got, _, _ := queryRows(t, x, pl, q)
					want, _, _ := queryRows(t, x, pl, strings.Replace(q, "FROM orders", "FROM orders NO INDEX", 1))
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Errorf("%s: index gave %v, data gave %v", q, got, want)
					}
				}
				return dangling
			}
			check()
			dirty := false
			for _, ix := range orders.Indexes {
				rep, err := x.CheckIndex(ctx, orders, ix, false, nil)
				if err != nil {
					t.Fatal(err)
				}
				dirty = dirty || !rep.Clean()
				if rep, err = x.CheckIndex(ctx, orders, ix, true, nil); err != nil || rep.Repaired == 0 && !rep.Clean() {
					t.Fatalf("CHECK INDEX %s REPAIR: %v %v", ix.Name, rep, err)
				}
				if rep, err = x.CheckIndex(ctx, orders, ix, false, nil); err != nil || !rep.Clean() {
					t.Errorf("after REPAIR, CHECK INDEX %s: %v %v", ix.Name, rep, err)
				}
			}
			if !dirty {
				t.Errorf("a write that failed at %s left every index clean; the test injects nothing", step.name)
			}
			if d := check(); d != 0 {
				t.Errorf("after REPAIR, reads skipped %d dangling entries", d)
			}
		})
	}
}

// TestCoveredIndexReadsNoData checks EXPLAIN ANALYZE's claim: a covered
// query reads only the index, and an uncovered point lookup one data row.
func TestCoveredIndexReadsNoData(t *testing.T) {
	cat, x, _, rows := loadOrders(t, 3000, 5)
	pl := planner.New(cat, planner.Options{})
	buyer := rows[0][1].S
	got, stats, sel := queryRows(t, x, pl, fmt.Sprintf("SELECT amount FROM orders WHERE buyer = '%s' ORDER BY ts DESC LIMIT 20", buyer))
	if sel.IndexLookup() == nil || !sel.IndexLookup().Covered || hasSort(sel) {
		t.Fatalf("want a covered index plan with no client sort:\n%s", sel.String())
	}
	if len(got) == 0 || stats.DataReads.Load() != 0 {
		t.Errorf("covered query returned %d rows and read %d data rows; want rows and 0 data reads", len(got), stats.DataReads.Load())
	}
	_, stats, sel = queryRows(t, x, pl, fmt.Sprintf("SELECT * FROM orders WHERE order_id = %d", rows[7][2].I))
	if sel.IndexLookup() == nil || sel.IndexLookup().Index.Name != "orders_by_id" || sel.Access.Kind != planner.PointLookup {
		t.Fatalf("want an index point lookup:\n%s", sel.String())
	}
	if n := stats.DataReads.Load(); n != 1 {
		t.Errorf("order_id lookup read %d data rows, want 1", n)
	}
}

// TestIndexFollowsUpdatesAndDeletes moves rows between buyers, deletes
// some, and checks that every index stays exactly in step.
func TestIndexFollowsUpdatesAndDeletes(t *testing.T) {
	cat, x, orders, rows := loadOrders(t, 400, 9)
	ctx := context.Background()
	// Update only buyer and status of 40 rows: the other columns keep
	// their values, and the entries move to buyer 'moved'.
	buyer, _ := orders.Column("buyer")
	status, _ := orders.Column("status")
	var upd []catalog.Row
	for _, r := range rows[:40] {
		u := orders.NewRow()
		for _, k := range orders.KeyColumns() {
			u[k] = r[k]
		}
		u[buyer], u[status] = catalog.String("moved"), catalog.String("paid")
		upd = append(upd, u)
	}
	keys := append(orders.KeyColumns(), buyer, status)
	if err := x.InsertColumns(ctx, orders, keys, upd, 0, nil); err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, planner.Options{AllowFullScan: true})
	got, _, _ := queryRows(t, x, pl, "SELECT order_id, amount, status FROM orders WHERE buyer = 'moved'")
	if len(got) != 40 {
		t.Errorf("buyer 'moved' has %d orders through the index, want 40", len(got))
	}
	want, _, _ := queryRows(t, x, pl, "SELECT order_id, amount, status FROM orders NO INDEX WHERE buyer = 'moved'")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("index and data differ for the moved rows:\n%v\n%v", got, want)
	}
	old := rows[0][buyer].S
	got, _, _ = queryRows(t, x, pl, fmt.Sprintf("SELECT order_id FROM orders WHERE buyer = '%s'", old))
	want, _, _ = queryRows(t, x, pl, fmt.Sprintf("SELECT order_id FROM orders NO INDEX WHERE buyer = '%s'", old))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("old buyer %s: index %v, data %v", old, got, want)
	}
	del, err := pl.Plan(context.Background(), mustParse(t, "DELETE FROM orders WHERE buyer = 'moved' AND status = 'paid'"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := x.Delete(ctx, del.(*planner.Delete), nil)
	if err != nil || n != 40 {
		t.Fatalf("DELETE: %d rows, %v; want 40", n, err)
	}
	for _, ix := range orders.Indexes {
		rep, err := x.CheckIndex(ctx, orders, ix, false, nil)
		if err != nil || !rep.Clean() || rep.DataRows != 360 {
			t.Errorf("CHECK INDEX %s after updates and deletes: %v %v", ix.Name, rep, err)
		}
	}
}

func mustParse(t *testing.T, q string) parser.Stmt {
	t.Helper()
	s, err := parser.ParseOne(q)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBuildIndexOverExistingData declares an index after the data was
// written: CHECK INDEX reports every entry missing, BUILD INDEX writes
// them, and the index then serves queries as the data table does.
func TestBuildIndexOverExistingData(t *testing.T) {
	cat, st := openCatalog(t, "../../examples/catalog.yaml")
	sites, _ := cat.Table("sites")
	bare := *sites
	bare.Indexes = nil
	x := &exec.Executor{Store: st}
	ctx := context.Background()
	if err := x.EnsureTable(ctx, sites); err != nil {
		t.Fatal(err)
	}
	if err := x.Insert(ctx, &bare, examples.Rows(sites, 500, 4), 0, nil); err != nil {
		t.Fatal(err)
	}
	ix := sites.Indexes[0]
	rep, err := x.CheckIndex(ctx, sites, ix, false, nil)
	if err != nil || rep.Missing == 0 || rep.Entries != 0 {
		t.Fatalf("before BUILD INDEX: %v %v; want every entry missing", rep, err)
	}
	var reported int64
	n, removed, err := x.BuildIndex(ctx, sites, ix, func(done int64) { reported = done })
	if err != nil || n != rep.Missing || reported != n || removed != 0 {
		t.Fatalf("BUILD INDEX wrote %d entries (progress said %d), %v; want %d", n, reported, err, rep.Missing)
	}
	if rep, err = x.CheckIndex(ctx, sites, ix, false, nil); err != nil || !rep.Clean() {
		t.Fatalf("after BUILD INDEX: %v %v", rep, err)
	}
	pl := planner.New(cat, planner.Options{AllowFullScan: true})
	for _, owner := range []string{"owner1", "owner7", "owner42"} {
		q := fmt.Sprintf("SELECT domain, visits FROM sites WHERE owner = '%s'", owner)
		got, _, sel := queryRows(t, x, pl, q)
		want, _, _ := queryRows(t, x, pl, strings.Replace(q, "FROM sites", "FROM sites NO INDEX", 1))
		if sel.IndexLookup() == nil || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: index %v, data %v", q, got, want)
		}
	}
}

// loadOrders opens a store with n generated orders rows and their indexes.
func loadOrders(t *testing.T, n int, seed uint64) (*catalog.Catalog, *exec.Executor, *catalog.Table, []catalog.Row) {
	t.Helper()
	cat, st := openCatalog(t, "../../examples/catalog.yaml")
	orders, _ := cat.Table("orders")
	x := &exec.Executor{Store: st}
	ctx := context.Background()
	if err := x.EnsureTable(ctx, orders); err != nil {
		t.Fatal(err)
	}
	rows := examples.Rows(orders, n, seed)
	if err := x.Insert(ctx, orders, rows, 0, nil); err != nil {
		t.Fatal(err)
	}
	return cat, x, orders, rows
}

// TestUniqueIndexRefusesSecondRow: orders_by_id is keyed by order_id
// alone, so a second order with the same number would silently replace
// the first one's entry; the write is refused instead. Rewriting the same
// order is an update and passes.
func TestUniqueIndexRefusesSecondRow(t *testing.T) {
	cat, x, orders, rows := loadOrders(t, 50, 2)
	pl := planner.New(cat, planner.Options{})
	run := func(q string) error {
		t.Helper()
		p, err := pl.Plan(context.Background(), mustParse(t, q))
		if err != nil {
			t.Fatal(err)
		}
		ins := p.(*planner.Insert)
		return x.InsertColumns(context.Background(), orders, ins.Columns, ins.Rows, 0, nil)
	}
	id := rows[0][2].I
	err := run(fmt.Sprintf("INSERT INTO orders (seller, order_id, ts, amount) VALUES ('zz', %d, 5, 1)", id))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("index orders_by_id: another row of orders already has order_id = %d", id)) {
		t.Fatalf("second order %d: got %v", id, err)
	}
	err = run("INSERT INTO orders (seller, order_id, ts) VALUES ('a', 7, 1), ('b', 7, 2)")
	if err == nil || !strings.Contains(err.Error(), "order_id = 7") {
		t.Fatalf("two orders 7 in one statement: got %v", err)
	}
	r := rows[1]
	if err := run(fmt.Sprintf("INSERT INTO orders (seller, order_id, ts, amount) VALUES ('%s', %d, %d, 2.5)", r[0].S, r[2].I, r[3].I)); err != nil {
		t.Fatalf("rewriting an existing order: %v", err)
	}
	got, _, _ := queryRows(t, x, pl, fmt.Sprintf("SELECT amount FROM orders WHERE order_id = %d", r[2].I))
	if strings.Join(got, ",") != "2.5" {
		t.Errorf("after the rewrite, order %d has amount %v", r[2].I, got)
	}
	for _, ix := range orders.Indexes {
		if rep, err := x.CheckIndex(context.Background(), orders, ix, false, nil); err != nil || !rep.Clean() {
			t.Errorf("CHECK INDEX %s: %v %v", ix.Name, rep, err)
		}
	}
}

func hasSort(sel *planner.Select) bool {
	_, ok := planner.Find[*planner.Sort](sel.Root)
	return ok
}
