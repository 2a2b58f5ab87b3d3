package engine

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// showTables lists the catalog's tables and their index tables, and
// whether each physical table exists in the store; then the store's
// tables that no catalog table describes, of every namespace.
func (e *Engine) showTables(ctx context.Context) (*Result, error) {
	st, err := e.Store(ctx)
	if err != nil {
		return nil, err
	}
	names, others, err := e.storedTables(ctx, st)
	if err != nil {
		return nil, err
	}
	exists := map[string]bool{}
	for _, n := range names {
		exists[strings.TrimPrefix(n, "default:")] = true
	}
	cols := append(strCols("name", "kind", "hbase_table", "key"), Column{Name: "exists", Type: catalog.TypeBoolean})
	var rows []catalog.Row
	add := func(t *catalog.Table) {
		kind := "table"
		if t.IndexOf != nil {
			kind = "index of " + t.IndexOf.Name
			if ix := indexOf(t); ix != nil && ix.Unbuilt {
				kind += ", not built"
			}
		}
		rows = append(rows, catalog.Row{
			catalog.String(t.Name), catalog.String(kind), catalog.String(t.Physical), catalog.String(t.Key.String()), catalog.Bool(exists[strings.TrimPrefix(t.Physical, "default:")]),
		})
	}
	for _, t := range e.cfg.Catalog.Tables {
		add(t)
		for _, ix := range t.Indexes {
			add(ix.Table)
		}
	}
	// The store's other tables: rkql can describe and read them raw.
	for _, n := range others {
		rows = append(rows, catalog.Row{catalog.Null(catalog.TypeString), catalog.String("not in the catalog"), catalog.String(n), catalog.Null(catalog.TypeString), catalog.Bool(true)})
	}
	return rowsResult(cols, rows), nil
}

// showRegions lists a table's regions with their keys, and each start key
// decoded through the layout as far as it goes.
// regionsWithLoad is st's regions with their load where st has it.
func regionsWithLoad(ctx context.Context, st exec.Store, table string) ([]exec.Region, error) {
	if rl, ok := st.(exec.RegionLoader); ok {
		return rl.RegionsWithLoad(ctx, table)
	}
	return st.Regions(ctx, table)
}

func (e *Engine) showRegions(ctx context.Context, t *catalog.Table) (*Result, error) {
	x, err := e.executor(ctx)
	if err != nil {
		return nil, err
	}
	cols := strCols("region", "start_key", "end_key", "start_decoded", "end_decoded", "server")
	if missing, err := e.neverCreated(ctx, x, t); err != nil || missing {
		if err != nil {
			return nil, err
		}
		res := rowsResult(cols, nil)
		res.Warnings = neverCreatedNote(t)
		return res, nil
	}
	regions, err := regionsWithLoad(ctx, x.Store, t.Physical)
	if err != nil {
		return nil, err
	}
	var rows []catalog.Row
	var peak uint64
	loaded := false
	for _, r := range regions {
		if r.Load != nil {
			loaded = true
			peak = max(peak, r.Load.ReadRequests+r.Load.WriteRequests)
		}
	}
	for _, r := range regions {
		row := catalog.Row{
			catalog.String(r.Name), catalog.String(catalog.ToStringBinary(r.StartKey)),
			catalog.String(catalog.ToStringBinary(r.EndKey)), catalog.String(decodePrefix(t, r.StartKey)),
			catalog.String(decodePrefix(t, r.EndKey)), catalog.String(r.Server),
		}
		if loaded {
			row = append(row, loadCells(r.Load, peak)...)
		}
		rows = append(rows, row)
	}
	if !loaded {
		return rowsResult(cols, rows), nil
	}
	cols = append(cols, Column{Name: "reads", Type: catalog.TypeBigint}, Column{Name: "writes", Type: catalog.TypeBigint},
		Column{Name: "storefile_mb", Type: catalog.TypeBigint}, Column{Name: "memstore_mb", Type: catalog.TypeBigint},
		Column{Name: "load", Type: catalog.TypeString})
	res := rowsResult(cols, rows)
	res.Notes = []string{"reads and writes are requests since each region opened, as its server last reported them (every few seconds); load is their sum against the busiest region"}
	return res, nil
}

// decodePrefix reads the components a key, or a key prefix such as a split
// point, holds in full: "seller='ab', ts=…". It stops at the first
// component the bytes do not hold.
func decodePrefix(t *catalog.Table, key []byte) string {
	var parts []string
	pos := 0
	for i := range t.Key.Components {
		if pos >= len(key) {
			break
		}
		text, n, ok := decodeComponent(t, &t.Key.Components[i], key[pos:])
		if !ok {
			break
		}
		if text != "" {
			parts = append(parts, text)
		}
		pos += n
	}
	return strings.Join(parts, ", ")
}

