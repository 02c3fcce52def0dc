package main

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// attu's own SMTP server stops for 15 s while reports are due: the reports
// of orders, the answer to a command and the welcomes of a game created
// meanwhile, all tried and refused while it is down. The players' mail
// still reaches the mailbox, as through their own providers. With the
// retry waits attu serve uses, every one of those mails reaches the server
// within 15 s after it is back, and each player gets each mail once. With
// ATTU_MAILSERVERS set, the server stopped is Postfix's submission
// listener.
func TestE2ESMTPOutage(t *testing.T) {
	const outage = 15 * time.Second
	sys := testMailSystem(t)
	td := startTestDaemonOutbox(t, sys, mail.OutboxConfig{}) // attu serve's retry waits
	c := td.newGame(t, "Outage")
	td.waitInbox(t, "alice", 1, 30*time.Second)
	td.waitInbox(t, "bob", 1, 30*time.Second)
	td.settled(t, 30*time.Second)
	players := []string{"alice", "bob", "carol"}
	before := inboxSizes(t, td, players)

	stopSMTP(t, sys)
	down := time.Now()
	game := td.gameAddress()
	deliverInbound(t, sys, td.acct["alice"].Address, game, ordersMail(td, "alice", "outage-1@attu.test", c.Tokens[adjudicator.US]))
	status := "From: <" + td.acct["bob"].Address + ">\r\nTo: <" + game + ">\r\nSubject: [attu g1] status\r\n" +
		"Message-ID: <outage-2@attu.test>\r\n\r\nstatus\r\n"
	deliverInbound(t, sys, td.acct["bob"].Address, game, []byte(status))
	if _, err := td.svc.Create(referee.NewGame{ID: "g2", Name: "Meanwhile", US: td.acct["carol"].Address, JP: td.acct["alice"].Address}, time.Now()); err != nil {
		t.Fatal(err)
	}
	td.d.Kick()

	// Every mail due has been tried, and refused, while the server is
	// down; otherwise the test would prove nothing.
	var due []store.Mail
	for {
		due = unsent(t, td.db)
		tried := len(td.ordersApplied(t)) == 1 && len(due) >= 4
		for _, m := range due {
			tried = tried && m.Attempts > 0 && m.LastError != ""
		}
		if tried {
			break
		}
		if time.Since(down) > outage-time.Second {
			t.Fatalf("%v into the outage, the orders are not applied or not every mail was tried: %d mails wait", time.Since(down), len(due))
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Until(down.Add(outage)))
	if after := inboxSizes(t, td, players); !slices.Equal(before, after) {
		t.Fatalf("mail arrived while attu's SMTP server was down: %v before, %v after", before, after)
	}
	startSMTP(t, sys)
	back := time.Now()

	for left := due; len(left) > 0; left = unsent(t, td.db) {
		if time.Since(back) > outage+5*time.Second {
			t.Fatalf("%v after the server came back, %d of %d mails are not sent", time.Since(back), len(left), len(due))
		}
		time.Sleep(100 * time.Millisecond)
	}
	var last time.Duration
	for _, w := range due {
		m, err := td.db.Mail(w.ID)
		if err != nil {
			t.Fatal(err)
		}
		late := m.Sent.Sub(back)
		last = max(last, late)
		if late > outage {
			t.Errorf("%s to %v sent %v after the server came back, want within %v", m.MessageID, m.To, late.Round(time.Millisecond), outage)
		}
		t.Logf("%s to %v: %d attempts, sent %v after the server came back", m.MessageID, m.To, m.Attempts, late.Round(time.Millisecond))
	}
	t.Logf("%d mails waited through an outage of %v; the last went %v after it", len(due), outage, last.Round(time.Millisecond))

	td.settled(t, 30*time.Second)
	for _, user := range players {
		ids, _ := td.received(t, user, "")
		td.receivedOnce(t, user, ids, due)
	}
}

// unsent is every mail of the outbox not sent yet.
func unsent(t *testing.T, db *store.DB) []store.Mail {
	t.Helper()
	ms, err := db.Pending(time.Now().Add(24*time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// inboxSizes is how many mails each user's INBOX holds.
func inboxSizes(t *testing.T, td *testDaemon, users []string) []int {
	t.Helper()
	var n []int
	for _, u := range users {
		ms, err := fetchInbox(td.acct[u])
		if err != nil {
			t.Fatal(err)
		}
		n = append(n, len(ms))
	}
	return n
}

// stopSMTP stops the submission server attu sends through, until
// startSMTP or the end of the test: the loopback SMTP server, or
// Postfix's submission listener (scripts/mailservers.sh smtp-stop).
func stopSMTP(t *testing.T, sys mailSystem) {
	t.Helper()
	switch s := sys.(type) {
	case *loopbackMail:
		if err := s.sys.StopSMTP(); err != nil {
			t.Fatal(err)
		}
	case *realMail:
		mailServersScript(t, s, "smtp-stop")
	default:
		t.Fatalf("stopSMTP: unknown mail system %T", sys)
	}
	// Started again however the test ends, for the tests that follow;
	// starting a running server does nothing.
	t.Cleanup(func() { startSMTP(t, sys) })
}

// startSMTP starts again what stopSMTP stopped.
func startSMTP(t *testing.T, sys mailSystem) {
	t.Helper()
	switch s := sys.(type) {
	case *loopbackMail:
		if err := s.sys.StartSMTP(); err != nil {
			t.Fatal(err)
		}
	case *realMail:
		mailServersScript(t, s, "smtp-start")
	default:
		t.Fatalf("startSMTP: unknown mail system %T", sys)
	}
}

// mailServersScript runs scripts/mailservers.sh cmd on the real servers'
// directory.
func mailServersScript(t *testing.T, r *realMail, cmd string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "../../scripts/mailservers.sh", cmd, r.env["ATTU_MS_DIR"]).CombinedOutput(); err != nil {
		t.Fatalf("scripts/mailservers.sh %s: %v\n%s", cmd, err, out)
	}
}

// deliverInbound hands a player's mail to the mailbox rcpt while attu's
// own SMTP server is stopped, as the player's provider would: the
// loopback system stores it directly (its one SMTP server is down);
// Postfix takes it on its inbound listener, which smtp-stop leaves open.
func deliverInbound(t *testing.T, sys mailSystem, from, rcpt string, raw []byte) {
	t.Helper()
	var err error
	if l, ok := sys.(*loopbackMail); ok {
		err = l.sys.Deliver(from, rcpt, raw)
	} else {
		err = sendRaw(context.Background(), sys, from, []string{rcpt}, raw)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// A reply waits after attu's SMTP server could not be reached, its next
// attempt far off; when the IMAP connection comes back after a cut, the
// daemon sends it at once, as a network back for one server is likely
// back for the other.
func TestDaemonIMAPReconnectWakesOutbox(t *testing.T) {
	ld := startLoopbackDaemon(t, 60*time.Second, mail.OutboxConfig{RetryMin: 40 * time.Second, RetryMax: time.Minute}, "player")
	if err := ld.sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	html := "From: <" + ld.addr["player"] + ">\r\nTo: <" + ld.own + ">\r\nSubject: my orders\r\nMessage-ID: <html-1@attu.test>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>game: g1</p>\r\n"
	if err := ld.sys.Deliver(ld.addr["player"], ld.own, []byte(html)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if ms := unsent(t, ld.db); len(ms) == 1 && ms[0].Attempts > 0 {
			if wait := time.Until(ms[0].NextAttempt); wait < 20*time.Second {
				t.Fatalf("the next attempt is %v away, want about 32 to 40 s", wait)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the answer to the HTML mail was not queued and tried")
		}
	}
	if err := ld.sys.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if n := len(ld.sys.Deliveries()); n != 1 {
		t.Fatalf("%d deliveries before the IMAP cut, want only the player's mail", n)
	}
	cut := time.Now()
	ld.sys.DropConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ds, err := ld.sys.WaitDeliveries(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if ds[1].User != "player" || !strings.Contains(string(ds[1].Data), "In-Reply-To: <html-1@attu.test>") {
		t.Errorf("the second delivery is not the answer:\n%.1000s", ds[1].Data)
	}
	t.Logf("the answer went %v after the IMAP cut", time.Since(cut).Round(time.Millisecond))
}
