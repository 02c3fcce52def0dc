package wind

import (
	"slices"
	"sort"
)

// The ad hoc placement of rule 13.2.2 and the fire of the units it places
// (RULINGS.md R72).

// soloAdHoc makes the ad hoc placements due (rule 13.2.2): for each victory
// hex of the play area, in map order, not yet placed for and not occupied
// by the U.S., with a U.S. unit within four hexes of it, 1d10+1 infantry
// units drawn from the pool are placed near it (adHocHexes). Each victory
// hex has its placement once a game. The engine calls it after every U.S.
// activation and after every step it resolves.
func (s *State) soloAdHoc(d Dice) []Event {
	if !s.IsSolitaire() || d == nil || s.Over() {
		return nil
	}
	s.soloPrune()
	var evs []Event
	for _, vh := range s.soloHexes() {
		so := s.solo()
		if slices.Contains(so.Placed, vh) {
			continue
		}
		us := s.nearestUS(vh, 4)
		if us == nil || s.holds(vh, US) {
			continue
		}
		so.Placed = append(so.Placed, vh)
		n, die := soloCount(d, vh)
		evs = append(evs, Event{Kind: EventSoloCount, Seen: Public, Side: JP, Hexes: []Hex{vh, us.Hex},
			Target: vh, Dice: []EventDie{{Face: die}}, Total: n})
		var placed []*Unit
		for range n {
			pool := s.pool()
			if len(pool) == 0 {
				break
			}
			h := s.adHocHex(vh, us.Hex)
			if h == 0 {
				break
			}
			u := pool[drawIndex(len(pool), d, h)]
			u.Hex, u.Box, u.FaceDown = h, "", true
			placed = append(placed, u)
			so.AdHoc = append(so.AdHoc, u.ID)
		}
		var hexes []Hex
		for _, u := range placed {
			if !slices.Contains(hexes, u.Hex) {
				hexes = append(hexes, u.Hex)
			}
		}
		// The U.S. sees counters appear where they stand, not which.
		evs = append(evs, Event{Kind: EventAdHoc, Seen: seenAbout(unitRefs(placed)), Side: JP, Target: vh,
			Units: unitRefs(placed), Hexes: hexes, Total: n})
	}
	return evs
}

// nearestUS returns the U.S. unit on the map nearest h within dist hexes
// (then the lower hex, then counter order), or nil.
func (s *State) nearestUS(h Hex, dist int) *Unit {
	var best *Unit
	for _, u := range s.Units {
		if !u.OnMap() || u.Side() != US || u.Hex.Distance(h) > dist {
			continue
		}
		if best == nil || u.Hex.Distance(h) < best.Hex.Distance(h) || u.Hex.Distance(h) == best.Hex.Distance(h) && u.Hex < best.Hex {
			best = u
		}
	}
	return best
}

// adHocHex returns the hex the next infantry unit of an ad hoc placement
// for victory hex vh goes to, the U.S. unit that brought it standing in
// us, or 0 when no hex has room (rule 13.2.2; RULINGS.md R72). The hexes
// within two of vh holding no U.S. unit, in the play area, with room for
// one more Japanese unit (4.2), are ranked: first those between vh and the
// U.S. unit (nearer the U.S. unit than vh is, and at most one hex off the
// straight way), then those higher than the U.S. unit's hex, then those
// with a line of sight to it (8.1.2), then the nearest the straight way,
// then the farthest from the U.S. unit, then the lower hex.
func (s *State) adHocHex(vh, us Hex) Hex {
	m := s.Map()
	way := vh.Distance(us)
	type cand struct {
		h                     Hex
		between, higher, sees bool
		off, fromUS           int
	}
	var cands []cand
	probe := s.pool()
	if len(probe) == 0 {
		return 0
	}
	for _, h := range m.LandHexes() {
		if h.Distance(vh) > 2 || !s.InPlayArea(h) || s.holdsSide(h, US) || s.StackingProblemWith(h, probe[0], 1) != "" {
			continue
		}
		off := h.Distance(vh) + h.Distance(us) - way
		sees, _ := LOS(m, h, us)
		cands = append(cands, cand{h: h, between: h.Distance(us) < way && off <= 1,
			higher: m.Level(h) > m.Level(us), sees: sees, off: off, fromUS: h.Distance(us)})
	}
	if len(cands) == 0 {
		return 0
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		switch {
		case a.between != b.between:
			return a.between
		case a.higher != b.higher:
			return a.higher
		case a.sees != b.sees:
			return a.sees
		case a.off != b.off:
			return a.off < b.off
		case a.fromUS != b.fromUS:
			return a.fromUS > b.fromUS
		}
		return a.h < b.h
	})
	return cands[0].h
}

// soloAdHocFire fires the units of the ad hoc placements at the start of
// the Japanese actions step (rule 13.2.2; RULINGS.md R72): each, in the
// order placed, fires alone at the hex of the nearest U.S. unit it may
// fire at (by distance, then the lower hex), and is marked as having
// acted, so that the Japanese orders of the step do not move it.
func (s *State) soloAdHocFire(d Dice) []Event {
	if s.Solo == nil || d == nil {
		return nil
	}
	var evs []Event
	for _, id := range s.Solo.AdHoc {
		u, ok := s.Unit(id)
		if !ok || !u.OnMap() || u.Acted || s.Over() {
			continue
		}
		if t := s.adHocTarget(u); t != 0 {
			f := Fire{Units: []string{u.ID}, Target: t}
			fevs, _ := s.fire(&f, JP, d)
			evs = append(evs, fevs...)
			evs = append(evs, s.checkSuddenVictory()...)
		}
		u.Acted = true
	}
	return evs
}

// adHocTarget returns the hex of the nearest U.S. unit u may fire at, or 0.
func (s *State) adHocTarget(u *Unit) Hex {
	var hexes []Hex
	for _, o := range s.Units {
		if o.OnMap() && o.Side() == US && !slices.Contains(hexes, o.Hex) {
			hexes = append(hexes, o.Hex)
		}
	}
	sort.Slice(hexes, func(i, j int) bool {
		di, dj := hexes[i].Distance(u.Hex), hexes[j].Distance(u.Hex)
		return di < dj || di == dj && hexes[i] < hexes[j]
	})
	for _, h := range hexes {
		if s.CheckFireBy(JP, Fire{Units: []string{u.ID}, Target: h}) == nil {
			return h
		}
	}
	return 0
}

// soloAfterMelee releases the ad hoc units that fought a melee, or left
// the map, to the Japanese orders (rule 13.2.2).
func (s *State) soloAfterMelee() {
	if s.Solo == nil {
		return
	}
	s.Solo.AdHoc = slices.DeleteFunc(s.Solo.AdHoc, func(id string) bool {
		u, ok := s.Unit(id)
		return !ok || !u.OnMap() || u.Fought
	})
	s.soloPrune()
}

// soloPrune forgets the ad hoc units that left the map (a swap of 9.6
// takes them back to the pool) and the fixed units no longer on their
// victory hex (rules 13.2.1, 13.2.2).
func (s *State) soloPrune() {
	if s.Solo == nil {
		return
	}
	s.Solo.AdHoc = slices.DeleteFunc(s.Solo.AdHoc, func(id string) bool {
		u, ok := s.Unit(id)
		return !ok || !u.OnMap()
	})
	for id, h := range s.Solo.Fixed {
		if u, ok := s.Unit(id); !ok || u.Hex != h {
			delete(s.Solo.Fixed, id)
		}
	}
}
