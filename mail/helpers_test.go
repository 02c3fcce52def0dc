package mail

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/attu-pbem/attu/mail/loopback"
)

// testLogger logs to the test when -v is given and ATTU_MAIL_LOG is set,
// and nowhere otherwise.
func testLogger(t *testing.T) *slog.Logger {
	if os.Getenv("ATTU_MAIL_LOG") == "" {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(tw{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tw struct{ t *testing.T }

func (w tw) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// system starts a loopback mail system with the mailbox attu and returns
// it with attu's address; it is closed when the test ends.
func system(t *testing.T, o *loopback.Options) (*loopback.System, string) {
	t.Helper()
	sys, err := loopback.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Close() })
	own, err := sys.AddUser("attu", "secret")
	if err != nil {
		t.Fatal(err)
	}
	return sys, own
}

// inboxConfig is attu's inbox on a loopback system, with short waits and
// nothing that fires on its own during a test unless the test asks.
func inboxConfig(t *testing.T, sys *loopback.System) InboxConfig {
	return InboxConfig{
		Addr: sys.IMAPAddr(), Security: Plain, Username: "attu", Password: "secret",
		IdleRestart: time.Hour, PollInterval: time.Hour, Timeout: 5 * time.Second,
		RetryMin: 20 * time.Millisecond, RetryMax: 200 * time.Millisecond,
		Logger: testLogger(t),
	}
}

// rawMail is a small plain-text mail.
func rawMail(from, to, subject, id, body string) []byte {
	return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: Mon, 10 May 1943 06:00:00 +0000\r\n"+
		"Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", from, to, subject, id, body))
}

// got collects what a handler received, for the test to wait on.
type got struct {
	mu   sync.Mutex
	msgs []*Message
	uids []uint32
	ch   chan struct{}
}

func newGot() *got { return &got{ch: make(chan struct{}, 100)} }

func (g *got) add(uid uint32, m *Message) {
	g.mu.Lock()
	g.msgs = append(g.msgs, m)
	g.uids = append(g.uids, uid)
	g.mu.Unlock()
	g.ch <- struct{}{}
}

// wait waits until n mails were handled in all, or fails the test after d.
func (g *got) wait(t *testing.T, n int, d time.Duration) []*Message {
	t.Helper()
	deadline := time.After(d)
	for {
		g.mu.Lock()
		if len(g.msgs) >= n {
			out := slices.Clone(g.msgs)
			g.mu.Unlock()
			return out
		}
		have := len(g.msgs)
		g.mu.Unlock()
		select {
		case <-g.ch:
		case <-deadline:
			t.Fatalf("handled %d mails after %v, want %d", have, d, n)
		}
	}
}

func (g *got) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.msgs)
}

// extracting is a handler that fetches and extracts every mail.
func (g *got) extracting(t *testing.T) Handler {
	return func(ctx context.Context, m *Incoming) error {
		raw, err := m.Fetch(ctx)
		if err != nil {
			return err
		}
		msg, err := Extract(strings.NewReader(string(raw)), Limits{})
		if err != nil {
			t.Errorf("uid %d: %v", m.UID, err)
		}
		g.add(m.UID, msg)
		return nil
	}
}

// runInbox runs an inbox until the test ends (or stop is called) and
// checks that Run returns promptly.
func runInbox(t *testing.T, cfg InboxConfig, from Position, h Handler) (in *Inbox, stop func()) {
	t.Helper()
	in, err := NewInbox(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx, from) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("Run did not return 10 s after its context ended")
			}
		})
	}
	t.Cleanup(stop)
	return in, stop
}

// seen is what a second IMAP client sees of one mail.
type seen struct {
	UID   uint32
	Flags []imap.Flag
	ID    string
}

// lookAt opens a mailbox of attu read-only as a second IMAP client; the
// caller closes the client.
func lookAt(t *testing.T, sys *loopback.System, name string) (*imapclient.Client, *imap.SelectData) {
	t.Helper()
	c, err := imapclient.DialInsecure(sys.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login("attu", "secret").Wait(); err != nil {
		c.Close()
		t.Fatal(err)
	}
	sel, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		c.Close()
		t.Fatal(err)
	}
	return c, sel
}

// mailbox lists a mailbox of attu as a second IMAP client sees it.
func mailbox(t *testing.T, sys *loopback.System, name string) []seen {
	t.Helper()
	c, sel := lookAt(t, sys, name)
	defer c.Close()
	if sel.NumMessages == 0 {
		return nil
	}
	msgs, err := c.Fetch(seqAll(), &imap.FetchOptions{UID: true, Flags: true, Envelope: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []seen
	for _, m := range msgs {
		sn := seen{UID: uint32(m.UID), Flags: m.Flags}
		if m.Envelope != nil { // nil for a mail expunged while we looked
			sn.ID = m.Envelope.MessageID
		}
		out = append(out, sn)
	}
	return out
}

func seqAll() imap.SeqSet {
	var s imap.SeqSet
	s.AddRange(1, 0)
	return s
}

func hasFlag(fs []imap.Flag, f imap.Flag) bool { return slices.Contains(fs, f) }

// eventually polls cond every 10 ms until it holds, or fails after d.
func eventually(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
