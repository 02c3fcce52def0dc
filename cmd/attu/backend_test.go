package main

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"

	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// The daemon's end-to-end tests run through one of two mail systems:
//
//   - by default the in-process servers of mail/loopback (plaintext on
//     127.0.0.1, mailboxes made on demand);
//   - when ATTU_MAILSERVERS names the environment file written by
//     scripts/mailservers.sh start, Dovecot and Postfix: mail from the
//     players is submitted to Postfix and delivered into Dovecot by LMTP,
//     the daemon reads Dovecot over IMAP with STARTTLS and sends through
//     Postfix submission with a password, the players read Dovecot.
//
// A test written against testMailSystem, sendRaw and fetchInbox runs on
// both unchanged.

// testMailSystem returns the mail system of this test run, stopped (for
// the loopback servers) when the test ends. The real servers' mailboxes
// are emptied first.
func testMailSystem(t *testing.T) mailSystem {
	t.Helper()
	if env := os.Getenv(mailServersEnv); env != "" {
		sys, err := openRealMail(env)
		if err != nil {
			t.Fatalf("the real mail servers of %s=%s: %v", mailServersEnv, env, err)
		}
		return sys
	}
	sys, err := startLoopbackMail()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Close() })
	return sys
}

// sendRaw hands a mail, bytes as given, to the system's inbound SMTP
// server, as a player's provider or a robot would.
func sendRaw(ctx context.Context, sys mailSystem, from string, to []string, data []byte) error {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := new(net.Dialer).DialContext(dctx, "tcp", sys.Inbound())
	if err != nil {
		return err
	}
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	c := smtp.NewClient(conn)
	defer c.Close()
	if err := c.SendMail(from, to, bytes.NewReader(data)); err != nil {
		return err
	}
	return c.Quit()
}

// fetchInbox returns every mail in a mailbox's INBOX, whole, in UID
// order, read over IMAP as the account is configured (STARTTLS against
// Dovecot).
func fetchInbox(acct mailAccount) ([][]byte, error) {
	c, err := dialAccount(acct)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil || sel.NumMessages == 0 {
		return nil, err
	}
	all := imap.UIDSet{}
	all.AddRange(1, 0)
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(all, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, m.FindBodySection(body))
	}
	return out, c.Logout().Wait()
}

// testDaemon is attu's daemon serving a test's mail system: the mailboxes
// of attu, alice, bob and carol, a database, the game service.
type testDaemon struct {
	sys    mailSystem
	db     *store.DB
	dbPath string
	log    *slog.Logger
	svc    *referee.Service
	d      *daemon.Daemon
	acct   map[string]mailAccount
	outbox mail.OutboxConfig
	stop   func() // ends the daemon and closes the database
}

// startTestDaemon opens a database in a temporary directory and runs the
// daemon on sys until the test ends, with waits short enough for tests.
func startTestDaemon(t *testing.T, sys mailSystem) *testDaemon {
	t.Helper()
	return startTestDaemonOutbox(t, sys, mail.OutboxConfig{Interval: 500 * time.Millisecond, RetryMin: 200 * time.Millisecond, RetryMax: 2 * time.Second})
}

// startTestDaemonOutbox is startTestDaemon with the outbox's settings
// given.
func startTestDaemonOutbox(t *testing.T, sys mailSystem, outbox mail.OutboxConfig) *testDaemon {
	t.Helper()
	dir := t.TempDir()
	td := &testDaemon{sys: sys, dbPath: filepath.Join(dir, "attu.db"), acct: map[string]mailAccount{}, outbox: outbox}
	var err error
	for _, u := range []string{"attu", "alice", "bob", "carol"} {
		if td.acct[u], err = sys.Account(u); err != nil {
			t.Fatal(err)
		}
	}
	td.log = e2eLog(t, dir)
	td.start(t)
	t.Cleanup(func() { td.stop() })
	return td
}

// newGame creates game g1 with alice as the U.S. player and bob as the
// Japanese one, and has the daemon send the welcomes at once.
func (td *testDaemon) newGame(t *testing.T, name string) *referee.Created {
	t.Helper()
	c, err := td.svc.Create(referee.NewGame{ID: "g1", Name: name, US: td.acct["alice"].Address, JP: td.acct["bob"].Address}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	td.d.Kick()
	return c
}

// gameAddress is game g1's address, where its players mail it.
func (td *testDaemon) gameAddress() string {
	return referee.GameAddress(td.acct["attu"].Address, "g1")
}

// start opens the database and runs the daemon, as "attu daemon" does
// when started again after a stop.
func (td *testDaemon) start(t *testing.T) {
	t.Helper()
	db, err := store.Open(td.dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	td.db = db
	td.svc = referee.New(db, hosting(referee.Config{Address: td.acct["attu"].Address, DB: td.dbPath, Logger: td.log}))
	in := td.acct["attu"].IMAP
	in.Processed = "attu-done"
	in.RetryMin, in.RetryMax, in.Timeout = 100*time.Millisecond, time.Second, 10*time.Second
	out := td.acct["attu"].SMTP
	out.Timeout = 10 * time.Second
	td.d, err = newDaemon(td.svc, daemon.Config{Address: td.acct["attu"].Address, IMAP: in, SMTP: out,
		Outbox: td.outbox, Tick: time.Second, Logger: td.log})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); td.d.Run(ctx) }()
	stopped := false
	td.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		<-done
		db.Close()
	}
}

// waitInbox waits until user's INBOX holds at least n mails and returns
// them all.
func (td *testDaemon) waitInbox(t *testing.T, user string, n int, within time.Duration) [][]byte {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		ms, err := fetchInbox(td.acct[user])
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) >= n {
			return ms
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s has %d mails after %v, want %d", user, len(ms), within, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// cutIMAP cuts every IMAP connection of the mail system at once, as a
// server restart or a network failure would: the loopback server closes
// them, Dovecot's doveadm kicks every user.
func cutIMAP(t *testing.T, sys mailSystem) {
	t.Helper()
	switch s := sys.(type) {
	case *loopbackMail:
		s.sys.DropConnections()
	case *realMail:
		conf := filepath.Join(s.env["ATTU_MS_DIR"], "dovecot", "dovecot.conf")
		if out, err := exec.Command("doveadm", "-c", conf, "kick", "*").CombinedOutput(); err != nil {
			t.Fatalf("doveadm kick: %v\n%s", err, out)
		}
	default:
		t.Fatalf("cutIMAP: unknown mail system %T", sys)
	}
}
