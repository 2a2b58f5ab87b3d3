package exec

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/rkql/rkql/catalog"
)

// Row is a decoded row on its way through a plan: the logical values (with
// the _ts pseudo-column last), the physical key and where each key
// component starts in it.
type Row struct {
	Vals catalog.Row
	Key  []byte
	Offs []int
	// Verified is set on an index entry whose status cell says the write
	// that made it completed.
	Verified bool
}

// decoder turns store rows into logical rows for one table.
type decoder struct {
	t *catalog.Table
	// cols maps "family:qualifier" to the column index.
	cols map[string]int
	// arrays maps each family of a Phoenix table stored as cell arrays
	// to the column of each element, -1 where none is read.
	arrays map[string][]int
	// index is set for an index table, whose rows hold a status cell;
	// elsewhere a StatusQualifier cell is an ordinary column.
	index bool
	// phoenixStatus is set for a Phoenix global index read as an index
	// of its data table: its rows' status is the empty column, \x01 for
	// a verified row (\x02 unverified, as a Phoenix write leaves it
	// until the data row is written).
	phoenixStatus bool
	// vals, offs and boxes are the unused rest of the slabs alloc carves
	// rows from.
	vals  catalog.Row
	offs  []int
	boxes []decoded
	// keys checks and decodes keys for checkKey and fill; made on first
	// use.
	keys *catalog.KeyChecker
	// reuse makes alloc hand out the same row's space every time: each
	// row decoded overwrites the one before (see RowReuser).
	reuse bool
	again *decoded
	// againVals and againOffs are the space of again.
	againVals catalog.Row
	againOffs []int
	// stored lists the stored columns when they are few enough that
	// comparing names beats hashing them; nil otherwise.
	stored []storedCol
	// maps are the MAP columns read that hold a whole family.
	maps []int
	// names reads the names of an OpenTSDB table's uids (Collects).
	names *uidNames
}

// storedCol is a column held in a cell.
type storedCol struct {
	family, qualifier string
	col               int
}

// linearColumns is the most stored columns looked up by comparing names.
const linearColumns = 8

// newDecoder returns a decoder of t's rows that reads the given stored
// columns, or every column when cols is nil. Cells of other columns are
// ignored: a projected read may carry them with empty values.
func newDecoder(t *catalog.Table, cols []int) *decoder {
	d := &decoder{t: t, cols: map[string]int{}, index: t.IndexOf != nil}
	if d.index && t.Phoenix != nil && t.Phoenix.IndexOf != "" {
		d.index, d.phoenixStatus = false, t.Phoenix.EmptyFamily != ""
	}
	for i, c := range t.Columns {
		if cols != nil && !slices.Contains(cols, i) {
			continue
		}
		if c.Family != "" {
			d.cols[c.Family+":"+c.Qualifier] = i
			d.stored = append(d.stored, storedCol{c.Family, c.Qualifier, i})
			if catalog.PhoenixCellArray(t) {
				d.arrayColumn(c.Family, c.Qualifier, i)
			}
		}
		if c.MapFamily != "" {
			d.maps = append(d.maps, i)
		}
	}
	if len(d.stored) > linearColumns {
		d.stored = nil
	}
	return d
}

// arrayColumn notes that column i is an element of its family's cell
// array.
func (d *decoder) arrayColumn(family, qualifier string, i int) {
	e, ok := catalog.PhoenixCellArrayElement(qualifier)
	if !ok {
		return
	}
	if d.arrays == nil {
		d.arrays = map[string][]int{}
	}
	cols := d.arrays[family]
	for len(cols) <= e {
		cols = append(cols, -1)
	}
	cols[e] = i
	d.arrays[family] = cols
}

// arrayCells sets the columns held in a family's cell array.
func (d *decoder) arrayCells(r *Row, sr *StoreRow, c *Cell, cols []int, seen func(int) bool) error {
	elems, err := catalog.DecodePhoenixCellArray(c.Value)
	if err != nil {
		return fmt.Errorf("table %s, row '%s', family %s: %w", d.t.Name, catalog.ToStringBinary(sr.Key), c.Family, err)
	}
	for e, i := range cols {
		if i < 0 || seen(i) || e >= len(elems) || elems[e] == nil {
			continue
		}
		v, err := d.t.Columns[i].DecodeCell(elems[e])
		if err != nil {
			return fmt.Errorf("table %s, row '%s': %w", d.t.Name, catalog.ToStringBinary(sr.Key), err)
		}
		r.Vals[i] = v
	}
	return nil
}

