package mail

import (
	"context"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// The wait after a temporary failure grows by half from its minimum to
// its cap, each shortened by at most a fifth; and whenever an outage
// ends, the next attempt comes at most about two thirds of its length
// later (plus one and a half minimum waits for the shortest), and never
// more than the cap later.
func TestRetryWait(t *testing.T) {
	lo, hi := time.Second, 5*time.Minute
	d := lo
	for n := range 20 {
		for range 50 {
			if w := retryWait(n, lo, hi); w < d-d/5 || w > d {
				t.Fatalf("wait %d is %v, want %v shortened by at most a fifth", n, w, d)
			}
		}
		d = min(d+d/2, hi)
	}
	if d != hi {
		t.Errorf("after 20 attempts the wait is %v, want the cap %v", d, hi)
	}
	for run := range 200 {
		// Attempts from 0 on while the server is down; it comes back
		// at the end of an outage of each length.
		var at []time.Duration
		var now time.Duration
		for n := 0; now < 3*time.Hour; n++ {
			at = append(at, now)
			now += retryWait(n, lo, hi)
		}
		at = append(at, now)
		for outage := 100 * time.Millisecond; outage < 2*time.Hour; outage += outage / 7 {
			i := 0
			for at[i] < outage {
				i++
			}
			late := at[i] - outage
			if limit := min(outage*7/10+lo*3/2, hi); late > limit {
				t.Fatalf("run %d: an outage of %v ends, the next attempt comes %v later, want at most %v (attempts at %v)",
					run, outage, late, limit, at[:i+1])
			}
		}
	}
}

// What a failed attempt says about the next: a server that cannot be
// reached or answers 4yz may take the mail later; a 5yz refusal and a
// mail that cannot be sent as it is will fail the same way again.
func TestSendFailureKinds(t *testing.T) {
	addr := refusingServer(t)
	s, err := NewSender(SMTPConfig{Addr: addr, Security: Plain, From: "attu@attu.test", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxTimeout(t, 10*time.Second)
	send := func(to, id string) error {
		return s.Send(ctx, &Outgoing{To: []string{to}, Subject: "report", MessageID: id, Text: "report"})
	}
	for _, c := range []struct {
		to, id          string
		temporary, down bool
	}{
		{"busy@attu.test", "1@attu.test", true, false},
		{"gone@attu.test", "2@attu.test", false, false},
		{"full@attu.test", "3@attu.test", true, false},
		{"busy@attu.test", "", false, false}, // no Message-ID
	} {
		err := send(c.to, c.id)
		if err == nil {
			t.Fatalf("%s: sent", c.to)
		}
		if temporary(err) != c.temporary || serverDown(err) != c.down {
			t.Errorf("%s %q: %v: temporary %v, server down %v; want %v, %v", c.to, c.id, err, temporary(err), serverDown(err), c.temporary, c.down)
		}
	}
	if err := send("ok@attu.test", "4@attu.test"); err != nil {
		t.Errorf("a mail the server takes: %v", err)
	}

	// Nothing listens any more: every mail of the batch fails alike.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	s, err = NewSender(SMTPConfig{Addr: closed, Security: Plain, From: "attu@attu.test", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	errs := s.sendAll(ctx, []*Outgoing{
		{To: []string{"ok@attu.test"}, MessageID: "5@attu.test"}, {To: []string{"ok@attu.test"}, MessageID: "6@attu.test"}})
	for i, err := range errs {
		if err == nil || !temporary(err) || !serverDown(err) {
			t.Errorf("mail %d to a closed port: %v: temporary %v, server down %v", i, err, temporary(err), serverDown(err))
		}
	}
}

// refusingServer is an SMTP server on loopback that refuses busy@ for now
// (451), gone@ for good (550), takes the data of full@ only to refuse it
// for now (452), and takes everything else.
func refusingServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &refusing{}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

type refusing struct{ rcpt string }

func (r *refusing) Reset()                               { r.rcpt = "" }
func (r *refusing) Logout() error                        { return nil }
func (r *refusing) Mail(string, *smtp.MailOptions) error { return nil }
func (r *refusing) Rcpt(to string, _ *smtp.RcptOptions) error {
	switch {
	case strings.HasPrefix(to, "busy@"):
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	case strings.HasPrefix(to, "gone@"):
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such mailbox"}
	}
	r.rcpt = to
	return nil
}

func (r *refusing) Data(rd io.Reader) error {
	if _, err := io.Copy(io.Discard, rd); err != nil {
		return err
	}
	if strings.HasPrefix(r.rcpt, "full@") {
		return &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 3, 1}, Message: "out of space for now"}
	}
	return nil
}

