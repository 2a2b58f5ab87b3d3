package shell

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// maxIncludeDepth bounds \i files read one inside the other, so that a
// file that includes itself ends.
const maxIncludeDepth = 16

// meta carries out a meta-command line; it reports whether to quit.
func (s *Session) meta(ctx context.Context, in IO, line string) bool {
	it, err := parseMeta(line, s.cfg.Catalog)
	if err != nil {
		s.fail(in, err.Error(), "")
		return false
	}
	out := in.Stdout()
	switch it.kind {
	case intentQuit:
		return true
	case intentHelp:
		_, _ = io.WriteString(out, helpText())
	case intentPrint:
		_, _ = io.WriteString(out, it.text)
	case intentExec:
		s.runChunk(ctx, in, source{line: 1, text: it.sql, generated: true})
		if it.text != "" && !s.stop() {
			_, _ = io.WriteString(s.resultOut(in), it.text)
		}
	case intentRows:
		s.writeRows(in, it)
	case intentSet:
		s.applySetting(in, it)
	case intentVar:
		s.setVar(in, it)
	case intentOutput:
		s.setOutput(in, it.path)
	case intentInclude:
		s.include(ctx, in, it.path)
	case intentEdit:
		s.edit(ctx, in)
	case intentShell:
		s.shellCommand(in, it.text)
	case intentConnect:
		s.connect(ctx, in, it.text)
	case intentWatch:
		s.watch(ctx, in, it.every)
	case intentConnInfo:
		info := s.cfg.ConnInfo
		if info == "" {
			info = "no connection information"
		}
		fmt.Fprintln(out, info)
	}
	return false
}

func (s *Session) applySetting(in IO, it intent) {
	out := in.Stdout()
	it.set(&s.set)
	switch it.text {
	case "timing":
		fmt.Fprintf(out, "Timing is %s.\n", onOff(s.set.Timing))
	case "format":
		fmt.Fprintf(out, "Output format is %s.\n", s.set.Format)
	case "pushdown":
		s.eng.SetPushdown(!s.set.NoPushdown)
		fmt.Fprintf(out, "Pushdown is %s.\n", onOff(!s.set.NoPushdown))
	case "blockcache":
		s.eng.SetBlockCache(s.set.BlockCache)
		fmt.Fprintf(out, "Block cache is %s.\n", blockCacheText(s.set.BlockCache))
	case "parallel":
		s.eng.SetParallel(s.set.Parallel)
		fmt.Fprintf(out, "Parallel reads are %s.\n", parallelText(s.set.Parallel))
	case "expanded":
		fmt.Fprintf(out, "Expanded display is %s.\n", s.set.Expanded)
	case "pager":
		fmt.Fprintf(out, "Pager is %s.\n", onOff(s.set.Pager))
	case "null":
		fmt.Fprintf(out, "Null display is %q.\n", nullText(s.set.Null))
	}
}

func (s *Session) writeRows(in IO, it intent) {
	w := s.rowWriterFor(s.resultOut(in), true)
	err := w.begin(it.cols)
	for _, r := range it.rows {
		if err != nil {
			break
		}
		err = w.row(r)
	}
	if err == nil {
		err = w.end(int64(len(it.rows)))
	}
	if err == nil {
		err = flushOut(s.resultOut(in))
	}
	if err != nil {
		s.outputFailed(in, err)
	}
}

func (s *Session) setVar(in IO, it intent) {
	switch {
	case it.name == "":
		names := make([]string, 0, len(s.vars))
		for n := range s.vars {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(in.Stdout(), "%s = '%s'\n", n, strings.ReplaceAll(s.vars[n], "'", "''"))
		}
	case it.unset:
		delete(s.vars, it.name)
	default:
		if s.vars == nil {
			s.vars = make(map[string]string)
		}
		s.vars[it.name] = it.text
	}
}

