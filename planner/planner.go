package planner

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
	"github.com/rkql/rkql/parser"
)

// Plan is a planned statement. The set is sealed.
type Plan interface{ plan() }

// Planner plans statements against a catalog. It holds no mutable state
// and is safe for concurrent use.
type Planner struct {
	cat  *catalog.Catalog
	opts Options
	// noUnion is set on the planner of a union's branches, which are
	// never unions themselves.
	noUnion bool
}

// New returns a planner for the catalog.
func New(cat *catalog.Catalog, opts Options) *Planner {
	return &Planner{cat: cat, opts: opts}
}

// Catalog returns the planner's catalog.
func (pl *Planner) Catalog() *catalog.Catalog { return pl.cat }

// Explain is EXPLAIN [ANALYZE] of a SELECT.
type Explain struct {
	Select  *Select
	Analyze bool
	JSON    bool
	// Verbose adds the legend of the key notation.
	Verbose bool
	// Write, for EXPLAIN DELETE and UPDATE, is the step that writes the
	// rows Select finds; nil for EXPLAIN SELECT.
	Write *Step
	// Atomic is true when Write is a server increment or compare-and-put,
	// which only a store that is an exec.CellAtomic does.
	Atomic bool
	// NoRead is true when the write needs no read first (a counter of
	// one key: the store tests that the row exists as it increments),
	// so EXPLAIN shows Write alone.
	NoRead bool
}

// Insert writes rows.
type Insert struct {
	Table *catalog.Table
	// Columns are the listed columns: only they are written, and a NULL
	// among them deletes the column.
	Columns []int
	Rows    []catalog.Row
	// Timestamp is the cell timestamp in ms; 0 means the time of the write.
	Timestamp int64
	// Upsert says the statement was written UPSERT; it writes the same.
	Upsert bool
	// Source, instead of Rows, is the query of INSERT … SELECT: its
	// output i is written to column Columns[i], InsertBatch rows a write.
	Source *Select
}

// InsertBatch is how many rows of its query INSERT … SELECT writes at
// once, as rkql import does.
const InsertBatch = 5000

// ShowTables lists the catalog's tables.
type ShowTables struct{}

// ShowRegions lists a table's regions.
type ShowRegions struct{ Table *catalog.Table }

// Describe shows a table's layout, or, when the catalog does not describe
// it (Table is nil), what the store holds of the physical table Stored:
// NotFound is then the error to give if the store has no such table
// either.
type Describe struct {
	Table    *catalog.Table
	Stored   string
	NotFound error
}

// CreateTable creates a table's physical HBase table.
type CreateTable struct{ Table *catalog.Table }

// EncodeKey shows the key of a set of field values.
type EncodeKey struct {
	Table *catalog.Table
	Key   []byte
	Row   catalog.Row
}

// DecodeKey shows the field values of a key.
type DecodeKey struct {
	Table *catalog.Table
	Key   []byte
	Row   catalog.Row
	// Offsets is where each key component starts.
	Offsets []int
	// Repeats are the repetitions of the key's trailing group, each the
	// values of the group's fields in order; nil when it has none. Row
	// holds only the first.
	Repeats [][]catalog.Value
}

// Delete removes the rows a SELECT * with the same WHERE finds.
type Delete struct {
	Table *catalog.Table
	Find  *Select
}

// BuildIndex writes the entries of an index for every data row.
type BuildIndex struct {
	Table *catalog.Table
	Index *catalog.Index
}

// CheckIndex compares an index with its data table.
type CheckIndex struct {
	Table  *catalog.Table
	Index  *catalog.Index
	Repair bool
}

func (*Delete) plan()      {}
func (*BuildIndex) plan()  {}
func (*CheckIndex) plan()  {}
func (*Explain) plan()     {}
func (*Insert) plan()      {}
func (*ShowTables) plan()  {}
func (*ShowRegions) plan() {}
func (*Describe) plan()    {}
func (*CreateTable) plan() {}
func (*EncodeKey) plan()   {}
func (*DecodeKey) plan()   {}

