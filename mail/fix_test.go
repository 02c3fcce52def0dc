package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/mail/loopback"
)

// connections is how many connections a proxy has relayed.
func (p *proxy) connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.conns) / 2
}

// fixCases are the failures that only the operator can cure, on a
// loopback system with STARTTLS and a certificate of the test's making.
func fixCases(t *testing.T, server string) (srv *tls.Config, cases []struct {
	name, password, fix string
	tls                 *tls.Config
}) {
	srv, cli := selfSigned(t)
	return srv, []struct {
		name, password, fix string
		tls                 *tls.Config
	}{
		{"wrong password", "wrong", "the server refused the login of attu: check " + server + ".user and the password", cli},
		{"untrusted certificate", "secret", "give the certificate of the one that signed it (a PEM file) as " + server + ".tls_ca", &tls.Config{}},
	}
}

// checkOneError waits for the ERROR line naming fix, then checks over a
// second, where retries within seconds would have come many times, that
// it stays the one line and the one connection.
func checkOneError(t *testing.T, logs *logBuffer, p *proxy, server, fix string) {
	t.Helper()
	eventually(t, 5*time.Second, "an ERROR line", func() bool { return logs.count(`level=ERROR`) > 0 })
	time.Sleep(time.Second)
	if n := logs.count(`level=ERROR msg="` + server + `: [^"]*` + regexpQuote(fix) + `[^"]*"`); n != 1 || logs.count(`level=ERROR`) != 1 {
		t.Errorf("%d ERROR lines naming %q, want 1:\n%s", n, fix, logs)
	}
	if logs.count(`level=ERROR .*(retry_in|in)=5m0s`) != 1 {
		t.Errorf("the ERROR line does not say the next attempt is in 5 minutes:\n%s", logs)
	}
	if n := p.connections(); n != 1 {
		t.Errorf("%d connections within a second, want 1", n)
	}
}

func regexpQuote(s string) string {
	r := strings.NewReplacer(".", `\.`, "(", `\(`, ")", `\)`)
	return r.Replace(s)
}

// A wrong password or a certificate not trusted: the inbox logs one ERROR
// saying what to change, and tries again only minutes later.
func TestInboxNeedsFix(t *testing.T) {
	srv, cases := fixCases(t, "imap")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sys, _ := system(t, &loopback.Options{TLSConfig: srv})
			p := newProxy(t, sys.IMAPAddr(), nil, nil)
			logs, lg := newLogBuffer(t)
			cfg := inboxConfig(t, sys)
			cfg.Addr, cfg.Security, cfg.TLSConfig, cfg.Password, cfg.Logger = p.addr(), StartTLS, c.tls, c.password, lg
			runInbox(t, cfg, Position{}, func(context.Context, *Incoming) error { return nil })
			checkOneError(t, logs, p, "imap", c.fix)
		})
	}
}

// The same failures of the SMTP server: one ERROR for the whole queue,
// every mail waits minutes, and neither a kick nor a wake tries sooner.
func TestOutboxNeedsFix(t *testing.T) {
	srv, cases := fixCases(t, "smtp")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sys, own := system(t, &loopback.Options{TLSConfig: srv})
			p := newProxy(t, sys.SMTPAddr(), nil, nil)
			logs, lg := newLogBuffer(t)
			s, err := NewSender(SMTPConfig{Addr: p.addr(), TLSConfig: c.tls, From: own, Username: "attu", Password: c.password,
				Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			q := &memQueue{}
			for i := range 3 {
				q.add(Outgoing{To: []string{own}, Subject: "report", MessageID: fmt.Sprintf("f%d@attu.test", i+1), Text: "report"})
			}
			o := NewOutbox(q, s, OutboxConfig{Interval: 50 * time.Millisecond, RetryMin: 10 * time.Millisecond, RetryMax: 50 * time.Millisecond, Logger: lg})
			runOutbox(t, o)
			o.Kick()
			o.Wake()
			checkOneError(t, logs, p, "smtp", c.fix)
			for i, m := range q.snapshot() {
				if m.Attempts != 1 || m.nexts[0].Sub(m.failed[0]) < 4*time.Minute {
					t.Errorf("mail %d: %d attempts, the next %v after the first; want 1, minutes later", i+1, m.Attempts, m.nexts[0].Sub(m.failed[0]))
				}
			}
			if len(sys.Deliveries()) != 0 {
				t.Error("mail delivered")
			}
		})
	}
}

// A host name that does not exist is the operator's to correct; a
// refused connection may pass by itself.
func TestNeedsFixHost(t *testing.T) {
	err := needsFix("smtp", "attu", OAuth{}, fmt.Errorf("mail: smtp: %w", &net.OpError{Op: "dial", Net: "tcp",
		Err: &net.DNSError{Err: "no such host", Name: "smtp.example.invalid", IsNotFound: true}}))
	var fe *FixError
	if !errors.As(err, &fe) || fe.Fix != "the host name smtp.example.invalid is unknown: correct smtp.host" {
		t.Errorf("unknown host: %v", err)
	}
	err = needsFix("smtp", "attu", OAuth{}, fmt.Errorf("mail: smtp: %w", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}))
	if errors.As(err, &fe) {
		t.Errorf("connection refused: %v", err)
	}
}
