package hbase

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase/internal/rpc"
)

func remote(class, msg string) *rpc.RemoteError {
	return rpc.NewRemoteError(class, class+": "+msg+"\n\tat some.Frame(F.java:1)")
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		group    string // region, retry, server, fail
		sentinel error
		msg      string
	}{
		{"nsre", remote(clsNotServingRegion, "t,,1.abc. is not online"), "region", nil,
			"hbase: NotServingRegionException: t,,1.abc. is not online"},
		{"moved", remote(clsRegionMoved, "Region moved to: hostname=h port=1"), "region", nil, ""},
		{"opening", remote(clsRegionOpening, "opening"), "retry", nil, ""},
		{"too-busy", remote(pkgHBase+"RegionTooBusyException", "busy"), "retry", nil, ""},
		{"please-hold", remote(pkgHBase+"PleaseHoldException", "master initializing"), "retry", nil, ""},
		{"not-running-yet", remote(clsServerNotRunningYet, "starting"), "retry", nil, ""},
		{"stopped", remote(clsServerStopped, "stopping"), "server", nil, ""},
		{"table-not-found", &rpc.RemoteError{Class: clsTableNotFound, Message: "t", DoNotRetry: true}, "fail", ErrTableNotFound,
			"hbase: table not found: t"},
		{"no-such-family", &rpc.RemoteError{Class: pkgHBase + "regionserver.NoSuchColumnFamilyException", Message: "x", DoNotRetry: true},
			"fail", ErrNoSuchFamily, "hbase: no such column family: x"},
		{"table-exists", &rpc.RemoteError{Class: pkgHBase + "TableExistsException", Message: "t"}, "fail", ErrTableExists, ""},
		{"do-not-retry", &rpc.RemoteError{Class: pkgHBase + "DoNotRetryIOException", Message: "bad", DoNotRetry: true}, "fail", nil,
			"hbase: DoNotRetryIOException: bad"},
		{"unknown-io", &rpc.RemoteError{Class: "java.io.IOException", Message: "hiccup"}, "retry", nil, ""},
		{"refused", &rpc.ConnError{Addr: "127.0.0.1:16020", Dial: true, Err: syscall.ECONNREFUSED}, "server", nil,
			"hbase: cannot reach region server 127.0.0.1:16020: connection refused"},
		{"lost", &rpc.ConnError{Addr: "127.0.0.1:16020", Err: fmt.Errorf("read: %w", syscall.ECONNRESET)}, "server", nil,
			"hbase: lost connection to region server 127.0.0.1:16020: connection reset by peer"},
		{"ctx", context.DeadlineExceeded, "fail", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := wrapCallError(tt.err, "region server", "127.0.0.1:16020", "t,,1.abc.")
			var regErr *RegionError
			var retErr *RetryableError
			var srvErr *ServerError
			group := "fail"
			switch {
			case errors.As(err, &regErr):
				group = "region"
			case errors.As(err, &retErr):
				group = "retry"
			case errors.As(err, &srvErr):
				group = "server"
			}
			if group != tt.group {
				t.Errorf("group = %s, want %s (%v)", group, tt.group, err)
			}
			if isRetryable(err) != (tt.group != "fail") {
				t.Errorf("isRetryable = %v", isRetryable(err))
			}
			if tt.sentinel != nil && !errors.Is(err, tt.sentinel) {
				t.Errorf("%v does not match %v", err, tt.sentinel)
			}
			if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("message %q, want %q", err.Error(), tt.msg)
			}
		})
	}
}