// Plan plans one statement. Planning is linear in the statement's size,
// but a statement may be huge: Plan returns ctx's error soon after ctx
// ends, from the loops over IN lists, key ranges and OR branches.
func (pl *Planner) Plan(ctx context.Context, stmt parser.Stmt) (Plan, error) {
	p, err := pl.plan(ctx, stmt)
	if err != nil {
		return nil, withRetry(stmt, err)
	}
	return p, nil
}

func (pl *Planner) plan(ctx context.Context, stmt parser.Stmt) (Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := refuseSubqueries(stmt); err != nil {
		return nil, err
	}
	switch s := stmt.(type) {
	case *parser.SelectStmt:
		if s.FromRaw {
			return pl.rawPlan(ctx, s)
		}
		return pl.selectPlan(ctx, s)
	case *parser.ExplainStmt:
		if inner, ok := s.Stmt.(*parser.SelectStmt); ok && inner.FromRaw {
			r, err := pl.rawPlan(ctx, inner)
			return &RawExplain{Read: r, Analyze: s.Analyze, JSON: strings.EqualFold(s.Format, "JSON")}, err
		}
		switch s.Stmt.(type) {
		case *parser.DeleteStmt, *parser.UpdateStmt, *parser.InsertStmt:
			return pl.explainWrite(ctx, s)
		}
		inner, ok := s.Stmt.(*parser.SelectStmt)
		if !ok {
			return nil, errAt(s.Stmt.Pos(), "EXPLAIN takes a SELECT")
		}
		sel, err := pl.selectPlan(ctx, inner)
		if err != nil {
			return nil, err
		}
		return &Explain{Select: sel, Analyze: s.Analyze, JSON: strings.EqualFold(s.Format, "JSON"), Verbose: s.Verbose}, nil
	case *parser.InsertStmt:
		return pl.insert(ctx, s)
	case *parser.ShowTablesStmt:
		return &ShowTables{}, nil
	case *parser.ShowRegionsStmt:
		t, err := pl.table(s.Table)
		return &ShowRegions{Table: t}, err
	case *parser.DescribeStmt:
		t, err := pl.table(s.Table)
		if err != nil {
			// A table the catalog does not describe may be in the store.
			return &Describe{Stored: s.Table.Name, NotFound: err}, nil
		}
		return &Describe{Table: t}, nil
	case *parser.CreateTableStmt:
		if s.Def != nil || s.Phoenix != "" {
			break // a layout statement
		}
		t, err := pl.table(s.Table)
		return &CreateTable{Table: t}, err
	case *parser.EncodeKeyStmt:
		return pl.encodeKey(s)
	case *parser.DeleteStmt:
		return pl.deletePlan(ctx, s)
	case *parser.UpdateStmt:
		return pl.updatePlan(ctx, s)
	case *parser.BuildIndexStmt:
		t, err := pl.table(s.Table)
		if err != nil {
			return nil, err
		}
		ix, err := pl.index(s.Index, t)
		return &BuildIndex{Table: t, Index: ix}, err
	case *parser.CheckIndexStmt:
		t, ix, err := pl.indexOwner(s.Index)
		return &CheckIndex{Table: t, Index: ix, Repair: s.Repair}, err
	case *parser.DecodeKeyStmt:
		return pl.decodeKey(s)
	}
	if p, ok, err := pl.layoutPlan(stmt); ok {
		return p, err
	}
	if p, ok, err := pl.maintPlan(stmt); ok {
		return p, err
	}
	if p, ok, err := pl.namespacePlan(stmt); ok {
		return p, err
	}
	if p, ok, err := pl.designPlan(stmt); ok {
		return p, err
	}
	return nil, errAt(stmt.Pos(), "%s is not supported yet", strings.SplitN(stmt.String(), " ", 2)[0])
}

// keysErr positions an error of key planning at pos, unless it is the
// end of the statement's context, which is returned as it is.
func keysErr(pos parser.Pos, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return errAt(pos, "%v", err)
}

func (pl *Planner) table(id parser.Ident) (*catalog.Table, error) {
	t, ok := pl.cat.Table(id.Name)
	if !ok {
		return nil, pl.noTable(id)
	}
	return t, nil
}

