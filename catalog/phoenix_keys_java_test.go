package catalog

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// pcol is one column of a Phoenix table the key test creates both in
// Phoenix (DDL) and in rkql (YAML), and fills with random rows.
type pcol struct {
	name    string
	p       PType
	width   int // CHAR(n), BINARY(n)
	typ     Type
	pk      bool
	desc    bool
	notNull bool
	gen     func(r *rand.Rand, row int) Value
}

type ptable struct {
	name  string
	salt  int
	cols  []pcol
	nrows int
}

func (pt *ptable) ddl() string {
	var defs, pk []string
	for _, c := range pt.cols {
		d := strings.ToUpper(c.name) + " " + c.p.String()
		if c.p.NeedsWidth() {
			d += fmt.Sprintf("(%d)", c.width)
		}
		if c.notNull {
			d += " NOT NULL"
		}
		defs = append(defs, d)
		if c.pk {
			k := strings.ToUpper(c.name)
			if c.desc {
				k += " DESC"
			}
			pk = append(pk, k)
		}
	}
	s := fmt.Sprintf("CREATE TABLE %s (%s, CONSTRAINT PK PRIMARY KEY (%s)) COLUMN_ENCODED_BYTES=0",
		strings.ToUpper(pt.name), strings.Join(defs, ", "), strings.Join(pk, ", "))
	if pt.salt > 0 {
		s += fmt.Sprintf(", SALT_BUCKETS=%d", pt.salt)
	}
	return s
}

func (pt *ptable) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tables:\n  - name: %s\n    families: [{name: \"0\"}]\n    columns:\n", pt.name)
	spec := func(c pcol) string {
		s := fmt.Sprintf("encoding: phoenix, phoenix: %s", c.p)
		if c.p.NeedsWidth() {
			s += fmt.Sprintf(", width: %d", c.width)
		}
		return s
	}
	for _, c := range pt.cols {
		if c.pk {
			fmt.Fprintf(&b, "      - {name: %s, type: %s}\n", c.name, c.typ)
		} else {
			fmt.Fprintf(&b, "      - {name: %s, type: %s, column: \"0:%s\", %s}\n", c.name, c.typ, strings.ToUpper(c.name), spec(c))
		}
	}
	b.WriteString("    rowkey:\n")
	if pt.salt > 0 {
		fmt.Fprintf(&b, "      - {salt: %d}\n", pt.salt)
	}
	for _, c := range pt.cols {
		if c.pk {
			order := ""
			if c.desc {
				order = ", order: desc"
			}
			fmt.Fprintf(&b, "      - {field: %s, %s%s}\n", c.name, spec(c), order)
		}
	}
	return b.String()
}

// sqlLiteral writes v as Phoenix's SQL reads it for column c.
func sqlLiteral(c pcol, v Value) string {
	if v.Null {
		return "NULL"
	}
	switch {
	case c.p == PVarchar || c.p == PChar || c.p == PDecimal && v.Type == TypeString:
		if c.p == PDecimal {
			return v.S
		}
		return "'" + strings.ReplaceAll(v.S, "'", "''") + "'"
	case c.p.isTime():
		f := map[PType]string{PDate: "TO_DATE", PTime: "TO_TIME", PTimestamp: "TO_TIMESTAMP",
			PUnsignedDate: "TO_DATE", PUnsignedTime: "TO_TIME", PUnsignedTimestamp: "TO_TIMESTAMP"}[c.p]
		s := fmt.Sprintf("%s('%s')", f, v.Text())
		if c.p.unsigned() {
			s = fmt.Sprintf("CAST(%s AS %s)", s, c.p)
		}
		return s
	case v.Type == TypeDouble:
		s := v.Text()
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s
	case v.Type == TypeBoolean:
		return strings.ToLower(v.Text())
	}
	return fmt.Sprint(v.I)
}

func genPStr(r *rand.Rand, _ int) Value {
	var sb strings.Builder
	for range 1 + r.IntN(5) {
		if r.IntN(5) == 0 {
			sb.WriteRune(rune(0xC0 + r.IntN(0x200)))
		} else {
			sb.WriteByte(byte('a' + r.IntN(4)))
		}
	}
	return String(sb.String())
}

func nullable(f func(*rand.Rand, int) Value, t Type) func(*rand.Rand, int) Value {
	return func(r *rand.Rand, i int) Value {
		if r.IntN(3) == 0 {
			return Null(t)
		}
		return f(r, i)
	}
}

