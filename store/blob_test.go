package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
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

// Texts and bodies of any kind are stored DEFLATE-compressed, each on its
// own, and a picture (compressed already) as it is; all read back whole,
// the first report and the next alike, before and after they are sent.
func TestBodiesStoredCompressed(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 3000)...)
	report := func(turn int) Mail {
		return Mail{MessageID: fmt.Sprintf("<r%d@attu>", turn), To: []string{"reader@example.org"}, Subject: "report",
			Text: reportText("us", turn),
			Attachments: []Attachment{
				{Name: "report.json", Type: "application/json", Data: bytes.Repeat([]byte(fmt.Sprintf(`{"turn": %d, "hex": "1422"},`+"\n", turn)), 300)},
				{Name: "map.png", Type: "image/png", Data: png},
			}}
	}
	var ids []uint64
	for turn := 1; turn <= 2; turn++ {
		r, err := db.Transact("g1", &MailRef{MessageID: fmt.Sprint(turn), ContentHash: fmt.Sprint(turn)}, func(t *Txn) error {
			t.Queue(report(turn))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.Mails...)
	}
	readBack := func() {
		t.Helper()
		for i, id := range ids {
			m, err := db.Mail(id)
			if err != nil {
				t.Fatal(err)
			}
			want := report(i + 1)
			if m.Text != want.Text || !bytes.Equal(m.Attachments[0].Data, want.Attachments[0].Data) || !bytes.Equal(m.Attachments[1].Data, png) {
				t.Fatalf("mail %d does not read back whole", id)
			}
		}
	}
	readBack()
	db.bolt.View(func(tx *bolt.Tx) error {
		for n, id := range ids {
			m, _ := getMail(tx, id, false)
			text := report(n + 1).Text
			for i, sum := range []string{m.TextSHA256, m.Attachments[0].SHA256, m.Attachments[1].SHA256} {
				k, _ := blobKey(sum)
				v := tx.Bucket(bBlobs).Get(k)
				want := []byte{snapFlate, snapFlate, snapRaw}[i]
				if v[0] != want {
					t.Errorf("mail %d: body %d stored as %q, want %q", id, i, v[0], want)
				}
				if i == 0 && len(v)*3 > len(text) {
					t.Errorf("mail %d: a text of %d bytes takes %d", id, len(text), len(v))
				}
			}
		}
		return nil
	})
	if err := db.MarkSentAll(ids, time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	readBack()
	if err := db.Check(toyEngine()); err != nil {
		t.Fatal(err)
	}
}

// A picture that records what it was drawn from is dropped as soon as
// its mail is sent, its hash and size kept; an unsent mail keeps its
// own; what cannot be drawn again is never dropped.
func TestOutboxDropsSentPictures(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	now := time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)
	mk := func(id, pic string) Mail {
		return Mail{MessageID: id, To: []string{"us@example.org"}, Subject: "report", Text: "report " + id,
			Attachments: []Attachment{{Name: "map.png", Type: "image/png", Data: []byte(pic), Redrawable: true, DrawnAt: 1},
				{Name: "report.json", Type: "application/json", Data: []byte(`{"turn":"` + id + `"}`)}}}
	}
	queue := func(ref string, ms ...Mail) []uint64 {
		t.Helper()
		r, err := db.Transact("g1", &MailRef{MessageID: ref, ContentHash: ref}, func(t *Txn) error {
			t.Queue(ms...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return r.Mails
	}
	first := queue("<a@x>", mk("<1@attu>", "picture one"))[0]
	second := queue("<b@x>", mk("<2@attu>", "picture two"))[0]
	if err := db.MarkSentAll([]uint64{first}, now); err != nil {
		t.Fatal(err)
	}
	m1, _ := db.Mail(first)
	a := m1.Attachments[0]
	if !a.Dropped || a.Data != nil || a.Size != len("picture one") || a.SHA256 != hashHex([]byte("picture one")) || a.DrawnAt != 1 {
		t.Fatalf("sent picture: %+v", a)
	}
	if string(m1.Attachments[1].Data) != `{"turn":"<1@attu>"}` {
		t.Fatalf("the JSON went with the picture: %+v", m1.Attachments[1])
	}
	// Not sent yet: the second mail keeps its picture.
	p, _ := db.Pending(now, 0)
	if len(p) != 2 || p[1].ID != second || p[1].Attachments[0].Dropped || string(p[1].Attachments[0].Data) != "picture two" { // the welcome, the second
		t.Fatalf("pending: %+v", p)
	}
	if err := db.MarkSentAll([]uint64{second}, now); err != nil {
		t.Fatal(err)
	}
	if m2, _ := db.Mail(second); !m2.Attachments[0].Dropped || m2.Attachments[0].Data != nil {
		t.Fatalf("the last picture sent is kept: %+v", m2.Attachments[0])
	}
	// No picture body is left in the file: the welcome's text, the two
	// reports' texts and their two JSON documents are.
	if n := blobCount(db); n != 5 {
		t.Fatalf("%d bodies stored after both mails were sent", n)
	}
	// Sent again as they are, the pictures are left out (the game service
	// draws them again first); drawn again, a picture is kept until sent.
	m1, _ = db.Mail(first)
	redrawn := slices.Clone(m1.Attachments)
	redrawn[0].Data = []byte("picture one")
	again := queue("<c@x>",
		Mail{MessageID: "<3@attu>", To: m1.To, Text: m1.Text, Attachments: m1.Attachments},
		Mail{MessageID: "<4@attu>", To: m1.To, Text: m1.Text, Attachments: redrawn})
	m3, _ := db.Mail(again[0])
	m4, _ := db.Mail(again[1])
	if len(m3.Attachments) != 1 || m3.Attachments[0].Name != "report.json" {
		t.Fatalf("sent again undrawn: %+v", m3.Attachments)
	}
	if len(m4.Attachments) != 2 || m4.Attachments[0].Dropped || string(m4.Attachments[0].Data) != "picture one" || m4.Attachments[0].DrawnAt != 1 {
		t.Fatalf("sent again drawn: %+v", m4.Attachments)
	}
	// A picture that records nothing to draw it from (queued before
	// schema 7) is kept once sent.
	old := mk("<5@attu>", "picture five")
	old.Attachments[0].DrawnAt = 0
	five := queue("<d@x>", old)[0]
	if err := db.MarkSentAll(append(again, five), now); err != nil {
		t.Fatal(err)
	}
	if m, _ := db.Mail(five); m.Attachments[0].Dropped || string(m.Attachments[0].Data) != "picture five" {
		t.Fatalf("a picture with no entry to draw it from: %+v", m.Attachments[0])
	}
	// Marking twice changes nothing.
	if err := db.MarkSentAll([]uint64{second}, now); err != nil {
		t.Fatal(err)
	}
	if m, _ := db.Mail(second); m.Attempts != 1 {
		t.Fatalf("%d attempts", m.Attempts)
	}
}

// Check finds a sent mail that still keeps a picture it could draw again,
// an unsent one that lost its picture, and a picture drawn at an entry
// the game does not have.
func TestCheckFindsKeptPictures(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	_, err := db.Transact("g1", nil, func(t *Txn) error {
		t.Queue(Mail{MessageID: "<1@attu>", To: []string{"us@example.org"}, Text: "report",
			Attachments: []Attachment{{Name: "map.png", Type: "image/png", Data: []byte("picture"), Redrawable: true, DrawnAt: 1}}})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := db.Outbox("g1")
	id := ms[len(ms)-1].ID
	rewrite := func(f func(m *Mail)) {
		t.Helper()
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			m, err := getMail(tx, id, false)
			if err != nil {
				return err
			}
			f(&m)
			return putMail(tx, &m)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Check(toyEngine()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		bad  func(m *Mail)
		want string
	}{
		{"sent, picture kept", func(m *Mail) { m.Sent = time.Now() }, "kept after the mail was sent"},
		{"unsent, picture dropped", func(m *Mail) { m.Attachments[0].Dropped = true }, "dropped before the mail was sent"},
		{"drawn at no entry", func(m *Mail) { m.Attachments[0].DrawnAt = 9 }, "drawn at entry 9"},
	} {
		before, _ := db.Mail(id)
		rewrite(c.bad)
		if err := db.Check(toyEngine()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check says %v", c.what, err)
		}
		rewrite(func(m *Mail) { *m = before })
	}
}

// Check reads every body against its hash.
func TestCheckFindsAlteredBody(t *testing.T) {
	db, path := openTestDB(t)
	queueTest(t, db, "<a@x>", Mail{MessageID: "<1@attu>", To: []string{"us@example.org"}, Text: "text",
		Attachments: []Attachment{{Name: "a.yaml", Type: "application/yaml", Data: []byte("game: g1\n")}}})
	if err := db.Check(toyEngine()); err != nil {
		t.Fatal(err)
	}
	db.bolt.Update(func(tx *bolt.Tx) error {
		k, _ := blobKey(hashHex([]byte("game: g1\n")))
		return tx.Bucket(bBlobs).Put(k, []byte("jgame: g2\n"))
	})
	if err := db.Check(toyEngine()); err == nil {
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

// A version 6 file kept the last picture sent to each address, named in
// outbox-latest, and recorded nothing to draw it from: the migration
// deletes the index and keeps the pictures, which a resend still shares.
func TestMigrateOutboxVersion6(t *testing.T) {
	db, path := openTestDB(t)
	createTestGame(t, db, "g1")
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 1000)
	_, err := db.Transact("g1", nil, func(t *Txn) error {
		t.Queue(Mail{MessageID: "<1@attu>", To: []string{"us@example.org"}, Text: "report",
			Attachments: []Attachment{{Name: "map.png", Type: "image/png", Data: png, Redrawable: true}}})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := db.Outbox("g1")
	id := ms[len(ms)-1].ID
	if err := db.MarkSentAll([]uint64{id}, time.Now()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Update(func(tx *bolt.Tx) error {
		l, err := tx.CreateBucket(bOutboxLatest)
		if err != nil {
			return err
		}
		l.Put([]byte("g1\x00[\"us@example.org\"]\x00map.png"), u64(id))
		return tx.Bucket(bMeta).Put(kVersion, u64(6))
	})
	b.Close()
	db = mustOpen(t, path)
	defer closeChecked(t, db)
	db.bolt.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bOutboxLatest) != nil {
			t.Error("outbox-latest is still there")
		}
		return nil
	})
	m, err := db.Mail(id)
	if err != nil || m.Attachments[0].Dropped || !bytes.Equal(m.Attachments[0].Data, png) {
		t.Fatalf("the picture kept by version 6: %+v %v", m.Attachments, err)
	}
}