// noTable is the error of a table id that the catalog does not hold.
func (pl *Planner) noTable(id parser.Ident) error {
	return errAt(id.NamePos, "table %q does not exist (tables: %s)", id.Name, strings.Join(pl.cat.Names(), ", "))
}

// writeTable finds the table a write names. A table outside the
// catalog is refused with the ways to describe it: rkql writes only rows
// whose layout it knows, and a raw read is read-only.
func (pl *Planner) writeTable(id parser.Ident) (*catalog.Table, error) {
	if t, ok := pl.cat.Table(id.Name); ok {
		return t, nil
	}
	return nil, errAt(id.NamePos, "table %q is not in the catalog, so rkql cannot write it: SELECT * FROM RAW '%s' reads its cells, and raw reads are read-only; to write it, describe its layout in the catalog YAML (tables: - name: …, hbase: '%s', rowkey: …, columns: …) or with CREATE TABLE %s (…) ROWKEY (…) HBASE '%s'",
		id.Name, id.Name, id.Name, parser.QuoteIdent(id.Name), id.Name)
}

// index finds index id of table t.
func (pl *Planner) index(id parser.Ident, t *catalog.Table) (*catalog.Index, error) {
	var names []string
	for _, ix := range t.Indexes {
		if ix.Name == id.Name {
			return ix, nil
		}
		names = append(names, ix.Name)
	}
	if err := phoenixIndexError(id, t); err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, errAt(id.NamePos, "table %s has no indexes", t.Name)
	}
	return nil, errAt(id.NamePos, "table %s has no index %q (indexes: %s)", t.Name, id.Name, strings.Join(names, ", "))
}

// indexOwner finds an index by name among every table's indexes.
func (pl *Planner) indexOwner(id parser.Ident) (*catalog.Table, *catalog.Index, error) {
	for _, t := range pl.cat.Tables {
		for _, ix := range t.Indexes {
			if ix.Name == id.Name {
				return t, ix, nil
			}
		}
	}
	for _, t := range pl.cat.Tables {
		if err := phoenixIndexError(id, t); err != nil {
			return nil, nil, err
		}
	}
	return nil, nil, errAt(id.NamePos, "no table has an index %q", id.Name)
}

// phoenixIndexError refuses, as the index of an index statement (BUILD,
// CHECK, DROP INDEX), a Phoenix global index of t named id: Phoenix
// writes and checks it, and rkql only reads it. It is nil when t has no
// such Phoenix index.
func phoenixIndexError(id parser.Ident, t *catalog.Table) error {
	for _, ix := range t.PhoenixIndexes {
		if ix.Name == id.Name {
			return errAt(id.NamePos, "index %s of %s is a Phoenix global index, which Phoenix writes and checks (its IndexTool), and rkql only reads: build, check or drop it through Phoenix", ix.Name, t.Name)
		}
	}
	return nil
}

