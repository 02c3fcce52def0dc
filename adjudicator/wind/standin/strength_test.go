package standin_test

import (
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
)

var strengthGames = flag.Int("games", 4, "games per pairing and scenario in TestStrength (200 for BENCHMARKS.md)")

// player gives one side's orders at a wait, and says how long the
// stand-in took when it was the stand-in.
type player struct {
	name  string
	play  func(s *wind.State, side wind.Side, r *rand.Rand) wind.Orders
	timed bool
}

var (
	random = player{name: "legal-random", play: func(s *wind.State, _ wind.Side, r *rand.Rand) wind.Orders {
		return autoplay.Orders(s, r.Intn)
	}}
	stand = player{name: "stand-in", timed: true, play: func(s *wind.State, side wind.Side, r *rand.Rand) wind.Orders {
		return standinOrders(s, side, r.Uint64())
	}}
)

// outcome is one game's winner, the stand-in's CPU time per decision
// and the U.S. steps lost to the landings themselves: to a zone's
// capacity (rule 9.2.1) or to a scatter into the Japanese (9.2.2).
type outcome struct {
	winner     wind.Side
	times      []time.Duration
	landLosses int
	err        error
}

// playGame plays scenario from its creation to its end with random dice.
func playGame(scenario string, us, jp player, solo bool, seed int64) outcome {
	r := rand.New(rand.NewSource(seed))
	d := randDice{r}
	s, _, err := wind.NewGameFrom(scenario, wind.Options{Solitaire: solo}, d)
	if err != nil {
		return outcome{err: err}
	}
	var out outcome
	for n := 0; !s.Over(); n++ {
		if n > 2000 {
			return outcome{err: fmt.Errorf("no end after %d steps", n)}
		}
		side := s.Wait().Side
		p := us
		if side == wind.JP {
			p = jp
		}
		start := threadCPU()
		o := p.play(s, side, r)
		if p.timed {
			out.times = append(out.times, threadCPU()-start)
		}
		ns, evs, ps := wind.Resolve(s, o, d)
		if len(ps) > 0 {
			return outcome{err: fmt.Errorf("%s's orders at %s refused: %v", p.name, s.WaitText(), ps)}
		}
		out.landLosses += landingLosses(evs)
		s = ns
	}
	out.winner = s.Winner
	return out
}

// landingLosses is the U.S. steps evs take from landing units.
func landingLosses(evs []wind.Event) int {
	n := 0
	for _, e := range evs {
		if e.Kind == wind.EventOverCapacity || e.Kind == wind.EventLandingLost {
			n += e.Steps
		}
	}
	return n
}

// TestStrength plays the stand-in against the legal-random player from
// each side, against itself and against the solitaire Japanese, in every
// scenario, with random dice, and
// logs the win rates and the CPU time per decision (BENCHMARKS.md, with
// -games 200). It fails when a game fails or a decision takes over a
// second; the win rates are measured, not asserted, at the plain run's
// few games.
func TestStrength(t *testing.T) {
	n := *strengthGames
	// The last pairing is the solitaire game of rule 13: its Japanese
	// played by rules 13.1 to 13.6 and, where they leave the choice, by
	// the stand-in, as the server plays them.
	pairings := []struct {
		us, jp player
		solo   bool
	}{{stand, random, false}, {random, stand, false}, {stand, stand, false}, {random, random, false}, {stand, stand, true}}
	var all []time.Duration
	var lines []string
	standLost, standGames := 0, 0
	for _, scn := range wind.ScenarioNames() {
		for _, pr := range pairings {
			res := make([]outcome, n)
			var wg sync.WaitGroup
			sem := make(chan struct{}, 2)
			for i := range n {
				wg.Add(1)
				sem <- struct{}{}
				go func() { // two games at a time: the machine has two cores
					defer wg.Done()
					lockThread() // so that threadCPU reads this game's work alone
					res[i] = playGame(scn, pr.us, pr.jp, pr.solo, int64(i+1)*7919)
					<-sem
				}()
			}
			wg.Wait()
			usWins, lost := 0, 0
			for i, o := range res {
				if o.err != nil {
					t.Fatalf("%s, %s vs %s (solitaire %v), game %d: %v", scn, pr.us.name, pr.jp.name, pr.solo, i, o.err)
				}
				if o.winner == wind.US {
					usWins++
				}
				all = append(all, o.times...)
				lost += o.landLosses
				if pr.us.name == stand.name {
					standLost += o.landLosses
					standGames++
				}
			}
			jp := pr.jp.name
			if pr.solo {
				jp = "solitaire (rule 13)"
			}
			lines = append(lines, fmt.Sprintf("| %s | %s | %s | %d | %.0f %% | %.0f %% | %.1f |", scn, pr.us.name, jp, n,
				100*float64(usWins)/float64(n), 100*float64(n-usWins)/float64(n), float64(lost)/float64(n)))
		}
	}
	slices.Sort(all)
	t.Logf("\n| scenario | U.S. | Japanese | games | U.S. wins | Japanese wins | U.S. steps lost landing a game |\n|---|---|---|---|---|---|---|\n%s", strings.Join(lines, "\n"))
	// The stand-in's own landings (rules 9.2.1, 9.2.2) should cost it few
	// steps: it counts what each zone holds and where a unit may scatter.
	if standGames > 0 {
		mean := float64(standLost) / float64(standGames)
		t.Logf("the U.S. stand-in lost %.2f steps a game to its own landings over %d games", mean, standGames)
		if mean >= 6 {
			t.Errorf("the U.S. stand-in lost %.2f steps a game to its own landings (%d games), 6 or more", mean, standGames)
		}
	}
	if len(all) > 0 {
		t.Logf("%d stand-in decisions: median %v, slowest %v of CPU", len(all), all[len(all)/2], all[len(all)-1])
		if all[len(all)-1] > time.Second {
			t.Errorf("a decision took %v, over a second", all[len(all)-1])
		}
	}
}
