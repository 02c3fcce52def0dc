package main

import (
	"bytes"
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
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
	d       *daemon
	players []*templatePlayer
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

func startFaultGame(t *testing.T, maxTurn int) *faultGame {
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
	svc := referee.New(db, referee.Config{Address: addr["attu"]})
	d, err := newDaemon(svc, daemonConfig{Address: addr["attu"],
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
		newTemplatePlayer(t, sys, "alice", "us", c.Tokens[adjudicator.US], maxTurn),
		newTemplatePlayer(t, sys, "bob", "jp", c.Tokens[adjudicator.JP], maxTurn),
	}
	ctx, cancel := context.WithCancel(context.Background())
	g.cancel = cancel
	g.wg.Add(1)
	go func() { defer g.wg.Done(); d.run(ctx) }()
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

// waitTurn waits until the game waits for turn n or later, and for its
// mail to be sent.
func (g *faultGame) waitTurn(t *testing.T, n int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		gm, err := g.db.Game("g1")
		if err != nil {
			t.Fatal(err)
		}
		pending, err := g.db.Pending(time.Now().Add(time.Hour), 1)
		if err != nil {
			t.Fatal(err)
		}
		if gm.Wait.Turn >= n && len(pending) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v the game waits for turn %d %s, %d mails unsent", d, gm.Wait.Turn, gm.Wait.Kind, len(pending))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// attu's SMTP server stops for a while, twice: at the start, when the
// welcome mails are queued, and in the middle of the game, when the
// reports of an order file are. The players' mail still arrives in the
// mailbox (their provider's servers are up). Nothing reaches them while
// attu's SMTP server is down; once it is back the outbox sends
// everything, the game goes on, and no mail arrives twice.
func TestDaemonSMTPOutage(t *testing.T) {
	g := startFaultGame(t, 1)
	if err := g.sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	for _, p := range g.players {
		p.send = func(from string, to []string, raw []byte) error { return g.sys.Deliver(from, to[0], raw) }
	}
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
	outage()
	g.waitTurn(t, 2, 30*time.Second)

	// Turn 2 waits for the U.S. decision, which the U.S. player holds
	// back. Down again, then the decision arrives: its reports wait.
	time.Sleep(200 * time.Millisecond)
	if err := g.sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	for _, p := range g.players {
		if err := p.resume(3); err != nil {
			t.Fatal(err)
		}
	}
	outage()
	g.waitTurn(t, 4, 30*time.Second)
	time.Sleep(300 * time.Millisecond) // any late or repeated mail would show
	g.stop()
	if resent := checkMailOnce(t, g.db, "g1", g.sys, g.players...); resent != 0 {
		t.Errorf("%d mails delivered twice", resent)
	}
}

// The IMAP server cuts every connection: while the daemon waits in IDLE
// with nothing to do, and again and again while the game is played, the
// players' connections with it. Each time the daemon connects again and
// reads what arrived meanwhile; no order is lost or applied twice and no
// mail is sent twice.
func TestDaemonIMAPCut(t *testing.T) {
	// The players play turn 1 only: then the daemon has nothing to do.
	g := startFaultGame(t, 1)
	g.waitTurn(t, 2, 30*time.Second)
	// Quiet: everyone's mail is handled; the daemon is in IDLE.
	quiet := func() {
		for last, still := len(g.sys.Deliveries()), time.Now(); time.Since(still) < 500*time.Millisecond; time.Sleep(20 * time.Millisecond) {
			if n := len(g.sys.Deliveries()); n != last {
				last, still = n, time.Now()
			}
		}
	}
	quiet()
	before := g.d.inbox.Position()
	g.sys.DropConnections()
	// Mail arriving while the daemon is disconnected: a status command.
	status := mailText([]string{"From: <alice@attu.test>", "To: <attu+g1@attu.test>", "Subject: [attu g1] status",
		"Message-ID: <status-after-cut@attu.test>"}, "status\n")
	if err := smtpSend(g.sys.SMTPAddr(), "alice@attu.test", []string{"attu+g1@attu.test"}, status); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); g.d.inbox.Position().LastUID <= before.LastUID; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the mail delivered after the cut was not handled")
		}
	}
	quiet()

	// Now cuts at moments spread over the next turns, while the players
	// play on.
	for _, p := range g.players {
		if err := p.resume(4); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan int)
	go func() {
		for i := 0; ; i++ {
			time.Sleep(time.Duration(30+i*17%120) * time.Millisecond)
			if gm, err := g.db.Game("g1"); err != nil || gm.Wait.Turn >= 4 {
				done <- i
				return
			}
			g.sys.DropConnections()
		}
	}()
	g.waitTurn(t, 4, 45*time.Second)
	t.Logf("%d cuts while turns 2 and 3 were played", <-done)
	quiet()
	g.stop()
	if resent := checkMailOnce(t, g.db, "g1", g.sys, g.players...); resent != 0 {
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
