package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-message"
	mmail "github.com/emersion/go-message/mail"

	"github.com/attu-pbem/attu/mail/loopback"
)

// Send sends one mail, as the outbox does a batch.
func (s *Sender) Send(ctx context.Context, m *Outgoing) error {
	return s.sendAll(ctx, []*Outgoing{m})[0]
}

func sender(t *testing.T, sys *loopback.System, own string) *Sender {
	t.Helper()
	s, err := NewSender(SMTPConfig{Addr: sys.SMTPAddr(), Security: Plain, From: "attu <" + own + ">",
		Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A reply with threading headers, UTF-8 text and attachments arrives as
// it was sent, and without a mailer's name.
func TestSendArrivesIntact(t *testing.T) {
	sys, own := system(t, nil)
	us, err := sys.AddUser("us", "secret")
	if err != nil {
		t.Fatal(err)
	}
	orders := []byte("game: g1\nside: us\nturn: 3\nwait: actions\n# Holtz Bay — an em dash, and a long comment line that goes well past the seventy-eight columns of a mail line\nactions: []\n")
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G', 0, 0xff, '\r', '\n'}, 500)
	text := "Turn 3 — accepted.\n\nÉtat: the 1/17-A company moved 2716 → 2717.\n" + strings.Repeat("x", 200) + "\n-- \nattu\n"
	out := &Outgoing{
		To:          []string{us},
		Subject:     "Re: [attu g1] Tour 3 — rapport",
		MessageID:   "<g1.3.us@attu.test>",
		InReplyTo:   "orders-3@player.example",
		References:  []string{"welcome@attu.test", "<orders-3@player.example>"},
		Date:        time.Date(1943, 5, 11, 6, 0, 0, 0, time.UTC),
		Text:        text,
		Attachments: []Attachment{{Name: "us-turn4.yaml", Type: "application/yaml", Data: orders}, {Name: "map.png", Type: "image/png", Data: png}},
	}
	if err := sender(t, sys, own).Send(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	ds, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 1)
	if err != nil {
		t.Fatal(err)
	}
	d := ds[0]
	if d.To != us || d.From != own {
		t.Errorf("envelope from %s to %s", d.From, d.To)
	}

	m, err := Extract(bytes.NewReader(d.Data), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m.From != own || !slices.Equal(m.To, []string{us}) {
		t.Errorf("From %s To %v", m.From, m.To)
	}
	if m.Subject != out.Subject || m.MessageID != "g1.3.us@attu.test" || m.InReplyTo != "orders-3@player.example" {
		t.Errorf("subject %q, Message-ID %q, In-Reply-To %q", m.Subject, m.MessageID, m.InReplyTo)
	}
	if !slices.Equal(m.References, []string{"welcome@attu.test", "orders-3@player.example"}) {
		t.Errorf("References %v", m.References)
	}
	if e, err := message.Read(bytes.NewReader(d.Data)); err != nil {
		t.Error(err)
	} else if date, err := (&mmail.Header{Header: e.Header}).Date(); err != nil || !date.Equal(out.Date) {
		t.Errorf("Date %v (%v)", date, err)
	}
	if m.AutoSubmitted != "auto-replied" {
		t.Errorf("Auto-Submitted %q, want auto-replied", m.AutoSubmitted)
	}
	if auto, _ := IsAutomatic(m, ""); !auto {
		t.Error("attu's own reply is not recognised as automatic")
	}
	if m.Orders != string(orders) || m.OrdersFile != "us-turn4.yaml" {
		t.Errorf("orders %q from %q", m.Orders, m.OrdersFile)
	}

	header, body, _ := bytes.Cut(d.Data, []byte("\r\n\r\n"))
	for _, h := range []string{"X-Mailer", "User-Agent"} {
		if bytes.Contains(bytes.ToLower(header), []byte(strings.ToLower(h)+":")) {
			t.Errorf("header %s present", h)
		}
	}
	_ = body

	// Every part, byte for byte.
	e, err := message.Read(bytes.NewReader(d.Data))
	if err != nil {
		t.Fatal(err)
	}
	type part struct{ typ, name, data string }
	var parts []part
	mr := mmail.NewReader(e)
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p.Body)
		switch h := p.Header.(type) {
		case *mmail.InlineHeader:
			typ, _, _ := h.ContentType()
			parts = append(parts, part{typ, "", string(data)})
		case *mmail.AttachmentHeader:
			typ, _, _ := h.ContentType()
			name, _ := h.Filename()
			parts = append(parts, part{typ, name, string(data)})
		}
	}
	want := []part{
		{"text/plain", "", strings.ReplaceAll(text, "\n", "\r\n")},
		{"application/yaml", "us-turn4.yaml", string(orders)},
		{"image/png", "map.png", string(png)},
	}
	if len(parts) != len(want) {
		t.Fatalf("%d parts, want %d", len(parts), len(want))
	}
	for i := range want {
		if parts[i] != want[i] {
			t.Errorf("part %d: %s %q, %d bytes; want %s %q, %d bytes", i, parts[i].typ, parts[i].name, len(parts[i].data),
				want[i].typ, want[i].name, len(want[i].data))
			if parts[i].typ == "text/plain" {
				t.Logf("got  %q\nwant %q", parts[i].data, want[i].data)
			}
		}
	}
}

func ctxTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// Mandatory STARTTLS: a server that does not offer it gets nothing.
func TestSendStartTLSRequired(t *testing.T) {
	sys, own := system(t, nil)
	s, err := NewSender(SMTPConfig{Addr: sys.SMTPAddr(), From: own, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), &Outgoing{To: []string{own}, Subject: "x", MessageID: "x@attu.test", Text: "x"})
	if err == nil {
		t.Fatal("sent in clear to a server without STARTTLS")
	}
	if n := len(sys.Deliveries()); n != 0 {
		t.Errorf("%d mails delivered", n)
	}
}

// A mail without a Message-ID is refused before anything is sent: a
// resend could not be recognised.
func TestSendNeedsMessageID(t *testing.T) {
	sys, own := system(t, nil)
	err := sender(t, sys, own).Send(context.Background(), &Outgoing{To: []string{own}, Subject: "x", Text: "x"})
	if err == nil || len(sys.Deliveries()) != 0 {
		t.Errorf("sent a mail without Message-ID: %v", err)
	}
}

// memQueue is an outbox queue kept in memory, with the store's rules:
// Pending returns unsent mail due at now, MarkSent and Retry count
// attempts.
type memQueue struct {
	mu    sync.Mutex
	mails []*queued
}

type queued struct {
	Queued
	next  time.Time
	sent  time.Time
	cause error
	// failed and nexts are when each failed attempt was recorded and
	// the next attempt it set.
	failed, nexts []time.Time
}

func (q *memQueue) add(m Outgoing) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.mails = append(q.mails, &queued{Queued: Queued{ID: uint64(len(q.mails) + 1), Mail: m}})
}

func (q *memQueue) Pending(now time.Time, max int) ([]Queued, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []Queued
	for _, m := range q.mails {
		if m.sent.IsZero() && !m.next.After(now) && len(out) < max {
			out = append(out, m.Queued)
		}
	}
	return out, nil
}

func (q *memQueue) Next() (next time.Time, ok bool, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, m := range q.mails {
		if m.sent.IsZero() && (!ok || m.next.Before(next)) {
			next, ok = m.next, true
		}
	}
	return next, ok, nil
}

func (q *memQueue) find(id uint64) (*queued, error) {
	for _, m := range q.mails {
		if m.ID == id {
			return m, nil
		}
	}
	return nil, fmt.Errorf("no mail %d", id)
}

func (q *memQueue) MarkSent(ids []uint64, t time.Time) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, id := range ids {
		m, err := q.find(id)
		if err != nil {
			return err
		}
		m.sent, m.Attempts = t, m.Attempts+1
	}
	return nil
}

