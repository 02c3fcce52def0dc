package wind

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
)

// meleeSeeds is how many generated positions the melee property test fights.
const meleeSeeds = 400

// randDice rolls ten-sided dice from a seeded source, so that a failing seed
// replays exactly.
type randDice struct{ r *rand.Rand }

func (d randDice) Roll(Die) int { return 1 + d.r.Intn(10) }

// declareRandomMelees has each side, the U.S. first, declare melee from
// some of its hexes next to enemy units (rule 8.2): a random non-empty set
// of the units there that may declare, against one enemy hex they could
// move into. Every declaration is legal by construction; t fails if the
// adjudicator refuses one. It returns the declarations' events.
func declareRandomMelees(t *testing.T, s *State, r *rand.Rand, seed int64) []Event {
	t.Helper()
	m := s.Map()
	var events []Event
	for _, side := range []Side{US, JP} {
		hexes, by := s.Occupants()
		for _, h := range hexes {
			if by[h][0].Side() != side || r.Intn(5) == 0 {
				continue
			}
			var targets []Hex
			for _, n := range h.Neighbours() {
				if m.Land(n) && !m.Cliff(h, n) && s.holdsSide(n, side.Enemy()) {
					targets = append(targets, n)
				}
			}
			var ids []string
			for _, u := range by[h] {
				if u.Side() == side && !u.Acted && canDeclareMelee(u) && (len(ids) == 0 || r.Intn(3) > 0) {
					ids = append(ids, u.ID)
				}
			}
			if len(targets) == 0 || len(ids) == 0 {
				continue
			}
			evs, problems := s.declareMelee(&Melee{Units: ids, Target: targets[r.Intn(len(targets))]}, side)
			if len(problems) > 0 {
				t.Fatalf("seed %d: %s %v from %s refused: %v", seed, side, ids, h, problems)
			}
			events = append(events, evs...)
		}
	}
	return events
}

// randomStanding varies the instructions the melee step follows, so that
// retreats, advances, loss orders and the heroes all come up.
func randomStanding(s *State, r *rand.Rand) {
	pick := func(vs ...string) string { return vs[r.Intn(len(vs))] }
	us := &s.StandingUS
	us.Losses = pick(LossesSpread, LossesConcentrate)
	us.Retreat = pick(RetreatNever, RetreatAlways, RetreatIfLosing, RetreatBelowPrefix+"3")
	us.Advance = pick(AdvanceAll, AdvanceNone, AdvanceStrongest)
	us.Martinez = pick(HeroAuto, HeroNever)
	us.Arnold = pick(HeroAuto, HeroNever)
	us.MeleePick = pick(PickStrongest, PickListed)
	jp := &s.StandingJP
	jp.Losses = pick(LossesSpread, LossesConcentrate)
	jp.Advance = pick(AdvanceAll, AdvanceNone, AdvanceStrongest)
	jp.UnknownTable = pick(TableMost, TableFewest)
	jp.MeleePick = pick(PickStrongest, PickListed)
	s.Heroes = Heroes{Martinez: r.Intn(3) == 0, Arnold: r.Intn(3) == 0}
}

// meleeBefore is what the property test remembers of a unit before the
// melee step.
type meleeBefore struct {
	hex   Hex
	box   string
	steps int
}

// onMapSteps is a unit's steps on the map: none once it has left it.
func (b meleeBefore) onMapSteps() int {
	if b.hex == 0 {
		return 0
	}
	return b.steps
}

