package store_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// gunzip returns the contents of a gzip file in testdata.
func gunzip(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testdata/schema7.db.gz is a file as schema 7 wrote it: a game of the
// real rules through the game service, its creation and first step
// mailed and marked sent, its second step's reports not yet sent, the
// later reports to each address compressed against the first as a
// dictionary; schema7-export.json.gz is that game's export then. Opened
// now, the file is migrated: every body compressed on its own, each
// reading back to its hash, the dictionaries' index gone, the game and
// its export as they were, the unsent reports ready to draw and send.
func TestMigrateVersion7(t *testing.T) {
	path := filepath.Join(t.TempDir(), "attu.db")
	if err := os.WriteFile(path, gunzip(t, "schema7.db.gz"), 0o600); err != nil {
		t.Fatal(err)
	}
	stored := gunzip(t, "schema7-export.json.gz")
	old, err := store.ReadExport(bytes.NewReader(stored))
	if err != nil {
		t.Fatal(err)
	}
	forms := func() map[byte]int {
		n := map[byte]int{}
		b, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		b.View(func(tx *bolt.Tx) error {
			if tx.Bucket([]byte("blob-dicts")) != nil {
				n['?']++ // the index of dictionaries
			}
			return tx.Bucket([]byte("blobs")).ForEach(func(_, v []byte) error { n[v[0]]++; return nil })
		})
		return n
	}
	if f := forms(); f['d'] == 0 || f['?'] == 0 {
		t.Fatalf("the file holds no body compressed against a dictionary: %v", f)
	}
	db, err := store.Open(path, &store.Options{Now: func() time.Time { return old.Exported }})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	mails, err := db.Outbox("")
	if err != nil {
		t.Fatal(err)
	}
	if len(mails) != 9 {
		t.Fatalf("%d mails", len(mails))
	}
	for _, m := range mails {
		if m.Text == "" {
			t.Errorf("mail %d has no text", m.ID)
		}
		for _, a := range m.Attachments {
			if !a.Dropped && len(a.Data) != a.Size {
				t.Errorf("mail %d: %s of %d bytes, recorded %d", m.ID, a.Name, len(a.Data), a.Size)
			}
		}
	}
	x, err := db.Export("g1", true)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := x.JSON(); !bytes.Equal(b, stored) {
		t.Error("the game's export changed")
	}
	if rep := store.Audit(x, referee.Engine()); !rep.OK() || !rep.Replayed {
		t.Errorf("audit: %v", rep.Bad)
	}
	svc := referee.New(db, referee.Config{Address: "attu@example.org"})
	pending, err := db.Pending(old.Exported.Add(time.Hour), 0)
	if err != nil || len(pending) != 3 {
		t.Fatalf("%d mails to send: %v", len(pending), err)
	}
	for _, m := range pending {
		if err := svc.Draw(&m); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkSent(m.ID, old.Exported); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if f := forms(); f['d'] != 0 || f['?'] != 0 {
		t.Errorf("after the migration: %v", f)
	}
}
