package sasl

import (
	"bytes"
	"crypto/hmac"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/types"
)

// krb5OID is the Kerberos V5 GSS-API mechanism, 1.2.840.113554.1.2.2,
// DER-encoded with its tag and length.
var krb5OID = []byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02}

// Token ids of the Kerberos mechanism's context tokens (RFC 1964 §1.1).
var (
	tokAPReq    = []byte{0x01, 0x00}
	tokAPRep    = []byte{0x02, 0x00}
	tokKRBError = []byte{0x03, 0x00}
)

// GSS checksum flags carried in the authenticator (RFC 4121 §4.1.1.1).
const (
	gssMutual   = 2
	gssSequence = 8
	gssConf     = 16
	gssInteg    = 32
)

// gssChecksum is the authenticator checksum of type 0x8003: the length of
// the (empty) channel bindings hash, the hash, and the context flags.
func gssChecksum(flags uint32) []byte {
	b := make([]byte, 24)
	binary.LittleEndian.PutUint32(b[0:4], 16)
	binary.LittleEndian.PutUint32(b[20:24], flags)
	return b
}

// frameToken wraps a mechanism token in the GSS-API InitialContextToken
// framing: [APPLICATION 0] { mech OID, token id, inner token }.
func frameToken(tokID, inner []byte) []byte {
	body := make([]byte, 0, len(krb5OID)+len(tokID)+len(inner))
	body = append(body, krb5OID...)
	body = append(body, tokID...)
	body = append(body, inner...)
	out := []byte{0x60}
	out = appendDERLength(out, len(body))
	return append(out, body...)
}

func appendDERLength(b []byte, n int) []byte {
	if n < 0x80 {
		return append(b, byte(n))
	}
	var tmp []byte
	for v := n; v > 0; v >>= 8 {
		tmp = append([]byte{byte(v)}, tmp...)
	}
	b = append(b, 0x80|byte(len(tmp)))
	return append(b, tmp...)
}

// unframeToken undoes frameToken and returns the token id and inner token.
func unframeToken(b []byte) (tokID, inner []byte, err error) {
	if len(b) < 2 || b[0] != 0x60 {
		return nil, nil, errors.New("not a gss-api token")
	}
	n, rest, err := readDERLength(b[1:])
	if err != nil {
		return nil, nil, err
	}
	if n != len(rest) {
		return nil, nil, errors.New("gss-api token length does not match")
	}
	if !bytes.HasPrefix(rest, krb5OID) {
		return nil, nil, errors.New("gss-api token is not for the kerberos mechanism")
	}
	rest = rest[len(krb5OID):]
	if len(rest) < 2 {
		return nil, nil, errors.New("gss-api token too short")
	}
	return rest[:2], rest[2:], nil
}

func readDERLength(b []byte) (int, []byte, error) {
	if len(b) == 0 {
		return 0, nil, errors.New("gss-api token too short")
	}
	if b[0] < 0x80 {
		return int(b[0]), b[1:], nil
	}
	k := int(b[0] & 0x7f)
	if k == 0 || k > 4 || len(b) < 1+k {
		return 0, nil, errors.New("bad der length in gss-api token")
	}
	n := 0
	for _, c := range b[1 : 1+k] {
		n = n<<8 | int(c)
	}
	return n, b[1+k:], nil
}

// Wrap token flags (RFC 4121 §4.2.2).
const (
	flagSentByAcceptor = 0x01
	flagSealed         = 0x02
	flagAcceptorSubkey = 0x04
)

const wrapHeaderLen = 16

// secContext is an established Kerberos security context, seen from the
// initiator: the keys and sequence numbers of RFC 4121 per-message tokens.
type secContext struct {
	// key protects the tokens; acceptorSubkey says it came from the
	// server's AP-REP (and the tokens must say so).
	key            types.EncryptionKey
	acceptorSubkey bool
	sendSeq        uint64
}

