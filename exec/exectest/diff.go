// Package exectest holds the differential test suite: for every table of
// a catalog it loads random rows into a Store, runs random queries through
// the planner and the executor, and checks each result against a
// reference answer. The same suite runs on every Store.
//
// The reference is package ref (exec/exectest/ref), which imports
// neither the planner, nor package expr, nor exec: ScanAll reads every
// row by a plain scan and hands its cells to ref's own decoder, and
// ref.Evaluate walks the parsed statement with its own SQL semantics;
// ref.Compare checks a planned result against its answer.
// RunOpenTSDBDiff runs the suite over OpenTSDB's tsdb table with points
// written as OpenTSDB writes them, millisecond points and compacted cells
// among them. Query shapes where the planned result is known to differ
// from it are listed, with reproductions, in KnownDivergences.
//
// RunWrites checks writes the same way: random sequences of INSERTs (at
// older, equal, newer, future or no TIMESTAMP, with NULLs and partial
// columns), DELETEs and clock advances run through the engine, while Model
// applies them to its own copy of the table's cells with HBase's
// semantics (versions, delete markers, TTL). After every operation,
// queries with and without each index, and each index table's entries,
// must equal ref.Evaluate over the model's visible rows. Write sequences
// known to end elsewhere are listed, with reproductions, in
// KnownWriteDivergences.
//
//	generator ──op──> engine ──> Store ──> SELECT … [USE INDEX | NO INDEX] ─┐
//	     └──────op──> Model ──visible rows──> Evaluate ──────────────> Compare
//
// A second oracle is sqlite3, driven through its shell (sqlite.go):
// RunSQLite loads the same adversarial rows (sqlitedata.go) into a Store
// and into sqlite, and compares the whole table and random SELECTs, which
// sqlitesql.go and sqlitesel.go write in sqlite's dialect, aimed at the
// adversarial values too (sqlitequeries.go), and sqliteresult.go reads
// back as the rows rkql must give; SQLiteWrites does the same after
// random writes and index DDL (sqlitewrites.go).
// Where the two languages differ on purpose, the translation bridges the
// difference or leaves the statement out, counted by its entry in
// SQLiteDifferences; rkql bugs the oracle found are in SQLiteKnownBugs,
// each with a reproduction.
package exectest

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest/ref"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// Options size the suite. Zero values mean the defaults.
type Options struct {
	Rows    int    // rows loaded per table (10,000)
	Queries int    // random queries per table (500)
	Seed    uint64 // random seed (1)
	// Tables limits the suite to these tables; nil means all.
	Tables []string
	// Planner are the planner options of the planned queries (the
	// reference ignores them).
	Planner planner.Options
	// NoNaN keeps NaN out of stored DOUBLE columns of the data; by
	// default some rows hold it, so that its place above every number is
	// checked in filters and sorts.
	NoNaN bool
	// Load writes the rows; nil means exec.Executor.Insert.
	Load func(ctx context.Context, t *catalog.Table, rows []catalog.Row) error
	// Parallel places every planned query with this many parallel
	// region scanners (exec.PlaceOptions.Parallel); 0 reads serially.
	Parallel int
}

// Run runs the differential suite over st.
func Run(t *testing.T, st exec.Store, cat *catalog.Catalog, o Options) {
	o.Rows = cmp.Or(o.Rows, 10_000)
	o.Queries = cmp.Or(o.Queries, 500)
	o.Seed = diffSeed(o.Seed)
	for _, tb := range cat.Tables {
		if o.Tables != nil && !slices.Contains(o.Tables, tb.Name) {
			continue
		}
		t.Run(tb.Name, func(t *testing.T) { runTable(t, st, cat, tb, o) })
	}
}

// Loaded returns every row of t in the store, read by a planned
// SELECT * … ALLOW FULL SCAN, as the cross-store checks compare them. The
// reference reads its rows with ScanAll instead, without the planner.
func Loaded(ctx context.Context, x *exec.Executor, pl *planner.Planner, t *catalog.Table) ([]catalog.Row, error) {
	sel, err := Plan(pl, "SELECT * FROM "+t.Name+" ALLOW FULL SCAN")
	if err != nil {
		return nil, err
	}
	return Drain(ctx, x, sel, nil)
}

