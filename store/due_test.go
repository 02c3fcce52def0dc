package store

import (
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The due index lists, earliest first, the games whose Due is not after
// the time asked for and no others; it follows every change of a game's
// Due in the transaction that makes it, a change to zero takes the game
// out, a transaction that fails changes nothing, and the consistency
// check finds an index that disagrees with the games' records.
func TestDueIndex(t *testing.T) {
	db, _ := openTestDB(t)
	at := time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)
	for _, id := range []string{"g1", "g2", "g3"} {
		createTestGame(t, db, id)
	}
	setDue := func(id string, d time.Time) {
		t.Helper()
		if _, err := db.Transact(id, nil, func(tx *Txn) error { tx.SetDue(d); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	due := func(now time.Time) string {
		t.Helper()
		ids, err := db.Due(now)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(ids, ",")
	}
	if got := due(at.Add(1000 * time.Hour)); got != "" {
		t.Fatalf("games with no due time are due: %s", got)
	}
	setDue("g1", at.Add(2*time.Hour))
	setDue("g2", at.Add(time.Hour))
	setDue("g3", at.Add(3*time.Hour))
	for _, c := range []struct {
		now  time.Time
		want string
	}{{at, ""}, {at.Add(time.Hour), "g2"}, {at.Add(2*time.Hour + time.Minute), "g2,g1"}, {at.Add(5 * time.Hour), "g2,g1,g3"}} {
		if got := due(c.now); got != c.want {
			t.Errorf("due at %v: %s, want %s", c.now, got, c.want)
		}
	}
	setDue("g3", at)          // moved earlier: found, and once
	setDue("g1", time.Time{}) // never
	if got := due(at.Add(5 * time.Hour)); got != "g3,g2" {
		t.Errorf("after the moves: %s", got)
	}
	_, err := db.Transact("g2", nil, func(tx *Txn) error {
		tx.SetDue(at.Add(100 * time.Hour))
		return errUnchanged // any failure: nothing written
	})
	if err != nil {
		t.Fatal(err)
	}
	if g, _ := db.Game("g2"); !g.Due.Equal(at.Add(time.Hour)) || due(at.Add(time.Hour)) != "g3,g2" {
		t.Errorf("a failed transaction moved g2 to %v", g.Due)
	}
	if err := db.Check(toyEngine()); err != nil {
		t.Fatal(err)
	}
	// A key lost, or one left over, is found.
	db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bDue).Delete(dueKey(at, "g3")) })
	if err := db.Check(toyEngine()); err == nil || !strings.Contains(err.Error(), "due index") {
		t.Errorf("a lost key: %v", err)
	}
	db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bDue).Put(dueKey(at.Add(time.Minute), "g3"), nil) })
	if err := db.Check(toyEngine()); err == nil || !strings.Contains(err.Error(), "due index: game g3") {
		t.Errorf("a key at the wrong time: %v", err)
	}
	db.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bDue)
		b.Delete(dueKey(at.Add(time.Minute), "g3"))
		return b.Put(dueKey(at, "g3"), nil)
	})
}
