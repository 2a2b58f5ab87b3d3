package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/rkql/rkql/exec/embedded"
)

// version is rkql's version, set at build time with
// -ldflags "-X main.version=…"; empty means the module's version.
var version string

// versionString is the version rkql reports.
func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

const shellHelpTail = `
Examples:
  rkql --store .cache/demo --catalog examples/catalog.yaml
  rkql -e "SELECT * FROM orders WHERE seller = 's1' LIMIT 5"
  rkql --format csv -f report.sql > report.csv
  rkql --zk zk1:2181,zk2:2181 -e 'SHOW REGIONS orders'
  rkql import --table orders orders.jsonl

Exit status:
  0  every statement succeeded; for the REPL, the shell ended normally
  1  a statement failed, results could not be written, or the store could not be opened
  2  the command line is wrong

Environment:
  XDG_DATA_HOME      the default store is $XDG_DATA_HOME/rkql, else the user cache directory's rkql
  XDG_STATE_HOME     the REPL's history is $XDG_STATE_HOME/rkql/history, else ~/.local/state/rkql/history
  RKQL_PAGER, PAGER  the REPL's pager for results taller than the terminal (default less -SFX)
  VISUAL, EDITOR     the editor of \e (default vi)
  NO_COLOR           no colours in the REPL
`

// printUsage writes the synopsis, then each flag GNU style: --name for
// words, -x for letters (Go's flag package takes one dash or two for
// either), then tail.
func printUsage(fs *flag.FlagSet, w io.Writer, synopsis, tail string) {
	fmt.Fprint(w, synopsis)
	fmt.Fprintln(w, "\nOptions:")
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		name := dash + f.Name
		if arg != "" {
			name += " " + strings.ToUpper(arg)
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "  %-22s %s\n", name, usage)
	})
	fmt.Fprintf(w, "  %-22s %s\n", "-h, --help", "show this help and exit")
	fmt.Fprint(w, tail)
}

// catalogName names the catalog for the banner and \conninfo.
func catalogName(o *options) string {
	if o.catalog == "" {
		return "the built-in example catalog"
	}
	if abs, err := filepath.Abs(o.catalog); err == nil {
		return abs
	}
	return o.catalog
}

// storeDir is the embedded store's directory, as --store or the default.
func storeDir(o *options) (string, error) {
	dir := o.store
	if dir == "" {
		var err error
		if dir, err = defaultStoreDir(); err != nil {
			return "", err
		}
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return dir, nil
}

// connInfo says what a session uses: the store or cluster, the catalog
// and the version.
func connInfo(o *options) string {
	return fmt.Sprintf("%s; catalog %s; rkql %s", connWhere(o), catalogName(o), versionString())
}

// connWhere says which store or cluster o reaches.
func connWhere(o *options) string {
	where := ""
	switch {
	case o.zk != "" && o.allowWrites:
		where = fmt.Sprintf("HBase cluster at ZooKeeper %s (root %s), writes allowed", o.zk, o.zkRoot)
	case o.zk != "":
		where = fmt.Sprintf("HBase cluster at ZooKeeper %s (root %s), read-only", o.zk, o.zkRoot)
	default:
		dir, err := storeDir(o)
		if err != nil {
			where = "no embedded store: " + err.Error()
		} else {
			where = "embedded store " + dir
			if o.store == "" {
				where += " (the default; --store DIR for another)"
			}
		}
	}
	return where
}

// banner is what the REPL says first: where it is, and how to go on. A
// store that does not exist yet is said to be new and empty, with how to
// fill it.
func banner(o *options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rkql %s on %s\n", versionString(), strings.Replace(connInfo(o), fmt.Sprintf("; rkql %s", versionString()), "", 1))
	if o.zk == "" {
		if dir, err := storeDir(o); err == nil {
			if _, err := os.Stat(filepath.Join(dir, embedded.FileName)); os.IsNotExist(err) {
				b.WriteString("The store is new and empty: INSERT or rkql import fill it; make demo in rkql's source tree loads the examples.\n")
			}
		}
	}
	b.WriteString("Type \\? for help, \\q to quit; statements end with ';'\n")
	return b.String()
}