func (pl *Planner) insert(ctx context.Context, s *parser.InsertStmt) (*Insert, error) {
	t, err := pl.writeTable(s.Table)
	if err != nil {
		return nil, err
	}
	verb := "INSERT INTO"
	if s.Upsert {
		verb = "UPSERT INTO"
	}
	if err := indexWrite(t, s.Table.NamePos, verb, s.AllowIndexWrite); err != nil {
		return nil, err
	}
	c := &compiler{ctx: ctx, t: t}
	cols := make([]int, len(s.Columns))
	seen := map[int]bool{}
	if s.Query != nil && len(s.Columns) == 0 {
		// INSERT INTO t SELECT …: every column of t, in order.
		for i := range t.Columns {
			cols, seen[i] = append(cols, i), true
		}
	}
	for i, id := range s.Columns {
		col, err := c.column(id.NamePos, id.Name)
		if err != nil {
			return nil, err
		}
		if col == len(t.Columns) {
			return nil, errAt(id.NamePos, "%s cannot be written; use INSERT … TIMESTAMP t", TsColumn)
		}
		if seen[col] {
			return nil, errAt(id.NamePos, "column %s is listed twice", id.Name)
		}
		seen[col], cols[i] = true, col
	}
	if t.Collects() {
		n := t.Wide.Names
		for _, k := range []int{n.Metric, n.Tags} {
			if !seen[k] {
				return nil, errAt(s.Table.NamePos, "INSERT INTO %s must set %s: a point is written under its metric and tags, by name", t.Name, t.Columns[k].Name)
			}
		}
		if seen[n.MetricUID] {
			return nil, errAt(s.Table.NamePos, "INSERT INTO %s sets %s by name: the uid is looked up or assigned in %s", t.Name, t.Columns[n.Metric].Name, n.UIDTable)
		}
		seen[n.MetricUID], seen[n.TagK], seen[n.TagV] = true, true, true
	}
	for _, k := range t.KeyColumns() {
		if w := t.Wide; w != nil && w.BaseFromTime() && k == w.Base && seen[w.Time] {
			continue // the base is the time's hour
		}
		if !seen[k] {
			return nil, errAt(s.Table.NamePos, "INSERT INTO %s must set key field %s", t.Name, t.Columns[k].Name)
		}
	}
	ins := &Insert{Table: t, Columns: cols, Upsert: s.Upsert}
	if s.Query != nil {
		if err := pl.insertSource(ctx, s, ins); err != nil {
			return nil, err
		}
	}
	for _, vals := range s.Rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(vals) != len(cols) {
			pos := s.Table.NamePos
			if len(vals) > 0 {
				pos = vals[0].Pos()
			}
			return nil, errAt(pos, "%d values for %d columns", len(vals), len(cols))
		}
		row := t.NewRow()
		for i, e := range vals {
			v, err := c.insertValue(cols[i], e)
			if err != nil {
				return nil, err
			}
			row[cols[i]] = v
		}
		row, err := CompleteRow(t, row)
		if err != nil {
			return nil, errAt(vals[0].Pos(), "%v", err)
		}
		ins.Rows = append(ins.Rows, row)
	}
	if s.Timestamp != nil {
		v, err := Convert(catalog.TypeTimestamp, "TIMESTAMP", s.Timestamp)
		if err != nil {
			return nil, err
		}
		if v.I <= 0 {
			return nil, errAt(s.Timestamp.Pos(), "a cell timestamp must be after 1970-01-01")
		}
		ins.Timestamp = v.I
	}
	return ins, nil
}

// CompleteRow checks a row that INSERT writes to t, and completes the
// columns a wide table derives from the others.
func CompleteRow(t *catalog.Table, row catalog.Row) (catalog.Row, error) {
	if t.Wide != nil {
		var err error
		if row, err = t.Wide.Complete(row); err != nil {
			return nil, err
		}
		if err := wideCell(t, row); err != nil {
			return nil, err
		}
	}
	if err := t.CheckStoredKeys(row); err != nil && !t.Collects() {
		return nil, err
	}
	return row, nil
}

// insertSource plans the query of INSERT … SELECT into ins.Source: one
// output per written column, each of the column's type (an INT output
// goes to a BIGINT column, and a BIGINT one to an INT column if each value
// fits, checked as it is written).
func (pl *Planner) insertSource(ctx context.Context, s *parser.InsertStmt, ins *Insert) error {
	t := ins.Table
	sel, err := pl.selectPlan(ctx, s.Query)
	if err != nil {
		return err
	}
	if sel.Raw {
		return errAt(s.Query.Pos(), "%s INTO … SELECT RAW is not supported: select the columns of a catalog table", insertVerb(s))
	}
	if len(sel.Output) != len(ins.Columns) {
		n := len(ins.Columns)
		what := fmt.Sprintf("the %d %s listed", n, plural(n, "column", "columns"))
		if len(s.Columns) == 0 {
			what = fmt.Sprintf("the %d %s of %s", n, plural(n, "column", "columns"), t.Name)
		}
		return errAt(s.Query.Pos(), "the SELECT returns %d %s, for %s", len(sel.Output), plural(len(sel.Output), "column", "columns"), what)
	}
	for i, o := range sel.Output {
		col := t.Columns[ins.Columns[i]]
		if lit, ok := o.Expr.(*expr.Lit); ok && lit.V.Null {
			continue // NULL goes to any column
		}
		if !assignable(o.Type, col.Type) {
			return errAt(s.Query.Pos(), "output %d of the SELECT (%s) is %s, and column %s of %s is %s", i+1, o.Name, o.Type, col.Name, t.Name, col.Type)
		}
	}
	if reads := sel.Table; reads != nil && (reads.Physical == t.Physical || readsIndexOf(sel, t)) {
		return errAt(s.Query.Pos(), "%s INTO %s SELECT … FROM %s would read its own writes: copy through another table", insertVerb(s), t.Name, s.Query.Table.Name)
	}
	ins.Source = sel
	return nil
}

