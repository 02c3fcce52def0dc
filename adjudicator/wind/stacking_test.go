package wind

import "testing"

// withSteps sets units' steps, for reduced companies.
func withSteps(t *testing.T, s *State, steps map[string]int) *State {
	t.Helper()
	for id, n := range steps {
		unitAt(t, s, id).Steps = n
	}
	return s
}

// Rule 4.1: 12 steps of one battalion.
func TestStackingOneBattalion(t *testing.T) {
	s := position(t, map[string]Hex{"1/17-A": 2618, "1/17-B": 2618, "1/17-C": 2619, "1/17-D": 2619})
	s2, _ := resolveOK(t, s, actions(US, mv("1/17-C", 2618)))
	if got := s2.StackingProblem(2618, US); got != "" {
		t.Errorf("12 steps of 1/17: %q", got)
	}
	p := refused(t, s, actions(US, mv("1/17-C", 2618), mv("1/17-D", 2618)))
	wantProblem(t, p, 1, 0, "1/17-D would over-stack 2618: 16 steps of 1/17 (limit 12 for one battalion")
	if len(p) != 1 {
		t.Errorf("problems %v, want only 1/17-D's", p)
	}
}

// Rule 4.1: 8 steps when battalions mix; steps count, not units.
func TestStackingMixed(t *testing.T) {
	s := position(t, map[string]Hex{"1/17-A": 2618, "2/17-E": 2619, "IND1": 2619, "3/17-I": 2719})
	s2, _ := resolveOK(t, s, actions(US, mv("2/17-E", 2618)))
	if got := s2.StackingProblem(2618, US); got != "" {
		t.Errorf("8 mixed steps: %q", got)
	}
	p := refused(t, s, actions(US, mv("2/17-E", 2618), mv("IND1", 2618)))
	wantProblem(t, p, 1, 0, "IND1 would over-stack 2618: 9 steps of 1/17, 2/17 and independent units (limit 8 for mixed battalions")

	// Three reduced companies of three battalions make 8.
	s = withSteps(t, position(t, map[string]Hex{"1/17-A": 2618, "2/17-E": 2618, "3/17-I": 2619}), map[string]int{"1/17-A": 2, "2/17-E": 2})
	resolveOK(t, s, actions(US, mv("3/17-I", 2618)))

	// Stacking holds in every hex entered: 3/17-I may not pass through a
	// full hex even though it ends elsewhere.
	s = position(t, map[string]Hex{"1/17-A": 2720, "2/17-E": 2720, "3/17-I": 2821})
	p = refused(t, s, actions(US, mv("3/17-I", 2720, 2719)))
	wantProblem(t, p, 0, 0, "3/17-I would over-stack 2720: 12 steps of 1/17, 2/17 and 3/17 (limit 8 for mixed battalions")
}

// Rule 4.1: independent units count as part of every battalion.
func TestStackingIndependents(t *testing.T) {
	s := position(t, map[string]Hex{
		"1/17-A": 2618, "1/17-B": 2618, "IND1": 2618, "IND2": 2618, "IND3": 2618,
		"IND4": 2619, "IND5": 2619,
	})
	s2, _ := resolveOK(t, s, actions(US, mv("IND4", 2618)))
	if got := s2.StackingProblem(2618, US); got != "" {
		t.Errorf("8 steps of 1/17 and 4 independents: %q", got)
	}
	p := refused(t, s, actions(US, mv("IND4", 2618), mv("IND5", 2618)))
	wantProblem(t, p, 1, 0, "IND5 would over-stack 2618: 13 steps of 1/17 and independent units (limit 12 for one battalion")
}

// Rule 9.2.1: in a landing zone its capacity replaces the limits of 4.1.
func TestStackingLandingZone(t *testing.T) {
	// Zone D (2821) holds 12: three battalions may share it.
	s := position(t, map[string]Hex{"1/17-A": 2821, "2/17-E": 2821, "3/17-I": 2720, "IND1": 2820})
	s2, _ := resolveOK(t, s, actions(US, mv("3/17-I", 2821)))
	if got := s2.StackingProblem(2821, US); got != "" {
		t.Errorf("12 steps in zone D: %q", got)
	}
	p := refused(t, s, actions(US, mv("3/17-I", 2821), mv("IND1", 2821)))
	wantProblem(t, p, 1, 0, "IND1 would over-stack 2821: 13 U.S. steps (landing zone D holds 12")

	// Zone F (3122) holds 15, more than one battalion could elsewhere.
	s = position(t, map[string]Hex{"1/17-A": 3122, "1/17-B": 3122, "1/17-C": 3122, "IND1": 3122, "IND2": 3122, "IND3": 3121})
	resolveOK(t, s, actions(US, mv("IND3", 3122)))
}

// Rule 4.2: three infantry or artillery units, Unknown units free.
func TestStackingJapanese(t *testing.T) {
	s := position(t, map[string]Hex{
		"J01": 2316, "J02": 2316, "J03": 2316, "U01": 2316, "U02": 2316,
		"J04": 2317, "U03": 2317, "20MM1": 2317,
	})
	resolveOK(t, s, actions(JP, mv("U03", 2316)))
	p := refused(t, s, actions(JP, mv("J04", 2316), mv("20MM1", 2316)))
	wantProblem(t, p, 0, 0, "J04 would over-stack 2316: 4 Japanese infantry and artillery units (limit 3 besides Unknown units")
	wantProblem(t, p, 1, 0, "20MM1 would over-stack 2316: 4 Japanese infantry and artillery units")
}

func TestStackingProblem(t *testing.T) {
	s := withSteps(t, position(t, map[string]Hex{"1/17-A": 2618, "1/17-B": 2618, "2/17-E": 2618, "J01": 2316}), map[string]int{"2/17-E": 2})
	if got, want := s.StackingProblem(2618, US), "2618 holds 10 steps of 1/17 and 2/17 (limit 8 for mixed battalions, rule 4.1)"; got != want {
		t.Errorf("StackingProblem = %q, want %q", got, want)
	}
	if got := s.StackingProblem(2618, JP); got != "" {
		t.Errorf("Japanese in a U.S. hex: %q", got)
	}
	if got := s.StackingProblem(2316, JP); got != "" {
		t.Errorf("one platoon: %q", got)
	}
	// Refit asks before restoring steps (9.1): 1/17-B back to 4 is fine
	// alone, not next to 2/17-E.
	b := unitAt(t, s, "1/17-B")
	if got, want := s.StackingProblemWith(2618, b, 2), "2618 would hold 8 steps of 1/17 and 2/17 (limit 8 for mixed battalions, rule 4.1)"; got != "" {
		t.Errorf("StackingProblemWith 2 steps = %q, want \"\" (not %q)", got, want)
	}
	if got, want := s.StackingProblemWith(2618, b, 3), "2618 would hold 9 steps of 1/17 and 2/17 (limit 8 for mixed battalions, rule 4.1)"; got != want {
		t.Errorf("StackingProblemWith 3 steps = %q, want %q", got, want)
	}
}
