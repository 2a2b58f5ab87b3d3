package hbase

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeSite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func props(kv ...string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<configuration>\n")
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteString("  <property>\n    <name>" + kv[i] + "</name>\n    <value>" + kv[i+1] + "</value>\n  </property>\n")
	}
	b.WriteString("</configuration>\n")
	return b.String()
}

func TestLoadSiteKerberos(t *testing.T) {
	dir := writeSite(t, map[string]string{
		"core-site.xml": props("hadoop.security.authentication", "kerberos", PropRPCProtection, "integrity"),
		"hbase-site.xml": props(
			PropQuorum, "zk1.example.com,zk2.example.com:2222, zk3.example.com",
			PropZKClientPort, "2281",
			PropZNodeParent, "/hbase-secure",
			PropAuthentication, "Kerberos",
			PropMasterPrincipal, "hbase/_HOST@EXAMPLE.COM",
			PropRSPrincipal, "hbase/_HOST@EXAMPLE.COM",
			PropRPCProtection, "privacy",
		),
	})
	s, err := LoadSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	if want := "zk1.example.com:2281,zk2.example.com:2222,zk3.example.com:2281"; cfg.ZKQuorum != want {
		t.Errorf("quorum %q, want %q", cfg.ZKQuorum, want)
	}
	if cfg.ZKRoot != "/hbase-secure" {
		t.Errorf("root %q", cfg.ZKRoot)
	}
	if cfg.Kerberos == nil {
		t.Fatal("kerberos not set")
	}
	if got := cfg.Kerberos.Protection; !reflect.DeepEqual(got, []string{ProtPrivacy}) {
		t.Errorf("protection %v: hbase-site.xml must override core-site.xml", got)
	}
	if cfg.Kerberos.RegionServerPrincipal != "hbase/_HOST@EXAMPLE.COM" {
		t.Errorf("rs principal %q", cfg.Kerberos.RegionServerPrincipal)
	}
	// Each setting names the file it came from; a flag then overrides.
	s.Set(PropRPCProtection, "integrity", "flag --rpc-protection")
	got := map[string]Setting{}
	for _, st := range s.Settings() {
		got[st.Name] = st
	}
	if g := got[PropZNodeParent]; g.Source != filepath.Join(dir, "hbase-site.xml") {
		t.Errorf("znode parent from %q", g.Source)
	}
	if g := got[PropRPCProtection]; g.Value != "integrity" || g.Source != "flag --rpc-protection" {
		t.Errorf("protection setting %+v", g)
	}
	if _, ok := got[PropTLSEnabled]; ok {
		t.Errorf("unset TLS listed: %+v", got[PropTLSEnabled])
	}
}

func TestSiteDefaults(t *testing.T) {
	var s Site
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Kerberos != nil || cfg.TLS != nil || cfg.ZKQuorum != "" {
		t.Errorf("empty site gave %+v", cfg)
	}
	var names []string
	for _, st := range s.Settings() {
		if st.Source != "default" {
			t.Errorf("%s from %q, want default", st.Name, st.Source)
		}
		names = append(names, st.Name+"="+st.Value)
	}
	want := []string{"hbase.zookeeper.quorum=127.0.0.1", "hbase.zookeeper.property.clientPort=2181", "zookeeper.znode.parent=/hbase", "hbase.security.authentication=simple"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("defaults %v, want %v", names, want)
	}
}

func TestSiteErrors(t *testing.T) {
	for _, tc := range []struct {
		kv   []string
		want string
	}{
		{[]string{PropAuthentication, "digest"}, `hbase.security.authentication="digest"`},
		{[]string{PropAuthentication, "kerberos"}, "kerberos needs the servers' principals"},
		{[]string{PropAuthentication, "kerberos", PropRSPrincipal, "hbase/_HOST@R", PropRPCProtection, "secret"}, `hbase.rpc.protection="secret"`},
		{[]string{PropAuthentication, "kerberos", PropRSPrincipal, "hbase/_HOST@R", PropClientKeytab, "/k.keytab"}, "needs a principal"},
		{[]string{PropTLSEnabled, "yes please"}, "is not true or false"},
		{[]string{PropTLSEnabled, "true", PropTrustStore, "/t.jks", PropTrustStoreType, "jks"}, "rkql reads PEM files only"},
		{[]string{PropTLSEnabled, "true", PropTrustStore, "/nonexistent/ca.pem"}, "tls trust store"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			var s Site
			for i := 0; i < len(tc.kv); i += 2 {
				s.Set(tc.kv[i], tc.kv[i+1], "test")
			}
			_, err := s.Config()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestLoadSiteMissingAndMalformed(t *testing.T) {
	if _, err := LoadSite(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no hbase-site.xml") {
		t.Errorf("empty dir: %v", err)
	}
	dir := writeSite(t, map[string]string{"hbase-site.xml": "<configuration><property><name>x</name>"})
	if _, err := LoadSite(dir); err == nil || !strings.Contains(err.Error(), "parse") {
		t.Errorf("malformed: %v", err)
	}
}

func TestParseProtection(t *testing.T) {
	for in, want := range map[string][]string{
		"":                    {ProtAuthentication},
		"auth-conf":           {ProtPrivacy},
		"privacy, integrity":  {ProtPrivacy, ProtIntegrity},
		"AUTHENTICATION":      {ProtAuthentication},
		"auth-int,auth,extra": nil,
	} {
		got, err := ParseProtection(in)
		if want == nil {
			if err == nil {
				t.Errorf("%q: no error", in)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
}
