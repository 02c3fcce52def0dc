package wind

import (
	"fmt"
	"strings"
)

// SpottingDistance returns how many hexes away a unit can spot a target in
// weather w (rules 8.1.1 and 8.1.3): 3 in cloudy weather and rain, 1 in fog
// and 0 in a williwaw, when no ranged combat is possible at all.
func SpottingDistance(w Weather) int {
	switch w {
	case Cloudy, Rain:
		return 3
	case Fog:
		return 1
	}
	return 0
}

// FireError says why a ranged attack may not be made, one reason per
// mistake, in words the firing side may read: it names that side's units and
// only what that side can see of the enemy's.
type FireError struct {
	Reasons []string
}

func (e *FireError) Error() string { return strings.Join(e.Reasons, "; ") }

// CheckFire reports whether the ranged attack f may be made now (rules 8.0,
// 8.1 to 8.1.4). The firing side is the side of the first firing unit. It
// returns nil or a *FireError listing every reason the attack is illegal.
// Orders from a player should use CheckFireBy, which also refuses units that
// are not the player's without saying anything about them.
func (s *State) CheckFire(f Fire) error { return s.CheckFireBy(NoSide, f) }

// CheckFireBy is CheckFire for an attack ordered by side. With NoSide it
// takes the side of the first firing unit.
//
// The attack is legal when every firing unit is one of side's, on the map,
// has not acted this turn, has ranged combat at its current strength and the
// target hex within its range (2.2); the weather is not a williwaw (8.1.3);
// the target hex holds enemy units; and each firing unit either sees the
// target (line of sight, 8.1.2, and within spotting distance, 8.1.1) or is
// artillery called in by the named spotter (8.1.4): any unit of side on the
// map, whatever its type and whether or not it has acted, that sees the
// target. A named spotter is checked even when the firing units see the
// target themselves, since the order relies on it.
//
// When the U.S. fires at a hex holding both face-up and face-down Japanese
// units, the target unit must be named and must be face-up there (8.0); the
// U.S. can never name a face-down unit, since it cannot tell which it is
// (nor an Unknown unit, which the U.S. never identifies, see View;
// RULINGS.md R20). For
// every other attack a named target unit must be an enemy unit in the hex.
// Messages to the U.S. call face-down units only "face-down units".
func (s *State) CheckFireBy(side Side, f Fire) error {
	var why []string
	bad := func(format string, a ...any) { why = append(why, fmt.Sprintf(format, a...)) }
	done := func() error {
		if len(why) == 0 {
			return nil
		}
		return &FireError{Reasons: why}
	}
	m := s.Map()

	if len(f.Units) == 0 {
		bad("name at least one unit to fire")
	}
	if !m.Land(f.Target) {
		bad("target %s is not a land hex of the map", f.Target)
	}
	var firers []*Unit
	seen := map[string]bool{}
	for _, id := range f.Units {
		u, ok := s.Unit(id)
		dup := seen[id]
		seen[id] = true
		switch {
		case !ok:
			bad("there is no unit %q", id)
		case dup:
			bad("%s is named twice", id)
		case side != NoSide && u.Side() != side:
			bad("%s is not a %s unit: units firing together belong to one side", id, sideName(side))
		default:
			side = u.Side()
			firers = append(firers, u)
		}
	}
	if len(why) > 0 {
		// Nothing more can be said safely about units that are not the
		// side's, nor about a target that is not there.
		return done()
	}

	spot := SpottingDistance(s.Weather)
	williwaw := spot == 0
	if williwaw {
		bad("no ranged combat in a williwaw: spotting distance is 0 (rule 8.1.3)")
	}

	var enemies []*Unit
	for _, u := range s.UnitsAt(f.Target) {
		if u.Side() == side.Enemy() {
			enemies = append(enemies, u)
		}
	}
	if len(enemies) == 0 {
		bad("%s holds no enemy units", f.Target)
	}

	artillery := false
	for _, u := range firers {
		if u.Kind() == Artillery {
			artillery = true
		}
		if !u.OnMap() {
			bad("%s is not on the map", u.ID)
			continue
		}
		r := u.Rating()
		if r.Ranged <= 0 || r.Range <= 0 {
			bad("%s has no ranged combat at %s (rule 2.2)", u.ID, plural(u.Steps, "step"))
			continue
		}
		if u.Acted {
			bad("%s has already acted this turn", u.ID)
		}
		dist := u.Hex.Distance(f.Target)
		if dist > r.Range {
			bad("%s: %s is %s away, range %d", u.ID, f.Target, plural(dist, "hex"), r.Range)
		}
		if williwaw {
			continue
		}
		ok, block := LOS(m, u.Hex, f.Target)
		if ok && dist <= spot {
			continue
		}
		if u.Kind() == Artillery && f.Spotter != "" {
			continue // the spotter is checked below
		}
		var sight string
		if !ok {
			sight = fmt.Sprintf("no line of sight to %s (%s)", f.Target, block)
		} else {
			sight = fmt.Sprintf("%s is %s away, spotting distance %s is %d", f.Target, plural(dist, "hex"), inWeather(s.Weather), spot)
		}
		switch {
		case u.Kind() == Artillery:
			bad("%s: %s and no spotter is named to call it in (rule 8.1.4)", u.ID, sight)
		case f.Spotter != "":
			bad("%s: %s, and only artillery can be called in by a spotter (rule 8.1.4)", u.ID, sight)
		default:
			bad("%s: %s", u.ID, sight)
		}
	}

	if f.Spotter != "" {
		sp, ok := s.Unit(f.Spotter)
		switch {
		case !artillery:
			bad("spotter %s: no firing unit is artillery, and only artillery is called in (rule 8.1.4)", f.Spotter)
		case !ok:
			bad("spotter: there is no unit %q", f.Spotter)
		case sp.Side() != side:
			bad("spotter %s is not a %s unit", f.Spotter, sideName(side))
		case !sp.OnMap():
			bad("spotter %s is not on the map", f.Spotter)
		case williwaw:
		default:
			dist := sp.Hex.Distance(f.Target)
			if los, block := LOS(m, sp.Hex, f.Target); !los {
				bad("spotter %s has no line of sight to %s (%s)", sp.ID, f.Target, block)
			} else if dist > spot {
				bad("spotter %s is %s from %s, spotting distance %s is %d", sp.ID, plural(dist, "hex"), f.Target, inWeather(s.Weather), spot)
			}
		}
	}

	if len(enemies) > 0 {
		s.checkTargetUnit(side, f, enemies, bad)
	}
	return done()
}