// readsIndexOf reports whether sel reads an index table of t.
func readsIndexOf(sel *Select, t *catalog.Table) bool {
	for _, ix := range sel.IndexLookups() {
		if ix.Index != nil && ix.Index.Table != nil && ix.Index.Table.Physical == t.Physical {
			return true
		}
		for _, tix := range t.Indexes {
			if ix.Index != nil && ix.Index.Table != nil && tix.Table != nil && ix.Index.Table.Physical == tix.Table.Physical {
				return true
			}
		}
	}
	return false
}

// assignable reports whether a value of type from may be written to a
// column of type to.
func assignable(from, to catalog.Type) bool {
	if from == to || from == catalog.TypeInvalid {
		return true
	}
	ints := func(t catalog.Type) bool { return t == catalog.TypeInt || t == catalog.TypeBigint }
	return ints(from) && ints(to)
}

func insertVerb(s *parser.InsertStmt) string {
	if s.Upsert {
		return "UPSERT"
	}
	return "INSERT"
}

func (pl *Planner) encodeKey(s *parser.EncodeKeyStmt) (*EncodeKey, error) {
	t, err := pl.table(s.Table)
	if err != nil {
		return nil, err
	}
	c := &compiler{t: t}
	row := t.NewRow()
	for _, a := range s.Fields {
		col, err := c.column(a.Column.NamePos, a.Column.Name)
		if err != nil {
			return nil, err
		}
		if col == len(t.Columns) || !t.Columns[col].KeyField && !isHashInput(t, col) {
			return nil, errAt(a.Column.NamePos, "%s is not a key field of %s (key: %s)", a.Column.Name, t.Name, t.Key)
		}
		if row[col], err = c.exactValue(col, a.Value); err != nil {
			return nil, err
		}
	}
	for _, k := range t.KeyColumns() {
		if row[k].Null {
			return nil, errAt(s.Table.NamePos, "ENCODE KEY %s needs key field %s", t.Name, t.Columns[k].Name)
		}
	}
	key, err := t.EncodeKey(row, func(int64) int64 { return 0 })
	if err != nil {
		return nil, errAt(s.Table.NamePos, "%v", err)
	}
	return &EncodeKey{Table: t, Key: key, Row: row}, nil
}

func isHashInput(t *catalog.Table, col int) bool {
	for i := range t.Key.Components {
		for _, in := range t.Key.Components[i].InputColumns() {
			if t.Key.Components[i].Derived() && in == col {
				return true
			}
		}
	}
	return false
}

func (pl *Planner) decodeKey(s *parser.DecodeKeyStmt) (*DecodeKey, error) {
	t, err := pl.table(s.Table)
	if err != nil {
		return nil, err
	}
	var key []byte
	switch k := s.Key.(type) {
	case *parser.StringLit:
		v, err := catalog.ParseText(catalog.TypeBytes, k.Val)
		if err != nil {
			return nil, errAt(k.Pos(), "%v", err)
		}
		key = v.B
	case *parser.BytesLit:
		key = k.Val
	default:
		return nil, errAt(s.Key.Pos(), "DECODE KEY takes a string such as '9~79809782~05~0008839540' or bytes such as x'00ff'")
	}
	row := t.NewRow()
	offs := make([]int, len(t.Key.Components)+1)
	if err := t.DecodeKey(key, row, offs); err != nil {
		return nil, errAt(s.Key.Pos(), "%v", err)
	}
	reps, err := t.Repeats(key, offs)
	if err != nil {
		return nil, errAt(s.Key.Pos(), "%v", err)
	}
	return &DecodeKey{Table: t, Key: key, Row: row, Offsets: offs, Repeats: reps}, nil
}

