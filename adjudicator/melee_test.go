package adjudicator

import (
	"strings"
	"testing"
)

// declared places units and records their melee declarations, as the
// action steps would leave them.
func declared(t *testing.T, s *State, target Hex, ids ...string) {
	t.Helper()
	for _, id := range ids {
		u := unitAt(t, s, id)
		u.Acted, u.Melee = true, target
	}
}

func wantEvent(t *testing.T, evs []Event, sub string) {
	t.Helper()
	for _, e := range evs {
		if strings.Contains(e.Text, sub) {
			return
		}
	}
	t.Errorf("no event contains %q; events:\n%s", sub, eventsText(evs, Umpire))
}

// The melee example of rule 8.2 on the built-in map.
func TestExample82(t *testing.T) {
	s := position(t, map[string]Hex{"J01": 2717, "1/17-A": 2617, "1/17-B": 2618})
	s.SupplyOverride = map[string]bool{"1/17-A": false}
	s.StandingUS.Martinez = HeroNever
	s.StandingUS.LossOrder = []string{"1/17-A"}
	declared(t, s, 2717, "1/17-A", "1/17-B")
	a, b := unitAt(t, s, "1/17-A"), unitAt(t, s, "1/17-B")
	if n := s.Surround(2717, []*Unit{a, b}); n != 5 {
		t.Errorf("surround %d, want 5", n)
	}
	d := &ForcedDice{Values: []int{5, 5, 3, 9, 8, 8, 7, 4, 1, 7, 5, 5, 3, 2, 2, 10, 8, 7, 1, 8, 5, 4, 4, 2, 1}}
	evs := s.ResolveMelee(d)
	if d.Err != nil || d.Unused() != 0 {
		t.Fatalf("dice: %v, %d unused\n%s", d.Err, d.Unused(), eventsText(evs, Umpire))
	}
	j := unitAt(t, s, "J01")
	if j.OnMap() || a.Steps != 1 || b.Steps != 4 || s.Casualties != 3 {
		t.Errorf("J01 %s, 1/17-A %d steps, 1/17-B %d, casualties %d\n%s", j.Hex, a.Steps, b.Steps, s.Casualties, eventsText(evs, Umpire))
	}
	if a.Hex != 2717 || b.Hex != 2717 {
		t.Errorf("advance: 1/17-A in %s, 1/17-B in %s", a.Hex, b.Hex)
	}
	wantEvent(t, evs, "1/17-B rolls 8, 5, 4, 4, 2, 1 (-1: 7, 4, 3, 3, 1, 0): 1 hit")
	wantEvent(t, evs, "U.S. attackers take 2717")
}
