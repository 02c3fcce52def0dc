package wind

import (
	"errors"
)

// Ranged combat as it is carried out (rules 8.0, 8.1, 8.1.5, 8.3, 8.5).
// Readings taken where the rules leave room (RULINGS.md R2 to R4, R19 to R22):
//
//   - An Unknown unit that fires is first revealed (2.5; R4) with every Unknown
//     unit in its hex; the infantry units that take their place are the ones
//     that fire, each with its own dice, and are marked as having acted. If
//     none can be placed (a full hex, an empty pool) nothing fires from there.
//   - A face-down Japanese unit that fires (R3) turns face up when a U.S. unit on
//     the map has a line of sight to its hex (8.1.2), and stays face down
//     otherwise (the artillery note of 2.5, read as the rule for every
//     unit: an infantry unit firing always has a U.S. unit in sight, its
//     target).
//   - The face-down modifier (8.3; R21) applies when every unit that can take the
//     hits is face down as the U.S. sees it (Unknown units always are).
//   - A named target unit (R20) takes all the hits only in the case rule 8.0 makes
//     for it: U.S. fire at a hex mixing face-up and face-down Japanese units.
//     Elsewhere the owner of the hex shares out the hits by its standing
//     instructions, and the name is only noted.
//   - The U.S. reads (R2) where a face-down counter fired from, its dice and
//     modifiers, as a player at the table sees the counter and the dice
//     rolled; only which unit it is stays hidden, and a dice log shown to
//     the U.S. gets no unit id for such a die either.
//   - Soft ground (8.1.5): each natural 1 or 2 a soft-ground battery rolls
//     costs it one step, after all the hits of the attack are applied, so a
//     battery that sinks still scores its hits.

// fire carries out a ranged attack (rule 8.1) ordered by side. With d nil
// it judges the attack and marks the firing units as having acted, and
// changes nothing else: the dice decide the rest.
func (s *State) fire(f *Fire, side Side, d Dice) ([]Event, []Problem) {
	err := s.CheckFireBy(side, *f)
	firers := s.ownUnits(f.Units, side)
	if err != nil {
		for _, u := range firers {
			u.Acted = true // the activation is spent, as for a refused move
		}
		var fe *FireError
		if errors.As(err, &fe) {
			ps := make([]Problem, 0, len(fe.Reasons))
			for _, r := range fe.Reasons {
				ps = append(ps, Problem{Step: -1, Msg: r})
			}
			return nil, ps
		}
		return nil, []Problem{{Step: -1, Msg: err.Error()}}
	}
	for _, u := range firers {
		u.Acted = true
	}
	if d == nil {
		return nil, nil
	}
	return s.resolveFire(f, side, firers, d), nil
}

// ownUnits returns the named units of side, each once, in the order named.
func (s *State) ownUnits(ids []string, side Side) []*Unit {
	var out []*Unit
	seen := map[string]bool{}
	for _, id := range ids {
		if u, ok := s.Unit(id); ok && u.Side() == side && !seen[id] {
			seen[id] = true
			out = append(out, u)
		}
	}
	return out
}

// volley is one firing unit's dice.
type volley struct {
	u      *Unit
	from   Hex
	dice   []int
	drm    int
	why    []Modifier
	hits   int
	hidden bool // the firer shows to the U.S. only as a counter
}

