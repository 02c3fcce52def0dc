package store

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// gameBuckets returns every key and value under a game's bucket.
func gameBuckets(t *testing.T, db *DB, id string) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(path string, b *bolt.Bucket)
	walk = func(path string, b *bolt.Bucket) {
		b.ForEach(func(k, v []byte) error {
			if v == nil {
				walk(path+string(k)+"/", b.Bucket(k))
			} else {
				out[fmt.Sprintf("%s%x", path, k)] = string(v)
			}
			return nil
		})
	}
	db.bolt.View(func(tx *bolt.Tx) error {
		walk("", tx.Bucket(bGames).Bucket([]byte(id)))
		return nil
	})
	return out
}

func sameBuckets(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A transaction that only answers a mail leaves the game byte for byte as
// it was; one whose function fails writes nothing at all; notes are in the
// log, audited, and can be rolled back to.
func TestTransact(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	newDriver(db, "g1", 4).play(t, 3)
	before := gameBuckets(t, db, "g1")
	ref := NewMailRef("<ask@players.test>", []byte("status"))
	r, err := db.Transact("g1", &ref, func(tx *Txn) error {
		tx.Outcome("answered")
		tx.Queue(Mail{MessageID: "<answer@attu.test>", To: []string{"us@example.org"}})
		return nil
	})
	if err != nil || r.Outcome != "answered" || len(r.Mails) != 1 || r.Entry != 0 {
		t.Fatalf("receipt %+v, %v", r, err)
	}
	if !sameBuckets(before, gameBuckets(t, db, "g1")) {
		t.Fatal("answering changed the game")
	}
	// The same Message-ID with other content is the same mail.
	copyRef := NewMailRef("<ask@players.test>", []byte("status, again"))
	if _, err := db.Transact("g1", &copyRef, func(*Txn) error { return nil }); !errors.Is(err, ErrProcessed) {
		t.Fatalf("a copy: %v", err)
	}

	failing := NewMailRef("<fail@players.test>", nil)
	boom := errors.New("boom")
	_, err = db.Transact("g1", &failing, func(tx *Txn) error {
		if _, err := tx.Note(wind.Umpire, "paused", true); err != nil {
			return err
		}
		tx.SetStatus(Paused)
		tx.Queue(Mail{MessageID: "<lost@attu.test>", To: []string{"x@example.org"}})
		return boom
	})
	if !errors.Is(err, boom) || !sameBuckets(before, gameBuckets(t, db, "g1")) {
		t.Fatalf("a failed transaction: %v", err)
	}
	if _, ok, _ := db.Processed(failing); ok {
		t.Fatal("a failed transaction left a receipt")
	}

	cmd := NewMailRef("<pause@umpire.test>", []byte("pause"))
	var note *Entry
	r, err = db.Transact("g1", &cmd, func(tx *Txn) error {
		var err error
		note, err = tx.Note(wind.Umpire, "The umpire paused the game.", true)
		tx.SetService([]byte(`{"name":"x"}`))
		return err
	})
	if err != nil || r.Entry != note.Seq || note.MessageID != cmd.MessageID {
		t.Fatalf("a note: %+v %v", r, err)
	}
	g, _ := db.Game("g1")
	if string(g.Service) != `{"name":"x"}` || note.Next != g.Wait || g.Current == note.Seq {
		t.Fatalf("after the note: %+v", g)
	}
	d := newDriver(db, "g1", 5)
	d.play(t, 2)
	if _, err := rollback(db, "g1", note.Seq, "back to the note", g.Deadline, nil); err != nil {
		t.Fatal(err)
	}
	if s, _ := testState(db, "g1"); stateHash(s) != note.State {
		t.Fatal("rolled back to the note, the position is another")
	}
	d.play(t, 2)
	mustAudit(t, mustExport(t, db, "g1", true))
}

// Orders held in the ledger without an entry (a settle window) name their
// entry once applied; the receipt of orders already applied cannot be
// used again.
func TestTransactHeldOrders(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	o := &wind.Orders{Side: wind.US, Turn: 1, Wait: wind.WaitActions}
	raw := orderFile("g1", RedactedToken, o)
	ref := NewMailRef("<held@players.test>", raw)
	if _, err := db.Refuse(ref, "g1", "held", nil); err != nil {
		t.Fatal(err)
	}
	var seq uint64
	_, err := db.Transact("g1", nil, func(tx *Txn) error {
		out, err := tx.Apply(Step{Orders: o, Raw: raw, Mail: &ref}, toyEngine())
		if out != nil {
			seq = out.Entry.Seq
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	r, ok, _ := db.Processed(ref)
	if !ok || r.Entry != seq || r.Outcome != "accepted" {
		t.Fatalf("the held receipt: %+v", r)
	}
	_, err = db.Transact("g1", nil, func(tx *Txn) error {
		o2 := &wind.Orders{Side: wind.JP, Turn: 1, Wait: wind.WaitActions}
		_, err := tx.Apply(Step{Orders: o2, Raw: bytes.Clone(raw), Mail: &ref}, toyEngine())
		return err
	})
	if !errors.Is(err, ErrProcessed) {
		t.Fatalf("applying a receipt twice: %v", err)
	}
}
