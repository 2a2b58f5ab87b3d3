package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/design"
	"github.com/rkql/rkql/design/advise"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/placed"
	"github.com/rkql/rkql/parser"
	"github.com/rkql/rkql/planner"
)

// Plan plans one statement without running it.
func (e *Engine) Plan(ctx context.Context, st parser.Stmt) (planner.Plan, error) {
	return e.pl.Plan(ctx, st)
}

// Run plans and runs one statement. A Result with Rows streams them: the
// caller reads and closes it.
//
// A layout statement (planner.Layout) is planned and run under the
// catalog's lock, from the catalog file read again, so that it is checked
// against the file as it is and no other process's edit is lost.
func (e *Engine) Run(ctx context.Context, st parser.Stmt) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if planner.Layout(st) {
		release, err := e.lockFor(ctx, st)
		if err != nil {
			return nil, err
		}
		defer release()
		if err := e.reloadCatalog(); err != nil {
			return nil, err
		}
	}
	st, druns, err := e.derivedFirst(ctx, st)
	if err != nil {
		return nil, err
	}
	st, runs, err := e.subqueriesFirst(ctx, st)
	if err != nil {
		return nil, err
	}
	runs = append(druns, runs...)
	// Planning is linear in the statement's size, but a statement may be
	// huge: Ctrl-C and the timeout stop it through ctx.
	p, err := e.pl.Plan(ctx, st)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("planning: %w", err)
		}
		return nil, err
	}
	if ex, ok := p.(*planner.Explain); ok && len(runs) > 0 {
		e.reading = true
		defer func() { e.reading = false }()
		return e.explainAfter(ctx, ex, subquerySteps(runs, ex.Analyze))
	}
	return e.RunPlan(ctx, p)
}

// RunPlan runs a planned statement: the one place where each kind of
// plan meets the code that runs it. The plan of a layout statement must
// come from Run, which plans it under the catalog's lock.
func (e *Engine) RunPlan(ctx context.Context, p planner.Plan) (*Result, error) {
	what := writeStatement(p)
	if what != "" {
		if err := e.Writable(what); err != nil {
			return nil, err
		}
	}
	_, layout := p.(planner.LayoutPlan)
	e.reading = what == "" && !layout
	defer func() { e.reading = false }()
	switch p := p.(type) {
	case *planner.Select:
		return e.query(ctx, p)
	case *planner.Explain:
		return e.explain(ctx, p)
	case *planner.RawRead:
		return e.rawRead(ctx, p)
	case *planner.RawExplain:
		return e.rawExplain(ctx, p)
	case *planner.Insert:
		if err := exec.PhoenixWritable(p.Table); err != nil {
			return nil, err
		}
		if p.Source != nil {
			return e.insertSelect(ctx, p)
		}
		return e.insert(ctx, p)
	case *planner.ShowTables:
		return e.showTables(ctx)
	case *planner.ShowRegions:
		return e.showRegions(ctx, p.Table)
	case *planner.Describe:
		if p.Table == nil {
			return e.describeStored(ctx, p)
		}
		return describe(p.Table), nil
	case *planner.CreateTable:
		return e.createTable(ctx, p.Table)
	case *planner.EncodeKey:
		return encodeKey(p), nil
	case *planner.DecodeKey:
		return decodeKey(p), nil
	case *planner.Delete:
		if err := exec.PhoenixWritable(p.Table); err != nil {
			return nil, err
		}
		return e.deleteRows(ctx, p)
	case *planner.Update:
		if err := exec.PhoenixWritable(p.Table); err != nil {
			return nil, err
		}
		return e.update(ctx, p)
	case *planner.BuildIndex:
		return e.buildIndex(ctx, p)
	case *planner.CheckIndex:
		return e.checkIndex(ctx, p)
	case *planner.Flush, *planner.Compact, *planner.Split, *planner.Merge, *planner.Balancer:
		return e.maintain(ctx, p)
	case *planner.ShowStatus:
		return e.showStatus(ctx)
	case *planner.CheckCluster:
		return e.checkCluster(ctx, p)
	case *planner.Snapshot, *planner.ShowSnapshots, *planner.DropSnapshot, *planner.RestoreSnapshot, *planner.CloneSnapshot:
		return e.snapshots(ctx, p)
	case *planner.CreateNamespace, *planner.DropNamespace, *planner.ShowNamespaces:
		return e.namespace(ctx, p)

	// The layout statements edit or show the catalog file (ddl.go).
	case *planner.DefineTable:
		return e.defineTable(ctx, p)
	case *planner.CreateIndex:
		return e.createIndex(ctx, p)
	case *planner.DropTable:
		return e.dropTable(ctx, p)
	case *planner.DropIndex:
		return e.dropIndex(ctx, p)
	case *planner.Truncate:
		if err := exec.PhoenixWritable(p.Table); err != nil {
			return nil, err
		}
		return e.truncate(ctx, p)
	case *planner.AlterTable:
		return e.alterTable(ctx, p)
	case *planner.Infer:
		return e.inferTable(ctx, p)
	case *planner.ImportPhoenix:
		return e.importPhoenix(ctx, p)
	case *planner.ShowCatalog:
		return e.showCatalog(p)

	// The design statements judge layouts from the catalog alone
	// (design/).
	case *planner.Lint:
		return textResult(design.LintReport(p.Tables), nil)
	case *planner.ShowCreate:
		return textResult(design.ShowCreate(p.Table), nil)
	case *planner.Simulate:
		return textResult(design.SimulateReport(p))
	case *planner.Advise:
		return textResult(advise.Report(p.File, e.cfg.Catalog, e.cfg.CatalogSource))
	}
	return nil, fmt.Errorf("%T is not supported by the engine yet", p)
}

