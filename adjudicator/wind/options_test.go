package wind_test

import (
	"encoding/json"
	"math/rand"
	"slices"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
)

// optionDice rolls ten-sided dice from a seeded source.
type optionDice struct{ r *rand.Rand }

func (d optionDice) Roll(wind.Die) int { return 1 + d.r.Intn(10) }

// optionGames plays games with the random player and calls f at every wait
// for a side's actions, with a source of randomness for the test.
func optionGames(t *testing.T, games, steps int, f func(s *wind.State, side wind.Side, r *rand.Rand)) {
	t.Helper()
	for seed := range int64(games) {
		r := rand.New(rand.NewSource(seed))
		s, _ := wind.NewGame(nil, nil, optionDice{r})
		autoplay.Deploy(s, r.Intn)
		for range steps {
			w := s.Wait()
			if w.Over() {
				break
			}
			if w.Kind == wind.WaitActions {
				f(s, w.Side, r)
			}
			ns, _, ps := wind.Resolve(s, autoplay.Orders(s, r.Intn), optionDice{r})
			if len(ps) > 0 {
				t.Fatalf("seed %d: %v", seed, ps)
			}
			s = ns
		}
	}
}

// accepted reports whether a file holding the one activation a is accepted.
func accepted(s *wind.State, side wind.Side, a wind.Action) []wind.Problem {
	o := s.DefaultOrders()
	o.Side = side
	o.Actions = []wind.Action{a}
	return wind.CheckOrders(s, o)
}

// TestOptionsAreLegalAndComplete checks the options of every unit against
// the rules: each listed move, melee and fire is accepted as an activation
// of its own (for moves and fire a random sample), every hex Reachable
// offers is listed, and every adjacent hex not listed for melee is refused.
func TestOptionsAreLegalAndComplete(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 4
	}
	tally := map[string]int{}
	optionGames(t, games, 7, func(s *wind.State, side wind.Side, r *rand.Rand) {
		o := s.Outlook(side)
		if len(o.Options) == 0 {
			t.Fatalf("%s: no options for the side awaited", s.WaitText())
		}
		for _, uo := range o.Options {
			u, _ := s.Unit(uo.Unit)
			if u.Side() != side || u.Hex != uo.Hex {
				t.Fatalf("%s: option for %s in %s, which is not the side's unit there", s.WaitText(), uo.Unit, uo.Hex)
			}
			if reach := s.Reachable(u); !u.Acted && len(reach) > 1 && len(uo.Moves) != len(reach)-1 {
				t.Fatalf("%s: %s reaches %d hexes, options list %d moves", s.WaitText(), u.ID, len(reach)-1, len(uo.Moves))
			}
			for i, mv := range uo.Moves {
				if mv.Path[len(mv.Path)-1] != mv.To {
					t.Fatalf("%s: %s: path %v does not end in %s", s.WaitText(), u.ID, mv.Path, mv.To)
				}
				if i != 0 && r.Intn(4) != 0 {
					continue
				}
				if ps := accepted(s, side, wind.Action{Move: &wind.Move{Unit: u.ID, Path: mv.Path}}); len(ps) > 0 {
					t.Fatalf("%s: listed move of %s along %v refused: %v", s.WaitText(), u.ID, mv.Path, ps)
				}
				tally["move"]++
			}
			for _, n := range s.Map().Neighbours(u.Hex) {
				ps := accepted(s, side, wind.Action{Melee: &wind.Melee{Units: []string{u.ID}, Target: n}})
				if listed := slices.Contains(uo.Melee, n); listed != (len(ps) == 0) {
					t.Fatalf("%s: melee of %s against %s: listed %v, refused %v", s.WaitText(), u.ID, n, listed, ps)
				}
				if len(ps) == 0 {
					tally["melee"]++
				}
			}
			for _, fo := range uo.Fire {
				f := wind.Fire{Units: []string{u.ID}, Target: fo.Target}
				if len(fo.TargetUnits) > 0 {
					f.TargetUnit = fo.TargetUnits[r.Intn(len(fo.TargetUnits))]
				}
				if len(fo.Spotters) > 0 {
					f.Spotter = fo.Spotters[r.Intn(len(fo.Spotters))]
					tally["spotted"]++
				}
				if ps := accepted(s, side, wind.Action{Fire: &f}); len(ps) > 0 {
					t.Fatalf("%s: listed fire %+v refused: %v", s.WaitText(), f, ps)
				}
				tally["fire"]++
			}
		}
	})
	t.Logf("options checked: %v", tally)
	if tally["move"] < 100 || tally["melee"] == 0 || tally["fire"] == 0 || tally["spotted"] == 0 {
		t.Errorf("too few options of some kind: %v", tally)
	}
}

