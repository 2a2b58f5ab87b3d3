package design

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// The way back from the catalog to the layout statements: a catalog table
// becomes the CREATE TABLE (and CREATE INDEX) statement that the planner
// turns into the same table again, and the statement's String is its
// text. SHOW CREATE TABLE prints it, and after it, as comments, the HBase
// shell statements of hbaseshell.go. A feature of the catalog that these
// statements cannot say is an error wrapping ErrNotExpressible, never text
// that means something else. The doc text is not part of the statement.

// ErrNotExpressible is the cause of every error of CreateTable,
// CreateIndex and CreateStatements for a layout that the layout
// statements cannot express.
var ErrNotExpressible = errors.New("design: not expressible in CREATE TABLE")

// NotExpressibleError is the error for a layout that the layout
// statements cannot express; it wraps ErrNotExpressible.
type NotExpressibleError struct {
	Stmt  string // the statement that cannot say it: "CREATE TABLE", "CREATE INDEX"
	Entry string // what cannot be said: "table t", "index i"
	Lacks string // the feature the statement lacks, one line
}

func (e *NotExpressibleError) Error() string {
	return e.Entry + ": " + e.Lacks + ": " + ErrNotExpressible.Error()
}

func (e *NotExpressibleError) Unwrap() error { return ErrNotExpressible }

// ShowCreate returns SHOW CREATE TABLE's text. It starts with the
// statements that make t in an empty catalog, each ended by ';' on a line
// of its own: for a data table, its CREATE TABLE and then a CREATE INDEX
// per index, for an index table its CREATE INDEX. When they cannot
// express t, one comment line says so and why instead. Then come, as
// "-- " comment lines, the HBase shell statements that make the same
// HBase tables (HBaseShell), so that the whole text, run by rkql, makes
// t again (or nothing), and an operator can pre-split the tables by hand.
func ShowCreate(t *catalog.Table) string {
	var b strings.Builder
	stmts, err := CreateStatements(t)
	var ne *NotExpressibleError
	switch {
	case errors.As(err, &ne):
		fmt.Fprintf(&b, "-- %s cannot express %s: %s\n", ne.Stmt, ne.Entry, ne.Lacks)
	case err != nil:
		fmt.Fprintf(&b, "-- no CREATE statement for %s: %s\n", t.Name, oneLine(err.Error()))
	}
	for _, s := range stmts {
		b.WriteString(s.String() + ";\n")
	}
	b.WriteString("-- in the HBase shell:\n")
	for _, l := range strings.SplitAfter(HBaseShell(t), "\n") {
		if l != "" {
			b.WriteString("-- " + l)
		}
	}
	return b.String()
}

// CreateStatements returns the statements that make t in an empty
// catalog: for a data table, its CREATE TABLE and then a CREATE INDEX per
// index, for an index table its CREATE INDEX; or, when one of them cannot
// be said, none and the error.
func CreateStatements(t *catalog.Table) ([]parser.Stmt, error) {
	var stmts []parser.Stmt
	if t.IndexOf != nil {
		for _, ix := range t.IndexOf.Indexes {
			if ix.Table == t {
				s, err := CreateIndex(t.IndexOf, ix)
				if err != nil {
					return nil, err
				}
				stmts = append(stmts, s)
			}
		}
		return stmts, nil
	}
	s, err := CreateTable(t)
	if err != nil {
		return nil, err
	}
	stmts = append(stmts, s)
	for _, ix := range t.Indexes {
		s, err := CreateIndex(t, ix)
		if err != nil {
			return nil, err
		}
		stmts = append(stmts, s)
	}
	return stmts, nil
}

