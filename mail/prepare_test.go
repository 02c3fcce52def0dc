package mail

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// Prepared mails reach the server's mailboxes only once Finish(true) ends
// their data; dropped ones never do, whatever comes after.
func TestPrepareDeliversOnlyOnFinish(t *testing.T) {
	sys, own := system(t, nil)
	us, _ := sys.AddUser("us", "secret")
	jp, _ := sys.AddUser("jp", "secret")
	s := sender(t, sys, own)
	ctx := context.Background()
	report := func(to, id string) *Outgoing {
		return &Outgoing{To: []string{to}, Subject: "[attu g1] report", MessageID: id, Text: strings.Repeat("report\n", 3000),
			Attachments: []Attachment{{Name: "report.json", Type: "application/json", Data: []byte(`{"turn":1}`)}}}
	}

	dropped := s.Prepare(ctx, []*Outgoing{report(us, "g1.1.us@attu.test"), report(jp, "g1.1.jp@attu.test")})
	for i, err := range dropped.Finish(false) {
		if err == nil {
			t.Errorf("dropped mail %d: no error", i)
		}
	}
	// A mail sent after the drop arrives; the dropped ones never do.
	if err := s.Send(ctx, report(us, "marker@attu.test")); err != nil {
		t.Fatal(err)
	}
	if _, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 1); err != nil {
		t.Fatal(err)
	}

	p := s.Prepare(ctx, []*Outgoing{report(us, "g1.2.us@attu.test"), report(jp, "g1.2.jp@attu.test")})
	for i, err := range p.Finish(true) {
		if err != nil {
			t.Errorf("mail %d: %v", i, err)
		}
	}
	ds, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	texts := map[string]bool{}
	for _, d := range ds {
		m, err := Extract(bytes.NewReader(d.Data), nil)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, d.User+" "+m.MessageID)
		texts[m.Text] = true
	}
	if len(texts) != 1 {
		t.Errorf("the prepared mails' texts differ from the one sent whole")
	}
	want := map[string]bool{"us marker@attu.test": true, "us g1.2.us@attu.test": true, "jp g1.2.jp@attu.test": true}
	for _, g := range got {
		if !want[g] {
			t.Errorf("delivered %s", g)
		}
		delete(want, g)
	}
	if len(want) > 0 {
		t.Errorf("not delivered: %v", want)
	}
	time.Sleep(50 * time.Millisecond) // what a dropped connection could still bring
	if n := len(sys.Deliveries()); n != 3 {
		t.Errorf("%d deliveries, want 3", n)
	}
}

// With the server down, Finish says so for every mail, and nothing hangs.
func TestPrepareServerDown(t *testing.T) {
	sys, own := system(t, nil)
	us, _ := sys.AddUser("us", "secret")
	if err := sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	p := sender(t, sys, own).Prepare(context.Background(), []*Outgoing{{To: []string{us}, Subject: "s", MessageID: "x@attu.test", Text: "t"}})
	if errs := p.Finish(true); errs[0] == nil {
		t.Error("a mail to a server that is down: no error")
	}
}

// The worker sends no mail held, nor any queued after one, until it is
// released: mail leaves in the order it was queued. Idle says when the
// worker has nothing left.
func TestOutboxHold(t *testing.T) {
	sys, own := system(t, nil)
	us, _ := sys.AddUser("us", "secret")
	q := &memQueue{}
	for _, id := range []string{"m1@attu.test", "m2@attu.test", "m3@attu.test"} {
		q.add(Outgoing{To: []string{us}, Subject: "[attu g1] report", MessageID: id, Text: id})
	}
	o := NewOutbox(q, sender(t, sys, own), OutboxConfig{Interval: time.Hour, Logger: testLogger(t)})
	o.Hold(2)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.Run(ctx) }()
	defer func() { cancel(); <-done }()

	if _, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 1); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "the worker idle, mails 2 and 3 waiting", func() bool {
		s := q.snapshot()
		return o.Idle() && !s[0].sent.IsZero() && s[1].sent.IsZero() && s[2].sent.IsZero()
	})
	if n := len(sys.Deliveries()); n != 1 {
		t.Fatalf("%d deliveries while mail 2 is held", n)
	}
	o.Release(2)
	ds, err := sys.WaitDeliveries(ctxTimeout(t, 5*time.Second), 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range ds {
		m, err := Extract(bytes.NewReader(d.Data), nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"m1@attu.test", "m2@attu.test", "m3@attu.test"}[i]; m.MessageID != want {
			t.Errorf("delivery %d: %s, want %s", i, m.MessageID, want)
		}
	}
	eventually(t, 5*time.Second, "the worker idle again", o.Idle)
}

// pausedQueue is a memQueue whose Pending reads the queue, then waits
// for the test before it returns what it read.
type pausedQueue struct {
	*memQueue
	read, proceed chan struct{}
}

func (q pausedQueue) Pending(now time.Time, max int) ([]Queued, error) {
	out, err := q.memQueue.Pending(now, max)
	q.read <- struct{}{}
	<-q.proceed
	return out, err
}

// A mail another sender sent and recorded while the worker was reading the
// queue is not sent again by the worker, though it read it as unsent:
// Release waits for the worker to finish reading.
func TestOutboxReleaseWhileReading(t *testing.T) {
	sys, own := system(t, nil)
	us, _ := sys.AddUser("us", "secret")
	mq := &memQueue{}
	mq.add(Outgoing{To: []string{us}, Subject: "[attu g1] report", MessageID: "m1@attu.test", Text: "report"})
	q := pausedQueue{mq, make(chan struct{}), make(chan struct{})}
	o := NewOutbox(q, sender(t, sys, own), OutboxConfig{Interval: time.Hour, Logger: testLogger(t)})
	o.Hold(1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.Run(ctx) }()
	defer func() {
		cancel()
		go func() {
			for {
				select {
				case <-q.read:
					q.proceed <- struct{}{}
				case <-done:
					return
				}
			}
		}()
	}()

	<-q.read // the worker has read mail 1 as unsent, held
	if err := mq.MarkSent(1, time.Now()); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() { o.Release(1); close(released) }()
	select {
	case <-released:
		t.Fatal("Release returned while the worker was reading the queue")
	case <-time.After(20 * time.Millisecond):
	}
	q.proceed <- struct{}{}
	<-released
	// Its next look finds nothing to send.
	<-q.read
	q.proceed <- struct{}{}
	eventually(t, 5*time.Second, "the worker idle", o.Idle)
	if n := len(sys.Deliveries()); n != 0 {
		t.Errorf("%d deliveries of a mail recorded as sent by another sender", n)
	}
}
