package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// ptyWait bounds each wait for the screen: generous, so that a loaded
// machine slows the test down instead of failing it.
const ptyWait = 60 * time.Second

// ptyTerm runs rkql on a pseudo-terminal and records all it draws. Keys
// are written one at a time, and each is followed by a wait for what it
// draws, so that go-prompt reads every key on its own (it takes several
// bytes read together for pasted text).
type ptyTerm struct {
	t   *testing.T
	cmd *exec.Cmd
	pty *os.File // the master side
	tty *os.File // the terminal rkql runs on, kept open to read its mode
	mu  struct {
		sync.Mutex
		out  []byte
		grew chan struct{} // closed when out grows
	}
	exited chan error
}

func startPty(t *testing.T, env []string, args ...string) *ptyTerm {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: 40, Cols: 150}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(rkqlBin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &ptyTerm{t: t, cmd: cmd, pty: master, tty: tty, exited: make(chan error, 1)}
	p.mu.grew = make(chan struct{})
	go p.read()
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = master.Close()
		_ = tty.Close()
	})
	return p
}

func (p *ptyTerm) read() {
	buf := make([]byte, 4096)
	for {
		n, err := p.pty.Read(buf)
		p.mu.Lock()
		p.mu.out = append(p.mu.out, buf[:n]...)
		close(p.mu.grew)
		p.mu.grew = make(chan struct{})
		p.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// ansi matches the terminal control sequences go-prompt draws with.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-B]|\x1b\][^\x07]*\x07|\r`)

// screen returns what was drawn from offset from on, without control
// sequences.
func (p *ptyTerm) screen(from int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return ansi.ReplaceAllString(string(p.mu.out[from:]), "")
}

// mark is the offset of the next byte to be drawn.
func (p *ptyTerm) mark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.mu.out)
}

// waitFor waits until what was drawn after from matches re.
func (p *ptyTerm) waitFor(from int, re string) {
	p.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.After(ptyWait)
	for {
		p.mu.Lock()
		grew := p.mu.grew
		p.mu.Unlock()
		if rx.MatchString(p.screen(from)) {
			return
		}
		select {
		case <-grew:
		case err := <-p.exited:
			p.exited <- err
			// What rkql wrote last may still be on its way through the
			// terminal: read on until all of it came.
			if p.drained(rx, from) {
				return
			}
			p.t.Fatalf("rkql exited (%v) before drawing %q; it drew:\n%s", err, re, p.screen(0))
		case <-deadline:
			p.t.Fatalf("rkql did not draw %q within %s; it drew:\n%s", re, ptyWait, p.screen(from))
		}
	}
}

// drained waits, after rkql exited, until all it wrote has come through
// the terminal, and reports whether what was drawn after from then
// matches rx. A marker written to the terminal now comes through after
// everything rkql wrote before it exited; it is then taken out of the
// record.
func (p *ptyTerm) drained(rx *regexp.Regexp, from int) bool {
	const marker = "<rkql test: drained>"
	start := p.mark()
	if _, err := p.tty.Write([]byte(marker)); err != nil {
		p.t.Fatalf("write to the terminal after rkql exited: %v", err)
	}
	deadline := time.After(ptyWait)
	for {
		p.mu.Lock()
		if i := strings.Index(string(p.mu.out[start:]), marker); i >= 0 {
			i += start
			p.mu.out = append(p.mu.out[:i:i], p.mu.out[i+len(marker):]...)
			p.mu.Unlock()
			return rx.MatchString(p.screen(from))
		}
		grew := p.mu.grew
		p.mu.Unlock()
		select {
		case <-grew:
		case <-deadline:
			p.t.Fatalf("what rkql drew did not come through the terminal within %s; it drew:\n%s", ptyWait, p.screen(0))
		}
	}
}

