package wind

import (
	"fmt"
	"sort"
)

// Stacking limits (rule 4.0). They hold at all times, so movement checks them
// in every hex a unit enters, not only where it ends.
const (
	StackOneBattalion = 12 // U.S. steps from a single battalion (4.1)
	StackMixed        = 8  // U.S. steps from different battalions (4.1)
	StackJapanese     = 3  // Japanese infantry and artillery units; Unknown units are free (4.2)
)

// StackingProblem says why the units of side in hex h break the stacking
// limits (rule 4.0), or returns "" when they do not. The text names the hex
// and the numbers, for example "2618 holds 14 steps of 1/17 and 2/17 (limit
// 8 for mixed battalions)".
func (s *State) StackingProblem(h Hex, side Side) string {
	why := s.stackingWith(h, side, nil, 0)
	if why == "" {
		return ""
	}
	return fmt.Sprintf("%s holds %s", h, why)
}

// StackingProblemWith says why hex h would break the stacking limits if unit
// u stood there with the given steps (wherever u is now), or returns "" when
// it would not. Movement, retreats, refit (9.1: no steps that over-stack) and
// landings use it to ask before they change the state.
func (s *State) StackingProblemWith(h Hex, u *Unit, steps int) string {
	why := s.stackingWith(h, u.Side(), u, steps)
	if why == "" {
		return ""
	}
	return fmt.Sprintf("%s would hold %s", h, why)
}

// stackingWith checks the units of side in h, counting extra (when not nil)
// as standing in h with extraSteps and ignoring it wherever it is. It returns
// the numbers that break the limit, without the hex.
func (s *State) stackingWith(h Hex, side Side, extra *Unit, extraSteps int) string {
	if h == 0 {
		return ""
	}
	units := make([]stackEntry, 0, 8)
	for _, u := range s.UnitsAt(h) {
		if u == extra || u.Side() != side {
			continue
		}
		units = append(units, stackEntry{u.counter, u.Steps})
	}
	if extra != nil && extra.Side() == side {
		units = append(units, stackEntry{extra.counter, extraSteps})
	}
	switch side {
	case US:
		return s.usStacking(h, units)
	case JP:
		return jpStacking(units)
	}
	return ""
}

type stackEntry struct {
	c     *Counter
	steps int
}

// usStacking applies rule 4.1, or the landing zone capacity of rule 9.2.1 in
// a landing zone hex, which replaces the battalion limits there at all times
// (RULINGS.md R8).
func (s *State) usStacking(h Hex, units []stackEntry) string {
	total := 0
	battalions := map[string]bool{}
	independents := false
	for _, e := range units {
		total += e.steps
		if e.c.Class.Independent {
			// rule 4.1: an independent unit belongs to every battalion, so it
			// never makes a stack mixed (RULINGS.md R9).
			independents = true
			continue
		}
		battalions[e.c.Battalion] = true
	}
	if lz, ok := s.Map().LandingZoneAt(h); ok {
		if total > lz.Capacity {
			return fmt.Sprintf("%d U.S. steps (landing zone %s holds %d, rule 9.2.1)", total, lz.ID, lz.Capacity)
		}
		return ""
	}
	names := make([]string, 0, len(battalions)+1)
	for b := range battalions {
		names = append(names, b)
	}
	sort.Strings(names)
	if independents {
		names = append(names, "independent units")
	}
	who := joinAnd(names)
	if len(battalions) > 1 {
		if total > StackMixed {
			return fmt.Sprintf("%d steps of %s (limit %d for mixed battalions, rule 4.1)", total, who, StackMixed)
		}
		return ""
	}
	if total > StackOneBattalion {
		return fmt.Sprintf("%d steps of %s (limit %d for one battalion, rule 4.1)", total, who, StackOneBattalion)
	}
	return ""
}

// jpStacking applies rule 4.2: at most three infantry or artillery units,
// with any number of Unknown units besides. Japanese units have one step
// each (2.4), so units are counted, not steps.
func jpStacking(units []stackEntry) string {
	n := 0
	for _, e := range units {
		if e.c.Class.Kind != Unknown {
			n++
		}
	}
	if n > StackJapanese {
		return fmt.Sprintf("%d Japanese infantry and artillery units (limit %d besides Unknown units, rule 4.2)", n, StackJapanese)
	}
	return ""
}
