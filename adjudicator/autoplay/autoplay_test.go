package autoplay_test

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/autoplay"
)

// dice rolls ten-sided dice from a seeded source.
type dice struct{ r *rand.Rand }

func (d dice) Roll(adjudicator.Die) int { return 1 + d.r.Intn(10) }

// newGame returns a game of seed, deployed at random and waiting for the
// U.S. decision of turn 1.
func newGame(seed int64) (*adjudicator.State, *rand.Rand) {
	r := rand.New(rand.NewSource(seed))
	s, _ := adjudicator.NewGame(nil, nil, dice{r})
	autoplay.Deploy(s, r.Intn)
	return s, r
}

// count tallies the activations of a file by kind.
func count(o adjudicator.Orders, tally map[string]int) {
	for _, a := range o.Actions {
		tally[a.Kind()]++
	}
}

// TestOrdersAreLegal plays games from random deployments with random
// orders: every file Orders returns passes CheckOrders and Resolve accepts
// it, whatever the game waits for.
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
			if phase == adjudicator.WaitEnded {
				break
			}
			o := autoplay.Orders(s, r.Intn)
			if o.Side != side || o.Wait != phase || o.Turn != s.Turn {
				t.Fatalf("seed %d: orders for %s %s turn %d answer %s %s turn %d", seed, side, phase, s.Turn, o.Side, o.Wait, o.Turn)
			}
			if ps := adjudicator.CheckOrders(s, o); len(ps) > 0 {
				t.Fatalf("seed %d, %s: CheckOrders refuses the file: %v", seed, s.WaitText(), ps)
			}
			ns, _, ps := adjudicator.Resolve(s, o, dice{r})
			if len(ps) > 0 {
				t.Fatalf("seed %d, %s: Resolve refuses the file: %v", seed, s.WaitText(), ps)
			}
			if o.Decision != nil && o.Decision.Night {
				night++
			}
			if o.Decision != nil && o.Decision.Refit {
				t.Fatalf("seed %d: a refit turn was asked for", seed)
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
			var ps []adjudicator.Problem
			if a, _, ps = adjudicator.Resolve(a, oa, dice{ra}); len(ps) > 0 {
				t.Fatal(ps)
			}
			if b, _, ps = adjudicator.Resolve(b, ob, dice{rb}); len(ps) > 0 {
				t.Fatal(ps)
			}
			if phase := a.Wait().Kind; phase == adjudicator.WaitEnded {
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
				if u.Side() == adjudicator.JP && !u.FaceDown {
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
// what the U.S. sees (DESIGN 4): moving the face-down Japanese units among
// the hexes that hold them, so that every hex shows as many counters as
// before, leaves its orders the same.
func TestUSOrdersIgnoreHidden(t *testing.T) {
	checked := 0
	for seed := range int64(40) {
		s, r := newGame(seed)
		for range 8 {
			w := s.Wait()
			side, phase := w.Side, w.Kind
			if phase == adjudicator.WaitEnded {
				break
			}
			if side == adjudicator.US && phase == adjudicator.WaitActions {
				other := s.Clone()
				var down []*adjudicator.Unit
				for _, u := range other.Units {
					if u.OnMap() && u.FaceDown {
						down = append(down, u)
					}
				}
				perm := r.Perm(len(down))
				hexes := make([]adjudicator.Hex, len(down))
				for i, u := range down {
					hexes[perm[i]] = u.Hex
				}
				for i, u := range down {
					u.Hex = hexes[i]
				}
				pickSeed := r.Int63()
				a := autoplay.Orders(s, rand.New(rand.NewSource(pickSeed)).Intn)
				b := autoplay.Orders(other, rand.New(rand.NewSource(pickSeed)).Intn)
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("seed %d, %s: the U.S. orders change with what the face-down counters are", seed, s.WaitText())
				}
				checked++
			}
			ns, _, ps := adjudicator.Resolve(s, autoplay.Orders(s, r.Intn), dice{r})
			if len(ps) > 0 {
				t.Fatal(ps)
			}
			s = ns
		}
	}
	if checked < 40 {
		t.Fatalf("only %d U.S. actions files compared", checked)
	}
}