// textResult is the Result of a statement that answers with text.
func textResult(text string, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	return &Result{Text: text}, nil
}

// writeStatement names a plan that writes or changes a table, or returns
// "" for one that only reads.
func writeStatement(p planner.Plan) string {
	switch p := p.(type) {
	case *planner.Insert:
		if p.Upsert {
			return "UPSERT"
		}
		return "INSERT"
	case *planner.CreateTable:
		return "CREATE TABLE"
	case *planner.Delete:
		return "DELETE"
	case *planner.Update:
		return "UPDATE"
	case *planner.BuildIndex:
		return "BUILD INDEX"
	case *planner.CheckIndex:
		if p.Repair {
			return "CHECK INDEX … REPAIR"
		}
	}
	if w := namespaceStatement(p); w != "" {
		return w
	}
	return maintStatement(p)
}

// prepare opens the store a SELECT reads and places the plan on it. A
// read has no side effects: on a store that creates tables on demand, a
// table never created is not created now, and prepare returns
// errNeverCreated with the executor and the placed plan.
func (e *Engine) prepare(ctx context.Context, sel *planner.Select) (*exec.Executor, *placed.Plan, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, nil, err
	}
	opts := exec.PlaceOptions{NoPushdown: !e.pushdown, BlockCache: e.blockCache, Parallel: e.parallel.placeParallel()}
	missing, err := e.neverCreated(ctx, x, sel.Table)
	// A derived table's SELECT may yield rows over a table never created
	// (its COUNT(*) is 0): every table it reads is created instead.
	missing = missing && !readsDerived(sel)
	if err != nil || missing {
		if err != nil {
			return x, nil, err
		}
		p, err := exec.Place(ctx, x.Store, sel, opts)
		if err == nil {
			err = errNeverCreated
		}
		return x, p, err
	}
	if err := e.ensure(ctx, x, sel.Table); err != nil {
		return nil, nil, err
	}
	for _, acc := range sel.Accesses() {
		if acc.Table != sel.Table {
			if err := e.ensure(ctx, x, acc.Table); err != nil {
				return nil, nil, err
			}
		}
	}
	p, err := exec.Place(ctx, x.Store, sel, opts)
	if err != nil {
		return nil, nil, err
	}
	return x, p, nil
}

// errNeverCreated says that a read's table was never created.
var errNeverCreated = errors.New("engine: the table was never created")

// neverCreated reports whether t's physical table does not exist on a
// store that creates tables on demand. It creates nothing.
func (e *Engine) neverCreated(ctx context.Context, x *exec.Executor, t *catalog.Table) (bool, error) {
	if !e.cfg.CreateOnDemand || e.ensured[t.Physical] {
		return false, nil
	}
	_, err := x.Store.Regions(ctx, t.Physical)
	if errors.Is(err, exec.ErrTableNotFound) {
		return true, nil
	}
	return false, err
}

