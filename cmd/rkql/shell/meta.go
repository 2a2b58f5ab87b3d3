package shell

import (
	"fmt"
	"strings"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/parser"
)

// intentKind is what a meta-command asks the read loop to do.
type intentKind int

const (
	intentNone     intentKind = iota
	intentQuit                // stop reading
	intentExec                // run SQL
	intentHelp                // print the help
	intentSet                 // change a setting, then print Text
	intentPrint               // print text
	intentOutput              // send results to the file path ("" for stdout)
	intentInclude             // run the statements of the file path
	intentEdit                // edit the last statement in $EDITOR, then run it
	intentShell               // run text with the shell
	intentVar                 // set (or with unset, remove) variable name to text
	intentConnInfo            // say what the session is connected to
	intentRows                // print rows cols in the output format
	intentConnect             // switch to the cluster or store text names
	intentWatch               // rerun the last statement every interval
)

// intent is a meta-command's result. Commands never act on the session
// themselves: the read loop carries out the intent.
type intent struct {
	kind  intentKind
	sql   string
	text  string
	path  string
	name  string
	unset bool
	set   func(*Settings)
	cols  []column
	rows  []catalog.Row
	every time.Duration
}

// metaCall is what a meta-command is given: its arguments split at
// blanks, the text after its name as typed, and the catalog.
type metaCall struct {
	args []string
	rest string
	cat  *catalog.Catalog
}

// metaCmd is one meta-command. The table below is also the help text.
type metaCmd struct {
	name  string
	args  string // shown in help
	group string
	desc  string
	run   func(c metaCall) (intent, error)
}

