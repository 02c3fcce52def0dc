package wind

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
)

// combatDice rolls from a seeded generator, for property tests.
type combatDice struct{ r *rand.Rand }

func (d combatDice) Roll(Die) int { return 1 + d.r.Intn(10) }

func fireAt(target Hex, units ...string) Action {
	return Action{Fire: &Fire{Units: units, Target: target}}
}

// Judging a fire without dice marks the firers and changes nothing else.
func TestFireJudgedWithoutDice(t *testing.T) {
	s := hitState(t, map[string]Hex{"J01": 2618, "J02": 2618, "2/32-E": 2619, "U01": 2717}, "U01")
	before, _ := json.Marshal(s)
	sim := s.Clone()
	evs, ps := sim.fire(&Fire{Units: []string{"2/32-E"}, Target: 2618}, US, nil)
	if len(evs) != 0 || len(ps) != 0 {
		t.Fatalf("events %v problems %v", evs, ps)
	}
	if !sim.mustUnit(t, "2/32-E").Acted {
		t.Error("the firing unit is not marked as having acted")
	}
	sim.mustUnit(t, "2/32-E").Acted = false
	after, _ := json.Marshal(sim)
	if string(before) != string(after) {
		t.Error("judging a fire changed the position")
	}
	// An Unknown unit judged to fire is not revealed without dice.
	if _, ps := sim.fire(&Fire{Units: []string{"U01"}, Target: 2619}, JP, nil); len(ps) != 0 {
		t.Fatal(ps)
	}
	if u := sim.mustUnit(t, "U01"); u.Hex != 2717 || !u.Acted {
		t.Errorf("U01: %s acted %v", u.Hex, u.Acted)
	}
}

func TestFireOncePerTurn(t *testing.T) {
	s := hitState(t, map[string]Hex{"J01": 2618, "J02": 2618, "2/32-E": 2619})
	p := refused(t, s, actions(US, fireAt(2618, "2/32-E"), fireAt(2618, "2/32-E")))
	wantProblem(t, p, 1, -1, "2/32-E has already acted this turn")
}

// A fire whose target an earlier activation emptied is skipped, not refused:
// activations are judged together and carried out in order.
func TestFireSkippedWhenTargetGone(t *testing.T) {
	// J01 far away keeps the game going once 20MM1 falls (rule 3.8.2).
	s := hitState(t, map[string]Hex{"20MM1": 2618, "2/32-E": 2619, "2/32-F": 2619, "J01": 1216})
	out, evs, ps := ResolveActions(s, actions(US, fireAt(2618, "2/32-E"), fireAt(2618, "2/32-F")), &ForcedDice{Values: []int{10, 3}})
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	wantUnit(t, out, "20MM1", 0, BoxEliminated, 1)
	if txt := eventsText(evs, US); !strings.Contains(txt, "activation 2 is skipped: 2618 holds no enemy units") {
		t.Errorf("events:\n%s", txt)
	}
}

// A named target unit binds the hits only in rule 8.0's mixed hex; elsewhere
// the owner shares them out.
func TestFireTargetUnitOnlyInMixedHex(t *testing.T) {
	s := hitState(t, map[string]Hex{"J01": 2618, "20MM1": 2618, "2/32-E": 2619})
	f := &Fire{Units: []string{"2/32-E"}, Target: 2618, TargetUnit: "20MM1"}
	evs, ps := s.fire(f, US, &ForcedDice{Values: []int{7, 1}})
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	// The one hit: J01 is the last infantry, so 20MM1 takes it anyway; the
	// note says the name did not decide.
	wantUnit(t, s, "20MM1", 0, BoxEliminated, 1)
	if txt := eventsText(evs, Umpire); !strings.Contains(txt, "20MM1 was named as the target, but the owner shares out hits") {
		t.Errorf("events:\n%s", txt)
	}
}

// Soft ground comes after the hits: a battery that sinks still scores.
func TestSoftGroundAfterHits(t *testing.T) {
	s := hitState(t, map[string]Hex{"J01": 2717, "J02": 2717, "105-1": 3022, "2/32-E": 2619})
	evs, ps := s.fire(&Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "2/32-E"}, US, &ForcedDice{Values: []int{1, 2, 10, 3, 3}})
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	wantUnit(t, s, "J01", 0, BoxEliminated, 1)
	wantUnit(t, s, "105-1", 0, BoxEliminated, 1)
	txt := eventsText(evs, Umpire)
	if strings.Index(txt, "J01 in 2717 is hit") > strings.Index(txt, "soft ground") {
		t.Errorf("soft ground before the hits:\n%s", txt)
	}
	if s.Casualties != 0 {
		t.Errorf("casualties %d: artillery losses are not counted (8.4)", s.Casualties)
	}
}