// press writes one key and waits until the screen shows want (a regexp).
func (p *ptyTerm) press(key, want string) {
	p.t.Helper()
	from := p.mark()
	if _, err := p.pty.Write([]byte(key)); err != nil {
		p.t.Fatal(err)
	}
	p.waitFor(from, want)
}

// typeLine types text one key at a time; after each key the current line
// must be drawn as prefix followed by the text typed so far.
func (p *ptyTerm) typeLine(prefix, text string) {
	p.t.Helper()
	for i := range text {
		p.press(text[i:i+1], regexp.QuoteMeta(prefix+text[:i+1]))
	}
}

// lflag returns the local modes of rkql's terminal.
func (p *ptyTerm) lflag() uint32 {
	p.t.Helper()
	tio, err := unix.IoctlGetTermios(int(p.tty.Fd()), unix.TCGETS)
	if err != nil {
		p.t.Fatal(err)
	}
	return tio.Lflag
}

// cooked reports whether the terminal is in its normal mode: lines,
// echo, and Ctrl-C as a signal.
func (p *ptyTerm) cooked() bool {
	const want = unix.ICANON | unix.ECHO | unix.ISIG
	return p.lflag()&want == want
}

// threeOrders is a new store holding three orders rows: s1's orders 1
// and 2, s2's order 3.
func threeOrders(t *testing.T) string {
	t.Helper()
	store := t.TempDir()
	if r := rkql(t, "", "--store", store, "--catalog", fixedCatalog, "-e",
		"INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES "+
			"('s1', 'b1', 1, '2024-05-01 12:00:00', 10.5, 'new'), ('s1', 'b2', 2, '2024-05-01 13:00:00', 3, 'paid'), "+
			"('s2', 'b1', 3, '2024-05-02 09:30:00', 99.99, 'new');"); r.code != 0 {
		t.Fatalf("loading rows: %+v", r)
	}
	return store
}

// checkModesRestored checks, once rkql has exited, that its terminal's
// modes are a new terminal's.
func (p *ptyTerm) checkModesRestored() {
	p.t.Helper()
	_, fresh, err := pty.Open()
	if err != nil {
		p.t.Fatal(err)
	}
	defer fresh.Close()
	want, err := unix.IoctlGetTermios(int(fresh.Fd()), unix.TCGETS)
	if err != nil {
		p.t.Fatal(err)
	}
	got, err := unix.IoctlGetTermios(int(p.tty.Fd()), unix.TCGETS)
	if err != nil {
		p.t.Fatal(err)
	}
	if got.Iflag != want.Iflag || got.Oflag != want.Oflag || got.Lflag != want.Lflag || got.Cc != want.Cc {
		p.t.Errorf("terminal modes after exit %+v, want %+v", got, want)
	}
}

// exit waits for rkql to end and returns its exit status.
func (p *ptyTerm) exit() int {
	p.t.Helper()
	select {
	case err := <-p.exited:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			p.t.Fatal(err)
		}
		return 0
	case <-time.After(ptyWait):
		p.t.Fatalf("rkql did not exit within %s; it drew:\n%s", ptyWait, p.screen(0))
	}
	return -1
}

const (
	keyUp    = "\x1b[A"
	keyCtrlC = "\x03"
	keyCtrlD = "\x04"
)

