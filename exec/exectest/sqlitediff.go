package exectest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest/ref"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// SQLiteOptions size the sqlite oracle's run. Zero values mean the
// defaults.
type SQLiteOptions struct {
	Rows    int    // rows generated per table (500)
	Queries int    // random queries per table (120)
	Seed    uint64 // random seed (1, or $RKQL_DIFF_SEED)
	// Tables limits the run to these tables; nil means all that do not
	// expand (a key group or wide rows: logical rows are no stored rows).
	Tables  []string
	Planner planner.Options
	// Now, when set, is the store's time (ms): the rows are then
	// written within the day before it, so that no TTL expires them on a
	// store that reads the wall clock (HBase). Zero writes them at
	// writeTimes, which a store whose clock reads SQLiteClock keeps.
	Now int64
	// Tamper, when set, changes the store behind sqlite's back once both
	// hold the rows: the test that shows the oracle sees a difference.
	Tamper func(ctx context.Context, x *exec.Executor, t *catalog.Table, rows []catalog.Row) error
	// Parallel, above 1, places rkql's SELECTs with pushdown on and this
	// many parallel region scanners (exec.PlaceOptions.Parallel); 0
	// runs them as planned, every filter in the client.
	Parallel int
}

// SQLiteStats count a run's statements.
type SQLiteStats struct {
	Tables, Rows, Refused int
	Ops                   int // writes, CREATE, BUILD and DROP INDEX run
	Compared              int // statements run by both
	Agreed                int // of which equal results, or an overflow error in both
	NonEmpty              int // of Agreed: results with rows
	BothRefused           int // of Agreed: refused by both (an integer overflow, a unique index)
	// Skipped counts the statements outside the compared subset, or
	// differing as documented, by their entry in SQLiteDifferences.
	Skipped map[string]int
	// Example is the first statement skipped for each reason.
	Example map[string]string
	// Differ are the disagreements, each the statement and the
	// difference.
	Differ []string
}

// Add adds o's counts to s.
func (s *SQLiteStats) Add(o SQLiteStats) {
	addCounts(s, &o)
	s.Differ = append(s.Differ, o.Differ...)
	if s.Skipped == nil {
		s.Skipped = map[string]int{}
	}
	for k, n := range o.Skipped {
		s.Skipped[k] += n
	}
	for k, q := range o.Example {
		if _, ok := s.Example[k]; !ok {
			s.setExample(k, q)
		}
	}
}

// skip counts q as skipped for reason.
func (s *SQLiteStats) skip(reason, q string) {
	s.Skipped[reason]++
	if _, ok := s.Example[reason]; !ok {
		s.setExample(reason, q)
	}
}

func (s *SQLiteStats) setExample(reason, q string) {
	if s.Example == nil {
		s.Example = map[string]string{}
	}
	s.Example[reason] = q
}