func (q *memQueue) Retry(id uint64, cause error, next time.Time) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	m, err := q.find(id)
	if err == nil {
		m.next, m.cause, m.Attempts = next, cause, m.Attempts+1
		m.failed, m.nexts = append(m.failed, time.Now()), append(m.nexts, next)
	}
	return err
}

func (q *memQueue) snapshot() []queued {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]queued, len(q.mails))
	for i, m := range q.mails {
		out[i] = *m
		out[i].failed, out[i].nexts = slices.Clone(m.failed), slices.Clone(m.nexts)
	}
	return out
}

// The outbox retries while the SMTP server is down and delivers once it
// is back, each mail once, with the Message-ID it was queued with.
func TestOutboxRetries(t *testing.T) {
	sys, own := system(t, nil)
	us, _ := sys.AddUser("us", "secret")
	jp, _ := sys.AddUser("jp", "secret")
	if err := sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	q := &memQueue{}
	q.add(Outgoing{To: []string{us}, Subject: "[attu g1] report", MessageID: "g1.1.us@attu.test", Text: "U.S. report"})
	q.add(Outgoing{To: []string{jp}, Subject: "[attu g1] report", MessageID: "g1.1.jp@attu.test", Text: "Japanese report"})
	o := NewOutbox(q, sender(t, sys, own), OutboxConfig{Interval: 20 * time.Millisecond,
		RetryMin: 20 * time.Millisecond, RetryMax: 80 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.Run(ctx) }()
	defer func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return after its context ended")
		}
	}()

	eventually(t, 5*time.Second, "three failed attempts at each mail", func() bool {
		s := q.snapshot()
		return s[0].Attempts >= 3 && s[1].Attempts >= 3
	})
	for _, m := range q.snapshot() {
		if !m.sent.IsZero() || m.cause == nil {
			t.Errorf("mail %d while the server is down: sent %v, cause %v", m.ID, m.sent, m.cause)
		}
	}
	if err := sys.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	o.Kick()
	ds, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 2)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "both mails recorded as sent", func() bool {
		s := q.snapshot()
		return !s[0].sent.IsZero() && !s[1].sent.IsZero()
	})
	time.Sleep(100 * time.Millisecond) // several more wake-ups
	if n := len(sys.Deliveries()); n != 2 {
		t.Errorf("%d deliveries, want each mail once", n)
	}
	ids := map[string]string{}
	for _, d := range ds {
		m, err := Extract(bytes.NewReader(d.Data), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		ids[d.User] = m.MessageID
	}
	if ids["us"] != "g1.1.us@attu.test" || ids["jp"] != "g1.1.jp@attu.test" {
		t.Errorf("delivered Message-IDs %v", ids)
	}
}

