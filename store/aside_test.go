package store

import (
	"errors"
	"testing"
)

// A shelf keeps its records beside the games: written in its own
// transaction with the mails it queues, or inside a game's transaction
// with that game's change, and nothing at all when the function fails.
// Check accepts the mails a shelf queued.
func TestShelf(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	type rec struct{ N int }
	if err := db.ViewShelf("t", func(s *Shelf) error {
		if ok, err := s.Get("a", &rec{}); ok || err != nil {
			t.Fatalf("an empty shelf has a: %v %v", ok, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	err := db.UpdateShelf("t", func(s *Shelf) error {
		if err := s.Put("x/1", rec{1}); err != nil {
			return err
		}
		if err := s.Put("x/2", rec{2}); err != nil {
			return err
		}
		return s.Queue(Mail{MessageID: "<digest@x>", To: []string{"u@x.org"}, Subject: "digest", Text: "hello"})
	})
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := db.UpdateShelf("t", func(s *Shelf) error {
		s.Put("x/3", rec{3})
		s.Queue(Mail{MessageID: "<no@x>", To: []string{"u@x.org"}})
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	_, err = db.Transact("g1", nil, func(tx *Txn) error {
		s, err := tx.Shelf("t")
		if err != nil {
			return err
		}
		var r rec
		if ok, err := s.Get("x/2", &r); !ok || err != nil || r.N != 2 {
			t.Fatalf("x/2 in the game's transaction: %v %v %v", ok, err, r)
		}
		if s.Queue(Mail{MessageID: "<m@x>"}) == nil {
			t.Fatal("a shelf inside a game's transaction queues mails of its own")
		}
		tx.Queue(Mail{MessageID: "<standings@x>", To: []string{"u@x.org"}, Subject: "standings"})
		return s.Put("x/4", rec{4})
	})
	if err != nil {
		t.Fatal(err)
	}
	db.ViewShelf("t", func(s *Shelf) error {
		if got := s.Keys("x/"); len(got) != 3 || got[0] != "x/1" || got[2] != "x/4" {
			t.Fatalf("keys %v", got)
		}
		if s.Put("y", rec{}) == nil {
			t.Fatal("a read transaction writes")
		}
		return nil
	})
	mails, _ := db.Outbox("")
	var shelved, game int
	for _, m := range mails {
		switch m.MessageID {
		case "<digest@x>":
			shelved++
			if m.Shelf != "t" || m.Entry != 0 || m.Receipt != 0 {
				t.Fatalf("the digest mail: %+v", m)
			}
		case "<standings@x>":
			game++
			if m.Game != "g1" || m.Entry == 0 {
				t.Fatalf("the game's mail: %+v", m)
			}
		case "<no@x>":
			t.Fatal("a failed shelf transaction queued its mail")
		}
	}
	if shelved != 1 || game != 1 {
		t.Fatalf("%d shelf mails, %d game mails", shelved, game)
	}
	closeChecked(t, db)
}
