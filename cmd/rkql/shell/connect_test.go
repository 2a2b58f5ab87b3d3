package shell

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec/embedded"
)

// embeddedConn is a connection to an embedded store in dir.
func embeddedConn(dir string) Connection {
	return Connection{
		Open:           engine.OpenWith(func(context.Context) (*embedded.Store, error) { return embedded.Open(dir, embedded.Options{}) }),
		CreateOnDemand: true,
		Info:           "embedded store " + dir,
	}
}

// \connect switches the store for the statements after it, keeps the
// catalog, and keeps the old store when the new one cannot be opened.
func TestConnectSwitchesStore(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	first := embeddedConn(a)
	cfg := Config{Catalog: testCatalog(t), Open: first.Open, CreateOnDemand: true, ConnInfo: first.Info, Settings: Settings{Format: FormatTSV, Quiet: true}}
	cfg.Connect = func(target string) (Connection, error) {
		switch target {
		case "a":
			return embeddedConn(a), nil
		case "b":
			return embeddedConn(b), nil
		case "down":
			return Connection{Open: engine.OpenWith(func(context.Context) (*embedded.Store, error) { return nil, errors.New("no answer") })}, nil
		}
		return Connection{}, errors.New("unknown target")
	}
	s := New(cfg)
	defer s.Close()
	in := &lines{in: []string{
		"INSERT INTO t (k, v) VALUES ('in-a', '1');",
		`\connect b`,
		`\conninfo`,
		"SELECT k FROM t ALLOW FULL SCAN;",
		"INSERT INTO t (k, v) VALUES ('in-b', '2');",
		`\c down`,
		"SELECT k FROM t ALLOW FULL SCAN;",
		`\connect a`,
		"SELECT k FROM t ALLOW FULL SCAN;",
	}}
	if err := s.Run(context.Background(), in); !errors.Is(err, ErrFailed) {
		t.Fatalf("Run returned %v, want ErrFailed for the unreachable target", err)
	}
	want := strings.Join([]string{
		"You are now connected to embedded store " + b + ".",
		"embedded store " + b,
		"k",
		"rkql: warning: table t has no rows: it was never created in this store (a write or CREATE TABLE creates it)",
		"rkql: \\connect down: no answer; the previous connection is kept",
		"",
		"k", "in-b",
		"You are now connected to embedded store " + a + ".",
		"",
		"k", "in-a", "",
	}, "\n")
	if got := in.out.String(); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

// \watch reruns the last statement at each tick until the wait is cut,
// with psql's header line before each run, and stops at a failed run.
func TestWatchReruns(t *testing.T) {
	clock := time.Date(2026, 12, 2, 15, 4, 5, 0, time.UTC)
	var waits []time.Duration
	ticks := 3
	cfg := Config{
		Catalog: testCatalog(t), Open: embeddedConn(t.TempDir()).Open, CreateOnDemand: true,
		Settings: Settings{Format: FormatTSV, Quiet: true},
		Clock:    func() time.Time { return clock },
		Sleep: func(ctx context.Context, d time.Duration) bool {
			waits = append(waits, d)
			ticks--
			return ticks > 0
		},
	}
	s := New(cfg)
	defer s.Close()
	in := &lines{in: []string{"ENCODE KEY t (k = 'a');", `\watch 1.5`}}
	if err := s.Run(context.Background(), in); err != nil {
		t.Fatalf("Run: %v\n%s", err, in.out.String())
	}
	run := "\nWed Dec  2 15:04:05 2026 (every 1.5s)\n\nkey\thex\na\t61\n"
	if got, want := in.out.String(), "key\thex\na\t61\n"+strings.Repeat(run, 3); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if len(waits) != 3 || waits[0] != 1500*time.Millisecond {
		t.Fatalf("waits %v, want three of 1.5s", waits)
	}

	// A failing statement stops the watch after its first run.
	ticks, waits = 100, nil
	in = &lines{in: []string{"ENCODE KEY t (nope = 'a');", `\watch`}}
	if err := s.Run(context.Background(), in); !errors.Is(err, ErrFailed) {
		t.Fatalf("Run returned %v, want ErrFailed", err)
	}
	if n := strings.Count(in.out.String(), "(every 2s)"); n != 1 || len(waits) != 0 {
		t.Fatalf("%d runs and %d waits, want 1 and 0:\n%s", n, len(waits), in.out.String())
	}
}

func TestWatchArguments(t *testing.T) {
	s := New(Config{Catalog: testCatalog(t), Settings: Settings{Format: FormatTSV}})
	for in, want := range map[string]string{
		`\watch`:     "rkql: \\watch: there is no statement to rerun; run one first\n",
		`\watch 0`:   "rkql: \\watch takes an interval in seconds, more than 0 and at most 86400, not \"0\"\n",
		`\watch x`:   "rkql: \\watch takes an interval in seconds, more than 0 and at most 86400, not \"x\"\n",
		`\watch 1 2`: "rkql: \\watch takes at most one interval in seconds\n",
		`\connect`:   "rkql: \\connect takes a target: hbase QUORUM, embedded [DIR], or a ZooKeeper quorum such as 127.0.0.1:2181\n",
		`\c x`:       "rkql: \\connect is not available in this session\n",
	} {
		if got := runFailing(t, s, "", in); got != want {
			t.Errorf("%s: got %q, want %q", in, got, want)
		}
	}
}

// \watch on a count while rows arrive shows the count growing, and Ctrl-C
// (the end of the statement context) during a wait ends it.
func TestWatchCountGrows(t *testing.T) {
	var interrupt context.CancelFunc
	var s *Session
	n := 0
	cfg := Config{
		Catalog: testCatalog(t), Open: embeddedConn(t.TempDir()).Open, CreateOnDemand: true,
		Settings: Settings{Format: FormatTSV, Quiet: true},
		StatementContext: func(ctx context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(ctx)
			interrupt = cancel
			return ctx, cancel
		},
		Sleep: func(ctx context.Context, d time.Duration) bool {
			n++
			tb, _ := s.Catalog().Table("t")
			rows := []catalog.Row{{catalog.String(fmt.Sprintf("k%d", n)), catalog.String("v")}}
			if err := s.Engine().Write(ctx, tb, []int{0, 1}, rows, 0, nil); err != nil {
				t.Errorf("write: %v", err)
				return false
			}
			if n == 3 {
				interrupt() // Ctrl-C
			}
			select {
			case <-ctx.Done():
				return false
			default:
				return true
			}
		},
	}
	s = New(cfg)
	defer s.Close()
	in := &lines{in: []string{"INSERT INTO t (k, v) VALUES ('k0', 'v');", "SELECT COUNT(*) AS n FROM t ALLOW FULL SCAN;", `\watch 1`}}
	if err := s.Run(context.Background(), in); err != nil {
		t.Fatalf("Run: %v\n%s", err, in.out.String())
	}
	var counts []string
	for _, l := range strings.Split(in.out.String(), "\n") {
		if l != "" && !strings.Contains(l, "every") && l != "n" {
			counts = append(counts, l)
		}
	}
	if got := strings.Join(counts, " "); got != "1 1 2 3" {
		t.Fatalf("counts %q, want \"1 1 2 3\" (the statement, then three runs until Ctrl-C):\n%s", got, in.out.String())
	}
}
