package tournament

import (
	"errors"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store/referee"
	islandsys "github.com/attu-pbem/attu/templates/island"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// A tournament whose file names another system than War in the Wind's
// has its games created by that system, played by mail as any other; a
// director that does not host the file's system refuses the tournament,
// creating nothing.
func TestTournamentOfAnotherSystem(t *testing.T) {
	w := newWorld(t, 1)
	w.others = []referee.System{otherWind{}}
	w.restart()
	w.dir.Others = []Games{otherWind{}}
	f, err := Parse([]byte("system: other-wind\n"+twoPlayers), windsys.Rules{}, otherWind{})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := w.dir.New(w.svc, f, mailbox, w.clk.now())
	if err != nil {
		t.Fatal(err)
	}
	w.newMails()
	for _, g := range tm.Rounds[0].Games {
		gm, err := w.db.Game(g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if gm.SystemName() != "other-wind" {
			t.Fatalf("game %s is of %s", g.ID, gm.SystemName())
		}
		before := gm.Entries
		w.toActions(tm, g.ID) // the setups played by mail, each by the game's own system
		if gm, _ = w.db.Game(g.ID); gm.Entries == before {
			t.Fatalf("no orders were applied in %s", g.ID)
		}
	}
	d := &Director{Games: windsys.Rules{}}
	f2 := *f
	f2.ID = "other"
	if _, err := d.New(w.svc, &f2, mailbox, w.clk.now()); err == nil || !strings.Contains(err.Error(), `"other-wind" is not a game system this server hosts`) {
		t.Fatalf("a director without the system: %v", err)
	}
	if _, err := Load(w.db, "other"); !errors.Is(err, ErrNoTournament) {
		t.Fatalf("the refused tournament was recorded: %v", err)
	}
}

// otherWords is War in the Wind's rules under another system's name and
// with words of its own for a victory's level.
type otherWords struct{ otherWind }

func (otherWords) System() string { return "other-words" }

func (otherWords) LevelWords(optional bool) (rule, decides string) {
	return "table 9", "the casualty table grades a game"
}

// The standings speak of a victory's level in the words of the
// tournament's system: War in the Wind's cite rule 14.0 after a level and
// tell the chits' points only when the file sets them, Island War's cite
// the scenario's victory conditions and tell those points always, and
// another system's say its own words and none of War in the Wind's.
func TestStandingsSpeakTheSystemsWords(t *testing.T) {
	const base = "3, a draw 1, a loss 0, a bye 3."
	const points = ", the winner and the loser score 3 and 0 for a major victory, 3 and 1 for a minor one, 2 and 1 for a marginal one."
	d := &Director{Games: windsys.Rules{}, Others: []Games{islandsys.Rules{}, otherWords{}}}
	for _, c := range []struct {
		system, chits, result, scoring string
	}{
		{"", "drawn", "A (U.S.) beat B: U.S. major victory (rule 14.0)",
			"A win scores " + base + " When the victory point chits decide a game (rule 14.0)" + points},
		{"war-in-the-wind", "off", "A (U.S.) beat B: U.S. major victory (rule 14.0)", "A win scores " + base},
		{islandsys.Name, "", "A (U.S.) beat B: U.S. major victory (by the scenario's victory conditions)",
			"A win scores " + base + " When a scenario's victory conditions name a level of victory (decisive and strategic count as major, substantive and tactical as minor)" + points},
		{"other-words", "drawn", "A (U.S.) beat B: U.S. major victory (table 9)",
			"A win scores " + base + " When the casualty table grades a game" + points},
	} {
		tm := &Tournament{File: File{ID: "w", Name: "Words", System: c.system, Players: []Person{{Name: "A"}, {Name: "B"}},
			Rounds: []RoundFile{{Scenario: "campaign"}}}}
		if c.chits != "" {
			tm.File.Rules.Words = map[string]string{"vp-chits": c.chits}
		}
		tm.Rounds = []Round{{Number: 1, Games: []Game{{ID: "w-r1-1", US: "A", JP: "B",
			Result: &Result{Winner: adjudicator.US, Level: "U.S. major victory", Grade: adjudicator.GradeMajor}}}}}
		st := tm.standings(d.voice(tm), "", "")
		if len(st.Results) != 1 || st.Results[0].Result != c.result {
			t.Errorf("%q: the result reads %+v, want %q", c.system, st.Results, c.result)
		}
		if st.Scoring != c.scoring {
			t.Errorf("%q: the scoring reads\n%s\nwant\n%s", c.system, st.Scoring, c.scoring)
		}
		if c.system == islandsys.Name || c.system == "other-words" {
			if text := st.Text(); strings.Contains(text, "14.0") || strings.Contains(text, "chits") {
				t.Errorf("%q: the standings speak War in the Wind's words:\n%s", c.system, text)
			}
		}
	}
}
