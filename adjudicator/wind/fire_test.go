package wind

import (
	"math/rand"
	"strings"
	"testing"
)

func TestSpottingDistance(t *testing.T) {
	for w, want := range map[Weather]int{Cloudy: 3, Rain: 3, Fog: 1, Williwaw: 0} {
		if got := SpottingDistance(w); got != want {
			t.Errorf("SpottingDistance(%s) = %d, want %d", w, got, want)
		}
	}
}

// placed is a unit for fireState: id, hex, and face-up for Japanese units
// (they are placed face-down otherwise, rule 2.5).
type placed struct {
	id     string
	hex    Hex
	faceUp bool
}

func fireState(t *testing.T, w Weather, units ...placed) *State {
	t.Helper()
	s := NewState(nil, nil)
	s.Weather = w
	for _, p := range units {
		if err := s.Place(p.id, p.hex, ""); err != nil {
			t.Fatal(err)
		}
		u, _ := s.Unit(p.id)
		u.FaceDown = u.Side() == JP && !p.faceUp
	}
	return s
}

// The position of the ranged combat example (8.1) on the built-in map: two
// Japanese platoons on Engineer Hill (2717, level 3), two 2/32 companies two
// hexes away below it at 2619 and 2719, a 105mm battery at landing zone D
// (2821), four hexes away without line of sight.
func exampleUnits() []placed {
	return []placed{
		{"J01", 2717, true}, {"J02", 2717, true},
		{"2/32-E", 2619, false}, {"2/32-F", 2719, false},
		{"105-1", 2821, false},
		{"1/17-A", 2718, false}, {"1/17-B", 2618, false},
	}
}

type fireCase struct {
	name   string
	f      Fire
	reason string // "" when legal; else a substring of the error
}

func checkFire(t *testing.T, s *State, cases []fireCase) {
	t.Helper()
	for _, c := range cases {
		err := s.CheckFire(c.f)
		switch {
		case c.reason == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.reason != "" && err == nil:
			t.Errorf("%s: accepted, want refused with %q", c.name, c.reason)
		case c.reason != "" && !strings.Contains(err.Error(), c.reason):
			t.Errorf("%s: refused with %q, want %q", c.name, err, c.reason)
		}
	}
}

func TestCheckFireExample(t *testing.T) {
	s := fireState(t, Cloudy, exampleUnits()...)
	checkFire(t, s, []fireCase{
		{"the two 2/32 companies fire together", Fire{Units: []string{"2/32-E", "2/32-F"}, Target: 2717}, ""},
		{"the battery called in by an adjacent company", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "1/17-A"}, ""},
		{"the battery called in by a 2/32 company", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "2/32-E"}, ""},
		{"the battery alone", Fire{Units: []string{"105-1"}, Target: 2717},
			"105-1: no line of sight to 2717 (2819 (level 1) is higher than 2821 (level 0)"},
	})
}

