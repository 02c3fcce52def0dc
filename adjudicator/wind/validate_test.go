package wind

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// validBase is a sound position: a new game with a U.S. company, a
// Japanese platoon and a face-down Unknown unit on the map.
func validBase(t *testing.T) *State {
	t.Helper()
	s, _ := NewGame(nil, nil, &ForcedDice{Values: []int{1, 1}})
	for _, p := range []struct {
		id string
		h  Hex
	}{{"1/17-A", 2618}, {"J01", 2717}, {"U01", 2817}} {
		if err := s.Place(p.id, p.h, ""); err != nil {
			t.Fatal(err)
		}
	}
	unit(t, s, "U01").FaceDown = true
	return s
}

func unit(t *testing.T, s *State, id string) *Unit {
	t.Helper()
	u, ok := s.Unit(id)
	if !ok {
		t.Fatalf("no unit %s", id)
	}
	return u
}

func TestValidateSound(t *testing.T) {
	s := validBase(t)
	if err := s.Validate(); err != nil {
		t.Fatalf("a sound position is refused:\n%v", err)
	}
	if err := NewState(nil, nil).Validate(); err != nil {
		t.Fatalf("a new position is refused:\n%v", err)
	}
	var back State
	if err := json.Unmarshal(mustJSON(t, s), &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(); err == nil || !strings.Contains(err.Error(), "not bound to its counter") {
		t.Fatalf("a position decoded but not attached: %v", err)
	}
	if err := back.Attach(nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(); err != nil {
		t.Fatalf("the sound position, decoded, is refused:\n%v", err)
	}
}

// TestValidateRefuses breaks one invariant at a time and checks that
// Validate names it, with the hex concerned when there is one.
func TestValidateRefuses(t *testing.T) {
	m := BuiltinMap()
	var sea Hex
	for c := m.MinCol; c <= m.MaxCol && sea == 0; c++ {
		if h := MakeHex(c, m.MinRow); m.OnMap(h) && !m.Land(h) {
			sea = h
		}
	}
	zoneOf := func(h Hex) string { return m.Zone(h) }
	cases := []struct {
		name   string
		mutate func(s *State)
		want   string
		hex    Hex
	}{
		{"a unit in the sea", func(s *State) { unit(t, s, "1/17-A").Hex = sea }, "1/17-A stands in " + sea.String() + ", which is not a land hex", sea},
		{"nine steps", func(s *State) { unit(t, s, "1/17-A").Steps = 9 }, "1/17-A has 9 steps; its counter has 1 to 4", 2618},
		{"no step left", func(s *State) { unit(t, s, "J02").Steps = 0 }, "J02 has 0 steps", 0},
		{"two units with one id", func(s *State) { s.Units[1].ID = s.Units[0].ID },
			s0(t) + " is in the position twice", 0},
		{"a unit of no counter", func(s *State) { s.Units[0].ID = "X99" }, `"X99", is not in the counter mix`, 0},
		{"a counter without unit", func(s *State) { s.Units = s.Units[1:]; s.reindex() }, "counter " + s0(t) + " has no unit in the position", 0},
		{"in a hex and a box", func(s *State) { unit(t, s, "J01").Box = BoxPool }, `J01 is both in 2717 and in box "pool"`, 2717},
		{"nowhere", func(s *State) { unit(t, s, "J02").Box = "" }, "J02 is nowhere", 0},
		{"set aside at rest", func(s *State) { unit(t, s, "105-1").Box = BoxSetAsidePrefix + "2717" }, `105-1 is still in box "setaside:2717"`, 0},
		{"an unknown box", func(s *State) { unit(t, s, "J02").Box = "attic" }, `J02 is in box "attic", which does not exist`, 0},
		{"U.S. unit in the pool", func(s *State) { unit(t, s, "1/17-B").Box = BoxPool }, "1/17-B is in the pool, which holds Japanese infantry only", 0},
		{"infantry off the map", func(s *State) { unit(t, s, "J02").Box = BoxOffMap }, "J02 is in the off-map box, which holds Unknown units only", 0},
		{"Japanese reinforcements", func(s *State) { unit(t, s, "J02").Box = BoxReinforcements }, "J02 is in the reinforcements box", 0},
		{"staging box of no zone", func(s *State) { unit(t, s, "1/17-B").Box = BoxStagingPrefix + "Z" }, `1/17-B is in box "staging:Z", the staging box of no landing zone`, 0},
		{"Japanese in a staging box", func(s *State) { unit(t, s, "J02").Box = BoxStagingPrefix + "A" }, "staging boxes hold U.S. units only", 0},
		{"a U.S. unit face down", func(s *State) { unit(t, s, "1/17-A").FaceDown = true }, "1/17-A is face down, but only Japanese units hide", 2618},
		{"face down in a box", func(s *State) { unit(t, s, "J02").FaceDown = true }, `J02 is face down in box "unused"`, 0},
		{"Unknown face up", func(s *State) { unit(t, s, "U01").FaceDown = false }, "Unknown unit U01 is face up on the map", 2817},
		{"captured infantry", func(s *State) { unit(t, s, "J01").Captured = true }, "J01 is captured, but only U.S. artillery", 2717},
		{"acted before the turn", func(s *State) { unit(t, s, "1/17-A").Acted = true }, "1/17-A starts turn 1 marked as having acted", 2618},
		{"both sides in a hex", func(s *State) { unit(t, s, "J02").Box = ""; unit(t, s, "J02").Hex = 2618 }, "2618 holds units of both sides (1/17-A and J02)", 2618},
		{"four platoons", func(s *State) {
			for _, id := range []string{"J02", "J03", "J04"} {
				unit(t, s, id).Box, unit(t, s, id).Hex = "", 2717
			}
		}, "stacking: 2717 holds 4 Japanese infantry and artillery units", 2717},
		{"turn 0", func(s *State) { s.Turn = 0 }, "turn 0", 0},
		{"negative airpower", func(s *State) { s.AirJP = -1 }, "airpower 0 U.S., -1 Japanese", 0},
		{"refit steps kept", func(s *State) { s.RefitSteps = 3 }, "3 refit steps are kept while the game waits for U.S. decision", 0},
		{"negative casualties", func(s *State) { s.Casualties = -1 }, "the casualty track is at -1", 0},
		{"30 casualties in a game going on", func(s *State) { s.Casualties = 30 }, "the casualty track is at 30, yet the game goes on", 0},
		{"a winner without reason", func(s *State) { s.Winner = US; s.Awaiting = WaitEnded }, "a winner is the U.S. or the Japanese, with a reason", 0},
		{"no such zone", func(s *State) { s.Cleared = []string{"Q"} }, `cleared zone "Q" is not a victory zone`, 0},
		{"cleared twice", func(s *State) { s.Cleared = []string{"T", "T"} }, "zone is listed as cleared twice", 1425},
		{"Attu Village cleared", func(s *State) { s.Cleared = []string{"V"} }, "is cleared, but it never is", 3409},
		{"cleared under Japanese infantry", func(s *State) { s.Cleared = []string{"E"} }, "Japanese infantry holds its victory hex 2717", 2717},
		{"Unknown in a cleared zone", func(s *State) {
			z := zoneOf(2817)
			s.Cleared = []string{z}
			unit(t, s, "J01").Box, unit(t, s, "J01").Hex = BoxPool, 0
		}, "Unknown unit U01 stands in 2817, in the cleared", 2817},
		{"Komandorski chits", func(s *State) { s.Komandorski.Effect = 25 }, "Komandorski chits: effect May 25", 0},
		{"delay revealed first", func(s *State) { s.Komandorski.DelayRevealed = true }, "delay chit is revealed before the effect chit", 0},
		{"standing instructions", func(s *State) { s.StandingUS.Retreat = "sometimes" }, `U.S. standing instructions in force: retreat "sometimes"`, 0},
		{"supply override", func(s *State) { s.SupplyOverride = map[string]bool{"X1": true} }, `the supply override names "X1"`, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := validBase(t)
			c.mutate(s)
			err := s.Validate()
			if err == nil {
				t.Fatalf("Validate accepts it")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate says:\n%v\nwant it to say %q", err, c.want)
			}
			if c.hex != 0 {
				var hexes []Hex
				for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
					var v *Violation
					if errors.As(e, &v) {
						hexes = append(hexes, v.Hexes...)
					}
				}
				if !slices.Contains(hexes, c.hex) {
					t.Fatalf("the violations name hexes %v, not %s", hexes, c.hex)
				}
			}
		})
	}
}

// s0 is the id of a new position's first unit.
func s0(t *testing.T) string {
	t.Helper()
	return NewState(nil, nil).Units[0].ID
}

// TestValidateReportsAll checks that every violation is reported, not only
// the first.
func TestValidateReportsAll(t *testing.T) {
	s := validBase(t)
	unit(t, s, "1/17-A").Steps = 9
	unit(t, s, "U01").FaceDown = false
	s.Casualties = -1
	err := s.Validate()
	if err == nil {
		t.Fatal("Validate accepts it")
	}
	errs := err.(interface{ Unwrap() []error }).Unwrap()
	if len(errs) != 3 {
		t.Fatalf("%d violations, want 3:\n%v", len(errs), err)
	}
}
