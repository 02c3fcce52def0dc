package wind

import "testing"

func TestActionsFile(t *testing.T) {
	s := position(t, map[string]Hex{"1/17-A": 2821})
	cases := []struct {
		name string
		o    Orders
		want string
	}{
		{"umpire", Orders{Side: Umpire, Actions: []Action{mv("1/17-A", 2720)}}, "not umpire"},
		{"wait", Orders{Side: US, Wait: "refit", Actions: []Action{mv("1/17-A", 2720)}}, "these are refit orders"},
		{"turn", Orders{Side: US, Turn: 2, Actions: []Action{mv("1/17-A", 2720)}}, "for turn 2, but the game is in turn 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantProblem(t, refused(t, s, c.o), -1, -1, c.want)
		})
	}
	// Turn and wait may be left to the caller.
	resolveOK(t, s, Orders{Side: US, Actions: []Action{mv("1/17-A", 2720)}})
	// An empty file does nothing.
	out, events := resolveOK(t, s, actions(US))
	if out == nil || len(events) != 0 {
		t.Errorf("empty file: %v %v", out, events)
	}
}

func TestActionKinds(t *testing.T) {
	s := position(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	p := refused(t, s, actions(US,
		Action{},
		Action{Move: &Move{Unit: "1/17-A", Path: []Hex{2720}}, Fire: &Fire{Units: []string{"1/17-A"}, Target: 2717}},
		Action{Fire: &Fire{Units: []string{"1/17-A"}, Target: 2717}},
	))
	wantProblem(t, p, 0, -1, "exactly one of move, fire, melee, air or yamasaki")
	wantProblem(t, p, 1, -1, "exactly one of move, fire, melee, air or yamasaki")
	wantProblem(t, p, 2, -1, "2717 is 4 hexes away, range 2")
}

// Activations are judged in the position the earlier ones leave (3.5).
func TestActionsInOrder(t *testing.T) {
	s := position(t, map[string]Hex{"1/17-A": 2618, "2/17-E": 2618, "3/17-I": 2619})
	// 2/17-E makes room, then 3/17-I comes in.
	out, events := resolveOK(t, s, actions(US, mv("2/17-E", 2518), mv("3/17-I", 2618)))
	wantAt(t, out, "3/17-I", 2618, 1)
	if len(events) != 2 || events[0].Units[0].ID != "2/17-E" || events[1].Units[0].ID != "3/17-I" {
		t.Errorf("events %v", events)
	}
	// The other way round 3/17-I would over-stack.
	p := refused(t, s, actions(US, mv("3/17-I", 2618), mv("2/17-E", 2518)))
	wantProblem(t, p, 0, 0, "3/17-I would over-stack 2618")
	if len(p) != 1 {
		t.Errorf("problems %v, want one", p)
	}
}