// substitute replaces :name, :'name' (as a string literal) and :"name"
// (as a quoted name) by the value of variable name, outside strings,
// quoted names and comments. A name that is not set is left as it is.
func (s *Session) substitute(line string) string {
	if len(s.vars) == 0 || !strings.Contains(line, ":") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			end := len(line)
			if j >= 0 {
				end = i + 1 + j + 1
			}
			b.WriteString(line[i:end])
			i = end
		case c == '-' && strings.HasPrefix(line[i:], "--"):
			b.WriteString(line[i:])
			i = len(line)
		case c == ':':
			if v, n, ok := s.varRef(line[i+1:]); ok {
				b.WriteString(v)
				i += 1 + n
				continue
			}
			b.WriteByte(c)
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// varRef reads a variable reference after a ':' and returns its value as
// it is substituted and the bytes it took.
func (s *Session) varRef(t string) (string, int, bool) {
	quote := byte(0)
	if t != "" && (t[0] == '\'' || t[0] == '"') {
		quote = t[0]
		t = t[1:]
	}
	n := 0
	for n < len(t) && validVarName(t[n:n+1]) {
		n++
	}
	if n == 0 || quote != 0 && (n >= len(t) || t[n] != quote) {
		return "", 0, false
	}
	v, ok := s.vars[t[:n]]
	if !ok {
		return "", 0, false
	}
	switch quote {
	case '\'':
		return "'" + strings.ReplaceAll(v, "'", "''") + "'", n + 2, true
	case '"':
		return `"` + strings.ReplaceAll(v, `"`, `""`) + `"`, n + 2, true
	}
	return v, n, true
}

// outputFile is where \o sends results.
type outputFile struct {
	f *os.File
	w *bufio.Writer
}

func (o *outputFile) close() error {
	return errors.Join(o.w.Flush(), o.f.Close())
}

// resultOut is where results go: the \o file, or the IO's Stdout.
func (s *Session) resultOut(in IO) io.Writer {
	if s.outFile != nil {
		return s.outFile.w
	}
	return in.Stdout()
}

func (s *Session) setOutput(in IO, path string) {
	if s.outFile != nil {
		if err := s.outFile.close(); err != nil {
			s.fail(in, fmt.Sprintf("closing %s: %v", s.outFile.f.Name(), err), "")
		}
		s.outFile = nil
	}
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		s.fail(in, fmt.Sprintf(`\o: %v`, err), "")
		return
	}
	s.outFile = &outputFile{f: f, w: bufio.NewWriterSize(f, 64<<10)}
}

// CloseOutput closes the file \o sends results to, if any.
func (s *Session) CloseOutput() error {
	if s.outFile == nil {
		return nil
	}
	err := s.outFile.close()
	s.outFile = nil
	return err
}

func (s *Session) include(ctx context.Context, in IO, path string) {
	if s.depth >= maxIncludeDepth {
		s.fail(in, fmt.Sprintf(`\i %s: files included %d deep`, path, maxIncludeDepth), "")
		return
	}
	f, err := os.Open(path)
	if err != nil {
		s.fail(in, fmt.Sprintf(`\i: %v`, err), "")
		return
	}
	defer f.Close()
	failed := s.failed
	s.depth++
	err = s.RunNamed(ctx, &fileIO{r: bufio.NewReader(f), out: in.Stdout(), err: in.Stderr()}, path)
	s.depth--
	s.failed = failed || errors.Is(err, ErrFailed)
	if err != nil && !errors.Is(err, ErrFailed) {
		s.fail(in, fmt.Sprintf(`\i %s: %v`, path, err), "")
	}
}

// fileIO reads the lines of a file for \i.
type fileIO struct {
	r        *bufio.Reader
	out, err io.Writer
}

func (f *fileIO) ReadLine(string) (string, error) {
	line, err := f.r.ReadString('\n')
	if err != nil && (!errors.Is(err, io.EOF) || line == "") {
		return "", err
	}
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), nil
}
func (f *fileIO) Stdout() io.Writer { return f.out }
func (f *fileIO) Stderr() io.Writer { return f.err }
func (f *fileIO) Interactive() bool { return false }

// editor is $VISUAL, else $EDITOR, else vi.
func editor() string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if e := strings.TrimSpace(os.Getenv(v)); e != "" {
			return e
		}
	}
	return "vi"
}

