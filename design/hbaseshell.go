package design

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// The HBase shell's side of SHOW CREATE TABLE: the `create` statement
// that makes a table's HBase table by hand, with its families' settings
// and the split points HBase's own algorithms produce, for an operator
// who pre-splits a table outside rkql.

// HBaseShell returns the HBase shell `create` statements that make t's
// HBase tables, one to a line: t's physical table, with its families and
// their settings and SPLITS from the table's split policy, then, for a
// data table, one statement per index table.
func HBaseShell(t *catalog.Table) string {
	var b strings.Builder
	writeShellCreate(&b, t)
	if t.IndexOf == nil {
		for _, ix := range t.Indexes {
			writeShellCreate(&b, ix.Table)
		}
	}
	return b.String()
}

// writeShellCreate writes the create statement of t's physical table
// alone, on one line.
func writeShellCreate(b *strings.Builder, t *catalog.Table) {
	b.WriteString("create " + rubyString([]byte(t.Physical)))
	for _, f := range t.Families {
		b.WriteString(", {" + strings.Join(familyProps(f), ", ") + "}")
	}
	if splits := t.SplitKeys(); len(splits) > 0 {
		b.WriteString(", {SPLITS => [")
		for i, s := range splits {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(rubyString(s))
		}
		b.WriteString("]}")
	}
	b.WriteString("\n")
}

// familyProps lists a family's settings in the order the HBase shell's
// describe prints them, leaving out the ones the catalog does not set but
// VERSIONS, which HBase's default (1) has changed between releases.
func familyProps(f catalog.Family) []string {
	q := func(k, v string) string { return fmt.Sprintf("%s => '%s'", k, v) }
	versions := f.Versions
	if versions == 0 {
		versions = 1
	}
	props := []string{q("NAME", f.Name), q("VERSIONS", strconv.Itoa(versions))}
	if f.TTL > 0 {
		props = append(props, fmt.Sprintf("TTL => %d", f.TTL))
	}
	if f.BlockCache != nil {
		props = append(props, q("BLOCKCACHE", strconv.FormatBool(*f.BlockCache)))
	}
	if f.BlockSize > 0 {
		props = append(props, q("BLOCKSIZE", strconv.Itoa(f.BlockSize)))
	}
	if f.InMemory {
		props = append(props, q("IN_MEMORY", "true"))
	}
	if f.BloomFilter != "" {
		// The shell upper-cases it; describe and the usual create
		// statements write it in lower case ('row').
		props = append(props, q("BLOOMFILTER", strings.ToLower(f.BloomFilter)))
	}
	if f.Compression != "" {
		props = append(props, q("COMPRESSION", f.Compression))
	}
	return props
}

// rubyString quotes b for the HBase shell (JRuby): single quotes for
// printable text without quote or backslash, else double quotes with
// \xNN escapes for the bytes outside printable ASCII and a backslash
// before '"', '\' and '#' (which would start an interpolation). The
// result never holds a line break.
func rubyString(b []byte) string {
	plain := true
	for _, c := range b {
		if c < 0x20 || c > 0x7E || c == '\'' || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return "'" + string(b) + "'"
	}
	var s strings.Builder
	s.WriteByte('"')
	for _, c := range b {
		switch {
		case c == '"' || c == '\\' || c == '#':
			s.WriteByte('\\')
			s.WriteByte(c)
		case c < 0x20 || c > 0x7E:
			fmt.Fprintf(&s, "\\x%02X", c)
		default:
			s.WriteByte(c)
		}
	}
	s.WriteByte('"')
	return s.String()
}