// CreateTable returns the CREATE TABLE … ROWKEY statement that defines t's
// columns, families, rowkey, splits and HBase table. t must be a data
// table; its indexes are CreateIndex's.
func CreateTable(t *catalog.Table) (*parser.CreateTableStmt, error) {
	if t.IndexOf != nil {
		return nil, fmt.Errorf("%s is an index of %s: render it with CREATE INDEX", t.Name, t.IndexOf.Name)
	}
	notExpr := func(format string, args ...any) error {
		return &NotExpressibleError{Stmt: "CREATE TABLE", Entry: "table " + t.Name, Lacks: oneLine(fmt.Sprintf(format, args...))}
	}
	if t.Key == nil {
		return nil, fmt.Errorf("table %s has no rowkey", t.Name)
	}
	if t.Wide != nil {
		return nil, notExpr("wide rows, each cell of family %s a row", t.Wide.Family)
	}
	d := &parser.TableDef{}
	for _, c := range t.Columns {
		if c.Encoding == catalog.EncPhoenix {
			return nil, notExpr("column %s, a cell in Phoenix's %s encoding", c.Name, c.Phoenix)
		}
		if c.Width != 0 || c.Unsigned {
			return nil, notExpr("column %s, a cell of a chosen width or unsigned", c.Name)
		}
		if c.MapFamily != "" {
			return nil, notExpr("column %s, a %s whose entries are the cells of family %s", c.Name, c.Map, c.MapFamily)
		}
		if c.Type == catalog.TypeMap {
			return nil, notExpr("column %s, a %s", c.Name, c.Map)
		}
		cd := parser.ColumnDef{Name: parser.Ident{Name: c.Name}, Type: c.Type.String(), Text: c.Encoding == catalog.EncText}
		if c.Family != "" {
			cd.Column = catalog.ToStringBinary([]byte(c.Family + ":" + c.Qualifier))
		}
		d.Columns = append(d.Columns, cd)
	}
	var err error
	if d.Rowkey, err = keyComponents(t, notExpr); err != nil {
		return nil, err
	}
	for _, f := range t.Families {
		d.Families = append(d.Families, familyDef(f))
	}
	switch s := t.Splits; {
	case len(s.Explicit) > 0:
		for _, k := range s.Explicit {
			d.Splits = append(d.Splits, &parser.StringLit{Val: catalog.ToStringBinary(k)})
		}
	case s.Buckets:
		d.SplitBy = "BUCKETS"
	case s.Algorithm != "":
		d.SplitBy, d.SplitRegions = s.Algorithm, s.Regions
	}
	if t.Physical != t.Name {
		d.HBase = t.Physical
	}
	return &parser.CreateTableStmt{Table: parser.Ident{Name: t.Name}, Def: d}, nil
}

// CreateIndex returns the CREATE INDEX statement of ix, an index of the
// data table t.
func CreateIndex(t *catalog.Table, ix *catalog.Index) (*parser.CreateIndexStmt, error) {
	notExpr := func(format string, args ...any) error {
		return &NotExpressibleError{Stmt: "CREATE INDEX", Entry: "index " + ix.Name, Lacks: oneLine(fmt.Sprintf(format, args...))}
	}
	it := ix.Table
	if it == nil || it.Key == nil {
		return nil, fmt.Errorf("index %s has no rowkey", ix.Name)
	}
	if fams := it.Families; len(fams) != 1 || fams[0].Name != "d" {
		names := make([]string, len(fams))
		for i, f := range fams {
			names[i] = f.Name
		}
		return nil, notExpr("entries in family %s, not d", strings.Join(names, ", "))
	}
	s := &parser.CreateIndexStmt{Index: parser.Ident{Name: ix.Name}, Table: parser.Ident{Name: t.Name}}
	var err error
	if s.Rowkey, err = keyComponents(it, notExpr); err != nil {
		return nil, err
	}
	// CREATE INDEX carries the key fields of t that the index key does not
	// name, in t's key order, and says UNIQUE when its key leaves one out.
	in, fields := map[string]bool{}, map[string]bool{}
	for _, k := range s.Rowkey {
		for _, a := range k.Args {
			in[a.Name] = true
		}
		if k.Kind == parser.KeyField {
			in[k.Name.Name], fields[k.Name.Name] = true, true
		}
	}
	var carries []string
	for _, c := range t.KeyColumns() {
		name := t.Columns[c].Name
		s.Unique = s.Unique || !fields[name]
		if !in[name] {
			carries = append(carries, name)
		}
	}
	if !slices.Equal(carries, ix.Carries) {
		return nil, notExpr("carries [%s], where CREATE INDEX carries [%s]", strings.Join(ix.Carries, ", "), strings.Join(carries, ", "))
	}
	for _, c := range ix.Covers {
		s.Covering = append(s.Covering, parser.Ident{Name: c})
	}
	if ix.Physical != ix.Name {
		s.HBase = ix.Physical
	}
	return s, nil
}