// runOutbox runs o until the test ends.
func runOutbox(t *testing.T, o *Outbox) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); o.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// While attu's SMTP server is down, a mail is tried again after waits that
// grow by half from RetryMin to RetryMax, never before its time; once the
// server is back, the next attempt delivers it, no kick needed.
func TestOutboxRetryCadence(t *testing.T) {
	sys, own := system(t, nil)
	us, _ := sys.AddUser("us", "secret")
	if err := sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	q := &memQueue{}
	q.add(Outgoing{To: []string{us}, Subject: "[attu g1] report", MessageID: "g1.1.us@attu.test", Text: "report"})
	lo, hi := 100*time.Millisecond, 800*time.Millisecond
	runOutbox(t, NewOutbox(q, sender(t, sys, own), OutboxConfig{Interval: time.Minute, RetryMin: lo, RetryMax: hi}))
	eventually(t, 20*time.Second, "nine failed attempts", func() bool { return q.snapshot()[0].Attempts >= 9 })
	m := q.snapshot()[0]
	checkBackoff(t, m, lo, hi)
	if err := sys.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	if _, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 1); err != nil {
		t.Fatal(err)
	}
	if late := time.Since(back); late > hi+300*time.Millisecond {
		t.Errorf("delivered %v after the server came back, want within RetryMax %v", late, hi)
	}
}

// A mail waiting after attu's SMTP server could not be reached goes as
// soon as the server is known to be back: at Wake (the IMAP server
// answered again), and when another mail went through. A mail the server
// refused for good keeps its own, slower rule through both.
func TestOutboxWake(t *testing.T) {
	sys, own := system(t, nil)
	us, _ := sys.AddUser("us", "secret")
	q := &memQueue{}
	o := NewOutbox(q, sender(t, sys, own), OutboxConfig{Interval: time.Minute, RetryMin: 20 * time.Second, RetryMax: time.Minute})
	runOutbox(t, o)
	attempts := func(i, n int, what string) {
		t.Helper()
		eventually(t, 10*time.Second, what, func() bool { return q.snapshot()[i].Attempts >= n })
	}
	// delivered waits for n deliveries in all, recorded as sent: the
	// server stopped before the outbox heard its answer would have the
	// mail sent again.
	delivered := func(n int, what string) {
		t.Helper()
		if _, err := sys.WaitDeliveries(ctxTimeout(t, 3*time.Second), n); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		eventually(t, 3*time.Second, what+" recorded", func() bool {
			sent := 0
			for _, m := range q.snapshot() {
				if !m.sent.IsZero() {
					sent++
				}
			}
			return sent >= n
		})
	}
	q.add(Outgoing{To: []string{"nobody@" + sys.Domain()}, Subject: "report", MessageID: "refused@attu.test", Text: "report"})
	o.Kick()
	attempts(0, 1, "the mail to nobody tried")
	if r := q.snapshot()[0]; r.cause == nil || temporary(r.cause) || r.nexts[0].Sub(r.failed[0]) < 59*time.Second {
		t.Fatalf("the mail to nobody: %v, next attempt %v later", r.cause, r.nexts[0].Sub(r.failed[0]))
	}

	if err := sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	q.add(Outgoing{To: []string{us}, Subject: "report", MessageID: "a@attu.test", Text: "report a"})
	o.Kick()
	attempts(1, 1, "mail a tried while the server is down")
	if err := sys.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	o.Wake()
	delivered(1, "mail a after Wake")

	if err := sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	q.add(Outgoing{To: []string{us}, Subject: "report", MessageID: "b@attu.test", Text: "report b"})
	o.Kick()
	attempts(2, 1, "mail b tried while the server is down")
	if err := sys.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	q.add(Outgoing{To: []string{us}, Subject: "report", MessageID: "c@attu.test", Text: "report c"})
	o.Kick()
	delivered(3, "mail c, then mail b at once")
	time.Sleep(200 * time.Millisecond)
	s := q.snapshot()
	if s[0].Attempts != 1 || s[1].Attempts != 2 || s[2].Attempts != 2 || s[3].Attempts != 1 {
		t.Errorf("attempts %d, %d, %d, %d; want the refused mail tried once, a and b twice, c once",
			s[0].Attempts, s[1].Attempts, s[2].Attempts, s[3].Attempts)
	}
	if n := len(sys.Deliveries()); n != 3 {
		t.Errorf("%d deliveries, want 3", n)
	}
}

// OnConnect is called each time the inbox has a session again: at the
// start and after the server cut the connection.
func TestInboxOnConnect(t *testing.T) {
	sys, _ := system(t, nil)
	cfg := inboxConfig(t, sys)
	var n atomic.Int32
	cfg.OnConnect = func() { n.Add(1) }
	in, err := NewInbox(cfg, func(context.Context, *Incoming) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); in.Run(ctx, Position{}) }()
	defer func() { cancel(); <-done }()
	eventually(t, 5*time.Second, "the first session", func() bool { return n.Load() == 1 })
	sys.DropConnections()
	eventually(t, 5*time.Second, "a session after the cut", func() bool { return n.Load() == 2 })
}

