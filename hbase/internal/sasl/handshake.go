package sasl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/iana/chksumtype"
	"github.com/jcmturner/gokrb5/v8/iana/flags"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

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
