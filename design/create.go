package design

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// CreateStatement returns the HBase shell `create` statement that makes t's
// physical table: its families with their properties, and SPLITS computed
// from the table's split policy, followed by one statement per index table.
func CreateStatement(t *catalog.Table) string {
	var b strings.Builder
	writeCreate(&b, t)
	for _, ix := range t.Indexes {
		b.WriteString("\n")
		writeCreate(&b, ix.Table)
	}
	return b.String()
}

func writeCreate(b *strings.Builder, t *catalog.Table) {
	fmt.Fprintf(b, "create %s", rubyString([]byte(t.Physical)))
	for _, f := range t.Families {
		b.WriteString(", {\n")
		props := familyProps(f)
		for i, p := range props {
			b.WriteString(p)
			if i < len(props)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("}")
	}
	if splits := t.SplitKeys(); len(splits) > 0 {
		b.WriteString(", {\nSPLITS => [")
		for i, s := range splits {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(rubyString(s))
		}
		b.WriteString("]\n}")
	}
	b.WriteString("\n")
}

// familyProps lists a family's settings in the order the HBase shell's
// describe prints them, leaving out the ones the catalog does not set.
func familyProps(f catalog.Family) []string {
	q := func(k, v string) string { return fmt.Sprintf("%s => '%s'", k, v) }
	props := []string{q("NAME", f.Name)}
	versions := f.Versions
	if versions == 0 {
		versions = 1
	}
	props = append(props, q("VERSIONS", strconv.Itoa(versions)))
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
		// The shell upper-cases it; `describe` and the usual create
		// statements write it in lower case ('row').
		props = append(props, q("BLOOMFILTER", strings.ToLower(f.BloomFilter)))
	}
	if f.Compression != "" {
		props = append(props, q("COMPRESSION", f.Compression))
	}
	return props
}

// rubyString quotes b for the HBase shell: single quotes for printable
// text, double quotes with \xNN escapes otherwise.
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
