package store

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// queueTest queues mails through the ledger, as a command's answers are.
func queueTest(t *testing.T, db *DB, ref string, mails ...Mail) []uint64 {
	t.Helper()
	r, err := db.Refuse(MailRef{MessageID: ref, ContentHash: ref}, "", "answered", mails)
	if err != nil {
		t.Fatal(err)
	}
	return r.Mails
}

func blobCount(db *DB) int {
	n := 0
	db.bolt.View(func(tx *bolt.Tx) error { n = tx.Bucket(bBlobs).Stats().KeyN; return nil })
	return n
}

// The same bytes attached to two mails are stored once, and both read
// back whole.
func TestOutboxSharesBodies(t *testing.T) {
	db, _ := openTestDB(t)
	tmpl := bytes.Repeat([]byte("actions:\n  - move: {unit: x, path: []}\n"), 100)
	mk := func(id, to string) Mail {
		return Mail{MessageID: id, To: []string{to}, Subject: "report", Text: "the same text",
			Attachments: []Attachment{{Name: "orders.yaml", Type: "application/yaml", Data: tmpl}}}
	}
	queueTest(t, db, "<a@x>", mk("<1@attu>", "us@example.org"), mk("<2@attu>", "jp@example.org"))
	if n := blobCount(db); n != 2 { // the text and the template
		t.Fatalf("%d bodies stored", n)
	}
	ms, err := db.Outbox("")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Text != "the same text" || len(m.Attachments) != 1 || !bytes.Equal(m.Attachments[0].Data, tmpl) || m.Attachments[0].Size != len(tmpl) {
			t.Fatalf("mail %d read back as %q, %+v", m.ID, m.Text, m.Attachments)
		}
	}
}

// A picture is dropped once a newer one reached the same address; the
// last one stays, so a report sent again carries it, and an unsent mail
// always has its own.
func TestOutboxDropsRedrawnPictures(t *testing.T) {
	db, _ := openTestDB(t)
	now := time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)
	mk := func(id, pic string) Mail {
		return Mail{MessageID: id, To: []string{"us@example.org"}, Subject: "report", Text: "report " + id,
			Attachments: []Attachment{{Name: "map.png", Type: "image/png", Data: []byte(pic), Redrawable: true},
				{Name: "report.json", Type: "application/json", Data: []byte(`{"turn":"` + id + `"}`)}}}
	}
	first := queueTest(t, db, "<a@x>", mk("<1@attu>", "picture one"))[0]
	if err := db.MarkSent(first, now); err != nil {
		t.Fatal(err)
	}
	second := queueTest(t, db, "<b@x>", mk("<2@attu>", "picture two"))[0]
	p, _ := db.Pending(now, 0)
	if len(p) != 1 || string(p[0].Attachments[0].Data) != "picture two" {
		t.Fatalf("pending: %+v", p)
	}
	// Not sent yet: the first picture is still the last one sent.
	if m, _ := db.Mail(first); m.Attachments[0].Dropped {
		t.Fatal("a picture dropped before its successor was sent")
	}
	if err := db.MarkSentAll([]uint64{second}, now); err != nil {
		t.Fatal(err)
	}
	m1, _ := db.Mail(first)
	a := m1.Attachments[0]
	if !a.Dropped || a.Data != nil || a.Size != len("picture one") || a.SHA256 != hashHex([]byte("picture one")) {
		t.Fatalf("superseded picture: %+v", a)
	}
	if string(m1.Attachments[1].Data) != `{"turn":"<1@attu>"}` {
		t.Fatalf("the JSON went with the picture: %+v", m1.Attachments[1])
	}
	m2, _ := db.Mail(second)
	if m2.Attachments[0].Dropped || string(m2.Attachments[0].Data) != "picture two" {
		t.Fatalf("last picture: %+v", m2.Attachments[0])
	}
	// Sent again: the kept picture is shared, the dropped one left out.
	again := queueTest(t, db, "<c@x>",
		Mail{MessageID: "<3@attu>", To: m2.To, Text: m2.Text, Attachments: m2.Attachments},
		Mail{MessageID: "<4@attu>", To: m1.To, Text: m1.Text, Attachments: m1.Attachments})
	m3, _ := db.Mail(again[0])
	m4, _ := db.Mail(again[1])
	if len(m3.Attachments) != 2 || string(m3.Attachments[0].Data) != "picture two" || len(m4.Attachments) != 1 || m4.Attachments[0].Name != "report.json" {
		t.Fatalf("sent again: %+v; %+v", m3.Attachments, m4.Attachments)
	}
	// Marking twice changes nothing.
	if err := db.MarkSent(second, now); err != nil {
		t.Fatal(err)
	}
	if m, _ := db.Mail(second); m.Attempts != 1 {
		t.Fatalf("%d attempts", m.Attempts)
	}
}

