package rpc

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"
)

// testCA makes a CA and a server certificate for 127.0.0.1 signed by it.
func testCA(t *testing.T) (*x509.CertPool, tls.Certificate) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "server"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	return pool, tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// tlsServer accepts one TLS connection and sends what it reads first to
// got.
func tlsServer(t *testing.T, cert tls.Certificate) (string, <-chan []byte) {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		b := make([]byte, len(Preamble))
		if _, err := io.ReadFull(c, b); err != nil {
			got <- nil
			return
		}
		got <- b
	}()
	return ln.Addr().String(), got
}

func TestTLSDial(t *testing.T) {
	pool, cert := testCA(t)
	addr, got := tlsServer(t, cert)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, addr, Options{TLS: &tls.Config{RootCAs: pool}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if b := <-got; !bytes.Equal(b, Preamble) {
		t.Errorf("server read %q, want the preamble inside TLS", b)
	}
}

func TestTLSWrongCA(t *testing.T) {
	_, cert := testCA(t)
	otherPool, _ := testCA(t)
	addr, _ := tlsServer(t, cert)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := Dial(ctx, addr, Options{TLS: &tls.Config{RootCAs: otherPool}})
	var he *HandshakeError
	if !errors.As(err, &he) || he.Stage != "tls" {
		t.Fatalf("error %v, want a tls HandshakeError", err)
	}
	var ua x509.UnknownAuthorityError
	if !errors.As(err, &ua) || !strings.Contains(err.Error(), "tls handshake with "+addr) {
		t.Errorf("error %q does not say unknown authority", err)
	}
}

// fakeAuth authenticates as user once its handshake ran, and checks that
// the handshake comes right after the preamble.
type fakeAuth struct {
	user      string
	handshook bool
}

func (a *fakeAuth) Method() byte { return AuthKerberos }

func (a *fakeAuth) User() string {
	if !a.handshook {
		return "before-handshake"
	}
	return a.user
}

func (a *fakeAuth) Handshake(ctx context.Context, nc net.Conn, addr string) (net.Conn, error) {
	a.handshook = true
	return nc, nil
}

// TestAuthHeaderNamesAuthenticatedUser checks the preamble's auth byte and
// that the connection header names the user the exchange logged in as.
func TestAuthHeaderNamesAuthenticatedUser(t *testing.T) {
	client, server := net.Pipe()
	defer server.Close()
	got := make(chan []byte, 1)
	go func() {
		b := make([]byte, 256)
		n, _ := io.ReadAtLeast(server, b, len(Preamble))
		rest := make([]byte, 256)
		m, _ := server.Read(rest)
		got <- append(b[:n], rest[:m]...)
	}()
	auth := &fakeAuth{user: "ann@EXAMPLE.COM"}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := NewConn(ctx, client, "pipe", Options{User: "os-user", Auth: auth})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b := <-got
	if !bytes.HasPrefix(b, []byte{'H', 'B', 'a', 's', 0, AuthKerberos}) {
		t.Fatalf("preamble %q", b[:min(len(b), 6)])
	}
	if !bytes.Contains(b, []byte("ann@EXAMPLE.COM")) || bytes.Contains(b, []byte("before-handshake")) || bytes.Contains(b, []byte("os-user")) {
		t.Errorf("connection header %q does not name the authenticated user alone", b)
	}
}

// TestClosedBeforeAnswerHintsTLS: a server that closes a plaintext
// connection without a word (as a TLS-only HBase does) gets a hint.
func TestClosedBeforeAnswerHintsTLS(t *testing.T) {
	c, fs := newPair(t, Options{})
	fs.nc.Close()
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("connection not failed")
	}
	if err := c.Err(); err == nil || !strings.Contains(err.Error(), "if the cluster uses TLS, set hbase.client.netty.tls.enabled=true or pass --tls") {
		t.Errorf("error %v lacks the TLS hint", err)
	}
}
