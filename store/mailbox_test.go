package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The position of each mailbox survives closing the file, and mailboxes
// never read are at the start.
func TestMailboxPosition(t *testing.T) {
	db, path := openTestDB(t)
	if p, err := db.MailboxPosition("attu@example.org INBOX"); err != nil || p != (MailboxPosition{}) {
		t.Fatalf("a new file's position: %+v, %v", p, err)
	}
	want := MailboxPosition{UIDValidity: 1700000000, LastUID: 42}
	if err := db.SetMailboxPosition("attu@example.org INBOX", want); err != nil {
		t.Fatal(err)
	}
	if err := db.SetMailboxPosition("attu@example.org Archive", MailboxPosition{UIDValidity: 7, LastUID: 1}); err != nil {
		t.Fatal(err)
	}
	closeChecked(t, db)
	db = mustOpen(t, path)
	defer closeChecked(t, db)
	if p, err := db.MailboxPosition("attu@example.org INBOX"); err != nil || p != want {
		t.Errorf("after reopening: %+v, %v; want %+v", p, err, want)
	}
	if p, _ := db.MailboxPosition("attu@example.org Archive"); p.LastUID != 1 {
		t.Errorf("the other mailbox: %+v", p)
	}
	if p, _ := db.MailboxPosition("other@example.org INBOX"); p != (MailboxPosition{}) {
		t.Errorf("a mailbox never read: %+v", p)
	}
}

// A read-only open creates nothing, migrates nothing, and cannot write;
// it waits for a writer like any other open.
func TestOpenReadOnly(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	if _, err := Open(missing, &Options{ReadOnly: true}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the read-only open created %s", missing)
	}
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	if _, err := Open(empty, &Options{ReadOnly: true}); err == nil {
		t.Error("an empty file opened")
	}
	if fi, _ := os.Stat(empty); fi.Size() != 0 {
		t.Error("the read-only open wrote to an empty file")
	}

	db, path := openTestDB(t)
	createTestGame(t, db, "g1")
	if _, err := Open(path, &Options{ReadOnly: true, Timeout: 50 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Errorf("while a writer holds it: %v", err)
	}
	closeChecked(t, db)
	before, _ := os.ReadFile(path)
	r1, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Open(path, &Options{ReadOnly: true, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("a second reader: %v", err)
	}
	r2.Close()
	if g, err := r1.Game("g1"); err != nil || g.ID != "g1" {
		t.Errorf("reading: %v, %v", g, err)
	}
	if err := r1.SetMailboxPosition("x", MailboxPosition{1, 1}); err == nil {
		t.Error("a read-only database wrote")
	}
	r1.Close()
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the file changed under read-only opens")
	}

	// A file of an older schema is left as it is.
	old := filepath.Join(dir, "old.db")
	b, err := bolt.Open(old, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bGames, bLedger, bLedgerIndex, bOutbox} {
			tx.CreateBucket(name)
		}
		m, _ := tx.CreateBucket(bMeta)
		return m.Put(kVersion, u64(SchemaVersion-1))
	})
	b.Close()
	if _, err := Open(old, &Options{ReadOnly: true}); !errors.Is(err, ErrSchema) {
		t.Errorf("an older schema: %v", err)
	}
	b, _ = bolt.Open(old, 0o600, &bolt.Options{ReadOnly: true})
	b.View(func(tx *bolt.Tx) error {
		if v := binary.BigEndian.Uint64(tx.Bucket(bMeta).Get(kVersion)); v != SchemaVersion-1 {
			t.Errorf("the read-only open migrated the file to %d", v)
		}
		return nil
	})
	b.Close()
}
