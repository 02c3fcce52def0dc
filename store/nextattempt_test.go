package store

import (
	"errors"
	"testing"
	"time"
)

// NextAttempt is when the earliest unsent mail falls due: a mail never
// tried at its queueing, one tried again at its next attempt; none once
// all are sent. It survives a reopening of the database, so that a
// restarted worker sleeps until the retry set before the restart.
func TestNextAttempt(t *testing.T) {
	db, path := openTestDB(t)
	createTestGame(t, db, "g1")
	p, err := db.Pending(time.Now(), 0)
	if err != nil || len(p) == 0 {
		t.Fatalf("pending: %d %v", len(p), err)
	}
	next, ok, err := db.NextAttempt()
	if err != nil || !ok || !next.Equal(p[0].Queued) {
		t.Fatalf("with mail never tried: %v %v %v, want its queueing %v", next, ok, err, p[0].Queued)
	}
	later := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, m := range p {
		if err := db.Retry(m.ID, errors.New("connection refused"), later.Add(time.Duration(len(p)-i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	closeChecked(t, db)
	db = mustOpen(t, path)
	t.Cleanup(func() { closeChecked(t, db) })
	next, ok, err = db.NextAttempt()
	if want := later.Add(time.Second); err != nil || !ok || !next.Equal(want) {
		t.Errorf("after retries: %v %v %v, want the earliest %v", next, ok, err, want)
	}
	var ids []uint64
	for _, m := range p {
		ids = append(ids, m.ID)
	}
	if err := db.MarkSentAll(ids, later); err != nil {
		t.Fatal(err)
	}
	if next, ok, err := db.NextAttempt(); err != nil || ok {
		t.Errorf("all sent: %v %v %v, want none waiting", next, ok, err)
	}
}
