package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"golang.org/x/sys/unix"

	"github.com/rkql/rkql/cmd/rkql/shell"
	"github.com/rkql/rkql/design"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/planner"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// script is one -e or -f, in command-line order.
type script struct {
	text string // for -e
	file string // for -f; "-" is stdin
}

// options are the command-line flags.
type options struct {
	catalog, store string
	zk, zkRoot     string
	allowWrites    bool
	format         string
	allowFullScan  bool
	timeout        time.Duration
	sortBudget     int
	groupBudget    int
	noPushdown     bool
	blockCache     exec.BlockCache
	parallel       engine.Parallel
	yes            bool
	strict         bool
	quiet          bool
	stopOnError    bool
	// history is the REPL's history file; historySet says --history was
	// given, so that --history '' turns the file off.
	history     string
	historySet  bool
	version     bool
	lockTimeout time.Duration
	// notice is where rkql says that it waits for the store.
	notice           io.Writer
	scripts          []script
	table            string // import only
	progressInterval time.Duration
	// dial, when set, opens the connections to HBase's servers (tests
	// route them through a proxy).
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// conn says how to reach and log in to a cluster.
	conn connOptions
}

// terminals says which of the standard streams are terminals; it is
// decided once, up front.
type terminals struct{ stdin, stdout, stderr bool }

// env is the process's outside world, so that run can be tested.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	term           terminals
	// dial, when set, opens the connections to HBase's region servers and
	// master; nil means a plain TCP dial.
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

func main() {
	// A closed pipe on stdout must not kill the process without a word:
	// with SIGPIPE caught, the write fails with EPIPE, and rkql says that
	// writing results failed and exits 1.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	e := env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		term: terminals{
			stdin:  isatty.IsTerminal(os.Stdin.Fd()),
			stdout: isatty.IsTerminal(os.Stdout.Fd()),
			stderr: isatty.IsTerminal(os.Stderr.Fd()),
		},
	}
	if stdoutClosed() {
		// Output that nobody receives is an error, as on a full disk.
		e.stdout = closedWriter{}
	}
	os.Exit(run(context.Background(), os.Args[1:], e))
}

// usageError is a bad command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// scriptFlag appends -e or -f to the ordered list of scripts.
type scriptFlag struct {
	o    *options
	file bool
}

func (f scriptFlag) String() string { return "" }

func (f scriptFlag) Set(v string) error {
	if f.file {
		f.o.scripts = append(f.o.scripts, script{file: v})
	} else {
		f.o.scripts = append(f.o.scripts, script{text: v})
	}
	return nil
}

// historyFlag is --history: a file, or the empty string for none.
type historyFlag struct{ o *options }

func (f historyFlag) String() string { return "" }

func (f historyFlag) Set(v string) error {
	f.o.history, f.o.historySet = v, true
	return nil
}

// commonFlags registers the flags the shell and import share.
func commonFlags(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.catalog, "catalog", "", "catalog `file` (YAML), which layout statements edit; default: catalog.yaml beside the embedded store, starting as the example catalog (on a cluster: the example catalog, read-only)")
	fs.StringVar(&o.store, "store", "", "embedded store `dir`ectory (default $XDG_DATA_HOME/rkql, else the user cache dir's rkql)")
	fs.StringVar(&o.zk, "zk", "", "ZooKeeper `quorum` of a real HBase cluster, host:port[,host:port]")
	fs.StringVar(&o.zkRoot, "zk-root", "/hbase", "HBase's root `znode`")
	fs.DurationVar(&o.lockTimeout, "lock-timeout", 10*time.Second, "how long to wait for another rkql process to release the embedded store, or to finish its edit of the catalog (0: not at all)")
	connFlags(fs, o)
	fs.BoolVar(&o.allowWrites, "allow-writes", false, "with --zk, allow statements that write or change tables (CREATE TABLE/INDEX, INSERT, UPDATE, DELETE, TRUNCATE, BUILD INDEX, CHECK INDEX … REPAIR, import, dropping HBase tables) and that change the cluster (FLUSH, COMPACT, SPLIT, MERGE REGIONS, BALANCER ON|OFF, SNAPSHOT, RESTORE SNAPSHOT, CLONE SNAPSHOT, DROP SNAPSHOT, CREATE and DROP NAMESPACE)")
}

