package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// The maintenance statements run on a store that is an exec.Maintainer
// (HBase). Each waits for its work to be done and answers with the
// table's regions after it, its outcome in the notes. The embedded store
// has no memstore and no store files: FLUSH and COMPACT say so and do
// nothing; SPLIT, MERGE REGIONS and BALANCER are refused.

// maintStatement names a maintenance plan that changes the cluster, or
// returns "".
func maintStatement(p planner.Plan) string {
	switch p := p.(type) {
	case *planner.Flush:
		return "FLUSH"
	case *planner.Compact:
		if p.Major {
			return "MAJOR COMPACT"
		}
		return "COMPACT"
	case *planner.Split:
		return "SPLIT"
	case *planner.Merge:
		return "MERGE REGIONS"
	case *planner.Balancer:
		if p.Switch != "" {
			return "BALANCER " + p.Switch
		}
	case *planner.Snapshot:
		return "SNAPSHOT"
	case *planner.DropSnapshot:
		return "DROP SNAPSHOT"
	case *planner.RestoreSnapshot:
		return "RESTORE SNAPSHOT"
	case *planner.CloneSnapshot:
		return "CLONE SNAPSHOT"
	}
	return ""
}

// maintainer returns the store as an exec.Maintainer, or ok false.
func (e *Engine) maintainer(ctx context.Context) (exec.Maintainer, bool, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, false, err
	}
	m, ok := x.Store.(exec.Maintainer)
	return m, ok, nil
}

func (e *Engine) maintain(ctx context.Context, p planner.Plan) (*Result, error) {
	m, ok, err := e.maintainer(ctx)
	if err != nil {
		return nil, err
	}
	what := maintStatement(p)
	if what == "" {
		what = "BALANCER"
	}
	if !ok {
		switch p := p.(type) {
		case *planner.Flush, *planner.Compact:
			res, err := e.showRegions(ctx, maintTable(p))
			if err == nil {
				note := what + ": nothing to do: this store writes each change to its file at once, and keeps no memstore or store files"
				res.Warnings = func() []string { return []string{note} }
			}
			return res, err
		case *planner.Split, *planner.Merge:
			return nil, fmt.Errorf("%s needs an HBase cluster: this store's regions are the catalog's split points", what)
		}
		return nil, fmt.Errorf("%s needs an HBase cluster: this store has no balancer", what)
	}
	switch p := p.(type) {
	case *planner.Flush:
		return e.flushOrCompact(ctx, m, p.Table, what, func() error { return m.Flush(ctx, p.Table.Physical) })
	case *planner.Compact:
		if p.Major {
			yes, err := e.ask(ctx, fmt.Sprintf("major compact %s: every store file of every region is rewritten", p.Table.Physical))
			if err != nil {
				return nil, err
			}
			if !yes {
				return nil, notConfirmed(what)
			}
		}
		progress := func(done, total int) {
			if e.progress != nil {
				e.progress(int64(done))
			}
		}
		return e.flushOrCompact(ctx, m, p.Table, what, func() error { return m.Compact(ctx, p.Table.Physical, p.Major, progress) })
	case *planner.Split:
		return e.split(ctx, m, p)
	case *planner.Merge:
		return e.merge(ctx, m, p)
	case *planner.Balancer:
		return e.balancer(ctx, m, p)
	}
	return nil, fmt.Errorf("%T is not a maintenance plan", p)
}

func maintTable(p planner.Plan) *catalog.Table {
	switch p := p.(type) {
	case *planner.Flush:
		return p.Table
	case *planner.Compact:
		return p.Table
	}
	return nil
}

func notConfirmed(what string) error {
	return fmt.Errorf("%s not confirmed: nothing was done (in a script, --yes confirms)", what)
}

// flushOrCompact runs do and reports the table's store files before and
// after it, then its regions.
func (e *Engine) flushOrCompact(ctx context.Context, m exec.Maintainer, t *catalog.Table, what string, do func() error) (*Result, error) {
	before, err := m.StoreFiles(ctx, t.Physical)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, t.Physical, err)
	}
	if err := do(); err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, t.Physical, err)
	}
	after, err := m.StoreFiles(ctx, t.Physical)
	if err != nil {
		return nil, fmt.Errorf("%s %s: done, but counting its store files failed: %w", what, t.Physical, err)
	}
	return e.regionsAfter(ctx, t, fmt.Sprintf("%s %s: done; store files %d before, %d after", what, t.Physical, before, after))
}

