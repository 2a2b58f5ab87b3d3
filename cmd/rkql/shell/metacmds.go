package shell

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rkql/rkql/catalog"
)

// Expanded is how rows are laid out in the table format.
type Expanded int

// The expanded display modes of \x.
const (
	ExpandedOff  Expanded = iota // one line per row
	ExpandedOn                   // one line per column, a block per row
	ExpandedAuto                 // expanded when the table is wider than the terminal
)

func (e Expanded) String() string {
	switch e {
	case ExpandedOn:
		return "on"
	case ExpandedAuto:
		return "used automatically"
	}
	return "off"
}

func fileArg(name string, kind intentKind, c metaCall, optional bool) (intent, error) {
	switch {
	case c.rest == "" && optional:
		return intent{kind: kind}, nil
	case c.rest == "":
		return intent{}, fmt.Errorf("%s takes a file name", name)
	}
	return intent{kind: kind, path: strings.TrimSuffix(c.rest, ";")}, nil
}

func describePlusCmd(c metaCall) (intent, error) {
	if len(c.args) != 1 {
		return intent{}, fmt.Errorf(`\d+ takes one table name`)
	}
	t := c.args[0]
	return intent{kind: intentExec, sql: "DESCRIBE " + t + "; SHOW REGIONS " + t + ";", text: keyLegend(c.cat, t)}, nil
}

// keyLegend explains, component by component, the rowkey notation that
// DESCRIBE and EXPLAIN print for t (EXPLAIN (VERBOSE) prints the same).
func keyLegend(cat *catalog.Catalog, name string) string {
	if cat == nil {
		return ""
	}
	t, ok := cat.Table(name)
	if !ok {
		return ""
	}
	return "Rowkey notation of " + t.Name + ":\n  " + strings.Join(t.Key.Legend(), "\n  ") + "\n"
}

func listTablesCmd(c metaCall) (intent, error) {
	if err := noArgs(`\dt`, c.args); err != nil {
		return intent{}, err
	}
	it := intent{kind: intentRows, cols: []column{
		{Name: "name", Type: catalog.TypeString}, {Name: "hbase_table", Type: catalog.TypeString},
		{Name: "key", Type: catalog.TypeString}, {Name: "indexes", Type: catalog.TypeString}}}
	for _, t := range c.cat.Tables {
		if t.IndexOf != nil {
			continue
		}
		var idx []string
		for _, ix := range t.Indexes {
			idx = append(idx, ix.Name)
		}
		it.rows = append(it.rows, catalog.Row{catalog.String(t.Name), catalog.String(t.Physical),
			catalog.String(t.Key.String()), catalog.String(strings.Join(idx, ", "))})
	}
	return it, nil
}

func listIndexesCmd(c metaCall) (intent, error) {
	if len(c.args) > 1 {
		return intent{}, fmt.Errorf(`\di takes at most one table name`)
	}
	it := intent{kind: intentRows, cols: []column{
		{Name: "name", Type: catalog.TypeString}, {Name: "table", Type: catalog.TypeString},
		{Name: "hbase_table", Type: catalog.TypeString}, {Name: "key", Type: catalog.TypeString},
		{Name: "covers", Type: catalog.TypeString}}}
	found := false
	for _, t := range c.cat.Tables {
		if t.IndexOf != nil || len(c.args) == 1 && !strings.EqualFold(t.Name, c.args[0]) {
			continue
		}
		found = true
		for _, ix := range t.Indexes {
			it.rows = append(it.rows, catalog.Row{catalog.String(ix.Name), catalog.String(t.Name),
				catalog.String(ix.Physical), catalog.String(ix.Table.Key.String()), catalog.String(strings.Join(ix.Covers, ", "))})
		}
	}
	if !found && len(c.args) == 1 {
		return intent{}, fmt.Errorf("no table %s", c.args[0])
	}
	return it, nil
}

func expandedCmd(c metaCall) (intent, error) {
	var to *Expanded
	switch {
	case len(c.args) > 1:
		return intent{}, fmt.Errorf(`\x takes on, off or auto`)
	case len(c.args) == 1:
		v, ok := map[string]Expanded{"on": ExpandedOn, "off": ExpandedOff, "auto": ExpandedAuto}[strings.ToLower(c.args[0])]
		if !ok {
			return intent{}, fmt.Errorf(`\x takes on, off or auto, not %q`, c.args[0])
		}
		to = &v
	}
	return intent{kind: intentSet, text: "expanded", set: func(s *Settings) {
		switch {
		case to != nil:
			s.Expanded = *to
		case s.Expanded == ExpandedOff:
			s.Expanded = ExpandedOn
		default:
			s.Expanded = ExpandedOff
		}
	}}, nil
}

