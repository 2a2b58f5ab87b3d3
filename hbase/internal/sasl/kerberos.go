package sasl

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/iana/chksumtype"
	"github.com/jcmturner/gokrb5/v8/iana/flags"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/messages"
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

// handshake is one run of the SASL GSSAPI exchange (RFC 4752) in HBase's
// framing: the client sends length-prefixed tokens; the server answers
// each with a status int and, on success, a length-prefixed token.
type handshake struct {
	nc    net.Conn
	login *Login
	spn   string
}

func (h *handshake) run(cl *client.Client, princ string, tkt messages.Ticket, key types.EncryptionKey) (*secContext, QOP, error) {
	et, err := crypto.GetEtype(key.KeyType)
	if err != nil {
		return nil, 0, err
	}
	auth, err := types.NewAuthenticator(cl.Credentials.Domain(), cl.Credentials.CName())
	if err != nil {
		return nil, 0, err
	}
	if err := auth.GenerateSeqNumberAndSubKey(key.KeyType, et.GetKeyByteSize()); err != nil {
		return nil, 0, err
	}
	auth.Cksum = types.Checksum{CksumType: chksumtype.GSSAPI, Checksum: gssChecksum(gssMutual | gssSequence | gssConf | gssInteg)}
	apreq, err := messages.NewAPReq(tkt, key, auth)
	if err != nil {
		return nil, 0, err
	}
	types.SetFlag(&apreq.APOptions, flags.APOptionMutualRequired)
	b, err := apreq.Marshal()
	if err != nil {
		return nil, 0, err
	}
	if err := h.send(frameToken(tokAPReq, b)); err != nil {
		return nil, 0, err
	}
	rep, err := h.recv()
	if err != nil {
		return nil, 0, err
	}
	sc, err := h.apRep(rep, key, auth)
	if err != nil {
		return nil, 0, err
	}
	// The context is established; an empty token asks for the server's
	// security-layer offer.
	if err := h.send(nil); err != nil {
		return nil, 0, err
	}
	offerTok, err := h.recv()
	if err != nil {
		return nil, 0, err
	}
	offer, _, err := sc.unwrap(offerTok)
	if err != nil {
		return nil, 0, fmt.Errorf("security layer offer from %s: %w", h.spn, err)
	}
	if len(offer) != 4 {
		return nil, 0, fmt.Errorf("security layer offer from %s has %d bytes, want 4", h.spn, len(offer))
	}
	qop, err := h.choose(QOP(offer[0]))
	if err != nil {
		return nil, 0, err
	}
	answer := []byte{byte(qop), 0xff, 0xff, 0xff}
	tok, err := sc.wrap(answer, false)
	if err != nil {
		return nil, 0, err
	}
	if err := h.send(tok); err != nil {
		return nil, 0, err
	}
	return sc, qop, nil
}

// choose picks the first acceptable layer the server offers.
func (h *handshake) choose(offered QOP) (QOP, error) {
	for _, q := range h.login.cfg.Protection {
		if offered&q != 0 {
			return q, nil
		}
	}
	var names []string
	for _, q := range []QOP{Authentication, Integrity, Privacy} {
		if offered&q != 0 {
			names = append(names, q.String())
		}
	}
	return 0, fmt.Errorf("the server accepts hbase.rpc.protection=%s only: set it in hbase-site.xml or pass --rpc-protection %s", strings.Join(names, ","), names[len(names)-1])
}

