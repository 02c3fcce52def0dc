package store

import (
	"errors"
	"testing"
	"time"
)

// A Preparer sees the mails a transaction queues, numbered and with their
// bodies, before the transaction commits, and then hears once that it
// did; a transaction that fails shows it nothing.
func TestPreparer(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	far := time.Now().Add(24 * time.Hour)
	before, err := db.Pending(far, 0)
	if err != nil {
		t.Fatal(err)
	}
	base := len(before) // what creating the game queued
	var got []Mail
	var ends []bool
	pendingBefore, pendingAfter := -1, -1
	db.SetPreparer(func(ms []Mail) func(bool) {
		got = ms
		return func(committed bool) {
			ends = append(ends, committed)
			p, err := db.Pending(far, 0)
			if err != nil {
				t.Error(err)
			}
			pendingAfter = len(p)
		}
	})
	mail := func(id string) Mail {
		return Mail{MessageID: id, To: []string{"us@example.org"}, Subject: "report", Text: "text of " + id,
			Attachments: []Attachment{{Name: "report.json", Type: "application/json", Data: []byte(`{"id":"` + id + `"}`)}}}
	}
	r, err := db.Transact("g1", &MailRef{MessageID: "<m1@players.test>"}, func(tx *Txn) error {
		tx.Queue(mail("<a@attu.test>"), mail("<b@attu.test>"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(r.Mails) != 2 || got[0].ID != r.Mails[0] || got[1].ID != r.Mails[1] {
		t.Fatalf("prepared %+v for receipt mails %v", got, r.Mails)
	}
	for _, m := range got {
		stored, err := db.Mail(m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if m.Text != stored.Text || m.MessageID != stored.MessageID || !m.Queued.Equal(stored.Queued) ||
			string(m.Attachments[0].Data) != string(stored.Attachments[0].Data) {
			t.Errorf("mail %d prepared as %+v, stored as %+v", m.ID, m, stored)
		}
	}
	if len(ends) != 1 || !ends[0] || pendingAfter != base+2 {
		t.Fatalf("ends %v, %d mails pending when told", ends, pendingAfter)
	}

	// Before the commit, other readers see none of them.
	db.SetPreparer(func(ms []Mail) func(bool) {
		p, err := db.Pending(far, 0)
		if err != nil {
			t.Error(err)
		}
		pendingBefore = len(p)
		return nil
	})
	if _, err := db.Transact("g1", nil, func(tx *Txn) error { tx.Queue(mail("<c@attu.test>")); return nil }); err != nil {
		t.Fatal(err)
	}
	if pendingBefore != base+2 {
		t.Errorf("%d mails pending before the commit, want the %d of before", pendingBefore, base+2)
	}

	// A transaction that fails shows the Preparer nothing.
	called := false
	db.SetPreparer(func(ms []Mail) func(bool) { called = true; return nil })
	if _, err := db.Transact("g1", nil, func(tx *Txn) error { tx.Queue(mail("<d@attu.test>")); return errors.New("no") }); err == nil {
		t.Fatal("no error")
	}
	if called {
		t.Error("the Preparer was shown the mails of a transaction that failed")
	}
	db.SetPreparer(nil)
	if _, err := db.Transact("g1", nil, func(tx *Txn) error { tx.Queue(mail("<e@attu.test>")); return nil }); err != nil {
		t.Fatal(err)
	}
	if called {
		t.Error("the Preparer was called after it was removed")
	}
}
