package hbasetest

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

// Environment variables of the secure HBase (make hbase-up-secure).
const (
	// EnvSecureQuorum is its ZooKeeper quorum; default 127.0.0.1:2183.
	EnvSecureQuorum = "RKQL_HBASE_SECURE_ZK"
	// EnvSecureDir is the directory scripts/hbase/up writes its
	// certificates, krb5.conf, keytab and client settings to; default
	// .cache/hbase/run-secure/secure in the repository.
	EnvSecureDir = "RKQL_HBASE_SECURE_DIR"
)

// Secure describes the local Kerberos and TLS HBase.
type Secure struct {
	Quorum string
	Dir    string
	// Realm is the KDC's realm, and Principal the superuser that may
	// create tables; Reader has no grants.
	Realm, Principal, Reader string
	// ServerPrincipal is the servers' principal, with _HOST.
	ServerPrincipal string
}

// Krb5Conf is the client krb5.conf path.
func (s Secure) Krb5Conf() string { return filepath.Join(s.Dir, "krb5.conf") }

// Keytab holds the keys of every principal.
func (s Secure) Keytab() string { return filepath.Join(s.Dir, "rkql.keytab") }

// CA is the CA that signed the servers' certificates; OtherCA signed
// nothing of theirs.
func (s Secure) CA() string      { return filepath.Join(s.Dir, "tls", "ca.pem") }
func (s Secure) OtherCA() string { return filepath.Join(s.Dir, "tls", "other-ca.pem") }

// ClientPEM holds a client certificate and its key, signed by CA.
func (s Secure) ClientPEM() string { return filepath.Join(s.Dir, "tls", "client.pem") }

// ClientConf is the directory with the clients' hbase-site.xml.
func (s Secure) ClientConf() string { return filepath.Join(s.Dir, "client") }

// SecureHBase returns the secure HBase, or skips the test (fails it when
// $RKQL_REQUIRE_HBASE=1); under -short, as Quorum does.
func SecureHBase(t testing.TB) Secure {
	t.Helper()
	s := Secure{Quorum: os.Getenv(EnvSecureQuorum), Dir: os.Getenv(EnvSecureDir),
		Realm: "RKQL.TEST", Principal: "rkql", Reader: "reader", ServerPrincipal: "hbase/_HOST@RKQL.TEST"}
	shortSkip(t, s.Quorum)
	if s.Quorum == "" {
		s.Quorum = "127.0.0.1:2183"
	}
	if s.Dir == "" {
		_, file, _, _ := runtime.Caller(0)
		s.Dir = filepath.Join(filepath.Dir(file), "..", "..", ".cache", "hbase", "run-secure", "secure")
	}
	err := probe(s.Quorum, Root())
	if err == nil {
		_, err = os.Stat(s.Keytab())
	}
	if err != nil {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("the secure HBase is required (%s=1) but not usable at %s with %s: %v (make hbase-up-secure)", EnvRequire, s.Quorum, s.Dir, err)
		}
		t.Skipf("no secure HBase at %s with %s (make hbase-up-secure): %v", s.Quorum, s.Dir, err)
	}
	return s
}

// WriteTicketCache logs in as principal with the keytab and writes the
// ticket-granting ticket to a new file ticket cache (MIT format 4), as
// kinit -kt would. With expired set, the cache says the ticket ended an
// hour ago.
func (s Secure) WriteTicketCache(t testing.TB, principal string, expired bool) string {
	t.Helper()
	kconf, err := config.Load(s.Krb5Conf())
	if err != nil {
		t.Fatal(err)
	}
	kt, err := keytab.Load(s.Keytab())
	if err != nil {
		t.Fatal(err)
	}
	cl := client.NewWithKeytab(principal, s.Realm, kt, kconf, client.DisablePAFXFAST(true))
	cname := types.PrincipalName{NameType: nametype.KRB_NT_PRINCIPAL, NameString: strings.Split(principal, "/")}
	req, err := messages.NewASReqForTGT(s.Realm, kconf, cname)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := cl.ASExchange(s.Realm, req, 0)
	if err != nil {
		t.Fatalf("kerberos login as %s: %v", principal, err)
	}
	tkt, err := rep.Ticket.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	part := rep.DecryptedEncPart
	end := part.EndTime
	if expired {
		end = time.Now().Add(-time.Hour)
	}
	var b []byte
	b = append(b, 5, 4, 0, 0) // version 0x0504, empty header
	b = appendPrincipal(b, cname, s.Realm)
	b = appendPrincipal(b, cname, s.Realm)
	b = appendPrincipal(b, rep.Ticket.SName, rep.Ticket.Realm)
	b = binary.BigEndian.AppendUint16(b, uint16(part.Key.KeyType))
	b = appendData(b, part.Key.KeyValue)
	for _, tm := range []time.Time{part.AuthTime, part.StartTime, end, part.RenewTill} {
		b = binary.BigEndian.AppendUint32(b, uint32(tm.Unix()))
	}
	b = append(b, 0) // is_skey
	flags := make([]byte, 4)
	copy(flags, part.Flags.Bytes)
	b = append(b, flags...)
	b = binary.BigEndian.AppendUint32(b, 0) // addresses
	b = binary.BigEndian.AppendUint32(b, 0) // authdata
	b = appendData(b, tkt)
	b = appendData(b, nil) // second ticket
	path := filepath.Join(t.TempDir(), fmt.Sprintf("krb5cc_%s", strings.ReplaceAll(principal, "/", "_")))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func appendPrincipal(b []byte, pn types.PrincipalName, realm string) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(pn.NameType))
	b = binary.BigEndian.AppendUint32(b, uint32(len(pn.NameString)))
	b = appendData(b, []byte(realm))
	for _, c := range pn.NameString {
		b = appendData(b, []byte(c))
	}
	return b
}

func appendData(b, d []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(d)))
	return append(b, d...)
}