// metaCmds lists the meta-commands in the order \? shows them.
var metaCmds = []metaCmd{
	{name: `\q`, group: "General", desc: "quit (quit and exit work too)", run: func(c metaCall) (intent, error) {
		return intent{kind: intentQuit}, noArgs(`\q`, c.args)
	}},
	{name: `\?`, group: "General", desc: "show this help (help works too)", run: func(c metaCall) (intent, error) {
		return intent{kind: intentHelp}, noArgs(`\?`, c.args)
	}},
	{name: `\h`, args: "[STATEMENT]", group: "General", desc: "syntax of the statements, or of one (\\h SELECT)", run: syntaxCmd},
	{name: `\conninfo`, group: "General", desc: "say which store or cluster, catalog and version the session uses", run: func(c metaCall) (intent, error) {
		return intent{kind: intentConnInfo}, noArgs(`\conninfo`, c.args)
	}},
	{name: `\connect`, args: "TARGET", group: "General", desc: "use another cluster or store for the rest of the session: hbase QUORUM, embedded [DIR], or a quorum such as 127.0.0.1:2181 (\\c works too)", run: connectCmd(`\connect`)},
	{name: `\watch`, args: "[SECONDS]", group: "General", desc: "rerun the last statement every SECONDS (default 2) until Ctrl-C", run: watchCmd},
	{name: `\d`, args: "[TABLE]", group: "Informational", desc: "list every table (SHOW TABLES), or describe TABLE, a catalog table or an HBase ns:table (DESCRIBE)", run: describeCmd},
	{name: `\d+`, args: "TABLE", group: "Informational", desc: "describe TABLE with its regions and a legend of the rowkey notation", run: describePlusCmd},
	{name: `\dt`, group: "Informational", desc: "list the tables that are not index tables", run: listTablesCmd},
	{name: `\di`, args: "[TABLE]", group: "Informational", desc: "list the index tables, or those of TABLE", run: listIndexesCmd},
	{name: `\status`, group: "Informational", desc: "the cluster's region servers, their regions and load, dead servers, regions in transition and the balancer (SHOW CLUSTER)", run: func(c metaCall) (intent, error) {
		return intent{kind: intentExec, sql: "SHOW CLUSTER;"}, noArgs(`\status`, c.args)
	}},
	{name: `\i`, args: "FILE", group: "Input/Output", desc: "run the statements of FILE", run: func(c metaCall) (intent, error) {
		return fileArg(`\i`, intentInclude, c, false)
	}},
	{name: `\o`, args: "[FILE]", group: "Input/Output", desc: "send results to FILE, or back to the terminal", run: func(c metaCall) (intent, error) {
		return fileArg(`\o`, intentOutput, c, true)
	}},
	{name: `\e`, group: "Input/Output", desc: "edit the last statement in $VISUAL or $EDITOR (default vi), then run it", run: func(c metaCall) (intent, error) {
		return intent{kind: intentEdit}, noArgs(`\e`, c.args)
	}},
	{name: `\echo`, args: "[TEXT]", group: "Input/Output", desc: "print TEXT, with :name replaced by variable name", run: func(c metaCall) (intent, error) {
		return intent{kind: intentPrint, text: c.rest + "\n"}, nil
	}},
	{name: `\!`, args: "[COMMAND]", group: "Input/Output", desc: "run COMMAND with the shell, or start a shell", run: func(c metaCall) (intent, error) {
		return intent{kind: intentShell, text: c.rest}, nil
	}},
	{name: `\set`, args: "[NAME [VALUE]]", group: "Variables", desc: "set variable NAME, used as :NAME, :'NAME' (a string) or :\"NAME\" (a name); list them", run: setVarCmd},
	{name: `\unset`, args: "NAME", group: "Variables", desc: "remove variable NAME", run: func(c metaCall) (intent, error) {
		if len(c.args) != 1 {
			return intent{}, fmt.Errorf(`\unset takes one variable name`)
		}
		return intent{kind: intentVar, name: c.args[0], unset: true}, nil
	}},
	{name: `\x`, args: "[on|off|auto]", group: "Settings", desc: "toggle expanded display, one line per column; auto: when a row is wider than the terminal", run: expandedCmd},
	{name: `\pset`, args: "NAME [VALUE]", group: "Settings", desc: "pager on|off: show results taller than the terminal in $PAGER (default less -SFX); null TEXT: how NULL looks in tables", run: psetCmd},
	{name: `\pager`, args: "[on|off]", group: "Settings", desc: "toggle the pager (\\pset pager)", run: func(c metaCall) (intent, error) {
		return toggleCmd(`\pager`, "pager", c.args, func(s *Settings) *bool { return &s.Pager })
	}},
	{name: `\timing`, args: "[on|off]", group: "Settings", desc: "toggle printing how long each statement took", run: timingCmd},
	{name: `\pushdown`, args: "[on|off]", group: "Settings", desc: "toggle handing the store the filters, projections and limits it can evaluate (off: all in the client but a LIMIT that bounds a full read)", run: pushdownCmd},
	{name: `\blockcache`, args: "[MODE]", group: "Settings", desc: "whether HBase reads fill the region servers' block cache: auto (not for a whole-table or open-ended scan that may return over 10,000 rows), on or off", run: blockCacheCmd},
	{name: `\parallel`, args: "[auto|N]", group: "Settings", desc: "how many regions a read over several reads side by side, one scanner each: auto (one per region server), 1 (one after another) or N", run: parallelCmd},
	{name: `\format`, args: "FORMAT", group: "Settings", desc: "set the output format: " + strings.ReplaceAll(FormatNames(), "|", ", "), run: formatCmd},
}

func noArgs(name string, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments", name)
	}
	return nil
}

func describeCmd(c metaCall) (intent, error) {
	args := c.args
	switch len(args) {
	case 0:
		return intent{kind: intentExec, sql: "SHOW TABLES;"}, nil
	case 1:
		return intent{kind: intentExec, sql: "DESCRIBE " + tableArg(args[0]) + ";"}, nil
	}
	return intent{}, fmt.Errorf(`\d takes at most one table name`)
}

// tableArg is a meta-command's table name as a statement takes it: an
// HBase name such as ns:table is quoted ("ns:table"); one already quoted
// stays as it is.
func tableArg(name string) string {
	if strings.HasPrefix(name, `"`) {
		return name
	}
	return parser.QuoteIdent(name)
}

func timingCmd(c metaCall) (intent, error) {
	return toggleCmd(`\timing`, "timing", c.args, func(s *Settings) *bool { return &s.Timing })
}

