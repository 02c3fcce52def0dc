package main

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/mail/loopback"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// Mail the game service cannot read is answered once, by the daemon, with
// what to do instead; the same mail from a robot gets no answer at all.
func TestDaemonAnswersHTMLOnlyButNotRobots(t *testing.T) {
	sys, err := loopback.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	own, _ := sys.AddUser("attu", "pw")
	player, _ := sys.AddUser("player", "pw2")
	db, err := store.Open(filepath.Join(t.TempDir(), "attu.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := referee.New(db, referee.Config{Address: own})
	d, err := newDaemon(svc, daemonConfig{Address: own,
		IMAP:   mail.InboxConfig{Addr: sys.IMAPAddr(), Security: mail.Plain, Username: "attu", Password: "pw", IdleRestart: time.Second},
		SMTP:   mail.SMTPConfig{Addr: sys.SMTPAddr(), Security: mail.Plain},
		Outbox: mail.OutboxConfig{Interval: 200 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Add(1)
	go func() { defer wg.Done(); d.run(ctx) }()

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
	for d.inbox.Position().LastUID < 2 {
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
	if p, err := d.position(); err != nil || p.LastUID < 2 {
		t.Errorf("the stored inbox position is %+v (%v)", p, err)
	}
}
