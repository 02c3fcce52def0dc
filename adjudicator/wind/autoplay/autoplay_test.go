package autoplay_test

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
)

// dice rolls ten-sided dice from a seeded source.
type dice struct{ r *rand.Rand }

func (d dice) Roll(wind.Die) int { return 1 + d.r.Intn(10) }

// newGame returns a game of seed, deployed at random and waiting for the
// U.S. decision of turn 1.
func newGame(seed int64) (*wind.State, *rand.Rand) {
	r := rand.New(rand.NewSource(seed))
	s, _ := wind.NewGame(nil, nil, dice{r})
	autoplay.Deploy(s, r.Intn)
	return s, r
}

// count tallies the activations of a file by kind.
func count(o wind.Orders, tally map[string]int) {
	for _, a := range o.Actions {
		tally[a.Kind()]++
	}
}

// TestOrdersAreLegal plays games from random deployments with random
// orders: every file Orders returns passes CheckOrders and Resolve accepts
// it, whatever the game waits for, refit turns included.
func TestOrdersAreLegal(t *testing.T) {
	games, turns := 40, 6
	if testing.Short() {
		games = 10
	}
	tally := map[string]int{}
	files, night := 0, 0
	for seed := range int64(games) {
		s, r := newGame(seed)
		for s.Turn <= turns {
			w := s.Wait()
			side, phase := w.Side, w.Kind
			if phase == wind.WaitEnded {
				break
			}
			o := autoplay.Orders(s, r.Intn)
			if o.Side != side || o.Wait != phase || o.Turn != s.Turn {
				t.Fatalf("seed %d: orders for %s %s turn %d answer %s %s turn %d", seed, side, phase, s.Turn, o.Side, o.Wait, o.Turn)
			}
			if ps := wind.CheckOrders(s, o); len(ps) > 0 {
				t.Fatalf("seed %d, %s: CheckOrders refuses the file: %v", seed, s.WaitText(), ps)
			}
			ns, _, ps := wind.Resolve(s, o, dice{r})
			if len(ps) > 0 {
				t.Fatalf("seed %d, %s: Resolve refuses the file: %v", seed, s.WaitText(), ps)
			}
			if o.Decision != nil && o.Decision.Night {
				night++
			}
			switch {
			case o.Decision != nil && o.Decision.Refit && o.Refit != nil:
				tally["refit decision with its orders"]++
			case o.Decision != nil && o.Decision.Refit:
				tally["refit decision"]++
			case o.Refit != nil:
				tally["us-refit"]++
				tally["restore"] += len(o.Refit.Restore)
				tally["land"] += len(o.Refit.Land)
				tally["independent"] += len(o.Refit.Independents)
				tally["depot"] += len(o.Refit.Depots)
			case o.Rearrange != nil:
				tally["jp-refit"]++
				tally["hide"] += len(o.Rearrange.Hide)
				tally["unknown move"] += len(o.Rearrange.Moves)
				tally["swap"] += len(o.Rearrange.Swaps)
			}
			count(o, tally)
			files++
			s = ns
		}
	}
	t.Logf("%d files: %v, %d night turns", files, tally, night)
	if tally["move"] < 10*games || tally["melee"] < games || tally["fire"] < games || tally["air"] == 0 || night == 0 {
		t.Errorf("too tame: %v, %d night turns in %d files", tally, night, files)
	}
	for _, what := range []string{"refit decision", "refit decision with its orders", "us-refit", "jp-refit", "restore", "land", "unknown move", "swap", "independent", "depot"} {
		if tally[what] == 0 {
			t.Errorf("no %s in %d files: %v", what, files, tally)
		}
	}
}

// TestOrdersAreDeterministic checks that the same answers of pick give the
// same orders.
func TestOrdersAreDeterministic(t *testing.T) {
	for seed := range int64(10) {
		a, ra := newGame(seed)
		b, rb := newGame(seed)
		for range 6 {
			oa, ob := autoplay.Orders(a, ra.Intn), autoplay.Orders(b, rb.Intn)
			if !reflect.DeepEqual(oa, ob) {
				t.Fatalf("seed %d: two runs give different orders", seed)
			}
			var ps []wind.Problem
			if a, _, ps = wind.Resolve(a, oa, dice{ra}); len(ps) > 0 {
				t.Fatal(ps)
			}
			if b, _, ps = wind.Resolve(b, ob, dice{rb}); len(ps) > 0 {
				t.Fatal(ps)
			}
			if phase := a.Wait().Kind; phase == wind.WaitEnded {
				break
			}
		}
	}
}

