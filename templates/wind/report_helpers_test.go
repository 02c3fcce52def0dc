package wind

import (
	"github.com/attu-pbem/attu/templates"
	gf "github.com/attu-pbem/attu/templates/internal/golden"
	"math/rand"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
)

// testDice rolls ten-sided dice from a seeded source.
type testDice struct{ r *rand.Rand }

func (d testDice) Roll(adjudicator.Die) int { return 1 + d.r.Intn(10) }

// step is one resolved step of a generated game: the position after it
// and everything it told.
type step struct {
	seed   int64
	n      int // 0 for the opening
	s      *wind.State
	events []wind.Event
}

// playGames plays generated games (random deployment, random legal
// orders) and calls f with the opening and after every step, until f
// returns false or the game ends or has run steps steps.
func playGames(t testing.TB, seeds []int64, steps int, f func(st step) bool) {
	t.Helper()
	playGamesFrom(t, seeds, steps, func(_ int64, r *rand.Rand) (*wind.State, []wind.Event) {
		s, evs := wind.NewGame(nil, nil, testDice{r})
		autoplay.Deploy(s, r.Intn)
		return s, evs
	}, f)
}

// setupGames are the games created as players create them (rule 12),
// waiting for their setup orders: the campaign with each setup and with
// the victory point chits drawn or placed, and each short scenario.
var setupGames = []struct {
	scenario string
	opt      wind.Options
}{
	{wind.ScenarioCampaign, wind.Options{}},
	{wind.ScenarioCampaign, wind.Options{JPSetup: wind.SetupFree, USSetup: wind.SetupFree}},
	{wind.ScenarioCampaign, wind.Options{JPSetup: wind.SetupFree, VPChits: wind.VPPlaced}},
	{wind.ScenarioCampaign, wind.Options{USSetup: wind.SetupFree, VPChits: wind.VPPlaced}},
	{wind.ScenarioCampaign, wind.Options{VPChits: wind.VPDrawn}},
	{wind.ScenarioUpTheHogsBack, wind.Options{}},
	{wind.ScenarioHoltzBayToJarminPass, wind.Options{}},
	{wind.ScenarioTheLinkup, wind.Options{}},
}

// playSetupGames is playGames for games created by NewGameFrom, seed
// choosing the scenario and options of setupGames in turn: their opening
// waits for the setup orders of rule 12.
func playSetupGames(t testing.TB, seeds []int64, steps int, f func(st step) bool) {
	t.Helper()
	playGamesFrom(t, seeds, steps, func(seed int64, r *rand.Rand) (*wind.State, []wind.Event) {
		c := setupGames[int(seed)%len(setupGames)]
		s, evs, err := wind.NewGameFrom(c.scenario, c.opt, testDice{r})
		if err != nil {
			t.Fatal(err)
		}
		return s, evs
	}, f)
}

// playGamesFrom is playGames for games that start makes.
func playGamesFrom(t testing.TB, seeds []int64, steps int, start func(int64, *rand.Rand) (*wind.State, []wind.Event), f func(st step) bool) {
	t.Helper()
	for _, seed := range seeds {
		r := rand.New(rand.NewSource(seed))
		s, evs := start(seed, r)
		if !f(step{seed: seed, s: s, events: evs}) {
			continue
		}
		for n := 1; n <= steps; n++ {
			if s.Wait().Over() {
				break
			}
			ns, evs, ps := wind.Resolve(s, autoplay.Orders(s, r.Intn), testDice{r})
			if len(ps) > 0 {
				t.Fatalf("seed %d step %d: %v", seed, n, ps)
			}
			s = ns
			if !f(step{seed: seed, n: n, s: s, events: evs}) {
				break
			}
		}
	}
}

func seedsFrom(first, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(first + i)
	}
	return out
}

// findStep returns the first step of the generated games of seeds 1, 2,
// ... that pred accepts.
func findStep(t testing.TB, steps int, pred func(st step) bool) step {
	t.Helper()
	var found *step
	for seed := int64(1); seed <= 200 && found == nil; seed++ {
		playGames(t, []int64{seed}, steps, func(st step) bool {
			if pred(st) {
				found = &st
				return false
			}
			return true
		})
	}
	if found == nil {
		t.Fatal("no generated game reaches the position wanted")
	}
	return *found
}

// testGame is the record every test report carries.
func testGame(t testing.TB) Game {
	zone, err := time.LoadLocation("America/Anchorage")
	if err != nil {
		t.Fatal(err)
	}
	return Game{
		ID: "g1", Name: "Friday club",
		Deadline:   time.Date(2026, 5, 4, 18, 0, 0, 0, time.UTC),
		Zone:       zone,
		Head:       "9f2c4e0b7a51d3e86c0f9b2a4d7e1c3058b6a9f0e2d4c7b1a3f5e8d0c2b4a6f8",
		Commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
	}
}

// reportOf is side's report of a step: its view, outlook and the events
// it may read.
func reportOf(t testing.TB, st step, side adjudicator.Side) *Report {
	return &Report{
		Game:      testGame(t),
		Map:       st.s.Map(),
		View:      st.s.View(side),
		Outlook:   st.s.Outlook(side),
		Events:    wind.VisibleEvents(st.events, side),
		Solitaire: st.s.IsSolitaire(),
	}
}

// checkColumns fails when a line of text is wider than MaxWidth
// characters or ends in blanks.
func checkColumns(t testing.TB, what, text string) {
	t.Helper()
	gf.Columns(t, what, text, templates.MaxWidth)
}

func awaitedSide(s *wind.State) adjudicator.Side { return s.Wait().Side }

func waitKind(s *wind.State) adjudicator.WaitKind { return s.Wait().Kind }

func hasKind(evs []wind.Event, side adjudicator.Side, kind wind.EventKind) bool {
	for _, e := range wind.VisibleEvents(evs, side) {
		if e.Kind == kind {
			return true
		}
	}
	return false
}
