package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// The running daemon gives the SMTP server the mails of a transaction
// while it commits: a mail whose transaction committed arrives and is
// recorded as sent; one whose transaction did not is never delivered, and
// the outbox worker does not send it either.
func TestDaemonSendsDuringTheCommit(t *testing.T) {
	ld := startLoopbackDaemon(t, 30*time.Second, mail.OutboxConfig{}, "us", "jp")
	sys, db, svc, d, ctx := ld.sys, ld.db, ld.svc, ld.d, ld.ctx
	us, jp := ld.addr["us"], ld.addr["jp"]

	_, err := svc.Create(referee.NewGame{ID: "g1", Name: "Prepared", Setup: "historic", US: us, JP: jp}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	d.outbox.Kick() // as the operator's "attu new" does through the daemon
	welcomes, err := sys.WaitDeliveries(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	idle := func() {
		t.Helper()
		for !d.outbox.Idle() {
			select {
			case <-ctx.Done():
				t.Fatal("the outbox worker never became idle")
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	idle()
	report := func(to, id string) store.Mail {
		return store.Mail{MessageID: id, To: []string{to}, Subject: "[attu g1] report", Text: "report " + id}
	}

	// A transaction that fails after queueing: its mails were never kept.
	dropped := d.preparer(ctx)([]store.Mail{{ID: 1 << 40, MessageID: "<dropped@attu.test>", To: []string{us}, Subject: "s", Text: "never"}})
	if dropped == nil {
		t.Fatal("the daemon did not prepare a mail while its outbox was idle")
	}
	dropped(false)
	d.sending.Wait()
	if d.outbox.Waiting(1 << 40) {
		t.Error("the dropped mail is still held")
	}

	// A transaction that commits: its mails arrive, recorded as sent.
	idle()
	prepared := 0
	db.SetPreparer(func(ms []store.Mail) func(bool) {
		done := d.preparer(ctx)(ms)
		if done != nil {
			prepared = len(ms)
		}
		return done
	})
	r, err := db.Transact("g1", nil, func(tx *store.Txn) error {
		tx.Queue(report(us, "<r1.us@attu.test>"), report(jp, "<r1.jp@attu.test>"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if prepared != 2 {
		t.Fatalf("%d mails prepared, want both", prepared)
	}
	ds, err := sys.WaitDeliveries(ctx, len(welcomes)+2)
	if err != nil {
		t.Fatal(err)
	}
	d.sending.Wait()
	for _, dl := range ds[len(welcomes):] {
		m, err := mail.Extract(bytes.NewReader(dl.Data), nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.MessageID != "r1."+dl.User+"@attu.test" {
			t.Errorf("%s got %s", dl.User, m.MessageID)
		}
	}
	for _, id := range r.Mails {
		m, err := db.Mail(id)
		if err != nil {
			t.Fatal(err)
		}
		if m.Sent.IsZero() {
			t.Errorf("mail %d (%s) delivered but not recorded as sent", id, m.MessageID)
		}
	}
	time.Sleep(100 * time.Millisecond) // the worker's next looks
	for _, dl := range sys.Deliveries() {
		if bytes.Contains(dl.Data, []byte("dropped@attu.test")) {
			t.Error("the mail of the transaction that failed was delivered")
		}
	}
	if n := len(sys.Deliveries()); n != len(welcomes)+2 {
		t.Errorf("%d deliveries, want %d: a mail went twice", n, len(welcomes)+2)
	}
}
