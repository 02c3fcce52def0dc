package main

import (
	"bytes"
	"context"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/mail/loopback"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// faultGame is a game played by mail by two template players through a
// daemon running in this process, on a loopback mail system the test
// breaks at will.
type faultGame struct {
	sys     *loopback.System
	db      *store.DB
	d       *daemon.Daemon
	players []*templatePlayer
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// startFaultGame starts the game; the U.S. player sends one order file
// (turn 1's decision), the Japanese none, until resumed. With smtpDown,
// attu's SMTP server is stopped before the daemon starts and the
// players' mail reaches the mailbox without it, as through their own
// providers.
func startFaultGame(t *testing.T, smtpDown bool) *faultGame {
	t.Helper()
	sys, err := loopback.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Close() })
	addr := map[string]string{}
	for _, u := range []string{"attu", "alice", "bob", "carol"} {
		if addr[u], err = sys.AddUser(u, "pw-"+u); err != nil {
			t.Fatal(err)
		}
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "attu.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := referee.New(db, referee.Config{System: windsys.Rules{}, Address: addr["attu"]})
	d, err := newDaemon(svc, daemon.Config{Address: addr["attu"],
		IMAP: mail.InboxConfig{Addr: sys.IMAPAddr(), Security: mail.Plain, Username: "attu", Password: "pw-attu",
			Processed: "attu-done", Timeout: 5 * time.Second, RetryMin: 50 * time.Millisecond, RetryMax: 500 * time.Millisecond},
		SMTP:   mail.SMTPConfig{Addr: sys.SMTPAddr(), Security: mail.Plain, Timeout: 5 * time.Second},
		Outbox: mail.OutboxConfig{Interval: time.Second, RetryMin: 100 * time.Millisecond, RetryMax: 800 * time.Millisecond},
		Tick:   time.Second,
		Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Create(referee.NewGame{ID: "g1", Name: "Faults", Setup: "historic",
		US: addr["alice"], JP: addr["bob"], Umpire: addr["carol"], Seed: bytes.Repeat([]byte{5}, 32)}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	g := &faultGame{sys: sys, db: db, d: d}
	g.players = []*templatePlayer{
		newTemplatePlayer(t, sys, "alice", "us", c.Tokens[adjudicator.US], 1),
		newTemplatePlayer(t, sys, "bob", "jp", c.Tokens[adjudicator.JP], 0),
	}
	if smtpDown {
		if err := sys.StopSMTP(); err != nil {
			t.Fatal(err)
		}
		for _, p := range g.players {
			p.send = func(from string, to []string, raw []byte) error { return sys.Deliver(from, to[0], raw) }
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	g.cancel = cancel
	g.wg.Add(1)
	go func() { defer g.wg.Done(); d.Run(ctx) }()
	for _, p := range g.players {
		g.wg.Add(1)
		go func() { defer g.wg.Done(); p.inbox.Run(ctx, mail.Position{}) }()
	}
	t.Cleanup(g.stop)
	return g
}

func (g *faultGame) stop() {
	g.cancel()
	g.wg.Wait()
}

// waitApplied waits until the game has applied n order files and sent
// all its mail.
func (g *faultGame) waitApplied(t *testing.T, n int, d time.Duration) {
	t.Helper()
	g.waitOrders(t, n, true, d)
}

// waitOrders waits until the game has applied n order files and, with
// sent, sent all its mail.
func (g *faultGame) waitOrders(t *testing.T, n int, sent bool, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		x, err := g.db.Export("g1", false)
		if err != nil {
			t.Fatal(err)
		}
		pending, err := g.db.Pending(time.Now().Add(time.Hour), 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(x.Orders) >= n && (len(pending) == 0 || !sent) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v the game applied %d order files of %d, %d mails unsent", d, len(x.Orders), n, len(pending))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// quiet waits until no mail has been delivered for half a second.
func (g *faultGame) quiet() {
	for last, still := len(g.sys.Deliveries()), time.Now(); time.Since(still) < 500*time.Millisecond; time.Sleep(20 * time.Millisecond) {
		if n := len(g.sys.Deliveries()); n != last {
			last, still = n, time.Now()
		}
	}
}

// more is how many more order files the fault tests have the players
// play in their last part: about two turns, or two files with -short
// (the race run, where a file takes seconds).
func more() int {
	if testing.Short() {
		return 2
	}
	return 8
}

// playOn lets the players play until the game has applied n more order
// files, then stops them and waits until every file they sent is
// applied and its mail sent.
func (g *faultGame) playOn(t *testing.T, n int, d time.Duration) {
	t.Helper()
	x, err := g.db.Export("g1", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range g.players {
		if err := p.resume(1000); err != nil {
			t.Fatal(err)
		}
	}
	g.waitOrders(t, len(x.Orders)+n, false, d)
	sent := 0
	for _, p := range g.players {
		p.stop()
		sent += len(p.sentFiles())
	}
	g.waitApplied(t, sent, d)
}

// attu's SMTP server stops for a while, twice: at the start, when the
// welcome mails are queued, and in the middle of the game, when the
// reports of an order file are. The players' mail still arrives in the
// mailbox (their provider's servers are up). Nothing reaches them while
// attu's SMTP server is down; once it is back the outbox sends
// everything, the game goes on, and no mail arrives twice.
func TestDaemonSMTPOutage(t *testing.T) {
	g := startFaultGame(t, true)
	sent := func() int {
		n := 0
		for _, d := range g.sys.Deliveries() {
			if d.User != "attu" {
				n++
			}
		}
		return n
	}
	outage := func() {
		t.Helper()
		n := sent()
		time.Sleep(1500 * time.Millisecond)
		if got := sent(); got != n {
			t.Fatalf("%d mails delivered while SMTP was down", got-n)
		}
		ms, err := g.db.Pending(time.Now().Add(time.Hour), 100)
		if err != nil {
			t.Fatal(err)
		}
		tried := 0
		for _, m := range ms {
			if m.Attempts > 0 && m.LastError != "" {
				tried++
			}
		}
		if len(ms) == 0 || tried == 0 {
			t.Fatalf("during the outage %d mails wait, %d of them tried", len(ms), tried)
		}
		if err := g.sys.StartSMTP(); err != nil {
			t.Fatal(err)
		}
	}
	// The welcome mails wait; then the U.S. decision is played.
	outage()
	g.waitApplied(t, 1, 60*time.Second)
	g.quiet()

	// Down again, then the U.S. actions arrive: their reports wait.
	if err := g.sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	if err := g.players[0].resume(2); err != nil {
		t.Fatal(err)
	}
	outage()
	g.waitApplied(t, 2, 60*time.Second)

	// And the game goes on.
	g.playOn(t, more(), 120*time.Second)
	g.quiet()
	g.stop()
	if resent := checkMailOnce(t, g.db, "g1", loopbackDeliveries(g.sys), g.players...); resent != 0 {
		t.Errorf("%d mails delivered twice", resent)
	}
}

// The IMAP server cuts every connection: while the daemon waits in IDLE
// with nothing to do, and again and again while the game is played, the
// players' connections with it. Each time the daemon connects again and
// reads what arrived meanwhile; no order is lost or applied twice and no
// mail is sent twice.
func TestDaemonIMAPCut(t *testing.T) {
	g := startFaultGame(t, false)
	g.waitApplied(t, 1, 60*time.Second)
	g.quiet() // the daemon is in IDLE
	before := g.d.Position()
	g.sys.DropConnections()
	// Mail arriving while the daemon is disconnected: a status command.
	status := mailText([]string{"From: <alice@attu.test>", "To: <attu+g1@attu.test>", "Subject: [attu g1] status",
		"Message-ID: <status-after-cut@attu.test>"}, "status\n")
	if err := smtpSend(g.sys.SMTPAddr(), "alice@attu.test", []string{"attu+g1@attu.test"}, status); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); g.d.Position().LastUID <= before.LastUID; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the mail delivered after the cut was not handled")
		}
	}
	g.quiet()

	// Now cuts at moments spread over the next order files, while the
	// players play on.
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- i
				return
			case <-time.After(time.Duration(30+i*17%120) * time.Millisecond):
			}
			g.sys.DropConnections()
		}
	}()
	g.playOn(t, more(), 120*time.Second)
	close(stop)
	t.Logf("%d cuts while %d order files were played", <-done, more())
	g.quiet()
	g.stop()
	if resent := checkMailOnce(t, g.db, "g1", loopbackDeliveries(g.sys), g.players...); resent != 0 {
		t.Errorf("%d mails delivered twice", resent)
	}
	answered := false
	for _, d := range g.sys.Deliveries() {
		if d.User == "alice" && bytes.Contains(d.Data, []byte("In-Reply-To: <status-after-cut@attu.test>")) {
			answered = true
		}
	}
	if !answered {
		t.Error("the status command sent while the daemon was cut off got no answer")
	}
}