func TestAirProblems(t *testing.T) {
	s := hitState(t, map[string]Hex{"J01": 2717, "1/17-A": 2718})
	s.AirUS = 2
	air := func(at ...AirAttack) Action { return Action{Air: &AirStrikes{Attacks: at}} }
	p := refused(t, s, actions(US, air(AirAttack{Hex: 2718, Factors: 1}, AirAttack{Hex: 2717, Factors: 0})))
	wantProblem(t, p, 0, -1, "air attack on 2718: the hex holds no enemy units")
	wantProblem(t, p, 0, -1, "air attack on 2717: give it at least 1 factor")
	p = refused(t, s, actions(US, air()))
	wantProblem(t, p, 0, -1, "needs at least one attack")
	p = refused(t, s, actions(JP, air(AirAttack{Hex: 2718, Factors: 1})))
	wantProblem(t, p, 0, -1, "no airpower left this turn")
	p = refused(t, s, actions(US, air(AirAttack{Hex: 2717, Factors: 1}, AirAttack{Hex: 2717, Factors: 1})))
	wantProblem(t, p, 0, -1, "the hex is attacked twice")
	// An attack whose hex emptied after it was announced is wasted, with
	// no die rolled.
	evs := s.airAttack(AirAttack{Hex: 2616, Factors: 2}, US, &ForcedDice{})
	if len(evs) != 1 || !strings.Contains(eventText(evs[0]), "the hex is empty now and its 2 factors are wasted") {
		t.Errorf("events %v", evs)
	}
}

// Japanese friendly fire by day: the U.S. chooses, and cannot tell
// face-down counters apart, so the Japanese pick which of them is hit.
func TestAirFriendlyFireHiddenChoice(t *testing.T) {
	s := hitState(t, map[string]Hex{"1/17-A": 2718, "U01": 2717, "J01": 2717, "J02": 2618}, "U01", "J01", "J02")
	got := s.friendlyFireTarget(JP, 2718)
	var ids []string
	for _, u := range got {
		ids = append(ids, u.ID)
	}
	// 2717 and 2618 are both next to 2718; the lower hex first: 2618.
	if strings.Join(ids, " ") != "J02" {
		t.Errorf("friendly fire target %v, want J02", ids)
	}
	s.mustUnit(t, "J02").Hex = 2816
	s.Place("J02", 0, BoxPool)
	got = s.friendlyFireTarget(JP, 2718)
	ids = nil
	for _, u := range got {
		ids = append(ids, u.ID)
	}
	if strings.Join(ids, " ") != "J01 U01" {
		t.Errorf("friendly fire target %v, want the face-down counters of 2717", ids)
	}
	// The Japanese default puts the hit on the Unknown unit, which melts away.
	evs := s.applyHits(got, 1, HitOptions{Ranged: true})
	wantUnit(t, s, "U01", 0, BoxOffMap, 1)
	if l := leaks([]byte(eventsText(evs, US)), append(usSecrets(s), "U01", "J01")); len(l) > 0 {
		t.Errorf("leak %v", l)
	}
}

// TestCombatFogOfWar fires and strikes from the air at random in generated
// positions, for both sides, and checks that nothing the U.S. reads names a
// Japanese unit it may not identify, the pool, the off-map box or Unknown
// units; and that the position stays legal.
func TestCombatFogOfWar(t *testing.T) {
	n := int64(300)
	if testing.Short() {
		n = 60
	}
	fired, aired := 0, 0
	for seed := range n {
		r := rand.New(rand.NewSource(seed))
		s := randomState(r)
		if s.Weather == Williwaw && r.Intn(2) == 0 {
			s.Weather = Cloudy
		}
		for _, u := range s.Units {
			u.Acted = false
		}
		for _, side := range []Side{s.firstSide(), s.firstSide().Enemy()} {
			o := randomCombat(r, s, side)
			if len(o.Actions) == 0 {
				continue
			}
			// One activation at a time: a unit the rules reveal (fired in
			// sight, converted) may be named from then on, even once gone.
			for _, a := range o.Actions {
				before := usSecrets(s)
				shown := map[string]bool{}
				seenOnMap := func(st *State) {
					for _, u := range st.Units {
						if u.OnMap() && !hiddenFrom(u, US) {
							shown[u.ID] = true
						}
					}
				}
				seenOnMap(s)
				out, evs, ps := ResolveActions(s, Orders{Side: side, Turn: s.Turn, Actions: []Action{a}}, combatDice{r})
				if len(ps) > 0 {
					continue // an earlier activation changed the target
				}
				seenOnMap(out)
				var secrets []string
				for _, x := range append(before, usSecrets(out)...) {
					if !shown[x] {
						secrets = append(secrets, x)
					}
				}
				for _, e := range VisibleEvents(evs, US) {
					if l := leaks([]byte(eventText(e)+" "+string(mustJSON(t, e))), secrets); len(l) > 0 {
						t.Fatalf("seed %d: the U.S. reads %q, which gives away %v", seed, eventText(e), l)
					}
				}
				if a.Fire != nil {
					fired++
				} else {
					aired++
				}
				checkCombatLegal(t, seed, out)
				s = out
			}
		}
	}
	if fired < int(n) || aired < int(n)/10 {
		t.Errorf("only %d fires and %d air activations tried", fired, aired)
	}
}