// Stopped in the middle of a batch, the outbox still records what the
// server accepted, so that a restart sends it no second time, and counts
// no failed attempt against what it never tried. Whenever the stop comes,
// every mail delivered is recorded as sent and every mail recorded as
// sent was delivered.
func TestOutboxStopsMidBatch(t *testing.T) {
	for round := range 5 {
		sys, own := system(t, nil)
		us, _ := sys.AddUser("us", "secret")
		q := &memQueue{}
		for i := range 20 {
			q.add(Outgoing{To: []string{us}, Subject: "[attu g1] report", MessageID: fmt.Sprintf("g1.%d.%d@attu.test", round, i),
				Text: strings.Repeat("report\n", 2000)})
		}
		o := NewOutbox(q, sender(t, sys, own), OutboxConfig{Batch: 20})
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			// Stop once the first mails are in.
			sys.WaitDeliveries(ctxTimeout(t, 10*time.Second), 1+round)
			cancel()
		}()
		if err := o.Run(ctx); err != nil {
			t.Fatal(err)
		}
		delivered := map[string]bool{}
		for _, d := range sys.Deliveries() {
			m, err := Extract(bytes.NewReader(d.Data), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			delivered[m.MessageID] = true
		}
		sent := 0
		for _, m := range q.snapshot() {
			if !m.sent.IsZero() != delivered[m.Mail.MessageID] {
				t.Errorf("round %d: %s delivered %v, recorded as sent %v", round, m.Mail.MessageID, delivered[m.Mail.MessageID], !m.sent.IsZero())
			}
			if m.sent.IsZero() && m.Attempts != 0 {
				t.Errorf("round %d: %s not sent, yet %d attempts counted (%v)", round, m.Mail.MessageID, m.Attempts, m.cause)
			}
			if !m.sent.IsZero() {
				sent++
			}
		}
		t.Logf("round %d: %d of 20 sent before the stop", round, sent)
	}
}

