package exectest

import (
	"slices"
	"testing"

	"bytes"
	"context"
	"fmt"
	"github.com/rkql/rkql/examples"
	"io"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/exectest/ref"
)

// IndexCounts is what CHECK INDEX must report of index ix of t, worked out
// from one plain scan of each physical table, decoded with the catalog's
// codec alone: a data row whose index key fields are not all set has no
// entry by design (NoEntry); one that is set gives the entry key its
// index fields encode, which the index holds (matching or Stale, when a
// carried or covered value differs, or Unverified, when its status cell
// is not the verified byte) or not (Missing); an entry no data row gives
// is an orphan. Repaired is 0. It shares no code with exec's checker.
func IndexCounts(ctx context.Context, st exec.Store, t *catalog.Table, ix *catalog.Index) (exec.IndexReport, error) {
	var rep exec.IndexReport
	data, err := ScanAll(ctx, st, t)
	if err != nil {
		return rep, err
	}
	rep.DataRows = int64(len(data))
	want := map[string]catalog.Row{} // entry key -> the values it must hold
	for _, r := range data {
		e := make(catalog.Row, len(ix.Table.Columns))
		set := true
		for i, c := range ix.Table.Columns {
			d, ok := t.Column(c.Name)
			if !ok {
				return rep, fmt.Errorf("index %s: column %s is not in %s", ix.Name, c.Name, t.Name)
			}
			e[i] = r[d]
			set = set && !(c.KeyField && r[d].Null)
		}
		if !set {
			rep.NoEntry++
			continue
		}
		k, err := ix.Table.EncodeKey(e, nil)
		if err != nil {
			return rep, err
		}
		if _, dup := want[string(k)]; dup {
			return rep, fmt.Errorf("index %s: two rows of %s give entry '%s'", ix.Name, t.Name, catalog.ToStringBinary(k))
		}
		want[string(k)] = e
	}
	it, err := st.Scan(ctx, ix.Physical, exec.Range{}, exec.ReadOptions{})
	if err != nil {
		return rep, err
	}
	defer it.Close()
	dec := ref.NewDecoder(ix.Table)
	var cells []ref.Cell
	status := ix.Table.Families[0].Name
	found := 0
	for {
		sr, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return rep, err
		}
		rep.Entries++
		e, ok := want[string(sr.Key)]
		if !ok {
			rep.Orphans++
			continue
		}
		found++
		cells = cells[:0]
		for _, c := range sr.Cells {
			cells = append(cells, ref.Cell(c))
		}
		rows, err := dec.Rows(sr.Key, cells)
		if err != nil {
			return rep, err
		}
		got := rows[0]
		same := true
		for i := range e {
			same = same && catalog.Equal(e[i], got[i])
		}
		verified := false
		for _, c := range sr.Cells {
			if c.Family == status && c.Qualifier == exec.StatusQualifier {
				verified = bytes.Equal(c.Value, []byte{1})
				break
			}
		}
		switch {
		case !same:
			rep.Stale++
		case !verified:
			rep.Unverified++
		}
	}
	rep.Missing = int64(len(want) - found)
	return rep, nil
}

// IndexCountsOptions are the parts of a store RunIndexCounts needs.
type IndexCountsOptions struct {
	Store exec.Store
	// Session runs statements through the engine over Store.
	Session Session
	// Load writes rows of the table as rkql import does
	// (engine.ImportRows).
	Load func(t *catalog.Table, rows []catalog.Row) error
}