// column returns the index of the column held in family:qualifier.
func (d *decoder) column(family, qualifier string, fq *[]byte) (int, bool) {
	if d.stored != nil || len(d.cols) == 0 {
		for _, s := range d.stored {
			if s.qualifier == qualifier && s.family == family {
				return s.col, true
			}
		}
		return 0, false
	}
	*fq = append(append(append((*fq)[:0], family...), ':'), qualifier...)
	i, ok := d.cols[string(*fq)]
	return i, ok
}

// decoded is a row and the one-element slice decodeVersions returns it in,
// allocated together.
type decoded struct {
	row Row
	one [1]*Row
}

// decode builds the logical row of sr. Cells hold the newest version
// first; only the first cell of each column is used.
func (d *decoder) decode(sr *StoreRow) (*Row, error) {
	box, err := d.decodeBox(sr)
	if box == nil {
		return nil, err
	}
	return &box.row, err
}

// decodeBox is decode, with the row in a decoded.
func (d *decoder) decodeBox(sr *StoreRow) (*decoded, error) {
	vals, offs, box := d.alloc(len(d.t.Columns)+1, len(d.t.Key.Components)+1)
	box.one[0] = &box.row
	err := d.fill(&box.row, sr, vals, offs)
	if box.row.Vals == nil { // the key does not fit the layout
		return nil, err
	}
	return box, err
}

// fill decodes sr into r, with its values in vals and the key's component
// offsets in offs: the key fields, the stored columns the decoder reads,
// and _ts, the newest cell timestamp.
func (d *decoder) fill(r *Row, sr *StoreRow, vals catalog.Row, offs []int) error {
	n := len(d.t.Columns)
	for i, c := range d.t.Columns {
		vals[i] = catalog.Null(c.Type)
	}
	if d.keys == nil {
		d.keys = d.t.NewKeyChecker()
	}
	if err := d.keys.Decode(sr.Key, vals, offs); err != nil {
		*r = Row{}
		return fmt.Errorf("table %s: %w", d.t.Name, err)
	}
	*r = Row{Vals: vals, Key: sr.Key, Offs: offs}
	newest, err := d.cells(r, sr, math.MaxInt64)
	vals[n] = catalog.TimestampMillis(newest)
	return err
}

// cells sets r's stored columns from the newest of sr's cells written at
// or before asOf, and the status of an index entry. It returns the newest
// timestamp it saw.
func (d *decoder) cells(r *Row, sr *StoreRow, asOf int64) (int64, error) {
	var newest int64
	// seen marks the columns already set: a bit set for the first 64
	// columns, a slice for a wider table.
	var seenBits uint64
	var seenWide []bool
	if len(d.t.Columns) > 64 {
		seenWide = make([]bool, len(d.t.Columns))
	}
	seen := func(i int) bool {
		if seenWide != nil {
			was := seenWide[i]
			seenWide[i] = true
			return was
		}
		was := seenBits&(1<<i) != 0
		seenBits |= 1 << i
		return was
	}
	var fq []byte
	statusSeen := false
	if len(d.maps) > 0 {
		if err := d.mapCells(r, sr, asOf); err != nil {
			return 0, err
		}
	}
	for _, c := range sr.Cells {
		if c.Timestamp > asOf {
			continue
		}
		newest = max(newest, c.Timestamp)
		if d.index && c.Qualifier == StatusQualifier {
			r.Verified = len(c.Value) == 1 && c.Value[0] == statusVerified
			continue
		}
		if d.phoenixStatus && c.Family == d.t.Phoenix.EmptyFamily && c.Qualifier == d.t.Phoenix.EmptyQualifier {
			// Cells are newest first: the first is the row's status.
			if !statusSeen {
				r.Verified = len(c.Value) == 1 && c.Value[0] == phoenixVerified
			}
			statusSeen = true
			continue
		}
		if cols, ok := d.arrays[c.Family]; ok && c.Qualifier == catalog.PhoenixCellArrayQualifier {
			// Cells are newest first: the family's first array is its
			// newest, and marks its columns seen.
			if err := d.arrayCells(r, sr, &c, cols, seen); err != nil {
				return 0, err
			}
			continue
		}
		i, ok := d.column(c.Family, c.Qualifier, &fq)
		if !ok || seen(i) {
			continue
		}
		v, err := d.t.Columns[i].DecodeCell(c.Value)
		if err != nil {
			return 0, fmt.Errorf("table %s, row '%s': %w", d.t.Name, catalog.ToStringBinary(sr.Key), err)
		}
		r.Vals[i] = v
	}
	return newest, nil
}

