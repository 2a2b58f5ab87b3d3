package planner

import (
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// The conversion of layout statements into the catalog's YAML shape. A
// component of the statement is one rowkey entry of the YAML, so the
// conversion is word for word; the catalog's loader then checks the
// layout as it checks a hand-written file.

// tableSpec converts CREATE TABLE name (…) ROWKEY (…) … into a table of
// the catalog. A column that is not a key field and names no family goes
// to the table's one family, with its name as qualifier; a table given no
// families gets one, d.
func tableSpec(s *parser.CreateTableStmt) (*catalog.TableSpec, error) {
	d := s.Def
	spec := &catalog.TableSpec{Name: s.Table.Name, HBase: d.HBase}
	for _, f := range d.Families {
		spec.Families = append(spec.Families, familySpec(f))
	}
	keyField := map[string]bool{}
	for _, k := range d.Rowkey {
		if k.Kind == parser.KeyField {
			keyField[k.Name.Name] = true
		}
	}
	for _, c := range d.Columns {
		col := catalog.ColumnSpec{Name: c.Name.Name, Type: c.Type, Column: c.Column}
		if c.Text {
			col.Encoding = "text"
		}
		if col.Column == "" && !keyField[c.Name.Name] {
			if len(spec.Families) == 0 {
				spec.Families = append(spec.Families, catalog.FamilySpec{Name: "d"})
			}
			if len(spec.Families) > 1 {
				return nil, parser.Errorf(c.Name.NamePos, "column %s is not a key field, and table %s has %d families: say which with AS 'family:%s'", c.Name.Name, s.Table.Name, len(spec.Families), c.Name.Name)
			}
			col.Column = spec.Families[0].Name + ":" + c.Name.Name
		}
		spec.Columns = append(spec.Columns, col)
	}
	if len(spec.Families) == 0 {
		// Every column is a key field: the row is stored as one empty cell
		// (exec.EmptyQualifier), which needs a family too.
		spec.Families = append(spec.Families, catalog.FamilySpec{Name: "d"})
	}
	for _, k := range d.Rowkey {
		spec.Rowkey = append(spec.Rowkey, componentSpec(k))
	}
	for _, e := range d.Splits {
		spec.Splits = append(spec.Splits, literalText(e))
	}
	switch d.SplitBy {
	case "":
	case "BUCKETS":
		spec.Split = &catalog.SplitSpec{Buckets: true}
	default:
		spec.Split = &catalog.SplitSpec{Algorithm: d.SplitBy, Regions: d.SplitRegions}
	}
	return spec, nil
}

func familySpec(f parser.FamilyDef) catalog.FamilySpec {
	fs := catalog.FamilySpec{
		Name: f.Name.Name, Versions: f.Versions, Compression: f.Compression, BloomFilter: f.BloomFilter,
		BlockSize: f.BlockSize, BlockCache: f.BlockCache, InMemory: f.InMemory,
	}
	if f.TTL > 0 {
		fs.TTL = f.TTL
	}
	return fs
}

// literalText is the catalog's text of a key literal or split key: a
// string as written (\xNN escapes read by the catalog), bytes as
// toStringBinary text.
func literalText(e parser.Expr) string {
	if b, ok := e.(*parser.BytesLit); ok {
		return catalog.ToStringBinary(b.Val)
	}
	return e.(*parser.StringLit).Val
}

func componentSpec(k parser.KeyComponent) catalog.ComponentSpec {
	var c catalog.ComponentSpec
	switch k.Kind {
	case parser.KeyLiteral:
		lit := literalText(k.Literal)
		c.Literal = &lit
		return c
	case parser.KeySalt:
		c.Salt = k.N
		return c
	case parser.KeyRandom:
		c.Random = k.N
	case parser.KeyBucket:
		c.Bucket, c.Mod = k.Args[0].Name, k.N
	case parser.KeyHash:
		c.Hash = map[string]string{"MD5": "md5", "JAVAHASH": "java", "MURMUR3": "murmur3"}[k.Func]
		for _, a := range k.Args {
			c.Of = append(c.Of, a.Name)
		}
		c.Mod = k.N
	case parser.KeyField:
		c.Field = k.Name.Name
		c.Encoding = strings.ToLower(k.Encoding)
		if k.Desc {
			c.Order = "desc"
		}
		c.Reverse = k.Reverse
		if k.PadSide != "" {
			pad := " "
			if k.PadWith != "" {
				pad = k.PadWith
			}
			c.Pad = &pad
			if k.PadSide == "LEFT" {
				c.Align = "right"
			}
		}
	}
	c.Width, c.Binary = k.Width, k.Binary
	return c
}

// indexSpec converts CREATE INDEX into an index of table t. The index
// carries the key fields of t its own key leaves out, so that each entry
// points back to its row; such an index is unique on its key, which the
// statement must say with UNIQUE.
func indexSpec(s *parser.CreateIndexStmt, t *catalog.Table) (*catalog.IndexSpec, error) {
	spec := &catalog.IndexSpec{Name: s.Index.Name, HBase: s.HBase}
	in := map[string]bool{}
	keyFields := map[string]bool{}
	for _, k := range s.Rowkey {
		spec.Rowkey = append(spec.Rowkey, componentSpec(k))
		if k.Kind == parser.KeyField {
			in[k.Name.Name], keyFields[k.Name.Name] = true, true
		}
		for _, a := range k.Args {
			in[a.Name] = true
		}
	}
	var left []string
	for _, c := range t.KeyColumns() {
		name := t.Columns[c].Name
		if !keyFields[name] {
			left = append(left, name)
		}
		if !in[name] {
			spec.Carries = append(spec.Carries, name)
		}
	}
	switch {
	case len(left) > 0 && !s.Unique:
		return nil, parser.Errorf(s.Index.NamePos, "index %s leaves key field %s of %s out of its key, so two rows could share an entry: add it to the ROWKEY, or say UNIQUE", s.Index.Name, strings.Join(left, ", "), t.Name)
	case len(left) == 0 && s.Unique:
		return nil, parser.Errorf(s.Index.NamePos, "index %s holds every key field of %s, so its entries are unique already: leave out UNIQUE", s.Index.Name, t.Name)
	}
	for _, c := range s.Covering {
		spec.Covers = append(spec.Covers, c.Name)
	}
	return spec, nil
}