// TestDeployIsLegal checks the stand-in setup: no hex over-stacked or
// shared, Japanese units face down, infantry all accounted for.
func TestDeployIsLegal(t *testing.T) {
	for seed := range int64(50) {
		s, _ := newGame(seed)
		hexes, by := s.Occupants()
		if len(hexes) < 20 {
			t.Fatalf("seed %d: only %d hexes occupied", seed, len(hexes))
		}
		for _, h := range hexes {
			side := by[h][0].Side()
			for _, u := range by[h] {
				if u.Side() != side {
					t.Fatalf("seed %d: %s holds both sides", seed, h)
				}
				if u.Side() == wind.JP && !u.FaceDown {
					t.Fatalf("seed %d: %s is face up", seed, u.ID)
				}
			}
			if why := s.StackingProblem(h, side); why != "" {
				t.Fatalf("seed %d: %s", seed, why)
			}
		}
		if onMap, pool, elim := s.PoolCounts(); onMap+pool+elim != 64 {
			t.Fatalf("seed %d: Japanese infantry %d+%d+%d", seed, onMap, pool, elim)
		}
		for _, u := range s.Units {
			if u.OnMap() == (u.Box != "") {
				t.Fatalf("seed %d: %s in hex %s and box %q", seed, u.ID, u.Hex, u.Box)
			}
		}
	}
}

// TestUSOrdersIgnoreHidden checks that the U.S. player decides only from
// what the U.S. sees: moving the face-down Japanese units among
// the hexes that hold them, so that every hex shows as many counters as
// before, leaves its orders the same, at every wait of the U.S.: the
// decision, the actions and the refit orders. A shuffle that leaves only
// Unknown units in a zone whose victory hex the U.S. holds makes a
// position the rules never leave standing (rule 10.0 clears the zone at
// once, in view of both players); such a shuffle is not compared, nor one
// after which the actions clear a zone on their way: the player plans each
// activation on the position the earlier ones leave, as the rules judge
// the file, and there a zone cleared of its Unknown units is public.
func TestUSOrdersIgnoreHidden(t *testing.T) {
	checked := map[wind.WaitKind]int{}
	for seed := range int64(40) {
		s, r := newGame(seed)
		for range 8 {
			w := s.Wait()
			side, phase := w.Side, w.Kind
			if phase == wind.WaitEnded {
				break
			}
			if side == wind.US {
				other := s.Clone()
				var down []*wind.Unit
				for _, u := range other.Units {
					if u.OnMap() && u.FaceDown {
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
				pickSeed := r.Int63()
				if _, evs := wind.UpdateCleared(other); len(evs) == 0 {
					a := autoplay.Orders(s, rand.New(rand.NewSource(pickSeed)).Intn)
					b := autoplay.Orders(other, rand.New(rand.NewSource(pickSeed)).Intn)
					if !clears(s, a) && !clears(other, b) {
						if !reflect.DeepEqual(a, b) {
							t.Fatalf("seed %d, %s: the U.S. orders change with what the face-down counters are", seed, s.WaitText())
						}
						checked[phase]++
					}
				}
			}
			ns, _, ps := wind.Resolve(s, autoplay.Orders(s, r.Intn), dice{r})
			if len(ps) > 0 {
				t.Fatal(ps)
			}
			s = ns
		}
	}
	if checked[wind.WaitActions] < 40 || checked[wind.WaitUSDecision] < 40 || checked[wind.WaitUSRefit] < 5 {
		t.Fatalf("too few U.S. orders compared: %v", checked)
	}
}

// clears reports whether actions orders o, played on s as the rules judge
// them (no dice), clear a victory zone on their way (rule 10.0).
func clears(s *wind.State, o wind.Orders) bool {
	if o.Wait != wind.WaitActions {
		return false
	}
	_, evs, _ := wind.ResolveActions(s, o, nil)
	for _, e := range evs {
		if e.Kind == wind.EventZoneCleared {
			return true
		}
	}
	return false
}

// TestJPOrdersIgnoreUSBoxes checks that the Japanese player decides only
// from what the Japanese see: of the U.S. units off the map they
// see only how many units and steps each box holds, so exchanging the boxes
// of U.S. units with as many steps leaves their orders the same, at the
// actions and at the Japanese refit.
func TestJPOrdersIgnoreUSBoxes(t *testing.T) {
	checked := map[wind.WaitKind]int{}
	games := 40
	if testing.Short() {
		games = 15
	}
	for seed := range int64(games) {
		s, r := newGame(seed)
		for range 10 {
			w := s.Wait()
			if w.Over() {
				break
			}
			if w.Side == wind.JP {
				other := s.Clone()
				bySteps := map[int][]*wind.Unit{}
				for _, u := range other.Units {
					if u.Counter().Side() == wind.US && !u.OnMap() && u.Box != wind.BoxUnused {
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
					t.Fatalf("seed %d, %s: the Japanese orders change with which U.S. units are off the map", seed, s.WaitText())
				}
				checked[w.Kind]++
			}
			ns, _, ps := wind.Resolve(s, autoplay.Orders(s, r.Intn), dice{r})
			if len(ps) > 0 {
				t.Fatal(ps)
			}
			s = ns
		}
	}
	if checked[wind.WaitActions] < games || checked[wind.WaitJPRefit] < 3 {
		t.Fatalf("too few Japanese orders compared: %v", checked)
	}
}