func TestCheckFireRefusals(t *testing.T) {
	units := append(exampleUnits(),
		placed{"2/32-G", 2519, false}, // 3 from 2717, clear line of sight
		placed{"2/32-H", 2520, false}, // 4 from 2717, clear line of sight
		placed{"13E-A", 2616, false},  // engineers: no ranged combat
		placed{"1/32-A", 2516, false}, // reduced to one step below
		placed{"1/32-B", 2816, false}, // no line of sight (2817 is in the way)
		placed{"J03", 2917, true},     // a Japanese unit near the hill
		placed{"3/32-K", 2620, false}, // 3 hexes, blocked by 2619
		placed{"75PH", 2516, false},   // artillery that sees the hill itself
		placed{"20MM1", 2717, true},   // Japanese artillery
		placed{"U01", 2518, false},    // a face-down Unknown unit next to 2619
		placed{"J04", 3017, true},     // Japanese infantry two hexes from 1/32-C
		placed{"75MM1", 3016, false},  // face-down Japanese artillery
		placed{"3/32-L", 2619, false}, // a target for the Japanese
		placed{"1/32-C", 3019, false}, // a U.S. unit for the Japanese to spot
	)
	s := fireState(t, Cloudy, units...)
	u, _ := s.Unit("1/32-A")
	u.Steps = 1
	u, _ = s.Unit("2/32-F")
	u.Acted = true
	checkFire(t, s, []fireCase{
		{"out of range", Fire{Units: []string{"2/32-G"}, Target: 2717}, "2/32-G: 2717 is 3 hexes away, range 2"},
		{"no line of sight", Fire{Units: []string{"1/32-B"}, Target: 2717}, "1/32-B: no line of sight to 2717 (2817 (level 3) is higher than 2816 (level 2)"},
		{"no ranged combat", Fire{Units: []string{"13E-A"}, Target: 2717}, "13E-A has no ranged combat at 2 steps"},
		{"no ranged combat when reduced", Fire{Units: []string{"1/32-A"}, Target: 2717}, "1/32-A has no ranged combat at 1 step"},
		{"already acted", Fire{Units: []string{"2/32-F"}, Target: 2717}, "2/32-F has already acted this turn"},
		{"both sides", Fire{Units: []string{"2/32-E", "J03"}, Target: 2717}, "J03 is not a U.S. unit"},
		{"unknown unit", Fire{Units: []string{"2/32-X"}, Target: 2717}, `there is no unit "2/32-X"`},
		{"twice", Fire{Units: []string{"2/32-E", "2/32-E"}, Target: 2717}, "2/32-E is named twice"},
		{"no enemy", Fire{Units: []string{"2/32-E"}, Target: 2618}, "2618 holds no enemy units"},
		{"off the map", Fire{Units: []string{"2/32-E"}, Target: 905}, "target 0905 is not a land hex"},
		{"no units", Fire{Target: 2717}, "name at least one unit"},
		{"every mistake is reported", Fire{Units: []string{"2/32-G", "13E-A"}, Target: 2717}, "range 2; 13E-A has no ranged"},
		{"artillery that sees the target itself", Fire{Units: []string{"75PH"}, Target: 2717}, ""},
		{"a spotter too far off", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "2/32-H"},
			"spotter 2/32-H is 4 hexes from 2717, spotting distance in cloudy weather is 3"},
		{"a spotter without line of sight", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "1/32-B"},
			"spotter 1/32-B has no line of sight to 2717"},
		{"a spotter that has acted still calls in artillery", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "2/32-F"}, ""},
		{"a spotter of the other side", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "J03"}, "spotter J03 is not a U.S. unit"},
		{"a spotter off the map", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "1/4-A"}, "spotter 1/4-A is not on the map"},
		{"only artillery is called in", Fire{Units: []string{"3/32-K"}, Target: 2717, Spotter: "2/32-E"},
			"3/32-K: no line of sight to 2717 (2619 (level 1) is higher than 2620 (level 0)"},
		{"only artillery is called in, and says so", Fire{Units: []string{"3/32-K"}, Target: 2717, Spotter: "2/32-E"},
			"only artillery can be called in by a spotter"},
		{"a spotter for units that need none", Fire{Units: []string{"2/32-E"}, Target: 2717, Spotter: "1/17-A"},
			"no firing unit is artillery"},
		{"Japanese artillery called in by a face-down Unknown unit", Fire{Units: []string{"75MM1"}, Target: 2619, Spotter: "U01"}, ""},
		{"Japanese infantry fires at a U.S. unit", Fire{Units: []string{"J04"}, Target: 3019}, ""},
		{"Japanese may name a U.S. target unit in the hex", Fire{Units: []string{"20MM1"}, Target: 2718, TargetUnit: "1/17-A"}, ""},
		{"but not one elsewhere", Fire{Units: []string{"20MM1"}, Target: 2718, TargetUnit: "1/17-B"}, "target unit 1/17-B is not in 2718"},
	})
}

func TestCheckFireWeather(t *testing.T) {
	units := append(exampleUnits(), placed{"2/32-G", 2616, false})
	checkFire(t, fireState(t, Rain, units...), []fireCase{
		{"rain: 2 hexes", Fire{Units: []string{"2/32-E"}, Target: 2717}, ""},
		{"rain: called in from 2", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "2/32-E"}, ""},
	})
	checkFire(t, fireState(t, Fog, units...), []fireCase{
		{"fog: 2 hexes", Fire{Units: []string{"2/32-E"}, Target: 2717}, "2/32-E: 2717 is 2 hexes away, spotting distance in fog is 1"},
		{"fog: adjacent", Fire{Units: []string{"1/17-A"}, Target: 2717}, ""},
		{"fog: called in from 2", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "2/32-E"}, "spotter 2/32-E is 2 hexes from 2717, spotting distance in fog is 1"},
		{"fog: called in from adjacent", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "1/17-B"}, ""},
	})
	checkFire(t, fireState(t, Williwaw, units...), []fireCase{
		{"williwaw: adjacent", Fire{Units: []string{"1/17-A"}, Target: 2717}, "no ranged combat in a williwaw"},
		{"williwaw: called in", Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "1/17-A"}, "no ranged combat in a williwaw"},
	})
}

