package wind

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// position builds a state on the built-in map, turn 1, cloudy by day, with
// units placed by id; Japanese units are face down as they start (2.5).
func position(t testing.TB, place map[string]Hex) *State {
	t.Helper()
	s := NewState(nil, nil)
	s.Weather = Cloudy
	for id, h := range place {
		if err := s.Place(id, h, ""); err != nil {
			t.Fatal(err)
		}
		u, _ := s.Unit(id)
		u.FaceDown = u.Side() == JP
	}
	return s
}

func mv(unit string, path ...Hex) Action {
	return Action{Move: &Move{Unit: unit, Path: path}}
}

func actions(side Side, a ...Action) Orders {
	return Orders{Side: side, Turn: 1, Wait: WaitActions, Actions: a}
}

// resolveOK resolves orders that must be legal and returns the new state and
// events.
func resolveOK(t *testing.T, s *State, o Orders) (*State, []Event) {
	t.Helper()
	out, events, problems := ResolveActions(s, o, &ForcedDice{})
	if len(problems) > 0 {
		t.Fatalf("refused: %v\n%s", problems, mapAround(s, o))
	}
	return out, events
}

// refused resolves orders that must be refused and returns the problems.
func refused(t *testing.T, s *State, o Orders) []Problem {
	t.Helper()
	out, events, problems := ResolveActions(s, o, &ForcedDice{})
	if len(problems) == 0 {
		t.Fatalf("accepted, want refused; events: %v\n%s", events, mapAround(s, o))
	}
	if out != nil {
		t.Fatalf("refused orders returned a state")
	}
	return problems
}

// wantProblem checks that some problem of activation action, path step step,
// contains want.
func wantProblem(t *testing.T, problems []Problem, action, step int, want string) {
	t.Helper()
	for _, p := range problems {
		if p.Action == action && p.Step == step && strings.Contains(p.Msg, want) {
			return
		}
	}
	t.Errorf("no problem at activation %d step %d containing %q; got:", action, step, want)
	for _, p := range problems {
		t.Errorf("  activation %d step %d: %s", p.Action, p.Step, p.Msg)
	}
}