func psetCmd(c metaCall) (intent, error) {
	if len(c.args) == 0 {
		return intent{}, fmt.Errorf(`\pset takes pager or null`)
	}
	switch strings.ToLower(c.args[0]) {
	case "pager":
		it, err := toggleCmd(`\pset pager`, "pager", c.args[1:], func(s *Settings) *bool { return &s.Pager })
		return it, err
	case "null":
		v := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c.rest[len(c.args[0]):]), ";"))
		if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
			v = v[1 : len(v)-1]
		}
		return intent{kind: intentSet, text: "null", set: func(s *Settings) { s.Null = v }}, nil
	}
	return intent{}, fmt.Errorf(`\pset takes pager or null, not %q`, c.args[0])
}

func setVarCmd(c metaCall) (intent, error) {
	if len(c.args) == 0 {
		return intent{kind: intentVar}, nil
	}
	name := c.args[0]
	if !validVarName(name) {
		return intent{}, fmt.Errorf("invalid variable name %q: use letters, digits and _", name)
	}
	val := strings.TrimSpace(c.rest[len(name):])
	if len(val) >= 2 && val[0] == '\'' && val[len(val)-1] == '\'' {
		val = strings.ReplaceAll(val[1:len(val)-1], "''", "'")
	}
	return intent{kind: intentVar, name: name, text: val}, nil
}

func validVarName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// syntaxes are the statements \h explains, in the order it lists them.
var syntaxes = []struct{ name, syntax, desc string }{
	{"SELECT", "SELECT * | col [, …] | COUNT(*) FROM t [USE INDEX (i) | NO INDEX]\n  [WHERE cond] [ORDER BY col [DESC] [, …]] [LIMIT n] [VERSIONS n] [ALLOW FULL SCAN]",
		"read rows; WHERE takes AND OR NOT, = != < <= > >=, BETWEEN, IN, LIKE, IS [NOT] NULL"},
	{"EXPLAIN", "EXPLAIN [ANALYZE] [(FORMAT JSON)] SELECT …", "show the plan: which key ranges, index and filters; ANALYZE runs it and counts"},
	{"INSERT", "INSERT INTO t (col [, …]) VALUES (v [, …]) [, (…)] [TIMESTAMP ts]", "write rows; the key columns are required"},
	{"DELETE", "DELETE FROM t WHERE cond", "delete the rows that match"},
	{"SHOW", "SHOW TABLES | SHOW REGIONS t", "list the catalog's tables, or a table's regions and their key ranges"},
	{"DESCRIBE", "DESCRIBE t", "a table's columns, rowkey, families, splits and indexes"},
	{"CREATE", "CREATE TABLE t", "create the HBase table of t with its families and splits, as the catalog says"},
	{"ENCODE", "ENCODE KEY t (col = v [, …])", "the rowkey bytes of the key values"},
	{"DECODE", "DECODE KEY t 'text' | DECODE KEY t x'hex'", "the key values of rowkey bytes"},
	{"BUILD", "BUILD INDEX i ON t", "fill index i from the rows of t"},
	{"CHECK", "CHECK INDEX i [REPAIR]", "compare index i with its table; REPAIR fixes what differs"},
}

func syntaxCmd(c metaCall) (intent, error) {
	var b strings.Builder
	if len(c.args) == 0 {
		b.WriteString("Statements (\\h NAME for one):\n")
		names := make([]string, len(syntaxes))
		for i, s := range syntaxes {
			names[i] = s.name
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(names, ", "))
		return intent{kind: intentPrint, text: b.String()}, nil
	}
	want := strings.ToUpper(strings.TrimSuffix(c.args[0], ";"))
	for _, s := range syntaxes {
		if s.name == want {
			fmt.Fprintf(&b, "Statement: %s\nDescription: %s\nSyntax:\n%s\n", s.name, s.desc, s.syntax)
			return intent{kind: intentPrint, text: b.String()}, nil
		}
	}
	names := make([]string, len(syntaxes))
	for i, s := range syntaxes {
		names[i] = s.name
	}
	sort.Strings(names)
	return intent{}, fmt.Errorf("no help for %s (statements: %s)", c.args[0], strings.Join(names, ", "))
}
