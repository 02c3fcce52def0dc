package store_test

import (
	"bytes"
	"compress/gzip"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"io"
	"os"
	"path/filepath"
	"strings"
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
	if err := db.Check(windsys.Rules{}); err != nil {
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
	if rep := store.Audit(x, windsys.Rules{}); !rep.OK() || !rep.Replayed {
		t.Errorf("audit: %v", rep.Bad)
	}
	svc := referee.New(db, referee.Config{System: windsys.Rules{}, Address: "attu@example.org"})
	pending, err := db.Pending(old.Exported.Add(time.Hour), 0)
	if err != nil || len(pending) != 3 {
		t.Fatalf("%d mails to send: %v", len(pending), err)
	}
	for _, m := range pending {
		if err := svc.Draw(&m); err != nil {
			t.Fatal(err)
		}
		if err := db.MarkSentAll([]uint64{m.ID}, old.Exported); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Check(windsys.Rules{}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if f := forms(); f['d'] != 0 || f['?'] != 0 {
		t.Errorf("after the migration: %v", f)
	}
}

// A schema 7 file's ledger index is keyed by the Message-IDs themselves;
// migrated, every mail it recorded is still recognised, by its Message-ID
// and content and by its Message-ID alone, and a mail whose Message-ID is
// longer than a bbolt key can be recorded and recognised.
func TestMigrateLedgerKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "attu.db")
	if err := os.WriteFile(path, gunzip(t, "schema7.db.gz"), 0o600); err != nil {
		t.Fatal(err)
	}
	var refs []store.MailRef
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("ledger-index")).ForEach(func(k, _ []byte) error {
			id, hash, ok := bytes.Cut(k, []byte{0})
			if !ok || len(hash) != 64 {
				t.Errorf("an old key %q is not a Message-ID and a content hash", k)
			}
			refs = append(refs, store.MailRef{MessageID: string(id), ContentHash: string(hash)})
			return nil
		})
	})
	b.Close()
	if len(refs) < 2 {
		t.Fatalf("the file's ledger holds %d mails", len(refs))
	}
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(windsys.Rules{}); err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		got, ok, err := db.Processed(r)
		if err != nil || !ok || got.MessageID != r.MessageID || got.ContentHash != r.ContentHash {
			t.Errorf("%s: not recognised after the migration: %+v %v %v", r.MessageID, got, ok, err)
		}
		other := store.MailRef{MessageID: r.MessageID, ContentHash: strings.Repeat("0", 64)}
		if _, ok, _ := db.Processed(other); !ok {
			t.Errorf("%s: another copy of it is not recognised", r.MessageID)
		}
	}
	long := store.NewMailRef("<"+strings.Repeat("x", 40<<10)+"@attu.test>", []byte("orders"))
	if _, err := db.Refuse(long, "", "refused: test", nil); err != nil {
		t.Fatalf("a 40 KiB Message-ID: %v", err)
	}
	if _, ok, err := db.Processed(store.NewMailRef(long.MessageID, []byte("other"))); !ok || err != nil {
		t.Errorf("the mail of a 40 KiB Message-ID is not recognised: %v", err)
	}
	if _, ok, _ := db.Processed(store.NewMailRef("<other@attu.test>", []byte("orders"))); ok {
		t.Error("a mail never processed is recognised")
	}
	if err := db.Check(windsys.Rules{}); err != nil {
		t.Fatal(err)
	}
}

// A file of schema 11 or before has no due index; migrated, every game
// not ended is due at once (at its creation), the first look at the
// deadlines finds it, and the game service puts it at its own time.
func TestMigrateDueIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "attu.db")
	if err := os.WriteFile(path, gunzip(t, "schema7.db.gz"), 0o600); err != nil {
		t.Fatal(err)
	}
	old, err := store.ReadExport(bytes.NewReader(gunzip(t, "schema7-export.json.gz")))
	if err != nil {
		t.Fatal(err)
	}
	now := old.Exported
	db, err := store.Open(path, &store.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g, err := db.Game("g1")
	if err != nil {
		t.Fatal(err)
	}
	if g.Status == store.Ended || !g.Due.Equal(g.Created) {
		t.Fatalf("the migrated game %s is due at %v, created %v", g.Status, g.Due, g.Created)
	}
	if ids, err := db.Due(g.Created); err != nil || strings.Join(ids, ",") != "g1" {
		t.Fatalf("due at the creation: %v, %v", ids, err)
	}
	svc := referee.New(db, referee.Config{System: windsys.Rules{}, Address: "attu@example.org"})
	if err := svc.Tick(now); err != nil {
		t.Fatal(err)
	}
	if g, err = db.Game("g1"); err != nil {
		t.Fatal(err)
	}
	if !g.Due.After(now) || g.Due.After(g.Deadline) {
		t.Fatalf("after a look the game is due at %v (now %v, deadline %v)", g.Due, now, g.Deadline)
	}
	if ids, err := db.Due(now); err != nil || len(ids) != 0 {
		t.Fatalf("due now after the look: %v, %v", ids, err)
	}
	if err := db.Check(windsys.Rules{}); err != nil {
		t.Fatal(err)
	}
}
