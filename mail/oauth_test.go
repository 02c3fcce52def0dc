package mail

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/mail/loopback"
)

// tokenCommand is a command that prints token, padded with blanks, and
// notes each run in a file whose runs function counts them.
func tokenCommand(t *testing.T, token string) (cmd []string, runs func() int) {
	log := filepath.Join(t.TempDir(), "runs")
	return []string{"sh", "-c", "echo run >> " + log + "; printf '  %s\\n' " + token}, func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "run\n")
	}
}

// On servers that let a user in only with OAuth, the inbox and the
// sender sign in with the token their command prints, running it for
// each login; a password is refused there.
func TestOAuthSignIn(t *testing.T) {
	for _, mech := range []string{"OAUTHBEARER", "XOAUTH2"} {
		t.Run(mech, func(t *testing.T) {
			sys, own := system(t, &loopback.Options{OAuth: mech, Token: "tok-1943"})
			ctx := context.Background()
			if err := CheckIMAP(ctx, inboxConfig(t, sys)); !errors.As(err, new(*FixError)) {
				t.Errorf("IMAP login with a password: %v, want refused", err)
			}
			cmd, runs := tokenCommand(t, "tok-1943")
			cfg := inboxConfig(t, sys)
			cfg.Password, cfg.OAuth = "", OAuth{Mech: mech, Command: cmd}
			scfg := SMTPConfig{Addr: sys.SMTPAddr(), Security: Plain, From: own, Username: "attu", OAuth: cfg.OAuth, Timeout: 5 * time.Second}
			if err := CheckIMAP(ctx, cfg); err != nil {
				t.Errorf("CheckIMAP: %v", err)
			}
			if err := CheckSMTP(ctx, scfg); err != nil {
				t.Errorf("CheckSMTP: %v", err)
			}
			if n := runs(); n != 2 {
				t.Errorf("the token command ran %d times for 2 logins", n)
			}
			s, err := NewSender(scfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Send(ctx, &Outgoing{To: []string{own}, Subject: "report", MessageID: "o1@attu.test", Text: "turn 1"}); err != nil {
				t.Fatal(err)
			}
			g := newGot()
			runInbox(t, cfg, Position{}, g.extracting(t))
			if m := g.wait(t, 1, 5*time.Second); m[0].Subject != "report" {
				t.Errorf("read %q", m[0].Subject)
			}
			if d := sys.Deliveries(); len(d) != 1 || runs() != 4 {
				t.Errorf("%d deliveries, the token command ran %d times; want 1 and 4", len(d), runs())
			}
		})
	}
}

// A token the server refuses: one ERROR naming the token command, then
// nothing for minutes, from the inbox and from the outbox.
func TestOAuthRefused(t *testing.T) {
	fix := func(server string) string {
		return "the server refused the access token for attu: make " + server + ".token_command print a fresh token"
	}
	t.Run("imap", func(t *testing.T) {
		sys, _ := system(t, &loopback.Options{OAuth: "XOAUTH2", Token: "tok-1943"})
		p := newProxy(t, sys.IMAPAddr(), nil, nil)
		logs, lg := newLogBuffer(t)
		cmd, _ := tokenCommand(t, "stale")
		cfg := inboxConfig(t, sys)
		cfg.Addr, cfg.Password, cfg.OAuth, cfg.Logger = p.addr(), "", OAuth{Mech: "XOAUTH2", Command: cmd}, lg
		runInbox(t, cfg, Position{}, func(context.Context, *Incoming) error { return nil })
		checkOneError(t, logs, p, "imap", fix("imap"))
	})
	t.Run("smtp", func(t *testing.T) {
		sys, own := system(t, &loopback.Options{OAuth: "OAUTHBEARER", Token: "tok-1943"})
		p := newProxy(t, sys.SMTPAddr(), nil, nil)
		logs, lg := newLogBuffer(t)
		cmd, _ := tokenCommand(t, "stale")
		s, err := NewSender(SMTPConfig{Addr: p.addr(), Security: Plain, From: own, Username: "attu",
			OAuth: OAuth{Mech: "OAUTHBEARER", Command: cmd}, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		q := &memQueue{}
		q.add(Outgoing{To: []string{own}, Subject: "report", MessageID: "r1@attu.test", Text: "report"})
		runOutbox(t, NewOutbox(q, s, OutboxConfig{Interval: 50 * time.Millisecond, RetryMin: 10 * time.Millisecond, Logger: lg}))
		checkOneError(t, logs, p, "smtp", fix("smtp"))
		if len(sys.Deliveries()) != 0 {
			t.Error("mail delivered")
		}
	})
}

// A token command that fails, or prints nothing, is the operator's to
// mend; what it wrote to stderr is in the error.
func TestOAuthCommandFails(t *testing.T) {
	sys, own := system(t, &loopback.Options{OAuth: "XOAUTH2", Token: "tok-1943"})
	for _, c := range []struct{ script, err string }{
		{"echo 'oama: refresh token expired' >&2; exit 3", "exit status 3: oama: refresh token expired"},
		{"true", "it printed nothing"},
	} {
		o := OAuth{Mech: "XOAUTH2", Command: []string{"sh", "-c", c.script}}
		cfg := inboxConfig(t, sys)
		cfg.OAuth = o
		ierr := CheckIMAP(context.Background(), cfg)
		serr := CheckSMTP(context.Background(), SMTPConfig{Addr: sys.SMTPAddr(), Security: Plain, From: own, Username: "attu", OAuth: o})
		for server, err := range map[string]error{"imap": ierr, "smtp": serr} {
			var fe *FixError
			if !errors.As(err, &fe) || !strings.Contains(fe.Err.Error(), "token command sh: "+c.err) ||
				fe.Fix != server+".token_command failed: make it print a fresh access token" {
				t.Errorf("%s, %q: %v", server, c.script, err)
			}
		}
	}
}

// A token command that hangs is cut off after the timeout, its children
// too, and the login fails instead of waiting for ever.
func TestOAuthCommandHangs(t *testing.T) {
	o := OAuth{Mech: "XOAUTH2", Command: []string{"sh", "-c", "sleep 30 & sleep 30"}}
	start := time.Now()
	_, err := o.token("imap", 200*time.Millisecond)
	if !errors.As(err, new(*FixError)) || time.Since(start) > 5*time.Second {
		t.Errorf("after %v: %v", time.Since(start), err)
	}
}