// decodeComponent reads one component at the start of b: a field shows its
// value, a literal nothing, an md5 prefix its hex text and other derived
// components their number.
func decodeComponent(t *catalog.Table, c *catalog.Component, b []byte) (string, int, bool) {
	switch c.Kind {
	case catalog.KindLiteral:
		return "", len(c.Literal), bytes.HasPrefix(b, c.Literal)
	case catalog.KindField:
		v, n, err := c.DecodeField(b)
		if err != nil {
			return "", 0, false
		}
		return t.Columns[c.Column()].Name + "=" + v.String(), n, true
	}
	w, _ := c.FixedWidth()
	if w == 0 || len(b) < w {
		return "", 0, false
	}
	if c.Kind == catalog.KindHash && c.Hash == catalog.HashMD5 {
		return fmt.Sprintf("%s='%s'", c, catalog.ToStringBinary(b[:w])), w, true
	}
	n, err := c.DecodeNumber(b)
	if err != nil {
		return "", 0, false
	}
	return fmt.Sprintf("%s=%d", c, n), w, true
}

// describe shows a table's columns; its key layout, families, splits and
// indexes follow as notes.
func describe(t *catalog.Table) *Result {
	var rows []catalog.Row
	for _, c := range t.Columns {
		var where []string
		if c.KeyField {
			where = append(where, "key")
		}
		if c.Family != "" {
			where = append(where, c.Family+":"+catalog.ToStringBinary([]byte(c.Qualifier)))
		}
		n := (*catalog.TSDBNames)(nil)
		if t.Collects() {
			n = t.Wide.Names
		}
		switch {
		case c.FromCell && t.Wide.Cells != nil && t.Columns[t.Wide.Qual].Name == c.Name:
			where = append(where, "the qualifier of each cell of "+t.Wide.Family+" ("+t.Wide.Cells.String()+")")
		case n != nil && c.Name == t.Columns[n.Metric].Name:
			where = append(where, "the name of "+t.Columns[n.MetricUID].Name+" in "+n.UIDTable)
		case n != nil && c.Name == t.Columns[n.Tags].Name:
			where = append(where, "the key's tag pairs, by name in "+n.UIDTable)
		case c.FromCell:
			where = append(where, "each cell of "+t.Wide.Family)
		case c.MapFamily != "":
			where = append(where, "family "+c.MapFamily+": qualifier ("+c.MapKeys.String()+") -> value")
		}
		if c.Hidden {
			where = append(where, "hidden: read through "+t.Columns[n.Tags].Name)
		}
		typ := c.Type.String()
		if c.Type == catalog.TypeMap {
			typ = c.Map.String()
		}
		rows = append(rows, catalog.Row{catalog.String(c.Name), catalog.String(typ), catalog.String(strings.Join(where, ", "))})
	}
	res := rowsResult(strCols("column", "type", "stored"), rows)
	res.Notes, res.NoFooter = describeNotes(t), true
	return res
}

// indexOf returns the catalog index whose table is it.
func indexOf(it *catalog.Table) *catalog.Index {
	for _, ix := range it.IndexOf.Indexes {
		if ix.Table == it {
			return ix
		}
	}
	return nil
}

func describeNotes(t *catalog.Table) []string {
	notes := []string{
		fmt.Sprintf("Table %s, HBase table %s", t.Name, t.Physical),
		"Rowkey: " + t.Key.String(),
	}
	for _, f := range t.Families {
		notes = append(notes, fmt.Sprintf("Family %s: %s", f.Name, f.Props()))
	}
	notes = append(notes, "Splits: "+splitsText(t))
	for _, ix := range t.Indexes {
		note := fmt.Sprintf("Index %s (HBase table %s): %s", ix.Name, ix.Physical, ix.Table.Key)
		if ix.Unbuilt {
			note += fmt.Sprintf(" (not built: BUILD INDEX %s ON %s fills it)", ix.Name, t.Name)
		}
		notes = append(notes, note)
	}
	for _, ix := range t.PhoenixIndexes {
		what := "Phoenix index"
		if ix.Table.Phoenix.Uncovered {
			what = "Phoenix uncovered index"
		}
		notes = append(notes, fmt.Sprintf("%s %s (%s, HBase table %s): %s; queries read it, Phoenix writes it", what, ix.Name, ix.Table.Phoenix.Name, ix.Physical, ix.Table.Key))
	}
	if t.Doc != "" {
		notes = append(notes, strings.TrimSpace(t.Doc))
	}
	return append(notes, "")
}

