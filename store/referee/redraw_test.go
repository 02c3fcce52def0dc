package referee

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/autoplay"
	"github.com/attu-pbem/attu/store"
)

// sendAll marks every mail queued as sent, as the daemon's outbox worker
// does once the SMTP server took them.
func (h *harness) sendAll() {
	h.t.Helper()
	ms, err := h.db.Pending(h.clk.now().Add(24*time.Hour), 0)
	if err != nil {
		h.t.Fatal(err)
	}
	var ids []uint64
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	if err := h.db.MarkSentAll(ids, h.clk.now()); err != nil {
		h.t.Fatal(err)
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// sideOf is the side a mail of the harness's game went to.
func sideOf(t testing.TB, m store.Mail) adjudicator.Side {
	t.Helper()
	for _, side := range sides {
		if len(m.To) == 1 && m.To[0] == addressOf(side) {
			return side
		}
	}
	t.Fatalf("mail %d goes to %v", m.ID, m.To)
	return adjudicator.NoSide
}

// Once sent, no map picture is kept; resend draws the last one again from
// the position and events it records, byte for byte the picture the
// player was sent, after a restart too. Every picture the game sent —
// welcomes, reports, the reports after a rollback, the final ones — can
// be drawn again the same way.
func TestResendDrawsThePictureAgain(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.sendAll()
	rng := rand.New(rand.NewPCG(9, 9))
	random := func(s *adjudicator.State) adjudicator.Orders { return autoplay.Orders(s, pickFrom(rng)) }
	for range 6 {
		h.advance(time.Hour)
		h.play(random)
		h.sendAll()
	}
	h.restart()

	for _, side := range sides {
		last := lastReport(t, h, side)
		pic := last.Attachments[len(last.Attachments)-2]
		if pic.Name != "map.png" || !pic.Dropped || pic.Data != nil || pic.DrawnAt == 0 || !pic.DrawnEvents {
			t.Fatalf("the last %s report's picture as kept: %+v", side, pic)
		}
		out := h.command(side, "resend", false)
		r := mailTo(t, out, addressOf(side))
		if r.Text != last.Text || len(r.Attachments) != len(last.Attachments) {
			t.Fatalf("resend to %s: %q with %d attachments", side, r.Subject, len(r.Attachments))
		}
		got := r.Attachments[len(r.Attachments)-2]
		if got.Name != "map.png" || got.Dropped || sha256Hex(got.Data) != pic.SHA256 || got.SHA256 != pic.SHA256 || got.Size != pic.Size {
			t.Fatalf("the %s picture sent again: %d bytes, SHA-256 %s; first sent %d bytes, %s", side, len(got.Data), sha256Hex(got.Data), pic.Size, pic.SHA256)
		}
		for i, a := range r.Attachments {
			if a.Name != "map.png" && a.SHA256 != last.Attachments[i].SHA256 {
				t.Fatalf("resend: %s differs from the report's", a.Name)
			}
		}
	}
	h.sendAll()

	// A rollback's reports, more steps, then the end.
	log, _ := h.db.Log(h.id, 1)
	var to uint64
	for _, e := range log {
		if e.Kind == store.KindOrders && to == 0 && e.Seq > 3 {
			to = e.Seq
		}
	}
	if _, err := h.svc.Umpire(h.id, []string{"rollback", itoa(to)}, h.clk.now()); err != nil {
		t.Fatal(err)
	}
	h.sendAll()
	for range 2 {
		h.advance(time.Hour)
		h.play(random)
		h.sendAll()
	}
	h.command(adjudicator.JP, "concede", true)
	h.sendAll()

	all, err := h.db.Outbox(h.id)
	if err != nil {
		t.Fatal(err)
	}
	pictures := 0
	for _, m := range all {
		for i, a := range m.Attachments {
			if !a.Redrawable {
				continue
			}
			pictures++
			if !a.Dropped || a.Data != nil {
				t.Fatalf("mail %d (%s) keeps its picture once sent", m.ID, m.Subject)
			}
			side := sideOf(t, m)
			_, err := h.db.Transact(h.id, nil, func(tx *store.Txn) error {
				g := tx.Game()
				rec, err := loadRecord(g)
				if err != nil {
					return err
				}
				c := &call{s: h.svc, t: tx, g: g, rec: rec, side: side, now: h.clk.now()}
				redrawn, err := c.redrawn(m)
				if err != nil {
					return err
				}
				if b := redrawn[i]; b.Dropped || sha256Hex(b.Data) != a.SHA256 {
					t.Errorf("mail %d (%s, to %s): the picture drawn again at entry %d (events %v) differs from the one sent",
						m.ID, m.Subject, side, a.DrawnAt, a.DrawnEvents)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if pictures < 30 {
		t.Fatalf("only %d pictures sent", pictures)
	}
	h.audit()
}