func genPDec(r *rand.Rand, _ int) Value {
	s := fmt.Sprintf("%d", r.Int64N(2_000_000_000)-1_000_000_000)
	if k := r.IntN(6); k > 0 && len(s) > k {
		s = s[:len(s)-k] + "." + s[len(s)-k:]
	}
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "-.") {
		s = strings.Replace(s, ".", "0.", 1)
	}
	d, _ := parseDecimal(s)
	return String(d.plain())
}

func genPDouble(r *rand.Rand, _ int) Value { return Double(float64(r.IntN(2_000_000)-1_000_000) / 64) }
func genPTs(r *rand.Rand, _ int) Value     { return TimestampMillis(r.Int64N(4_000_000_000_000)) }
func genPInt(lo, hi int64) func(*rand.Rand, int) Value {
	return func(r *rand.Rand, _ int) Value { return Bigint(lo + r.Int64N(hi-lo+1)) }
}

// phoenixKeyCases returns the requests that create and fill the tables,
// and a check of PhoenixBytes' answers to them.
func phoenixKeyCases(t *testing.T, r *rand.Rand) ([]string, func([]string)) {
	tables := []ptable{
		{name: "pt_salted", salt: 4, nrows: 60, cols: []pcol{
			{name: "a", p: PVarchar, typ: TypeString, pk: true, notNull: true, gen: func(r *rand.Rand, i int) Value {
				return String(genPStr(r, i).S + fmt.Sprint(i))
			}},
			{name: "b", p: PVarchar, typ: TypeString, pk: true, gen: nullable(genPStr, TypeString)},
			{name: "c", p: PDouble, typ: TypeDouble, gen: genPDouble},
			{name: "d", p: PDecimal, typ: TypeString, gen: nullable(genPDec, TypeString)},
		}},
		{name: "pt_desc", nrows: 60, cols: []pcol{
			{name: "k1", p: PInteger, typ: TypeInt, pk: true, notNull: true, gen: func(_ *rand.Rand, i int) Value { return Bigint(int64(i*7919%100) - 50) }},
			{name: "k2", p: PVarchar, typ: TypeString, pk: true, desc: true, notNull: true, gen: func(r *rand.Rand, i int) Value {
				return String(genPStr(r, i).S + fmt.Sprint(i))
			}},
			{name: "k3", p: PTimestamp, typ: TypeTimestamp, pk: true, desc: true, notNull: true, gen: genPTs},
			{name: "k4", p: PDecimal, typ: TypeString, pk: true, desc: true, notNull: true, gen: genPDec},
			{name: "k5", p: PBigint, typ: TypeBigint, pk: true, desc: true, notNull: true, gen: genPInt(-1<<61, 1<<61)},
			{name: "v1", p: PTinyint, typ: TypeInt, gen: genPInt(-128, 127)},
			{name: "v2", p: PSmallint, typ: TypeInt, gen: genPInt(-32768, 32767)},
			{name: "v3", p: PUnsignedInt, typ: TypeBigint, gen: genPInt(0, 1<<31-1)},
			{name: "v4", p: PUnsignedLong, typ: TypeBigint, gen: genPInt(0, 1<<62)},
			{name: "v5", p: PFloat, typ: TypeDouble, gen: genPDouble},
			{name: "v6", p: PBoolean, typ: TypeBoolean, gen: func(r *rand.Rand, _ int) Value { return Bool(r.IntN(2) == 0) }},
			{name: "v7", p: PDate, typ: TypeTimestamp, gen: genPTs},
			{name: "v8", p: PTimestamp, typ: TypeTimestamp, gen: nullable(genPTs, TypeTimestamp)},
			{name: "v9", p: PChar, width: 4, typ: TypeString, gen: func(r *rand.Rand, i int) Value {
				return String(fmt.Sprintf("%c%d", 'a'+r.IntN(26), r.IntN(100)))
			}},
			{name: "v10", p: PVarchar, typ: TypeString, gen: genPStr},
			{name: "v11", p: PUnsignedDouble, typ: TypeDouble, gen: func(r *rand.Rand, _ int) Value { return Double(float64(r.IntN(1000)) / 8) }},
			{name: "v12", p: PDecimal, typ: TypeDouble, gen: genPDouble},
			{name: "v13", p: PTime, typ: TypeTimestamp, gen: genPTs},
			{name: "v14", p: PUnsignedTinyint, typ: TypeInt, gen: genPInt(0, 127)},
			{name: "v15", p: PUnsignedSmallint, typ: TypeInt, gen: genPInt(0, 32767)},
		}},
		{name: "pt_nulls", nrows: 40, cols: []pcol{
			{name: "a", p: PVarchar, typ: TypeString, pk: true, gen: func(r *rand.Rand, i int) Value { return String(fmt.Sprint("r", i)) }},
			{name: "b", p: PVarchar, typ: TypeString, pk: true, gen: nullable(genPStr, TypeString)},
			{name: "c", p: PDecimal, typ: TypeString, pk: true, desc: true, gen: nullable(genPDec, TypeString)},
			{name: "v", p: PVarchar, typ: TypeString, gen: genPStr},
		}},
		{name: "pt_fixed", nrows: 40, cols: []pcol{
			{name: "k", p: PChar, width: 5, typ: TypeString, pk: true, desc: true, notNull: true, gen: func(r *rand.Rand, i int) Value {
				return String(fmt.Sprintf("%c%d", 'a'+r.IntN(3), i))
			}},
			{name: "u", p: PUnsignedSmallint, typ: TypeInt, pk: true, notNull: true, gen: genPInt(0, 32767)},
			{name: "b", p: PBoolean, typ: TypeBoolean, pk: true, desc: true, notNull: true, gen: func(r *rand.Rand, _ int) Value { return Bool(r.IntN(2) == 0) }},
			{name: "t", p: PTime, typ: TypeTimestamp, pk: true, notNull: true, gen: genPTs},
			{name: "d", p: PDouble, typ: TypeDouble, pk: true, desc: true, notNull: true, gen: genPDouble},
			{name: "v", p: PVarchar, typ: TypeString, gen: genPStr},
		}},
	}
	var reqs []string
	rows := make([][]Row, len(tables))
	for ti := range tables {
		pt := &tables[ti]
		reqs = append(reqs, "sql\t"+pt.ddl())
		for i := range pt.nrows {
			row := make(Row, len(pt.cols))
			var names, lits []string
			for ci, c := range pt.cols {
				v := c.gen(r, i)
				if v.Type == TypeBigint {
					v.Type = c.typ
				}
				row[ci] = v
				names = append(names, strings.ToUpper(c.name))
				lits = append(lits, sqlLiteral(c, v))
			}
			rows[ti] = append(rows[ti], row)
			reqs = append(reqs, fmt.Sprintf("sql\tUPSERT INTO %s (%s) VALUES (%s)", strings.ToUpper(pt.name), strings.Join(names, ", "), strings.Join(lits, ", ")))
		}
		reqs = append(reqs, "rows")
	}
	caReqs, checkCA := phoenixCellArrayCases(t, r)
	reqs = append(reqs, caReqs...)
	// A DELETE of a row in a table of two families.
	reqs = append(reqs, "sql\tCREATE TABLE PT_DEL (K VARCHAR NOT NULL PRIMARY KEY, A.X INTEGER, B.Y VARCHAR) COLUMN_ENCODED_BYTES=0",
		"sql\tDELETE FROM PT_DEL WHERE K = 'a'", "rows")
	check := func(lines []string) {
		for ti := range tables {
			pt := &tables[ti]
			tb := mustTable(t, mustParse(t, pt.yaml()), pt.name)
			// ok answers for the CREATE and each UPSERT, then the cells.
			for i := 0; i <= pt.nrows; i++ {
				if len(lines) == 0 || lines[0] != "ok" {
					t.Fatalf("%s: Phoenix answered %q", pt.name, lines[:min(1, len(lines))])
				}
				lines = lines[1:]
			}
			cells := map[string]map[string]string{} // key -> qualifier -> value
			for len(lines) > 0 && lines[0] != "end" {
				f := strings.Fields(lines[0])
				lines = lines[1:]
				if len(f) != 6 || f[0] != "row" {
					t.Fatalf("%s: %q", pt.name, f)
				}
				if cells[f[1]] == nil {
					cells[f[1]] = map[string]string{}
				}
				q, _ := hex.DecodeString(f[3])
				cells[f[1]][string(q)] = f[4] + " " + f[5]
			}
			if len(lines) == 0 {
				t.Fatalf("%s: no end of rows", pt.name)
			}
			lines = lines[1:]
			checkPhoenixRows(t, pt, tb, rows[ti], cells)
		}
		lines = checkCA(lines)
		// Phoenix deletes a row with a DeleteFamily of each family, as
		// HBase's Delete of the row (rkql's DELETE) does.
		want := []string{"ok", "ok", "row 61 41 - - DeleteFamily", "row 61 42 - - DeleteFamily", "end"}
		if strings.Join(lines, "\n") != strings.Join(want, "\n") {
			t.Errorf("DELETE of a row: Phoenix writes\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
		}
	}
	return reqs, check
}

func checkPhoenixRows(t *testing.T, pt *ptable, tb *Table, rows []Row, cells map[string]map[string]string) {
	t.Helper()
	if len(cells) != len(rows) {
		t.Errorf("%s: Phoenix wrote %d rows, the test %d", pt.name, len(cells), len(rows))
	}
	t.Logf("%s: %d rows of %d columns, keys and cells compared both ways", pt.name, len(rows), len(pt.cols))
	for _, row := range rows {
		key, err := tb.EncodeKey(row, nil)
		if err != nil {
			t.Errorf("%s: %v: rkql cannot write the key: %v", pt.name, row, err)
			continue
		}
		hk := hex.EncodeToString(key)
		cs, ok := cells[hk]
		if !ok {
			t.Errorf("%s: rkql writes key %s for %v; Phoenix wrote none such", pt.name, ToStringBinary(key), row)
			continue
		}
		// Each UPSERT writes the empty column, as rkql does.
		if e := cs["_0"]; e != hex.EncodeToString([]byte(PhoenixEmptyValue))+" Put" {
			t.Errorf("%s: key %s: Phoenix's empty column is %q, rkql writes %q", pt.name, ToStringBinary(key), e, PhoenixEmptyValue)
		}
		got := tb.NewRow()
		if err := tb.DecodeKey(key, got, nil); err != nil {
			t.Errorf("%s: rkql cannot read Phoenix's key %s: %v", pt.name, ToStringBinary(key), err)
			continue
		}
		for ci, c := range pt.cols {
			col := tb.Columns[ci]
			if c.pk {
				if !Equal(got[ci], row[ci]) {
					t.Errorf("%s: key %s: rkql reads %s = %s, Phoenix wrote %s", pt.name, ToStringBinary(key), c.name, got[ci], row[ci])
				}
				continue
			}
			ph, has := cs[strings.ToUpper(c.name)]
			if row[ci].Null {
				// A NULL is HBase's Delete.addColumns, as rkql writes it.
				if has && ph != "- DeleteColumn" {
					t.Errorf("%s: %s is NULL, and Phoenix wrote %s", pt.name, c.name, ph)
				}
				continue
			}
			ph, ok := strings.CutSuffix(ph, " Put")
			if !ok {
				t.Errorf("%s: %s = %s: Phoenix wrote %s", pt.name, c.name, row[ci], ph)
				continue
			}
			if err := col.CheckCell(row[ci]); err != nil {
				t.Errorf("%s: rkql refuses %s: %v", pt.name, row[ci], err)
				continue
			}
			if want := hex.EncodeToString(col.EncodeCell(row[ci])); ph != want {
				t.Errorf("%s: %s = %s: Phoenix writes %s, rkql %s", pt.name, c.name, row[ci], ph, want)
			}
			b, _ := hex.DecodeString(ph)
			v, err := col.DecodeCell(b)
			if err != nil || !Equal(v, row[ci]) {
				t.Errorf("%s: %s: rkql reads %s (%v) from Phoenix's %s, which holds %s", pt.name, c.name, v, err, ph, row[ci])
			}
		}
	}
}

// phoenixCellArrayCases returns the requests that fill a table stored as
// SINGLE_CELL_ARRAY_WITH_OFFSETS with random rows, and a check that each
// row's cell is what EncodePhoenixCellArray writes from rkql's cell bytes
// of the columns, and that DecodePhoenixCellArray reads them back. The
// check returns the answers after its own.
func phoenixCellArrayCases(t *testing.T, r *rand.Rand) ([]string, func([]string) []string) {
	pt := ptable{name: "pt_cells", nrows: 80, cols: []pcol{
		{name: "k", p: PVarchar, typ: TypeString, pk: true, notNull: true, gen: func(r *rand.Rand, i int) Value { return String(fmt.Sprint("r", i)) }},
		{name: "a", p: PInteger, typ: TypeInt, gen: nullable(genPInt(-1<<30, 1<<30), TypeInt)},
		{name: "b", p: PVarchar, typ: TypeString, gen: nullable(genPStr, TypeString)},
		{name: "c", p: PDouble, typ: TypeDouble, gen: nullable(genPDouble, TypeDouble)},
		{name: "d", p: PBigint, typ: TypeBigint, gen: nullable(genPInt(-1<<61, 1<<61), TypeBigint)},
		{name: "e", p: PDecimal, typ: TypeString, gen: nullable(genPDec, TypeString)},
	}}
	ddl := strings.Replace(pt.ddl(), "COLUMN_ENCODED_BYTES=0", "IMMUTABLE_ROWS=true, IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS", 1)
	reqs := []string{"sql\t" + ddl}
	var rows []Row
	for i := range pt.nrows {
		row := make(Row, len(pt.cols))
		var names, lits []string
		for ci, c := range pt.cols {
			v := c.gen(r, i)
			if v.Type == TypeBigint {
				v.Type = c.typ
			}
			row[ci] = v
			names = append(names, strings.ToUpper(c.name))
			lits = append(lits, sqlLiteral(c, v))
		}
		rows = append(rows, row)
		reqs = append(reqs, fmt.Sprintf("sql\tUPSERT INTO PT_CELLS (%s) VALUES (%s)", strings.Join(names, ", "), strings.Join(lits, ", ")))
	}
	reqs = append(reqs, "rows")
	return reqs, func(lines []string) []string {
		tb := mustTable(t, mustParse(t, pt.yaml()), pt.name)
		for i := 0; i <= pt.nrows; i++ {
			if len(lines) == 0 || lines[0] != "ok" {
				t.Fatalf("%s: Phoenix answered %q", pt.name, lines[:min(1, len(lines))])
			}
			lines = lines[1:]
		}
		cells := map[string]string{} // key -> the cell array, hex
		empties := 0
		for len(lines) > 0 && lines[0] != "end" {
			f := strings.Fields(lines[0])
			lines = lines[1:]
			switch {
			case len(f) == 6 && f[2] == "30" && f[3] == hex.EncodeToString([]byte(PhoenixCellArrayQualifier)) && f[5] == "Put":
				cells[f[1]] = f[4]
			case len(f) == 6 && f[2] == "30" && f[3] == "00000000" && f[4] == hex.EncodeToString([]byte(PhoenixEmptyValue)) && f[5] == "Put":
				empties++
			default:
				t.Errorf("%s: Phoenix wrote %q", pt.name, f)
			}
		}
		if len(lines) == 0 {
			t.Fatalf("%s: no end of rows", pt.name)
		}
		lines = lines[1:]
		if len(cells) != len(rows) || empties != len(rows) {
			t.Errorf("%s: Phoenix wrote %d cell arrays and %d empty columns for %d rows", pt.name, len(cells), empties, len(rows))
		}
		for _, row := range rows {
			key, err := tb.EncodeKey(row, nil)
			if err != nil {
				t.Fatal(err)
			}
			ph := cells[hex.EncodeToString(key)]
			var elems [][]byte
			for ci := 1; ci < len(pt.cols); ci++ {
				if row[ci].Null {
					elems = append(elems, nil)
					continue
				}
				elems = append(elems, tb.Columns[ci].EncodeCell(row[ci]))
			}
			mine, err := EncodePhoenixCellArray(elems)
			if err != nil || hex.EncodeToString(mine) != ph {
				t.Errorf("%s: %v: Phoenix writes %s, rkql %x (%v)", pt.name, row, ph, mine, err)
				continue
			}
			b, _ := hex.DecodeString(ph)
			got, err := DecodePhoenixCellArray(b)
			if err != nil || len(got) != len(elems) {
				t.Errorf("%s: %v: rkql reads %d elements (%v) from %s", pt.name, row, len(got), err, ph)
				continue
			}
			for ci := 1; ci < len(pt.cols); ci++ {
				e := got[ci-1]
				if e == nil {
					if !row[ci].Null {
						t.Errorf("%s: %v: %s reads NULL", pt.name, row, pt.cols[ci].name)
					}
					continue
				}
				v, err := tb.Columns[ci].DecodeCell(e)
				if err != nil || !Equal(v, row[ci]) {
					t.Errorf("%s: %v: %s reads %s (%v)", pt.name, row, pt.cols[ci].name, v, err)
				}
			}
		}
		t.Logf("%s: %d rows of %d columns in one cell each, compared both ways", pt.name, len(rows), len(pt.cols)-1)
		return lines
	}
}