// maxSplitsShown bounds the split keys DESCRIBE lists.
const maxSplitsShown = 20

func splitsText(t *catalog.Table) string {
	keys := t.SplitKeys()
	if len(keys) == 0 {
		return "none (1 region)"
	}
	how := "explicit"
	switch {
	case t.Splits.Algorithm != "":
		how = t.Splits.Algorithm
	case t.Splits.Buckets:
		how = "one per value of " + t.Key.Components[0].String()
	}
	var shown []string
	for i, k := range keys {
		if i == maxSplitsShown {
			shown = append(shown, fmt.Sprintf("… (%d more)", len(keys)-i))
			break
		}
		shown = append(shown, "'"+catalog.ToStringBinary(k)+"'")
	}
	return fmt.Sprintf("%d regions, %s: %s", len(keys)+1, how, strings.Join(shown, ", "))
}

// encodeKey shows a key as toStringBinary text and as hex.
func encodeKey(e *planner.EncodeKey) *Result {
	row := catalog.Row{catalog.String(catalog.ToStringBinary(e.Key)), catalog.String(hex.EncodeToString(e.Key))}
	return rowsResult(strCols("key", "hex"), []catalog.Row{row})
}

// decodeKey shows every component of a key but its literals, in key
// order: field values, each repetition of a key group's fields (named
// field[1], field[2], …), and the number a hash, bucket, salt or random
// component holds (an md5 prefix as its hex text).
func decodeKey(d *planner.DecodeKey) *Result {
	var cols []Column
	var row catalog.Row
	for i := range d.Table.Key.Components {
		c := &d.Table.Key.Components[i]
		switch c.Kind {
		case catalog.KindLiteral:
			continue
		case catalog.KindField:
			col := d.Table.Columns[c.Column()]
			cols = append(cols, Column{Name: col.Name, Type: col.Type})
			row = append(row, d.Row[c.Column()])
			continue
		case catalog.KindGroup:
			gcols := c.GroupColumns()
			for j, rep := range d.Repeats {
				for k, v := range rep {
					col := d.Table.Columns[gcols[k]]
					cols = append(cols, Column{Name: fmt.Sprintf("%s[%d]", col.Name, j+1), Type: col.Type})
					row = append(row, v)
				}
			}
			continue
		}
		b := d.Key[d.Offsets[i]:d.Offsets[i+1]]
		cols = append(cols, Column{Name: componentName(c), Type: catalog.TypeBigint})
		if c.Kind == catalog.KindHash && c.Hash == catalog.HashMD5 {
			cols[len(cols)-1].Type = catalog.TypeString
			row = append(row, catalog.String(string(b)))
			continue
		}
		n, err := c.DecodeNumber(b)
		if err != nil { // DecodeKey has read it already
			row = append(row, catalog.Null(catalog.TypeBigint))
			continue
		}
		row = append(row, catalog.Bigint(n))
	}
	return rowsResult(cols, []catalog.Row{row})
}

// componentName names a derived component's column in DECODE KEY.
func componentName(c *catalog.Component) string {
	switch c.Kind {
	case catalog.KindHash:
		return "hash(" + strings.Join(c.Inputs, ",") + ")"
	case catalog.KindBucket:
		return "bucket(" + c.Field + ")"
	case catalog.KindSalt:
		return "salt"
	}
	return "random"
}

// loadBar is the width of SHOW REGIONS' load bar.
const loadBar = 20

// loadCells shows one region's load: its counts, sizes and a bar of its
// requests against the busiest region's.
func loadCells(l *exec.RegionLoad, peak uint64) []catalog.Value {
	if l == nil {
		return []catalog.Value{catalog.Null(catalog.TypeBigint), catalog.Null(catalog.TypeBigint),
			catalog.Null(catalog.TypeBigint), catalog.Null(catalog.TypeBigint), catalog.Null(catalog.TypeString)}
	}
	n := 0
	if total := l.ReadRequests + l.WriteRequests; peak > 0 {
		n = int((total*loadBar + peak/2) / peak)
		if n == 0 && total > 0 {
			n = 1
		}
	}
	return []catalog.Value{catalog.Bigint(int64(l.ReadRequests)), catalog.Bigint(int64(l.WriteRequests)),
		catalog.Bigint(int64(l.StoreFileMB)), catalog.Bigint(int64(l.MemStoreMB)),
		catalog.String(strings.Repeat("#", n))}
}
