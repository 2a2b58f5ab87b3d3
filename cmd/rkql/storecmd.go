package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

const storeSynopsis = `usage:
  rkql store check [--store DIR]    read every page of the embedded store and report damage (exit 1 if damaged)
  rkql store repair [--store DIR]   save every readable row into a new store file; the damaged file is kept
                                    as rkql.db.damaged-<time>
flags:
  --store DIR     embedded store directory (default $XDG_DATA_HOME/rkql, else the user cache dir's rkql)
  --catalog FILE  the catalog whose tables repair gives the rows it finds when the store's own list of
                  tables is lost (default: catalog.yaml beside the store, else the example catalog)
`

// parseStoreFlags parses `rkql store check|repair`'s arguments.
func parseStoreFlags(args []string, w io.Writer) (o *options, verb, dir string, err error) {
	o = &options{}
	fs := flag.NewFlagSet("rkql store", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	commonFlags(fs, o)
	fs.Usage = func() {}
	var verbs []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(w, storeSynopsis)
				return nil, "", "", err
			}
			return nil, "", "", &usageError{msg: "store: " + err.Error() + " (rkql store -h for help)"}
		}
		if fs.NArg() == 0 {
			break
		}
		verbs = append(verbs, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(verbs) == 0:
		return nil, "", "", &usageError{msg: "store: want check or repair (rkql store -h for help)"}
	case len(verbs) > 1 || verbs[0] != "check" && verbs[0] != "repair":
		return nil, "", "", &usageError{msg: fmt.Sprintf("store: want check or repair, got %q (rkql store -h for help)", strings.Join(verbs, " "))}
	}
	if o.usesHBase() {
		return nil, "", "", &usageError{msg: "store: check and repair work on the embedded store; leave out --zk and --hbase-conf"}
	}
	if dir = o.store; dir == "" {
		if dir, err = defaultStoreDir(); err != nil {
			return nil, "", "", err
		}
	}
	return o, verbs[0], dir, nil
}

// runStore is `rkql store check` and `rkql store repair`.
func runStore(args []string, e env) int {
	o, verb, dir, err := parseStoreFlags(args, e.stderr)
	if err != nil {
		return reportStartup(e, err)
	}
	if verb == "repair" {
		return runRepair(dir, e, repairTables(o))
	}
	rep, err := embedded.Check(dir, embedded.Options{})
	if err != nil {
		return reportStartup(e, err)
	}
	for _, t := range rep.Tables {
		fmt.Fprintf(e.stdout, "table %s: %d %s readable%s\n", t.Name, t.Rows, plural(t.Rows), lossText(t))
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(e.stdout, "problem: %s\n", p)
	}
	if rep.Damaged() {
		fmt.Fprintf(e.stderr, "rkql: store %s is damaged: %d %s (rkql store repair saves what can be read)\n",
			rep.Path, len(rep.Problems), pluralWord(len(rep.Problems), "problem", "problems"))
		return exitFail
	}
	fmt.Fprintf(e.stdout, "store %s is sound\n", rep.Path)
	return exitOK
}

// repairTables are the physical tables of the catalog, which repair
// gives the rows it finds when the store's own table metadata is lost;
// none when the catalog cannot be read.
func repairTables(o *options) []exec.TableSpec {
	cf, err := loadCatalog(o)
	if err != nil {
		return nil
	}
	var specs []exec.TableSpec
	for _, name := range cf.cat.Names() {
		t, _ := cf.cat.Table(name)
		specs = append(specs, exec.Spec(t))
		for _, ix := range t.Indexes {
			specs = append(specs, exec.Spec(ix.Table))
		}
	}
	return specs
}

func runRepair(dir string, e env, tables []exec.TableSpec) int {
	rep, err := embedded.Repair(dir, embedded.Options{RepairTables: tables})
	if err != nil {
		return reportStartup(e, err)
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(e.stdout, "problem: %s\n", p)
	}
	if len(rep.Problems) == 0 {
		fmt.Fprintln(e.stdout, "no damage found; every row was copied")
	}
	var saved int64
	for _, t := range rep.Tables {
		saved += t.Rows
		fmt.Fprintf(e.stdout, "table %s: saved %d %s%s\n", t.Name, t.Rows, plural(t.Rows), lossText(t))
	}
	if rep.FreelistLost {
		fmt.Fprintln(e.stdout, "warning: the freelist is lost too, so old copies of pages cannot be told from live ones: the rows saved from pages the damaged tree no longer reaches may include rows deleted or changed before the damage, as they were before")
	}
	fmt.Fprintf(e.stdout, "repaired %s: saved %d %s; the damaged file is kept as %s\n", rep.Path, saved, plural(saved), rep.Kept)
	return exitOK
}

// lossText says what of a table could not be read, or nothing.
func lossText(t embedded.TableReport) string {
	s := ""
	if t.Salvaged > 0 {
		s += fmt.Sprintf(" (%d of them from intact pages the damaged tree no longer reaches)", t.Salvaged)
	}
	if t.Conflicting > 0 {
		s += fmt.Sprintf(", %d found there in versions that disagree, not saved", t.Conflicting)
	}
	if t.BadRows > 0 {
		s += fmt.Sprintf(", %d could not be read", t.BadRows)
	}
	if t.LostPages > 0 {
		s += fmt.Sprintf(", %d %s lost", t.LostPages, pluralWord(t.LostPages, "page", "pages"))
		if t.LostRows > 0 {
			s += fmt.Sprintf(" (at least %d %s)", t.LostRows, plural(t.LostRows))
		}
		if t.LostRows == 0 {
			s += " (rows on them unknown)"
		}
	}
	return s
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// storeLater says the store subcommand came after some flags.
type storeLater struct{ args []string }

func (*storeLater) Error() string { return "store" }