// checkTargetUnit applies rule 8.0's choice of a target unit. What it says
// to the U.S. must not depend on which face-down units stand in the hex: a
// named unit that is not face-up there gets the same answer whether it is
// face-down there, somewhere else or nowhere.
func (s *State) checkTargetUnit(side Side, f Fire, enemies []*Unit, bad func(string, ...any)) {
	if side != US {
		if f.TargetUnit == "" {
			return
		}
		for _, u := range enemies {
			if u.ID == f.TargetUnit {
				return
			}
		}
		bad("target unit %s is not in %s", f.TargetUnit, f.Target)
		return
	}
	var up []string
	down := 0
	for _, u := range enemies {
		if hiddenFrom(u, US) {
			down++
		} else {
			up = append(up, u.ID)
		}
	}
	if f.TargetUnit == "" {
		if len(up) > 0 && down > 0 {
			bad("%s holds face-up and face-down units: name one of the face-up units (%s) as the target unit (rule 8.0)",
				f.Target, strings.Join(up, ", "))
		}
		return
	}
	for _, id := range up {
		if id == f.TargetUnit {
			return
		}
	}
	if len(up) == 0 {
		bad("target unit %s: the U.S. can name only a face-up unit, and %s holds none", f.TargetUnit, f.Target)
		return
	}
	bad("target unit %s: name one of the face-up units in %s (%s)", f.TargetUnit, f.Target, strings.Join(up, ", "))
}
