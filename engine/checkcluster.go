package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// checkCluster is CHECK CLUSTER [t]: for each HBase table checked (t's
// own and its indexes', the one named, or every user table), a row per
// fault of its regions in hbase:meta — a hole, an overlap, a region not
// deployed or in transition — or one OK row with its region count. It
// reads and changes nothing but what it asks hbase:meta and the master,
// and fails after its rows when it found a fault, as CHECK INDEX does.
func (e *Engine) checkCluster(ctx context.Context, p *planner.CheckCluster) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	rc, ok := x.Store.(exec.RegionChecker)
	if !ok {
		return nil, errors.New("CHECK CLUSTER needs an HBase cluster: this store keeps its rows in one file, with no hbase:meta, region servers or master to check")
	}
	// The catalog table of each HBase table, where one describes it.
	names := map[string]string{}
	for _, t := range e.cfg.Catalog.Tables {
		if t.IndexOf == nil {
			names[t.Physical] = t.Name
		}
	}
	for _, t := range e.cfg.Catalog.Tables {
		for _, ix := range t.Indexes {
			if _, ok := names[ix.Physical]; !ok {
				names[ix.Physical] = ix.Name
			}
		}
	}
	var reps []exec.TableRegions
	switch {
	case p.Table != nil:
		// One check per HBase table, so that one never created is
		// reported and the others are checked.
		for _, phys := range checkedTables(p.Table) {
			r, err := rc.CheckRegions(ctx, []string{phys})
			switch {
			case errors.Is(err, exec.ErrTableNotFound):
				r = []exec.TableRegions{{Table: phys, Faults: []exec.RegionFault{{Problem: "no table",
					Detail: fmt.Sprintf("HBase table %s does not exist (a write or CREATE TABLE creates it)", phys)}}}}
			case err != nil:
				return nil, err
			}
			reps = append(reps, r...)
		}
	case p.HBase != "":
		reps, err = rc.CheckRegions(ctx, []string{p.HBase})
		if errors.Is(err, exec.ErrTableNotFound) {
			return nil, fmt.Errorf("CHECK CLUSTER: there is no table %s in the catalog, nor an HBase table of that name", p.HBase)
		}
	default:
		reps, err = rc.CheckRegions(ctx, nil)
	}
	if err != nil {
		return nil, err
	}
	cols := strCols("hbase_table", "table", "region", "start_key", "end_key", "problem", "detail")
	var rows []catalog.Row
	var faulty []string
	problems := 0
	for _, r := range reps {
		name := names[r.Table]
		if len(r.Faults) == 0 {
			detail := healthyDetail(r)
			rows = append(rows, catalog.Row{catalog.String(r.Table), catalog.String(name), catalog.String(""),
				catalog.String(""), catalog.String(""), catalog.String("OK"), catalog.String(detail)})
			continue
		}
		var kinds []string
		for _, f := range r.Faults {
			rows = append(rows, catalog.Row{catalog.String(r.Table), catalog.String(name), catalog.String(f.Region),
				catalog.String(catalog.ToStringBinary(f.Start)), catalog.String(catalog.ToStringBinary(f.End)),
				catalog.String(f.Problem), catalog.String(f.Detail)})
			if !slices.Contains(kinds, f.Problem) {
				kinds = append(kinds, f.Problem)
			}
		}
		problems += len(r.Faults)
		faulty = append(faulty, fmt.Sprintf("%s (%s)", r.Table, strings.Join(kinds, ", ")))
	}
	res := rowsResult(cols, rows)
	res.NoFooter = true
	res.Notes = []string{fmt.Sprintf("%d HBase %s checked: %d healthy, %d with problems", len(reps), plural(int64(len(reps)), "table", "tables"), len(reps)-len(faulty), len(faulty))}
	if problems > 0 {
		res.Notes = append(res.Notes, "an empty end_key is the end of the table; regions in transition are the master's view, and a region being moved, split or merged shows for a moment")
		res.Rows = &failAfter{sliceRows: sliceRows{rows: rows}, err: &RegionFaultError{Problems: problems, Tables: faulty}}
	}
	return res, nil
}

// healthyDetail is the detail of the OK row of table r.
func healthyDetail(r exec.TableRegions) string {
	cover := fmt.Sprintf("%d regions tile the table", r.Regions)
	if r.Regions == 1 {
		cover = "1 region covers the table"
	}
	if r.State != "ENABLED" {
		return fmt.Sprintf("%s; the table is %s, so its regions are not expected to be deployed", cover, strings.ToLower(r.State))
	}
	if r.Regions == 1 {
		return cover + ", open on a live region server"
	}
	return cover + ", each open on a live region server"
}

// checkedTables are the HBase tables CHECK CLUSTER t checks: t's, then
// its indexes'.
func checkedTables(t *catalog.Table) []string {
	out := []string{t.Physical}
	for _, ix := range t.Indexes {
		if ix.Physical != "" && ix.Physical != t.Physical {
			out = append(out, ix.Physical)
		}
	}
	return out
}

// RegionFaultError is CHECK CLUSTER finding a table whose regions do not
// tile it or are not deployed. It follows the report's rows.
type RegionFaultError struct {
	Problems int
	// Tables are "table (problem, …)" of each table at fault.
	Tables []string
}

func (e *RegionFaultError) Error() string {
	return fmt.Sprintf("CHECK CLUSTER found %d %s: %s", e.Problems, plural(int64(e.Problems), "problem", "problems"), strings.Join(e.Tables, "; "))
}
