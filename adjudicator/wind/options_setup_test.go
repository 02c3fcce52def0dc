package wind_test

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
)

// setupGames are the new games of every scenario and setup: the campaign
// with each setup, with the victory point chits drawn or placed, and each
// short scenario.
var setupGames = []struct {
	scenario string
	opt      wind.Options
}{
	{wind.ScenarioCampaign, wind.Options{}},
	{wind.ScenarioCampaign, wind.Options{JPSetup: wind.SetupFree, USSetup: wind.SetupFree}},
	{wind.ScenarioCampaign, wind.Options{JPSetup: wind.SetupFree, VPChits: wind.VPDrawn}},
	{wind.ScenarioCampaign, wind.Options{USSetup: wind.SetupFree, VPChits: wind.VPPlaced}},
	{wind.ScenarioCampaign, wind.Options{JPSetup: wind.SetupFree, VPChits: wind.VPPlaced}},
	{wind.ScenarioUpTheHogsBack, wind.Options{}},
	{wind.ScenarioHoltzBayToJarminPass, wind.Options{}},
	{wind.ScenarioTheLinkup, wind.Options{}},
}

// entryProblems are the problems CheckOrders finds with entry i of the
// setup or landing list, leaving aside those of the orders as a whole.
func entryProblems(ps []wind.Problem, part string, i int) []wind.Problem {
	var out []wind.Problem
	for _, p := range ps {
		if p.Part == part && p.Step == i {
			out = append(out, p)
		}
	}
	return out
}

// TestSetupOptions checks the options of the setup waits (rule 12) of new
// games of every scenario and setup: the defaults listed are the default
// orders and are accepted; every hex listed for a group of Japanese units,
// put in place of one unit's hex in the default setup (trading hexes with
// the unit of its group standing there), is accepted for that unit; the
// hexes listed as covering a zone are two or three hexes from it; every
// zone listed for a U.S. unit is accepted for it; a delay is accepted when
// listed and refused when not; and the other side's outlook has no
// options.
func TestSetupOptions(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(3))
	waits := map[wind.WaitKind]int{}
	for k, c := range setupGames {
		for seed := range 3 {
			what := fmt.Sprintf("%s %+v seed %d", c.scenario, c.opt, seed)
			s, _, err := wind.NewGameFrom(c.scenario, c.opt, optionDice{rand.New(rand.NewSource(int64(10*k + seed)))})
			if err != nil {
				t.Fatal(err)
			}
			for s.Wait().Kind == wind.WaitJPSetup || s.Wait().Kind == wind.WaitUSLanding {
				w := s.Wait()
				waits[w.Kind]++
				if o := s.Outlook(w.Side.Enemy()); o.Setup != nil {
					t.Fatalf("%s: the side not awaited gets setup options", what)
				}
				opt := s.Outlook(w.Side).Setup
				if opt == nil {
					t.Fatalf("%s: no setup options at %s", what, w)
				}
				def := s.DefaultOrders()
				if ps := wind.CheckOrders(s, def); len(ps) > 0 {
					t.Fatalf("%s: the default orders are refused: %v", what, ps)
				}
				if w.Kind == wind.WaitJPSetup {
					checkJPSetupOptions(t, what, s, opt, def, r)
				} else {
					checkLandingOptions(t, what, s, opt, def, r)
				}
				ns, _, ps := wind.Resolve(s, autoplay.Orders(s, r.Intn), optionDice{r})
				if len(ps) > 0 {
					t.Fatalf("%s: %v", what, ps)
				}
				s = ns
			}
		}
	}
	if waits[wind.WaitJPSetup] < 10 || waits[wind.WaitUSLanding] < 20 {
		t.Fatalf("too few setup waits seen: %v", waits)
	}
}

func checkJPSetupOptions(t *testing.T, what string, s *wind.State, opt *wind.SetupOptions, def wind.Orders, r *rand.Rand) {
	t.Helper()
	if !slices.Equal(opt.JPSetup.Place, def.JPSetup.Place) || !slices.Equal(opt.JPSetup.VP, def.JPSetup.VP) {
		t.Fatalf("%s: the setup listed is not the default orders", what)
	}
	if len(opt.VPHexes) != len(def.JPSetup.VP) {
		t.Fatalf("%s: %d victory hexes listed for %d value chits placed", what, len(opt.VPHexes), len(def.JPSetup.VP))
	}
	listed := 0
	for _, g := range opt.Place {
		listed += len(g.Units)
	}
	if len(s.SetupUnits()) > 0 && opt.Setup == wind.SetupFree && listed != len(s.SetupUnits()) {
		t.Fatalf("%s: %d units listed, %d to set up", what, listed, len(s.SetupUnits()))
	}
	at := map[string]int{}
	for i, p := range def.JPSetup.Place {
		at[p.Unit] = i
	}
	for _, g := range opt.Place {
		if len(g.Hexes) == 0 {
			t.Fatalf("%s: no hex for %v", what, g.Units)
		}
		for _, id := range g.Units {
			h := g.Hexes[r.Intn(len(g.Hexes))]
			o := def
			js := *def.JPSetup
			js.Place = slices.Clone(js.Place)
			i := at[id]
			old := js.Place[i].Hex
			js.Place[i].Hex = h
			// Trade hexes with a unit of the group already there.
			for j, p := range js.Place {
				if j != i && p.Hex == h && slices.Contains(g.Units, p.Unit) {
					js.Place[j].Hex = old
					break
				}
			}
			o.JPSetup = &js
			if ps := entryProblems(wind.CheckOrders(s, o), wind.PartPlace, i); len(ps) > 0 {
				t.Fatalf("%s: %s in %s is listed but refused: %v", what, id, h, ps)
			}
		}
	}
	for _, c := range opt.Cover {
		if len(c.Hexes) < 2 {
			t.Fatalf("%s: zone %s can be covered from %d hexes", what, c.Zone, len(c.Hexes))
		}
		for _, h := range c.Hexes {
			if d := h.Distance(c.Hex); d < 2 || d > 3 {
				t.Fatalf("%s: %s is listed as covering zone %s, %d hexes away", what, h, c.Zone, d)
			}
		}
	}
}

func checkLandingOptions(t *testing.T, what string, s *wind.State, opt *wind.SetupOptions, def wind.Orders, r *rand.Rand) {
	t.Helper()
	if opt.Landing.Delay != def.Landing.Delay || !slices.Equal(opt.Landing.Land, def.Landing.Land) {
		t.Fatalf("%s: the landing listed is not the default orders", what)
	}
	delay := def
	delay.Landing = &wind.USLanding{Delay: true}
	if ps := wind.CheckOrders(s, delay); (len(ps) == 0) != opt.MayDelay {
		t.Fatalf("%s: a delay is listed %v, but CheckOrders says %v", what, opt.MayDelay, ps)
	}
	for _, lo := range opt.Land {
		if len(lo.Zones) == 0 {
			continue
		}
		z := lo.Zones[r.Intn(len(lo.Zones))]
		o := def
		l := wind.USLanding{Land: slices.Clone(def.Landing.Land)}
		i := slices.IndexFunc(l.Land, func(x wind.Landing) bool { return x.Unit == lo.Unit })
		if i < 0 {
			i = len(l.Land)
			l.Land = append(l.Land, wind.Landing{Unit: lo.Unit})
		}
		l.Land[i].Zone = z
		o.Landing = &l
		if ps := wind.CheckOrders(s, o); len(ps) > 0 {
			t.Fatalf("%s: %s to zone %s is listed but refused: %v", what, lo.Unit, z, ps)
		}
	}
}
