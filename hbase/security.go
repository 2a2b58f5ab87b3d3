package hbase

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/rkql/rkql/hbase/internal/rpc"
	"github.com/rkql/rkql/hbase/internal/sasl"
)

// Kerberos configures SASL GSSAPI authentication on every RPC connection.
// The zero value of each field means its default.
type Kerberos struct {
	// Principal and Keytab log in with a keytab. Without a keytab the
	// client uses the ticket cache.
	Principal string
	Keytab    string
	// CCache is the ticket cache file. Default $KRB5CCNAME, else
	// /tmp/krb5cc_<uid>.
	CCache string
	// Krb5Conf is the Kerberos configuration file. Default $KRB5_CONFIG,
	// else /etc/krb5.conf.
	Krb5Conf string
	// MasterPrincipal and RegionServerPrincipal are the servers'
	// principals, e.g. "hbase/_HOST@EXAMPLE.COM"; _HOST stands for the
	// server's host name. Each defaults to the other.
	MasterPrincipal       string
	RegionServerPrincipal string
	// Protection lists the SASL protections the client accepts, in order
	// of preference: "authentication", "integrity", "privacy". Default
	// authentication only.
	Protection []string
}

// Protection names, as hbase.rpc.protection spells them.
const (
	ProtAuthentication = "authentication"
	ProtIntegrity      = "integrity"
	ProtPrivacy        = "privacy"
)

// ParseProtection parses hbase.rpc.protection: a comma-separated list of
// authentication, integrity and privacy (or SASL's auth, auth-int and
// auth-conf). Empty means authentication.
func ParseProtection(s string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(s, ",") {
		switch strings.ToLower(strings.TrimSpace(p)) {
		case "":
		case "authentication", "auth":
			out = append(out, ProtAuthentication)
		case "integrity", "auth-int":
			out = append(out, ProtIntegrity)
		case "privacy", "auth-conf":
			out = append(out, ProtPrivacy)
		default:
			return nil, fmt.Errorf("hbase: %s=%q: want authentication, integrity or privacy", PropRPCProtection, s)
		}
	}
	if len(out) == 0 {
		out = []string{ProtAuthentication}
	}
	return out, nil
}

// TLSFiles names the PEM files of a TLS client set-up, as HBase's
// hbase.rpc.tls.* settings do.
type TLSFiles struct {
	// CAFile holds the CA certificates that sign the servers'
	// certificates (hbase.rpc.tls.truststore.location). Empty means the
	// system's roots.
	CAFile string
	// CertFile holds the client certificate chain, and the key unless
	// KeyFile is set (hbase.rpc.tls.keystore.location). Optional.
	CertFile string
	KeyFile  string
	// SkipHostname checks the chain but not that the certificate names
	// the server (hbase.client.netty.tls.verify.server.hostname=false).
	SkipHostname bool
	// Insecure checks nothing. For tests only.
	Insecure bool
}

// Build makes the tls.Config. The server name is set per connection.
func (t TLSFiles) Build() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if t.CAFile != "" {
		b, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("hbase: tls trust store: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(b) {
			return nil, fmt.Errorf("hbase: tls trust store %s holds no PEM certificate", t.CAFile)
		}
		cfg.RootCAs = pool
	}
	if t.CertFile != "" {
		cert, err := loadKeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, err
		}
		cfg.Certificates = []tls.Certificate{cert}
	} else if t.KeyFile != "" {
		return nil, errors.New("hbase: a tls key needs its certificate: set hbase.rpc.tls.keystore.location or pass --tls-cert")
	}
	switch {
	case t.Insecure:
		cfg.InsecureSkipVerify = true
	case t.SkipHostname:
		cfg.InsecureSkipVerify = true
		roots := cfg.RootCAs
		cfg.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			return verifyChain(raw, roots)
		}
	}
	return cfg, nil
}

// verifyChain checks a peer's chain against roots without a host name.
func verifyChain(raw [][]byte, roots *x509.CertPool) error {
	if len(raw) == 0 {
		return errors.New("server sent no certificate")
	}
	certs := make([]*x509.Certificate, len(raw))
	for i, b := range raw {
		c, err := x509.ParseCertificate(b)
		if err != nil {
			return err
		}
		certs[i] = c
	}
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	_, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
	return err
}

// loadKeyPair reads a certificate chain and its key. Without keyFile the
// key is looked for in certFile, as HBase's PEM key stores hold both.
func loadKeyPair(certFile, keyFile string) (tls.Certificate, error) {
	cb, err := os.ReadFile(certFile)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("hbase: tls key store: %w", err)
	}
	kb := cb
	if keyFile != "" {
		if kb, err = os.ReadFile(keyFile); err != nil {
			return tls.Certificate{}, fmt.Errorf("hbase: tls key: %w", err)
		}
	}
	cert, err := tls.X509KeyPair(onlyBlocks(cb, "CERTIFICATE"), onlyKeys(kb))
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("hbase: tls client certificate %s: %w", certFile, err)
	}
	return cert, nil
}

func onlyBlocks(b []byte, typ string) []byte {
	var out []byte
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return out
		}
		if blk.Type == typ {
			out = append(out, pem.EncodeToMemory(blk)...)
		}
	}
}

func onlyKeys(b []byte) []byte {
	var out []byte
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return out
		}
		if strings.HasSuffix(blk.Type, "PRIVATE KEY") {
			out = append(out, pem.EncodeToMemory(blk)...)
		}
	}
}

// kerberosAuth makes the authenticators for region servers and the
// master, sharing one login, which the caller closes.
func kerberosAuth(k *Kerberos) (rs, master rpc.Authenticator, login *sasl.Login) {
	prot := make([]sasl.QOP, 0, len(k.Protection))
	for _, p := range k.Protection {
		switch p {
		case ProtIntegrity:
			prot = append(prot, sasl.Integrity)
		case ProtPrivacy:
			prot = append(prot, sasl.Privacy)
		default:
			prot = append(prot, sasl.Authentication)
		}
	}
	login = sasl.NewLogin(sasl.Config{
		Principal: k.Principal, Keytab: k.Keytab, CCache: k.CCache, Krb5Conf: k.Krb5Conf,
		Protection: prot,
	})
	rsPrinc, rsSetting := k.RegionServerPrincipal, PropRSPrincipal
	mPrinc, mSetting := k.MasterPrincipal, PropMasterPrincipal
	if rsPrinc == "" {
		rsPrinc, rsSetting = mPrinc, mSetting
	}
	if mPrinc == "" {
		mPrinc, mSetting = rsPrinc, rsSetting
	}
	return &sasl.Authenticator{Login: login, Principal: rsPrinc, Setting: rsSetting},
		&sasl.Authenticator{Login: login, Principal: mPrinc, Setting: mSetting}, login
}
