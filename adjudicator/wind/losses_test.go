package wind

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// hitState places units (face up unless listed in down) and returns the
// state; Japanese infantry not placed stay unused.
func hitState(t *testing.T, at map[string]Hex, down ...string) *State {
	t.Helper()
	s := NewState(nil, nil)
	s.Weather = Cloudy
	for id, h := range at {
		if err := s.Place(id, h, ""); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range down {
		s.mustUnit(t, id).FaceDown = true
	}
	return s
}

func (s *State) mustUnit(t *testing.T, id string) *Unit {
	t.Helper()
	u, ok := s.Unit(id)
	if !ok {
		t.Fatalf("no unit %s", id)
	}
	return u
}

func (s *State) units(t *testing.T, ids ...string) []*Unit {
	t.Helper()
	var out []*Unit
	for _, id := range ids {
		out = append(out, s.mustUnit(t, id))
	}
	return out
}

func wantUnit(t *testing.T, s *State, id string, h Hex, box string, steps int) {
	t.Helper()
	u := s.mustUnit(t, id)
	if u.Hex != h || u.Box != box || u.Steps != steps {
		t.Errorf("%s: hex %s box %q steps %d, want hex %s box %q steps %d", id, u.Hex, u.Box, u.Steps, h, box, steps)
	}
}

func eventsText(evs []Event, side Side) string {
	var b strings.Builder
	for _, e := range VisibleEvents(evs, side) {
		b.WriteString(eventText(e))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestApplyHitsUSSpread(t *testing.T) {
	s := hitState(t, map[string]Hex{"1/17-A": 2618, "1/17-B": 2618, "13E-A": 2618})
	s.mustUnit(t, "1/17-B").Steps = 2
	evs := s.applyHits(s.units(t, "1/17-A", "1/17-B", "13E-A"), 4, HitOptions{Cause: Cause{Kind: CauseMelee, Hex: 2618}})
	// Spread: A goes 4, 3, 2; then all three have 2 and the tie goes in
	// counter order to A, then B has the most.
	wantUnit(t, s, "1/17-A", 2618, "", 1)
	wantUnit(t, s, "1/17-B", 2618, "", 1)
	wantUnit(t, s, "13E-A", 2618, "", 2)
	if s.Casualties != 4 {
		t.Errorf("casualties %d, want 4", s.Casualties)
	}
	if !strings.Contains(eventsText(evs, JP), "melee at 2618: 1/17-A in 2618 loses a step, 3 steps left") {
		t.Errorf("events:\n%s", eventsText(evs, JP))
	}
}

func TestApplyHitsUSConcentrateAndOrder(t *testing.T) {
	s := hitState(t, map[string]Hex{"1/17-A": 2618, "1/17-B": 2618, "7RCN": 2618})
	s.StandingUS = Standing{Losses: LossesConcentrate, LossOrder: []string{"7RCN"}}
	s.mustUnit(t, "1/17-B").Steps = 3
	s.applyHits(s.units(t, "1/17-A", "1/17-B", "7RCN"), 6, HitOptions{})
	// 7RCN first (4 steps, eliminated), then the weakest, 1/17-B: 2 hits.
	wantUnit(t, s, "7RCN", 0, BoxEliminated, 1)
	wantUnit(t, s, "1/17-B", 2618, "", 1)
	wantUnit(t, s, "1/17-A", 2618, "", 4)
	if s.Casualties != 2 {
		t.Errorf("casualties %d, want 2: recon losses are not counted (8.4)", s.Casualties)
	}
}

func TestApplyHitsUSEliminatedAndExcess(t *testing.T) {
	s := hitState(t, map[string]Hex{"IND1": 2618, "105-1": 2618})
	evs := s.applyHits(s.units(t, "IND1", "105-1"), 5, HitOptions{Melee: true})
	wantUnit(t, s, "IND1", 0, BoxEliminated, 1)
	wantUnit(t, s, "105-1", 0, BoxSetAsidePrefix+"2618", 1)
	if s.Casualties != 1 {
		t.Errorf("casualties %d, want 1 (the independent infantry)", s.Casualties)
	}
	if txt := eventsText(evs, US); !strings.Contains(txt, "2 hits on 2618 have no effect") || !strings.Contains(txt, "set aside") {
		t.Errorf("events:\n%s", txt)
	}
}

func TestApplyHitsJPLastInfantryRanged(t *testing.T) {
	s := hitState(t, map[string]Hex{"J01": 2717, "J02": 2717, "20MM1": 2717})
	evs := s.applyHits(s.units(t, "J01", "J02", "20MM1"), 3, HitOptions{Ranged: true})
	// J01 first (counter order), then the artillery; J02 is the last
	// infantry: the third hit is lost.
	wantUnit(t, s, "J01", 0, BoxEliminated, 1)
	wantUnit(t, s, "20MM1", 0, BoxEliminated, 1)
	wantUnit(t, s, "J02", 2717, "", 1)
	if txt := eventsText(evs, US); !strings.Contains(txt, "1 hit on 2717 has no effect") {
		t.Errorf("events:\n%s", txt)
	}
	// The owner cannot soak hits on the protected unit while another could
	// take them.
	s = hitState(t, map[string]Hex{"J01": 2717, "20MM1": 2717})
	s.StandingJP = Standing{LossOrder: []string{"J01"}}
	s.applyHits(s.units(t, "J01", "20MM1"), 1, HitOptions{Ranged: true})
	wantUnit(t, s, "20MM1", 0, BoxEliminated, 1)
	// In melee the last infantry unit dies like any other.
	s = hitState(t, map[string]Hex{"J01": 2717})
	s.applyHits(s.units(t, "J01"), 1, HitOptions{Melee: true})
	wantUnit(t, s, "J01", 0, BoxEliminated, 1)
}

func TestApplyHitsUnknownRanged(t *testing.T) {
	s := hitState(t, map[string]Hex{"U01": 2717, "U02": 2717, "J05": 2717}, "U01", "U02", "J05")
	before := usSecrets(s)
	evs := s.applyHits(s.units(t, "J05", "U01", "U02"), 3, HitOptions{Ranged: true, Cause: Cause{Kind: CauseFire, Hex: 2717}})
	// One Unknown unit melts away (the first in counter order); J05 is the
	// last infantry; the other hits are lost.
	wantUnit(t, s, "U01", 0, BoxOffMap, 1)
	wantUnit(t, s, "U02", 2717, "", 1)
	wantUnit(t, s, "J05", 2717, "", 1)
	us := eventsText(evs, US)
	if l := leaks([]byte(us), append(before, usSecrets(s)...)); len(l) > 0 {
		t.Errorf("U.S. events leak %v:\n%s", l, us)
	}
	if !strings.Contains(us, "a hidden Japanese counter in 2717 is removed") || !strings.Contains(us, "2 hits on 2717 have no effect") {
		t.Errorf("U.S. events:\n%s", us)
	}
	if jp := eventsText(evs, JP); !strings.Contains(jp, "U01 in 2717 is hit and melts away") {
		t.Errorf("Japanese events:\n%s", jp)
	}
	// A face-down infantry unit eliminated reads the same to the U.S.
	s = hitState(t, map[string]Hex{"J05": 2717, "J06": 2717}, "J05", "J06")
	before = usSecrets(s)
	evs = s.applyHits(s.units(t, "J05", "J06"), 1, HitOptions{Ranged: true})
	wantUnit(t, s, "J05", 0, BoxEliminated, 1)
	if us2 := eventsText(evs, US); us2 != "a hidden Japanese counter in 2717 is removed\n" {
		t.Errorf("U.S. events:\n%s", us2)
	}
	if l := leaks([]byte(eventsText(evs, US)), before); len(l) > 0 {
		t.Errorf("leak %v", l)
	}
}

func TestApplyHitsUnknownMelee(t *testing.T) {
	s := hitState(t, map[string]Hex{"U01": 2717}, "U01")
	for _, id := range []string{"J10", "J11", "J12"} {
		s.mustUnit(t, id).Box = BoxPool
	}
	// U01's table gives 3 for a die of 4. The draws: a 1 picks index 1 of
	// three (J11), a 1 index 1 of two (J12), and the last one needs no die.
	// The hit then falls on J10, first in counter order.
	d := &ForcedDice{Values: []int{4, 1, 1}}
	evs := s.applyHits(s.units(t, "U01"), 1, HitOptions{Melee: true, Dice: d})
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	wantUnit(t, s, "U01", 0, BoxOffMap, 1)
	on, pool, elim := s.PoolCounts()
	if on != 2 || pool != 0 || elim != 1 {
		t.Errorf("pool counts %d %d %d, want 2 0 1\n%s", on, pool, elim, eventsText(evs, Umpire))
	}
}

// TestApplyHitsAccounts checks over generated positions that every hit is
// either taken (one step, or one counter for the Japanese) or said to be
// lost, that the casualty track moves by the U.S. infantry steps lost and by
// nothing else, and that ranged hits never take the last Japanese infantry
// unit of a hex nor more than one Unknown unit.
func TestApplyHitsAccounts(t *testing.T) {
	for seed := range int64(200) {
		r := rand.New(rand.NewSource(seed))
		s := randomState(r)
		hexes, by := s.Occupants()
		h := hexes[r.Intn(len(hexes))]
		units := by[h]
		hits := 1 + r.Intn(6)
		o := HitOptions{Ranged: r.Intn(2) == 0}
		o.Melee = !o.Ranged
		if o.Melee {
			o.Dice = combatDice{r}
		}
		inf := 0
		for _, u := range units {
			if u.Side() == JP && u.Kind() == Infantry {
				inf++
			}
		}
		stepsBefore, usInfBefore := 0, 0
		for _, u := range units {
			stepsBefore += u.Steps
			if u.Side() == US && u.Kind() == Infantry {
				usInfBefore += u.Steps
			}
		}
		cas := s.Casualties
		evs := s.applyHits(units, hits, o)

		lost := 0
		for _, e := range evs {
			var n int
			if _, err := fmt.Sscanf(eventText(e), "%d hit", &n); err == nil && strings.Contains(eventText(e), "no effect") {
				lost += n
			}
		}
		taken, usInfAfter, stepsAfter := 0, 0, 0
		for _, u := range s.UnitsAt(h) {
			stepsAfter += u.Steps
			if u.Side() == US && u.Kind() == Infantry {
				usInfAfter += u.Steps
			}
		}
		if units[0].Side() == US {
			taken = stepsBefore - stepsAfter
			if got := s.Casualties - cas; got != usInfBefore-usInfAfter {
				t.Fatalf("seed %d: casualty track moved %d for %d infantry steps", seed, got, usInfBefore-usInfAfter)
			}
		} else {
			if o.Melee {
				continue // Unknown units converted: counters changed
			}
			gone, unkGone, infLeft := 0, 0, 0
			for _, u := range units {
				if !u.OnMap() {
					gone++
					if u.Kind() == Unknown {
						unkGone++
					}
				} else if u.Kind() == Infantry {
					infLeft++
				}
			}
			taken = gone
			if unkGone > 1 {
				t.Fatalf("seed %d: %d Unknown units removed by one attack", seed, unkGone)
			}
			if inf > 0 && infLeft == 0 {
				t.Fatalf("seed %d: ranged hits took the last infantry unit of %s", seed, h)
			}
			if s.Casualties != cas {
				t.Fatalf("seed %d: Japanese losses moved the casualty track", seed)
			}
		}
		if taken+lost != hits {
			t.Fatalf("seed %d: %d hits on %s: %d taken, %d lost\n%s", seed, hits, h, taken, lost, eventsText(evs, Umpire))
		}
	}
}
