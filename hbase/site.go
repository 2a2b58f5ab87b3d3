package hbase

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Property names read from hbase-site.xml and core-site.xml. Names that
// start with "rkql." have no HBase counterpart; they only come from
// rkql's own flags and environment.
const (
	PropQuorum          = "hbase.zookeeper.quorum"
	PropZKClientPort    = "hbase.zookeeper.property.clientPort"
	PropZNodeParent     = "zookeeper.znode.parent"
	PropAuthentication  = "hbase.security.authentication"
	PropMasterPrincipal = "hbase.master.kerberos.principal"
	PropRSPrincipal     = "hbase.regionserver.kerberos.principal"
	PropRPCProtection   = "hbase.rpc.protection"
	PropClientKeytab    = "hbase.client.keytab.file"
	PropClientPrincipal = "hbase.client.keytab.principal"
	PropTLSEnabled      = "hbase.client.netty.tls.enabled"
	PropTLSVerifyHost   = "hbase.client.netty.tls.verify.server.hostname"
	PropTrustStore      = "hbase.rpc.tls.truststore.location"
	PropTrustStoreType  = "hbase.rpc.tls.truststore.type"
	PropKeyStore        = "hbase.rpc.tls.keystore.location"
	PropKeyStoreType    = "hbase.rpc.tls.keystore.type"
	PropUser            = "rkql.user"
	PropTLSKey          = "rkql.tls.key"
	PropTLSInsecure     = "rkql.tls.insecure"
	PropTicketCache     = "rkql.kerberos.ccache"
	PropKrb5Conf        = "rkql.kerberos.krb5conf"
)

// connProps are the properties that shape a connection, the ones
// Site.Settings lists.
var connProps = []string{
	PropQuorum, PropZKClientPort, PropZNodeParent, PropUser, PropAuthentication,
	PropClientPrincipal, PropClientKeytab, PropTicketCache, PropKrb5Conf,
	PropMasterPrincipal, PropRSPrincipal, PropRPCProtection,
	PropTLSEnabled, PropTrustStore, PropTrustStoreType, PropKeyStore, PropKeyStoreType,
	PropTLSKey, PropTLSVerifyHost, PropTLSInsecure,
}

// Setting is one connection setting and where its value came from: a
// file ("/etc/hbase/conf/hbase-site.xml"), a flag ("flag --zk"), the
// environment ("env KRB5CCNAME") or "default".
type Setting struct {
	Name, Value, Source string
}

// Site is a set of Hadoop-style properties, each with its source. Later
// Sets override earlier ones, so files are read first and flags set last.
// The zero value is empty and ready to use.
type Site struct {
	props map[string]Setting
}

// siteFiles are read in this order; a later file overrides an earlier one.
var siteFiles = []string{"core-site.xml", "hbase-site.xml"}

// LoadSite reads core-site.xml and hbase-site.xml from dir. A missing file
// is skipped; a directory with neither is an error, as is a malformed
// file.
func LoadSite(dir string) (*Site, error) {
	s := &Site{}
	found := 0
	for _, name := range siteFiles {
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("hbase: read %s: %w", path, err)
		}
		found++
		if err := s.parse(b, path); err != nil {
			return nil, err
		}
	}
	if found == 0 {
		return nil, fmt.Errorf("hbase: no hbase-site.xml or core-site.xml in %s", dir)
	}
	return s, nil
}

type xmlConfig struct {
	Properties []struct {
		Name  string `xml:"name"`
		Value string `xml:"value"`
	} `xml:"property"`
}

func (s *Site) parse(b []byte, path string) error {
	var c xmlConfig
	if err := xml.Unmarshal(b, &c); err != nil {
		return fmt.Errorf("hbase: parse %s: %w", path, err)
	}
	for _, p := range c.Properties {
		name := strings.TrimSpace(p.Name)
		if name != "" {
			s.Set(name, strings.TrimSpace(p.Value), path)
		}
	}
	return nil
}

// Set sets a property, overriding any earlier value.
func (s *Site) Set(name, value, source string) {
	if s.props == nil {
		s.props = make(map[string]Setting)
	}
	s.props[name] = Setting{Name: name, Value: value, Source: source}
}

// Get returns a property's value and whether it is set.
func (s *Site) Get(name string) (string, bool) {
	p, ok := s.props[name]
	return p.Value, ok
}

func (s *Site) get(name string) string { return s.props[name].Value }

func (s *Site) bool(name string) (bool, error) {
	v, ok := s.props[name]
	if !ok || v.Value == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v.Value)
	if err != nil {
		return false, fmt.Errorf("hbase: %s=%q (from %s) is not true or false", name, v.Value, v.Source)
	}
	return b, nil
}

