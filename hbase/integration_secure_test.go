package hbase_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/rkql/rkql/hbase"
	"github.com/rkql/rkql/hbase/hbasetest"
)

// secureClient connects to the secure HBase with cfg's security settings
// filled in from s where cfg leaves them out.
func secureClient(t *testing.T, s hbasetest.Secure, cfg hbase.Config) *hbase.Client {
	t.Helper()
	cfg.ZKQuorum, cfg.ZKRoot = s.Quorum, hbasetest.Root()
	if cfg.Kerberos != nil {
		k := *cfg.Kerberos
		if k.Krb5Conf == "" {
			k.Krb5Conf = s.Krb5Conf()
		}
		if k.RegionServerPrincipal == "" {
			k.RegionServerPrincipal = s.ServerPrincipal
		}
		cfg.Kerberos = &k
	}
	cfg.MaxAttempts = 3
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := hbase.NewClient(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func keytabLogin(s hbasetest.Secure, principal string, prot ...string) *hbase.Kerberos {
	return &hbase.Kerberos{Principal: principal, Keytab: s.Keytab(), Protection: prot}
}

// secureTable creates a table as the superuser and drops it at the end.
func secureTable(t *testing.T, s hbasetest.Secure, prefix string) string {
	t.Helper()
	admin := secureClient(t, s, hbase.Config{Kerberos: keytabLogin(s, s.Principal)})
	table := hbasetest.TableName(prefix)
	createTable(t, admin, hbase.TableSpec{Name: table, Families: []hbase.FamilySpec{{Name: "f"}}})
	return table
}

// writeRead puts a cell and reads it back.
func writeRead(t *testing.T, c *hbase.Client, table, row, value string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := hbase.NewPut(table, []byte(row), []hbase.Cell{{Family: []byte("f"), Qualifier: []byte("q"), Value: []byte(value)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Mutate(ctx, p); err != nil {
		t.Fatalf("put: %v", err)
	}
	g, err := hbase.NewGet(table, []byte(row))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Get(ctx, g)
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if len(res.Cells) != 1 || string(res.Cells[0].Value) != value {
		t.Fatalf("read back %v, want one cell %q", res.Cells, value)
	}
}

func TestSecureKeytabProtections(t *testing.T) {
	s := hbasetest.SecureHBase(t)
	table := secureTable(t, s, "sec_prot")
	for _, prot := range []string{hbase.ProtAuthentication, hbase.ProtIntegrity, hbase.ProtPrivacy} {
		t.Run(prot, func(t *testing.T) {
			c := secureClient(t, s, hbase.Config{Kerberos: keytabLogin(s, s.Principal, prot)})
			writeRead(t, c, table, "row-"+prot, "value-"+prot)
		})
	}
}

func TestSecureTicketCache(t *testing.T) {
	s := hbasetest.SecureHBase(t)
	table := secureTable(t, s, "sec_ccache")
	cc := s.WriteTicketCache(t, s.Principal, false)
	c := secureClient(t, s, hbase.Config{Kerberos: &hbase.Kerberos{CCache: "FILE:" + cc}})
	writeRead(t, c, table, "row-ccache", "from the ticket cache")
}

// recorder is a Dial that keeps every byte both ways.
type recorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

type recConn struct {
	net.Conn
	r *recorder
}

func (c recConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.r.mu.Lock()
	c.r.buf.Write(b[:n])
	c.r.mu.Unlock()
	return n, err
}

func (c recConn) Write(b []byte) (int, error) {
	c.r.mu.Lock()
	c.r.buf.Write(b)
	c.r.mu.Unlock()
	return c.Conn.Write(b)
}

func (r *recorder) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return recConn{Conn: nc, r: r}, nil
}

func (r *recorder) contains(s string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Contains(r.buf.Bytes(), []byte(s))
}

// TestSecurePrivacyOnTheWire writes and reads a cell through a recording
// dialer: with privacy neither the row nor the value crosses the wire in
// the clear; with authentication only, both do (so the check can fail).
func TestSecurePrivacyOnTheWire(t *testing.T) {
	s := hbasetest.SecureHBase(t)
	table := secureTable(t, s, "sec_wire")
	for _, tc := range []struct {
		prot  string
		plain bool
	}{{hbase.ProtPrivacy, false}, {hbase.ProtIntegrity, true}, {hbase.ProtAuthentication, true}} {
		t.Run(tc.prot, func(t *testing.T) {
			rec := &recorder{}
			c := secureClient(t, s, hbase.Config{Kerberos: keytabLogin(s, s.Principal, tc.prot), Dial: rec.dial})
			row, value := "secret-row-"+tc.prot, "secret-cell-value-"+tc.prot
			writeRead(t, c, table, row, value)
			for _, sec := range []string{row, value} {
				if got := rec.contains(sec); got != tc.plain {
					t.Errorf("%s: %q on the wire: %v, want %v", tc.prot, sec, got, tc.plain)
				}
			}
		})
	}
}

func TestSecureTLS(t *testing.T) {
	s := hbasetest.SecureHBase(t)
	table := secureTable(t, s, "sec_tls")
	good, err := hbase.TLSFiles{CAFile: s.CA()}.Build()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("read", func(t *testing.T) {
		rec := &recorder{}
		c := secureClient(t, s, hbase.Config{Kerberos: keytabLogin(s, s.Principal), TLS: good, Dial: rec.dial})
		writeRead(t, c, table, "tls-row", "tls-secret-value")
		if rec.contains("tls-secret-value") || rec.contains("HBas") {
			t.Error("TLS connection carried plain bytes")
		}
	})
	t.Run("client certificate", func(t *testing.T) {
		withCert, err := hbase.TLSFiles{CAFile: s.CA(), CertFile: s.ClientPEM()}.Build()
		if err != nil {
			t.Fatal(err)
		}
		c := secureClient(t, s, hbase.Config{Kerberos: keytabLogin(s, s.Principal), TLS: withCert})
		writeRead(t, c, table, "tls-cert-row", "v")
	})
	t.Run("wrong CA", func(t *testing.T) {
		wrong, err := hbase.TLSFiles{CAFile: s.OtherCA()}.Build()
		if err != nil {
			t.Fatal(err)
		}
		c := secureClient(t, s, hbase.Config{Kerberos: keytabLogin(s, s.Principal), TLS: wrong})
		err = readErr(c, table)
		var se *hbase.SecurityError
		if !errors.As(err, &se) || se.Stage != "tls" {
			t.Fatalf("error %v (%T), want a TLS SecurityError", err, err)
		}
		checkMessage(t, err, "TLS handshake with region server", "not signed by a CA in the trust store", "hbase.rpc.tls.truststore.location")
	})
}

// readErr is the error of one Get, which must come quickly: security
// errors are not retried.
func readErr(c *hbase.Client, table string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	g, err := hbase.NewGet(table, []byte("any"))
	if err != nil {
		return err
	}
	start := time.Now()
	_, err = c.Get(ctx, g)
	if err != nil && time.Since(start) > 10*time.Second {
		return errors.New("the error took more than 10s: " + err.Error())
	}
	return err
}

func checkMessage(t *testing.T, err error, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	t.Logf("error: %s", msg)
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	for _, w := range wants {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q lacks %q", msg, w)
		}
	}
}

func TestSecureLoginErrors(t *testing.T) {
	s := hbasetest.SecureHBase(t)
	table := secureTable(t, s, "sec_err")
	wrongKeytab := t.TempDir() + "/wrong.keytab"
	kt := keytab.New()
	for _, et := range []int32{17, 18} { // aes128 and aes256 cts-hmac-sha1-96
		if err := kt.AddEntry(s.Principal, s.Realm, "not the password", time.Now(), 1, et); err != nil {
			t.Fatal(err)
		}
	}
	b, err := kt.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFile(wrongKeytab, b); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		k     *hbase.Kerberos
		wants []string
	}{
		{"wrong keytab", &hbase.Kerberos{Principal: s.Principal, Keytab: wrongKeytab},
			[]string{"the keytab " + wrongKeytab + " does not hold the current key of rkql@RKQL.TEST"}},
		{"expired ticket", &hbase.Kerberos{CCache: s.WriteTicketCache(t, s.Principal, true)},
			[]string{"the kerberos ticket for rkql@RKQL.TEST", "expired at", "run kinit or pass --keytab"}},
		{"no ticket", &hbase.Kerberos{CCache: t.TempDir() + "/none"},
			[]string{"no kerberos ticket", "run kinit or pass --keytab"}},
		{"unknown principal", &hbase.Kerberos{Principal: "nobody", Keytab: s.Keytab()},
			[]string{"the KDC does not know the principal nobody@RKQL.TEST"}},
		{"unknown server principal", &hbase.Kerberos{Principal: s.Principal, Keytab: s.Keytab(), RegionServerPrincipal: "hbasex/_HOST@RKQL.TEST"},
			[]string{"the KDC does not know the server principal hbasex/localhost@RKQL.TEST", "hbase.regionserver.kerberos.principal=hbasex/_HOST@RKQL.TEST"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := secureClient(t, s, hbase.Config{Kerberos: tc.k})
			err := readErr(c, table)
			var se *hbase.SecurityError
			if !errors.As(err, &se) || se.Stage != "sasl" {
				t.Fatalf("error %v (%T), want a SASL SecurityError", err, err)
			}
			checkMessage(t, err, append([]string{"Kerberos (SASL GSSAPI) handshake with region server"}, tc.wants...)...)
		})
	}
}

func TestSecurePermissionDenied(t *testing.T) {
	s := hbasetest.SecureHBase(t)
	table := secureTable(t, s, "sec_acl")
	c := secureClient(t, s, hbase.Config{Kerberos: keytabLogin(s, s.Reader)})
	err := readErr(c, table)
	if !errors.Is(err, hbase.ErrPermissionDenied) {
		t.Fatalf("error %v, want ErrPermissionDenied", err)
	}
	checkMessage(t, err, "permission denied: user reader lacks READ permission on table "+table)
}

func writeFile(path string, b []byte) error { return os.WriteFile(path, b, 0o600) }
