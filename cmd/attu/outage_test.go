package main

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// attu's SMTP server stops for 20 s while replies are due: the answers to
// orders and to a command, the welcomes of a game created meanwhile and
// the reports of that game's first deadline, which passes during the
// outage. Meanwhile the IMAP connections are cut three times, the daemon
// is restarted three times and a player's out-of-office reply arrives,
// each of which wakes the outbox. With the waits attu serve uses, every
// reply queued before the server's return leaves within 5 s of it, and
// each reaches its player once. With ATTU_MAILSERVERS set, the server
// stopped is Postfix's submission listener.
func TestE2ERepliesAfterOutage(t *testing.T) {
	const outage = 20 * time.Second
	sys := testMailSystem(t)
	td := startTestDaemonOutbox(t, sys, mail.OutboxConfig{}) // attu serve's waits
	c := td.newGame(t, "Outage")
	td.waitInbox(t, "alice", 1, 30*time.Second)
	td.waitInbox(t, "bob", 1, 30*time.Second)
	td.settled(t, 30*time.Second)
	players := []string{"alice", "bob", "carol"}
	before := inboxSizes(t, td, players)

	stopSMTP(t, sys)
	down := time.Now()
	game := td.gameAddress()
	deliverInbound(t, sys, td.acct["alice"].Address, game, ordersMail(td, "alice", "reply-1@attu.test", c.Tokens[adjudicator.US]))
	status := "From: <" + td.acct["bob"].Address + ">\r\nTo: <" + game + ">\r\nSubject: [attu g1] status\r\n" +
		"Message-ID: <reply-2@attu.test>\r\n\r\nstatus\r\n"
	deliverInbound(t, sys, td.acct["bob"].Address, game, []byte(status))
	// Game g2's U.S. decision is due 6 s into the outage: the deadline
	// tick applies the default orders and queues their reports.
	if _, err := td.svc.Create(referee.NewGame{ID: "g2", Name: "Meanwhile", US: td.acct["carol"].Address, JP: td.acct["alice"].Address,
		Deadlines: map[adjudicator.WaitKind]time.Duration{wind.WaitUSDecision: 6 * time.Second}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	td.d.Kick()

	away := "From: <" + td.acct["bob"].Address + ">\r\nTo: <" + game + ">\r\nSubject: Out of office: [attu g1] status\r\n" +
		"Message-ID: <reply-3@attu.test>\r\nAuto-Submitted: auto-replied\r\n\r\nI am away until Monday.\r\n"
	events := []struct {
		at   time.Duration
		what string
		do   func()
	}{
		{2 * time.Second, "IMAP cut", func() { cutIMAP(t, sys) }},
		{4 * time.Second, "out-of-office mail", func() { deliverInbound(t, sys, td.acct["bob"].Address, game, []byte(away)) }},
		{5 * time.Second, "daemon restart", func() { td.stop(); td.start(t) }},
		{9 * time.Second, "IMAP cut", func() { cutIMAP(t, sys) }},
		{11 * time.Second, "daemon restart", func() { td.stop(); td.start(t) }},
		{14 * time.Second, "IMAP cut", func() { cutIMAP(t, sys) }},
		{16 * time.Second, "daemon restart", func() { td.stop(); td.start(t) }},
	}
	for _, e := range events {
		time.Sleep(time.Until(down.Add(e.at)))
		t.Logf("%v into the outage: %s", time.Since(down).Round(time.Millisecond), e.what)
		e.do()
	}
	time.Sleep(time.Until(down.Add(outage - time.Second)))

	// Every reply has been tried, and refused, while the server was
	// down, and g2's deadline has passed; otherwise the test would
	// prove nothing.
	due := unsent(t, td.db)
	if got := td.ordersApplied(t); len(got) != 1 {
		t.Fatalf("g1's orders applied %d times during the outage, want once", len(got))
	}
	g2, err := td.db.Log("g2", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(g2, func(e store.LogEntry) bool { return e.Kind == store.KindOrders }) {
		t.Fatal("g2's deadline did not pass during the outage")
	}
	games := map[string]int{}
	for _, m := range due {
		games[m.Game]++
		if m.Attempts == 0 || m.LastError == "" {
			t.Errorf("%s to %v was not tried during the outage", m.MessageID, m.To)
		}
	}
	// g1: the report of the orders and the answer to the status; g2: the
	// welcomes, the reminder and the report of the default orders.
	if games["g1"] < 2 || games["g2"] < 4 {
		t.Fatalf("mails waiting by game: %v, want at least 2 of g1 and 4 of g2", games)
	}
	time.Sleep(time.Until(down.Add(outage)))
	if after := inboxSizes(t, td, players); !slices.Equal(before, after) {
		t.Fatalf("mail arrived while attu's SMTP server was down: %v before, %v after", before, after)
	}
	startSMTP(t, sys)
	back := time.Now()

	const within = 5 * time.Second
	for {
		left := 0
		for _, w := range due {
			if m, err := td.db.Mail(w.ID); err != nil {
				t.Fatal(err)
			} else if m.Sent.IsZero() {
				left++
			}
		}
		if left == 0 {
			break
		}
		if time.Since(back) > within+5*time.Second {
			t.Fatalf("%v after the server came back, %d of %d replies are not sent", time.Since(back).Round(time.Millisecond), left, len(due))
		}
		time.Sleep(50 * time.Millisecond)
	}
	var last time.Duration
	for _, w := range due {
		m, err := td.db.Mail(w.ID)
		if err != nil {
			t.Fatal(err)
		}
		late := m.Sent.Sub(back)
		last = max(last, late)
		if late > within {
			t.Errorf("%s to %v sent %v after the server came back, want within %v", m.MessageID, m.To, late.Round(time.Millisecond), within)
		}
		t.Logf("%s to %v: %d attempts, sent %v after the server came back", m.MessageID, m.To, m.Attempts, late.Round(time.Millisecond))
	}
	t.Logf("%d replies waited through an outage of %v; the last went %v after it", len(due), outage, last.Round(time.Millisecond))

	td.settled(t, 30*time.Second)
	all, err := td.db.Outbox("")
	if err != nil {
		t.Fatal(err)
	}
	for _, user := range players {
		ids, _ := td.received(t, user, "")
		td.receivedOnce(t, user, ids, all)
	}
	if _, answers := td.received(t, "bob", "reply-3@attu.test"); answers != 0 {
		t.Errorf("the out-of-office mail got %d answers, want none", answers)
	}
	for _, m := range all {
		if strings.Contains(m.InReplyTo, "reply-3@attu.test") {
			t.Errorf("an answer to the out-of-office mail was queued: %s", m.Subject)
		}
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