// edit opens the last statement in the editor, and runs what was saved;
// an IO that keeps a history (PromptIO) remembers it.
func (s *Session) edit(ctx context.Context, in IO) {
	f, err := os.CreateTemp("", "rkql-*.sql")
	if err != nil {
		s.fail(in, fmt.Sprintf(`\e: %v`, err), "")
		return
	}
	name := f.Name()
	defer os.Remove(name)
	text := strings.TrimRight(s.last, "\n")
	if text != "" {
		text += "\n"
	}
	_, err = f.WriteString(text)
	if err = errors.Join(err, f.Close()); err != nil {
		s.fail(in, fmt.Sprintf(`\e: %v`, err), "")
		return
	}
	flush(in.Stdout())
	cmd := exec.CommandContext(ctx, "sh", "-c", editor()+` "$1"`, "sh", name)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		s.fail(in, fmt.Sprintf(`\e: editor %s: %v`, editor(), err), "")
		return
	}
	b, err := os.ReadFile(name)
	if err != nil {
		s.fail(in, fmt.Sprintf(`\e: %v`, err), "")
		return
	}
	edited := strings.TrimSpace(string(b))
	if edited == "" {
		return
	}
	if in.Interactive() {
		fmt.Fprintln(in.Stdout(), edited)
	}
	if r, ok := in.(interface{ Remember(string) }); ok {
		r.Remember(edited)
	}
	s.runChunk(ctx, in, source{line: 1, text: edited + "\n", caret: s.set.Caret})
}

// shellCommand runs command with sh, its output where the session's
// goes; with no command, an interactive shell on the terminal.
func (s *Session) shellCommand(in IO, command string) {
	flush(in.Stdout())
	var cmd *exec.Cmd
	if command == "" {
		sh := os.Getenv("SHELL")
		if sh == "" {
			sh = "/bin/sh"
		}
		cmd = exec.Command(sh)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	} else {
		cmd = exec.Command("sh", "-c", command)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, in.Stdout(), in.Stderr()
	}
	if err := cmd.Run(); err != nil {
		s.fail(in, fmt.Sprintf(`\!: %v`, err), "")
	}
	flush(in.Stdout())
}

// errPagerClosed is a write to a pager the user closed: the rest of the
// result is not wanted.
var errPagerClosed = errors.New("shell: pager closed")

// pagedWriter holds a result until it is taller than the terminal, then
// starts the pager and sends it everything; a shorter result goes to out
// when it is closed.
type pagedWriter struct {
	out    io.Writer
	height int
	cmd    string
	buf    bytes.Buffer
	lines  int
	pager  *exec.Cmd
	pin    io.WriteCloser
	gone   bool
}

func (p *pagedWriter) Write(b []byte) (int, error) {
	if p.gone {
		return 0, errPagerClosed
	}
	if p.pager != nil {
		if _, err := p.pin.Write(b); err != nil {
			p.gone = true
			return 0, errPagerClosed
		}
		return len(b), nil
	}
	p.buf.Write(b)
	p.lines += bytes.Count(b, []byte{'\n'})
	if p.lines < p.height-1 {
		return len(b), nil
	}
	if err := p.start(); err != nil {
		// No pager: write to the terminal as if there were none.
		p.pager = nil
		_, err := p.out.Write(p.buf.Bytes())
		p.buf.Reset()
		p.height = int(^uint(0) >> 1)
		return len(b), err
	}
	return len(b), nil
}

func (p *pagedWriter) start() error {
	if err := flushOut(p.out); err != nil {
		return err
	}
	cmd := exec.Command("sh", "-c", p.cmd)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	pin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	p.pager, p.pin = cmd, pin
	if _, err := pin.Write(p.buf.Bytes()); err != nil {
		p.gone = true
	}
	p.buf.Reset()
	return nil
}

// close ends the pager's input and waits for the user to leave it, or
// writes a short result to out.
func (p *pagedWriter) close() error {
	if p.pager == nil {
		_, err := p.out.Write(p.buf.Bytes())
		p.buf.Reset()
		return err
	}
	_ = p.pin.Close()
	_ = p.pager.Wait()
	p.pager = nil
	return nil
}