// Settings lists the connection settings, in a fixed order, each with its
// value and source. Settings not given anywhere are left out, except
// those whose default Config fills in, which are listed with source
// "default".
func (s *Site) Settings() []Setting {
	defaults := map[string]string{
		PropQuorum: "127.0.0.1", PropZKClientPort: "2181", PropZNodeParent: "/hbase",
		PropAuthentication: "simple",
	}
	if strings.EqualFold(s.get(PropAuthentication), "kerberos") {
		defaults[PropRPCProtection] = "authentication"
	}
	var out []Setting
	seen := map[string]bool{}
	for _, name := range connProps {
		seen[name] = true
		if p, ok := s.props[name]; ok {
			out = append(out, p)
		} else if d, ok := defaults[name]; ok {
			out = append(out, Setting{Name: name, Value: d, Source: "default"})
		}
	}
	// Other rkql and TLS properties that were set, sorted.
	var rest []string
	for name := range s.props {
		if !seen[name] && (strings.HasPrefix(name, "hbase.rpc.tls.") || strings.HasPrefix(name, "hbase.client.netty.tls.")) {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	for _, name := range rest {
		out = append(out, s.props[name])
	}
	for i := range out {
		if strings.HasSuffix(out[i].Name, ".password") && out[i].Value != "" {
			out[i].Value = "(set)"
		}
	}
	return out
}

// Clone returns a copy of s, which Set on one does not change in the
// other.
func (s *Site) Clone() *Site {
	c := &Site{props: make(map[string]Setting, len(s.props))}
	for k, v := range s.props {
		c.props[k] = v
	}
	return c
}

// Quorum is hbase.zookeeper.quorum with hbase.zookeeper.property.clientPort
// added to each host that has no port, as HBase does.
func (s *Site) Quorum() string {
	q := s.get(PropQuorum)
	if q == "" {
		return ""
	}
	port := s.get(PropZKClientPort)
	if port == "" {
		return q
	}
	var parts []string
	for _, h := range strings.Split(q, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if !strings.Contains(h, ":") || (strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]")) {
			h = h + ":" + port
		}
		parts = append(parts, h)
	}
	return strings.Join(parts, ",")
}

// Config turns the properties into a client Config. It checks values but
// reads no file other than the TLS ones it names.
func (s *Site) Config() (Config, error) {
	var cfg Config
	cfg.ZKQuorum = s.Quorum()
	cfg.ZKRoot = s.get(PropZNodeParent)
	cfg.User = s.get(PropUser)
	prot, err := ParseProtection(s.get(PropRPCProtection))
	if err != nil {
		return Config{}, err
	}
	switch auth := strings.ToLower(s.get(PropAuthentication)); auth {
	case "", "simple":
	case "kerberos":
		k, err := s.kerberos()
		if err != nil {
			return Config{}, err
		}
		k.Protection = prot
		cfg.Kerberos = k
	default:
		return Config{}, fmt.Errorf("hbase: %s=%q (from %s): want simple or kerberos", PropAuthentication, auth, s.props[PropAuthentication].Source)
	}
	tlsOn, err := s.bool(PropTLSEnabled)
	if err != nil {
		return Config{}, err
	}
	if tlsOn {
		t, err := s.tls()
		if err != nil {
			return Config{}, err
		}
		if cfg.TLS, err = t.Build(); err != nil {
			return Config{}, err
		}
	}
	return cfg, nil
}

func (s *Site) kerberos() (*Kerberos, error) {
	k := &Kerberos{
		Principal:             s.get(PropClientPrincipal),
		Keytab:                s.get(PropClientKeytab),
		CCache:                s.get(PropTicketCache),
		Krb5Conf:              s.get(PropKrb5Conf),
		MasterPrincipal:       s.get(PropMasterPrincipal),
		RegionServerPrincipal: s.get(PropRSPrincipal),
	}
	if k.Keytab != "" && k.Principal == "" {
		return nil, fmt.Errorf("hbase: a keytab (%s) needs a principal: pass --principal or set %s", k.Keytab, PropClientPrincipal)
	}
	if k.RegionServerPrincipal == "" && k.MasterPrincipal == "" {
		return nil, fmt.Errorf("hbase: kerberos needs the servers' principals: set %s (and %s) in hbase-site.xml", PropRSPrincipal, PropMasterPrincipal)
	}
	return k, nil
}

func (s *Site) tls() (TLSFiles, error) {
	t := TLSFiles{
		CAFile:   s.get(PropTrustStore),
		CertFile: s.get(PropKeyStore),
		KeyFile:  s.get(PropTLSKey),
	}
	for _, typ := range []string{PropTrustStoreType, PropKeyStoreType} {
		if v := strings.ToUpper(s.get(typ)); v != "" && v != "PEM" {
			return TLSFiles{}, fmt.Errorf("hbase: %s=%s: rkql reads PEM files only; convert with keytool -exportcert -rfc or openssl pkcs12 -nodes", typ, v)
		}
	}
	verify := true
	if _, ok := s.Get(PropTLSVerifyHost); ok {
		v, err := s.bool(PropTLSVerifyHost)
		if err != nil {
			return TLSFiles{}, err
		}
		verify = v
	}
	t.SkipHostname = !verify
	insecure, err := s.bool(PropTLSInsecure)
	if err != nil {
		return TLSFiles{}, err
	}
	t.Insecure = insecure
	return t, nil
}
