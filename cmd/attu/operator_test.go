package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attu-pbem/attu/mail/loopback"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// tlsServers is a mail system that speaks STARTTLS with a certificate of
// its own, as attu serve's configuration would name it.
type tlsServers struct {
	imap, smtp string // host:port, the SMTP one for submission
	ca         string // the PEM file of the certificate's signer
	domain     string
	password   string     // attu's
	sys        mailSystem // for the players' mailboxes (alice, bob, carol)
}

// startTLSServers returns Dovecot and Postfix with the certificate of
// scripts/mailservers.sh when ATTU_MAILSERVERS is set, else the loopback
// servers with a certificate made here for 127.0.0.1.
func startTLSServers(t *testing.T) tlsServers {
	t.Helper()
	if env := os.Getenv(mailServersEnv); env != "" {
		r, err := openRealMail(env)
		if err != nil {
			t.Fatalf("the real mail servers of %s=%s: %v", mailServersEnv, env, err)
		}
		return tlsServers{imap: r.imap, smtp: r.submit, ca: r.env["ATTU_MS_CA"], domain: r.domain, password: r.env["ATTU_MS_PASSWORD_attu"], sys: r}
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1943), Subject: pkix.Name{CommonName: "attu test"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	sys, err := loopback.Start(&loopback.Options{TLSConfig: &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Close() })
	pw := randomPassword()
	if _, err := sys.AddUser("attu", pw); err != nil {
		t.Fatal(err)
	}
	return tlsServers{imap: sys.IMAPAddr(), smtp: sys.SMTPAddr(), ca: ca, domain: sys.Domain(), password: pw, sys: &loopbackMail{sys}}
}

// config writes a configuration of attu serve for these servers, with
// the passwords given and, when ca is set, their certificate as tls_ca,
// and returns its path.
func (s tlsServers) config(t *testing.T, imapPass, smtpPass string, ca bool) string {
	t.Helper()
	dir := t.TempDir()
	server := func(name, addr, pass string) string {
		host, port, _ := net.SplitHostPort(addr)
		pw := filepath.Join(dir, name+"-password")
		if err := os.WriteFile(pw, []byte(pass+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("%s: {host: %s, port: %s, security: starttls, user: attu, password_file: %s", name, host, port, pw)
		if ca {
			line += ", tls_ca: " + s.ca
		}
		return line + "}\n"
	}
	conf := fmt.Sprintf("address: attu@%s\ndatabase: %s\n", s.domain, filepath.Join(dir, "attu.db")) +
		server("imap", s.imap, imapPass) + server("smtp", s.smtp, smtpPass) + "log_level: debug\n"
	path := filepath.Join(dir, "attu.yaml")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// With tls_ca naming the servers' certificate, attu serve -check logs in
// to both with the certificate verified; without it, the certificate is
// not trusted and each server's line says to set tls_ca.
func TestE2ETLSCA(t *testing.T) {
	s := startTLSServers(t)
	code, out, errs := runAttu("serve", "-config", s.config(t, s.password, s.password, true), "-check")
	if code != 0 || !strings.Contains(out, "IMAP "+s.imap+" (starttls): login as attu: OK") ||
		!strings.Contains(out, "SMTP "+s.smtp+" (starttls): login as attu: OK") {
		t.Errorf("with tls_ca: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runAttu("serve", "-config", s.config(t, s.password, s.password, false), "-check")
	for _, server := range []string{"imap", "smtp"} {
		if !strings.Contains(errs, "certificate signed by unknown authority") || !strings.Contains(errs, "as "+server+".tls_ca") {
			t.Errorf("without tls_ca: %s is not said to want tls_ca: exit %d\n%s%s", server, code, out, errs)
		}
	}
	if code != 1 {
		t.Errorf("without tls_ca: exit %d, want 1", code)
	}
}

// attu serve -check with a wrong password exits 1 naming the login that
// failed and what to change, and says the other is fine; no password is
// printed.
func TestE2EServeCheckLogin(t *testing.T) {
	s := startTLSServers(t)
	for _, c := range []struct{ imap, smtp, bad, good string }{
		{s.password, "wrong-smtp", "SMTP " + s.smtp, "IMAP " + s.imap},
		{"wrong-imap", s.password, "IMAP " + s.imap, "SMTP " + s.smtp},
	} {
		code, out, errs := runAttu("serve", "-config", s.config(t, c.imap, c.smtp, true), "-check")
		server := strings.ToLower(c.bad[:4])
		if code != 1 || !strings.Contains(errs, c.bad+" (starttls): login as attu failed") ||
			!strings.Contains(errs, "to fix: the server refused the login of attu: check "+server+".user and the password in "+server+".password_env or "+server+".password_file") ||
			!strings.Contains(out, c.good+" (starttls): login as attu: OK") {
			t.Errorf("%s refused: exit %d\n%s%s", c.bad, code, out, errs)
		}
		if strings.Contains(out+errs, "wrong-") || strings.Contains(out+errs, s.password) {
			t.Errorf("a password was printed:\n%s%s", out, errs)
		}
	}
}

// syncBuffer is a log the daemon writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) count(re string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(regexp.MustCompile(re).FindAllIndex(b.b.Bytes(), -1))
}

// The daemon with wrong passwords for both servers, and welcome mails to
// send: one ERROR line for each server naming what to change, and then
// no attempt for minutes (each further one would log at DEBUG at least;
// the other welcome of the same attempt is logged at DEBUG, as attempt 1).
func TestE2EWrongPassword(t *testing.T) {
	s := startTLSServers(t)
	logs := runDaemon(t, s.config(t, "wrong-imap", "wrong-smtp", true))
	deadline := time.Now().Add(20 * time.Second)
	for logs.count(`level=ERROR`) < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	// Retries within seconds (the defaults start at one) would come
	// several times in the next three.
	time.Sleep(3 * time.Second)
	for _, server := range []string{"imap", "smtp"} {
		fix := fmt.Sprintf(`level=ERROR msg="%s: the server refused the login of attu: check %s.user and the password in %s.password_env or %s.password_file[^"]*"[^\n]*5m0s`,
			server, server, server, server)
		if n := logs.count(fix); n != 1 {
			t.Errorf("%d ERROR lines of %s naming the fix and a retry in 5 minutes, want 1", n, server)
		}
	}
	if n, again := logs.count(`level=ERROR`), logs.count(`attempt=[2-9]|imap: still failing|connection lost|sending failed`); n != 2 || again != 0 {
		t.Errorf("%d ERROR lines, want 2; %d attempts again within seconds, want none", n, again)
	}
}

// runDaemon runs attu serve's daemon on a configuration, with a new game
// whose welcome mails are to be sent, until the test ends; it returns
// the daemon's log, and shows it when the test failed.
func runDaemon(t *testing.T, path string) *syncBuffer {
	cfg, dbPath, _, _, err := loadServeConfig(readFile(t, path))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	logs := &syncBuffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg.Tick = time.Second
	svc := referee.New(db, referee.Config{System: windsys.Rules{}, Address: cfg.Address, Logger: cfg.Logger})
	domain := strings.TrimPrefix(cfg.Address, "attu@")
	if _, err := svc.Create(referee.NewGame{ID: "g1", US: "alice@" + domain, JP: "bob@" + domain}, time.Now()); err != nil {
		t.Fatal(err)
	}
	d, err := newDaemon(svc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("the daemon's log:\n%s", logs.b.String())
		}
	})
	return logs
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A mistake in the configuration is said with its line and key, and an
// unknown key with the keys there are; never a Go type.
func TestServeConfigWords(t *testing.T) {
	conf := `address: attu@example.org
database: attu.db
imap:
  host: imap.example.org
  port: nine
  user: attu
  password_file: /dev/null
  ca_file: /etc/ssl/ca.pem
smtp: {host: smtp.example.org, per_day: 500, retry_min: soon, no_idle: true}
tick: 1m
authentication: {mode: required, dkim: maybe}
logging: debug
`
	_, _, _, _, err := loadServeConfig([]byte(conf))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`line 5: imap.port: want a whole number, not "nine"`,
		"line 8: imap.ca_file is not a key; the keys of imap are host, port, security, tls_ca, user, password_env, password_file, auth, token_command, timeout, mailbox, processed, failed, poll_interval, no_idle",
		"line 9: smtp.no_idle is not a key; the keys of smtp are host, port, security, tls_ca, user, password_env, password_file, auth, token_command, timeout, retry_min, retry_max, per_hour, per_day",
		`line 11: authentication.dkim: want true or false, not "maybe"`,
		"line 12: logging is not a key; the keys of the file are address, database, imap, smtp, limits, authentication, tick, log_level",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "main.") || strings.Contains(err.Error(), "type") || strings.Contains(err.Error(), "!!") {
		t.Errorf("the error speaks Go or YAML:\n%v", err)
	}
	// Once the keys are right, a value is said with its line too.
	conf = regexp.MustCompile(`(?m)^  port: nine\n|^  ca_file.*\n|, no_idle: true|^logging.*\n|, dkim: maybe`).ReplaceAllString(conf, "")
	_, _, _, _, err = loadServeConfig([]byte(conf + "limits: {max_parts: -1}\n"))
	for _, want := range []string{
		`line 7: smtp.retry_min: "soon" is not a duration like 30s or 5m`,
		"line 9: authentication.mode: required needs trusted_authserv_ids",
		"line 10: limits: no limit may be negative",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	// The quota's keys reach the outbox.
	conf = strings.NewReplacer("retry_min: soon", "per_hour: 100", "mode: required", "mode: off").Replace(conf)
	cfg, _, _, _, err := loadServeConfig([]byte(conf))
	if err != nil || cfg.Outbox.PerHour != 100 || cfg.Outbox.PerDay != 500 {
		t.Errorf("per_hour 100, per_day 500 read as %d, %d: %v", cfg.Outbox.PerHour, cfg.Outbox.PerDay, err)
	}
}
