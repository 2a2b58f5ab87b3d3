package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/engine"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
)

// logged is a store that notes its closing.
type logged struct {
	exec.Store
	log *[]string
}

func (l logged) Close() error {
	*l.log = append(*l.log, "close")
	return l.Store.Close()
}

// A statement that only reads opens the store with OpenRead, under a lock
// other readers share; one that writes opens it with Open, after the
// reader's store is closed, and the next read lets go of it again. A read
// of a table the store lacks finds nothing and creates nothing.
func TestReadsShareTheStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	var log []string
	open := func(ro bool) func(context.Context) (exec.Store, error) {
		return func(context.Context) (exec.Store, error) {
			st, err := embedded.Open(dir, embedded.Options{NoSync: true, ReadOnly: ro, LockTimeout: -1})
			if err != nil {
				return nil, err
			}
			log = append(log, map[bool]string{true: "read", false: "write"}[ro])
			return logged{st, &log}, nil
		}
	}
	e := exampleEngine(t, engine.Config{Open: open(false), OpenRead: open(true)})
	defer e.Close()
	ctx := context.Background()
	count := func() string {
		t.Helper()
		rows, _, err := e.Exec(ctx, "SELECT count(*) FROM orders WHERE seller = 's1'")
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(rows)
	}

	if got := count(); got != "[[0]]" {
		t.Fatalf("count of a table never written: %s", got)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a read made the store (%v)", err)
	}
	rows, _, err := e.Exec(ctx, "SHOW TABLES")
	if err != nil || !strings.HasPrefix(fmt.Sprint(rows), "[['orders' 'table' 'orders' 'md5(seller)[0:4] | seller:str| | desc(ts):i64 | order_id:i64' FALSE]") {
		t.Fatalf("SHOW TABLES after the read: %v %v", rows, err)
	}
	if _, tag, err := e.Exec(ctx, "INSERT INTO orders (seller, buyer, order_id, ts, amount, status) VALUES ('s1', 'b1', 1, '2024-05-01 12:00:00', 1, 'new')"); err != nil || tag != "INSERT 1" {
		t.Fatalf("insert: %q %v", tag, err)
	}
	if got := count(); got != "[[1]]" {
		t.Fatalf("count after the insert: %s", got)
	}
	// The engine reads: another reader shares the store, a writer cannot
	// have it.
	other, err := embedded.Open(dir, embedded.Options{ReadOnly: true, LockTimeout: -1})
	if err != nil {
		t.Fatalf("a second reader beside the engine's: %v", err)
	}
	_ = other.Close()
	if w, err := embedded.Open(dir, embedded.Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, embedded.ErrInUse) {
		if err == nil {
			_ = w.Close()
		}
		t.Fatalf("a writer beside the engine's reader: %v, want ErrInUse", err)
	}
	if want := "read close write close read"; strings.Join(log, " ") != want {
		t.Errorf("stores opened and closed: %q, want %q", strings.Join(log, " "), want)
	}
}
