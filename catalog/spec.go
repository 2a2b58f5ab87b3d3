package catalog

import (
	"fmt"
	"strconv"
	"strings"
)

// The YAML shape of a catalog, exported for the statements that write it
// (CREATE TABLE … ROWKEY, CREATE INDEX, ALTER TABLE). Each is the type the
// loader reads, so a spec means exactly what its YAML means.
type (
	TableSpec     = yTable
	FamilySpec    = yFamily
	ColumnSpec    = yColumn
	ComponentSpec = yComponent
	SplitSpec     = ySplit
	IndexSpec     = yIndex
)

// RenderTable writes spec as one item of the tables: list, in the style of
// the example catalog: a block mapping whose families, columns and rowkey
// components are one flow mapping a line. The text starts with "- " at
// column 0 and ends with a newline.
func RenderTable(spec *TableSpec) string {
	var b strings.Builder
	b.WriteString("- name: " + yamlScalar(spec.Name) + "\n")
	if spec.HBase != "" {
		b.WriteString("  hbase: " + yamlScalar(spec.HBase) + "\n")
	}
	if spec.Doc != "" {
		b.WriteString("  doc: " + yamlScalar(spec.Doc) + "\n")
	}
	list := func(key string, items []string) {
		if len(items) == 0 {
			return
		}
		b.WriteString("  " + key + ":\n")
		for _, it := range items {
			b.WriteString("    - " + it + "\n")
		}
	}
	var fams, cols, comps []string
	for i := range spec.Families {
		fams = append(fams, RenderFamily(&spec.Families[i]))
	}
	for i := range spec.Columns {
		cols = append(cols, RenderColumn(&spec.Columns[i]))
	}
	for i := range spec.Rowkey {
		comps = append(comps, renderComponent(&spec.Rowkey[i]))
	}
	list("families", fams)
	list("columns", cols)
	list("rowkey", comps)
	if len(spec.Splits) > 0 {
		q := make([]string, len(spec.Splits))
		for i, s := range spec.Splits {
			q[i] = yamlScalar(s)
		}
		b.WriteString("  splits: [" + strings.Join(q, ", ") + "]\n")
	}
	if s := spec.Split; s != nil {
		if s.Buckets {
			b.WriteString("  split: {buckets: true}\n")
		} else {
			fmt.Fprintf(&b, "  split: {algorithm: %s, regions: %d}\n", yamlScalar(s.Algorithm), s.Regions)
		}
	}
	if p := spec.Phoenix; p != nil {
		kv := []string{"table", p.Table}
		if p.EmptyColumn != "" {
			kv = append(kv, "empty_column", p.EmptyColumn)
		}
		if p.Storage != "" {
			kv = append(kv, "storage", p.Storage)
		}
		if len(p.GlobalIndexes) > 0 {
			names := make([]string, len(p.GlobalIndexes))
			for i, n := range p.GlobalIndexes {
				names[i] = yamlScalar(n)
			}
			kv = append(kv, "global_indexes", "["+strings.Join(names, ", ")+"]")
		}
		if p.IndexOf != "" {
			kv = append(kv, "index_of", p.IndexOf)
		}
		if p.Uncovered {
			kv = append(kv, "uncovered", "true")
		}
		b.WriteString("  phoenix: " + flowMap(kv) + "\n")
	}
	if len(spec.Indexes) > 0 {
		b.WriteString("  indexes:\n")
		for i := range spec.Indexes {
			b.WriteString(indent(RenderIndex(&spec.Indexes[i]), "    "))
		}
	}
	return b.String()
}

// RenderIndex writes spec as one item of an indexes: list, starting with
// "- " at column 0.
func RenderIndex(spec *IndexSpec) string {
	var b strings.Builder
	b.WriteString("- name: " + yamlScalar(spec.Name) + "\n")
	if spec.HBase != "" {
		b.WriteString("  hbase: " + yamlScalar(spec.HBase) + "\n")
	}
	b.WriteString("  rowkey:\n")
	for i := range spec.Rowkey {
		b.WriteString("    - " + renderComponent(&spec.Rowkey[i]) + "\n")
	}
	if len(spec.Carries) > 0 {
		b.WriteString("  carries: " + flowList(spec.Carries) + "\n")
	}
	if len(spec.Covers) > 0 {
		b.WriteString("  covers: " + flowList(spec.Covers) + "\n")
	}
	if spec.Family != "" {
		b.WriteString("  family: " + yamlScalar(spec.Family) + "\n")
	}
	if spec.State != "" {
		b.WriteString("  state: " + yamlScalar(spec.State) + "\n")
	}
	return b.String()
}

