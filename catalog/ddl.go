package catalog

import (
	"strconv"
	"strings"
)

// DDL returns the CREATE TABLE statement that defines t's layout, with
// names written by quote (the parser's QuoteIdent; catalog does not import
// the parser). Run, the statement gives a table with the same columns,
// families, rowkey bytes, splits and HBase table; the doc text is not
// part of it.
func (t *Table) DDL(quote func(string) string) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + quote(t.Name) + " (")
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote(c.Name) + " " + c.Type.String())
		if c.Family != "" {
			b.WriteString(" AS " + sqlString(c.Family+":"+c.Qualifier))
		}
		if c.Encoding == EncText {
			b.WriteString(" TEXT")
		}
	}
	b.WriteString(") ROWKEY (" + componentsDDL(t, quote) + ")")
	if len(t.Families) > 0 {
		b.WriteString(" FAMILIES (")
		for i, f := range t.Families {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(familyDDL(f, quote))
		}
		b.WriteString(")")
	}
	switch s := t.Splits; {
	case len(s.Explicit) > 0:
		keys := make([]string, len(s.Explicit))
		for i, k := range s.Explicit {
			keys[i] = sqlString(ToStringBinary(k))
		}
		b.WriteString(" SPLITS (" + strings.Join(keys, ", ") + ")")
	case s.Buckets:
		b.WriteString(" SPLIT BY BUCKETS")
	case s.Algorithm != "":
		b.WriteString(" SPLIT BY " + quote(s.Algorithm) + " INTO " + strconv.Itoa(s.Regions) + " REGIONS")
	}
	if t.Physical != t.Name {
		b.WriteString(" HBASE " + sqlString(t.Physical))
	}
	return b.String()
}

// DDL returns the CREATE INDEX statement of ix, an index of t.
func (ix *Index) DDL(t *Table, quote func(string) string) string {
	s := "CREATE INDEX " + quote(ix.Name) + " ON " + quote(t.Name) + " ROWKEY (" + componentsDDL(ix.Table, quote) + ")"
	if len(ix.Covers) > 0 {
		names := make([]string, len(ix.Covers))
		for i, c := range ix.Covers {
			names[i] = quote(c)
		}
		s += " COVERING (" + strings.Join(names, ", ") + ")"
	}
	if !IndexHoldsKey(ix.Table, t) {
		s += " UNIQUE"
	}
	if ix.Physical != ix.Name {
		s += " HBASE " + sqlString(ix.Physical)
	}
	return s
}

// IndexHoldsKey reports whether the key of index table it holds every key
// field of t, so that no two rows can share an entry; an index that does
// not is unique on its key.
func IndexHoldsKey(it, t *Table) bool {
	in := map[string]bool{}
	for _, c := range it.KeyColumns() {
		in[it.Columns[c].Name] = true
	}
	for _, c := range t.KeyColumns() {
		if !in[t.Columns[c].Name] {
			return false
		}
	}
	return true
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func familyDDL(f Family, quote func(string) string) string {
	s := quote(f.Name)
	if f.Versions > 0 {
		s += " VERSIONS " + strconv.Itoa(f.Versions)
	}
	if f.TTL > 0 {
		s += " TTL " + strconv.FormatInt(f.TTL, 10)
	}
	if f.Compression != "" {
		s += " COMPRESSION " + sqlString(f.Compression)
	}
	if f.BloomFilter != "" {
		s += " BLOOMFILTER " + sqlString(f.BloomFilter)
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

func componentsDDL(t *Table, quote func(string) string) string {
	parts := make([]string, len(t.Key.Components))
	for i := range t.Key.Components {
		parts[i] = componentDDL(t, &t.Key.Components[i], quote)
	}
	return strings.Join(parts, ", ")
}

func componentDDL(t *Table, c *Component, quote func(string) string) string {
	var s string
	switch c.Kind {
	case KindLiteral:
		return sqlString(ToStringBinary(c.Literal))
	case KindField:
		return fieldDDL(t, c, quote)
	case KindSalt:
		return "SALT " + strconv.FormatInt(c.Mod, 10)
	case KindRandom:
		s = "RANDOM " + strconv.FormatInt(c.Mod, 10)
	case KindBucket:
		s = "BUCKET(" + quote(c.Field) + ") MOD " + strconv.FormatInt(c.Mod, 10)
	case KindHash:
		names := make([]string, len(c.Inputs))
		for i, n := range c.Inputs {
			names[i] = quote(n)
		}
		s = [...]string{"MD5", "JAVAHASH", "MURMUR3"}[c.Hash] + "(" + strings.Join(names, ", ") + ")"
		if c.Hash != HashMD5 {
			s += " MOD " + strconv.FormatInt(c.Mod, 10)
		}
	}
	s += " WIDTH " + strconv.Itoa(c.Width)
	if c.Binary {
		s += " BINARY"
	}
	return s
}

func fieldDDL(t *Table, c *Component, quote func(string) string) string {
	s := quote(c.Field)
	def, _ := defaultEncoding(t.Columns[c.col].Type)
	if c.Enc != def {
		s += " " + [...]string{"TEXT", "DECIMAL", "SORTABLE", "JAVA"}[c.Enc]
	}
	switch {
	case c.Enc == KeyDecimal && c.Width > 0:
		s += " " + strconv.Itoa(c.Width)
	case c.Enc == KeyText && c.Width > 0 && c.Pad == ' ' && !c.PadLeft:
		s += " WIDTH " + strconv.Itoa(c.Width)
	case c.Enc == KeyText && c.Width > 0:
		side := "RIGHT"
		if c.PadLeft {
			side = "LEFT"
		}
		s += " PAD " + side + " " + strconv.Itoa(c.Width) + " WITH " + sqlString(ToStringBinary([]byte{c.Pad}))
	}
	if c.Desc {
		s += " DESC"
	}
	if c.Reverse {
		s += " REVERSE"
	}
	return s
}
