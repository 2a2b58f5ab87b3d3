//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package engine_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/engine"
)

// A layout statement that finds another one editing the catalog waits for
// it no longer than its timeout or its context, and then fails with
// ErrCatalogInUse or the context's error; once the edit is over it runs.
func TestCatalogLockGivesUp(t *testing.T) {
	f := newDropFixture(t)
	asking, answer := make(chan struct{}), make(chan bool)
	holder := f.engine(t, false, func(string) bool {
		close(asking)
		return <-answer
	})
	held := make(chan error, 1)
	go func() {
		_, _, err := holder.Exec(context.Background(), "DROP TABLE x")
		held <- err
	}()
	<-asking // the holder asks its question under the catalog lock

	const create = "CREATE TABLE y (k STRING, v BIGINT) ROWKEY (k)"
	cfg := f.config(t, false, nil)
	cfg.CatalogLockTimeout = -1
	noWait := engine.New(cfg)
	_, _, err := noWait.Exec(context.Background(), create)
	if want := "catalog " + f.catFile + " is being changed by another rkql process"; !errors.Is(err, engine.ErrCatalogInUse) || err.Error() != want {
		t.Errorf("CREATE TABLE beside another edit, not waiting: %v; want %q", err, want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, _, err := f.engine(t, false, nil).Exec(ctx, create); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("CREATE TABLE beside another edit, until its deadline: %v", err)
	}
	answer <- false
	if err := <-held; err == nil || !strings.Contains(err.Error(), "not confirmed") {
		t.Fatalf("the holder's DROP TABLE answered no: %v", err)
	}
	if _, _, err := noWait.Exec(context.Background(), create); err != nil {
		t.Errorf("CREATE TABLE once the edit is over: %v", err)
	}
}

// Beside a catalog in a directory no one may write, the lock file cannot
// be made: an edit fails before it creates a table, and TRUNCATE, which
// edits nothing, runs.
func TestCatalogLockUnwritableDir(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc, the directory not even root may write")
	}
	f := newDropFixture(t)
	cfg := f.config(t, false, nil)
	cfg.CatalogFile = "/proc/catalog.yaml"
	e := engine.New(cfg)
	ctx := context.Background()
	_, _, err := e.Exec(ctx, "CREATE TABLE y (k STRING, v BIGINT) ROWKEY (k)")
	if err == nil || !strings.HasPrefix(err.Error(), "locking the catalog: open /proc/catalog.yaml.lock: ") {
		t.Errorf("CREATE TABLE beside an unwritable catalog: %v", err)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"x", "x_by_v"}) {
		t.Errorf("the failed CREATE TABLE left the store with %v", got)
	}
	if _, tag, err := e.Exec(ctx, "TRUNCATE TABLE x"); err != nil || tag != "TRUNCATE TABLE" {
		t.Errorf("TRUNCATE TABLE beside an unwritable catalog: %q, %v", tag, err)
	}
}