// TestUSOutlookIgnoresHidden checks the fog reasoning of Outlook: moving the
// face-down Japanese units among the hexes that hold them, so that every
// hex shows as many counters as before, leaves the U.S. outlook the same.
func TestUSOutlookIgnoresHidden(t *testing.T) {
	checked := 0
	optionGames(t, 10, 8, func(s *wind.State, side wind.Side, r *rand.Rand) {
		if side != wind.US {
			return
		}
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
		a, _ := json.Marshal(s.Outlook(wind.US))
		b, _ := json.Marshal(other.Outlook(wind.US))
		if string(a) != string(b) {
			t.Fatalf("%s: the U.S. outlook changes with what the face-down counters are", s.WaitText())
		}
		checked++
	})
	if checked < 20 {
		t.Fatalf("only %d U.S. outlooks compared", checked)
	}
}

// TestRefitOptions checks the refit options of generated games: every
// item listed is accepted on its own, and none of the units the rules
// allow is left out of the hiding and restoring lists.
func TestRefitOptions(t *testing.T) {
	checked := map[wind.WaitKind]int{}
	for seed := range int64(30) {
		r := rand.New(rand.NewSource(seed))
		s, _ := wind.NewGame(nil, nil, optionDice{r})
		autoplay.Deploy(s, r.Intn)
		for range 16 {
			w := s.Wait()
			if w.Over() {
				break
			}
			if w.Kind == wind.WaitUSRefit || w.Kind == wind.WaitJPRefit {
				checkRefitOptions(t, s, w)
				checked[w.Kind]++
			}
			ns, _, ps := wind.Resolve(s, autoplay.Orders(s, r.Intn), optionDice{r})
			if len(ps) > 0 {
				t.Fatalf("seed %d: %v", seed, ps)
			}
			s = ns
		}
	}
	if checked[wind.WaitUSRefit] == 0 || checked[wind.WaitJPRefit] == 0 {
		t.Fatalf("refit waits met: %v", checked)
	}
}

func checkRefitOptions(t *testing.T, s *wind.State, w wind.Wait) {
	t.Helper()
	o := s.Outlook(w.Side).Refit
	if o == nil {
		t.Fatalf("%s: no refit options for the side awaited", s.WaitText())
	}
	try := func(what string, ref *wind.Refit, re *wind.Rearrange) {
		t.Helper()
		ord := wind.Orders{Side: w.Side, Turn: w.Turn, Wait: w.Kind, Refit: ref, Rearrange: re}
		if ps := wind.CheckOrders(s, ord); len(ps) > 0 {
			t.Fatalf("%s: listed %s refused: %v", s.WaitText(), what, ps)
		}
	}
	for _, x := range o.Restore {
		try("restore "+x.Unit, &wind.Refit{Restore: []wind.Restore{{Unit: x.Unit}}}, nil)
	}
	for _, x := range o.Land {
		for _, z := range x.Zones {
			try("landing of "+x.Unit+" in "+z, &wind.Refit{Land: []wind.Landing{{Unit: x.Unit, Zone: z}}}, nil)
		}
	}
	for _, id := range o.Independents {
		try("independent from "+id, &wind.Refit{Independents: []string{id}}, nil)
	}
	for _, id := range o.Depots {
		try("depot of "+id, &wind.Refit{Depots: []string{id}}, nil)
	}
	for _, id := range o.Hide {
		try("hiding of "+id, nil, &wind.Rearrange{Hide: []string{id}})
	}
	for _, x := range o.Moves {
		try("move of "+x.Unit, nil, &wind.Rearrange{Moves: []wind.UnknownMove{{Unit: x.Unit, To: x.Nearest}}})
	}
	for _, x := range o.Swaps {
		try("swap at "+x.Hex.String(), nil, &wind.Rearrange{Swaps: []wind.Swap{{Hex: x.Hex, Place: []wind.UnknownMove{x.Place}}}})
	}
	if w.Kind == wind.WaitJPRefit {
		for _, u := range s.Units {
			if u.Side() == wind.JP && u.OnMap() && !u.FaceDown && s.HideBan(u) == "" && !slices.Contains(o.Hide, u.ID) {
				t.Fatalf("%s: %s may hide but is not listed", s.WaitText(), u.ID)
			}
		}
	}
	if w.Kind == wind.WaitUSRefit && len(o.Restore) == 0 && len(s.DefaultRefit().Restore) > 0 {
		t.Fatalf("%s: the default refit restores %v, the options list none", s.WaitText(), s.DefaultRefit().Restore)
	}
}