// firstSide is who acts first this turn (rule 3.2).
func (s *State) firstSide() Side {
	if s.Night {
		return JP
	}
	return US
}

// randomCombat returns legal fire orders for side in s, and sometimes an air
// activation.
func randomCombat(r *rand.Rand, s *State, side Side) Orders {
	o := Orders{Side: side, Turn: s.Turn}
	hexes, by := s.Occupants()
	var enemy []Hex
	for _, h := range hexes {
		if by[h][0].Side() == side.Enemy() {
			enemy = append(enemy, h)
		}
	}
	if len(enemy) == 0 {
		return o
	}
	used := map[string]bool{}
	var own []*Unit
	for _, u := range s.Units {
		if u.OnMap() && u.Side() == side {
			own = append(own, u)
		}
	}
	for _, u := range own {
		r1 := u.Rating()
		if r1.Ranged == 0 || r.Intn(3) == 0 {
			continue
		}
		for _, h := range enemy {
			if u.Hex.Distance(h) > r1.Range {
				continue
			}
			f := Fire{Units: []string{u.ID}, Target: h}
			if u.Kind() == Artillery && r.Intn(2) == 0 {
				f.Spotter = own[r.Intn(len(own))].ID
			}
			if side == US && mixedFace(by[h]) {
				for _, t := range by[h] {
					if !hiddenFrom(t, US) {
						f.TargetUnit = t.ID
					}
				}
			}
			if s.CheckFireBy(side, f) == nil && !used[u.ID] {
				used[u.ID] = true
				o.Actions = append(o.Actions, Action{Fire: &f})
				break
			}
		}
	}
	if air := *s.airpower(side); air > 0 && r.Intn(3) > 0 {
		var at []AirAttack
		for left := air; left > 0; {
			k := 1 + r.Intn(left)
			at = append(at, AirAttack{Hex: enemy[r.Intn(len(enemy))], Factors: k})
			left -= k
		}
		o.Actions = append(o.Actions, Action{Air: &AirStrikes{Attacks: at}})
	}
	return o
}

func checkCombatLegal(t *testing.T, seed int64, s *State) {
	t.Helper()
	hexes, by := s.Occupants()
	for _, h := range hexes {
		jp := 0
		for _, u := range by[h] {
			if u.Side() == JP && u.Kind() != Unknown {
				jp++
			}
		}
		if jp > jpStackLimit {
			t.Fatalf("seed %d: %s holds %d Japanese infantry or artillery units", seed, h, jp)
		}
	}
	for _, u := range s.Units {
		if u.OnMap() == (u.Box != "") {
			t.Fatalf("seed %d: %s is in %s and box %q", seed, u.ID, u.Hex, u.Box)
		}
		if u.Steps < 1 {
			t.Fatalf("seed %d: %s has %d steps", seed, u.ID, u.Steps)
		}
		if u.Kind() == Unknown && u.OnMap() && !u.FaceDown {
			t.Fatalf("seed %d: Unknown unit %s face up on the map", seed, u.ID)
		}
	}
}

// Rule 3.8.2 ends the game the moment it is met: the activations after the
// deciding loss are not carried out.
func TestActionsStopWhenTheGameIsWon(t *testing.T) {
	s := hitState(t, map[string]Hex{"20MM1": 2618, "2/32-E": 2619, "2/32-F": 2619, "1/17-A": 2821})
	o := actions(US, fireAt(2618, "2/32-E"), Action{Move: &Move{Unit: "1/17-A", Path: []Hex{2720}}})
	out, evs, ps := ResolveActions(s, o, &ForcedDice{Values: []int{10, 3}})
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if out.Winner != US || !out.Over() {
		t.Fatalf("winner %s, over %v; want a U.S. win by elimination", out.Winner, out.Over())
	}
	wantUnit(t, out, "1/17-A", 2821, "", 4)
	if txt := eventsText(evs, US); !strings.Contains(txt, "the game is over: activations 2 to 2 are not carried out") {
		t.Errorf("events:\n%s", txt)
	}
}