func pushdownCmd(c metaCall) (intent, error) {
	args := c.args
	it, err := toggleCmd(`\pushdown`, "pushdown", args, func(s *Settings) *bool { return &s.NoPushdown })
	if err != nil || len(args) == 0 {
		return it, err
	}
	// The setting is "no pushdown": on means the flag is false.
	on := strings.EqualFold(args[0], "on")
	it.set = func(s *Settings) { s.NoPushdown = !on }
	return it, nil
}

// toggleCmd sets a boolean setting to on or off, or flips it with no
// argument.
func toggleCmd(name, what string, args []string, field func(*Settings) *bool) (intent, error) {
	var on *bool
	switch {
	case len(args) > 1:
		return intent{}, fmt.Errorf(`%s takes on or off`, name)
	case len(args) == 1:
		v, ok := map[string]bool{"on": true, "off": false}[strings.ToLower(args[0])]
		if !ok {
			return intent{}, fmt.Errorf(`%s takes on or off, not %q`, name, args[0])
		}
		on = &v
	}
	return intent{kind: intentSet, set: func(s *Settings) {
		if on != nil {
			*field(s) = *on
		} else {
			*field(s) = !*field(s)
		}
	}, text: what}, nil
}

func formatCmd(c metaCall) (intent, error) {
	args := c.args
	if len(args) != 1 {
		return intent{}, fmt.Errorf(`\format takes one of %s`, FormatNames())
	}
	f, err := ParseFormat(args[0])
	if err != nil {
		return intent{}, err
	}
	return intent{kind: intentSet, set: func(s *Settings) { s.Format = f }, text: "format"}, nil
}

// parseMeta turns a meta-command line into its intent. quit, exit and
// help, with or without ';', are meta-commands too.
func parseMeta(line string, cat *catalog.Catalog) (intent, error) {
	line = strings.TrimSpace(line)
	switch strings.ToLower(strings.TrimSpace(strings.TrimSuffix(line, ";"))) {
	case "quit", "exit":
		return intent{kind: intentQuit}, nil
	case "help":
		return intent{kind: intentHelp}, nil
	}
	fields := strings.Fields(line)
	name, args := fields[0], fields[1:]
	rest := strings.TrimSpace(line[len(name):])
	if len(args) > 0 {
		// A trailing ';' after the arguments is allowed: \d orders;
		last := strings.TrimSuffix(args[len(args)-1], ";")
		if last == "" {
			args = args[:len(args)-1]
		} else {
			args[len(args)-1] = last
		}
	}
	if name == `\c` {
		name = `\connect`
	}
	for _, c := range metaCmds {
		if c.name == name {
			return c.run(metaCall{args: args, rest: rest, cat: cat})
		}
	}
	return intent{}, fmt.Errorf(`unknown command %s (\? lists the commands)`, name)
}

// isMeta reports whether a line, typed at the start of a statement, is a
// meta-command rather than SQL.
func isMeta(line string) bool {
	t := strings.TrimSpace(line)
	switch strings.ToLower(strings.TrimSpace(strings.TrimSuffix(t, ";"))) {
	case "quit", "exit", "help":
		return true
	}
	return strings.HasPrefix(t, `\`)
}

// helpText renders the meta-command table.
func helpText() string {
	var b strings.Builder
	b.WriteString("Statements end with ';' and may span lines (\\h NAME shows one's syntax):\n")
	line := " "
	for i, st := range syntaxes {
		word := " " + st.name
		if i < len(syntaxes)-1 {
			word += ","
		}
		if len(line)+len(word) > 78 {
			b.WriteString(line + "\n")
			line = " "
		}
		line += word
	}
	b.WriteString(line + "\n")
	group := ""
	for _, c := range metaCmds {
		if c.group != group {
			group = c.group
			fmt.Fprintf(&b, "%s\n", group)
		}
		usage := c.name
		if c.args != "" {
			usage += " " + c.args
		}
		fmt.Fprintf(&b, "  %-20s %s\n", usage, c.desc)
	}
	return b.String()
}