// mapAround prints the hexes the orders touch with their level, terrain and
// units, so that a failing test shows the board.
func mapAround(s *State, o Orders) string {
	seen := map[Hex]bool{}
	var hexes []Hex
	add := func(h Hex) {
		if h != 0 && !seen[h] {
			seen[h] = true
			hexes = append(hexes, h)
		}
	}
	for _, a := range o.Actions {
		if a.Move == nil {
			continue
		}
		if u, ok := s.Unit(a.Move.Unit); ok {
			add(u.Hex)
		}
		for _, h := range a.Move.Path {
			add(h)
		}
	}
	m := s.Map()
	var b strings.Builder
	for _, h := range hexes {
		fmt.Fprintf(&b, "  %s level %d %s", h, m.Level(h), m.Terrain(h))
		for _, u := range s.UnitsAt(h) {
			fmt.Fprintf(&b, " %s(%d)", u.ID, u.Steps)
		}
		for _, n := range m.Neighbours(h) {
			if seen[n] || len(s.UnitsAt(n)) > 0 {
				up, down := m.Slope(h, n)
				fmt.Fprintf(&b, " |%s", n)
				if up {
					b.WriteString(" up")
				}
				if down {
					b.WriteString(" down")
				}
				if m.Cliff(h, n) {
					b.WriteString(" cliff")
				}
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func unitAt(t *testing.T, s *State, id string) *Unit {
	t.Helper()
	u, ok := s.Unit(id)
	if !ok {
		t.Fatalf("no unit %s", id)
	}
	return u
}

func wantAt(t *testing.T, s *State, id string, h Hex, mp int) {
	t.Helper()
	u := unitAt(t, s, id)
	if u.Hex != h || u.MPSpent != mp || !u.Acted {
		t.Errorf("%s: in %s having spent %d MP (acted %v), want %s and %d MP", id, u.Hex, u.MPSpent, u.Acted, h, mp)
	}
}

// The movement example of rule 5.4, on the built-in map drawn for it.
func TestExample54(t *testing.T) {
	s := position(t, map[string]Hex{"1/17-A": 2821, "IND1": 2821, "J01": 2817})

	// The company climbs the Hogback along the river: 1+3+1+1.
	s, events := resolveOK(t, s, actions(US, mv("1/17-A", 2720, 2719, 2619, 2618), mv("IND1", 2820, 2819, 2718)))
	wantAt(t, s, "1/17-A", 2618, 6)
	if got, want := eventText(events[0]), "1/17-A moves 2821→2720→2719→2619→2618 (6 MP)"; got != want {
		t.Errorf("event %q, want %q", got, want)
	}
	e := events[0]
	if e.Kind != EventMoved || e.Side != US || e.Units[0].ID != "1/17-A" || len(e.Hexes) != 5 || e.Seen != Public {
		t.Errorf("event %+v", e)
	}
	// The independent goes cross-country: 2+4+2.
	wantAt(t, s, "IND1", 2718, 8)

	// ... and could not have gone up to 2919 instead of 2718.
	alt := position(t, map[string]Hex{"IND1": 2821})
	p := refused(t, alt, actions(US, mv("IND1", 2820, 2819, 2919)))
	wantProblem(t, p, 0, 2, "IND1: 2819→2919 costs 4 MP (clear 2, up slope +1, level +1), 2 left")

	// The Japanese platoon pays 1+1, is not held in 2818 by the
	// independent in 2718 (cliff), and stops in 2819, in its zone of
	// control.
	jp, events := resolveOK(t, s, actions(JP, mv("J01", 2818, 2819)))
	wantAt(t, jp, "J01", 2819, 2)
	if len(events) != 1 || events[0].Seen != (Visibility{US: SightAnonymous, JP: SightFull}) || usText(events[0]) != "a Japanese counter moves 2817→2818→2819" {
		t.Errorf("face-down move events %+v", events)
	}
	p = refused(t, s, actions(JP, mv("J01", 2818, 2819, 2820)))
	wantProblem(t, p, 0, 2, "J01 must stop in 2819: it entered the zone of control of enemy units")

	// Engineer Hill is two levels above 2618: 4 MP for the U.S.
	s2 := position(t, map[string]Hex{"1/17-A": 2719})
	s2.Weather = Rain // 5 MP
	p = refused(t, s2, actions(US, mv("1/17-A", 2619, 2618, 2717)))
	wantProblem(t, p, 0, 2, "1/17-A: 2618→2717 costs 4 MP (clear 2, level +2), 3 left")
}

// Each line of the movement cost table (rule 5.0), for both sides.
func TestMoveCosts(t *testing.T) {
	cases := []struct {
		name     string
		from, to Hex
		us, jp   int
	}{
		{"clear", 2319, 2320, 2, 1},
		{"river", 2821, 2720, 1, 1},
		{"river up slope and level", 2720, 2719, 3, 2},
		{"up slope and level", 2820, 2819, 4, 2},
		{"down slope", 2819, 2820, 3, 1},
		{"lake", 1518, 1519, 3, 2},
		{"lake down slope", 1420, 1519, 4, 2},
		{"two levels up, no slope", 2618, 2717, 4, 1},
		{"slope both ways", 1806, 1807, 4, 2},
		{"slope both ways back", 1807, 1806, 4, 2},
	}
	for _, c := range cases {
		for _, side := range []Side{US, JP} {
			id, want := "IND1", c.us
			if side == JP {
				id, want = "J01", c.jp
			}
			t.Run(fmt.Sprintf("%s %s", c.name, side), func(t *testing.T) {
				s := position(t, map[string]Hex{id: c.from})
				s, _ = resolveOK(t, s, actions(side, mv(id, c.to)))
				wantAt(t, s, id, c.to, want)
			})
		}
	}
}

func TestMoveRefusedTerrain(t *testing.T) {
	s := position(t, map[string]Hex{"1/17-A": 2717, "1/17-B": 2821, "1/17-C": 2618})
	p := refused(t, s, actions(US,
		mv("1/17-A", 2817),       // cliff
		mv("1/17-B", 2822),       // sea
		mv("1/17-C", 2619, 2717), // not adjacent
		mv("1/17-D", 2720),       // off the map
	))
	wantProblem(t, p, 0, 0, "1/17-A: cliff between 2717 and 2817")
	wantProblem(t, p, 1, 0, "1/17-B: 2822 is sea")
	wantProblem(t, p, 2, 1, "1/17-C: 2717 is not next to 2619")
	wantProblem(t, p, 3, -1, "1/17-D is not on the map (it is in unused)")
	if len(p) != 4 {
		t.Errorf("%d problems, want 4: %v", len(p), p)
	}
}

func TestMoveRefusedUnit(t *testing.T) {
	s := position(t, map[string]Hex{"1/17-A": 2821, "105-1": 2821, "SD13A": 2821, "J01": 2316})
	p := refused(t, s, actions(US,
		mv("105-1", 2820),
		mv("SD13A", 2820),
		mv("1/17-A", 2720),
		mv("1/17-A", 2719),
		mv("J01", 2317),
		mv("NOPE", 2820),
		mv("1/17-B"),
		mv("1/17-A", 2821, 2720),
	))
	wantProblem(t, p, 0, -1, "105-1 is a fixed battery and cannot move")
	wantProblem(t, p, 1, -1, "SD13A is a supply depot and cannot move")
	wantProblem(t, p, 3, -1, "1/17-A has already acted this turn")
	wantProblem(t, p, 4, -1, "J01 is not one of your units")
	wantProblem(t, p, 5, -1, `there is no unit "NOPE"`)
	wantProblem(t, p, 6, -1, "1/17-B is not on the map")
	wantProblem(t, p, 7, -1, "1/17-A has already acted this turn")
	for _, q := range p {
		if q.Action == 2 {
			t.Errorf("the first move of 1/17-A is legal, got %v", q)
		}
	}

	// A unit that acted in an earlier file of the same step stays spent.
	s, _ = resolveOK(t, s, actions(US, mv("1/17-A", 2720)))
	p = refused(t, s, actions(US, mv("1/17-A", 2719)))
	wantProblem(t, p, 0, -1, "1/17-A has already acted this turn")

	// The path starts next to the unit, not in its hex.
	s = position(t, map[string]Hex{"1/17-A": 2821})
	p = refused(t, s, actions(US, mv("1/17-A", 2821, 2720)))
	wantProblem(t, p, 0, 0, "leave out 2821, where it stands")
}

// Rules 5.1 and 5.2: halve at night rounding up, then one less in rain.
func TestAllowanceWeatherAndNight(t *testing.T) {
	cases := []struct {
		id    string
		night bool
		w     Weather
		want  int
	}{
		{"1/17-A", false, Cloudy, 6},
		{"1/17-A", false, Rain, 5},
		{"1/17-A", true, Cloudy, 3},
		{"1/17-A", true, Rain, 2},
		{"J01", true, Cloudy, 3},
		{"J01", true, Rain, 2},
		{"IND1", false, Rain, 7},
		{"IND1", true, Fog, 4},
		{"75PH", true, Rain, 0},
		{"105-1", false, Cloudy, 0},
	}
	for _, c := range cases {
		s := position(t, nil)
		s.Night, s.Weather = c.night, c.w
		if got := s.Allowance(unitAt(t, s, c.id)); got != c.want {
			t.Errorf("%s night=%v %s: %d MP, want %d", c.id, c.night, c.w, got, c.want)
		}
	}

	// By night in the rain the company has 2 MP: the river hex and no more.
	s := position(t, map[string]Hex{"1/17-A": 2719})
	s.Night, s.Weather = true, Rain
	s2, _ := resolveOK(t, s, actions(US, mv("1/17-A", 2619, 2618)))
	wantAt(t, s2, "1/17-A", 2618, 2)
	p := refused(t, s, actions(US, mv("1/17-A", 2619, 2618, 2518)))
	wantProblem(t, p, 0, 2, "1/17-A: 2618→2518 costs")
	wantProblem(t, p, 0, 2, "0 left")
}

// Rule 5.8: one hex is always possible, spending everything.
func TestMinimumMove(t *testing.T) {
	s := position(t, map[string]Hex{"1/17-A": 2618})
	s.Night = true // 3 MP; 2717 costs 4
	s2, events := resolveOK(t, s, actions(US, mv("1/17-A", 2717)))
	wantAt(t, s2, "1/17-A", 2717, 3)
	if !strings.Contains(eventText(events[0]), "minimum move, rule 5.8") {
		t.Errorf("event %q does not say the minimum move was used", eventText(events[0]))
	}
	p := refused(t, s, actions(US, mv("1/17-A", 2717, 2716)))
	wantProblem(t, p, 0, 0, "1/17-A: 2618→2717 costs 4 MP (clear 2, level +2), 3 left; a minimum move (rule 5.8)")

	// Not across a cliff.
	s = position(t, map[string]Hex{"1/17-A": 2717})
	s.Night = true
	p = refused(t, s, actions(US, mv("1/17-A", 2817)))
	wantProblem(t, p, 0, 0, "cliff between 2717 and 2817")

	// The 75mm section has no MP left at night in rain, and still moves one hex.
	s = position(t, map[string]Hex{"75PH": 2821})
	s.Night, s.Weather = true, Rain
	s2, _ = resolveOK(t, s, actions(US, mv("75PH", 2720)))
	wantAt(t, s2, "75PH", 2720, 0)
}

// Rule 6.1 by day: stop on entering, no leaving.
func TestZOCDay(t *testing.T) {
	// J01 in 2617 reaches 2618 and 2718 ... but not 2619.
	s := position(t, map[string]Hex{"J01": 2617, "1/17-A": 2720, "1/17-B": 2618})
	p := refused(t, s, actions(US,
		mv("1/17-A", 2719, 2619, 2618), // 2619 is next to 2618 only (friendly), fine; 2618 is occupied by friends
		mv("1/17-B", 2619),             // starts in the ZOC of J01
	))
	wantProblem(t, p, 1, 0, "1/17-B is in the zone of control of enemy units in 2618 and may not leave it by day")
	if len(p) != 1 {
		t.Errorf("problems %v, want only 1/17-B's", p)
	}

	s = position(t, map[string]Hex{"J01": 2617, "1/17-A": 2719})
	p = refused(t, s, actions(US, mv("1/17-A", 2619, 2618, 2518)))
	wantProblem(t, p, 0, 2, "1/17-A must stop in 2618: it entered the zone of control of enemy units")
	s2, _ := resolveOK(t, s, actions(US, mv("1/17-A", 2619, 2618)))
	wantAt(t, s2, "1/17-A", 2618, 2)

	// A face-down Japanese unit stops U.S. units like any other.
	if u := unitAt(t, s, "J01"); !u.FaceDown {
		t.Fatal("J01 should be face down")
	}
	// An Unknown unit too (2.5, 6.0).
	s = position(t, map[string]Hex{"U01": 2617, "1/17-A": 2719})
	p = refused(t, s, actions(US, mv("1/17-A", 2619, 2618, 2518)))
	wantProblem(t, p, 0, 2, "must stop in 2618")

	// No entering an enemy-held hex. Every hex next to an enemy is in its
	// zone of control, so this only comes up at night, leaving one.
	s = position(t, map[string]Hex{"J01": 2618, "1/17-A": 2619})
	s.Night = true
	p = refused(t, s, actions(US, mv("1/17-A", 2618)))
	wantProblem(t, p, 0, 0, "2618 is held by enemy units")
	s.Night = false
	p = refused(t, s, actions(US, mv("1/17-A", 2618)))
	wantProblem(t, p, 0, 0, "may not leave it by day")
}

// Rule 6.1 at night: all MP for one hex free of enemy zones of control.
func TestZOCNightExit(t *testing.T) {
	s := position(t, map[string]Hex{"J01": 2617, "1/17-A": 2618})
	s.Night = true
	s2, events := resolveOK(t, s, actions(US, mv("1/17-A", 2619)))
	wantAt(t, s2, "1/17-A", 2619, 3)
	if !strings.Contains(eventText(events[0]), "rule 6.1") {
		t.Errorf("event %q does not say it left a zone of control", eventText(events[0]))
	}
	p := refused(t, s, actions(US, mv("1/17-A", 2619, 2719)))
	wantProblem(t, p, 0, 1, "spends all its MP on 2619 and can go no further")
	// 2717 is next to 2617 too.
	p = refused(t, s, actions(US, mv("1/17-A", 2717)))
	wantProblem(t, p, 0, 0, "2717 is in the zone of control of enemy units")
}

func TestResolveLeavesInputAlone(t *testing.T) {
	s := position(t, map[string]Hex{"1/17-A": 2821})
	out, _ := resolveOK(t, s, actions(US, mv("1/17-A", 2720)))
	if u := unitAt(t, s, "1/17-A"); u.Hex != 2821 || u.Acted || u.MPSpent != 0 {
		t.Errorf("input state changed: %+v", u)
	}
	if out == s {
		t.Error("ResolveActions returned its input")
	}
}

// Reachable and move orders agree on every single-hex move of a few units.
func TestReachableAgreesWithMoves(t *testing.T) {
	places := []map[string]Hex{
		{"1/17-A": 2821, "IND1": 2618, "J01": 2617, "J02": 2916, "2/17-E": 2719, "2/17-F": 2719},
		{"1/17-A": 2618, "J01": 2717, "U01": 2520},
	}
	for _, night := range []bool{false, true} {
		for _, place := range places {
			s := position(t, place)
			s.Night = night
			for id := range place {
				u := unitAt(t, s, id)
				r := s.Reachable(u)
				for _, n := range s.Map().Neighbours(u.Hex) {
					_, _, problems := ResolveActions(s, actions(u.Side(), mv(id, n)), nil)
					_, ok := r[n]
					if ok != (len(problems) == 0) {
						t.Errorf("night=%v %s %s→%s: Reachable says %v, move says %v", night, id, u.Hex, n, ok, problems)
					}
				}
			}
		}
	}
	// From landing zone D the river is the cheap way up, for the
	// independent as for the company of the 5.4 example.
	s := position(t, map[string]Hex{"IND1": 2821})
	r := s.Reachable(unitAt(t, s, "IND1"))
	if r[2618] != 6 || r[2718] != 6 {
		t.Errorf("Reachable: 2618 %d, 2718 %d; want 6 and 6", r[2618], r[2718])
	}
	for h, c := range r {
		if c > 8 {
			t.Errorf("Reachable: %s costs %d, more than the 8 MP", h, c)
		}
	}
}

func BenchmarkReach(b *testing.B) {
	s := position(b, map[string]Hex{"IND1": 2821, "J01": 2717, "J02": 2916, "U01": 2515})
	u, _ := s.Unit("IND1")
	b.ReportAllocs()
	for b.Loop() {
		s.Reachable(u)
	}
}

func BenchmarkResolveMoves(b *testing.B) {
	// Twenty companies and independents walk up from Massacre Bay.
	place := map[string]Hex{}
	var acts []Action
	starts := []Hex{2821, 3022, 3122, 3323}
	ids := []string{
		"1/17-A", "1/17-B", "1/17-C", "2/17-E", "2/17-F", "2/17-G", "3/17-I", "3/17-K",
		"1/32-A", "1/32-B", "IND1", "IND2", "IND3", "IND4", "IND5", "IND6", "IND7", "IND8", "IND9", "IND10",
	}
	for i, id := range ids {
		place[id] = starts[i%len(starts)]
	}
	s := position(b, place)
	sim := s
	for _, id := range ids {
		u, _ := sim.Unit(id)
		// Go as far as the unit can, given the moves before it.
		r := sim.Reachable(u)
		var far Hex
		for h, c := range r {
			if c > r[far] || (c == r[far] && h < far) {
				far = h
			}
		}
		a := Action{Move: &Move{Unit: id, Path: cheapestPath(sim, u, far)}}
		next, _, p := ResolveActions(sim, actions(US, a), nil)
		if len(p) > 0 {
			b.Fatalf("benchmark move refused: %v", p)
		}
		sim = next
		acts = append(acts, a)
	}
	o := actions(US, acts...)
	if _, _, p := ResolveActions(s, o, nil); len(p) > 0 {
		b.Fatalf("benchmark orders refused: %v", p)
	}
	b.ReportAllocs()
	for b.Loop() {
		ResolveActions(s, o, nil)
	}
}

// cheapestPath walks back from to along Reach costs computed backwards: at
// each hex take a neighbour whose cost plus the step cost is the hex's cost.
func cheapestPath(s *State, u *Unit, to Hex) []Hex {
	r := s.Reachable(u)
	var path []Hex
	for h := to; h != u.Hex && len(path) < 50; {
		path = append([]Hex{h}, path...)
		for _, n := range s.Map().Neighbours(h) {
			c, ok := r[n]
			if !ok {
				continue
			}
			sc, err := StepCost(s.Map(), u.Side(), n, h)
			if err != nil {
				continue
			}
			if n == u.Hex && (sc.MP > r[h] || s.InEnemyZOC(n, u.Side().Enemy())) {
				// a minimum move (5.8) or a night exit (6.1)
				h = n
				break
			}
			if c+sc.MP == r[h] && (n == u.Hex || !s.InEnemyZOC(n, u.Side().Enemy())) {
				h = n
				break
			}
		}
	}
	return path
}

// Over many random positions: every hex Reachable offers can be reached by
// a move order for the MP it says, and every move order accepted ends where
// it says, within the unit's allowance (or by the minimum move or a night
// exit), in a legal stack.
func TestMoveProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1943, 5))
	var area []Hex
	for _, h := range BuiltinMap().LandHexes() {
		if h.Distance(2618) <= 4 {
			area = append(area, h)
		}
	}
	us := []string{"1/17-A", "1/17-B", "2/17-E", "3/17-I", "IND1", "IND2", "IND3", "13E-A", "75PH"}
	jp := []string{"J01", "J02", "J03", "J04", "U01", "U02", "20MM1"}
	accepted := 0
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	for round := range rounds {
		place := map[string]Hex{}
		for _, id := range append(append([]string{}, us...), jp...) {
			place[id] = area[rng.IntN(len(area))]
		}
		s := position(t, place)
		s.Night = rng.IntN(2) == 0
		s.Weather = Weather(rng.IntN(4))
		// Random placement may put enemies together; keep the sides apart.
		for _, u := range s.OnMap() {
			if u.Side() == JP && s.holdsSide(u.Hex, US) {
				u.Hex, u.Box = 0, BoxPool
			}
		}
		for _, u := range s.OnMap() {
			side := u.Side()
			r := s.Reachable(u)
			for h, want := range r {
				if h == u.Hex {
					continue
				}
				path := cheapestPath(s, u, h)
				out, _, p := ResolveActions(s, actions(side, mv(u.ID, path...)), nil)
				if len(p) > 0 {
					t.Fatalf("round %d: %s %s→%v (Reachable: %d MP) refused: %v", round, u.ID, u.Hex, path, want, p)
				}
				if got := unitAt(t, out, u.ID).MPSpent; got != want {
					t.Fatalf("round %d: %s %s→%v spent %d MP, Reachable said %d", round, u.ID, u.Hex, path, got, want)
				}
			}
			// A random walk: if accepted, it must be sound.
			path := []Hex{}
			cur := u.Hex
			for range 1 + rng.IntN(5) {
				ns := s.Map().Neighbours(cur)
				cur = ns[rng.IntN(len(ns))]
				path = append(path, cur)
			}
			out, events, p := ResolveActions(s, actions(side, mv(u.ID, path...)), nil)
			if len(p) > 0 {
				if found := leaks(mustJSON(t, p), usSecrets(s)); side == US && len(found) > 0 {
					t.Fatalf("round %d: a U.S. order is refused naming %v: %v", round, found, p)
				}
				continue
			}
			accepted++
			moved := unitAt(t, out, u.ID)
			if moved.Hex != cur || len(events) == 0 {
				t.Fatalf("round %d: %s walked %v but is in %s", round, u.ID, path, moved.Hex)
			}
			if moved.MPSpent > s.Allowance(u) {
				t.Fatalf("round %d: %s spent %d MP of %d", round, u.ID, moved.MPSpent, s.Allowance(u))
			}
			if why := out.StackingProblem(cur, side); why != "" {
				t.Fatalf("round %d: %s walked into an illegal stack: %s", round, u.ID, why)
			}
			us := VisibleEvents(events, US)
			words := ""
			for _, e := range us {
				words += eventText(e) + "\n"
			}
			if found := leaks(append(mustJSON(t, us), words...), usSecrets(s)); len(found) > 0 {
				t.Fatalf("round %d: the U.S. reads %v in:\n%s%+v", round, found, words, us)
			}
			if c, ok := r[cur]; !ok || c > moved.MPSpent {
				t.Fatalf("round %d: %s reached %s for %d MP, Reachable says %d (%v)", round, u.ID, cur, moved.MPSpent, c, ok)
			}
		}
	}
	t.Logf("%d random walks accepted", accepted)
}