// apRep checks the server's AP-REP, which proves it holds the service
// key, and returns the context it sets up.
func (h *handshake) apRep(tok []byte, key types.EncryptionKey, auth types.Authenticator) (*secContext, error) {
	id, inner, err := unframeToken(tok)
	if err != nil {
		return nil, fmt.Errorf("reply of %s: %w", h.spn, err)
	}
	switch {
	case string(id) == string(tokKRBError):
		var ke messages.KRBError
		if err := ke.Unmarshal(inner); err != nil {
			return nil, fmt.Errorf("reply of %s: %w", h.spn, err)
		}
		return nil, fmt.Errorf("the server %s refused the ticket: %s", h.spn, lastPart(ke.Error()))
	case string(id) != string(tokAPRep):
		return nil, fmt.Errorf("reply of %s is not an AP-REP", h.spn)
	}
	var rep messages.APRep
	if err := rep.Unmarshal(inner); err != nil {
		return nil, fmt.Errorf("AP-REP of %s: %w", h.spn, err)
	}
	plain, err := crypto.DecryptEncPart(rep.EncPart, key, keyusage.AP_REP_ENCPART)
	if err != nil {
		return nil, fmt.Errorf("the server does not hold the key of %s (wrong service principal or keytab on the server): %s", h.spn, firstLine(err))
	}
	var part messages.EncAPRepPart
	if err := part.Unmarshal(plain); err != nil {
		return nil, fmt.Errorf("AP-REP of %s: %w", h.spn, err)
	}
	if !part.CTime.Equal(auth.CTime.Truncate(time.Second)) || part.Cusec != auth.Cusec {
		return nil, fmt.Errorf("the AP-REP of %s does not answer this request", h.spn)
	}
	sc := &secContext{key: auth.SubKey, sendSeq: uint64(auth.SeqNumber)}
	if len(part.Subkey.KeyValue) > 0 {
		sc.key, sc.acceptorSubkey = part.Subkey, true
	}
	return sc, nil
}

// send writes one length-prefixed token.
func (h *handshake) send(tok []byte) error {
	b := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(tok)), uint32(len(tok)))
	_, err := h.nc.Write(append(b, tok...))
	return err
}

// switchToSimple is the length the server sends in place of a token when
// it does not use SASL at all.
const switchToSimple = -88

// saslSuccess and saslError are the statuses of a server reply.
const (
	saslSuccess = 0
	saslError   = 1
)

// maxToken bounds a handshake token.
const maxToken = 1 << 20

// recv reads one reply: status, then a token or an error.
func (h *handshake) recv() ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(h.nc, hdr[:]); err != nil {
		return nil, fmt.Errorf("the server closed the connection during the handshake (%v)", err)
	}
	switch int32(binary.BigEndian.Uint32(hdr[:])) {
	case saslSuccess:
	case saslError:
		class, _ := readString(h.nc)
		msg, _ := readString(h.nc)
		return nil, serverError(class, msg, h.spn)
	default:
		return nil, errors.New("the server's handshake reply is malformed")
	}
	if _, err := io.ReadFull(h.nc, hdr[:]); err != nil {
		return nil, err
	}
	n := int32(binary.BigEndian.Uint32(hdr[:]))
	if n == switchToSimple {
		return nil, errors.New("the server does not use kerberos (it asked for SIMPLE authentication): leave out --keytab and set hbase.security.authentication=simple")
	}
	if n < 0 || n > maxToken {
		return nil, fmt.Errorf("the server's handshake token of %d bytes is malformed", n)
	}
	tok := make([]byte, n)
	if _, err := io.ReadFull(h.nc, tok); err != nil {
		return nil, err
	}
	return tok, nil
}

// readString reads Hadoop's WritableUtils string: an int length (-1 for
// null), then UTF-8 bytes.
func readString(r io.Reader) (string, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return "", err
	}
	n := int32(binary.BigEndian.Uint32(hdr[:]))
	if n < 0 {
		return "", nil
	}
	if n > maxToken {
		return "", errors.New("string too long")
	}
	b := make([]byte, n)
	_, err := io.ReadFull(r, b)
	return string(b), err
}

func serverError(class, msg, spn string) error {
	short := class[strings.LastIndexByte(class, '.')+1:]
	msg = strings.ReplaceAll(strings.TrimSpace(msg), "\n", " ")
	switch {
	case strings.Contains(msg, "Clock skew"), strings.Contains(msg, "clock skew"):
		return fmt.Errorf("the server %s rejected the ticket for clock skew: synchronise this host's clock (NTP): %s", spn, msg)
	case strings.Contains(msg, "Checksum failed"), strings.Contains(msg, "cannot find key"), strings.Contains(msg, "Cannot find key"):
		return fmt.Errorf("the server cannot decrypt the ticket for %s: its keytab does not match the KDC, or %s is not its principal: %s", spn, spn, msg)
	}
	if short == "" {
		return fmt.Errorf("the server refused authentication: %s", msg)
	}
	return fmt.Errorf("the server refused authentication: %s: %s", short, msg)
}