// Rule 8.0: firing at a hex of face-up and face-down Japanese units, the
// U.S. names a face-up unit to take the hits.
func TestCheckFireMixedHex(t *testing.T) {
	units := []placed{
		{"J01", 2717, true}, {"J02", 2717, false}, {"U05", 2717, false},
		{"J10", 2817, false}, {"J11", 2817, false},
		{"2/32-E", 2619, false}, {"1/17-A", 2816, false},
	}
	s := fireState(t, Cloudy, units...)
	checkFire(t, s, []fireCase{
		{"no target unit", Fire{Units: []string{"2/32-E"}, Target: 2717}, "2717 holds face-up and face-down units: name one of the face-up units (J01)"},
		{"the face-up unit", Fire{Units: []string{"2/32-E"}, Target: 2717, TargetUnit: "J01"}, ""},
		{"a face-down unit", Fire{Units: []string{"2/32-E"}, Target: 2717, TargetUnit: "J02"}, "target unit J02: name one of the face-up units in 2717 (J01)"},
		{"all face-down: none needed", Fire{Units: []string{"1/17-A"}, Target: 2817}, ""},
		{"all face-down: none can be named", Fire{Units: []string{"1/17-A"}, Target: 2817, TargetUnit: "J10"}, "the U.S. can name only a face-up unit, and 2817 holds none"},
	})
}

// Fog of war: what CheckFire tells the U.S. must not
// depend on which face-down Japanese units stand in the target hex, nor
// betray their type. The same orders are checked against positions that
// differ only in the identity of the face-down units; the answers must be
// word for word the same.
func TestCheckFireFogOfWar(t *testing.T) {
	// Each variant fills 2717 with one face-up platoon and two face-down
	// units of different kinds, and 2817 with face-down units only.
	variants := [][]string{
		{"J02", "J03", "J10"},
		{"U01", "U02", "U03"},
		{"20MM1", "75MM1", "U04"},
		{"J40", "75MM2", "20MM2"},
	}
	orders := []Fire{
		{Units: []string{"2/32-E"}, Target: 2717},
		{Units: []string{"2/32-E"}, Target: 2717, TargetUnit: "J02"},
		{Units: []string{"2/32-E"}, Target: 2717, TargetUnit: "U01"},
		{Units: []string{"2/32-E"}, Target: 2717, TargetUnit: "20MM1"},
		{Units: []string{"2/32-E"}, Target: 2717, TargetUnit: "J40"},
		{Units: []string{"2/32-E"}, Target: 2717, TargetUnit: "J99"},
		{Units: []string{"1/17-A"}, Target: 2817, TargetUnit: "J10"},
		{Units: []string{"1/17-A"}, Target: 2817, TargetUnit: "U03"},
		{Units: []string{"1/17-A"}, Target: 2817, TargetUnit: "75MM1"},
		{Units: []string{"105-1", "2/32-E"}, Target: 2717, TargetUnit: "U02"},
		{Units: []string{"105-1"}, Target: 2817, Spotter: "1/17-A", TargetUnit: "75MM2"},
		{Units: []string{"2/32-E"}, Target: 2618},
	}
	secret := []string{"unknown", "artillery", "infantry", "20mm", "75mm", "platoon"}
	answers := make([]string, len(orders))
	for v, down := range variants {
		s := fireState(t, Cloudy,
			placed{"J01", 2717, true}, placed{down[0], 2717, false}, placed{down[1], 2717, false},
			placed{down[2], 2817, false},
			placed{"2/32-E", 2619, false}, placed{"1/17-A", 2816, false}, placed{"105-1", 2821, false})
		for i, f := range orders {
			got := "legal"
			if err := s.CheckFireBy(US, f); err != nil {
				got = err.Error()
			}
			for _, id := range down {
				if id != f.TargetUnit && strings.Contains(got, id) {
					t.Errorf("variant %d, order %d: %q names face-down %s", v, i, got, id)
				}
			}
			said := strings.ToLower(got)
			if f.TargetUnit != "" {
				said = strings.ReplaceAll(said, strings.ToLower(f.TargetUnit), "the unit named")
			}
			for _, w := range secret {
				if strings.Contains(said, w) {
					t.Errorf("variant %d, order %d: %q says %q", v, i, got, w)
				}
			}
			if v == 0 {
				answers[i] = got
			} else if got != answers[i] {
				t.Errorf("order %d: %q with one set of face-down units, %q with another", i, answers[i], got)
			}
		}
	}
}