// regionsAfter is SHOW REGIONS t with the outcome first in its notes.
func (e *Engine) regionsAfter(ctx context.Context, t *catalog.Table, outcome string) (*Result, error) {
	res, err := e.showRegions(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("%s, but listing the regions failed: %w", outcome, err)
	}
	res.Notes = append([]string{outcome}, res.Notes...)
	return res, nil
}

func (e *Engine) split(ctx context.Context, m exec.Maintainer, p *planner.Split) (*Result, error) {
	t := p.Table
	key := "'" + catalog.ToStringBinary(p.Key) + "'"
	if p.Fields != "" {
		key += " (" + p.Fields + ")"
	}
	yes, err := e.ask(ctx, fmt.Sprintf("split %s at %s", t.Physical, key))
	if err != nil {
		return nil, err
	}
	if !yes {
		return nil, notConfirmed("SPLIT")
	}
	if err := m.Split(ctx, t.Physical, p.Key); err != nil {
		return nil, fmt.Errorf("SPLIT %s at %s: %w", t.Physical, key, err)
	}
	return e.regionsAfter(ctx, t, fmt.Sprintf("SPLIT %s at %s: done", t.Physical, key))
}

func (e *Engine) merge(ctx context.Context, m exec.Maintainer, p *planner.Merge) (*Result, error) {
	t := p.Table
	var keys string
	for i, k := range p.Starts {
		if i > 0 {
			keys += ", "
		}
		keys += "'" + catalog.ToStringBinary(k) + "'"
	}
	yes, err := e.ask(ctx, fmt.Sprintf("merge the regions of %s starting at %s into one", t.Physical, keys))
	if err != nil {
		return nil, err
	}
	if !yes {
		return nil, notConfirmed("MERGE REGIONS")
	}
	if err := m.Merge(ctx, t.Physical, p.Starts); err != nil {
		hint := ""
		if strings.Contains(err.Error(), "not mergeable") {
			hint = " (a region just split keeps references to its parent's files until it is compacted and the compacted files are archived: MAJOR COMPACT first, then wait a few minutes)"
		}
		return nil, fmt.Errorf("MERGE REGIONS %s %s: %w%s", t.Physical, keys, err, hint)
	}
	return e.regionsAfter(ctx, t, fmt.Sprintf("MERGE REGIONS %s %s: done", t.Physical, keys))
}

func (e *Engine) balancer(ctx context.Context, m exec.Maintainer, p *planner.Balancer) (*Result, error) {
	state := func(on bool) string {
		if on {
			return "on"
		}
		return "off"
	}
	if p.Switch == "" {
		on, err := m.BalancerEnabled(ctx)
		if err != nil {
			return nil, err
		}
		return &Result{Text: "the balancer is " + state(on) + "\n"}, nil
	}
	on := p.Switch == "ON"
	was, err := m.SetBalancer(ctx, on)
	if err != nil {
		return nil, fmt.Errorf("BALANCER %s: %w", p.Switch, err)
	}
	return tagWithNote("BALANCER "+p.Switch, fmt.Sprintf("the balancer is %s (it was %s)", state(on), state(was))), nil
}

