package mail

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/attu-pbem/attu/mail/loopback"
)

func deliver(t *testing.T, sys *loopback.System, own, id string) {
	t.Helper()
	if err := sys.Deliver("us@attu.test", own, rawMail("us@attu.test", own, "orders", id, "status")); err != nil {
		t.Fatal(err)
	}
}

func uidValidity(t *testing.T, sys *loopback.System, name string) uint32 {
	t.Helper()
	c, sel := lookAt(t, sys, name)
	defer c.Close()
	return sel.UIDValidity
}

// New mail arrives while the inbox is in IDLE: with its timers an hour
// away, only the server's EXISTS can have woken it.
func TestInboxIdle(t *testing.T) {
	sys, own := system(t, nil)
	g := newGot()
	deliver(t, sys, own, "m1@attu.test")
	in, _ := runInbox(t, inboxConfig(t, sys), Position{}, g.extracting(t))
	g.wait(t, 1, 5*time.Second)
	time.Sleep(100 * time.Millisecond) // into IDLE
	deliver(t, sys, own, "m2@attu.test")
	msgs := g.wait(t, 2, 5*time.Second)
	if msgs[0].MessageID != "m1@attu.test" || msgs[1].MessageID != "m2@attu.test" {
		t.Errorf("handled %s, %s; want m1, m2 in order", msgs[0].MessageID, msgs[1].MessageID)
	}
	eventually(t, 5*time.Second, "both mails flagged \\Seen", func() bool {
		ms := mailbox(t, sys, "INBOX")
		return len(ms) == 2 && hasFlag(ms[0].Flags, imap.FlagSeen) && hasFlag(ms[1].Flags, imap.FlagSeen)
	})
	// The position moves once the second mail is marked, a moment after
	// the flag is visible to another client.
	want := uidValidity(t, sys, "INBOX")
	eventually(t, 5*time.Second, "the position at the second mail", func() bool {
		p := in.Position()
		return p.LastUID == 2 && p.UIDValidity == want
	})
}

// A mail delivered after the search and before the IDLE that follows it
// is announced as soon as IDLE begins, not at the next IDLE restart (an
// hour away here). The server queued its EXISTS while no command was
// running; the loopback server sends that queue when IDLE starts.
func TestInboxIdleMailBeforeIdle(t *testing.T) {
	sys, own := system(t, nil)
	g := newGot()
	cfg := inboxConfig(t, sys)
	var n atomic.Int32
	cfg.beforeIdle = func() {
		// Deliver in the gap twice: after the first mail's search, and
		// after the search that found the mail delivered here.
		if i := n.Add(1); i <= 2 {
			id := fmt.Sprintf("gap%d@attu.test", i)
			if err := sys.Deliver("us@attu.test", own, rawMail("us@attu.test", own, "orders", id, "status")); err != nil {
				t.Error(err) // not Fatal: this is the inbox's goroutine
			}
		}
	}
	deliver(t, sys, own, "m1@attu.test")
	runInbox(t, cfg, Position{}, g.extracting(t))
	msgs := g.wait(t, 3, 3*time.Second)
	for i, want := range []string{"m1@attu.test", "gap1@attu.test", "gap2@attu.test"} {
		if msgs[i].MessageID != want {
			t.Errorf("mail %d is %s, want %s", i, msgs[i].MessageID, want)
		}
	}
}

// proxy relays one IMAP server, letting a test rewrite what the server
// says, line by line, and watch what the client says.
type proxy struct {
	ln      net.Listener
	target  string
	server  func(line string) string // rewrites a server line; "" drops it
	client  func(line string)
	mu      sync.Mutex
	conns   []net.Conn
	stopped atomic.Bool
}

func newProxy(t *testing.T, target string, server func(string) string, client func(string)) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, server: server, client: client}
	go p.serve()
	t.Cleanup(func() {
		p.stopped.Store(true)
		ln.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
	})
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go relay(s, c, p.server, nil)
		go relay(c, s, nil, p.client)
	}
}