// A kick that finds nothing due leaves the next retry where it was: a
// mail that failed while the server was down goes when its retry falls
// due, not an Interval after the kick.
func TestOutboxKickKeepsRetry(t *testing.T) {
	sys, own := system(t, nil)
	us, _ := sys.AddUser("us", "secret")
	if err := sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	q := &memQueue{}
	q.add(Outgoing{To: []string{us}, Subject: "[attu g1] report", MessageID: "g1.1.us@attu.test", Text: "report"})
	// RetryMax keeps the look for the server (probeWait) from coming
	// before the retry.
	lo := 800 * time.Millisecond
	o := NewOutbox(q, sender(t, sys, own), OutboxConfig{Interval: time.Minute, RetryMin: lo, RetryMax: lo})
	runOutbox(t, o)
	eventually(t, 5*time.Second, "the first attempt", func() bool { return q.snapshot()[0].Attempts >= 1 })
	if err := sys.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	// Kicks from a deadline tick and from handled mail needing no answer.
	for range 3 {
		o.Kick()
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 1); err != nil {
		t.Fatalf("the retry after the kicks: %v", err)
	}
	m := q.snapshot()[0]
	eventually(t, 3*time.Second, "the mail recorded as sent", func() bool { m = q.snapshot()[0]; return !m.sent.IsZero() })
	if late := m.sent.Sub(m.nexts[0]); late < 0 || late > 300*time.Millisecond {
		t.Errorf("sent %v after its retry fell due, want at it", late)
	}
	if m.Attempts != 2 {
		t.Errorf("%d attempts, want the failed one and the one that went", m.Attempts)
	}
}

// During an outage, kicks, wakes (the IMAP session reconnecting) and
// restarts of the worker make no attempt at a mail before its time, so
// its waits grow with the time it has waited, not with the wakes; and
// once the server is back, the mail goes within the look for it
// (probeWait), long before its own next attempt.
func TestOutboxOutage(t *testing.T) {
	sys, own := system(t, nil)
	us, _ := sys.AddUser("us", "secret")
	if err := sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	q := &memQueue{}
	q.add(Outgoing{To: []string{us}, Subject: "[attu g1] report", MessageID: "g1.1.us@attu.test", Text: "report"})
	lo, hi := 200*time.Millisecond, time.Minute
	cfg := OutboxConfig{Interval: time.Minute, RetryMin: lo, RetryMax: hi}
	s := sender(t, sys, own)
	start := func() (*Outbox, func()) {
		o := NewOutbox(q, s, cfg)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); o.Run(ctx) }()
		return o, func() { cancel(); <-done }
	}
	o, stop := start()
	defer func() { stop() }()
	// Seven attempts take 2.6 s to 3.3 s; the seventh's wait is 1.8 s to
	// 2.3 s. Meanwhile the worker is woken every 20 ms, and restarted
	// every 500 ms.
	restarted := time.Now()
	for q.snapshot()[0].Attempts < 7 {
		if time.Since(restarted) > 10*time.Second {
			t.Fatal("no seven attempts in 10 s")
		}
		if time.Since(restarted) > 500*time.Millisecond {
			stop()
			o, stop = start()
			restarted = time.Now()
		}
		o.Wake()
		o.Kick()
		time.Sleep(20 * time.Millisecond)
	}
	m := q.snapshot()[0]
	checkBackoff(t, m, lo, hi)
	if err := sys.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	if _, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 1); err != nil {
		t.Fatal(err)
	}
	// The outage lasted at most 3.5 s: the look for the server comes
	// at most half a second apart.
	late := time.Since(back)
	if late > 800*time.Millisecond {
		t.Errorf("delivered %v after the server came back, want within 0.8 s", late)
	}
	if due := m.nexts[len(m.nexts)-1]; !back.Add(late).Before(due) {
		t.Errorf("delivered at the mail's own retry (%v), not at the look for the server", due.Sub(back))
	}
	eventually(t, 3*time.Second, "the mail recorded as sent", func() bool { return !q.snapshot()[0].sent.IsZero() })
	if a := q.snapshot()[0].Attempts; a != 8 {
		t.Errorf("%d attempts, want the seven failed and the one that went", a)
	}
	if n := len(sys.Deliveries()); n != 1 {
		t.Errorf("%d deliveries, want 1", n)
	}
}

// checkBackoff requires m's attempts to have waited as retryWait says,
// from lo growing by half each time up to hi, each attempt no earlier
// than the time set after the one before. The wait is counted from
// before the attempt, so the recorded one is at most the attempt's
// length shorter.
func checkBackoff(t *testing.T, m queued, lo, hi time.Duration) {
	t.Helper()
	d := lo
	for n := range m.Attempts {
		if w := m.nexts[n].Sub(m.failed[n]); w > d || w < d-d/5-50*time.Millisecond {
			t.Errorf("after attempt %d the next is %v later, want %v less at most a fifth", n+1, w, d)
		}
		if n > 0 && m.failed[n].Before(m.nexts[n-1]) {
			t.Errorf("attempt %d at %v, before its time %v", n+1, m.failed[n], m.nexts[n-1])
		}
		d = min(d+d/2, hi)
	}
}
