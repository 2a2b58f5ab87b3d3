package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rkql/rkql/hbase/hbasetest"
)

// runInProcess runs rkql's main function with args and no terminal.
func runInProcess(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

func TestConnInfoSources(t *testing.T) {
	dir := t.TempDir()
	site := `<configuration>
  <property><name>hbase.zookeeper.quorum</name><value>zk1,zk2</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value>2281</value></property>
  <property><name>hbase.security.authentication</name><value>kerberos</value></property>
  <property><name>hbase.regionserver.kerberos.principal</name><value>hbase/_HOST@EXAMPLE.COM</value></property>
  <property><name>hbase.rpc.protection</name><value>privacy</value></property>
</configuration>`
	if err := os.WriteFile(filepath.Join(dir, "hbase-site.xml"), []byte(site), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KRB5CCNAME", "/tmp/krb5cc_test")
	t.Setenv("KRB5_CONFIG", "")
	code, out, errOut := runInProcess(t, "conninfo", "--hbase-conf", dir, "--rpc-protection", "integrity", "--tls-insecure")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	siteFile := filepath.Join(dir, "hbase-site.xml")
	for _, want := range [][]string{
		{"hbase.zookeeper.quorum", "zk1,zk2", siteFile},
		{"hbase.zookeeper.property.clientPort", "2281", siteFile},
		{"zookeeper.znode.parent", "/hbase", "default"},
		{"hbase.security.authentication", "kerberos", siteFile},
		{"hbase.rpc.protection", "integrity", "flag --rpc-protection"},
		{"rkql.kerberos.ccache", "/tmp/krb5cc_test", "env KRB5CCNAME"},
		{"hbase.client.netty.tls.enabled", "true", "flag --tls-insecure"},
		{"rkql.tls.insecure", "true", "flag --tls-insecure"},
	} {
		if !hasRow(out, want) {
			t.Errorf("no row %q in:\n%s", want, out)
		}
	}
}

func hasRow(table string, fields []string) bool {
	for _, line := range strings.Split(table, "\n") {
		f := strings.Fields(line)
		if len(f) > 2 {
			f = append(f[:2], strings.Join(f[2:], " "))
		}
		if reflectEqual(f, fields) {
			return true
		}
	}
	return false
}

func reflectEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestConnConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--hbase-conf", dir, "-e", "SELECT 1;"}, "flag --hbase-conf: hbase: no hbase-site.xml or core-site.xml in " + dir},
		{[]string{"--zk", "127.0.0.1:1", "--keytab", "/nonexistent.keytab", "-e", "SELECT 1;"}, "needs a principal"},
		{[]string{"--zk", "127.0.0.1:1", "--rpc-protection", "secret", "-e", "SELECT 1;"}, "want authentication, integrity or privacy"},
		{[]string{"--zk", "127.0.0.1:1", "--tls-ca", "/nonexistent/ca.pem", "-e", "SELECT 1;"}, "tls trust store"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			code, _, errOut := runInProcess(t, tc.args...)
			if code == exitOK || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stderr %q, want %q", code, errOut, tc.want)
			}
			checkOneLine(t, errOut, tc.want)
		})
	}
}

func TestUserFlag(t *testing.T) {
	o := &options{}
	fs := flagSetFor(o)
	if err := fs.Parse([]string{"--zk", "127.0.0.1:2181", "--user", "alice"}); err != nil {
		t.Fatal(err)
	}
	if err := checkCommon(fs, o); err != nil {
		t.Fatal(err)
	}
	cfg, err := hbaseConfig(o)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.User != "alice" || cfg.ZKQuorum != "127.0.0.1:2181" || cfg.Kerberos != nil {
		t.Errorf("config %+v, want user alice on 127.0.0.1:2181 with SIMPLE auth", cfg)
	}
}

func flagSetFor(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	commonFlags(fs, o)
	return fs
}

// \connect in a script moves the session between embedded stores and a
// cluster; \conninfo follows, and the catalog stays.
func TestConnectTargets(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	script := strings.Join([]string{
		`\connect embedded ` + b,
		`\conninfo`,
		`\connect nowhere`,
		`\connect embedded ` + a,
		`\conninfo`,
		"",
	}, "\n")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--store", a, "--catalog", "testdata/catalog.yaml"}, env{stdin: strings.NewReader(script), stdout: &out, stderr: &errb})
	if code == exitOK {
		t.Fatalf("exit %d, want a failure for the unknown target", code)
	}
	for _, want := range []string{
		"You are now connected to embedded store " + b + ".\nembedded store " + b + "; catalog ",
		"You are now connected to embedded store " + a + ".\nembedded store " + a + "; catalog ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	if want := `rkql: \connect nowhere: unknown target "nowhere": want hbase QUORUM, embedded [DIR], or a quorum such as 127.0.0.1:2181` + "\n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
}

// \connect to a cluster keeps --allow-writes off: the cluster is read-only,
// and a statement runs on it; an unreachable one keeps the old store.
func TestConnectHBase(t *testing.T) {
	q := hbasetest.Quorum(t)
	script := strings.Join([]string{
		`\connect hbase ` + q,
		`\conninfo`,
		"SHOW TABLES;",
		`\connect 127.0.0.1:1`,
		`\conninfo`,
		"",
	}, "\n")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--store", t.TempDir(), "--catalog", "testdata/catalog.yaml", "--zk-root", hbasetest.Root(), "--timeout", "20s"}, env{stdin: strings.NewReader(script), stdout: &out, stderr: &errb})
	if code == exitOK {
		t.Fatalf("exit %d, want a failure for the unreachable quorum", code)
	}
	info := "HBase cluster at ZooKeeper " + q + " (root " + hbasetest.Root() + "), read-only"
	if got := strings.Count(out.String(), info+"; catalog"); got != 2 {
		t.Errorf("%d lines of %q, want 2 (the unreachable quorum keeps the cluster):\n%s", got, info, out.String())
	}
	if !strings.Contains(errb.String(), `\connect 127.0.0.1:1: `) || !strings.Contains(errb.String(), "the previous connection is kept") {
		t.Errorf("stderr:\n%s", errb.String())
	}
}