// relay copies from one side to the other. A rewrite works on lines, so
// it is for plaintext only; without one, bytes pass as they come (a TLS
// record must not wait for a newline) and watch sees each chunk's lines.
func relay(from, to net.Conn, rewrite func(string) string, watch func(string)) {
	defer to.Close()
	defer from.Close()
	if rewrite == nil {
		buf := make([]byte, 32<<10)
		for {
			n, err := from.Read(buf)
			if n > 0 {
				if watch != nil {
					for _, l := range strings.SplitAfter(string(buf[:n]), "\n") {
						watch(l)
					}
				}
				if _, werr := to.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}
	r := bufio.NewReader(from)
	for {
		line, err := r.ReadString('\n')
		if line != "" {
			if watch != nil {
				watch(line)
			}
			if rewrite != nil {
				line = rewrite(line)
			}
			if _, werr := io.WriteString(to, line); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

var idleCap = regexp.MustCompile(`(?i) IDLE\b`)

// withoutIdle removes IDLE from capability lists, as a server without
// IDLE sends them.
func withoutIdle(line string) string {
	if strings.Contains(strings.ToUpper(line), "CAPABILITY") {
		return idleCap.ReplaceAllString(line, "")
	}
	return line
}

// A server without IDLE is polled, and the client never tries IDLE.
func TestInboxPolling(t *testing.T) {
	sys, own := system(t, &loopback.Options{IMAPCaps: imap.CapSet{imap.CapIMAP4rev1: {}}})
	var triedIdle atomic.Bool
	p := newProxy(t, sys.IMAPAddr(), withoutIdle, func(line string) {
		if f := strings.Fields(line); len(f) == 2 && strings.EqualFold(f[1], "IDLE") {
			triedIdle.Store(true)
		}
	})
	cfg := inboxConfig(t, sys)
	cfg.Addr = p.addr()
	cfg.PollInterval = 100 * time.Millisecond
	g := newGot()
	runInbox(t, cfg, Position{}, g.extracting(t))
	time.Sleep(150 * time.Millisecond)
	deliver(t, sys, own, "p1@attu.test")
	deliver(t, sys, own, "p2@attu.test")
	msgs := g.wait(t, 2, 5*time.Second)
	if msgs[1].MessageID != "p2@attu.test" {
		t.Errorf("second mail %s, want p2", msgs[1].MessageID)
	}
	if triedIdle.Load() {
		t.Error("the client sent IDLE to a server that does not offer it")
	}
}

// A server that drops IDLE notifications still has its new mail found:
// IDLE is restarted with a search every IdleRestart.
func TestInboxIdleRestart(t *testing.T) {
	sys, own := system(t, nil)
	exists := regexp.MustCompile(`^\* \d+ EXISTS`)
	var idles atomic.Int32
	p := newProxy(t, sys.IMAPAddr(), func(line string) string {
		if os.Getenv("ATTU_MAIL_LOG") != "" {
			t.Logf("S: %q", line)
		}
		if exists.MatchString(line) {
			return "" // lost notification
		}
		return line
	}, func(line string) {
		if f := strings.Fields(line); len(f) == 2 && strings.EqualFold(f[1], "IDLE") {
			idles.Add(1)
		}
	})
	cfg := inboxConfig(t, sys)
	cfg.Addr = p.addr()
	cfg.IdleRestart = 150 * time.Millisecond
	g := newGot()
	runInbox(t, cfg, Position{}, g.extracting(t))
	time.Sleep(100 * time.Millisecond)
	deliver(t, sys, own, "r1@attu.test")
	g.wait(t, 1, 5*time.Second)
	eventually(t, 5*time.Second, "IDLE started again after the search", func() bool { return idles.Load() >= 2 })
}

// A handler error leaves the mail unseen and it is offered again; later
// mail is not held up, and the position stays below the failed mail
// until it succeeds.
func TestInboxHandlerError(t *testing.T) {
	sys, own := system(t, nil)
	deliver(t, sys, own, "bad@attu.test")
	deliver(t, sys, own, "good@attu.test")
	allow := make(chan struct{})
	var tries atomic.Int32
	g := newGot()
	h := func(ctx context.Context, m *Incoming) error {
		raw, err := m.Fetch(ctx)
		if err != nil {
			return err
		}
		msg, _ := Extract(strings.NewReader(string(raw)), Limits{})
		if msg.MessageID == "bad@attu.test" {
			tries.Add(1)
			select {
			case <-allow:
			default:
				return errors.New("store unavailable")
			}
		}
		g.add(m.UID, msg)
		return nil
	}
	cfg := inboxConfig(t, sys)
	cfg.MaxAttempts = 100
	in, _ := runInbox(t, cfg, Position{}, h)
	g.wait(t, 1, 5*time.Second)
	eventually(t, 5*time.Second, "the failed mail offered again", func() bool { return tries.Load() >= 3 })
	ms := mailbox(t, sys, "INBOX")
	if hasFlag(ms[0].Flags, imap.FlagSeen) {
		t.Error("a mail whose handler failed is flagged \\Seen")
	}
	if !hasFlag(ms[1].Flags, imap.FlagSeen) {
		t.Error("the mail after it was not handled and flagged")
	}
	if p := in.Position(); p.LastUID != 0 {
		t.Errorf("position %+v moved past a mail not handled", p)
	}
	close(allow)
	g.wait(t, 2, 5*time.Second)
	eventually(t, 5*time.Second, "position past both mails", func() bool { return in.Position().LastUID == 2 })
	if ms := mailbox(t, sys, "INBOX"); !hasFlag(ms[0].Flags, imap.FlagSeen) {
		t.Error("the mail is not flagged \\Seen once its handler succeeded")
	}
	if g.count() != 2 {
		t.Errorf("%d mails handled, want 2: a handled mail was offered again", g.count())
	}
}

// A mail whose handler fails every time is given up on after
// MaxAttempts tries: moved to the failed folder, reported once to
// OnGiveUp, and never offered again; the mail after it is handled.
func TestInboxGivesUp(t *testing.T) {
	sys, own := system(t, nil)
	deliver(t, sys, own, "poison@attu.test")
	deliver(t, sys, own, "good@attu.test")
	var tries atomic.Int32
	var gaveUp []string
	var mu sync.Mutex
	g := newGot()
	h := func(ctx context.Context, m *Incoming) error {
		raw, err := m.Fetch(ctx)
		if err != nil {
			return err
		}
		msg, _ := Extract(strings.NewReader(string(raw)), Limits{})
		if msg.MessageID == "poison@attu.test" {
			tries.Add(1)
			return errors.New("key too large")
		}
		g.add(m.UID, msg)
		return nil
	}
	cfg := inboxConfig(t, sys)
	cfg.Processed, cfg.Failed = "attu-done", "attu-failed"
	cfg.OnGiveUp = func(m *Incoming, err error) {
		mu.Lock()
		defer mu.Unlock()
		gaveUp = append(gaveUp, fmt.Sprint(m.UID, " ", err))
	}
	in, _ := runInbox(t, cfg, Position{}, h)
	g.wait(t, 1, 5*time.Second)
	eventually(t, 10*time.Second, "the failing mail moved", func() bool { return len(mailbox(t, sys, "attu-failed")) == 1 })
	in.Kick()
	time.Sleep(200 * time.Millisecond)
	if n := tries.Load(); n != 3 {
		t.Errorf("the failing mail was tried %d times, want 3", n)
	}
	mu.Lock()
	if len(gaveUp) != 1 || gaveUp[0] != "1 key too large" {
		t.Errorf("given up: %q", gaveUp)
	}
	mu.Unlock()
	failed, done := mailbox(t, sys, "attu-failed"), mailbox(t, sys, "attu-done")
	if len(failed) != 1 || failed[0].ID != "poison@attu.test" || len(done) != 1 || done[0].ID != "good@attu.test" {
		t.Errorf("failed folder %+v, processed folder %+v", failed, done)
	}
	if ms := mailbox(t, sys, "INBOX"); len(ms) != 0 {
		t.Errorf("INBOX still holds %+v", ms)
	}
}

// Handled mail moves to the processed folder: with MOVE, with COPY and
// UID EXPUNGE where there is only UIDPLUS (which leaves alone mail
// someone else flagged \Deleted), and not at all without either.
func TestInboxProcessedFolder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		caps  imap.CapSet
		moved bool
	}{
		{"move", imap.CapSet{imap.CapIMAP4rev2: {}}, true},
		{"uidplus", imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapUIDPlus: {}}, true},
		{"neither", imap.CapSet{imap.CapIMAP4rev1: {}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, own := system(t, &loopback.Options{IMAPCaps: tc.caps})
			// A mail someone else handled and flagged \Deleted, below the
			// position the inbox starts from.
			deliver(t, sys, own, "other@attu.test")
			c, err := imapclient.DialInsecure(sys.IMAPAddr(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Login("attu", "secret").Wait(); err != nil {
				t.Fatal(err)
			}
			sel, err := c.Select("INBOX", nil).Wait()
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
				t.Fatal(err)
			}
			c.Logout().Wait()

			deliver(t, sys, own, "mine@attu.test")
			cfg := inboxConfig(t, sys)
			cfg.Processed = "attu-done"
			g := newGot()
			runInbox(t, cfg, Position{UIDValidity: sel.UIDValidity, LastUID: 1}, g.extracting(t))
			if msgs := g.wait(t, 1, 5*time.Second); msgs[0].MessageID != "mine@attu.test" {
				t.Fatalf("handled %s", msgs[0].MessageID)
			}
			var inbox, done []seen
			eventually(t, 5*time.Second, "the mail marked", func() bool {
				inbox, done = mailbox(t, sys, "INBOX"), mailbox(t, sys, "attu-done")
				if tc.moved {
					return len(done) == 1 && len(inbox) == 1
				}
				return len(inbox) == 2 && hasFlag(inbox[1].Flags, imap.FlagSeen)
			})
			if tc.moved {
				if done[0].ID != "mine@attu.test" || !hasFlag(done[0].Flags, imap.FlagSeen) {
					t.Errorf("processed folder holds %+v", done)
				}
				if len(inbox) != 1 || inbox[0].ID != "other@attu.test" || !hasFlag(inbox[0].Flags, imap.FlagDeleted) {
					t.Errorf("INBOX holds %+v, want only the other mail, still flagged \\Deleted", inbox)
				}
			} else if len(done) != 0 {
				t.Errorf("processed folder holds %+v without MOVE or UIDPLUS", done)
			}
		})
	}
}

// A changed UIDVALIDITY makes the inbox read the mailbox from the start;
// an unchanged one resumes after the position.
func TestInboxUIDValidity(t *testing.T) {
	sys, own := system(t, nil)
	deliver(t, sys, own, "a1@attu.test")
	deliver(t, sys, own, "a2@attu.test")
	deliver(t, sys, own, "a3@attu.test")
	v := uidValidity(t, sys, "INBOX")

	g := newGot()
	in, stop := runInbox(t, inboxConfig(t, sys), Position{UIDValidity: v, LastUID: 2}, g.extracting(t))
	if msgs := g.wait(t, 1, 5*time.Second); msgs[0].MessageID != "a3@attu.test" {
		t.Errorf("resuming after UID 2 handled %s first, want a3", msgs[0].MessageID)
	}
	eventually(t, 5*time.Second, "position at UID 3", func() bool { return in.Position().LastUID == 3 })
	stop()
	if g.count() != 1 {
		t.Errorf("handled %d mails, want only the one after the position", g.count())
	}
	old := in.Position()

	// The mailbox is recreated (a server migration): new UIDs.
	u := sys.User("attu")
	if err := u.Delete("INBOX"); err != nil {
		t.Fatal(err)
	}
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	deliver(t, sys, own, "b1@attu.test")
	var positions []Position
	var mu sync.Mutex
	cfg := inboxConfig(t, sys)
	cfg.OnPosition = func(p Position) { mu.Lock(); positions = append(positions, p); mu.Unlock() }
	g2 := newGot()
	in2, _ := runInbox(t, cfg, old, g2.extracting(t))
	if msgs := g2.wait(t, 1, 5*time.Second); msgs[0].MessageID != "b1@attu.test" || g2.uids[0] != 1 {
		t.Errorf("after the change handled %s (UID %d), want b1 at UID 1", msgs[0].MessageID, g2.uids[0])
	}
	eventually(t, 5*time.Second, "position at UID 1 of the new mailbox", func() bool {
		p := in2.Position()
		return p.UIDValidity != old.UIDValidity && p.LastUID == 1
	})
	mu.Lock()
	defer mu.Unlock()
	if len(positions) == 0 || positions[len(positions)-1] != in2.Position() {
		t.Errorf("OnPosition saw %+v, want it to end at %+v", positions, in2.Position())
	}
}

// The server cuts the connection during IDLE: the inbox reconnects and
// finds the mail that arrived meanwhile.
func TestInboxReconnect(t *testing.T) {
	sys, own := system(t, nil)
	g := newGot()
	deliver(t, sys, own, "c1@attu.test")
	runInbox(t, inboxConfig(t, sys), Position{}, g.extracting(t))
	g.wait(t, 1, 5*time.Second)
	time.Sleep(100 * time.Millisecond) // into IDLE
	sys.DropConnections()
	deliver(t, sys, own, "c2@attu.test")
	if msgs := g.wait(t, 2, 5*time.Second); msgs[1].MessageID != "c2@attu.test" {
		t.Errorf("after reconnecting handled %s", msgs[1].MessageID)
	}
	if g.count() != 2 {
		t.Errorf("%d mails handled, want 2", g.count())
	}
}

// A server that accepts and hangs up at once is retried with a growing,
// capped wait, and Run still ends with its context.
func TestInboxBackoff(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepts atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepts.Add(1)
			c.Close()
		}
	}()
	cfg := InboxConfig{Addr: ln.Addr().String(), Security: Plain, Timeout: time.Second,
		RetryMin: 20 * time.Millisecond, RetryMax: 80 * time.Millisecond, Logger: testLogger(t)}
	_, stop := runInbox(t, cfg, Position{}, func(context.Context, *Incoming) error { return nil })
	time.Sleep(600 * time.Millisecond)
	stop()
	// Waits: 10-20, 20-40, then 40-80 ms each: between 8 and 60 attempts
	// fit in 600 ms (the low bound leaves room for a slow machine).
	if n := accepts.Load(); n < 4 || n > 60 {
		t.Errorf("%d connection attempts in 600 ms, want a capped backoff's worth", n)
	}
}

// An oversized mail is handed over with its header only, and its body is
// never downloaded.
func TestInboxOversized(t *testing.T) {
	sys, own := system(t, nil)
	body := strings.Repeat("BODYMARK 0123456789\r\n", 2000) // 42 KB
	if err := sys.Deliver("us@attu.test", own, rawMail("Player <us@attu.test>", own, "huge", "big@attu.test", body)); err != nil {
		t.Fatal(err)
	}
	cfg := inboxConfig(t, sys)
	cfg.MaxSize = 8 << 10
	type result struct {
		size      int64
		oversized bool
		raw       string
		msg       *Message
	}
	res := make(chan result, 1)
	runInbox(t, cfg, Position{}, func(ctx context.Context, m *Incoming) error {
		raw, err := m.Fetch(ctx)
		if err != nil {
			return err
		}
		msg, _ := Extract(strings.NewReader(string(raw)), Limits{})
		res <- result{m.Size, m.Oversized, string(raw), msg}
		return nil
	})
	var r result
	select {
	case r = <-res:
	case <-time.After(5 * time.Second):
		t.Fatal("the oversized mail was not offered")
	}
	if !r.oversized || r.size < 40<<10 {
		t.Errorf("offered with size %d, oversized %v", r.size, r.oversized)
	}
	if strings.Contains(r.raw, "BODYMARK") || len(r.raw) > 8<<10 {
		t.Errorf("fetched %d bytes of an oversized mail, body included: %v", len(r.raw), strings.Contains(r.raw, "BODYMARK"))
	}
	if r.msg == nil || r.msg.From != "us@attu.test" || r.msg.MessageID != "big@attu.test" || r.msg.Subject != "huge" {
		t.Errorf("from the header: %+v, want sender, Message-ID and subject to answer with", r.msg)
	}
	eventually(t, 5*time.Second, "the oversized mail flagged once handled", func() bool {
		ms := mailbox(t, sys, "INBOX")
		return len(ms) == 1 && hasFlag(ms[0].Flags, imap.FlagSeen)
	})
}

// Fetch works only while the handler runs.
func TestIncomingFetchAfterHandler(t *testing.T) {
	sys, own := system(t, nil)
	deliver(t, sys, own, "late@attu.test")
	kept := make(chan *Incoming, 1)
	runInbox(t, inboxConfig(t, sys), Position{}, func(ctx context.Context, m *Incoming) error {
		kept <- m
		return nil
	})
	var m *Incoming
	select {
	case m = <-kept:
	case <-time.After(5 * time.Second):
		t.Fatal("no mail offered")
	}
	eventually(t, 5*time.Second, "the handler returned and the mail was marked", func() bool {
		ms := mailbox(t, sys, "INBOX")
		return len(ms) == 1 && hasFlag(ms[0].Flags, imap.FlagSeen)
	})
	if _, err := m.Fetch(context.Background()); !errors.Is(err, ErrNoBody) {
		t.Errorf("Fetch after the handler returned: %v, want ErrNoBody", err)
	}
}

// Plaintext is refused to anything but a loopback address.
func TestPlainOnlyLoopback(t *testing.T) {
	h := func(context.Context, *Incoming) error { return nil }
	for addr, ok := range map[string]bool{
		"127.0.0.1:143": true, "localhost:143": true, "[::1]:143": true,
		"imap.example.org:143": false, "192.168.1.10:143": false,
	} {
		_, err := NewInbox(InboxConfig{Addr: addr, Security: Plain}, h)
		if ok != (err == nil) || (!ok && !errors.Is(err, ErrInsecure)) {
			t.Errorf("inbox, plain to %s: %v", addr, err)
		}
		_, err = NewSender(SMTPConfig{Addr: addr, Security: Plain})
		if ok != (err == nil) || (!ok && !errors.Is(err, ErrInsecure)) {
			t.Errorf("sender, plain to %s: %v", addr, err)
		}
	}
	if _, err := NewInbox(InboxConfig{Addr: "imap.example.org:993", Security: TLS}, h); err != nil {
		t.Errorf("TLS: %v", err)
	}
}

// Kick asks the inbox to search its mailbox now rather than at its next
// wake-up; it never blocks.
func (in *Inbox) Kick() { poke(in.kick) }
