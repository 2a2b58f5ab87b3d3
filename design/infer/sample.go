package infer

import (
	"fmt"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// Sample is what Infer reads: some rows of one physical table.
type Sample struct {
	// Table is the physical table's name, with its namespace if any.
	Table string
	// Families are the table's column families as its descriptor gives
	// them; nil means the families the cells show.
	Families []catalog.FamilySpec
	// Regions is how many regions the rows were drawn from (for the
	// evidence only).
	Regions int
	// Rows are the sampled rows. Keys need not be distinct or sorted.
	Rows []Row
}

// Row is one sampled row: its key and the newest version of its cells.
type Row struct {
	Key   []byte
	Cells []Cell
}

// Cell is one cell of a sampled row.
type Cell struct {
	Family, Qualifier string
	Value             []byte
}

// Options are the choices Infer leaves to the caller; the zero value
// means the defaults.
type Options struct {
	// Name is the logical table name; "" derives one from Sample.Table.
	Name string
	// Known is the catalog the proposal will join, and Lookup reads its
	// tables' rows: with both, a table whose keys repeat the key fields
	// of a Known table (an index kept by hand) is found and its columns
	// named after that table's.
	Known  *catalog.Catalog
	Lookup Lookup
}

// Sure is how sure a part of a proposal is.
type Sure int

// How sure a part is, most sure first.
const (
	// Verified: recomputed from the other fields on every sampled row.
	Verified Sure = iota
	// Certain: every sampled row fits and no other reading does.
	Certain
	// Likely: every sampled row fits, and another reading would too.
	Likely
	// Guess: a reading that fits the rows but that little supports.
	Guess
)

func (s Sure) String() string {
	return [...]string{"verified", "certain", "likely", "guess"}[s]
}

// Part is one part of a proposal (a key component or a column) with
// what supports it.
type Part struct {
	// What is the part as the catalog writes it.
	What string
	// Evidence says what in the sample supports the part.
	Evidence string
	Sure     Sure
	// Other is another reading that fits the sample too, and Tell what
	// would tell the two apart (sampled keys where there are).
	Other, Tell string
}

// Proposal is Infer's answer.
type Proposal struct {
	// Found is false when no layout reads the sampled keys: Spec is then
	// the raw-bytes entry.
	Found bool
	// Spec is the proposed catalog entry.
	Spec catalog.TableSpec
	// Key is the layout as EXPLAIN's KEY line shows it.
	Key   string
	Parts []Part
	// Rows is how many rows were sampled, Regions from how many regions.
	Rows, Regions int
	// Note says why no layout was found, or what the sample lacked.
	Note string
}

// YAML is the proposed entry as one item of the catalog's tables: list.
func (p *Proposal) YAML() string { return catalog.RenderTable(&p.Spec) }

// Text is the proposal as INFER TABLE prints it: the evidence as YAML
// comments, then the entry.
func (p *Proposal) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s sampled from %s\n", p.Spec.Name, plural(p.Rows, "row"), plural(p.Regions, "region"))
	if !p.Found {
		b.WriteString("# no layout found: " + p.Note + "\n")
		b.WriteString("# the raw entry reads each key as one BYTES field\n")
	} else if p.Key != "" {
		b.WriteString("# key: " + p.Key + "\n")
	}
	for _, pt := range p.Parts {
		fmt.Fprintf(&b, "# %-9s %s\n#           %s\n", pt.Sure, pt.What, pt.Evidence)
		if pt.Other != "" {
			fmt.Fprintf(&b, "#           or: %s; %s\n", pt.Other, pt.Tell)
		}
	}
	if p.Found && p.Note != "" {
		b.WriteString("# note: " + p.Note + "\n")
	}
	b.WriteString("tables:\n")
	b.WriteString(indent(p.YAML(), "  "))
	return b.String()
}

func indent(text, prefix string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			b.WriteString(prefix + l)
		}
	}
	return b.String()
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}