// checkCommon refuses common flags set to nothing, such as --zk "$UNSET":
// falling back to the embedded store would write where nobody looks.
func checkCommon(fs *flag.FlagSet, o *options) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "zk" && strings.TrimSpace(o.zk) == "" {
			err = &usageError{msg: "--zk is empty: give the ZooKeeper quorum as host:port[,host:port], or leave --zk out to use the embedded store"}
		}
	})
	if err != nil {
		return err
	}
	if o.conn.site, err = resolveConn(fs, o, os.Getenv); err != nil {
		return err
	}
	if o.usesHBase() {
		if _, err := o.conn.site.Config(); err != nil {
			return err
		}
	}
	return nil
}

func usageFunc(fs *flag.FlagSet, w io.Writer, synopsis string) func() {
	return func() { printUsage(fs, w, synopsis, "") }
}

const shellSynopsis = `Usage: rkql [OPTION]...                      the REPL on a terminal; otherwise statements from stdin
  or:  rkql [OPTION]... -e 'STMT; STMT' [-e …]  run statements, print the results, exit
  or:  rkql [OPTION]... -f FILE [-f …]          run files of statements (- is stdin)
  or:  rkql [OPTION]... import --table T FILE   bulk-load rows (JSON lines, a JSON array, or CSV with a header)
  or:  rkql store check|repair [--store DIR]    check the embedded store for damage, or save what can be read of it
  or:  rkql completion bash|zsh|fish           a completion script for the shell
  or:  rkql conninfo [OPTION]...               the HBase connection settings in effect, and where each came from
An SQL shell over HBase rowkey layouts, on a real cluster (--zk) or on an embedded store.
Without --zk and --store it uses the default embedded store, which it names when it starts.
`

// parseShellFlags parses the flags of the shell (not import).
func parseShellFlags(args []string, w io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("rkql", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	registerShellFlags(fs, o)
	// The flag package calls Usage on every error; only -h prints it.
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(fs, w, shellSynopsis, shellHelpTail)
			return nil, err
		}
		return nil, &usageError{msg: err.Error() + " (rkql -h for help)"}
	}
	if o.version {
		return nil, errVersion
	}
	if fs.NArg() > 0 && fs.Arg(0) == "completion" {
		return nil, &completionLater{args: fs.Args()[1:]}
	}
	if fs.NArg() > 0 && fs.Arg(0) == "store" {
		// rkql --store DIR store check: the flags before the subcommand
		// are store's too.
		before := args[:len(args)-fs.NArg()]
		return nil, &storeLater{args: append(append([]string{}, before...), fs.Args()[1:]...)}
	}
	if fs.NArg() > 0 && fs.Arg(0) == "import" {
		// rkql --zk … import --table T FILE: the flags before the
		// subcommand are import's too.
		before := args[:len(args)-fs.NArg()]
		return nil, &importLater{args: append(append([]string{}, before...), fs.Args()[1:]...)}
	}
	if fs.NArg() > 0 {
		return nil, &usageError{msg: fmt.Sprintf("unexpected argument %q (statements go in -e, files in -f)", fs.Arg(0))}
	}
	if err := checkCommon(fs, o); err != nil {
		return nil, err
	}
	if o.sortBudget < 0 {
		return nil, &usageError{msg: "--sort-budget must not be negative"}
	}
	if o.groupBudget < 0 {
		return nil, &usageError{msg: "--group-budget must not be negative"}
	}
	if o.timeout < 0 {
		return nil, &usageError{msg: "--timeout must not be negative"}
	}
	return o, nil
}

// errVersion asks run to print the version and stop.
var errVersion = errors.New("version")

