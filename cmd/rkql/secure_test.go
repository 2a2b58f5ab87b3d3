package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rkql/rkql/hbase"

	"github.com/rkql/rkql/hbase/hbasetest"
)

// secureCatalog is a one-table catalog whose HBase table has a fresh name.
func secureCatalog(t *testing.T) (path, table string) {
	t.Helper()
	table = hbasetest.TableName("rkql_sec")
	path = writeFile(t, "catalog.yaml", fmt.Sprintf(`tables:
  - name: notes
    hbase: %s
    families:
      - {name: n}
    columns:
      - {name: id, type: STRING}
      - {name: body, type: STRING, column: "n:body"}
    rowkey:
      - {field: id}
`, table))
	return path, table
}

// TestSecureShell drives rkql against the Kerberos and TLS HBase the way a
// user would: the cluster's client hbase-site.xml, a keytab, then a ticket
// cache; a user without READ gets one line naming user, table and
// permission, and the REPL goes on.
func TestSecureShell(t *testing.T) {
	s := hbasetest.SecureHBase(t)
	t.Setenv("KRB5_CONFIG", s.Krb5Conf())
	cat, table := secureCatalog(t)
	conf := []string{"--hbase-conf", s.ClientConf(), "--catalog", cat, "--timeout", "60s"}
	admin := append(append([]string{}, conf...), "--keytab", s.Keytab(), "--principal", s.Principal)

	r := rkql(t, "", append(admin, "--allow-writes", "-e",
		"CREATE TABLE notes; INSERT INTO notes (id, body) VALUES ('a', 'kept under kerberos');")...)
	if r.code != 0 {
		t.Fatalf("create and insert: exit %d: %s", r.code, r.stderr)
	}
	t.Cleanup(func() { dropTable(t, s, table) })

	t.Run("keytab with privacy", func(t *testing.T) {
		r := rkql(t, "", append(admin, "--rpc-protection", "privacy", "-e", "SELECT body FROM notes WHERE id = 'a';")...)
		if r.code != 0 || r.stdout != "body\nkept under kerberos\n" {
			t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("ticket cache", func(t *testing.T) {
		t.Setenv("KRB5CCNAME", "FILE:"+s.WriteTicketCache(t, s.Principal, false))
		r := rkql(t, "", append(conf, "--allow-writes", "-e",
			"INSERT INTO notes (id, body) VALUES ('b', 'from the cache'); SELECT body FROM notes WHERE id = 'b';")...)
		if r.code != 0 || !strings.HasSuffix(r.stdout, "body\nfrom the cache\n") {
			t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("no ticket", func(t *testing.T) {
		t.Setenv("KRB5CCNAME", filepath.Join(t.TempDir(), "none"))
		r := rkql(t, "", append(conf, "-e", "SELECT body FROM notes WHERE id = 'a';")...)
		checkOneLine(t, r.stderr, "run kinit or pass --keytab")
	})
	t.Run("wrong CA", func(t *testing.T) {
		r := rkql(t, "", append(admin, "--tls-ca", s.OtherCA(), "-e", "SELECT body FROM notes WHERE id = 'a';")...)
		if r.code != 1 {
			t.Errorf("exit %d", r.code)
		}
		checkOneLine(t, r.stderr, "TLS handshake with region server")
		checkOneLine(t, r.stderr, "not signed by a CA in the trust store")
	})
	t.Run("permission denied, then the REPL goes on", func(t *testing.T) {
		reader := append(append([]string{}, conf...), "--keytab", s.Keytab(), "--principal", s.Reader)
		r := rkql(t, "SELECT body FROM notes WHERE id = 'a';\nSHOW TABLES;\n", reader...)
		want := fmt.Sprintf("user reader lacks READ permission on table %s", table)
		if !strings.Contains(r.stderr, want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("stderr %q, want one line with %q", r.stderr, want)
		}
		if !strings.Contains(r.stdout, "notes") {
			t.Errorf("the statement after the error did not run: stdout %q", r.stdout)
		}
	})
}

// dropTable removes a table the test created, as the superuser.
func dropTable(t *testing.T, s hbasetest.Secure, table string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := hbase.NewClient(ctx, hbase.Config{ZKQuorum: s.Quorum, Kerberos: &hbase.Kerberos{
		Principal: s.Principal, Keytab: s.Keytab(), Krb5Conf: s.Krb5Conf(), RegionServerPrincipal: s.ServerPrincipal,
	}})
	if err != nil {
		t.Errorf("cleanup of %s: %v", table, err)
		return
	}
	defer c.Close()
	if err := c.Admin().DisableTable(ctx, table); err != nil {
		t.Errorf("disable %s: %v", table, err)
	}
	if err := c.Admin().DeleteTable(ctx, table); err != nil {
		t.Errorf("delete %s: %v", table, err)
	}
}
