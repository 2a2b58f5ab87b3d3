package shell

import (
	"fmt"
	"strings"
)

// intentKind is what a meta-command asks the read loop to do.
type intentKind int

const (
	intentNone intentKind = iota
	intentQuit            // stop reading
	intentExec            // run SQL
	intentHelp            // print the help
	intentSet             // change a setting, then print Text
)

// intent is a meta-command's result. Commands never act on the session
// themselves: the read loop carries out the intent.
type intent struct {
	kind intentKind
	sql  string
	text string
	set  func(*Settings)
}

// metaCmd is one meta-command. The table below is also the help text.
type metaCmd struct {
	name  string
	args  string // shown in help
	group string
	desc  string
	run   func(args []string) (intent, error)
}

// metaCmds lists the meta-commands in the order \? shows them.
var metaCmds = []metaCmd{
	{name: `\q`, group: "General", desc: "quit (quit and exit work too)", run: func(args []string) (intent, error) {
		return intent{kind: intentQuit}, noArgs(`\q`, args)
	}},
	{name: `\?`, group: "General", desc: "show this help", run: func(args []string) (intent, error) {
		return intent{kind: intentHelp}, noArgs(`\?`, args)
	}},
	{name: `\d`, args: "[TABLE]", group: "Informational", desc: "list tables (SHOW TABLES), or describe TABLE (DESCRIBE TABLE)", run: describeCmd},
	{name: `\timing`, args: "[on|off]", group: "Settings", desc: "toggle printing how long each statement took", run: timingCmd},
	{name: `\pushdown`, args: "[on|off]", group: "Settings", desc: "toggle handing the store the filters, projections and limits it can evaluate (off: all in the client)", run: pushdownCmd},
	{name: `\format`, args: "FORMAT", group: "Settings", desc: "set the output format: " + strings.ReplaceAll(FormatNames(), "|", ", "), run: formatCmd},
}

func noArgs(name string, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments", name)
	}
	return nil
}

func describeCmd(args []string) (intent, error) {
	switch len(args) {
	case 0:
		return intent{kind: intentExec, sql: "SHOW TABLES;"}, nil
	case 1:
		return intent{kind: intentExec, sql: "DESCRIBE " + args[0] + ";"}, nil
	}
	return intent{}, fmt.Errorf(`\d takes at most one table name`)
}

func timingCmd(args []string) (intent, error) {
	return toggleCmd(`\timing`, "timing", args, func(s *Settings) *bool { return &s.Timing })
}

func pushdownCmd(args []string) (intent, error) {
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

func formatCmd(args []string) (intent, error) {
	if len(args) != 1 {
		return intent{}, fmt.Errorf(`\format takes one of %s`, FormatNames())
	}
	f, err := ParseFormat(args[0])
	if err != nil {
		return intent{}, err
	}
	return intent{kind: intentSet, set: func(s *Settings) { s.Format = f }, text: "format"}, nil
}

// parseMeta turns a meta-command line into its intent. quit and exit,
// with or without ';', are meta-commands too.
func parseMeta(line string) (intent, error) {
	line = strings.TrimSpace(line)
	switch strings.ToLower(strings.TrimSpace(strings.TrimSuffix(line, ";"))) {
	case "quit", "exit":
		return intent{kind: intentQuit}, nil
	}
	fields := strings.Fields(line)
	name, args := fields[0], fields[1:]
	if len(args) > 0 {
		// A trailing ';' after the arguments is allowed: \d orders;
		last := strings.TrimSuffix(args[len(args)-1], ";")
		if last == "" {
			args = args[:len(args)-1]
		} else {
			args[len(args)-1] = last
		}
	}
	for _, c := range metaCmds {
		if c.name == name {
			return c.run(args)
		}
	}
	return intent{}, fmt.Errorf(`unknown command %s (\? lists the commands)`, name)
}

// isMeta reports whether a line, typed at the start of a statement, is a
// meta-command rather than SQL.
func isMeta(line string) bool {
	t := strings.TrimSpace(line)
	switch strings.ToLower(strings.TrimSpace(strings.TrimSuffix(t, ";"))) {
	case "quit", "exit":
		return true
	}
	return strings.HasPrefix(t, `\`)
}

// helpText renders the meta-command table.
func helpText() string {
	var b strings.Builder
	b.WriteString("Statements end with ';' and may span lines:\n")
	b.WriteString("  SELECT, EXPLAIN [ANALYZE] [(FORMAT JSON)] SELECT, INSERT, DELETE,\n")
	b.WriteString("  SHOW TABLES, SHOW REGIONS t, DESCRIBE t, CREATE TABLE t,\n")
	b.WriteString("  ENCODE KEY t (…), DECODE KEY t '…', BUILD INDEX i ON t, CHECK INDEX i [REPAIR]\n")
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
		fmt.Fprintf(&b, "  %-18s %s\n", usage, c.desc)
	}
	return b.String()
}