// The REPL on a terminal: a statement typed over three lines, key by key,
// runs when its ';' is followed by Enter; Up recalls it whole; Tab
// completes a table name; Ctrl-C clears the prompt without ending the
// shell; Ctrl-D ends it with status 0. The history file then holds each
// statement as one entry, and the next session recalls them.
func TestREPLOnTerminal(t *testing.T) {
	store := threeOrders(t)
	hist := filepath.Join(t.TempDir(), "history")
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "TERM=xterm"}
	args := []string{"--store", store, "--catalog", fixedCatalog, "--history", hist}
	p := startPty(t, env, args...)
	p.waitFor(0, `statements end with ';'\n[\s\S]*rkql> `)
	// The banner counts what LINT finds in the catalog's layouts.
	p.waitFor(0, `LINT finds 0 error\(s\) and \d+ warning\(s\) in the catalog's layouts; type LINT to see them\n`)
	if p.cooked() {
		t.Errorf("the terminal is in its normal mode at the prompt, want raw (lflag %#x)", p.lflag())
	}

	// A statement over three lines; Enter before the ';' continues it on
	// an indented line.
	p.typeLine("rkql> ", "SELECT seller, order_id")
	p.press("\r", `order_id\n   ->   `)
	p.typeLine("   ->   ", "FROM orders")
	p.press("\r", `orders\n   ->   `)
	p.typeLine("   ->   ", "WHERE seller = 's1'")
	p.press(";", regexp.QuoteMeta("   ->   WHERE seller = 's1';"))
	result := `seller \| order_id\n-+\+-+\n s1 +\| +2\n s1 +\| +1\n\(2 rows\)\n\nrkql> `
	p.press("\r", result)

	// Up recalls the whole statement; Enter runs it again.
	p.press(keyUp, regexp.QuoteMeta("rkql> SELECT seller, order_id\n   ->   FROM orders\n   ->   WHERE seller = 's1';"))
	p.press("\r", result)

	// Tab completes a table name.
	p.typeLine("rkql> ", `\d lo`)
	p.press("\t", regexp.QuoteMeta(`rkql> \d logs`))
	p.press("\r", `Rowkey: bucket\(ts%4\):u8 \| ts:i64 \| host:str[\s\S]*rkql> `)
	// Where a column goes, the list shows the columns of the statement's
	// table with their types, and each Tab takes the next one.
	p.typeLine("rkql> ", "SELECT * FROM orders WHERE")
	p.press(" ", `seller +STRING key +buyer +STRING d:buyer`)
	p.press("\t", regexp.QuoteMeta("rkql> SELECT * FROM orders WHERE seller"))
	p.press("\t", regexp.QuoteMeta("rkql> SELECT * FROM orders WHERE buyer"))
	p.typeLine("rkql> SELECT * FROM orders WHERE buyer", " = 'b1' ALLOW FULL SCAN")
	p.press(";", regexp.QuoteMeta("ALLOW FULL SCAN;"))
	p.press("\r", ` s1 +\| b1 +\| +1 \|[\s\S]*\(2 rows\)\n\nrkql> `)

	// Ctrl-C at an empty prompt draws a new prompt, and the shell goes on.
	p.press(keyCtrlC, `rkql> \n[\s\S]*rkql> `)
	p.typeLine("rkql> ", `\timing`)
	p.press("\r", `Timing is on\.\n[\s\S]*rkql> `)

	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d after Ctrl-D, want 0; it drew:\n%s", code, p.screen(0))
	}
	if !p.cooked() {
		t.Errorf("the terminal is left in raw mode (lflag %#x)", p.lflag())
	}

	raw, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	want := "SELECT seller, order_id\\n  FROM orders\\n  WHERE seller = 's1';\n\\\\d logs\nSELECT * FROM orders WHERE buyer = 'b1' ALLOW FULL SCAN;\n\\\\timing\n"
	if string(raw) != want {
		t.Fatalf("history file:\n%s\nwant:\n%s", raw, want)
	}

	// The next session starts from the history file.
	p = startPty(t, env, args...)
	p.waitFor(0, `rkql> `)
	p.press(keyUp, regexp.QuoteMeta(`rkql> \timing`))
	p.press(keyUp, regexp.QuoteMeta(`rkql> SELECT * FROM orders WHERE buyer = 'b1' ALLOW FULL SCAN;`))
	// Ctrl-C clears the recalled line; Ctrl-D on the empty prompt ends.
	p.press(keyCtrlC, `rkql> SELECT \* FROM orders WHERE buyer = 'b1' ALLOW FULL SCAN;\n[\s\S]*rkql> `)
	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d, want 0", code)
	}
}

