package store

import (
	"encoding/base32"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// secretGame plays a game holding every kind of entry (a creation, orders,
// a note, a rollback, the end) and exports it.
func secretGame(t *testing.T) *Export {
	t.Helper()
	db := rolledBackGame(t)
	_, err := db.Transact("g1", nil, func(tx *Txn) error {
		_, err := tx.Note(wind.US, "status", false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.end("g1", "turns ran out"); err != nil {
		t.Fatal(err)
	}
	x := mustExport(t, db, "g1", false)
	mustAudit(t, x)
	return x
}

// TestEntrySecrets: every entry commits 128 random bits or more of its own,
// inside the hashed bytes, so no head quoted to a player can be searched
// for what its entry hides.
func TestEntrySecrets(t *testing.T) {
	x := secretGame(t)
	kinds := map[Kind]bool{}
	seen := map[string]uint64{}
	for i, xe := range x.Log {
		var e Entry
		if err := json.Unmarshal(xe.Entry, &e); err != nil {
			t.Fatal(err)
		}
		kinds[e.Kind] = true
		bits, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(e.Secret)
		if err != nil || len(e.Secret)*5 < 128 {
			t.Fatalf("entry %d: secret %q is not 128 bits of base32 (%v)", i+1, e.Secret, err)
		}
		if len(bits)*8 < 128 {
			t.Fatalf("entry %d: secret %q decodes to %d bits", i+1, e.Secret, len(bits)*8)
		}
		if s, dup := seen[e.Secret]; dup {
			t.Fatalf("entries %d and %d share the secret %s", s, i+1, e.Secret)
		}
		seen[e.Secret] = uint64(i + 1)
		// The secret is part of what is hashed: without it the entry
		// hashes to something else.
		e.Secret = ""
		b, err := encodeEntry(&e)
		if err != nil {
			t.Fatal(err)
		}
		if hashHex(b) == xe.Hash {
			t.Fatalf("entry %d hashes the same without its secret", i+1)
		}
	}
	for _, k := range []Kind{KindCreate, KindOrders, KindNote, KindRollback, KindEnd} {
		if !kinds[k] {
			t.Errorf("no %s entry in the game", k)
		}
	}
}

// TestTamperSecret: an entry's secret changed, removed or shortened is
// caught at that entry; with the chain forged after it, the head is not
// the one every report quoted.
func TestTamperSecret(t *testing.T) {
	x := secretGame(t)
	for i := range x.Log {
		seq := uint64(i + 1)
		var e Entry
		json.Unmarshal(x.Log[i].Entry, &e)
		flip := []byte(e.Secret)
		flip[len(flip)-1] = map[bool]byte{true: 'B', false: 'A'}[flip[len(flip)-1] == 'A']
		edits := map[string]func(e *Entry){
			"changed":   func(e *Entry) { e.Secret = string(flip) },
			"removed":   func(e *Entry) { e.Secret = "" },
			"shortened": func(e *Entry) { e.Secret = e.Secret[:25] },
		}
		for what, edit := range edits {
			y := clone(t, x)
			editEntry(t, y, i, edit)
			expectBad(t, y, seq, fmt.Sprintf("entry %d secret %s", seq, what))

			y = clone(t, x)
			editEntry(t, y, i, edit)
			rechain(t, y)
			if y.Head == x.Head {
				t.Fatalf("entry %d secret %s: the forged chain ends at the head quoted", seq, what)
			}
			// Shortened, or removed after an entry with a secret, the
			// forgery is caught even so. A changed secret is another
			// draw, and the first entry without one is a game carried
			// over from a release without secrets: only the head quoted
			// to the players tells those apart.
			if what == "shortened" || what == "removed" && seq > 1 {
				expectBad(t, y, seq, fmt.Sprintf("entry %d secret %s, chain forged", seq, what))
			}
		}
	}
}

// TestAuditWithoutSecrets: entries written before secrets existed (none
// has one) still audit in the layout of the release that wrote them
// (ExportFormatBefore); an export from such a release is in testdata
// (TestMigrateVersion7). A game carried over keeps old entries without
// secrets and new ones with. But an export of this layout with every
// secret taken out and the chain computed again fails, at its last
// entry, saying so.
func TestAuditWithoutSecrets(t *testing.T) {
	x := secretGame(t)
	if x.Format != ExportFormat {
		t.Fatalf("a game with secrets is exported as %s", x.Format)
	}
	y := clone(t, x)
	for i := range y.Log {
		editEntry(t, y, i, func(e *Entry) { e.Secret = "" })
	}
	rechain(t, y)
	last := uint64(len(y.Log))
	expectBad(t, y, last, "every secret stripped, chain forged")
	if why := Audit(y, toyEngine()).Bad.What; !strings.Contains(why, "the secrets were taken out") {
		t.Errorf("the audit says %q", why)
	}
	y.Format = ExportFormatBefore
	mustAudit(t, y)

	y = clone(t, x)
	for i := range 5 {
		editEntry(t, y, i, func(e *Entry) { e.Secret = "" })
	}
	rechain(t, y)
	mustAudit(t, y)
}

// TestSecretDrawnWhenWritten: two games played alike, entry for entry,
// with the same seed and the same clock, still chain to different heads.
func TestSecretDrawnWhenWritten(t *testing.T) {
	heads := map[string]bool{}
	for range 2 {
		db, _ := openTestDB(t)
		db.now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
		createTestGame(t, db, "g1")
		newDriver(db, "g1", 11).play(t, 3)
		g, err := db.Game("g1")
		if err != nil {
			t.Fatal(err)
		}
		heads[g.Head] = true
	}
	if len(heads) != 2 {
		t.Fatal("two games played alike share their head")
	}
}