// notes explains the costs the layout forces on this query.
func notes(sel *Select, kp *keyPlan, sorter *Sort) []string {
	t, acc := sel.Table, sel.Access
	var out []string
	for i := range t.Key.Components {
		c := &t.Key.Components[i]
		if acc.Ways <= 1 || i >= kp.term {
			break
		}
		switch c.Kind {
		case catalog.KindBucket, catalog.KindHash:
			if acc.Kind != PointLookup || c.Kind == catalog.KindBucket {
				out = append(out, fmt.Sprintf("%s needs %s, which the query does not pin to values, so all %d of its values are read.", c, strings.Join(inputNames(t, c), ","), c.Cardinality()))
			}
		case catalog.KindSalt:
			if acc.Kind != PointLookup {
				if len(c.Inputs) > 0 {
					out = append(out, fmt.Sprintf("the salt hashes %s, which a range does not fix, so all %d salt buckets are read.", strings.Join(c.Inputs, ","), c.Mod))
				} else {
					out = append(out, fmt.Sprintf("the salt byte depends on the whole key, so all %d salt buckets are read.", c.Mod))
				}
			}
		case catalog.KindRandom:
			out = append(out, fmt.Sprintf("random(%d) cannot be known at read time, so each key is tried with all %d suffixes (%d reads); an index table avoids this.", c.Mod, c.Mod, len(acc.Ranges)))
		}
	}
	if sorter != nil {
		keys := orderNames(sorter.Keys)
		msg := fmt.Sprintf("the key order does not give ORDER BY %s, so the client sorts", strings.Join(keys, ", "))
		if sorter.Limit != NoLimit {
			msg += fmt.Sprintf(" and keeps the top %d", sorter.Limit)
		}
		out = append(out, msg+".")
	}
	switch {
	case acc.Kind == FullScan && acc.Loose == 0 && ReadBound(sel) > 0:
		out = append(out, readBoundNote(sel))
	case acc.Kind == FullScan && acc.Loose == 0:
		out = append(out, "nothing binds the start of the key, so every row is read.")
	}
	return out
}

func inputNames(t *catalog.Table, c *catalog.Component) []string {
	var out []string
	for _, i := range c.InputColumns() {
		out = append(out, t.Columns[i].Name)
	}
	return out
}

// insertValue is the value e gives column col in an INSERT. An OpenTSDB
// table's tags (TSDBNames) are written as OpenTSDB's put takes them, a
// string of key=value pairs (host=web01 dc=lga), and its metric's name
// must be one OpenTSDB accepts.
func (c *compiler) insertValue(col int, e parser.Expr) (catalog.Value, error) {
	t := c.t
	if !t.Collects() || (col != t.Wide.Names.Tags && col != t.Wide.Names.Metric) {
		return c.exactValue(col, e)
	}
	v, ok, err := literalValue(e)
	if err != nil {
		return catalog.Value{}, err
	}
	if !ok || v.Null || v.Type != catalog.TypeString {
		return catalog.Value{}, errAt(e.Pos(), "%s takes a string: %s", t.Columns[col].Name, map[bool]string{true: "the tags as OpenTSDB's put takes them, 'host=web01 dc=lga'", false: "the metric's name"}[col == t.Wide.Names.Tags])
	}
	if col == t.Wide.Names.Metric {
		if err := catalog.CheckTSDBName(v.S); err != nil {
			return catalog.Value{}, errAt(e.Pos(), "%v", err)
		}
		return v, nil
	}
	m, err := catalog.ParseTSDBTags(v.S)
	if err != nil {
		return catalog.Value{}, errAt(e.Pos(), "%v", err)
	}
	return m, nil
}