// Plan parses and plans one SELECT.
func Plan(pl *planner.Planner, q string) (*planner.Select, error) {
	stmt, err := parser.ParseOne(q)
	if err != nil {
		return nil, err
	}
	p, err := pl.Plan(context.Background(), stmt)
	if err != nil {
		return nil, err
	}
	sel, ok := p.(*planner.Select)
	if !ok {
		return nil, fmt.Errorf("%q is not a SELECT", q)
	}
	return sel, nil
}

// Drain runs a SELECT as planned, every filter in the client, and
// returns all its rows. stats may be nil.
func Drain(ctx context.Context, x *exec.Executor, sel *planner.Select, stats *exec.Stats) ([]catalog.Row, error) {
	return DrainPlaced(ctx, x, placed.New(sel), stats)
}

// DrainPlaced runs a placed SELECT and returns all its rows. stats may be
// nil. It is the one place the suite calls the executor's query API.
func DrainPlaced(ctx context.Context, x *exec.Executor, p *placed.Plan, stats *exec.Stats) ([]catalog.Row, error) {
	rows, err := x.Run(ctx, p, stats)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []catalog.Row
	for {
		r, err := rows.Next(ctx)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
}

func runTable(t *testing.T, st exec.Store, cat *catalog.Catalog, tb *catalog.Table, o Options) {
	ctx := context.Background()
	x := &exec.Executor{Store: st}
	if err := x.EnsureTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	data := examples.Rows(tb, o.Rows, o.Seed)
	addSpecials(tb, data, rand.New(rand.NewPCG(o.Seed, 11)), !o.NoNaN)
	load := o.Load
	if load == nil {
		load = func(ctx context.Context, t *catalog.Table, rows []catalog.Row) error {
			return x.Insert(ctx, t, rows, 0, nil)
		}
	}
	if err := load(ctx, tb, data); err != nil {
		t.Fatal(err)
	}
	pl := planner.New(cat, o.Planner)
	all, err := ScanAll(ctx, st, tb)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatalf("no rows loaded into %s", tb.Name)
	}
	g := &queryGen{t: tb, r: rand.New(rand.NewPCG(o.Seed, 7)), rows: all}
	c := &checker{x: x, pl: pl, t: tb, all: all, kinds: map[string]int{}, known: map[string]int{}, parallel: o.Parallel}
	for _, q := range fixedQueries[tb.Name] {
		if err := c.checkNonEmpty(ctx, q); err != nil {
			t.Errorf("%s\n  %v", q, err)
		}
	}
	for i := 0; i < o.Queries; i++ {
		q := g.query()
		if err := c.check(ctx, q); err != nil {
			t.Errorf("query %d: %s\n  %v", i, q, err)
			if t.Failed() && i > 20 {
				return
			}
		}
	}
	t.Logf("%s: %d rows, %d queries, plans %v", tb.Name, len(all), o.Queries, c.kinds)
	for name, n := range c.known {
		t.Logf("%s: %d queries differ as the known divergence %q says", tb.Name, n, name)
	}
}

