package parser

import (
	"strconv"
	"strings"
)

// allowsString prints the ALLOW clauses of a write.
func allowsString(fullScan, indexWrite bool) string {
	s := ""
	if fullScan {
		s += " ALLOW FULL SCAN"
	}
	if indexWrite {
		s += " ALLOW INDEX WRITE"
	}
	return s
}

// String returns the column as written in CREATE TABLE and ADD COLUMN.
func (d ColumnDef) String() string {
	s := d.Name.String() + " " + d.Type
	if d.Column != "" {
		s += " AS " + QuoteString(d.Column)
	}
	if d.Text {
		s += " TEXT"
	}
	return s
}

// String returns the component as written in a ROWKEY list.
func (k KeyComponent) String() string {
	var b strings.Builder
	switch k.Kind {
	case KeyLiteral:
		return exprString(k.Literal)
	case KeyField:
		b.WriteString(k.Name.String())
		if k.Encoding != "" {
			b.WriteString(" " + k.Encoding)
		}
		if k.Width > 0 && k.PadSide == "" {
			if k.Encoding == "DECIMAL" {
				b.WriteString(" " + strconv.Itoa(k.Width))
			} else {
				b.WriteString(" WIDTH " + strconv.Itoa(k.Width))
			}
		}
		if k.PadSide != "" {
			b.WriteString(" PAD " + k.PadSide + " " + strconv.Itoa(k.Width))
			if k.PadWith != "" {
				b.WriteString(" WITH " + QuoteString(k.PadWith))
			}
		}
		if k.Desc {
			b.WriteString(" DESC")
		}
		if k.Reverse {
			b.WriteString(" REVERSE")
		}
		return b.String()
	case KeyHash, KeyBucket:
		if k.Kind == KeyHash {
			b.WriteString(k.Func)
		} else {
			b.WriteString("BUCKET")
		}
		b.WriteByte('(')
		for i, a := range k.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.String())
		}
		b.WriteByte(')')
		if k.N != 0 {
			b.WriteString(" MOD " + strconv.FormatInt(k.N, 10))
		}
	case KeySalt:
		b.WriteString("SALT " + strconv.FormatInt(k.N, 10))
	case KeyRandom:
		b.WriteString("RANDOM " + strconv.FormatInt(k.N, 10))
	}
	if k.Width > 0 {
		b.WriteString(" WIDTH " + strconv.Itoa(k.Width))
	}
	if k.Binary {
		b.WriteString(" BINARY")
	}
	return b.String()
}

func componentsString(ks []KeyComponent) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = k.String()
	}
	return strings.Join(parts, ", ")
}

// String returns the family as written in FAMILIES and SET FAMILY.
func (f FamilyDef) String() string {
	s := f.Name.String()
	if f.Versions > 0 {
		s += " VERSIONS " + strconv.Itoa(f.Versions)
	}
	if f.TTL >= 0 {
		s += " TTL " + strconv.FormatInt(f.TTL, 10)
	}
	if f.Compression != "" {
		s += " COMPRESSION " + QuoteString(f.Compression)
	}
	if f.BloomFilter != "" {
		s += " BLOOMFILTER " + QuoteString(f.BloomFilter)
	}
	if f.BlockSize > 0 {
		s += " BLOCKSIZE " + strconv.Itoa(f.BlockSize)
	}
	if f.BlockCache != nil {
		s += " BLOCKCACHE " + strings.ToUpper(strconv.FormatBool(*f.BlockCache))
	}
	if f.InMemory {
		s += " IN_MEMORY"
	}
	return s
}

// String returns the definition as written after CREATE TABLE name.
func (d *TableDef) String() string {
	var b strings.Builder
	b.WriteString("(")
	for i, c := range d.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.String())
	}
	b.WriteString(") ROWKEY (" + componentsString(d.Rowkey) + ")")
	if len(d.Families) > 0 {
		b.WriteString(" FAMILIES (")
		for i, f := range d.Families {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.String())
		}
		b.WriteString(")")
	}
	if len(d.Splits) > 0 {
		b.WriteString(" SPLITS (")
		writeExprs(&b, d.Splits)
		b.WriteString(")")
	}
	if d.SplitBy != "" {
		b.WriteString(" SPLIT BY " + QuoteIdent(d.SplitBy))
		if d.SplitRegions > 0 {
			b.WriteString(" INTO " + strconv.Itoa(d.SplitRegions) + " REGIONS")
		}
	}
	if d.HBase != "" {
		b.WriteString(" HBASE " + QuoteString(d.HBase))
	}
	return b.String()
}

func (s *CreateTableStmt) String() string {
	if s.Phoenix != "" {
		name := ""
		if s.Table.Name != "" {
			name = s.Table.String() + " "
		}
		return "CREATE TABLE " + name + "FROM PHOENIX " + QuoteString(s.Phoenix)
	}
	if s.Def == nil {
		return "CREATE TABLE " + s.Table.String()
	}
	return "CREATE TABLE " + s.Table.String() + " " + s.Def.String()
}

func (s *CreateIndexStmt) String() string {
	out := "CREATE INDEX " + s.Index.String() + " ON " + s.Table.String() + " ROWKEY (" + componentsString(s.Rowkey) + ")"
	if len(s.Covering) > 0 {
		names := make([]string, len(s.Covering))
		for i, c := range s.Covering {
			names[i] = c.String()
		}
		out += " COVERING (" + strings.Join(names, ", ") + ")"
	}
	if s.Unique {
		out += " UNIQUE"
	}
	if s.HBase != "" {
		out += " HBASE " + QuoteString(s.HBase)
	}
	return out
}

func (s *DropTableStmt) String() string { return "DROP TABLE " + s.Table.String() }
func (s *DropIndexStmt) String() string { return "DROP INDEX " + s.Index.String() }
func (s *TruncateStmt) String() string  { return "TRUNCATE TABLE " + s.Table.String() }

func (s *AlterTableStmt) String() string {
	if s.AddColumn != nil {
		return "ALTER TABLE " + s.Table.String() + " ADD COLUMN " + s.AddColumn.String()
	}
	if s.SetFamily != nil {
		return "ALTER TABLE " + s.Table.String() + " SET FAMILY " + s.SetFamily.String()
	}
	return "ALTER TABLE " + s.Table.String()
}

func (s *ShowCatalogStmt) String() string {
	if s.Table == nil {
		return "SHOW CATALOG"
	}
	return "SHOW CATALOG " + s.Table.String()
}

func (s *UpdateStmt) String() string {
	var b strings.Builder
	b.WriteString("UPDATE " + s.Table.String() + " SET ")
	for i, a := range s.Set {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.String())
	}
	b.WriteString(" WHERE " + exprString(s.Where))
	b.WriteString(allowsString(s.AllowFullScan, s.AllowIndexWrite))
	return b.String()
}
