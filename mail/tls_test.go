package mail

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/attu-pbem/attu/mail/loopback"
)

// selfSigned returns a certificate for 127.0.0.1, the server's config
// with it and a client's config that trusts it.
func selfSigned(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1943),
		Subject:      pkix.Name{CommonName: "loopback"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}},
		&tls.Config{RootCAs: pool}
}

// The default settings, STARTTLS on both sides, carry mail in and out.
func TestStartTLS(t *testing.T) {
	srv, cli := selfSigned(t)
	sys, own := system(t, &loopback.Options{TLSConfig: srv})
	cfg := inboxConfig(t, sys)
	cfg.Security, cfg.TLSConfig = StartTLS, cli
	g := newGot()
	runInbox(t, cfg, Position{}, g.extracting(t))

	// A wrong password is refused; the right one works.
	bad, err := NewSender(SMTPConfig{Addr: sys.SMTPAddr(), TLSConfig: cli, From: own, Username: "attu", Password: "wrong",
		Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.Send(context.Background(), &Outgoing{To: []string{own}, MessageID: "no@attu.test", Text: "x"}); err == nil {
		t.Error("sent with a wrong password")
	}
	s, err := NewSender(SMTPConfig{Addr: sys.SMTPAddr(), TLSConfig: cli, From: own, Username: "attu", Password: "secret",
		Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), &Outgoing{To: []string{"attu+g1@attu.test"}, Subject: "[attu g1] status",
		MessageID: "tls-1@attu.test", Text: "status"})
	if err != nil {
		t.Fatal(err)
	}
	if msgs := g.wait(t, 1, 5*time.Second); msgs[0].MessageID != "tls-1@attu.test" || msgs[0].Subject != "[attu g1] status" {
		t.Errorf("received %+v", msgs[0])
	}
}

// A certificate the client does not trust stops the login before any
// password is sent, and STARTTLS demanded of a server that does not
// offer it too.
func TestStartTLSRefused(t *testing.T) {
	srv, _ := selfSigned(t)
	for _, tc := range []struct {
		name string
		opts *loopback.Options
	}{
		{"untrusted certificate", &loopback.Options{TLSConfig: srv}},
		{"no STARTTLS", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, own := system(t, tc.opts)
			deliver(t, sys, own, "x@attu.test")
			var login atomic.Bool
			p := newProxy(t, sys.IMAPAddr(), nil, func(line string) {
				if strings.Contains(line, "secret") {
					login.Store(true)
				}
			})
			cfg := inboxConfig(t, sys)
			cfg.Addr, cfg.Security, cfg.TLSConfig = p.addr(), StartTLS, &tls.Config{ServerName: "127.0.0.1"}
			g := newGot()
			runInbox(t, cfg, Position{}, g.extracting(t))
			time.Sleep(300 * time.Millisecond) // several attempts
			if g.count() != 0 {
				t.Error("mail read over a connection that should have been refused")
			}
			if login.Load() {
				t.Error("the password crossed the connection")
			}
		})
	}
}

// tlsFront listens with TLS and relays in clear to target, as a server
// with implicit TLS (IMAPS, submissions) looks from outside.
func tlsFront(t *testing.T, target string, cfg *tls.Config) string {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			go relay(c, s, nil, nil)
			go relay(s, c, nil, nil)
		}
	}()
	return ln.Addr().String()
}

// Implicit TLS, the other way to protect both connections.
func TestImplicitTLS(t *testing.T) {
	srv, cli := selfSigned(t)
	sys, own := system(t, nil)
	cfg := inboxConfig(t, sys)
	cfg.Addr, cfg.Security, cfg.TLSConfig = tlsFront(t, sys.IMAPAddr(), srv), TLS, cli
	g := newGot()
	runInbox(t, cfg, Position{}, g.extracting(t))

	s, err := NewSender(SMTPConfig{Addr: tlsFront(t, sys.SMTPAddr(), srv), Security: TLS, TLSConfig: cli, From: own,
		Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), &Outgoing{To: []string{own}, Subject: "help", MessageID: "tls-2@attu.test", Text: "help"}); err != nil {
		t.Fatal(err)
	}
	if msgs := g.wait(t, 1, 5*time.Second); msgs[0].Command != "help" {
		t.Errorf("received %+v", msgs[0])
	}
}