// fixedQueries run on every store before the random ones; each must
// return rows.
var fixedQueries = map[string][]string{
	"orders": {
		"SELECT status, COUNT(*), SUM(amount) FROM orders WHERE seller = 's3' GROUP BY status HAVING COUNT(*) > 1 ORDER BY 2 DESC",
		"SELECT seller, COUNT(*) AS n, COUNT(DISTINCT status), MIN(ts), MAX(amount), AVG(order_id) FROM orders GROUP BY seller ORDER BY n DESC, seller LIMIT 5 OFFSET 3 ALLOW FULL SCAN",
		"SELECT order_id, amount * 2 AS twice, UPPER(status) || '!' AS s, DATE_TRUNC('day', ts) FROM orders WHERE seller = 's1' ORDER BY twice DESC, order_id OFFSET 2",
		"SELECT *, _ts FROM orders WHERE seller = 's2' AND ts > TIMESTAMP '2024-06-01 00:00:00' - INTERVAL '30' DAY ORDER BY order_id LIMIT 10",
		"SELECT status, COUNT(*), MIN(order_id) FROM orders WHERE seller = 's1' OR buyer = 'b2' GROUP BY status ORDER BY 2 DESC, status ALLOW FULL SCAN",
		"SELECT DISTINCT UPPER(status) AS s, seller FROM orders WHERE (seller, status) IN (('s1', 'paid'), ('s2', 'new'), ('s3', 'paid')) ORDER BY s DESC, 2 ALLOW FULL SCAN",
		"SELECT DISTINCT seller, COUNT(*) FROM orders WHERE seller LIKE 's!_%' ESCAPE '!' OR seller IN ('s1', 's2') GROUP BY seller ORDER BY 1 LIMIT 5 ALLOW FULL SCAN",
	},
	"logs": {
		"SELECT hostname, COUNT(*), MIN(ts) FROM logs GROUP BY hostname HAVING COUNT(*) > 0 ORDER BY hostname ALLOW FULL SCAN",
	},
	// id and n are java integers holding both signs: Java's two's
	// complement sorts 0..MAX before MIN..-1 (id), and MAX - v (n) sorts
	// descending across zero.
	"java_signed": {
		"SELECT * FROM java_signed WHERE id IN (-6, -5, -4, -3, -2, -1) ALLOW FULL SCAN",
		"SELECT * FROM java_signed WHERE acct = 'acct-1' AND id < 7",
		"SELECT * FROM java_signed WHERE acct = 'acct-1' AND id < -100",
		"SELECT acct, id, n FROM java_signed WHERE acct = 'acct-2' AND id BETWEEN -250 AND 250 ORDER BY id LIMIT 7",
		"SELECT acct, id, n FROM java_signed WHERE acct = 'acct-2' AND id BETWEEN -250 AND 250 ORDER BY id DESC LIMIT 7",
		"SELECT acct, id FROM java_signed WHERE acct IN ('acct-3', 'acct-4') AND id > -300 ORDER BY id DESC LIMIT 9",
		"SELECT acct, id FROM java_signed WHERE acct = 'acct-3' ORDER BY id LIMIT 5",
		"SELECT acct, id FROM java_signed WHERE acct = 'acct-3' AND id >= 0 ORDER BY id DESC LIMIT 5",
		"SELECT id, n, acct FROM java_signed WHERE id BETWEEN -20 AND 20 ORDER BY id, n DESC LIMIT 12 ALLOW FULL SCAN",
		"SELECT id, n, acct FROM java_signed WHERE id BETWEEN -20 AND 20 ORDER BY id DESC LIMIT 12 ALLOW FULL SCAN",
		"SELECT id, n FROM java_signed WHERE id IN (-17, -16, 16, 17) AND n BETWEEN -60 AND 60 ORDER BY n LIMIT 5 ALLOW FULL SCAN",
		"SELECT id, n FROM java_signed WHERE id < -480 ORDER BY id LIMIT 4 ALLOW FULL SCAN",
		"SELECT acct, id, n FROM java_signed WHERE acct = 'acct-5' AND id BETWEEN -100 AND 100 AND n < 0",
	},
}

// checkNonEmpty checks q and that the reference answers it with rows.
func (c *checker) checkNonEmpty(ctx context.Context, q string) error {
	want, err := c.reference(q)
	if err != nil {
		return err
	}
	if want.Len() == 0 {
		return fmt.Errorf("the reference returns no rows, so the query checks nothing")
	}
	return c.checkPlanned(ctx, q, want)
}

// checker runs queries planned and by the reference, and compares.
type checker struct {
	x     *exec.Executor
	pl    *planner.Planner
	t     *catalog.Table
	all   []catalog.Row
	kinds map[string]int
	// known counts the differences excused by KnownDivergences.
	known map[string]int
	// parallel is PlaceOptions.Parallel of the planned queries.
	parallel int
}

// check runs q planned and compares it with the reference.
func (c *checker) check(ctx context.Context, q string) error {
	want, err := c.reference(q)
	if err != nil {
		return err
	}
	return c.checkPlanned(ctx, q, want)
}

// reference is the reference's answer to q over the table's rows.
func (c *checker) reference(q string) (*ref.Result, error) {
	s, err := parseSelect(q)
	if err != nil {
		return nil, err
	}
	return ref.Evaluate(c.t, s, c.all)
}