// registerShellFlags registers the shell's flags (not import's) on fs.
func registerShellFlags(fs *flag.FlagSet, o *options) {
	commonFlags(fs, o)
	fs.Var(scriptFlag{o: o}, "e", "run `statements` and exit (repeatable)")
	fs.Var(scriptFlag{o: o, file: true}, "f", "run the statements of `file` and exit (repeatable; - is stdin)")
	fs.StringVar(&o.format, "format", "", "output `format`: "+shell.FormatNames()+" (default table on a terminal, tsv otherwise)")
	fs.BoolVar(&o.allowFullScan, "allow-full-scan", false, "allow plans that read a whole table")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "statement timeout (0 for none)")
	fs.IntVar(&o.sortBudget, "sort-budget", 0, "most `rows` a client sort may hold (default 1000000)")
	fs.IntVar(&o.groupBudget, "group-budget", 0, "most `groups` a hash aggregation may hold (default 1000000)")
	fs.BoolVar(&o.strict, "strict", false, "fail (exit 1) on a row whose key or cells do not fit the table's layout, instead of skipping it with a warning")
	fs.BoolVar(&o.noPushdown, "no-pushdown", false, "keep every filter, projection and limit in the client instead of handing them to the store, but a LIMIT that bounds a read of the whole table (\\pushdown in the REPL)")
	fs.Var(parallelFlag{o: o}, "parallel", "how many regions a read over several reads side by side, one scanner each: `n` from 1 (one after another) to 64, or auto, one per region server (\\parallel in the REPL)")
	fs.Var(blockCacheFlag{o: o}, "block-cache", "whether HBase reads fill the region servers' block cache: `mode` auto skips it for a whole-table or open-ended scan, on and off hold for every read (\\blockcache in the REPL)")
	fs.BoolVar(&o.quiet, "q", false, "quiet: leave out command tags such as INSERT 3")
	fs.Var(historyFlag{o: o}, "history", "REPL history `file` ('' for none; default $XDG_STATE_HOME/rkql/history, else ~/.local/state/rkql/history)")
	fs.BoolVar(&o.yes, "yes", false, "answer yes to the questions DELETE, TRUNCATE TABLE, DROP TABLE, DROP INDEX, MAJOR COMPACT, SPLIT, MERGE REGIONS, RESTORE SNAPSHOT and DROP SNAPSHOT ask before acting (a script is otherwise answered no, and the statement fails)")
	fs.BoolVar(&o.stopOnError, "stop-on-error", false, "stop a -f script or stdin at the first failed statement")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
}

// completionLater says the completion subcommand came after some flags.
type completionLater struct{ args []string }

func (*completionLater) Error() string { return "completion" }

// importLater says the import subcommand came after some flags.
type importLater struct{ args []string }

func (*importLater) Error() string { return "import" }

// run is the whole program; it returns the exit status.
func run(ctx context.Context, args []string, e env) int {
	if len(args) > 0 && args[0] == "import" {
		return runImport(ctx, args[1:], e)
	}
	if len(args) > 0 && args[0] == "store" {
		return runStore(args[1:], e)
	}
	if len(args) > 0 && args[0] == "completion" {
		return runCompletion(args[1:], e)
	}
	if len(args) > 0 && args[0] == "conninfo" {
		return runConnInfo(args[1:], e)
	}
	o, err := parseShellFlags(args, e.stdout)
	var later *importLater
	if errors.As(err, &later) {
		return runImport(ctx, later.args, e)
	}
	var storeCmd *storeLater
	if errors.As(err, &storeCmd) {
		return runStore(storeCmd.args, e)
	}
	var compl *completionLater
	if errors.As(err, &compl) {
		return runCompletion(compl.args, e)
	}
	if errors.Is(err, errVersion) {
		fmt.Fprintf(e.stdout, "rkql %s\n", versionString())
		return exitOK
	}
	if err != nil {
		return reportStartup(e, err)
	}
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	defer out.Flush()
	sess, err := newSession(o, e, false)
	if err != nil {
		return reportStartup(e, err)
	}
	defer sess.Close()
	if len(o.scripts) > 0 {
		return runScripts(ctx, sess, o, e, out)
	}
	interactive := e.term.stdin
	in := replIO(o, sess, e, out)
	if c, ok := in.(io.Closer); ok {
		defer c.Close()
	}
	if interactive {
		fmt.Fprint(out, banner(o))
		if line := design.Summary(sess.Catalog()); line != "" {
			fmt.Fprintln(out, line)
		}
	}
	err = sess.Run(ctx, in)
	if interactive && errors.Is(err, shell.ErrFailed) {
		// The person at the terminal saw each error; like psql, the REPL
		// itself succeeded.
		err = nil
	}
	return status(err, e)
}

