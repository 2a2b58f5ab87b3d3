package shell

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/expr"
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
	known := c.cat == nil && tableArg(t) == t
	if c.cat != nil {
		_, known = c.cat.Table(t)
	}
	if !known {
		// A table the catalog does not describe (ns:table): DESCRIBE
		// shows its regions from the store.
		return intent{kind: intentExec, sql: "DESCRIBE " + tableArg(t) + ";"}, nil
	}
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
	{"SELECT", "SELECT [DISTINCT] * [, expr …] | expr [AS name] [, …] FROM t [USE INDEX (i) | NO INDEX]\n  [[LEFT] JOIN t2 ON cond …] (t, t2: a table, or a derived table (SELECT …) AS d)\n  [AS OF TIMESTAMP '…' | FOR SYSTEM_TIME AS OF TIMESTAMP '…'] [WHERE cond] [GROUP BY expr, …] [HAVING cond] [ORDER BY expr | name | n [DESC], …]\n  [LIMIT n] [OFFSET n] [VERSIONS n] [ALLOW FULL SCAN]",
		"read rows; WHERE takes AND OR NOT, = != < <= > >=, BETWEEN, IN (also row values), LIKE [ESCAPE], IS [NOT] NULL; COUNT SUM MIN MAX AVG aggregate"},
	{"EXPLAIN", "EXPLAIN [ANALYZE] [(VERBOSE, FORMAT JSON)] SELECT … | DELETE … | UPDATE …", "show the plan: which key ranges, index and filters, SERVER or CLIENT; ANALYZE runs it and counts; VERBOSE explains the key notation"},
	{"INSERT", "INSERT INTO t (col [, …]) VALUES (v [, …]) [, (…)] [TIMESTAMP ts]", "write rows, merging into existing ones; the key columns are required"},
	{"UPSERT", "UPSERT INTO t (col [, …]) VALUES (v [, …]) [, (…)] [TIMESTAMP ts]", "the documented name of INSERT: an existing row keeps the columns not listed"},
	{"UPDATE", "UPDATE t SET col = value [, …] WHERE cond [ALLOW FULL SCAN]", "set columns of the rows found, moving their index entries; a key field cannot be set"},
	{"DELETE", "DELETE FROM t WHERE cond [ALLOW FULL SCAN]", "delete the rows that match; the REPL asks first, a script needs --yes"},
	{"SHOW", "SHOW TABLES | SHOW REGIONS t | SHOW CLUSTER | SHOW SNAPSHOTS | SHOW NAMESPACES | SHOW CATALOG [t] | SHOW CREATE TABLE t", "tables and index tables; a table's regions (with their load on HBase); the cluster's servers, regions in transition and balancer (HBase); the snapshots (HBase); the namespaces with their table counts (HBase); the catalog YAML; the CREATE TABLE and CREATE INDEX statements that make t, then as -- comments the HBase shell create statements of its HBase tables"},
	{"DESCRIBE", "DESCRIBE t", "a table's columns, rowkey, families, splits and indexes"},
	{"CREATE", "CREATE TABLE t [(col TYPE, …) ROWKEY (component, …) [FAMILIES (…)] [SPLITS (…) | SPLIT BY … INTO n REGIONS]]\n  | CREATE INDEX i ON t ROWKEY (component, …) [COVERING (col, …)] [UNIQUE]\n  | CREATE NAMESPACE n", "add a table or index to the catalog and create its HBase table (HBASE 'n:t' places it in namespace n); or create an HBase namespace"},
	{"DROP", "DROP TABLE t | DROP INDEX i | DROP SNAPSHOT name | DROP NAMESPACE n", "remove a table or index from the catalog with its HBase tables, once confirmed (read-only: the catalog entry only); DROP TABLE also drops an HBase table no catalog table describes; DROP NAMESPACE drops an HBase namespace that holds no table"},
	{"ALTER", "ALTER TABLE t ADD COLUMN col TYPE [AS 'f:q'] | ALTER TABLE t SET FAMILY f TTL …", "add a column, or change a family's settings"},
	{"TRUNCATE", "TRUNCATE TABLE t", "empty a table and its indexes, keeping their region boundaries"},
	{"ENCODE", "ENCODE KEY t (col = v [, …])", "the rowkey bytes of the key values"},
	{"DECODE", "DECODE KEY t 'text' | DECODE KEY t x'hex'", "the key values of rowkey bytes"},
	{"BUILD", "BUILD INDEX i ON t", "fill index i from the rows of t"},
	{"CHECK", "CHECK INDEX i [REPAIR] | CHECK CLUSTER [t]", "compare index i with its table; REPAIR fixes what differs; check that hbase:meta's regions of t (and its indexes), or of every HBase table, tile it with no hole or overlap and are open on live servers, with none in transition (HBase; read-only; CHECK META is a synonym)"},
	{"LINT", "LINT [t]", "the anti-patterns of a layout (hotspots, long keys, delimiters, padding, splits), each with a fix"},
	{"SIMULATE", "SIMULATE WRITES t ROWS n [WITH field = sequence | now | uniform(k) | uniform(lo, hi) | zipf(k), …] [COMPARE t2]", "how a write stream spreads over the table's regions; nothing is written"},
	{"ADVISE", "ADVISE 'workload.sql'", "rank the key designs for a file of weighted queries, and recommend one"},
	{"INFER", "INFER TABLE 'ns:t' [SAMPLE n] [AS name] [SAVE]", "propose a catalog entry from a sample of a table's keys and cells, with the evidence for each part; SAVE writes it to the catalog"},
	{"FLUSH", "FLUSH t", "write the memstores of t's regions out to store files (HBase); the store files before and after, and the regions"},
	{"COMPACT", "COMPACT t | MAJOR COMPACT t", "compact t's regions and wait until none is compacting; MAJOR rewrites each family's files into one, dropping deleted and expired cells, once confirmed"},
	{"MAJOR", "MAJOR COMPACT t", "see COMPACT"},
	{"SPLIT", "SPLIT t AT (field = v [, …]) | SPLIT t AT 'key' | SPLIT t AT x'hex'", "a new region boundary: at the key of the leading key fields given, computed as an INSERT computes it, or at the bytes given; the key is shown and confirmed first"},
	{"MERGE", "MERGE REGIONS t 'start' , 'start' [, …]", "merge the adjacent regions starting at those keys (as SHOW REGIONS prints them; '' is the first) into one, once confirmed"},
	{"SNAPSHOT", "SNAPSHOT t AS name | SHOW SNAPSHOTS | RESTORE SNAPSHOT name | DROP SNAPSHOT name", "take a snapshot of t's HBase table (HBase); list the snapshots with their tables; put a table back as its snapshot holds it, or drop a snapshot, once confirmed"},
	{"RESTORE", "RESTORE SNAPSHOT name", "see SNAPSHOT"},
	{"CLONE", "CLONE SNAPSHOT name AS t [HBASE 'table']", "make a new HBase table from a snapshot (HBase), and catalog table t for it with the layout of the snapshot's table, without its indexes"},
	{"BALANCER", "BALANCER [ON | OFF]", "show the HBase balancer's state, or turn it on or off"},
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
		b.WriteString("Functions (\\h NAME for one):\n")
		names = names[:0]
		for _, f := range expr.Functions {
			names = append(names, f.Name)
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(names, ", "))
		return intent{kind: intentPrint, text: b.String()}, nil
	}
	want := strings.ToUpper(strings.TrimSuffix(c.args[0], ";"))
	if want == "DESC" {
		want = "DESCRIBE"
	}
	for _, s := range syntaxes {
		if s.name == want {
			fmt.Fprintf(&b, "Statement: %s\nDescription: %s\nSyntax:\n%s\n", s.name, s.desc, s.syntax)
			return intent{kind: intentPrint, text: b.String()}, nil
		}
	}
	if f := expr.LookupFunction(want); f != nil {
		fmt.Fprintf(&b, "Function: %s\nDescription: %s\nSyntax:\n%s\nExample: %s\n", f.Name, f.Doc, f.Signature(), f.Example)
		return intent{kind: intentPrint, text: b.String()}, nil
	}
	names := make([]string, len(syntaxes))
	for i, s := range syntaxes {
		names[i] = s.name
	}
	sort.Strings(names)
	return intent{}, fmt.Errorf("no help for %s (statements: %s)", c.args[0], strings.Join(names, ", "))
}
