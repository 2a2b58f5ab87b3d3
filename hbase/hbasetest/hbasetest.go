package hbasetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase/zk"
)

// Environment variables read here.
const (
	EnvQuorum  = "RKQL_HBASE_ZK"
	EnvRequire = "RKQL_REQUIRE_HBASE"
	// EnvRoot optionally names the root znode (default /hbase).
	EnvRoot = "RKQL_HBASE_ZK_ROOT"
)

// DefaultQuorum is used when $RKQL_HBASE_ZK is unset.
const DefaultQuorum = "127.0.0.1:2181"

// Quorum returns the ZooKeeper quorum of a reachable HBase, or skips the
// test (fails it when $RKQL_REQUIRE_HBASE=1). Under go test -short it
// skips unless $RKQL_HBASE_ZK or $RKQL_REQUIRE_HBASE=1 asks for HBase:
// make test-short runs no HBase, even where one listens at the default.
func Quorum(t testing.TB) string {
	t.Helper()
	q := os.Getenv(EnvQuorum)
	shortSkip(t, q)
	if q == "" {
		q = DefaultQuorum
	}
	if err := probe(q, Root()); err != nil {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("HBase is required (%s=1) but not reachable at %s: %v", EnvRequire, q, err)
		}
		t.Skipf("no HBase at %s (set %s to point elsewhere): %v", q, EnvQuorum, err)
	}
	return q
}

// shortSkip skips t under -short when neither configured (the quorum
// variable's value) nor $RKQL_REQUIRE_HBASE=1 asks for HBase.
func shortSkip(t testing.TB, configured string) {
	t.Helper()
	if testing.Short() && configured == "" && os.Getenv(EnvRequire) != "1" {
		t.Skip("-short runs no HBase unless its quorum is set or RKQL_REQUIRE_HBASE=1")
	}
}

// Root returns the root znode to use: $RKQL_HBASE_ZK_ROOT or /hbase.
func Root() string {
	if r := os.Getenv(EnvRoot); r != "" {
		return r
	}
	return zk.DefaultRoot
}

// probe checks that ZooKeeper names a meta region server and a master.
func probe(quorum, root string) error {
	servers, err := zk.ParseQuorum(quorum)
	if err != nil {
		return err
	}
	// A plain dial first: it fails fast where ZooKeeper is absent.
	var dialErr error
	for _, s := range servers {
		c, err := net.DialTimeout("tcp", s, time.Second)
		if err == nil {
			c.Close()
			dialErr = nil
			break
		}
		dialErr = err
	}
	if dialErr != nil {
		return dialErr
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l := zk.Locator{Quorum: servers, Root: root}
	meta, err := l.Meta(ctx)
	if err != nil {
		return err
	}
	master, err := l.Master(ctx)
	if err != nil {
		return err
	}
	// ZooKeeper may name servers that are gone: check that they listen.
	for _, addr := range []string{meta, master} {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			return err
		}
		c.Close()
	}
	return nil
}

// TableName returns "<prefix>_<random hex>", unique per call.
func TableName(prefix string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	prefix = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, prefix)
	return prefix + "_" + hex.EncodeToString(b[:])
}

// CoprocessorMissing reports whether err is a table create the master
// refused because the region servers cannot load a coprocessor class the
// table names (scripts/hbase/pom.xml puts hbase-endpoint on their
// classpath; an HBase started from an older pom lacks it).
func CoprocessorMissing(err error) bool {
	return err != nil && strings.Contains(err.Error(), "cannot be loaded")
}

// NoCoprocessor ends a test that needs a coprocessor the HBase under test
// cannot load: it fails under $RKQL_REQUIRE_HBASE=1 and is skipped
// otherwise, saying so either way, so that it never passes without
// having run.
func NoCoprocessor(t testing.TB, class string, err error) {
	t.Helper()
	msg := "the HBase under test cannot load the coprocessor " + class +
		" (start it with scripts/hbase/up, whose pom.xml brings hbase-endpoint): " + err.Error()
	if os.Getenv(EnvRequire) == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// EnvMultiQuorum names the ZooKeeper quorum of an HBase with several
// region servers (scripts/hbase/up with RKQL_HBASE_REGIONSERVERS).
const EnvMultiQuorum = "RKQL_HBASE_MULTI_ZK"

// MultiQuorum returns $RKQL_HBASE_MULTI_ZK once it has checked that HBase
// answers there. The test is skipped when the variable is unset (it fails
// instead under RKQL_REQUIRE_HBASE=1, as make test starts that HBase), and
// fails when it is set and HBase does not answer.
func MultiQuorum(t testing.TB) string {
	t.Helper()
	q := os.Getenv(EnvMultiQuorum)
	if q == "" {
		msg := fmt.Sprintf("no multi-server HBase (set %s, e.g. after RKQL_HBASE_REGIONSERVERS=4 scripts/hbase/up)", EnvMultiQuorum)
		if os.Getenv(EnvRequire) == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if err := probe(q, Root()); err != nil {
		t.Fatalf("%s=%s but HBase is not reachable there: %v", EnvMultiQuorum, q, err)
	}
	return q
}
