package wind

import (
	"strings"
	"testing"
)

func poolOf(t *testing.T, s *State, ids ...string) {
	t.Helper()
	for _, id := range ids {
		u := s.mustUnit(t, id)
		u.Hex, u.Box = 0, BoxPool
	}
}

func TestRevealUnknownsOneRollMostTable(t *testing.T) {
	s := hitState(t, map[string]Hex{"U02": 2717, "U09": 2717, "U06": 2717}, "U02", "U09", "U06")
	poolOf(t, s, "J20", "J21", "J22", "J23", "J24")
	// U09 has the richest table (sum 25); a die of 6 gives 3. The pool of
	// five: a 7 picks index 2 (J22); of four a 10 (read 0) picks J20; of
	// three a 9 is rejected (limit 9) and a 5 picks index 2 of J21, J23,
	// J24: J24.
	d := &ForcedDice{Values: []int{6, 7, 10, 9, 5}}
	placed, evs := s.revealUnknowns(2717, d)
	if d.Err != nil || d.Unused() != 0 {
		t.Fatalf("dice: %v, %d unused", d.Err, d.Unused())
	}
	var ids []string
	for _, u := range placed {
		ids = append(ids, u.ID)
		if u.Hex != 2717 || u.FaceDown {
			t.Errorf("%s: %s face-down %v", u.ID, u.Hex, u.FaceDown)
		}
	}
	if strings.Join(ids, " ") != "J22 J20 J24" {
		t.Errorf("placed %v", ids)
	}
	if d.Log[0].Unit != "" {
		t.Errorf("the table die names %s", d.Log[0].Unit)
	}
	for _, id := range []string{"U02", "U09", "U06"} {
		wantUnit(t, s, id, 0, BoxOffMap, 1)
	}
	us := eventsText(evs, US)
	// The units placed are public now; everything else hidden stays so.
	if l := leaks([]byte(us), usSecrets(s)); len(l) > 0 {
		t.Errorf("U.S. events leak %v:\n%s", l, us)
	}
	if us != "3 hidden Japanese counters in 2717 are revealed: in their place stand J22, J20 and J24, face up (rule 2.5)\n" {
		t.Errorf("U.S. events:\n%s", us)
	}
	if jp := eventsText(evs, JP); !strings.Contains(jp, "on U09's table the die 6 gives 3") {
		t.Errorf("Japanese events:\n%s", jp)
	}
}

func TestRevealUnknownsStandingAndLimits(t *testing.T) {
	// The standing instruction names U06; the hex already holds two
	// infantry units (one face down), so only one more fits.
	s := hitState(t, map[string]Hex{"U01": 2717, "U06": 2717, "J01": 2717, "J02": 2717}, "U01", "U06", "J02")
	s.StandingJP = Standing{UnknownTableAt: map[Hex]string{2717: "U06"}}
	poolOf(t, s, "J30", "J31")
	d := &ForcedDice{Values: []int{10, 2}} // U06: 2 for a 0; draw index 0 of 2 with a 2
	placed, evs := s.revealUnknowns(2717, d)
	if len(placed) != 1 || placed[0].ID != "J30" {
		t.Fatalf("placed %v\n%s", placed, eventsText(evs, Umpire))
	}
	if jp := eventsText(evs, JP); !strings.Contains(jp, "three infantry or artillery units at most") {
		t.Errorf("Japanese events:\n%s", jp)
	}
	// Fewest, and a pool that runs short.
	s = hitState(t, map[string]Hex{"U01": 2717, "U06": 2717}, "U01", "U06")
	s.StandingJP = Standing{UnknownTable: TableFewest}
	poolOf(t, s, "J40")
	d = &ForcedDice{Values: []int{10}}
	placed, evs = s.revealUnknowns(2717, d)
	if len(placed) != 1 || d.Unused() != 0 {
		t.Fatalf("placed %v, dice %v", placed, d.Log)
	}
	if jp := eventsText(evs, JP); !strings.Contains(jp, "the pool has no more infantry") || !strings.Contains(jp, "U06's table") {
		t.Errorf("Japanese events:\n%s", jp)
	}
	// Nothing to reveal: no dice.
	if p, e := s.revealUnknowns(2717, nil); p != nil || e != nil {
		t.Errorf("reveal with no Unknown units: %v %v", p, e)
	}
}

// The draw is uniform: every index below n comes out equally often over
// all the dice sequences of the accepted length.
func TestDrawIndexUniform(t *testing.T) {
	for _, n := range []int{2, 3, 7, 10, 11, 64} {
		counts := make([]int, n)
		digits := 1
		if n > 10 {
			digits = 2
		}
		total := 1
		for range digits {
			total *= 10
		}
		for v := range total {
			var vals []int
			x := v
			for range digits {
				vals = append([]int{x % 10}, vals...)
				x /= 10
			}
			for i := range vals {
				if vals[i] == 0 {
					vals[i] = 10
				}
			}
			d := &ForcedDice{Values: vals}
			i := drawIndex(n, d, 0)
			if len(d.Log) > digits {
				continue // rejected
			}
			counts[i]++
		}
		for i, c := range counts {
			if c != counts[0] {
				t.Fatalf("n=%d: index %d drawn %d times, index 0 %d times", n, i, c, counts[0])
			}
		}
	}
}
