package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rkql/rkql/catalog"
	"github.com/rkql/rkql/examples"
	"github.com/rkql/rkql/exec"
	"github.com/rkql/rkql/exec/embedded"
	hbstore "github.com/rkql/rkql/exec/hbase"
	hb "github.com/rkql/rkql/hbase"
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
		st, err := hbstore.Open(ctx, cfg)
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// Said plainly as a timeout, the error would lose where rkql
			// was connecting to, which is what the user needs to check.
			return nil, fmt.Errorf("cannot reach HBase through ZooKeeper %s: no answer before the --timeout limit", o.quorum())
		}
		return st, err
	}
	dir := o.store
	if dir == "" {
		var err error
		if dir, err = defaultStoreDir(); err != nil {
			return nil, err
		}
	}
	return embedded.Open(dir, embedded.Options{})
}

// createsOnDemand reports whether the store wants physical tables created
// on first use: the embedded one does, a real cluster does not.
func createsOnDemand(o *options) bool { return !o.usesHBase() }

// hbaseConfig is the client configuration the flags and hbase-site.xml
// give.
func hbaseConfig(o *options) (hb.Config, error) {
	site := o.conn.site
	if site == nil {
		site = &hb.Site{}
		if o.zk != "" {
			site.Set(hb.PropQuorum, o.zk, "flag --zk")
		}
		site.Set(hb.PropZNodeParent, o.zkRoot, "flag --zk-root")
	}
	cfg, err := site.Config()
	if err != nil {
		return hb.Config{}, err
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

// loadCatalog reads --catalog, or the built-in example catalog.
func loadCatalog(o *options) (*catalog.Catalog, error) {
	if o.catalog != "" {
		return catalog.LoadFile(o.catalog)
	}
	c, err := catalog.Parse(examples.CatalogYAML)
	if err != nil {
		return nil, fmt.Errorf("built-in example catalog: %w", err)
	}
	return c, nil
}
