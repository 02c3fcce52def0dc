package autoplay_test

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
)

// created are games as NewGameFrom creates them: every scenario, each
// setup, the victory point chits.
var created = []struct {
	scenario string
	opt      wind.Options
}{
	{wind.ScenarioCampaign, wind.Options{}},
	{wind.ScenarioCampaign, wind.Options{JPSetup: wind.SetupFree, USSetup: wind.SetupFree, VPChits: wind.VPPlaced}},
	{wind.ScenarioCampaign, wind.Options{JPSetup: wind.SetupFree, VPChits: wind.VPDrawn}},
	{wind.ScenarioUpTheHogsBack, wind.Options{}},
	{wind.ScenarioHoltzBayToJarminPass, wind.Options{}},
	{wind.ScenarioTheLinkup, wind.Options{}},
}

// TestSetupOrdersAreLegal plays the setup of many new games: every file
// Orders returns at the setup waits passes CheckOrders and Resolve accepts
// it, and the game reaches the U.S. decision (or ends, a landing delayed
// past a scenario's last day).
func TestSetupOrdersAreLegal(t *testing.T) {
	tally := map[string]int{}
	for seed := range int64(60) {
		c := created[int(seed)%len(created)]
		r := rand.New(rand.NewSource(seed))
		s, _, err := wind.NewGameFrom(c.scenario, c.opt, dice{r})
		if err != nil {
			t.Fatal(err)
		}
		for k := s.Wait().Kind; k == wind.WaitJPSetup || k == wind.WaitUSLanding; k = s.Wait().Kind {
			o := autoplay.Orders(s, r.Intn)
			if ps := wind.CheckOrders(s, o); len(ps) > 0 {
				t.Fatalf("seed %d (%s %+v), %s: CheckOrders refuses the file: %v", seed, c.scenario, c.opt, s.WaitText(), ps)
			}
			ns, _, ps := wind.Resolve(s, o, dice{r})
			if len(ps) > 0 {
				t.Fatalf("seed %d, %s: Resolve refuses the file: %v", seed, s.WaitText(), ps)
			}
			switch {
			case o.JPSetup != nil:
				tally["jp-setup"]++
				tally["placed"] += len(o.JPSetup.Place)
				tally["vp placed"] += len(o.JPSetup.VP)
			case o.Landing.Delay:
				tally["delay"]++
			default:
				tally["us-landing"]++
				tally["sent to land"] += len(o.Landing.Land)
			}
			s = ns
		}
		if w := s.Wait(); w.Kind != wind.WaitUSDecision && !w.Over() {
			t.Fatalf("seed %d: after the setup the game waits for %s", seed, w)
		}
	}
	t.Logf("%v", tally)
	for _, what := range []string{"jp-setup", "placed", "vp placed", "delay", "us-landing", "sent to land"} {
		if tally[what] == 0 {
			t.Errorf("no %s: %v", what, tally)
		}
	}
}

// TestUSLandingIgnoresHidden checks that the U.S. decides its landing only
// from what it sees: which Japanese counter stands in which
// occupied hex, which Unknown units a scenario gave, the victory point
// chits and the Komandorski chits are hidden from it, and changing them
// leaves its landing orders the same.
func TestUSLandingIgnoresHidden(t *testing.T) {
	checked := 0
	for seed := range int64(60) {
		c := created[int(seed)%len(created)]
		r := rand.New(rand.NewSource(seed))
		s, _, err := wind.NewGameFrom(c.scenario, c.opt, dice{r})
		if err != nil {
			t.Fatal(err)
		}
		for !s.Over() && s.Wait().Kind != wind.WaitUSDecision {
			if s.Wait().Kind == wind.WaitUSLanding {
				other := s.Clone()
				var down []*wind.Unit
				for _, u := range other.Units {
					if u.OnMap() && u.Side() == wind.JP {
						down = append(down, u)
					}
				}
				perm := r.Perm(len(down))
				hexes := make([]wind.Hex, len(down))
				for i, u := range down {
					hexes[perm[i]] = u.Hex
				}
				for i, u := range down {
					u.Hex = hexes[i]
				}
				for _, u := range other.Units {
					// Another draw of the scenario's Unknown units.
					if u.Kind() == wind.Unknown && !u.OnMap() && r.Intn(2) == 0 {
						u.Box = wind.BoxUnused
					}
				}
				if other.VP != nil {
					for i := range other.VP.Hexes {
						other.VP.Hexes[i].Cancelled = !other.VP.Hexes[i].Cancelled
					}
				}
				other.Komandorski.Effect, other.Komandorski.Delay = 30, 4
				pickSeed := r.Int63()
				a := autoplay.Orders(s, rand.New(rand.NewSource(pickSeed)).Intn)
				b := autoplay.Orders(other, rand.New(rand.NewSource(pickSeed)).Intn)
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("seed %d, %s: the U.S. landing changes with what is hidden from the U.S.", seed, s.WaitText())
				}
				checked++
			}
			ns, _, ps := wind.Resolve(s, autoplay.Orders(s, r.Intn), dice{r})
			if len(ps) > 0 {
				t.Fatal(ps)
			}
			s = ns
		}
	}
	if checked < 60 {
		t.Fatalf("only %d landings compared", checked)
	}
}

// TestJPSetupIgnoresUS checks that the Japanese set up only from what they
// see: of the U.S. units off the map they see how many wait to land and
// with how many steps, not which, so exchanging the boxes of U.S. units
// with as many steps leaves the Japanese setup the same.
func TestJPSetupIgnoresUS(t *testing.T) {
	for seed := range int64(30) {
		c := created[int(seed)%len(created)]
		r := rand.New(rand.NewSource(seed))
		s, _, err := wind.NewGameFrom(c.scenario, c.opt, dice{r})
		if err != nil {
			t.Fatal(err)
		}
		if s.Wait().Kind != wind.WaitJPSetup {
			continue
		}
		other := s.Clone()
		bySteps := map[int][]*wind.Unit{}
		for _, u := range other.Units {
			if u.Counter().Side() == wind.US && !u.OnMap() {
				bySteps[u.Steps] = append(bySteps[u.Steps], u)
			}
		}
		for steps := 1; steps <= 4; steps++ {
			us := bySteps[steps]
			perm := r.Perm(len(us))
			boxes := make([]string, len(us))
			for i, u := range us {
				boxes[perm[i]] = u.Box
			}
			for i, u := range us {
				u.Box = boxes[i]
			}
		}
		pickSeed := r.Int63()
		a := autoplay.Orders(s, rand.New(rand.NewSource(pickSeed)).Intn)
		b := autoplay.Orders(other, rand.New(rand.NewSource(pickSeed)).Intn)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: the Japanese setup changes with the U.S. units off the map", seed)
		}
	}
}
