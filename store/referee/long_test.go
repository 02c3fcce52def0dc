package referee

import (
	"bytes"
	"encoding/json"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/store"

	bolt "go.etcd.io/bbolt"
)

// reportText stands in for a turn report: about 6 KB, like the real ones
// with their ASCII maps.
func reportText() string {
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "%03d  . . . ^ ^ ~ ~ . . # # . . . . ^ ^ ^ . . . ~ ~ ~ . . . . # . . . . . . . . . . . . . . . . . . . . . . . . . . . . .\n", i)
	}
	return b.String()
}

// Twenty full turns through the real rules in one file: each game opens
// with NewGame and a random deployment, both sides give random legal orders
// (autoplay) every turn, every file is stored redacted with three 6 KB
// reports, and every game's export audits. Random play loses the U.S. 30
// infantry steps within a few turns (rule 3.8.2), so it takes several
// games; the file holds them all, more than one 20-turn game would.
func TestTwentyTurnsWithTheRules(t *testing.T) {
	const turns = 20
	path := filepath.Join(t.TempDir(), "attu.db")
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pick := pickFrom(rand.New(rand.NewPCG(43, 43)))
	random := func(s *wind.State) wind.Orders { return autoplay.Orders(s, pick) }
	full, games, files, acts, dice, entries, events, export := 0, 0, 0, 0, 0, 0, 0, 0
	for full < turns {
		games++
		seed := make([]byte, store.SeedSize)
		seed[0] = byte(games)
		id := fmt.Sprintf("g%d", games)
		g := createGame(t, db, id, seed, func(s *wind.State) error {
			autoplay.Deploy(s, pick)
			return nil
		})
		g.report = reportText()
		done := map[int]int{} // turn → actions files accepted
		for {
			s, err := windsys.State(db.Position(id))
			if err != nil {
				t.Fatal(err)
			}
			w := s.Wait()
			side, wait := w.Side, w.Kind
			turn := s.Turn
			if side == adjudicator.NoSide || full+countFull(done) >= turns && wait == wind.WaitUSDecision {
				break
			}
			g.play(t, random)
			if wait == wind.WaitActions {
				done[turn]++
			}
		}
		full += countFull(done)
		if err := endGame(db, id, "test over"); err != nil {
			t.Fatal(err)
		}
		x, err := db.Export(id, false)
		if err != nil {
			t.Fatal(err)
		}
		if rep := store.Audit(x, windsys.Rules{}); !rep.OK() || !rep.Replayed || !rep.SeedShown {
			t.Fatalf("game %s: audit: %v", id, rep.Bad)
		}
		for _, xe := range x.Log {
			var e store.Entry
			if err := json.Unmarshal(xe.Entry, &e); err != nil {
				t.Fatal(err)
			}
			if o := mustOrders(t, &e); o != nil {
				acts += len(o.Actions)
			}
			events += len(windsys.EventsOf(e.Events))
		}
		for _, r := range x.Dice {
			checkDie(t, r)
		}
		files += len(x.Orders)
		dice += len(x.Dice)
		entries += len(x.Log)
		var buf bytes.Buffer
		x.WriteJSON(&buf)
		export += buf.Len()
	}
	if err := db.Check(windsys.Rules{}); err != nil {
		t.Fatal(err)
	}
	mails, _ := db.Outbox("")
	var used int64
	db.Bolt().View(func(tx *bolt.Tx) error { used = tx.Size(); return nil })
	db.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d full turns through the rules in %d games: %d order files, %d activations, %d events, %d dice, %d log entries, %d queued mails; exports %.2f MB in all; file %.2f MB, %.2f MB in use",
		full, games, files, acts, events, dice, entries, len(mails), float64(export)/(1<<20), float64(fi.Size())/(1<<20), float64(used)/(1<<20))
	if fi.Size() >= 5<<20 {
		t.Errorf("%d turns take %d bytes", full, fi.Size())
	}
}

// countFull counts the turns in which both sides' actions were accepted.
func countFull(done map[int]int) int {
	n := 0
	for _, c := range done {
		if c == 2 {
			n++
		}
	}
	return n
}

// checkDie requires a logged die to be typed as the table would see it:
// the Japanese roll their chits, Unknown tables and pool draws out of the
// U.S. player's sight (rules 2.5, 12.1); every other die is rolled in the
// open, and by a side unless it is the weather's.
func checkDie(t *testing.T, r store.Roll) {
	t.Helper()
	want := adjudicator.AudienceBoth
	switch r.Purpose {
	case wind.DieKomandorskiEffect, wind.DieKomandorskiDelay, wind.DieUnknownTable, wind.DiePoolDraw,
		wind.DieSetupDraw, wind.DieVPDraw:
		want = adjudicator.AudienceJP
		if r.Side != adjudicator.JP {
			t.Fatalf("die %d (%s) rolled by %s", r.Seq, r.Purpose, r.Side)
		}
	}
	if r.Seen != want {
		t.Fatalf("die %d (%s) seen by %s, want %s", r.Seq, r.Purpose, r.Seen, want)
	}
	if (r.Side == adjudicator.NoSide) != (r.Purpose == wind.DieWeather) {
		t.Fatalf("die %d (%s) rolled by %s", r.Seq, r.Purpose, r.Side)
	}
}
