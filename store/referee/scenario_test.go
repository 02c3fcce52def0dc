package referee

import (
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/store"
)

// Whole games of every scenario through the store, from their creation
// by the rules of setup (Start) to their end: the setup orders and every
// later file are stored redacted and applied with the engine, and each
// export audits, the opening included: the audit creates the game again
// from its dice. A changed victory point chit in the opening is caught.
func TestScenarioGamesAudit(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "attu.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pick := pickFrom(rand.New(rand.NewPCG(7, 7)))
	random := func(s *wind.State) wind.Orders { return autoplay.Orders(s, pick) }
	games := []struct {
		scenario string
		opt      wind.Options
	}{
		{"campaign", wind.Options{JPSetup: wind.SetupFree, USSetup: wind.SetupFree, VPChits: wind.VPPlaced}},
		{"campaign", wind.Options{VPChits: wind.VPDrawn}},
		{wind.ScenarioUpTheHogsBack, wind.Options{}},
		{wind.ScenarioHoltzBayToJarminPass, wind.Options{}},
		{wind.ScenarioTheLinkup, wind.Options{}},
	}
	for i, gm := range games {
		id := fmt.Sprintf("g%d", i)
		seed := make([]byte, store.SeedSize)
		seed[0] = byte(i + 1)
		_, err := db.Create(store.NewGame{Rules: windsys.Rules{}, ID: id, Scenario: gm.scenario, Seed: seed, Start: windsys.Start(gm.scenario, gm.opt),
			Players: []store.NewPlayer{
				{Side: adjudicator.US, Address: "us@example.org", Token: "us-secret-token"},
				{Side: adjudicator.JP, Address: "jp@example.org", Token: "jp-secret-token"},
			}})
		if err != nil {
			t.Fatal(err)
		}
		g := &game{db: db, id: id}
		first, _ := windsys.State(db.Position(id))
		if k := first.Wait().Kind; k != wind.WaitJPSetup && k != wind.WaitUSLanding {
			t.Fatalf("%s: the game begins waiting for %s", id, first.WaitText())
		}
		for n := 0; g.play(t, random); n++ {
			if n > 400 {
				t.Fatalf("%s: no end after %d files", id, n)
			}
		}
		s, _ := windsys.State(db.Position(id))
		if !s.Over() {
			t.Fatalf("%s: %s", id, s.WaitText())
		}
		if err := endGame(db, id, "the rules ended the game"); err != nil {
			t.Fatal(err)
		}
		x, err := db.Export(id, false)
		if err != nil {
			t.Fatal(err)
		}
		if rep := store.Audit(x, windsys.Rules{}); !rep.OK() || !rep.Replayed || !rep.SeedShown {
			t.Fatalf("%s (%s): audit: %v", id, gm.scenario, rep.Bad)
		}
		for _, r := range x.Dice {
			checkDie(t, r)
		}
		t.Logf("%s, %s: %d files, ended turn %d: %s", gm.scenario, id, len(x.Orders), s.Turn, s.Victory)
	}
}

// The audit creates a game again from its scenario, options and dice: an
// opening position that differs from what they create is refused.
func TestOpeningFromTheRules(t *testing.T) {
	dice := []int{4, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	roll := func() *wind.ForcedDice { return &wind.ForcedDice{Values: dice} }
	p, _, err := windsys.Start("campaign", wind.Options{VPChits: wind.VPDrawn})(roll())
	if err != nil {
		t.Fatal(err)
	}
	s := p.(*wind.State)
	if err := (windsys.Rules{}).Opening(s.Clone(), roll()); err != nil {
		t.Fatal(err)
	}
	s.VP.Hexes[0].Cancelled = !s.VP.Hexes[0].Cancelled
	if err := (windsys.Rules{}).Opening(s, roll()); err == nil {
		t.Fatal("a changed victory point chit passes")
	}
	u, _ := s.Unit("U01")
	p, _, _ = windsys.Start(wind.ScenarioUpTheHogsBack, wind.Options{})(roll())
	s = p.(*wind.State)
	u, _ = s.Unit(u.ID)
	if u.Box == wind.BoxSetup {
		u.Box = wind.BoxUnused
	} else {
		u.Box = wind.BoxSetup
	}
	if err := (windsys.Rules{}).Opening(s, roll()); err == nil {
		t.Fatal("another Unknown unit given to the scenario passes")
	}
}

// A game created by the rules of setup whose players miss both setup
// deadlines: the default free setup and the default landing are applied
// as files of the record, and play begins.
func TestSetupDeadlinesPass(t *testing.T) {
	h := newHarness(t, NewGame{Scenario: wind.ScenarioUpTheHogsBack, Deadline: 24 * time.Hour, Reminder: 6 * time.Hour})
	h.newMails()
	if w := h.game().Wait; w.Kind != wind.WaitJPSetup {
		t.Fatalf("the game begins waiting for %s", w)
	}
	h.advance(19 * time.Hour)
	h.tick() // the reminder
	h.advance(6 * time.Hour)
	out := h.tick()
	if w := h.game().Wait; w.Kind != wind.WaitUSLanding || len(out) == 0 {
		t.Fatalf("after the Japanese deadline: %v, waits for %s", subjects(out), w)
	}
	mustContain(t, "the reports", mailTo(t, out, usAddr).Text, "missed the deadline", "the default free setup")
	h.advance(25 * time.Hour)
	h.tick()
	if w := h.game().Wait; w.Kind != wind.WaitUSDecision || w.Turn != 1 {
		t.Fatalf("after the U.S. deadline the game waits for %s", w)
	}
	s, _ := windsys.State(h.db.Position(h.id))
	landed := 0
	for _, u := range s.Units {
		if u.OnMap() && u.Side() == adjudicator.US {
			landed++
		}
	}
	if landed < 10 {
		t.Fatalf("the default landing put %d U.S. units ashore", landed)
	}
}
