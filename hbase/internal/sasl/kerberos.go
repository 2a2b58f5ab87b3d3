package sasl

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/types"
)

// QOP is a SASL security layer; the values are the bits of RFC 4752's
// security-layer octet.
type QOP byte

// Security layers, weakest first.
const (
	Authentication QOP = 1
	Integrity      QOP = 2
	Privacy        QOP = 4
)

func (q QOP) String() string {
	switch q {
	case Authentication:
		return "authentication"
	case Integrity:
		return "integrity"
	case Privacy:
		return "privacy"
	}
	return fmt.Sprintf("qop(%d)", byte(q))
}

// Config says how to log in.
type Config struct {
	// Principal and Keytab log in with a keytab; without Keytab the
	// ticket cache CCache is used.
	Principal, Keytab string
	// CCache is the ticket cache path; "FILE:" is stripped. Default
	// $KRB5CCNAME, else /tmp/krb5cc_<uid>.
	CCache string
	// Krb5Conf is the krb5.conf path. Default $KRB5_CONFIG, else
	// /etc/krb5.conf.
	Krb5Conf string
	// Protection is the layers the client accepts, preferred first.
	Protection []QOP
}

// Login is a Kerberos identity, logged in on first use. It is safe for
// concurrent use.
type Login struct {
	cfg Config

	mu struct {
		sync.Mutex
		cl        *client.Client
		principal string // user@REALM
		err       error
	}
}

// NewLogin returns a Login that logs in when first needed.
func NewLogin(cfg Config) *Login {
	if len(cfg.Protection) == 0 {
		cfg.Protection = []QOP{Authentication}
	}
	return &Login{cfg: cfg}
}

// Close ends the login: gokrb5 stops renewing its tickets.
func (l *Login) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mu.cl != nil {
		l.mu.cl.Destroy()
		l.mu.cl = nil
	}
}

// Principal is the logged-in principal, "user@REALM", or the configured
// one before login.
func (l *Login) Principal() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mu.principal != "" {
		return l.mu.principal
	}
	return l.cfg.Principal
}

// client logs in once; a failed login is tried again on the next call.
func (l *Login) client() (*client.Client, string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mu.cl != nil {
		return l.mu.cl, l.mu.principal, nil
	}
	cl, princ, err := l.login()
	if err != nil {
		return nil, "", err
	}
	l.mu.cl, l.mu.principal = cl, princ
	return cl, princ, nil
}

func (l *Login) login() (*client.Client, string, error) {
	confPath := l.cfg.Krb5Conf
	if confPath == "" {
		confPath = os.Getenv("KRB5_CONFIG")
	}
	if confPath == "" {
		confPath = "/etc/krb5.conf"
	}
	kconf, err := config.Load(confPath)
	if err != nil {
		return nil, "", fmt.Errorf("cannot read kerberos configuration %s (set KRB5_CONFIG): %s", confPath, firstLine(err))
	}
	if l.cfg.Keytab != "" {
		return l.keytabLogin(kconf)
	}
	return l.cacheLogin(kconf)
}

func (l *Login) keytabLogin(kconf *config.Config) (*client.Client, string, error) {
	kt, err := keytab.Load(l.cfg.Keytab)
	if err != nil {
		return nil, "", fmt.Errorf("cannot read keytab %s: %w", l.cfg.Keytab, err)
	}
	user, realm, _ := strings.Cut(l.cfg.Principal, "@")
	if realm == "" {
		realm = kconf.LibDefaults.DefaultRealm
	}
	princ := user + "@" + realm
	cl := client.NewWithKeytab(user, realm, kt, kconf, client.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		return nil, "", loginError(err, princ, l.cfg.Keytab)
	}
	return cl, princ, nil
}

func (l *Login) cacheLogin(kconf *config.Config) (*client.Client, string, error) {
	path := l.cfg.CCache
	if path == "" {
		path = os.Getenv("KRB5CCNAME")
	}
	if path == "" {
		path = fmt.Sprintf("/tmp/krb5cc_%d", os.Getuid())
	}
	path = strings.TrimPrefix(path, "FILE:")
	if strings.Contains(path, ":") && !strings.HasPrefix(path, "/") {
		return nil, "", fmt.Errorf("ticket cache %s: only FILE: caches are read; run kinit -c FILE:/path or pass --keytab", path)
	}
	cc, err := credentials.LoadCCache(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", fmt.Errorf("no kerberos ticket (no ticket cache at %s): run kinit or pass --keytab", path)
	}
	if err != nil {
		return nil, "", fmt.Errorf("cannot read ticket cache %s: %s: run kinit or pass --keytab", path, firstLine(err))
	}
	realm := cc.DefaultPrincipal.Realm
	princ := strings.Join(cc.DefaultPrincipal.PrincipalName.NameString, "/") + "@" + realm
	if l.cfg.Principal != "" && l.cfg.Principal != princ && l.cfg.Principal+"@"+realm != princ {
		return nil, "", fmt.Errorf("ticket cache %s holds %s, not %s: run kinit %s or pass --keytab", path, princ, l.cfg.Principal, l.cfg.Principal)
	}
	tgt, ok := cc.GetEntry(types.PrincipalName{NameType: nametype.KRB_NT_SRV_INST, NameString: []string{"krbtgt", realm}})
	if !ok {
		return nil, "", fmt.Errorf("no kerberos ticket for %s in %s: run kinit or pass --keytab", princ, path)
	}
	if !tgt.EndTime.IsZero() && time.Now().After(tgt.EndTime) {
		return nil, "", fmt.Errorf("the kerberos ticket for %s in %s expired at %s: run kinit or pass --keytab", princ, path, tgt.EndTime.Local().Format(time.DateTime))
	}
	cl, err := client.NewFromCCache(cc, kconf, client.DisablePAFXFAST(true))
	if err != nil {
		return nil, "", fmt.Errorf("ticket cache %s: %s: run kinit or pass --keytab", path, firstLine(err))
	}
	return cl, princ, nil
}