func parseSelect(q string) (*parser.SelectStmt, error) {
	stmt, err := parser.ParseOne(q)
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	s, ok := stmt.(*parser.SelectStmt)
	if !ok {
		return nil, fmt.Errorf("%q is not a SELECT", q)
	}
	return s, nil
}

// checkPlanned runs q through the planner and the executor and compares
// the rows with want; a query served by an index is run without it too.
func (c *checker) checkPlanned(ctx context.Context, q string, want *ref.Result) error {
	sel, err := Plan(c.pl, q)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	if sel.Access == nil {
		// A union of OR branches: each branch's access is checked by
		// the whole query's result.
		c.kinds["UNION-OF-BRANCHES"]++
		noIx := strings.Replace(q, " FROM "+sel.Table.Name+" ", " FROM "+sel.Table.Name+" NO INDEX ", 1)
		if err := c.checkPlanned(ctx, noIx, want); err != nil {
			return fmt.Errorf("with NO INDEX: %w", err)
		}
		return c.runPlanned(ctx, q, want)
	}
	kind := strings.Fields(sel.Access.Header())[0]
	if ix := sel.IndexLookup(); ix != nil {
		kind = "INDEX:" + ix.Index.Name
		noIx := strings.Replace(q, " FROM "+sel.Table.Name+" ", " FROM "+sel.Table.Name+" NO INDEX ", 1)
		if err := c.checkPlanned(ctx, noIx, want); err != nil {
			return fmt.Errorf("with NO INDEX: %w", err)
		}
	}
	c.kinds[kind]++
	if ag, ok := planner.Find[*planner.Aggregate](sel.Root); ok {
		c.kinds[[...]string{"AGG-ONE", "AGG-STREAM", "AGG-HASH"}[ag.Strategy]]++
	}
	if sel.Access.Union > 0 {
		c.kinds["UNION"]++
	}
	if _, ok := planner.Find[*planner.Distinct](sel.Root); ok {
		c.kinds["DISTINCT"]++
	}
	if c.parallel > 1 {
		if p, err := exec.Place(ctx, c.x.Store, sel, exec.PlaceOptions{Parallel: c.parallel}); err == nil {
			if sc := p.Scan(sel.Access); len(sc.Parts) > 0 {
				c.kinds["PARALLEL"]++
				if sc.Unordered {
					c.kinds["PARALLEL UNORDERED"]++
				}
			}
		}
	}
	return c.runPlanned(ctx, q, want)
}

// runPlanned runs q with pushdown on and off and compares each result
// with want.
func (c *checker) runPlanned(ctx context.Context, q string, want *ref.Result) error {
	// Each query runs with pushdown on and off: what the store evaluates
	// and what the client evaluates must both agree with the reference;
	// with Options.Parallel, once more with parallel region reads.
	type run struct {
		on       bool
		parallel int
	}
	runs := []run{{true, 0}, {false, 0}}
	if c.parallel > 1 {
		runs = append(runs, run{true, c.parallel}, run{false, c.parallel})
	}
	for _, r := range runs {
		on := r.on
		sel, err := Plan(c.pl, q)
		if err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		p, err := exec.Place(ctx, c.x.Store, sel, exec.PlaceOptions{NoPushdown: !on, Parallel: r.parallel})
		if err != nil {
			return fmt.Errorf("place (pushdown %v, parallel %d): %w", on, r.parallel, err)
		}
		got, err := DrainPlaced(ctx, c.x, p, nil)
		if err != nil {
			return fmt.Errorf("run (pushdown %v, parallel %d): %w\n%s", on, r.parallel, err, p.Explain(planner.ExplainEnv{}, nil).Text())
		}
		if err := ref.Compare(got, want); err != nil {
			// A difference in a query of a shape KnownDivergences lists
			// is counted, not returned.
			if s, perr := parseSelect(q); perr == nil {
				if d := knownFor(c.t, s); d != nil {
					c.known[d.Name]++
					return nil
				}
			}
			return fmt.Errorf("pushdown %v, parallel %d: %w\n%s", on, r.parallel, err, p.Explain(planner.ExplainEnv{}, nil).Text())
		}
	}
	return nil
}