// The backoff doubles from its minimum up to its cap.
func TestBackoff(t *testing.T) {
	var got []time.Duration
	for n := range 6 {
		got = append(got, backoff(n, time.Second, 10*time.Second))
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	if !slices.Equal(got, want) {
		t.Errorf("backoff %v, want %v", got, want)
	}
	for range 100 {
		if j := jitter(time.Second); j < time.Second/2 || j > time.Second {
			t.Fatalf("jitter %v outside [0.5 s, 1 s]", j)
		}
	}
	if !errors.Is(&LimitError{Err: ErrTooLarge, Limit: 1}, ErrTooLarge) {
		t.Error("a LimitError does not match its sentinel")
	}
}

// A reply copies into In-Reply-To and References only the Message-IDs a
// msg-id may be (printable ASCII): one with other bytes would go out as an
// RFC 2047 encoded word that threads nothing, so it is left out.
func TestReplyCopiesOnlyASCIIIDs(t *testing.T) {
	sys, own := system(t, nil)
	us, err := sys.AddUser("us", "secret")
	if err != nil {
		t.Fatal(err)
	}
	out := &Outgoing{
		To: []string{us}, Subject: "Re: orders", MessageID: "<r1@attu.test>",
		InReplyTo:  "commandé-1@players.example",
		References: []string{"welcome@attu.test", "<ünïcode@players.example>", "orders-2@players.example"},
		Date:       time.Date(1943, 5, 11, 6, 0, 0, 0, time.UTC), Text: "accepted\n",
	}
	if err := sender(t, sys, own).Send(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	ds, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 1)
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := bytes.Cut(ds[0].Data, []byte("\r\n\r\n"))
	e, err := message.Read(bytes.NewReader(ds[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	if irt := e.Header.Get("In-Reply-To"); irt != "" {
		t.Errorf("In-Reply-To %q", irt)
	}
	if refs := e.Header.Get("References"); refs != "<welcome@attu.test> <orders-2@players.example>" {
		t.Errorf("References %q", refs)
	}
	if bytes.Contains(header, []byte("=?")) {
		t.Errorf("the header carries an encoded word:\n%s", header)
	}
}

// A page attu writes (ASCII in short lines) goes out unencoded, not a
// third larger in base64, and reads the same with its line ends made
// CRLF; one with other octets still goes in base64, byte for byte.
func TestSendPageUnencoded(t *testing.T) {
	sys, own := system(t, nil)
	us, err := sys.AddUser("us", "secret")
	if err != nil {
		t.Fatal(err)
	}
	page := "<!DOCTYPE html>\n<html><head><title>sheet</title></head>\n<body>\n" + strings.Repeat("QUJDRA==\n", 2000) + "</body></html>\n"
	other := "<!DOCTYPE html>\n<p>Holtz Bay \u2014 an em dash</p>\n"
	out := &Outgoing{To: []string{us}, Subject: "[attu g1] report", MessageID: "<g1.4.us@attu.test>", Date: time.Date(1943, 5, 12, 6, 0, 0, 0, time.UTC),
		Text:        "See the sheet.\n",
		Attachments: []Attachment{{Name: "a.html", Type: "text/html", Data: []byte(page)}, {Name: "b.html", Type: "text/html", Data: []byte(other)}}}
	if err := sender(t, sys, own).Send(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	ds, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ds[0].Data); n > len(page)*5/4 { // base64 alone would be 4/3
		t.Errorf("the mail is %d bytes for a page of %d", n, len(page))
	}
	e, err := message.Read(bytes.NewReader(ds[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	mr := mmail.NewReader(e)
	got := map[string][2]string{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*mmail.AttachmentHeader); ok {
			name, _ := h.Filename()
			data, _ := io.ReadAll(p.Body)
			got[name] = [2]string{h.Get("Content-Transfer-Encoding"), string(data)}
		}
	}
	if g := got["a.html"]; g[0] != "8bit" || g[1] != strings.ReplaceAll(page, "\n", "\r\n") {
		t.Errorf("the ASCII page came %s, %d bytes (want 8bit, %d)", g[0], len(g[1]), len(page)+strings.Count(page, "\n"))
	}
	if g := got["b.html"]; g[0] != "base64" || g[1] != other {
		t.Errorf("the other page came %s as %q", g[0], g[1])
	}
}

func TestSevenBit(t *testing.T) {
	for in, want := range map[string]bool{
		"a\nb\r\nc": true, "": true, "a\rb": false, "a\x00": false, "\u00e9": false,
		strings.Repeat("x", 998) + "\n": true, strings.Repeat("x", 999): false, strings.Repeat("x", 998) + "\r\n": true,
	} {
		if got := sevenBit([]byte(in)); got != want {
			t.Errorf("sevenBit(%.20q…) = %v, want %v", in, got, want)
		}
	}
}
