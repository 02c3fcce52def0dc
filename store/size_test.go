package store_test

import (
	"bytes"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// gameSize is what a game left in its file.
type gameSize struct {
	turns, entries, mails int
	sent                  int64 // bytes of the mails' texts and attachments as sent
	dropped               int   // attachment bodies no longer kept
	pictures              int   // map pictures whose bodies are still kept
	pngBodies             int   // PNG bodies in the blobs bucket
	file, used            int64 // the file's size; how far its pages in use reach
	outbox, blobs         int64 // bytes of the outbox's values and of the bodies'
}

func (s gameSize) String() string {
	return fmt.Sprintf("%d turns, %d log entries, %d mails (%.2f MB as sent, %d pictures dropped, %d kept): file %.2f MB, %.2f MB in use; outbox %.2f MB, attachment bodies %.2f MB",
		s.turns, s.entries, s.mails, mb(s.sent), s.dropped, s.pictures, mb(s.file), mb(s.used), mb(s.outbox), mb(s.blobs))
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

// playCampaign plays a campaign through the game service, with the real
// reports (text, order template, map picture, JSON) to both players and
// the umpire after every step, until the game reaches turn turns+1 or
// ends. Both sides give random legal orders (autoplay) by mail; after each
// step every queued mail is sent as the daemon's outbox worker sends it,
// its map picture taken from the game service, and marked sent. It returns what the file then holds; the file passes Check and
// the game's export audits.
func playCampaign(tb testing.TB, path string, turns int, seed uint64) gameSize {
	tb.Helper()
	now := time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)
	db, err := store.Open(path, &store.Options{Now: func() time.Time { return now }})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	svc := referee.New(db, referee.Config{System: windsys.Rules{}, Address: "attu@example.org"})
	addr := map[wind.Side]string{wind.US: "us@example.org", wind.JP: "jp@example.org"}
	gameSeed := bytes.Repeat([]byte{byte(seed)}, store.SeedSize)
	c, err := svc.Create(referee.NewGame{ID: "g1", Name: "Landcrab", Setup: "historic",
		US: addr[wind.US], JP: addr[wind.JP], Umpire: "umpire@example.org", Seed: gameSeed}, now)
	if err != nil {
		tb.Fatal(err)
	}
	var drawn int64 // bytes of the map pictures, which the store does not keep
	send := func() {
		ms, err := db.Pending(now.Add(time.Hour), 0)
		if err != nil {
			tb.Fatal(err)
		}
		for _, m := range ms {
			if err := svc.Draw(&m); err != nil {
				tb.Fatal(err)
			}
			for _, a := range m.Attachments {
				if a.Redrawable && a.Size == 0 {
					tb.Fatalf("mail %d goes without its picture", m.ID)
				}
				if a.Redrawable {
					drawn += int64(a.Size)
				}
			}
			if err := db.MarkSentAll([]uint64{m.ID}, now); err != nil {
				tb.Fatal(err)
			}
		}
	}
	send()
	rng := rand.New(rand.NewPCG(seed, seed))
	pick := func(n int) int { return rng.IntN(n) }
	var sz gameSize
	for n := 1; ; n++ {
		g, err := db.Game("g1")
		if err != nil {
			tb.Fatal(err)
		}
		if g.Status == store.Ended || g.Wait.Turn > turns {
			break
		}
		st, err := windsys.State(db.Position("g1"))
		if err != nil {
			tb.Fatal(err)
		}
		side := g.Wait.Side
		file, err := windorders.Write("g1", c.Tokens[side], autoplay.Orders(st, pick))
		if err != nil {
			tb.Fatal(err)
		}
		now = now.Add(time.Hour)
		err = svc.Handle(&referee.Message{From: addr[side], To: []string{"attu+g1@example.org"}, Subject: "orders",
			MessageID: fmt.Sprintf("<o%d@players.test>", n), Orders: file}, now)
		if err != nil {
			tb.Fatal(err)
		}
		if after, _ := db.Game("g1"); after.Entries == g.Entries {
			tb.Fatalf("turn %d: the %s orders for %s were not applied:\n%s", g.Wait.Turn, side, g.Wait.Kind, file)
		}
		send()
	}
	g, _ := db.Game("g1")
	sz.turns, sz.entries = g.Wait.Turn-1, int(g.Entries)
	if g.Status == store.Ended {
		sz.turns = g.Wait.Turn
	}
	x, err := db.Export("g1", true)
	if err != nil {
		tb.Fatal(err)
	}
	if rep := store.Audit(x, windsys.Rules{}); !rep.OK() || !rep.Replayed {
		tb.Fatalf("audit: %v", rep.Bad)
	}
	mails, err := db.Outbox("")
	if err != nil {
		tb.Fatal(err)
	}
	sz.mails = len(mails)
	sz.sent = drawn
	for _, m := range mails {
		sz.sent += int64(len(m.Text))
		for _, a := range m.Attachments {
			sz.sent += int64(a.Size)
			if a.Dropped {
				sz.dropped++
			}
			if a.Type == "image/png" && !a.Dropped {
				sz.pictures++
			}
		}
	}
	if err := db.Check(windsys.Rules{}); err != nil {
		tb.Fatal(err)
	}
	db.Bolt().View(func(tx *bolt.Tx) error {
		sz.used = tx.Size()
		sz.outbox = bucketBytes(tx.Bucket([]byte("outbox")))
		sz.blobs = bucketBytes(tx.Bucket([]byte("blobs")))
		// A picture is stored as it is ('j'), being compressed already.
		tx.Bucket([]byte("blobs")).ForEach(func(_, v []byte) error {
			if bytes.HasPrefix(v, []byte("j\x89PNG")) {
				sz.pngBodies++
			}
			return nil
		})
		return nil
	})
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	sz.file = fi.Size()
	return sz
}

func bucketBytes(b *bolt.Bucket) int64 {
	var n int64
	b.ForEach(func(_, v []byte) error { n += int64(len(v)); return nil })
	return n
}

// sizeSeed is a campaign that random play carries past turn 20.
const sizeSeed = 3

// A campaign of 20 turns played through the game service, with every
// report as it is mailed, fits in 8 MB.
func TestTwentyTurnGameSize(t *testing.T) {
	sz := playCampaign(t, filepath.Join(t.TempDir(), "attu.db"), 20, sizeSeed)
	t.Log(sz)
	if sz.turns < 20 {
		t.Errorf("the game ended after %d turns", sz.turns)
	}
	if sz.file > 8<<20 {
		t.Errorf("20 turns take %d bytes", sz.file)
	}
	// Every mail was sent, and the game service draws a picture again
	// when it is wanted (resend): the file keeps none.
	if sz.pictures != 0 || sz.pngBodies != 0 {
		t.Errorf("%d map pictures kept after their mails were sent, %d PNG bodies in the file", sz.pictures, sz.pngBodies)
	}
}

// BenchmarkTwentyTurnGame plays the same game and reports the file's size
// (MB-file) and how much of it is in use (MB-used).
func BenchmarkTwentyTurnGame(b *testing.B) {
	var sz gameSize
	for i := range b.N {
		sz = playCampaign(b, filepath.Join(b.TempDir(), fmt.Sprintf("attu%d.db", i)), 20, sizeSeed)
	}
	b.ReportMetric(mb(sz.file), "MB-file")
	b.ReportMetric(mb(sz.used), "MB-used")
	b.ReportMetric(mb(sz.sent), "MB-sent")
	b.ReportMetric(float64(sz.mails), "mails")
}