// replIO is what the shell reads statements from when there are no -e or
// -f: the line editor, with history and completion, when both stdin and
// stdout are terminals; otherwise lines from stdin, with prompts when
// stdin is a terminal.
func replIO(o *options, sess *shell.Session, e env, out *bufio.Writer) shell.IO {
	if e.term.stdin && e.term.stdout {
		hist := o.history
		if !o.historySet {
			hist = defaultHistoryFile()
		}
		pio, err := shell.NewPromptIO(out, e.stderr, shell.PromptOptions{Catalog: sess.Catalog(), HistoryFile: hist, Colour: os.Getenv("NO_COLOR") == ""})
		if err == nil {
			restoreOnTermination(pio)
			return pio
		}
	}
	return shell.NewReaderIO(e.stdin, out, e.stderr, e.term.stdin)
}

// restoreOnTermination makes SIGTERM and SIGHUP put the terminal's mode
// back before the process ends, as the line editor may have left it raw.
func restoreOnTermination(pio *shell.PromptIO) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-sig
		_ = pio.RestoreTerminal()
		os.Exit(128 + int(s.(syscall.Signal)))
	}()
}

// defaultHistoryFile is $XDG_STATE_HOME/rkql/history, else
// ~/.local/state/rkql/history, or "" when there is no home directory.
func defaultHistoryFile() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "rkql", "history")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "state", "rkql", "history")
}

// reportStartup reports an error before any statement ran.
func reportStartup(e env, err error) int {
	var ue *usageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "rkql: %s\n", ue.msg)
		return exitUsage
	}
	fmt.Fprintf(e.stderr, "rkql: %s\n", oneLine(err.Error()))
	return exitFail
}

func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", " ")
}

// status maps a Run result to an exit status.
func status(err error, e env) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, shell.ErrFailed):
		return exitFail
	}
	fmt.Fprintf(e.stderr, "rkql: %s\n", oneLine(err.Error()))
	return exitFail
}

// runScripts runs each -e and -f in order. An -e stops at its first
// failure, and then nothing after it runs.
func runScripts(ctx context.Context, sess *shell.Session, o *options, e env, out *bufio.Writer) int {
	code := exitOK
	for _, sc := range o.scripts {
		var err error
		if sc.file == "" {
			sess.SetStopOnError(true)
			err = sess.Run(ctx, shell.NewReaderIO(strings.NewReader(sc.text), out, e.stderr, false))
			if err != nil {
				return status(err, e)
			}
			continue
		}
		sess.SetStopOnError(o.stopOnError)
		err = runFile(ctx, sess, sc.file, e, out)
		if c := status(err, e); c != exitOK {
			code = c
			if o.stopOnError {
				return code
			}
		}
	}
	return code
}