// decodeVersions returns the row as it stood at each of its newest n
// distinct cell timestamps, newest first: each column holds its newest
// value written at or before that timestamp, and _ts is the timestamp. A
// table that Expands gives its logical rows instead (expand), with a
// *cellsSkipped beside them when some wide cells do not fit: Stats.decoded
// tells the two kinds of error apart.
func (d *decoder) decodeVersions(sr *StoreRow, n int) ([]*Row, error) {
	box, err := d.decodeBox(sr)
	if box == nil {
		return nil, err
	}
	base := &box.row
	if err == nil && d.t.Expands() {
		return d.expand(base, sr)
	}
	if err != nil || n <= 1 {
		return box.one[:], err
	}
	var stamps []int64
	for _, c := range sr.Cells {
		if !slices.Contains(stamps, c.Timestamp) {
			stamps = append(stamps, c.Timestamp)
		}
	}
	slices.SortFunc(stamps, func(a, b int64) int { return cmp.Compare(b, a) })
	if len(stamps) > n {
		stamps = stamps[:n]
	}
	out := make([]*Row, 0, len(stamps))
	for _, ts := range stamps {
		r := &Row{Vals: slices.Clone(base.Vals), Key: base.Key, Offs: base.Offs}
		for i, c := range d.t.Columns {
			if !c.KeyField {
				r.Vals[i] = catalog.Null(c.Type)
			}
		}
		if _, err := d.cells(r, sr, ts); err != nil {
			return nil, err
		}
		r.Vals[len(d.t.Columns)] = catalog.TimestampMillis(ts)
		out = append(out, r)
	}
	return out, nil
}

// checkKey reports whether key fits the table's layout, as decode would,
// building no values: for reads that only count rows.
func (d *decoder) checkKey(key []byte) error {
	if d.keys == nil {
		d.keys = d.t.NewKeyChecker()
	}
	if err := d.keys.Check(key); err != nil {
		return fmt.Errorf("table %s: %w", d.t.Name, err)
	}
	return nil
}

// slabRows is how many rows' space the decoder allocates at once.
const slabRows = 256

// alloc carves one row's values, key offsets and box out of slabs shared
// by slabRows rows, so that a scan allocates per slab, not per row. Each
// row gets space of its own: rows handed on stay valid.
func (d *decoder) alloc(nvals, noffs int) (catalog.Row, []int, *decoded) {
	if d.reuse {
		if d.again == nil || len(d.againVals) != nvals || len(d.againOffs) != noffs {
			d.again, d.againVals, d.againOffs = &decoded{}, make(catalog.Row, nvals), make([]int, noffs)
		}
		*d.again = decoded{}
		return d.againVals, d.againOffs, d.again
	}
	if len(d.vals) < nvals {
		d.vals = make(catalog.Row, nvals*slabRows)
	}
	if len(d.offs) < noffs {
		d.offs = make([]int, noffs*slabRows)
	}
	if len(d.boxes) == 0 {
		d.boxes = make([]decoded, slabRows)
	}
	vals := d.vals[:nvals:nvals]
	offs := d.offs[:noffs:noffs]
	box := &d.boxes[0]
	d.vals, d.offs, d.boxes = d.vals[nvals:], d.offs[noffs:], d.boxes[1:]
	return vals, offs, box
}