// keyComponents returns the ROWKEY list of t's key.
func keyComponents(t *catalog.Table, notExpr func(string, ...any) error) ([]parser.KeyComponent, error) {
	out := make([]parser.KeyComponent, 0, len(t.Key.Components))
	for i := range t.Key.Components {
		c := &t.Key.Components[i]
		k, lacks := keyComponent(t, c)
		if lacks != "" {
			return nil, notExpr("%s, %s", c, lacks)
		}
		out = append(out, k)
	}
	return out, nil
}

// keyComponent returns the ROWKEY entry of c, a component of t's key, or
// what c has that a ROWKEY entry cannot say.
func keyComponent(t *catalog.Table, c *catalog.Component) (parser.KeyComponent, string) {
	k := parser.KeyComponent{Width: c.Width, Binary: c.Binary}
	switch c.Kind {
	case catalog.KindLiteral:
		return parser.KeyComponent{Kind: parser.KeyLiteral, Literal: &parser.StringLit{Val: catalog.ToStringBinary(c.Literal)}}, ""
	case catalog.KindField:
		return fieldComponent(t, c)
	case catalog.KindSalt:
		if len(c.Inputs) > 0 {
			return k, "a salt over chosen fields"
		}
		if c.Width != 1 {
			return k, fmt.Sprintf("a salt of %d bytes", c.Width)
		}
		return parser.KeyComponent{Kind: parser.KeySalt, N: c.Mod}, ""
	case catalog.KindRandom:
		k.Kind, k.N = parser.KeyRandom, c.Mod
	case catalog.KindBucket:
		k.Kind, k.N = parser.KeyBucket, c.Mod
		k.Args = []parser.Ident{{Name: c.Field}}
	case catalog.KindHash:
		k.Kind = parser.KeyHash
		switch {
		case c.Hash == catalog.HashMD5:
			k.Func = "MD5"
		case c.Hash == catalog.HashJava:
			k.Func, k.N = "JAVAHASH", c.Mod
		case c.Hash == catalog.HashMurmur3 && c.Seed == 0:
			k.Func, k.N = "MURMUR3", c.Mod
		case c.Hash == catalog.HashMurmur3:
			return k, "a murmur3 hash with a seed"
		default:
			return k, "a hash of Java's Arrays.hashCode"
		}
		for _, in := range c.Inputs {
			k.Args = append(k.Args, parser.Ident{Name: in})
		}
	default:
		return k, "a group of fields repeated until the key ends"
	}
	return k, ""
}

// fieldComponent returns the ROWKEY entry of the field c, or what it has
// that a ROWKEY entry cannot say.
func fieldComponent(t *catalog.Table, c *catalog.Component) (parser.KeyComponent, string) {
	k := parser.KeyComponent{Kind: parser.KeyField, Name: parser.Ident{Name: c.Field}, Desc: c.Desc, Reverse: c.Reverse}
	switch {
	case c.Unsigned:
		return k, "an unsigned number"
	case c.Unit != catalog.Millis:
		return k, "a time counted in a unit other than milliseconds"
	}
	typ := t.Columns[c.Column()].Type
	if c.Enc == catalog.KeyPhoenix {
		return k, "a field in Phoenix's encoding"
	}
	enc, width := catalog.DefaultKeyEncoding(typ)
	if c.Enc != enc {
		k.Encoding = [...]string{"TEXT", "DECIMAL", "SORTABLE", "JAVA"}[c.Enc]
	}
	switch c.Enc {
	case catalog.KeyText:
		switch {
		case c.Width == 0:
		case c.Pad == ' ' && !c.PadLeft:
			k.Width = c.Width
		default:
			k.Width, k.PadSide, k.PadWith = c.Width, "RIGHT", catalog.ToStringBinary([]byte{c.Pad})
			if c.PadLeft {
				k.PadSide = "LEFT"
			}
		}
	case catalog.KeyDecimal:
		k.Width = c.Width
	default:
		if c.Width != width {
			k.Width = c.Width
		}
	}
	return k, ""
}

// familyDef returns the FAMILIES entry of f.
func familyDef(f catalog.Family) parser.FamilyDef {
	fd := parser.FamilyDef{
		Name: parser.Ident{Name: f.Name}, Versions: f.Versions, TTL: -1, Compression: f.Compression,
		BloomFilter: f.BloomFilter, BlockSize: f.BlockSize, BlockCache: f.BlockCache, InMemory: f.InMemory,
	}
	if f.TTL > 0 {
		fd.TTL = f.TTL
	}
	return fd
}

// oneLine returns s with its line breaks made spaces, for a comment line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