// neverCreatedNote is the warning of a read of a table never created.
func neverCreatedNote(t *catalog.Table) func() []string {
	return func() []string {
		return []string{fmt.Sprintf("table %s has no rows: it was never created in this store (a write or CREATE TABLE creates it)", t.Name)}
	}
}

func (e *Engine) query(ctx context.Context, sel *planner.Select) (*Result, error) {
	x, p, err := e.prepare(ctx, sel)
	if errors.Is(err, errNeverCreated) {
		cols := make([]Column, len(sel.Output))
		for i, o := range sel.Output {
			cols[i] = Column{Name: o.Name, Type: o.Type}
		}
		var rows []catalog.Row
		if _, count := planner.Find[*planner.Count](sel.Root); count {
			rows = []catalog.Row{{catalog.Bigint(0)}}
		}
		res := rowsResult(cols, rows)
		res.Warnings = neverCreatedNote(sel.Table)
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	stats := &exec.Stats{}
	if sel.Raw {
		rows, err := x.QueryRaw(ctx, p, stats)
		if err != nil {
			return nil, err
		}
		cols := make([]Column, len(exec.RawColumns))
		for i, n := range exec.RawColumns {
			cols[i] = Column{Name: n, Type: exec.RawTypes[i]}
		}
		return e.strict(&Result{Columns: cols, Rows: rows, Stats: stats}, sel.Table.Name), nil
	}
	rows, err := x.Run(ctx, p, stats)
	if err != nil {
		return nil, err
	}
	cols := make([]Column, len(sel.Output))
	for i, o := range sel.Output {
		cols[i] = Column{Name: o.Name, Type: o.Type}
	}
	return e.strict(&Result{Columns: cols, Rows: rows, Stats: stats}, sel.Table.Name), nil
}

func (e *Engine) explain(ctx context.Context, ex *planner.Explain) (*Result, error) {
	return e.explainAfter(ctx, ex, nil)
}

// explainAfter is explain with the steps first run before the plan (the
// subqueries answered first) shown before its own.
func (e *Engine) explainAfter(ctx context.Context, ex *planner.Explain, first []planner.Step) (*Result, error) {
	sel := ex.Select
	x, p, err := e.prepare(ctx, sel)
	if errors.Is(err, errNeverCreated) && !ex.Analyze {
		err = nil
	}
	if errors.Is(err, errNeverCreated) {
		return nil, fmt.Errorf("EXPLAIN ANALYZE of %s: the table was never created in this store", sel.Table.Name)
	}
	if err != nil {
		return nil, err
	}
	env, err := e.explainEnv(ctx, x.Store, sel)
	if err != nil {
		return nil, err
	}
	var an *planner.Analysis
	if ex.Analyze {
		if an, err = e.analyze(ctx, x, p); err != nil {
			return nil, err
		}
	}
	model := p.Explain(env, an)
	if ex.Atomic {
		if _, err := cellAtomic(x, ex.Write.Op); err != nil {
			return nil, err
		}
	}
	if ex.Write != nil {
		model.Steps = append(model.Steps, *ex.Write)
	}
	if len(first) > 0 {
		model.Steps = append(slices.Clip(first), model.Steps...)
	}
	if ex.NoRead {
		model = noReadModel(model)
	}
	if ex.Verbose {
		model.Plan = append(model.Plan, planner.Attr{Label: "LEGEND", Value: legend(sel)})
	}
	if ex.JSON {
		return &Result{Text: model.JSON()}, nil
	}
	return &Result{Text: model.Text()}, nil
}

// legend explains the notation of the KEY line: the key of the table the
// SELECT reads first, an index's when it goes through one; for a union,
// of each table its branches read first, each line once.
func legend(sel *planner.Select) []string {
	var out []string
	for _, acc := range sel.Accesses() {
		for _, line := range acc.Table.Key.Legend() {
			if !slices.Contains(out, line) {
				out = append(out, line)
			}
		}
	}
	return out
}

// explainEnv fetches what EXPLAIN counts costs with: the regions of the
// tables the plan reads.
func (e *Engine) explainEnv(ctx context.Context, st exec.Store, sel *planner.Select) (planner.ExplainEnv, error) {
	env := planner.ExplainEnv{Regions: map[string][][]byte{}}
	tables := []*catalog.Table{sel.Table}
	for _, acc := range sel.Accesses() {
		tables = append(tables, acc.Table)
	}
	for _, t := range tables {
		if _, done := env.Regions[t.Physical]; done {
			continue
		}
		regions, err := st.Regions(ctx, t.Physical)
		if errors.Is(err, exec.ErrTableNotFound) {
			// Never created: cost it with the regions the catalog
			// would create it with.
			env.Regions[t.Physical] = append([][]byte{nil}, t.SplitKeys()...)
			continue
		}
		if err != nil {
			return env, err
		}
		starts := make([][]byte, len(regions))
		for i, r := range regions {
			starts[i] = r.StartKey
		}
		env.Regions[t.Physical] = starts
	}
	return env, nil
}

// analyze runs a query, draining its rows, and measures it.
func (e *Engine) analyze(ctx context.Context, x *exec.Executor, p *placed.Plan) (*planner.Analysis, error) {
	run := x.Run
	if p.Select().Raw {
		// SELECT RAW reads as it runs: its rows are cells.
		run = x.QueryRaw
	}
	return e.measure(ctx, func(stats *exec.Stats) (exec.Rows, error) { return run(ctx, p, stats) })
}

// measure starts a read, drains its rows and returns what it measured:
// the store's counts and the time from the start to the last row.
func (e *Engine) measure(ctx context.Context, start func(*exec.Stats) (exec.Rows, error)) (*planner.Analysis, error) {
	var stats exec.Stats
	begin := e.cfg.Clock()
	rows, err := start(&stats)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var n int64
	for {
		_, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		n++
	}
	return &planner.Analysis{
		RowsRead:     stats.RowsRead.Load(),
		RowsReceived: stats.RowsReceived.Load(),
		RowsReturned: n,
		Cells:        stats.Cells.Load(),
		Bytes:        stats.Bytes.Load(),
		RPCs:         stats.RPCs.Load(),
		Regions:      stats.Regions.Load(),
		DataReads:    stats.DataReads.Load(),
		Dangling:     stats.Dangling.Load(),
		Malformed:    stats.Malformed.Load(),
		Millis:       float64(e.cfg.Clock().Sub(begin).Microseconds()) / 1000,
		Parts:        stats.Parts.Load(),
		// The parts' times are measured by the wall clock, whatever
		// clock the engine reads.
		SlowestPartMillis: float64(stats.SlowestPart.Load()/1000) / 1000,
	}, nil
}

// insert runs INSERT and UPSERT; on a store that can, the statement is
// one unit.
func (e *Engine) insert(ctx context.Context, ins *planner.Insert) (*Result, error) {
	verb := "INSERT"
	if ins.Upsert {
		verb = "UPSERT"
	}
	x, err := e.writer(ctx, ins.Table)
	if err != nil {
		return nil, err
	}
	var done int
	atomic, err := x.Atomically(ctx, func() error {
		return x.InsertColumns(ctx, ins.Table, ins.Columns, ins.Rows, ins.Timestamp, func(n int) { done = n })
	})
	if err != nil {
		return nil, writeFailed(ctx, verb, int64(done), atomic, err)
	}
	return &Result{Tag: fmt.Sprintf("%s %d", verb, len(ins.Rows))}, nil
}

// createTable creates t's physical table, which must not exist, and its
// index tables, which may.
func (e *Engine) createTable(ctx context.Context, t *catalog.Table) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	if err := x.Store.CreateTable(ctx, exec.Spec(t)); err != nil {
		if errors.Is(err, exec.ErrTableExists) {
			return nil, fmt.Errorf("HBase table %s of %s already exists", t.Physical, t.Name)
		}
		return nil, err
	}
	for _, ix := range t.Indexes {
		if err := x.EnsureTable(ctx, ix.Table); err != nil {
			return nil, err
		}
	}
	return &Result{Tag: "CREATE TABLE"}, nil
}

// Exec parses and runs one statement and reads all of its rows: the
// whole answer, for tests and tools rather than for streaming. A
// statement without rows returns its command tag.
func (e *Engine) Exec(ctx context.Context, text string) ([]catalog.Row, string, error) {
	st, err := parser.ParseOne(text)
	if err != nil {
		return nil, "", err
	}
	res, err := e.Run(ctx, st)
	if err != nil {
		return nil, "", err
	}
	defer res.Close()
	if res.Rows == nil {
		return nil, res.Tag, nil
	}
	var out []catalog.Row
	for {
		r, err := res.Rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out, res.Tag, nil
		}
		if err != nil {
			return nil, "", err
		}
		out = append(out, r)
	}
}
