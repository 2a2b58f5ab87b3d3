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