// While a statement runs the terminal is in its normal mode, so Ctrl-C
// raises SIGINT and cancels that statement only; the prompt then comes
// back in raw mode. The statement here waits on a ZooKeeper that accepts
// connections and never answers. Without --history the history goes to
// $XDG_STATE_HOME/rkql/history.
func TestREPLCtrlCCancelsRunningStatement(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	defer func() {
		for len(accepted) > 0 {
			(<-accepted).Close()
		}
	}()

	state := t.TempDir()
	p := startPty(t, []string{"XDG_STATE_HOME=" + state, "TERM=xterm"},
		"--zk", ln.Addr().String(), "--catalog", fixedCatalog, "--timeout", "5m")
	p.waitFor(0, `rkql> `)
	p.typeLine("rkql> ", "SELECT * FROM orders WHERE seller = 'x'")
	p.press(";", regexp.QuoteMeta("seller = 'x';"))
	from := p.mark()
	if _, err := p.pty.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-accepted:
		accepted <- c
	case <-time.After(ptyWait):
		t.Fatalf("rkql did not connect to ZooKeeper; it drew:\n%s", p.screen(0))
	}
	if !p.cooked() {
		t.Errorf("the terminal is in raw mode while a statement runs (lflag %#x)", p.lflag())
	}
	// After a second the statement shows its progress on the terminal;
	// Ctrl-C erases it and cancels the statement.
	p.waitFor(from, `reading: 0 rows returned… 1[.0-9]*s \(Ctrl-C cancels\)`)
	p.press(keyCtrlC, `rkql: statement cancelled\n[\s\S]*rkql> `)
	p.mu.Lock()
	drawn := string(p.mu.out[from:])
	p.mu.Unlock()
	if !regexp.MustCompile(`\(Ctrl-C cancels\)(\^C)?\r\x1b\[Krkql: statement cancelled`).MatchString(drawn) {
		t.Errorf("the progress line is not erased before the error:\n%q", drawn)
	}
	if p.cooked() {
		t.Errorf("the terminal is in its normal mode at the prompt, want raw (lflag %#x)", p.lflag())
	}
	if s := p.screen(from); strings.Count(s, "rkql: ") != 1 {
		t.Errorf("want one error line, got:\n%s", s)
	}
	p.press(keyCtrlD, `rkql> \n`)
	if code := p.exit(); code != 0 {
		t.Fatalf("exit status %d, want 0", code)
	}
	raw, err := os.ReadFile(filepath.Join(state, "rkql", "history"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "SELECT * FROM orders WHERE seller = 'x';\n"; string(raw) != want {
		t.Fatalf("history file %q, want %q", raw, want)
	}
}

// Scripts never write the history, even when given a file.
func TestHistoryOnlyInteractive(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history")
	if r := rkql(t, "SHOW TABLES;\n", "--history", hist); r.code != 0 {
		t.Fatalf("stdin: %+v", r)
	}
	if r := rkql(t, "", "--history", hist, "-e", "SHOW TABLES;"); r.code != 0 {
		t.Fatalf("-e: %+v", r)
	}
	if _, err := os.Stat(hist); !os.IsNotExist(err) {
		t.Fatalf("a script wrote the history file (%v)", err)
	}
}

// SIGTERM at the prompt, where the terminal is raw, puts its mode back
// before rkql ends.
func TestREPLTerminatedRestoresTerminal(t *testing.T) {
	p := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir(), "TERM=xterm"}, "--store", t.TempDir())
	p.waitFor(0, `rkql> `)
	if p.cooked() {
		t.Fatalf("the terminal is in its normal mode at the prompt, want raw (lflag %#x)", p.lflag())
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.exit(); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit status %d, want %d", code, 128+int(syscall.SIGTERM))
	}
	if !p.cooked() {
		t.Errorf("the terminal is left raw (lflag %#x)", p.lflag())
	}
}
