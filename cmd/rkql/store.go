package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	"github.com/rkql/rkql/exec/hbasestore"
	"github.com/rkql/rkql/hbase"
)

// openStore opens the store the flags name: a real cluster with --zk,
// otherwise the embedded store. It is the one place a new backend plugs in.
func openStore(ctx context.Context, o *options) (exec.Store, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if o.usesHBase() {
		cfg, err := hbaseConfig(o)
		if err != nil {
			return nil, err
		}
		st, err := hbasestore.Open(ctx, cfg)
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// Said plainly as a timeout, the error would lose where rkql
			// was connecting to, which is what the user needs to check.
			return nil, fmt.Errorf("cannot reach HBase through ZooKeeper %s: no answer before the --timeout limit", o.quorum())
		}
		return st, err
	}
	return openEmbedded(o, false)
}

// openReader opens the embedded store for a statement that only reads,
// sharing it with other readers; see embedded.Options.ReadOnly.
func openReader(ctx context.Context, o *options) (exec.Store, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return openEmbedded(o, true)
}

// openEmbedded opens the embedded store the flags name, for reading only
// or for writing. When another process holds it the other way, it says
// who on o.notice and waits up to --lock-timeout.
func openEmbedded(o *options, readOnly bool) (exec.Store, error) {
	dir := o.store
	if dir == "" {
		var err error
		if dir, err = defaultStoreDir(); err != nil {
			return nil, err
		}
	}
	st, err := embedded.Open(dir, embedded.Options{LockTimeout: -1, ReadOnly: readOnly})
	if !errors.Is(err, embedded.ErrInUse) || o.lockTimeout <= 0 {
		return st, lockError(dir, err, 0)
	}
	who := holderText(lockHolder(filepath.Join(dir, embedded.FileName)))
	if o.notice != nil {
		fmt.Fprintf(o.notice, "rkql: store %s is in use by %s; waiting up to %s (--lock-timeout)\n", dir, who, o.lockTimeout)
	}
	st, err = embedded.Open(dir, embedded.Options{LockTimeout: o.lockTimeout, ReadOnly: readOnly})
	return st, lockError(dir, err, o.lockTimeout)
}

// lockError says plainly who holds a store that could not be opened, and
// how long rkql waited.
func lockError(dir string, err error, waited time.Duration) error {
	if !errors.Is(err, embedded.ErrInUse) {
		return err
	}
	who := holderText(lockHolder(filepath.Join(dir, embedded.FileName)))
	if waited > 0 {
		return fmt.Errorf("store %s is in use by %s: gave up after %s (--lock-timeout): %w", dir, who, waited, embedded.ErrInUse)
	}
	return fmt.Errorf("store %s is in use by %s (--lock-timeout waits for it): %w", dir, who, embedded.ErrInUse)
}

// createsOnDemand reports whether the store wants physical tables created
// on first use: the embedded one does, a real cluster does not.
func createsOnDemand(o *options) bool { return !o.usesHBase() }

// hbaseConfig is the client configuration the flags and hbase-site.xml
// give.
func hbaseConfig(o *options) (hbase.Config, error) {
	site := o.conn.site
	if site == nil {
		site = &hbase.Site{}
		if o.zk != "" {
			site.Set(hbase.PropQuorum, o.zk, "flag --zk")
		}
		site.Set(hbase.PropZNodeParent, o.zkRoot, "flag --zk-root")
	}
	cfg, err := site.Config()
	if err != nil {
		return hbase.Config{}, err
	}
	cfg.Dial = o.dial
	return cfg, nil
}

// defaultStoreDir is $XDG_DATA_HOME/rkql, else the user cache directory's
// rkql.
func defaultStoreDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "rkql"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no default store directory (%w); pass --store DIR", err)
	}
	return filepath.Join(d, "rkql"), nil
}

// catalogFile is the catalog the session reads and the layout statements
// write: --catalog; else, on the embedded store, catalog.yaml beside the
// store, which starts as the built-in example catalog; else no file.
type catalogFile struct {
	cat  *catalog.Catalog
	src  []byte
	path string // "" when there is no file to write
}

// storeCatalogName is the catalog kept beside an embedded store.
const storeCatalogName = "catalog.yaml"

// loadCatalog reads --catalog, the catalog beside the embedded store, or
// the built-in example catalog.
func loadCatalog(o *options) (*catalogFile, error) {
	if o.catalog != "" {
		src, err := os.ReadFile(o.catalog)
		if err != nil {
			return nil, fmt.Errorf("catalog: %w", err)
		}
		c, err := catalog.LoadFile(o.catalog)
		if err != nil {
			return nil, err
		}
		return &catalogFile{cat: c, src: src, path: o.catalog}, nil
	}
	cf := &catalogFile{src: examples.CatalogYAML}
	if o.zk == "" {
		dir := o.store
		if dir == "" {
			dir, _ = defaultStoreDir()
		}
		if dir != "" {
			cf.path = filepath.Join(dir, storeCatalogName)
			if src, err := os.ReadFile(cf.path); err == nil {
				c, err := catalog.LoadFile(cf.path)
				if err != nil {
					return nil, err
				}
				cf.cat, cf.src = c, src
				return cf, nil
			} else if !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("catalog: %w", err)
			}
		}
	}
	c, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		return nil, fmt.Errorf("built-in example catalog: %w", err)
	}
	cf.cat = c
	return cf, nil
}