// showStatus is SHOW CLUSTER: a row per live region server, then the
// master, the dead servers, the regions in transition and the balancer in
// the notes.
func (e *Engine) showStatus(ctx context.Context) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	sr, ok := x.Store.(exec.StatusReporter)
	if !ok {
		return nil, fmt.Errorf("SHOW CLUSTER needs an HBase cluster: this store has no servers")
	}
	cs, err := sr.ClusterStatus(ctx)
	if err != nil {
		return nil, err
	}
	cols := []Column{{Name: "server", Type: catalog.TypeString}, {Name: "regions", Type: catalog.TypeBigint},
		{Name: "requests_per_sec", Type: catalog.TypeBigint}, {Name: "requests", Type: catalog.TypeBigint},
		{Name: "storefiles", Type: catalog.TypeBigint}, {Name: "storefile_mb", Type: catalog.TypeBigint},
		{Name: "memstore_mb", Type: catalog.TypeBigint}, {Name: "heap_mb", Type: catalog.TypeString}}
	var rows []catalog.Row
	for _, s := range cs.Servers {
		rows = append(rows, catalog.Row{catalog.String(s.Server), catalog.Bigint(int64(s.Regions)),
			catalog.Bigint(int64(s.RequestsPerSecond)), catalog.Bigint(int64(s.Requests)),
			catalog.Bigint(int64(s.StoreFiles)), catalog.Bigint(int64(s.StoreFileMB)), catalog.Bigint(int64(s.MemStoreMB)),
			catalog.String(fmt.Sprintf("%d / %d", s.UsedHeapMB, s.MaxHeapMB))})
	}
	res := rowsResult(cols, rows)
	state := "off"
	if cs.BalancerOn {
		state = "on"
	}
	dead := "none"
	if len(cs.Dead) > 0 {
		dead = strings.Join(cs.Dead, ", ")
	}
	res.Notes = []string{
		fmt.Sprintf("master %s; %d live region servers; dead: %s; balancer %s", cs.Master, len(cs.Servers), dead, state),
		fmt.Sprintf("regions in transition: %d", len(cs.InTransition)),
	}
	for _, r := range cs.InTransition {
		res.Notes = append(res.Notes, "  "+r)
	}
	res.Notes = append(res.Notes, "figures are what each server last reported (every few seconds)")
	res.NoFooter = true
	return res, nil
}

func (e *Engine) snapshotter(ctx context.Context, what string) (exec.Snapshotter, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	sn, ok := x.Store.(exec.Snapshotter)
	if !ok {
		return nil, fmt.Errorf("%s needs an HBase cluster: this store keeps no snapshots", what)
	}
	return sn, nil
}

// snapshotTable returns the HBase table that snapshot name was taken of,
// or an error for what (the statement) when there is no such snapshot.
func snapshotTable(ctx context.Context, sn exec.Snapshotter, what, name string) (string, error) {
	list, err := sn.Snapshots(ctx)
	if err != nil {
		return "", err
	}
	for _, s := range list {
		if s.Name == name {
			return s.Table, nil
		}
	}
	return "", fmt.Errorf("%s: there is no snapshot %s (SHOW SNAPSHOTS lists them)", what, name)
}

// snapshots runs SNAPSHOT, SHOW SNAPSHOTS and DROP SNAPSHOT.
func (e *Engine) snapshots(ctx context.Context, p planner.Plan) (*Result, error) {
	switch p := p.(type) {
	case *planner.Snapshot:
		sn, err := e.snapshotter(ctx, "SNAPSHOT")
		if err != nil {
			return nil, err
		}
		if err := sn.TakeSnapshot(ctx, p.Table.Physical, p.Name); err != nil {
			return nil, fmt.Errorf("SNAPSHOT %s AS %s: %w", p.Table.Physical, p.Name, err)
		}
		return tagWithNote("SNAPSHOT", fmt.Sprintf("snapshot %s of %s taken", p.Name, p.Table.Physical)), nil
	case *planner.RestoreSnapshot:
		return e.restoreSnapshot(ctx, p)
	case *planner.CloneSnapshot:
		return e.cloneSnapshot(ctx, p)
	case *planner.DropSnapshot:
		sn, err := e.snapshotter(ctx, "DROP SNAPSHOT")
		if err != nil {
			return nil, err
		}
		yes, err := e.ask(ctx, "drop snapshot "+p.Name)
		if err != nil {
			return nil, err
		}
		if !yes {
			return nil, notConfirmed("DROP SNAPSHOT")
		}
		if err := sn.DeleteSnapshot(ctx, p.Name); err != nil {
			return nil, fmt.Errorf("DROP SNAPSHOT %s: %w", p.Name, err)
		}
		return &Result{Tag: "DROP SNAPSHOT"}, nil
	}
	sn, err := e.snapshotter(ctx, "SHOW SNAPSHOTS")
	if err != nil {
		return nil, err
	}
	list, err := sn.Snapshots(ctx)
	if err != nil {
		return nil, err
	}
	// The catalog table each snapshot's HBase table is, where one is.
	byPhysical := map[string]string{}
	for _, t := range e.cfg.Catalog.Tables {
		byPhysical[t.Physical] = t.Name
	}
	var rows []catalog.Row
	for _, s := range list {
		rows = append(rows, catalog.Row{catalog.String(s.Name), catalog.String(s.Table),
			catalog.String(byPhysical[s.Table]), catalog.Timestamp(s.Created)})
	}
	return rowsResult([]Column{{Name: "snapshot", Type: catalog.TypeString}, {Name: "hbase_table", Type: catalog.TypeString},
		{Name: "table", Type: catalog.TypeString}, {Name: "created", Type: catalog.TypeTimestamp}}, rows), nil
}