// TestMeleeKeepsSecretsAndInvariants fights random melees in many generated
// positions and checks that the U.S. reads nothing the rules keep from it,
// and that the position stays sound.
//
// What the U.S. may learn from a melee step (rule 2.5): the identity of
// every Japanese unit that fought (all are turned face up when the melee
// begins) and of every infantry unit an Unknown unit turned into (placed
// face up, from the pool). Everything else the U.S. could not see before
// must stay unseen: face-down units that did not fight (hit as the others
// of an attackers' hex, or eliminated when left alone), Unknown units and
// their tables, the pool. The secrets are taken before the declarations and
// only what the melee made public is taken out of them.
//
// After the step: no unit is both on the map and in a box, and none is left
// set aside or face down off the map; steps are within the counter's; no hex holds both sides; the
// Japanese stack at most three infantry and artillery units (4.2) and no
// U.S. stack became illegal (4.1); the 64 Japanese infantry units are all
// on the map, in the pool or eliminated (2.5, 8.5); and the casualty track
// moved by exactly the U.S. infantry steps lost (8.4).
func TestMeleeKeepsSecretsAndInvariants(t *testing.T) {
	var melees, fought, revealed, hidden, retreats, advances int
	for seed := range int64(meleeSeeds) {
		r := rand.New(rand.NewSource(seed))
		s := randomState(r)
		randomStanding(s, r)
		fail := func(format string, a ...any) {
			t.Helper()
			t.Fatalf("seed %d: "+format, append([]any{seed}, a...)...)
		}

		secrets := usSecrets(s)
		before := map[*Unit]meleeBefore{}
		for _, u := range s.Units {
			before[u] = meleeBefore{u.Hex, u.Box, u.Steps}
		}
		usBad := map[Hex]bool{}
		for _, h := range s.Map().LandHexes() {
			usBad[h] = s.StackingProblem(h, US) != ""
		}
		_, _, elim0 := s.PoolCounts()
		casualties := s.Casualties

		evs := declareRandomMelees(t, s, r, seed)
		evs = append(evs, s.resolveMelee(randDice{r})...)

		// What the melee made public.
		public := map[string]bool{}
		for _, u := range s.Units {
			if u.Side() != JP || u.Kind() == Unknown {
				continue
			}
			fromPool := before[u].box == BoxPool && u.Box != BoxPool
			if u.Fought {
				fought++
			}
			if fromPool {
				revealed++
			}
			if u.Fought || fromPool || u.OnMap() && !u.FaceDown {
				public[u.ID] = true
			}
		}
		var keep []string
		for _, sec := range secrets {
			if !public[sec] {
				keep = append(keep, sec)
			}
		}
		seen := VisibleEvents(evs, US)
		for _, e := range seen {
			b, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			// The words the U.S. reads, and the event they come from.
			if found := leaks(append(b, eventText(e)...), keep); len(found) > 0 {
				fail("the U.S. reads %q, which gives away %v\nall events:\n%s", eventText(e), found, eventsText(evs, Umpire))
			}
		}
		for _, e := range evs {
			switch {
			case e.Kind == EventMeleePicked:
				melees++
			case e.Kind == EventRetreat:
				retreats++
			case e.Kind == EventAdvance:
				advances++
			case e.Seen.US == SightAnonymous && strings.Contains(usText(e), "hidden Japanese counter"):
				hidden++
			}
		}

		// Invariants.
		hexes, by := s.Occupants()
		for _, h := range hexes {
			side := by[h][0].Side()
			jp := 0
			for _, u := range by[h] {
				if u.Side() != side {
					fail("%s holds both sides after the melee step\n%s", h, eventsText(evs, Umpire))
				}
				if u.Side() == JP && u.Kind() != Unknown {
					jp++
				}
			}
			if jp > StackJapanese {
				fail("%s holds %d Japanese infantry and artillery units\n%s", h, jp, eventsText(evs, Umpire))
			}
			if why := s.StackingProblem(h, US); why != "" && !usBad[h] {
				fail("%s\n%s", why, eventsText(evs, Umpire))
			}
		}
		lost := 0
		for _, u := range s.Units {
			switch {
			case u.OnMap() && u.Box != "":
				fail("%s is in %s and in box %q", u.ID, u.Hex, u.Box)
			case !u.OnMap() && u.Box == "":
				fail("%s is nowhere", u.ID)
			case strings.HasPrefix(u.Box, BoxSetAsidePrefix):
				fail("%s is still set aside after the melee step\n%s", u.ID, eventsText(evs, Umpire))
			case u.Steps < 1 || u.Steps > u.Counter().MaxSteps():
				fail("%s has %d steps", u.ID, u.Steps)
			case u.Melee != 0:
				fail("%s still holds a melee declaration against %s", u.ID, u.Melee)
			}
			if u.Kind() == Unknown && u.OnMap() && !u.FaceDown {
				fail("Unknown unit %s is face up on the map", u.ID)
			}
			if !u.OnMap() && u.FaceDown {
				fail("%s is face down in box %q", u.ID, u.Box)
			}
			if u.Side() == US && u.Kind() == Infantry {
				steps := 0
				if u.OnMap() {
					steps = u.Steps
				}
				lost += before[u].onMapSteps() - steps
			}
		}
		onMap, pool, elim := s.PoolCounts()
		if onMap+pool+elim != 64 {
			fail("Japanese infantry: %d on the map, %d in the pool, %d eliminated: %d, not 64", onMap, pool, elim, onMap+pool+elim)
		}
		if elim < elim0 {
			fail("eliminated Japanese infantry went from %d to %d", elim0, elim)
		}
		if s.Casualties-casualties != lost {
			fail("the casualty track moved %d, the U.S. lost %d infantry steps\n%s", s.Casualties-casualties, lost, eventsText(evs, Umpire))
		}
	}
	// The generator and the declarations must reach the interesting cases.
	for what, n := range map[string]int{"melees": melees, "units that fought": fought, "infantry revealed from Unknown units": revealed,
		"hidden counters the U.S. read of": hidden, "retreats": retreats, "advances": advances} {
		if n < 20 {
			t.Errorf("only %d %s in %d positions: the test proves little", n, what, meleeSeeds)
		}
	}
	t.Logf("%d melees, %d units fought, %d infantry revealed, %d hidden counters reported, %d retreats, %d advances",
		melees, fought, revealed, hidden, retreats, advances)
}