// Check reads every body against its hash.
func TestCheckFindsAlteredBody(t *testing.T) {
	db, path := openTestDB(t)
	queueTest(t, db, "<a@x>", Mail{MessageID: "<1@attu>", To: []string{"us@example.org"}, Text: "text",
		Attachments: []Attachment{{Name: "a.yaml", Type: "application/yaml", Data: []byte("game: g1\n")}}})
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	db.bolt.Update(func(tx *bolt.Tx) error {
		k, _ := blobKey(hashHex([]byte("game: g1\n")))
		return tx.Bucket(bBlobs).Put(k, []byte("jgame: g2\n"))
	})
	if err := db.Check(); err == nil {
		t.Fatalf("%s: an altered body passes Check", path)
	}
	db.bolt.Update(func(tx *bolt.Tx) error {
		k, _ := blobKey(hashHex([]byte("game: g1\n")))
		return tx.Bucket(bBlobs).Put(k, []byte("jgame: g1\n"))
	})
}

// A version 5 outbox, its attachments in base64 inside each mail, is
// carried over whole: bodies moved out, unsent mails indexed.
func TestMigrateOutboxVersion5(t *testing.T) {
	db, path := openTestDB(t)
	createTestGame(t, db, "g1")
	db.Close()
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 1000)
	sent := time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)
	b.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bBlobs, bBlobRefs, bOutboxPending, bOutboxLatest, bBlobDicts} {
			tx.DeleteBucket(name)
		}
		ob := tx.Bucket(bOutbox)
		ob.ForEach(func(k, _ []byte) error { return ob.Delete(k) })
		type v5 struct {
			ID          uint64           `json:"id"`
			Game        string           `json:"game"`
			Entry       uint64           `json:"entry"`
			MessageID   string           `json:"message_id"`
			To          []string         `json:"to"`
			Subject     string           `json:"subject"`
			Text        string           `json:"text"`
			Attachments []map[string]any `json:"attachments"`
			Sent        *time.Time       `json:"sent,omitempty"`
		}
		for i, s := range []*time.Time{&sent, nil} {
			v, _ := json.Marshal(v5{ID: uint64(i + 1), Game: "g1", Entry: 1, MessageID: "<w@attu>", To: []string{"us@example.org"},
				Subject: "welcome", Text: "welcome text", Sent: s,
				Attachments: []map[string]any{{"name": "map.png", "type": "image/png", "data": png}}})
			ob.Put(u64(uint64(i+1)), v)
		}
		return tx.Bucket(bMeta).Put(kVersion, u64(5))
	})
	b.Close()
	db = mustOpen(t, path)
	defer closeChecked(t, db)
	ms, err := db.Outbox("g1")
	if err != nil || len(ms) != 2 {
		t.Fatalf("%d mails: %v", len(ms), err)
	}
	for _, m := range ms {
		if m.Text != "welcome text" || len(m.Attachments) != 1 || !bytes.Equal(m.Attachments[0].Data, png) || m.Attachments[0].Redrawable {
			t.Fatalf("mail %d: %q %+v", m.ID, m.Text, m.Attachments)
		}
	}
	if p, _ := db.Pending(sent.Add(time.Hour), 0); len(p) != 1 || p[0].ID != 2 {
		t.Fatalf("pending after the migration: %+v", p)
	}
}