func TestShortFamilyMessage(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Column family zz does not exist in region t,,1.abc. in table 'ns:t', {NAME => 'f'}", "zz in table ns:t"},
		{"Column family zz does not exist in region t,,1.abc.", "zz"},
		{"something else, {NAME => 'f'}", "something else"},
		{"plain", "plain"},
	} {
		if got := shortFamilyMessage(tt.in); got != tt.want {
			t.Errorf("shortFamilyMessage(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMovedTo(t *testing.T) {
	re := remote(clsRegionMoved, "moved")
	re.Host, re.Port = "h2", 16021
	addr, ok := movedTo(wrapCallError(re, "region server", "h1:16020", "r"))
	if !ok || addr != "h2:16021" {
		t.Errorf("movedTo = %q %v", addr, ok)
	}
	if _, ok := movedTo(wrapCallError(remote(clsNotServingRegion, "x"), "region server", "h", "r")); ok {
		t.Error("NSRE has no new location")
	}
}

func testClient(cfg Config) *Client {
	c := &Client{cfg: cfg.withDefaults(), cache: newRegionCache()}
	c.mu.conns = map[connKey]*rpc.Conn{}
	return c
}

func TestBackoff(t *testing.T) {
	c := testClient(Config{RetryBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond})
	for attempt, want := range []time.Duration{10, 20, 40, 80, 100, 100} {
		want *= time.Millisecond
		for range 20 {
			d := c.backoff(attempt)
			if d < want/2 || d > want {
				t.Fatalf("backoff(%d) = %v, want in [%v, %v]", attempt, d, want/2, want)
			}
		}
	}
	if d := c.backoff(1000); d > 100*time.Millisecond || d <= 0 {
		t.Errorf("backoff(1000) = %v", d)
	}
}

func TestRetry(t *testing.T) {
	c := testClient(Config{RetryBackoff: time.Millisecond, MaxBackoff: time.Millisecond, MaxAttempts: 4})
	ctx := context.Background()
	retryable := &RetryableError{Err: errors.New("busy")}

	calls := 0
	err := c.retry(ctx, "op", func(context.Context) error {
		calls++
		if calls < 3 {
			return retryable
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Errorf("succeeds on try 3: err %v, calls %d", err, calls)
	}

	calls = 0
	err = c.retry(ctx, "op", func(context.Context) error { calls++; return retryable })
	if calls != 4 || err == nil || err.Error() != "hbase: op: giving up after 4 attempts: busy" {
		t.Errorf("attempt limit: err %v, calls %d", err, calls)
	}

	calls = 0
	final := fmt.Errorf("%w: t", ErrTableNotFound)
	err = c.retry(ctx, "op", func(context.Context) error { calls++; return final })
	if calls != 1 || !errors.Is(err, ErrTableNotFound) {
		t.Errorf("final error: err %v, calls %d", err, calls)
	}

	// The context ends the loop, and the last error is kept.
	c.cfg.MaxAttempts = 1000
	c.cfg.RetryBackoff, c.cfg.MaxBackoff = 10*time.Millisecond, 10*time.Millisecond
	tctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	srvErr := &ServerError{Role: "region server", Addr: "h:1", Unreachable: true, Err: syscall.ECONNREFUSED}
	err = c.retry(tctx, "op", func(context.Context) error { return srvErr })
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, new(*ServerError)) {
		t.Errorf("ctx end: %v", err)
	}
	if want := "hbase: op: context deadline exceeded (last error: hbase: cannot reach region server h:1: connection refused)"; err.Error() != want {
		t.Errorf("message %q\nwant    %q", err, want)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v", el)
	}
}

func TestNoteErrorUpdatesCache(t *testing.T) {
	region := func() *Region {
		return &Region{Table: "t", Name: []byte("t,,1.x."), Server: "h1:16020"}
	}
	tests := []struct {
		name   string
		err    error
		server string // cached server afterwards; "" = evicted
	}{
		{"nsre", remote(clsNotServingRegion, "x"), ""},
		{"opening", remote(clsRegionOpening, "x"), ""},
		{"moved", &rpc.RemoteError{Class: clsRegionMoved, Host: "h2", Port: 16020}, "h2:16020"},
		{"busy", remote(pkgHBase+"RegionTooBusyException", "x"), "h1:16020"},
		{"refused", &rpc.ConnError{Addr: "h1:16020", Dial: true, Err: syscall.ECONNREFUSED}, ""},
		{"final", &rpc.RemoteError{Class: clsTableNotFound, DoNotRetry: true}, "h1:16020"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testClient(Config{})
			r := region()
			c.cache.add(r)
			c.noteError(r, wrapCallError(tt.err, "region server", r.Server, string(r.Name)))
			got := ""
			if hit := c.cache.lookup("t", []byte("k"), false); hit != nil {
				got = hit.Server
			}
			if got != tt.server {
				t.Errorf("cached server %q, want %q", got, tt.server)
			}
		})
	}
}
