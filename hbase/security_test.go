package hbase

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testPKI writes a CA to dir/ca.pem and returns a server certificate it
// signed for the DNS name "db.example" only.
func testPKI(t *testing.T, dir, name string) tls.Certificate {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	if err := os.WriteFile(filepath.Join(dir, name+".pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	srv := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "db.example"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{"db.example"}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, srv, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// handshake dials a TLS server presenting cert at 127.0.0.1 with cfg.
func handshake(t *testing.T, cert tls.Certificate, cfg *tls.Config) error {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			_ = c.(*tls.Conn).Handshake()
			c.Close()
		}
	}()
	cfg = cfg.Clone()
	cfg.ServerName = "127.0.0.1"
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", ln.Addr().String(), cfg)
	if err == nil {
		c.Close()
	}
	return err
}

// TestTLSServerNameCheck: a certificate that does not name the server is
// refused unless hbase.client.netty.tls.verify.server.hostname is false,
// and even then the chain must lead to the trust store.
func TestTLSServerNameCheck(t *testing.T) {
	dir := t.TempDir()
	cert := testPKI(t, dir, "ca")
	testPKI(t, dir, "other")
	ca, other := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "other.pem")

	strict, err := TLSFiles{CAFile: ca}.Build()
	if err != nil {
		t.Fatal(err)
	}
	err = handshake(t, cert, strict)
	var hostErr x509.HostnameError
	if !errors.As(err, &hostErr) {
		t.Fatalf("strict: %v, want a host name error", err)
	}
	if msg := securityReason("tls", err); !strings.Contains(msg, "does not name this host (hbase.client.netty.tls.verify.server.hostname=false") {
		t.Errorf("reason %q", msg)
	}

	loose, err := TLSFiles{CAFile: ca, SkipHostname: true}.Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := handshake(t, cert, loose); err != nil {
		t.Errorf("without the host name check: %v", err)
	}

	looseWrongCA, err := TLSFiles{CAFile: other, SkipHostname: true}.Build()
	if err != nil {
		t.Fatal(err)
	}
	err = handshake(t, cert, looseWrongCA)
	var ua x509.UnknownAuthorityError
	if !errors.As(err, &ua) {
		t.Errorf("wrong CA without the host name check: %v, want unknown authority", err)
	}

	insecure, err := TLSFiles{CAFile: other, Insecure: true}.Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := handshake(t, cert, insecure); err != nil {
		t.Errorf("insecure: %v", err)
	}
}