// RenderFamily writes a family as a flow mapping.
func RenderFamily(f *FamilySpec) string {
	kv := []string{"name", f.Name}
	num := func(k string, n int64) {
		if n != 0 {
			kv = append(kv, k, strconv.FormatInt(n, 10))
		}
	}
	num("versions", int64(f.Versions))
	num("ttl", f.TTL)
	if f.Compression != "" {
		kv = append(kv, "compression", f.Compression)
	}
	if f.BloomFilter != "" {
		kv = append(kv, "bloomfilter", f.BloomFilter)
	}
	num("blocksize", int64(f.BlockSize))
	if f.BlockCache != nil {
		kv = append(kv, "blockcache", strconv.FormatBool(*f.BlockCache))
	}
	if f.InMemory {
		kv = append(kv, "in_memory", "true")
	}
	return flowMap(kv)
}

// RenderColumn writes a column as a flow mapping.
func RenderColumn(c *ColumnSpec) string {
	kv := []string{"name", c.Name, "type", c.Type}
	if c.Column != "" {
		kv = append(kv, "column", c.Column)
	}
	if c.Encoding != "" {
		kv = append(kv, "encoding", c.Encoding)
	}
	if c.Phoenix != "" {
		kv = append(kv, "phoenix", c.Phoenix)
	}
	if c.Width != 0 {
		kv = append(kv, "width", strconv.Itoa(c.Width))
	}
	if c.Unsigned {
		kv = append(kv, "unsigned", "true")
	}
	return flowMap(kv)
}

func renderComponent(c *ComponentSpec) string {
	var kv []string
	str := func(k, v string) {
		if v != "" {
			kv = append(kv, k, v)
		}
	}
	num := func(k string, n int64) {
		if n != 0 {
			kv = append(kv, k, strconv.FormatInt(n, 10))
		}
	}
	switch {
	case c.Literal != nil:
		kv = append(kv, "literal", *c.Literal)
	case c.Salt != 0:
		num("salt", c.Salt)
	case c.Random != 0:
		num("random", c.Random)
	case c.Hash != "":
		kv = append(kv, "hash", c.Hash, "of", flowList(c.Of))
	case c.Bucket != "":
		kv = append(kv, "bucket", c.Bucket)
	default:
		kv = append(kv, "field", c.Field)
	}
	str("encoding", c.Encoding)
	str("phoenix", c.Phoenix)
	num("width", int64(c.Width))
	if c.Pad != nil {
		kv = append(kv, "pad", *c.Pad)
	}
	str("align", c.Align)
	str("order", c.Order)
	if c.Reverse {
		kv = append(kv, "reverse", "true")
	}
	str("unit", c.Unit)
	if c.Unsigned {
		kv = append(kv, "unsigned", "true")
	}
	num("mod", c.Mod)
	if c.Binary {
		kv = append(kv, "binary", "true")
	}
	return flowMap(kv)
}

// flowMap writes key, value pairs as {k: v, …}. A value already written
// as a flow list, a number or a boolean is kept as it is.
func flowMap(kv []string) string {
	parts := make([]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		v := kv[i+1]
		if !strings.HasPrefix(v, "[") && !isYAMLNumberOrBool(v, kv[i]) {
			v = yamlScalar(v)
		}
		parts = append(parts, kv[i]+": "+v)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// numericKeys are the keys whose values flowMap writes unquoted.
var numericKeys = map[string]bool{
	"versions": true, "ttl": true, "blocksize": true, "blockcache": true, "in_memory": true,
	"width": true, "uncovered": true, "mod": true, "salt": true, "random": true, "reverse": true, "binary": true, "unsigned": true,
}

func isYAMLNumberOrBool(v, key string) bool { return numericKeys[key] }

func flowList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = yamlScalar(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// yamlScalar writes s as a YAML string: plain when it is a plain word that
// YAML reads as that string, else single-quoted (no escapes: a backslash
// stays a backslash, as ParseBinary wants), or double-quoted when it holds
// characters a single-quoted scalar cannot.
func yamlScalar(s string) string {
	if isPlainYAML(s) {
		return s
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return strconv.Quote(s)
		}
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// yamlSpecial are words YAML reads as something other than a string.
var yamlSpecial = map[string]bool{
	"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true, "null": true, "y": true, "n": true,
}

func isPlainYAML(s string) bool {
	if s == "" || yamlSpecial[strings.ToLower(s)] {
		return false
	}
	for i, r := range s {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && (r >= '0' && r <= '9' || r == '.'))
		if !ok {
			return false
		}
	}
	return true
}

func indent(text, prefix string) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l == "" {
			continue
		}
		if l != "\n" {
			b.WriteString(prefix)
		}
		b.WriteString(l)
	}
	return b.String()
}
