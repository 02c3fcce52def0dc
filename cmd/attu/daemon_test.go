package main

import (
	"context"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/mail/loopback"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// loopbackDaemon is a daemon for attu's mailbox on a loopback mail system
// with the mailboxes users, running until the test ends; ctx ends after
// limit.
type loopbackDaemon struct {
	sys  *loopback.System
	own  string            // attu's address
	addr map[string]string // each user's
	db   *store.DB
	svc  *referee.Service
	d    *daemon.Daemon
	ctx  context.Context
}

func startLoopbackDaemon(t *testing.T, limit time.Duration, outbox mail.OutboxConfig, users ...string) *loopbackDaemon {
	t.Helper()
	sys, err := loopback.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Close() })
	ld := &loopbackDaemon{sys: sys, addr: map[string]string{}}
	ld.own, _ = sys.AddUser("attu", "pw")
	for _, u := range users {
		ld.addr[u], _ = sys.AddUser(u, "pw-"+u)
	}
	if ld.db, err = store.Open(filepath.Join(t.TempDir(), "attu.db"), nil); err != nil {
		t.Fatal(err)
	}
	ld.svc = referee.New(ld.db, referee.Config{System: windsys.Rules{}, Address: ld.own})
	ld.d, err = newDaemon(ld.svc, daemon.Config{Address: ld.own,
		IMAP:   mail.InboxConfig{Addr: sys.IMAPAddr(), Security: mail.Plain, Username: "attu", Password: "pw", IdleRestart: time.Second},
		SMTP:   mail.SMTPConfig{Addr: sys.SMTPAddr(), Security: mail.Plain},
		Outbox: outbox, Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	ld.ctx = ctx
	done := make(chan struct{})
	go func() { defer close(done); ld.d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		ld.db.Close()
	})
	return ld
}

// Mail the game service cannot read is answered once, by the daemon, with
// what to do instead; the same mail from a robot gets no answer at all.
func TestDaemonAnswersHTMLOnlyButNotRobots(t *testing.T) {
	ld := startLoopbackDaemon(t, 20*time.Second, mail.OutboxConfig{Interval: 200 * time.Millisecond}, "player")
	sys, own, player, d, ctx := ld.sys, ld.own, ld.addr["player"], ld.d, ld.ctx

	html := func(id, extra string) []byte {
		return []byte("From: <" + player + ">\r\nTo: <" + own + ">\r\nSubject: my orders\r\nMessage-ID: <" + id + "@attu.test>\r\n" + extra +
			"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>game: g1</p>\r\n")
	}
	if err := sys.Deliver(player, own, html("robot", "Auto-Submitted: auto-replied\r\n")); err != nil {
		t.Fatal(err)
	}
	if err := sys.Deliver(player, own, html("person", "")); err != nil {
		t.Fatal(err)
	}
	ds, err := sys.WaitDeliveries(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	reply := string(ds[2].Data)
	if ds[2].User != "player" || !strings.Contains(reply, "plain text") || !strings.Contains(reply, "In-Reply-To: <person@attu.test>") {
		t.Fatalf("the answer to the HTML-only mail:\n%s", reply)
	}
	// Both mails are handled (the position passed them) and nothing else
	// was sent: the robot got no answer.
	for d.Position().LastUID < 2 {
		select {
		case <-ctx.Done():
			t.Fatal("the inbox did not get past both mails")
		case <-time.After(20 * time.Millisecond):
		}
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(sys.Deliveries()); n != 3 {
		t.Errorf("%d deliveries, want 3: a robot was answered", n)
	}
	if p, err := daemon.SavedPosition(ld.db, mail.InboxConfig{Addr: sys.IMAPAddr(), Username: "attu"}); err != nil || p.LastUID < 2 {
		t.Errorf("the stored inbox position is %+v (%v)", p, err)
	}
}
