package wind

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
		if strings.Contains(eventText(e), sub) {
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
	evs := s.resolveMelee(d)
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

func TestDeclareMelee(t *testing.T) {
	s := position(t, map[string]Hex{"J01": 2717, "J02": 2716, "1/17-A": 2618, "1/17-B": 2618, "105-1": 2618, "2/17-E": 2817})
	decl := func(target Hex, ids ...string) Action { return Action{Melee: &Melee{Units: ids, Target: target}} }
	out, evs := resolveOK(t, s, actions(US, decl(2717, "1/17-A")))
	if u := unitAt(t, out, "1/17-A"); u.Melee != 2717 || !u.Acted {
		t.Errorf("1/17-A: melee %s acted %v", u.Melee, u.Acted)
	}
	wantEvent(t, evs, "1/17-A in 2618 declares melee against 2717")
	for _, c := range []struct {
		o    Orders
		want string
	}{
		{actions(US, decl(2717, "105-1")), "artillery may not declare melee"},
		{actions(US, decl(2717, "2/17-E")), "cliff between 2817 and 2717"},
		{actions(US, decl(2716, "1/17-A")), "2716 is not next to 2618"},
		{actions(US, decl(2619, "1/17-A")), "holds no enemy unit"},
		{actions(US, decl(2717, "1/17-A", "2/17-E")), "come from one hex"},
		{actions(US, decl(2717, "1/17-A"), decl(2717, "1/17-A")), "already acted"},
		{actions(JP, decl(2618, "J01"), Action{Melee: &Melee{Units: []string{"J01"}, Target: 2617}}), "already acted"},
	} {
		wantProblem(t, refused(t, s, c.o), len(c.o.Actions)-1, -1, c.want)
	}
	// A second declaration from the same hex names the same target.
	s2 := position(t, map[string]Hex{"J01": 2717, "J02": 2617, "1/17-A": 2618, "1/17-B": 2618})
	wantProblem(t, refused(t, s2, actions(US, decl(2717, "1/17-A"), decl(2617, "1/17-B"))), 1, -1, "attack the same hex")
	resolveOK(t, s2, actions(US, decl(2717, "1/17-A"), decl(2717, "1/17-B")))
	// The U.S. reads no id of face-down declaring units.
	_, evs = resolveOK(t, s2, actions(JP, decl(2618, "J01")))
	if got := eventsText(evs, US); strings.Contains(got, "J01") || !strings.Contains(got, "a Japanese counter in 2717 declares melee against 2618") {
		t.Errorf("U.S. reads %q", got)
	}
}

func TestYamasaki(t *testing.T) {
	s := position(t, map[string]Hex{"J01": 2717, "1/17-A": 2618})
	unitAt(t, s, "1/17-A").Steps = 1
	y := Action{Yamasaki: &Yamasaki{Hex: 2717, Moves: []Move{{Unit: "J01", Path: []Hex{2618, 2619}}}}}
	out, evs, problems := ResolveActions(s, actions(JP, y), &ForcedDice{Values: []int{10, 1, 1}})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	j := unitAt(t, out, "J01")
	if j.Hex != 2619 || !out.Heroes.Yamasaki || unitAt(t, out, "1/17-A").OnMap() {
		t.Errorf("J01 in %s, heroes %+v\n%s", j.Hex, out.Heroes, eventsText(evs, Umpire))
	}
	wantEvent(t, evs, "Colonel Yamasaki leads")
	// Once a game.
	wantProblem(t, refused(t, out, actions(JP, y)), 0, -1, "already led")
	// Five steps of infantry left: too many.
	for _, id := range []string{"J10", "J11", "J12", "J13", "J14"} {
		unitAt(t, s, id).Box = BoxPool
	}
	wantProblem(t, refused(t, s, actions(JP, y)), 0, -1, "still have 6 steps of infantry")
}

// An activation that asks for a move and a melee at once is refused as a
// whole: the unit does one thing per turn (rule 3.5).
func TestMeleeActivationIsOneThing(t *testing.T) {
	s := position(t, map[string]Hex{"J01": 2717, "1/17-A": 2618})
	two := Action{Move: &Move{Unit: "1/17-A", Path: []Hex{2619}}, Melee: &Melee{Units: []string{"1/17-A"}, Target: 2717}}
	wantProblem(t, refused(t, s, actions(US, two)), 0, -1, "exactly one of move, fire, melee, air or yamasaki")
	y := Action{Melee: &Melee{Units: []string{"J01"}, Target: 2618}, Yamasaki: &Yamasaki{Hex: 2717}}
	wantProblem(t, refused(t, s, actions(JP, y)), 0, -1, "exactly one of")
}