// wrap makes a Wrap token (RFC 4121 §4.2.6.2) of msg, sealed (encrypted)
// when conf is set and otherwise signed.
func (c *secContext) wrap(msg []byte, conf bool) ([]byte, error) {
	et, err := crypto.GetEtype(c.key.KeyType)
	if err != nil {
		return nil, err
	}
	hdr := make([]byte, wrapHeaderLen)
	hdr[0], hdr[1], hdr[3] = 0x05, 0x04, 0xff
	if c.acceptorSubkey {
		hdr[2] |= flagAcceptorSubkey
	}
	binary.BigEndian.PutUint64(hdr[8:], c.sendSeq)
	c.sendSeq++
	if conf {
		hdr[2] |= flagSealed
		// plaintext | header, with EC = 0 filler bytes and RRC = 0.
		plain := make([]byte, 0, len(msg)+wrapHeaderLen)
		plain = append(plain, msg...)
		plain = append(plain, hdr...)
		_, ct, err := et.EncryptMessage(c.key.KeyValue, plain, keyusage.GSSAPI_INITIATOR_SEAL)
		if err != nil {
			return nil, err
		}
		return append(hdr, ct...), nil
	}
	sum, err := checksum(c.key, hdr, msg, keyusage.GSSAPI_INITIATOR_SEAL)
	if err != nil {
		return nil, err
	}
	binary.BigEndian.PutUint16(hdr[4:6], uint16(len(sum)))
	out := make([]byte, 0, wrapHeaderLen+len(msg)+len(sum))
	out = append(out, hdr...)
	out = append(out, msg...)
	return append(out, sum...), nil
}

// checksum is the checksum of an unsealed Wrap token: over the message and
// the header with EC and RRC zero, truncated to the etype's HMAC length.
func checksum(key types.EncryptionKey, hdr, msg []byte, usage uint32) ([]byte, error) {
	et, err := crypto.GetEtype(key.KeyType)
	if err != nil {
		return nil, err
	}
	h := append([]byte(nil), hdr...)
	h[4], h[5], h[6], h[7] = 0, 0, 0, 0
	data := make([]byte, 0, len(msg)+len(h))
	data = append(data, msg...)
	data = append(data, h...)
	sum, err := et.GetChecksumHash(key.KeyValue, data, usage)
	if err != nil {
		return nil, err
	}
	if n := et.GetHMACBitLength() / 8; n < len(sum) {
		sum = sum[:n]
	}
	return sum, nil
}

// unwrap checks a Wrap token from the acceptor and returns its message.
// sealed says whether it was encrypted.
func (c *secContext) unwrap(tok []byte) (msg []byte, sealed bool, err error) {
	if len(tok) < wrapHeaderLen || tok[0] != 0x05 || tok[1] != 0x04 || tok[3] != 0xff {
		return nil, false, errors.New("not a kerberos wrap token")
	}
	flags := tok[2]
	if flags&flagSentByAcceptor == 0 {
		return nil, false, errors.New("wrap token not sent by the server")
	}
	if (flags&flagAcceptorSubkey != 0) != c.acceptorSubkey {
		return nil, false, errors.New("wrap token made with an unexpected key")
	}
	hdr := tok[:wrapHeaderLen]
	ec := int(binary.BigEndian.Uint16(hdr[4:6]))
	rrc := int(binary.BigEndian.Uint16(hdr[6:8]))
	body := unrotate(tok[wrapHeaderLen:], rrc)
	if flags&flagSealed != 0 {
		plain, err := crypto.DecryptMessage(body, c.key, keyusage.GSSAPI_ACCEPTOR_SEAL)
		if err != nil {
			return nil, true, fmt.Errorf("decrypt wrap token: %w", err)
		}
		if len(plain) < ec+wrapHeaderLen {
			return nil, true, errors.New("sealed wrap token too short")
		}
		inner := plain[len(plain)-wrapHeaderLen:]
		want := append([]byte(nil), hdr...)
		want[6], want[7] = 0, 0
		if !bytes.Equal(inner, want) {
			return nil, true, errors.New("sealed wrap token header does not match")
		}
		return plain[:len(plain)-wrapHeaderLen-ec], true, nil
	}
	if ec > len(body) {
		return nil, false, errors.New("wrap token checksum overruns the token")
	}
	msg, sum := body[:len(body)-ec], body[len(body)-ec:]
	want, err := checksum(c.key, hdr, msg, keyusage.GSSAPI_ACCEPTOR_SEAL)
	if err != nil {
		return nil, false, err
	}
	if !hmac.Equal(sum, want) {
		return nil, false, errors.New("wrap token checksum does not match")
	}
	return msg, false, nil
}

// unrotate undoes the right rotation by rrc bytes of RFC 4121 §4.2.5.
func unrotate(b []byte, rrc int) []byte {
	if len(b) == 0 {
		return b
	}
	rrc %= len(b)
	if rrc == 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	out = append(out, b[rrc:]...)
	return append(out, b[:rrc]...)
}
