package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// storedForm returns the format byte each body of mail id is stored in.
func storedForm(t *testing.T, db *DB, id uint64) []byte {
	t.Helper()
	var forms []byte
	db.bolt.View(func(tx *bolt.Tx) error {
		m, err := getMail(tx, id, false)
		if err != nil {
			t.Fatal(err)
		}
		sums := []string{m.TextSHA256}
		for _, a := range m.Attachments {
			sums = append(sums, a.SHA256)
		}
		for _, s := range sums {
			k, _ := blobKey(s)
			forms = append(forms, tx.Bucket(bBlobs).Get(k)[0])
		}
		return nil
	})
	return forms
}

// The first text and report to an address are compressed on their own
// and become the dictionaries of the next ones, which take a fraction of
// their room; every body reads back whole, and Check is content.
func TestBodiesCompressedAgainstDictionaries(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	report := func(turn int) Mail {
		// Lines the same from turn to turn but unlike each other, as a
		// report's map and lists are; one of them changes.
		var text strings.Builder
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range 200 {
			fmt.Fprintf(&text, "%08x %08x %08x\n", rng.Uint32(), rng.Uint32(), rng.Uint32())
			if i == 100 {
				fmt.Fprintf(&text, "turn %d\n", turn)
			}
		}
		js := bytes.Repeat([]byte(fmt.Sprintf(`{"turn": %d, "unit": "3/17-A", "hex": "1422"},`+"\n", turn)), 300)
		return Mail{MessageID: fmt.Sprintf("<r%d@attu>", turn), To: []string{"reader@example.org"}, Subject: "report", Text: text.String(),
			Attachments: []Attachment{{Name: "report.json", Type: "application/json", Data: js}}}
	}
	queue := func(turn int) uint64 {
		r, err := db.Transact("g1", &MailRef{MessageID: fmt.Sprint(turn), ContentHash: fmt.Sprint(turn)}, func(t *Txn) error {
			t.Queue(report(turn))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return r.Mails[0]
	}
	readBack := func(id uint64, turn int) {
		t.Helper()
		m, err := db.Mail(id)
		if err != nil {
			t.Fatal(err)
		}
		want := report(turn)
		if m.Text != want.Text || !bytes.Equal(m.Attachments[0].Data, want.Attachments[0].Data) {
			t.Fatalf("mail %d does not read back whole", id)
		}
	}
	first, second := queue(1), queue(2)
	if f := storedForm(t, db, first); !bytes.Equal(f, []byte{snapFlate, snapFlate}) {
		t.Fatalf("first, stored as %q", f)
	}
	if f := storedForm(t, db, second); !bytes.Equal(f, []byte{blobDict, blobDict}) {
		t.Fatalf("second, stored as %q", f)
	}
	// Sent, they are still read back whole.
	if err := db.MarkSentAll([]uint64{first, second}, time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	readBack(first, 1)
	readBack(second, 2)
	// Against its dictionary, the second report takes a fraction of the
	// first's room, though compressed at the fastest level
	// (deltaWriters).
	var one, two int
	db.bolt.View(func(tx *bolt.Tx) error {
		for _, c := range []struct {
			id uint64
			n  *int
		}{{first, &one}, {second, &two}} {
			m, _ := getMail(tx, c.id, false)
			k, _ := blobKey(m.TextSHA256)
			*c.n = len(tx.Bucket(bBlobs).Get(k))
		}
		return nil
	})
	if two*2 > one {
		t.Errorf("the second text takes %d bytes, the first %d", two, one)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}
