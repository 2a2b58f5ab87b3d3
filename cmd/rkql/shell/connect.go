package shell

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// connectCmd is \connect TARGET (\c): another cluster or store for the
// rest of the session. The target is resolved by Config.Connect.
func connectCmd(name string) func(c metaCall) (intent, error) {
	return func(c metaCall) (intent, error) {
		if c.rest == "" {
			return intent{}, fmt.Errorf(`%s takes a target: hbase QUORUM, embedded [DIR], or a ZooKeeper quorum such as 127.0.0.1:2181`, name)
		}
		return intent{kind: intentConnect, text: strings.TrimSuffix(strings.TrimSpace(c.rest), ";")}, nil
	}
}

// connect switches the session to target. The new store is opened
// first: when that fails, the session keeps the connection it had, as
// psql does.
func (s *Session) connect(ctx context.Context, in IO, target string) {
	if s.cfg.Connect == nil {
		s.fail(in, `\connect is not available in this session`, "")
		return
	}
	conn, err := s.cfg.Connect(target)
	if err != nil {
		s.fail(in, fmt.Sprintf(`\connect %s: %v`, target, err), "")
		return
	}
	ctx, cancel := s.statementContext(ctx)
	defer cancel()
	st, err := conn.Open(ctx)
	if err != nil {
		s.fail(in, fmt.Sprintf(`\connect %s: %v; the previous connection is kept`, target, err), "")
		return
	}
	if err := st.Close(); err != nil {
		s.fail(in, fmt.Sprintf(`\connect %s: closing the trial connection: %v; the previous connection is kept`, target, err), "")
		return
	}
	if err := s.eng.Close(); err != nil {
		fmt.Fprintf(in.Stderr(), "rkql: closing the previous store: %v\n", err)
	}
	cfg := s.cfg
	cfg.Catalog, cfg.CatalogSource = s.eng.Catalog(), s.eng.CatalogSource()
	cfg.Open, cfg.OpenRead = conn.Open, conn.OpenRead
	cfg.CreateOnDemand, cfg.ReleaseStore = conn.CreateOnDemand, conn.ReleaseStore
	cfg.ReadOnly, cfg.ReadOnlyHint = conn.ReadOnly, conn.ReadOnlyHint
	cfg.ConnInfo = conn.Info
	s.cfg = cfg
	s.eng = newEngine(cfg, s.set)
	name := conn.Name
	if name == "" {
		name = conn.Info
	}
	fmt.Fprintf(in.Stdout(), "You are now connected to %s.\n", name)
}

// defaultWatch is how often \watch reruns a statement without an
// interval, as in psql.
const defaultWatch = 2 * time.Second

// watchCmd is \watch [SECONDS].
func watchCmd(c metaCall) (intent, error) {
	every := defaultWatch
	switch len(c.args) {
	case 0:
	case 1:
		secs, err := strconv.ParseFloat(strings.TrimSuffix(c.args[0], ";"), 64)
		if err != nil || secs <= 0 || secs > 24*3600 {
			return intent{}, fmt.Errorf(`\watch takes an interval in seconds, more than 0 and at most 86400, not %q`, c.args[0])
		}
		every = time.Duration(secs * float64(time.Second))
	default:
		return intent{}, fmt.Errorf(`\watch takes at most one interval in seconds`)
	}
	return intent{kind: intentWatch, every: every}, nil
}

// watch reruns the last statement every interval until Ctrl-C, a failed
// run, or the end of the output. Each run starts with a header line of
// the time and the interval, as psql's \watch prints.
func (s *Session) watch(ctx context.Context, in IO, every time.Duration) {
	last := s.last
	if strings.TrimSpace(last) == "" {
		s.fail(in, `\watch: there is no statement to rerun; run one first`, "")
		return
	}
	pager := s.set.Pager
	s.set.Pager = false // a pager would stop every run
	defer func() { s.set.Pager = pager }()
	for {
		if ctx.Err() != nil {
			return
		}
		out := s.resultOut(in)
		if s.sets > 0 && (s.set.Format == FormatCSV || s.set.Format == FormatTSV) {
			fmt.Fprintln(out) // the blank line after the previous result set
		}
		fmt.Fprintf(out, "%s (every %s)\n\n", s.cfg.Clock().Format("Mon Jan _2 15:04:05 2006"), every)
		s.sets = 0 // the header's blank line parts it from the result
		failures := s.failures
		s.runChunk(ctx, in, source{line: 1, text: last, generated: true})
		if s.failures != failures || s.stop() {
			return
		}
		if err := flushOut(out); err != nil {
			s.outputFailed(in, err)
			return
		}
		if !s.sleep(ctx, every) {
			return
		}
	}
}

// sleep waits d, or until Ctrl-C (the statement context's end); it
// reports whether the wait ran its course.
func (s *Session) sleep(ctx context.Context, d time.Duration) bool {
	wctx, cancel := s.cfg.StatementContext(ctx)
	defer cancel()
	if s.cfg.Sleep != nil {
		return s.cfg.Sleep(wctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-wctx.Done():
		return false
	}
}
