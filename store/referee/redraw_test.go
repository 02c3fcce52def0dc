package referee

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image/color"
	"image/png"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/store"
)

// sendAll sends every mail queued as the daemon's outbox worker does: it
// takes the map pictures from the service (Draw), keeps them in
// h.pictures as the players received them, and marks the mails sent.
func (h *harness) sendAll() {
	h.t.Helper()
	ms, err := h.db.Pending(h.clk.now().Add(24*time.Hour), 0)
	if err != nil {
		h.t.Fatal(err)
	}
	if h.pictures == nil {
		h.pictures = map[string][]byte{}
	}
	var ids []uint64
	for _, m := range ms {
		if err := h.svc.Draw(&m); err != nil {
			h.t.Fatal(err)
		}
		for _, a := range m.Attachments {
			if a.Redrawable {
				if a.Dropped || len(a.Data) == 0 {
					h.t.Fatalf("mail %d (%s) goes without its picture", m.ID, m.Subject)
				}
				h.pictures[m.MessageID] = a.Data
			}
		}
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

// samePicture reports whether two PNGs decode to the same pixels: a
// picture drawn again must look like the one first sent, byte for byte or not.
func samePicture(t testing.TB, a, b []byte) bool {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		return false
	}
	for y := ia.Bounds().Min.Y; y < ia.Bounds().Max.Y; y++ {
		for x := ia.Bounds().Min.X; x < ia.Bounds().Max.X; x++ {
			if color.RGBA64Model.Convert(ia.At(x, y)) != color.RGBA64Model.Convert(ib.At(x, y)) {
				return false
			}
		}
	}
	return true
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

// No map picture is kept; the one sent is drawn beside the transaction
// that queued its mail, and resend draws the last one again from the
// position and events it records, pixel for pixel the picture the player
// was sent, after a restart too. Every picture the game sent — welcomes,
// reports, the reports after a rollback, the final ones — can be drawn
// again the same way.
func TestResendDrawsThePictureAgain(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.sendAll()
	rng := rand.New(rand.NewPCG(9, 9))
	random := func(s *wind.State) wind.Orders { return autoplay.Orders(s, pickFrom(rng)) }
	for range 6 {
		h.advance(time.Hour)
		h.play(random)
		h.sendAll()
	}
	h.restart()

	for _, side := range sides {
		last := lastReport(t, h, side)
		at := slices.IndexFunc(last.Attachments, func(a store.Attachment) bool { return a.Name == "map.png" })
		if at < 0 {
			continue // the side awaited: its order sheet stands in for the picture
		}
		pic := last.Attachments[at]
		if pic.Name != "map.png" || !pic.Dropped || pic.Data != nil || pic.DrawnAt == 0 || !pic.DrawnEvents {
			t.Fatalf("the last %s report's picture as kept: %+v", side, pic)
		}
		out := h.command(side, "resend", true)
		r := mailTo(t, out, addressOf(side))
		if r.Text != last.Text || len(r.Attachments) != len(last.Attachments) {
			t.Fatalf("resend to %s: %q with %d attachments", side, r.Subject, len(r.Attachments))
		}
		got := r.Attachments[at]
		sent := h.pictures[last.MessageID]
		if got.Name != "map.png" || got.Dropped || len(sent) == 0 || got.SHA256 != sha256Hex(got.Data) || got.Size != len(got.Data) || !samePicture(t, got.Data, sent) {
			t.Fatalf("the %s picture sent again: %d bytes, SHA-256 %s (recorded %d bytes, %s); first sent %d bytes, %s",
				side, len(got.Data), sha256Hex(got.Data), got.Size, got.SHA256, len(sent), sha256Hex(sent))
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
				c := &call{s: h.svc, sys: h.svc.sysOf(&g), t: tx, g: g, rec: rec, side: side, now: h.clk.now()}
				redrawn, err := c.redrawn(m)
				if err != nil {
					return err
				}
				if b := redrawn[i]; b.Dropped || len(h.pictures[m.MessageID]) == 0 || !samePicture(t, b.Data, h.pictures[m.MessageID]) {
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
	if pictures < 10 { // the side awaited gets the order sheet instead, and an unchanged map no picture
		t.Fatalf("only %d pictures sent", pictures)
	}
	h.audit()
}

// A picture whose mail was not sent before a restart is drawn again from
// the log when it is sent: the same pixels as the one drawn beside the
// transaction that queued it, for every side.
func TestDrawAfterRestart(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.sendAll()
	rng := rand.New(rand.NewPCG(3, 4))
	random := func(s *wind.State) wind.Orders { return autoplay.Orders(s, pickFrom(rng)) }
	for range 3 {
		h.advance(time.Hour)
		h.play(random)
		h.sendAll()
	}
	drawn := func() map[string][]byte {
		ms, err := h.db.Pending(h.clk.now().Add(24*time.Hour), 0)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		for _, m := range ms {
			todo := 0
			for _, a := range m.Attachments {
				if a.ToDraw() {
					todo++
				}
			}
			if err := h.svc.Draw(&m); err != nil {
				t.Fatal(err)
			}
			for _, a := range m.Attachments {
				if a.Redrawable && todo > 0 {
					if a.Dropped || len(a.Data) == 0 {
						t.Fatalf("mail %d: no picture drawn", m.ID)
					}
					out[m.MessageID] = a.Data
				}
			}
		}
		return out
	}
	// The next step that queues a picture (the side awaited gets the
	// order sheet instead, and a reader whose map did not change none).
	var before map[string][]byte
	for i := 0; len(before) == 0; i++ {
		if i == 8 {
			t.Fatal("eight steps queued no picture to draw")
		}
		h.sendAll()
		h.advance(time.Hour)
		h.play(random)
		before = drawn()
	}
	h.restart()
	after := drawn()
	if len(after) != len(before) {
		t.Fatalf("%d pictures drawn after the restart, %d before", len(after), len(before))
	}
	for id, b := range before {
		if len(after[id]) == 0 || !samePicture(t, after[id], b) {
			t.Errorf("mail %s: the picture drawn again from the log differs from the one drawn when it was queued", id)
		}
	}
}