func TestCheckFireBySide(t *testing.T) {
	s := fireState(t, Cloudy, exampleUnits()...)
	err := s.CheckFireBy(US, Fire{Units: []string{"J01"}, Target: 2619})
	if err == nil || err.Error() != "J01 is not a U.S. unit: units firing together belong to one side" {
		t.Errorf("U.S. orders firing J01: %v", err)
	}
	if _, ok := err.(*FireError); !ok {
		t.Errorf("error is %T, want *FireError", err)
	}
}

// TestCheckFireNonInterference: over many generated positions, U.S. fire
// orders get word-for-word the same answer from positions that differ only
// in what the U.S. may not know, and no answer names anything hidden except
// the target unit the orders themselves named.
func TestCheckFireNonInterference(t *testing.T) {
	refused, targeted := 0, 0
	for seed := range int64(400) {
		r := rand.New(rand.NewSource(seed))
		s := randomState(r)
		var us, jp []*Unit
		var targets []Hex
		for _, u := range s.Units {
			switch {
			case u.Side() == US && u.OnMap():
				us = append(us, u)
			case u.Side() == JP:
				jp = append(jp, u)
				if u.OnMap() {
					targets = append(targets, u.Hex)
				}
			}
		}
		if len(us) == 0 || len(targets) == 0 {
			continue
		}
		var orders []Fire
		for range 8 {
			f := Fire{Target: targets[r.Intn(len(targets))]}
			for range 1 + r.Intn(2) {
				f.Units = append(f.Units, us[r.Intn(len(us))].ID)
			}
			if r.Intn(2) == 0 {
				f.Spotter = us[r.Intn(len(us))].ID
			}
			if r.Intn(2) == 0 {
				f.TargetUnit = jp[r.Intn(len(jp))].ID
			}
			orders = append(orders, f)
		}
		answer := func(s *State, f Fire) string {
			err := s.CheckFireBy(US, f)
			if err == nil {
				return "legal"
			}
			var secrets []string
			for _, sec := range usSecrets(s) {
				if sec != f.TargetUnit {
					secrets = append(secrets, sec)
				}
			}
			if l := leaks([]byte(err.Error()), secrets); l != nil {
				t.Fatalf("seed %d: %q names %v", seed, err, l)
			}
			refused++
			if strings.Contains(err.Error(), "face-up") {
				targeted++
			}
			return err.Error()
		}
		var want []string
		for _, f := range orders {
			want = append(want, answer(s, f))
		}
		s2 := s.Clone()
		scrambleHidden(t, s2, r)
		for i, f := range orders {
			if got := answer(s2, f); got != want[i] {
				t.Fatalf("seed %d: %+v: %q, and with other face-down units %q", seed, f, want[i], got)
			}
		}
	}
	if refused == 0 || targeted == 0 {
		t.Fatalf("%d orders refused, %d about the target unit: the test checks too little", refused, targeted)
	}
}

// An option taken away by an earlier line of the same file is traced to
// that line: the battery's spotter moves out of sight before the fire it
// was to call in (rules 3.5, 8.1.4), or a unit fires twice (rule 3.5). An
// activation refused on its own is traced to nothing.
func TestCheckActionsNamesTheEarlierActivation(t *testing.T) {
	s := fireState(t, Cloudy, exampleUnits()...)
	call := Action{Fire: &Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "2/32-E"}}
	for _, c := range []struct {
		name    string
		actions []Action
		cause   int
	}{
		{"the spotter moved first", []Action{{Move: &Move{Unit: "2/32-E", Path: []Hex{2620}}}, call}, 1},
		{"a fire, then the spotter moves, then the call", []Action{
			{Fire: &Fire{Units: []string{"1/17-A"}, Target: 2717}}, {Move: &Move{Unit: "2/32-E", Path: []Hex{2519, 2520}}}, call}, 2},
		{"the same company fires twice", []Action{
			{Fire: &Fire{Units: []string{"1/17-B"}, Target: 2717}}, {Fire: &Fire{Units: []string{"1/17-B"}, Target: 2717}}}, 1},
		{"a spotter of the other side, after a fire", []Action{
			{Fire: &Fire{Units: []string{"1/17-A"}, Target: 2717}}, {Fire: &Fire{Units: []string{"105-1"}, Target: 2717, Spotter: "J01"}}}, 0},
	} {
		ps := CheckActions(s, Orders{Side: US, Actions: c.actions})
		if len(ps) == 0 {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		last := len(c.actions) - 1
		for _, p := range ps {
			if p.Action != last || p.Cause != c.cause {
				t.Errorf("%s: activation %d refused (%s), traced to %d; want activation %d traced to %d", c.name, p.Action+1, p.Msg, p.Cause, last+1, c.cause)
			}
		}
	}
}