// RunIndexCounts checks CHECK INDEX's counts against IndexCounts on the
// example catalog's sites and its index sites_by_owner, whose owner is
// NULL in some rows: after imports whose rows repeat keys within a batch,
// across batches and over stored rows, after statements that move, drop
// and add entries, after damage to the index table (entries deleted,
// orphans written, a covered copy changed, an entry unverified), and
// after CHECK INDEX … REPAIR.
func RunIndexCounts(t *testing.T, cat *catalog.Catalog, o IndexCountsOptions) {
	t.Helper()
	ctx := context.Background()
	sites, ok := cat.Table("sites")
	if !ok || len(sites.Indexes) == 0 {
		t.Fatal("the catalog has no indexed table sites")
	}
	ix := sites.Indexes[0]
	x := &exec.Executor{Store: o.Store}
	names := []string{"data_rows", "entries", "no_entry", "missing", "orphans", "unverified", "stale", "repaired"}
	fields := func(r exec.IndexReport) []int64 {
		return []int64{r.DataRows, r.Entries, r.NoEntry, r.Missing, r.Orphans, r.Unverified, r.Stale, r.Repaired}
	}
	reference := func(when string) exec.IndexReport {
		t.Helper()
		want, err := IndexCounts(ctx, o.Store, sites, ix)
		if err != nil {
			t.Fatalf("%s: raw scans: %v", when, err)
		}
		// The two scans must agree with each other, whatever the damage.
		if want.Entries-want.Orphans != want.DataRows-want.NoEntry-want.Missing {
			t.Fatalf("%s: raw scans: %+v: entries - orphans != data rows - no entry - missing", when, want)
		}
		return want
	}
	// statement runs CHECK INDEX through the engine and compares its row
	// with the raw scans' counts.
	statement := func(when string) exec.IndexReport {
		t.Helper()
		want := reference(when)
		rows, _, err := o.Session.Exec(ctx, "CHECK INDEX "+ix.Name)
		if err != nil {
			t.Fatalf("%s: CHECK INDEX: %v", when, err)
		}
		if len(rows) != 1 || len(rows[0]) != len(names) {
			t.Fatalf("%s: CHECK INDEX gave %v, want one row of %v", when, rows, names)
		}
		for i, n := range fields(want) {
			if got := rows[0][i]; got.Null || got.I != n {
				t.Errorf("%s: CHECK INDEX %s = %v, raw scans count %d (%+v)", when, names[i], got, n, want)
			}
		}
		return want
	}
	direct := func(when string, repair bool, want exec.IndexReport) exec.IndexReport {
		t.Helper()
		got, err := x.CheckIndex(ctx, sites, ix, repair, nil)
		if err != nil {
			t.Fatalf("%s: CheckIndex: %v", when, err)
		}
		if repair {
			got.Repaired = 0
		}
		if g, w := fields(got), fields(want); !slices.Equal(g, w) {
			t.Errorf("%s: CheckIndex %v = %v, raw scans count %v", when, names, g, w)
		}
		return got
	}

	// 3,000 rows in one batch, then 12,000 over them in batches of 5,000.
	if err := o.Load(sites, examples.Rows(sites, 3000, 11)); err != nil {
		t.Fatal(err)
	}
	first := statement("after an import")
	if err := o.Load(sites, examples.Rows(sites, 12000, 12)); err != nil {
		t.Fatal(err)
	}
	want := statement("after a second import over it")
	if first.DataRows >= 3000 || want.DataRows >= first.DataRows+12000 {
		t.Fatalf("imports of 3,000 and 12,000 rows stored %d and %d: no key repeated, which the test needs", first.DataRows, want.DataRows)
	}
	if want.NoEntry == 0 || want.Entries == 0 {
		t.Fatalf("%+v: the test needs rows with an owner and rows without", want)
	}
	if !want.Clean() {
		t.Fatalf("after imports: %+v, want an index that matches", want)
	}
	for _, q := range []string{
		// An owner set to NULL, an entry moved, a row with none given one.
		"INSERT INTO sites (domain, owner, visits) VALUES ('a.ci.com', 'oa', 1), ('a.ci.com', NULL, 2), ('b.ci.com', NULL, 3), ('b.ci.com', 'ob', 4)",
		"UPSERT INTO sites (domain, owner) VALUES ('a.ci.com', 'oa2'), ('b.ci.com', NULL)",
		"UPDATE sites SET owner = 'oc' WHERE domain = 'a.ci.com'",
		"UPSERT INTO sites (domain, visits) VALUES ('a.ci.com', NULL)",
	} {
		if _, _, err := o.Session.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		statement("after " + q)
	}

	// Damage the index table.
	it, err := o.Store.Scan(ctx, ix.Physical, exec.Range{}, exec.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var keys [][]byte
	for len(keys) < 5 {
		sr, err := it.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, sr.Key)
	}
	it.Close()
	family := ix.Table.Families[0].Name
	visits := columnNamed(ix.Table, "visits")
	damage := []exec.Mutation{
		{Key: keys[0], DeleteRow: true},
		{Key: keys[1], DeleteRow: true},
		{Key: keys[2], Cells: []exec.Cell{{Family: visits.Family, Qualifier: visits.Qualifier, Value: bytes.Repeat([]byte{0xff}, 8)}}}, // -1, which no row holds,
		{Key: keys[3], Cells: []exec.Cell{{Family: family, Qualifier: exec.StatusQualifier, Value: []byte{0}}}},
		{Key: []byte("nobody|no.such.site"), Cells: []exec.Cell{{Family: family, Qualifier: exec.StatusQualifier, Value: []byte{1}}}},
		{Key: []byte("owner1|zz.ci.com"), Cells: []exec.Cell{{Family: family, Qualifier: exec.StatusQualifier, Value: []byte{0}}}},
	}
	if err := o.Store.Mutate(ctx, ix.Physical, damage); err != nil {
		t.Fatal(err)
	}
	want = reference("after damage")
	if want.Missing != 2 || want.Orphans != 2 || want.Stale != 1 || want.Unverified != 1 {
		t.Fatalf("after damage the raw scans count %+v, want 2 missing, 2 orphans, 1 stale, 1 unverified", want)
	}
	direct("after damage", false, want)
	direct("CHECK INDEX REPAIR", true, want)
	want = reference("after REPAIR")
	if !want.Clean() {
		t.Errorf("after REPAIR the raw scans count %+v", want)
	}
	statement("after REPAIR")
}

// columnNamed returns the column of t named name.
func columnNamed(t *catalog.Table, name string) catalog.Column {
	i, ok := t.Column(name)
	if !ok {
		panic("no column " + name + " in " + t.Name)
	}
	return t.Columns[i]
}
