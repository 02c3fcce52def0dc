package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	bolt "go.etcd.io/bbolt"
)

// wholeBodies counts the bodies of more than a kilobyte stored as they
// came ('j' and the bytes; see the store's documentation), pictures
// (compressed already) left out.
func wholeBodies(t *testing.T, db *store.DB) int {
	t.Helper()
	n := 0
	db.Bolt().View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("blobs")).ForEach(func(_, v []byte) error {
			if len(v) > 1024 && v[0] == 'j' && !bytes.HasPrefix(v[1:], []byte("\x89PNG")) {
				n++
			}
			return nil
		})
	})
	return n
}

// The daemon records its mails as sent at once and compresses their
// bodies once it has been idle a moment; they read back the same.
func TestSentBodiesCompressedWhenIdle(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "attu.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := referee.New(db, referee.Config{Address: "attu@example.org"})
	if _, err := svc.Create(referee.NewGame{ID: "g1", Name: "Idle", Setup: "historic",
		US: "us@example.org", JP: "jp@example.org", Umpire: "umpire@example.org"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	pending, err := db.Pending(time.Now().Add(time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []uint64
	texts := map[uint64]string{}
	for _, m := range pending {
		ids = append(ids, m.ID)
		texts[m.ID] = m.Text
	}
	whole := wholeBodies(t, db)
	if whole == 0 {
		t.Fatal("the welcome mails queued no body large enough to tell")
	}
	p := newSentPacker(db, slog.New(slog.DiscardHandler))
	if err := (queue{db, p}).MarkSentAll(ids, time.Now()); err != nil {
		t.Fatal(err)
	}
	if still, _ := db.Pending(time.Now().Add(time.Hour), 0); len(still) != 0 {
		t.Fatalf("%d mails still to send", len(still))
	}
	if n := wholeBodies(t, db); n != whole {
		t.Fatalf("%d bodies compressed before the daemon was idle", whole-n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.run(ctx); close(done) }()
	for i := 0; wholeBodies(t, db) > 0; i++ {
		if i == 100 {
			t.Fatalf("%d of %d bodies still uncompressed after %v", wholeBodies(t, db), whole, 100*packQuiet/10)
		}
		time.Sleep(packQuiet / 10)
	}
	cancel()
	<-done
	for id, text := range texts {
		m, err := db.Mail(id)
		if err != nil {
			t.Fatal(err)
		}
		if m.Text != text {
			t.Fatalf("mail %d reads back otherwise", id)
		}
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}