// restoreSnapshot runs RESTORE SNAPSHOT: the snapshot's table, disabled
// while the master restores it, once confirmed.
func (e *Engine) restoreSnapshot(ctx context.Context, p *planner.RestoreSnapshot) (*Result, error) {
	sn, err := e.snapshotter(ctx, "RESTORE SNAPSHOT")
	if err != nil {
		return nil, err
	}
	table, err := snapshotTable(ctx, sn, "RESTORE SNAPSHOT", p.Name)
	if err != nil {
		return nil, err
	}
	yes, err := e.ask(ctx, fmt.Sprintf("restore HBase table %s from snapshot %s: it is disabled meanwhile, and what was written since the snapshot is lost", table, p.Name))
	if err != nil {
		return nil, err
	}
	if !yes {
		return nil, notConfirmed("RESTORE SNAPSHOT")
	}
	if err := sn.RestoreSnapshot(ctx, table, p.Name); err != nil {
		return nil, fmt.Errorf("RESTORE SNAPSHOT %s: %w", p.Name, err)
	}
	return tagWithNote("RESTORE SNAPSHOT", fmt.Sprintf("HBase table %s restored from snapshot %s", table, p.Name)), nil
}

// cloneSnapshot runs CLONE SNAPSHOT: the master makes the new HBase
// table from the snapshot, and the catalog gains a copy of the catalog
// table of the snapshot's table, named as the statement says. The copy
// has no indexes: their rows are in HBase tables the snapshot does not
// hold (CREATE INDEX and BUILD INDEX make them anew). A snapshot of a
// table no catalog table describes is cloned with the catalog unchanged.
func (e *Engine) cloneSnapshot(ctx context.Context, p *planner.CloneSnapshot) (*Result, error) {
	what := fmt.Sprintf("CLONE SNAPSHOT %s AS %s", p.Name, p.Table)
	sn, err := e.snapshotter(ctx, "CLONE SNAPSHOT")
	if err != nil {
		return nil, err
	}
	table, err := snapshotTable(ctx, sn, "CLONE SNAPSHOT", p.Name)
	if err != nil {
		return nil, err
	}
	var from *catalog.Table
	for _, t := range e.cfg.Catalog.Tables {
		if t.Physical == table && t.IndexOf == nil {
			from = t
			break
		}
	}
	var src []byte
	var dropped []string
	if from != nil {
		if from.Phoenix != nil {
			return nil, fmt.Errorf("%s: %s is a Phoenix table, whose metadata lives in Phoenix: clone it there, or describe the clone in the catalog by hand", what, from.Name)
		}
		if err := e.catalogFile("CLONE SNAPSHOT"); err != nil {
			return nil, err
		}
		if src, dropped, err = catalog.CopyTable(e.cfg.CatalogSource, from.Name, p.Table, p.HBase); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
	}
	if err := sn.CloneSnapshot(ctx, p.Name, p.HBase); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	notes := []string{fmt.Sprintf("HBase table %s cloned from snapshot %s of %s", p.HBase, p.Name, table)}
	if from == nil {
		notes = append(notes, fmt.Sprintf("no catalog table describes %s, so the catalog is unchanged: SELECT * FROM RAW '%s' reads the clone", table, p.HBase))
	} else {
		if err := e.saveCatalog(src); err != nil {
			return nil, err
		}
		e.ensured[p.HBase] = true
		notes = append(notes, fmt.Sprintf("catalog table %s describes it, with the layout of %s", p.Table, from.Name))
		if len(dropped) > 0 {
			notes = append(notes, fmt.Sprintf("without the indexes of %s (%s): the snapshot holds none of their rows; CREATE INDEX and BUILD INDEX make them for %s", from.Name, strings.Join(dropped, ", "), p.Table))
		}
	}
	return &Result{Tag: "CLONE SNAPSHOT", Warnings: func() []string { return notes }}, nil
}