// Summary is one line of counts, with the skipped ones by reason.
func (s *SQLiteStats) Summary() string {
	var skips []string
	for k, n := range s.Skipped {
		skips = append(skips, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(skips)
	load := fmt.Sprintf("%d rows (%d hostile rows refused by the write)", s.Rows, s.Refused)
	if s.Ops > 0 {
		load = fmt.Sprintf("%d operations", s.Ops)
	}
	return fmt.Sprintf("%d tables, %s, %d statements compared, %d agreed (%d with rows, %d refused by both), %d differ; skipped: %s",
		s.Tables, load, s.Compared, s.Agreed, s.NonEmpty, s.BothRefused, len(s.Differ), strings.Join(skips, ", "))
}

// Reasons says why each kind of skipped statement was left out, with
// the first one.
func (s *SQLiteStats) Reasons() string {
	var lines []string
	for k, n := range s.Skipped {
		name, _, _ := strings.Cut(k, " (")
		why := SQLiteDifferences[name]
		if b, ok := strings.CutPrefix(name, "bug:"); ok {
			why = "rkql bug: " + SQLiteKnownBugs[b].Why
		}
		lines = append(lines, fmt.Sprintf("%s (%d): %s\n    for example %s", k, n, why, s.Example[k]))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// RunSQLite loads the same adversarial rows into st and into sqlite for
// each table of cat, and compares the whole table and random SELECTs
// answered by both. A statement the two engines answer differently fails
// the test, unless SQLiteDifferences names why.
func RunSQLite(t *testing.T, st exec.Store, db *SQLite, cat *catalog.Catalog, o SQLiteOptions) SQLiteStats {
	var all SQLiteStats
	for _, tb := range cat.Tables {
		if o.Tables != nil && !slices.Contains(o.Tables, tb.Name) || o.Tables == nil && ref.Expands(tb) {
			continue
		}
		t.Run(tb.Name, func(t *testing.T) {
			s, err := SQLiteTable(context.Background(), st, db, cat, tb, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s", tb.Name, s.Summary())
			for _, d := range s.Differ {
				t.Errorf("%s", d)
			}
			all.Add(s)
		})
	}
	return all
}

// SQLiteTable runs the oracle over one table: it loads adversarial rows
// into st and into a fresh sqlite table, then compares the whole table,
// queries aimed at the adversarial values (edgeQueries), and o.Queries
// random SELECTs.
func SQLiteTable(ctx context.Context, st exec.Store, db *SQLite, cat *catalog.Catalog, tb *catalog.Table, o SQLiteOptions) (SQLiteStats, error) {
	o.Rows = cmp.Or(o.Rows, 500)
	o.Queries = cmp.Or(o.Queries, 120)
	o.Seed = diffSeed(o.Seed)
	s := SQLiteStats{Tables: 1, Skipped: map[string]int{}}
	x := &exec.Executor{Store: st}
	if err := x.EnsureTable(ctx, tb); err != nil {
		return s, err
	}
	times := writeTimes
	if o.Now != 0 {
		times = make([]int64, len(writeTimes))
		for i, ts := range writeTimes {
			times[i] = ts - writeTimes[len(writeTimes)-1] + o.Now - 3_600_000
		}
	}
	rows, refused := hostileRows(tb, o.Rows, o.Seed, times)
	s.Rows, s.Refused = len(rows), refused
	if err := loadBoth(ctx, x, db, tb, rows, times); err != nil {
		return s, err
	}
	if o.Tamper != nil {
		if err := o.Tamper(ctx, x, tb, rows); err != nil {
			return s, err
		}
	}
	c := &sqliteChecker{x: x, db: db, pl: planner.New(cat, o.Planner), t: tb, tr: newSQLTr(tb, rows), rows: rows, s: &s, parallel: o.Parallel}
	c.check(ctx, "SELECT *, _ts FROM "+tb.Name+" ALLOW FULL SCAN")
	for _, q := range edgeQueries(tb, rows, rand.New(rand.NewPCG(o.Seed, 37))) {
		c.check(ctx, q)
	}
	g := &queryGen{t: tb, r: rand.New(rand.NewPCG(o.Seed, 29)), rows: rows}
	for range o.Queries {
		c.check(ctx, g.query())
	}
	return s, nil
}

// loadBoth writes rows into the store, each at its _ts, and into a fresh
// sqlite table.
func loadBoth(ctx context.Context, x *exec.Executor, db *SQLite, tb *catalog.Table, rows []catalog.Row, times []int64) error {
	n := len(tb.Columns)
	for _, ts := range times {
		var batch []catalog.Row
		for _, r := range rows {
			if r[n].I == ts {
				batch = append(batch, r[:n])
			}
		}
		if len(batch) == 0 {
			continue
		}
		if err := x.Insert(ctx, tb, batch, ts, nil); err != nil {
			return fmt.Errorf("load %s: %w", tb.Name, err)
		}
	}
	ins, err := insertSQL(tb, rows)
	if err != nil {
		return err
	}
	return db.Exec(createSQL(tb) + "\n" + ins)
}

// sqliteChecker runs statements on both engines and counts.
type sqliteChecker struct {
	x    *exec.Executor
	db   *SQLite
	pl   *planner.Planner
	t    *catalog.Table
	tr   *sqlTr
	rows []catalog.Row
	s    *SQLiteStats
	// sess, when set, runs rkql's statements instead of pl and x.
	sess Session
	// nonEmpty says the statement being checked returned rows.
	nonEmpty bool
	// parallel is SQLiteOptions.Parallel.
	parallel int
}

// check runs q on both and records the outcome.
func (c *sqliteChecker) check(ctx context.Context, q string) {
	c.nonEmpty = false
	err := c.compare(ctx, q)
	var sk *SkipError
	switch {
	case err == nil:
		c.s.Compared++
		c.s.Agreed++
		if c.nonEmpty {
			c.s.NonEmpty++
		}
	case errors.As(err, &sk):
		c.s.skip(sk.Diff, q)
	case errors.Is(err, errBothRefused):
		c.s.Compared++
		c.s.Agreed++
		c.s.BothRefused++
	default:
		c.s.Compared++
		c.s.Differ = append(c.s.Differ, fmt.Sprintf("%s\n  %v", q, err))
	}
}

var errBothRefused = errors.New("an integer overflow in both")

// compare runs q planned by rkql (and without its index, when it uses
// one) and by sqlite, and returns their difference.
func (c *sqliteChecker) compare(ctx context.Context, q string) error {
	s, err := parseSelect(q)
	if err != nil {
		return err
	}
	if err := c.nanRisk(s); err != nil {
		return err
	}
	ss, err := c.tr.selectSQL(s)
	if err != nil {
		return err
	}
	rows, serr := c.db.Query(ss.SQL)
	var se *SQLError
	if serr != nil && !(errors.As(serr, &se) && strings.Contains(se.Msg, "integer overflow")) {
		return fmt.Errorf("sqlite: %v\n  %s", serr, ss.SQL)
	}
	got, types, plan, perr := c.run(ctx, q)
	if perr == nil && serr != nil && !c.tr.condNull && (s.Where != nil || s.Having != nil) {
		// rkql answered where sqlite overflowed: an overflow that does
		// not decide whether a row is kept does not fail rkql, but
		// fails sqlite when it evaluates that term first; with the
		// overflow as NULL, sqlite must answer as rkql does.
		c.tr.condNull = true
		err := c.compare(ctx, q)
		c.tr.condNull = false
		if err == nil {
			return skip("overflow-order")
		}
		return err
	}
	if perr != nil || serr != nil {
		return c.refusal(s, perr, serr, ss.SQL)
	}
	want, err := sqliteResult(s, ss, types, rows)
	if err != nil {
		return fmt.Errorf("%w\n  %s", err, ss.SQL)
	}
	if len(got) > 0 {
		c.nonEmpty = true
	}
	if err := ref.Compare(canonical(got), want); err != nil {
		if plan == nil {
			return fmt.Errorf("rkql and sqlite differ: %w\n  sqlite: %s", err, ss.SQL)
		}
		return fmt.Errorf("rkql and sqlite differ: %w\n  sqlite: %s\n%s", err, ss.SQL, plan)
	}
	if plan != nil && plan.IndexLookup() != nil {
		noIx := strings.Replace(q, " FROM "+c.t.Name+" ", " FROM "+c.t.Name+" NO INDEX ", 1)
		if err := c.compare(ctx, noIx); err != nil {
			return fmt.Errorf("with NO INDEX: %w", err)
		}
	}
	return nil
}

// run runs q in rkql: through the session when the checker has one
// (the types of the result columns are then those of its first row, nil
// without rows), else planned and executed directly.
func (c *sqliteChecker) run(ctx context.Context, q string) ([]catalog.Row, []catalog.Type, *planner.Select, error) {
	if c.sess != nil {
		rows, _, err := c.sess.Exec(ctx, q)
		if err != nil || len(rows) == 0 {
			return nil, nil, nil, err
		}
		types := make([]catalog.Type, len(rows[0]))
		for i, v := range rows[0] {
			types[i] = v.Type
		}
		return rows, types, nil, nil
	}
	sel, err := Plan(c.pl, q)
	if err != nil {
		return nil, nil, nil, err
	}
	p := placed.New(sel)
	if c.parallel > 1 {
		if p, err = exec.Place(ctx, c.x.Store, sel, exec.PlaceOptions{Parallel: c.parallel}); err != nil {
			return nil, nil, nil, err
		}
	}
	got, err := DrainPlaced(ctx, c.x, p, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	types := make([]catalog.Type, len(sel.Output))
	for i, o := range sel.Output {
		types[i] = o.Type
	}
	return got, types, sel, nil
}

// refusal judges a statement that failed in one engine or both.
func (c *sqliteChecker) refusal(s *parser.SelectStmt, perr, serr error, sql string) error {
	over := errors.Is(perr, expr.ErrOverflow)
	switch {
	case perr != nil && serr != nil && over:
		return errBothRefused
	case (over || perr == nil) && (s.Limit >= 0 || s.Offset > 0):
		// Which rows a LIMIT stops before or an OFFSET passes over
		// unread differ between the engines.
		return skip("overflow-rows")
	}
	if serr != nil {
		return fmt.Errorf("rkql: %v; sqlite: %v\n  sqlite: %s", perr, serr, sql)
	}
	return fmt.Errorf("rkql fails where sqlite answers: %v\n  sqlite: %s", perr, sql)
}

// nanRisk skips a query that can make a NaN out of the data: % over a
// DOUBLE column that holds an infinity, or a sum over one that holds
// both.
func (c *sqliteChecker) nanRisk(s *parser.SelectStmt) error {
	inf := func(name string, both bool) bool {
		i, ok := c.t.Column(name)
		if !ok || c.t.Columns[i].Type != catalog.TypeDouble {
			return false
		}
		var pos, neg bool
		for _, r := range c.rows {
			pos = pos || !r[i].Null && math.IsInf(r[i].F, 1)
			neg = neg || !r[i].Null && math.IsInf(r[i].F, -1)
		}
		return both && pos && neg || !both && (pos || neg)
	}
	risky := func(e parser.Expr) bool {
		switch e := e.(type) {
		case *parser.BinaryExpr:
			return e.Op == parser.OpMod && ref.AnyExpr(e.LHS, func(x parser.Expr) bool {
				col, ok := x.(*parser.ColumnRef)
				return ok && inf(col.Name, false)
			})
		case *parser.CallExpr:
			if e.Name == "SUM" || e.Name == "AVG" {
				col, ok := e.Args[0].(*parser.ColumnRef)
				return ok && inf(col.Name, true)
			}
		}
		return false
	}
	for _, it := range s.Items {
		if ref.AnyExpr(it.Expr, risky) {
			return skip("nan")
		}
	}
	for _, o := range s.Order {
		if ref.AnyExpr(o.Expr, risky) {
			return skip("nan")
		}
	}
	if ref.AnyExpr(s.Where, risky) || ref.AnyExpr(s.Having, risky) {
		return skip("nan")
	}
	return nil
}

// canonical copies rows with -0.0 as 0.0.
func canonical(rows []catalog.Row) []catalog.Row {
	out := make([]catalog.Row, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
		for j, v := range out[i] {
			if v.Type == catalog.TypeDouble && !v.Null && v.F == 0 {
				out[i][j].F = 0
			}
		}
	}
	return out
}
