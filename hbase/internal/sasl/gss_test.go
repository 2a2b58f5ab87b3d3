package sasl

import (
	"bytes"
	"crypto/rand"
	"testing"

	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/types"
)

func testKey(t *testing.T, etype int32, size int) types.EncryptionKey {
	t.Helper()
	k := make([]byte, size)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return types.EncryptionKey{KeyType: etype, KeyValue: k}
}

// TestWrapAgainstGokrb5 checks integrity Wrap tokens both ways against
// gokrb5's own RFC 4121 implementation.
func TestWrapAgainstGokrb5(t *testing.T) {
	for _, et := range []struct {
		name string
		id   int32
		size int
	}{{"aes128-cts-hmac-sha1-96", 17, 16}, {"aes256-cts-hmac-sha1-96", 18, 32}} {
		t.Run(et.name, func(t *testing.T) {
			key := testKey(t, et.id, et.size)
			sc := &secContext{key: key, sendSeq: 7}
			msg := []byte("the security layer offer")

			// Ours to theirs: gokrb5 parses and verifies our token.
			tok, err := sc.wrap(msg, false)
			if err != nil {
				t.Fatal(err)
			}
			var theirs gssapi.WrapToken
			if err := theirs.Unmarshal(tok, false); err != nil {
				t.Fatalf("gokrb5 cannot parse our token: %v", err)
			}
			if ok, err := theirs.Verify(key, keyusage.GSSAPI_INITIATOR_SEAL); !ok {
				t.Fatalf("gokrb5 rejects our checksum: %v", err)
			}
			if !bytes.Equal(theirs.Payload, msg) || theirs.SndSeqNum != 7 {
				t.Errorf("gokrb5 read payload %q seq %d", theirs.Payload, theirs.SndSeqNum)
			}

			// Theirs to ours: an acceptor token made by gokrb5.
			acc := gssapi.WrapToken{Flags: flagSentByAcceptor, EC: 12, SndSeqNum: 42, Payload: msg}
			if err := acc.SetCheckSum(key, keyusage.GSSAPI_ACCEPTOR_SEAL); err != nil {
				t.Fatal(err)
			}
			b, err := acc.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			got, sealed, err := sc.unwrap(b)
			if err != nil || sealed || !bytes.Equal(got, msg) {
				t.Fatalf("unwrap: %q sealed=%v err=%v", got, sealed, err)
			}
			// A flipped bit fails the checksum.
			b[len(b)-13] ^= 1
			if _, _, err := sc.unwrap(b); err == nil {
				t.Error("a tampered token was accepted")
			}
		})
	}
}

// acceptorSeal makes a sealed token as the server would, rotated by rrc:
// the mirror image of wrap with the acceptor's flag and key usage.
func acceptorSeal(t *testing.T, key types.EncryptionKey, msg []byte, rrc int) []byte {
	t.Helper()
	sc := &secContext{key: key}
	tok, err := sc.wrap(msg, true)
	if err != nil {
		t.Fatal(err)
	}
	// Re-seal with the acceptor's flag and usage.
	hdr := append([]byte(nil), tok[:wrapHeaderLen]...)
	hdr[2] |= flagSentByAcceptor
	plain := append(append([]byte(nil), msg...), hdr...)
	et, err := crypto.GetEtype(key.KeyType)
	if err != nil {
		t.Fatal(err)
	}
	_, ct, err := et.EncryptMessage(key.KeyValue, plain, keyusage.GSSAPI_ACCEPTOR_SEAL)
	if err != nil {
		t.Fatal(err)
	}
	if rrc > 0 {
		ct = append(append([]byte(nil), ct[len(ct)-rrc:]...), ct[:len(ct)-rrc]...)
		hdr[6], hdr[7] = byte(rrc>>8), byte(rrc)
	}
	return append(hdr, ct...)
}

func TestUnwrapSealedRotated(t *testing.T) {
	key := testKey(t, 18, 32)
	sc := &secContext{key: key}
	msg := []byte("a response frame with cells")
	for _, rrc := range []int{0, 12, 28} {
		got, sealed, err := sc.unwrap(acceptorSeal(t, key, msg, rrc))
		if err != nil || !sealed || !bytes.Equal(got, msg) {
			t.Errorf("rrc %d: %q sealed=%v err=%v", rrc, got, sealed, err)
		}
	}
	tok := acceptorSeal(t, key, msg, 0)
	tok[len(tok)-1] ^= 1
	if _, _, err := sc.unwrap(tok); err == nil {
		t.Error("a tampered sealed token was accepted")
	}
	// Our own sealed token does not carry the plain text.
	mine, err := sc.wrap(msg, true)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(mine, msg) {
		t.Error("sealed token holds the plain text")
	}
}

func TestFrameToken(t *testing.T) {
	for _, n := range []int{0, 10, 127, 128, 300, 70000} {
		inner := bytes.Repeat([]byte{0xab}, n)
		id, got, err := unframeToken(frameToken(tokAPReq, inner))
		if err != nil || !bytes.Equal(id, tokAPReq) || !bytes.Equal(got, inner) {
			t.Errorf("%d bytes: id %x, %d bytes back, err %v", n, id, len(got), err)
		}
	}
	for _, bad := range [][]byte{nil, {0x60}, {0x60, 0x05, 1, 2}, {0x61, 0}, {0x60, 0x84, 0xff, 0xff, 0xff, 0xff}} {
		if _, _, err := unframeToken(bad); err == nil {
			t.Errorf("%x accepted", bad)
		}
	}
}