func runFile(ctx context.Context, sess *shell.Session, name string, e env, out *bufio.Writer) error {
	if name == "-" {
		return sess.Run(ctx, shell.NewReaderIO(e.stdin, out, e.stderr, false))
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return sess.RunNamed(ctx, shell.NewReaderIO(f, out, e.stderr, false), name)
}

// newSession builds the session the flags describe. interactive says
// whether a person types at the REPL.
func newSession(o *options, e env, forImport bool) (*shell.Session, error) {
	cf, err := loadCatalog(o)
	if err != nil {
		return nil, err
	}
	if !o.quiet {
		for _, w := range cf.cat.Warnings {
			fmt.Fprintf(e.stderr, "rkql: warning: %s\n", w)
		}
	}
	set := shell.Settings{Format: shell.FormatTSV, Caret: e.term.stderr, Progress: e.term.stderr, Quiet: o.quiet, Timeout: o.timeout, StopOnError: o.stopOnError, NoPushdown: o.noPushdown, BlockCache: o.blockCache, Parallel: o.parallel, Yes: o.yes}
	if e.term.stdout {
		set.Format, set.Footer = shell.FormatTable, true
	}
	if o.format != "" {
		if set.Format, err = shell.ParseFormat(o.format); err != nil {
			return nil, &usageError{msg: err.Error()}
		}
	}
	o.dial = e.dial
	o.notice = e.stderr
	cfg := shell.Config{
		Catalog:        cf.cat,
		CatalogSource:  cf.src,
		CatalogFile:    cf.path,
		Open:           func(ctx context.Context) (exec.Store, error) { return openStore(ctx, o) },
		CreateOnDemand: createsOnDemand(o),
		ReadOnly:       o.usesHBase() && !o.allowWrites,
		ReadOnlyHint:   fmt.Sprintf("writes to the HBase cluster at %s need --allow-writes", o.quorum()),
		Planner:        planner.Options{AllowFullScan: o.allowFullScan},
		SortBudget:     o.sortBudget,
		GroupBudget:    o.groupBudget,
		Strict:         o.strict,
		Settings:       set,
		ConnInfo:       connInfo(o),
	}
	cfg.CatalogLockTimeout = catalogLockTimeout(o.lockTimeout)
	if !o.usesHBase() {
		// Statements that only read share the embedded store with
		// other readers.
		cfg.OpenRead = func(ctx context.Context) (exec.Store, error) { return openReader(ctx, o) }
	}
	if e.term.stdin && len(o.scripts) == 0 && !forImport && o.zk == "" {
		// A person at the REPL: hold the embedded store only while a
		// statement runs, so that other rkql processes can use it.
		cfg.ReleaseStore = true
	}
	if e.term.stdout && e.term.stdin {
		cfg.Settings.Pager = true
		cfg.TermSize = stdoutSize
		cfg.PagerCommand = pagerCommand()
	}
	if !forImport {
		cfg.StatementContext = interruptContext(e.term.stdin && len(o.scripts) == 0)
	}
	release := e.term.stdin && len(o.scripts) == 0 && !forImport
	cfg.Connect = func(target string) (shell.Connection, error) { return connectTo(o, target, release) }
	return shell.New(cfg), nil
}

// catalogLockTimeout is how long a layout statement waits for another
// process's edit of the catalog: --lock-timeout, whose 0 waits not at all.
func catalogLockTimeout(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

// stdoutSize is the size of the terminal on stdout.
func stdoutSize() (int, int, bool) {
	ws, err := unix.IoctlGetWinsize(int(os.Stdout.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 || ws.Row == 0 {
		return 0, 0, false
	}
	return int(ws.Col), int(ws.Row), true
}

// pagerCommand is $RKQL_PAGER, else $PAGER, else "" for the default.
func pagerCommand() string {
	for _, v := range []string{"RKQL_PAGER", "PAGER"} {
		if p := strings.TrimSpace(os.Getenv(v)); p != "" {
			return p
		}
	}
	return ""
}

// interruptContext makes Ctrl-C cancel the running statement. In the REPL
// the interrupt is caught for the whole session, so that Ctrl-C between
// statements does not end the shell; otherwise it is caught only while a
// statement runs.
func interruptContext(repl bool) func(context.Context) (context.Context, context.CancelFunc) {
	if !repl {
		return func(ctx context.Context) (context.Context, context.CancelFunc) {
			return signal.NotifyContext(ctx, os.Interrupt)
		}
	}
	var mu struct {
		sync.Mutex
		cancel context.CancelFunc
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	go func() {
		for range sig {
			mu.Lock()
			if mu.cancel != nil {
				mu.cancel()
			}
			mu.Unlock()
		}
	}()
	return func(ctx context.Context) (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(ctx)
		mu.Lock()
		mu.cancel = cancel
		mu.Unlock()
		return ctx, func() {
			mu.Lock()
			mu.cancel = nil
			mu.Unlock()
			cancel()
		}
	}
}