// resolveFire rolls and applies a legal attack.
func (s *State) resolveFire(f *Fire, side Side, firers []*Unit, d Dice) []Event {
	m := s.Map()
	var events []Event

	// Rule 2.5: Unknown units that fire turn into infantry first.
	var shooters []*Unit
	revealed := map[Hex]bool{}
	for _, u := range firers {
		if u.Side() != JP || u.Kind() != Unknown {
			shooters = append(shooters, u)
			continue
		}
		h := u.Hex
		if revealed[h] {
			continue
		}
		revealed[h] = true
		placed, evs := s.revealUnknowns(h, d)
		events = append(events, evs...)
		for _, p := range placed {
			p.Acted = true
		}
		shooters = append(shooters, placed...)
	}

	var targets []*Unit
	for _, u := range s.UnitsAt(f.Target) {
		if u.Side() == side.Enemy() {
			targets = append(targets, u)
		}
	}
	// The name is reported when it does not choose the target: the owner
	// then shares out the hits (rule 8.0).
	noted := ""
	if f.TargetUnit != "" {
		if side == US && mixedFace(targets) {
			t, _ := s.Unit(f.TargetUnit)
			targets = []*Unit{t}
		} else {
			noted = f.TargetUnit
		}
	}
	faceDown := side == US && len(targets) > 0
	for _, t := range targets {
		if !hiddenFrom(t, US) {
			faceDown = false
		}
	}

	// Rule 8.1.5: all the dice of the attack are rolled at once; the units of
	// one order make one attack (RULINGS.md R19).
	var volleys []*volley
	inSupply := s.supplyCheck()
	for _, u := range shooters {
		sit := Situation{
			Combat:      RangedCombat,
			Artillery:   u.Kind() == Artillery,
			HigherLevel: m.Level(f.Target) > m.Level(u.Hex),
			OutOfSupply: u.Side() == US && !inSupply(u),
			Weather:     s.Weather,
			Night:       s.Night,
			FaceDown:    faceDown,
		}
		v := &volley{u: u, from: u.Hex, hidden: hiddenFrom(u, US)}
		v.drm, v.why = DRM(sit)
		die := Die{Purpose: DieRanged, Side: side, Unit: u.ID, Hex: f.Target, Need: HitNeed(v.drm), Seen: AudienceBoth}
		if v.hidden {
			die.Unit = "" // a dice log shown to the U.S. must not name it
		}
		for range u.Rating().Ranged {
			v.dice = append(v.dice, d.Roll(die))
		}
		v.hits = CountHits(v.dice, v.drm)
		volleys = append(volleys, v)
	}

	total := 0
	for _, v := range volleys {
		total += v.hits
		events = append(events, fireEvents(v, f.Target, side)...)
	}
	events = append(events, Event{Kind: EventFireTotal, Seen: Public, Side: side, Hexes: []Hex{f.Target}, Target: f.Target,
		Hits: total, TargetUnit: noted})
	if total > 0 {
		events = append(events, s.applyHits(targets, total, HitOptions{Cause: Cause{Kind: CauseFire, Hex: f.Target}, Ranged: true, Dice: d})...)
	}

	// Rule 8.1.5: soft ground, after the hits.
	for _, v := range volleys {
		if !v.u.Counter().Class.SoftGround || !v.u.OnMap() {
			continue
		}
		n := 0
		for _, x := range v.dice {
			if x == 1 || x == 2 {
				n++
			}
		}
		if n > 0 {
			events = append(events, s.applyHits([]*Unit{v.u}, min(n, v.u.Steps), HitOptions{
				Cause: Cause{Kind: CauseSoftGround, Dice: n},
			})...)
		}
	}

	// Rule 2.5: a face-down unit that fired shows itself if a U.S. unit
	// sees it.
	for _, v := range volleys {
		u := v.u
		if !u.OnMap() || !u.FaceDown {
			continue
		}
		if s.seenByUS(u.Hex) {
			u.FaceDown = false
			ref := unitRef(u)
			events = append(events, Event{Kind: EventFiredFaceUp, Seen: seenAbout([]EventUnit{ref}), Side: JP, Units: []EventUnit{ref}, Hexes: []Hex{u.Hex}})
		} else {
			events = append(events, Event{Kind: EventFiredFaceDown, Seen: OnlyTo(JP), Side: JP, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{u.Hex}})
		}
	}
	return events
}

// fireEvents reports one unit's dice. A firer hidden from the U.S. is a
// counter in its hex to the U.S.: where it fired from, its dice and
// modifiers show, as at the table, but not which unit it is.
func fireEvents(v *volley, target Hex, side Side) []Event {
	ref := unitRef(v.u)
	ref.Hex = v.from
	ref.Known = !v.hidden
	return []Event{{Kind: EventFired, Seen: seenAbout([]EventUnit{ref}), Side: side, Units: []EventUnit{ref},
		Hexes: []Hex{v.from, target}, Target: target, Dice: eventDice(v.dice, v.drm, true), DRM: v.drm, Mods: v.why, Hits: v.hits}}
}

// mixedFace reports whether Japanese units mix face-up and face-down ones
// as the U.S. sees them (rule 8.0).
func mixedFace(units []*Unit) bool {
	up, down := false, false
	for _, u := range units {
		if hiddenFrom(u, US) {
			down = true
		} else {
			up = true
		}
	}
	return up && down
}

// seenByUS reports whether some U.S. unit on the map has a line of sight to
// h (rule 8.1.2).
func (s *State) seenByUS(h Hex) bool {
	for _, u := range s.Units {
		if u.OnMap() && u.Side() == US {
			if ok, _ := LOS(s.Map(), u.Hex, h); ok {
				return true
			}
		}
	}
	return false
}