// loginError says why a keytab login failed and what to do.
func loginError(err error, princ, kt string) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "KDC_ERR_C_PRINCIPAL_UNKNOWN"):
		return fmt.Errorf("the KDC does not know the principal %s: check --principal", princ)
	case strings.Contains(msg, "KDC_ERR_PREAUTH_FAILED"), strings.Contains(msg, "KRB_AP_ERR_BAD_INTEGRITY"),
		strings.Contains(msg, "Decrypting_Error"), strings.Contains(msg, "checksum"):
		return fmt.Errorf("the keytab %s does not hold the current key of %s (wrong keytab, or the password changed since): get a new keytab", kt, princ)
	case strings.Contains(msg, "matching key not found"), strings.Contains(msg, "could not get key"):
		return fmt.Errorf("the keytab %s has no key for %s: check --principal, or list it with klist -kt", kt, princ)
	case strings.Contains(msg, "KRB_AP_ERR_SKEW"):
		return errors.New("the clocks of this host and the KDC differ by more than the allowed skew: synchronise the clock (NTP)")
	case strings.Contains(msg, "Networking_Error"):
		return fmt.Errorf("cannot reach the KDC for %s: check the [realms] section of krb5.conf: %s", princ, lastPart(msg))
	}
	return fmt.Errorf("kerberos login as %s failed: %s", princ, lastPart(msg))
}

// firstLine keeps an error to one line.
func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// lastPart is the most specific part of a gokrb5 error chain.
func lastPart(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if i := strings.LastIndex(s, " < "); i >= 0 {
		s = s[i+3:]
	}
	return strings.TrimSpace(s)
}

// Authenticator authenticates connections to servers of one role with
// SASL GSSAPI. It implements the wire layer's Authenticator.
type Authenticator struct {
	Login *Login
	// Principal is the servers' principal; _HOST stands for the server's
	// host name.
	Principal string
	// Setting names where Principal came from, for messages.
	Setting string
}

// Method is the preamble byte of KERBEROS authentication.
func (a *Authenticator) Method() byte { return 0x51 }

// User is the effective user: the logged-in principal.
func (a *Authenticator) User() string { return a.Login.Principal() }

// ServicePrincipal expands _HOST in the principal for the server at addr
// the way HBase's Java client does: the host's canonical name, lowercase.
func ServicePrincipal(pattern, addr string) string {
	if !strings.Contains(pattern, "_HOST") {
		return pattern
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if ip := net.ParseIP(host); ip != nil {
		if names, err := net.LookupAddr(host); err == nil && len(names) > 0 {
			host = names[0]
		}
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return strings.ReplaceAll(pattern, "_HOST", host)
}

// Handshake runs SASL GSSAPI on nc (after the preamble) and returns the
// connection to go on with.
func (a *Authenticator) Handshake(ctx context.Context, nc net.Conn, addr string) (net.Conn, error) {
	cl, princ, err := a.Login.client()
	if err != nil {
		return nil, err
	}
	spn := ServicePrincipal(a.Principal, addr)
	svc, realm, _ := strings.Cut(spn, "@")
	if realm == "" {
		realm = cl.Credentials.Domain()
		spn = svc + "@" + realm
	}
	tkt, key, err := cl.GetServiceTicket(svc)
	if err != nil {
		return nil, ticketError(err, spn, a.Principal, a.Setting)
	}
	h := &handshake{nc: nc, login: a.Login, spn: spn}
	sc, qop, err := h.run(cl, princ, tkt, key)
	if err != nil {
		return nil, err
	}
	if qop == Authentication {
		return nc, nil
	}
	return newLayerConn(nc, sc, qop == Privacy), nil
}

func ticketError(err error, spn, pattern, setting string) error {
	msg := err.Error()
	from := ""
	if setting != "" {
		from = fmt.Sprintf(" (from %s=%s)", setting, pattern)
	}
	switch {
	case strings.Contains(msg, "KDC_ERR_S_PRINCIPAL_UNKNOWN"):
		return fmt.Errorf("the KDC does not know the server principal %s%s: check the setting", spn, from)
	case strings.Contains(msg, "KRB_AP_ERR_SKEW"):
		return errors.New("the clocks of this host and the KDC differ by more than the allowed skew: synchronise the clock (NTP)")
	case strings.Contains(msg, "KRB_AP_ERR_TKT_EXPIRED"), strings.Contains(msg, "TGT") && strings.Contains(msg, "expired"):
		return errors.New("the kerberos ticket expired: run kinit or pass --keytab")
	}
	return fmt.Errorf("cannot get a service ticket for %s%s: %s", spn, from, lastPart(msg))
}
