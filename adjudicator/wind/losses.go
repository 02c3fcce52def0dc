package wind

import (
	"slices"
	"sort"
)

// BoxSetAsidePrefix, followed by a hex, is where a U.S. artillery unit
// eliminated by melee fire waits until the end of that melee: the Japanese
// capture it if they advance into that hex (rule 8.2.1.2, 8.2.1.4).
const BoxSetAsidePrefix = "setaside:"

// HitOptions says how hits are taken.
type HitOptions struct {
	// Cause is what scored the hits, for the events. Both sides read it.
	Cause Cause
	// Ranged: the hits come from ranged combat or air (rule 8.5): a hex's
	// only Japanese infantry unit survives them, and a face-down Unknown
	// unit hit melts away off the map.
	Ranged bool
	// Melee: the hits come from melee fire: U.S. artillery eliminated is set
	// aside in its hex rather than eliminated (rule 8.2.1.2).
	Melee bool
	// Dice is rolled only when a hit that is not ranged falls on a hex
	// holding Unknown units, which convert first (rules 2.5, 8.5). It may be
	// nil otherwise.
	Dice Dice
}

// applyHits takes hits on units, which all belong to one side (rules 8.0,
// 8.4, 8.5), and returns what happened. Each hit costs one step. The owner
// chooses where hits fall (8.0); here its standing instructions choose:
// units in LossOrder first, in that order, then by Losses: "spread" hits
// the unit with the most steps left, "concentrate" the unit with the fewest
// (finishing off what is already weak), ties going first to a unit the
// enemy can identify, then in counter order. Hits with nowhere to go are
// lost. The face comes before counter order because the U.S. reads which
// unit a hit falls on: were a tie between a face-up unit and a face-down
// counter settled by counter order, where the hit fell would tell it
// which units the counter could be, which fog of war hides.
//
// U.S. units lose a step per hit (2.4); each step of U.S. infantry, the
// independents among them, moves the casualty track (8.4), while recon,
// engineer, depot and artillery losses do not. A unit with no steps left is
// eliminated, or set aside in its hex when it is artillery hit in melee
// (BoxSetAsidePrefix, 8.2.1.2). A Japanese infantry or artillery unit hit is
// eliminated (8.5).
//
// With o.Ranged, two exceptions of rule 8.5 hold (RULINGS.md R19, R22, R27).
// A hex's only Japanese
// infantry unit survives: while the hex has other units that may take the
// hit, the owner may not put it there, so the protection cannot soak up
// hits that would have hurt; once only that unit is left, the hits are
// lost. A face-down Unknown unit hit goes quietly to the
// off-map box, with no table roll, and only one per call: one attack removes
// at most one Unknown unit (2.5). By default the first hit on a Japanese hex
// falls on an Unknown unit there, which costs the Japanese nothing for good,
// before any infantry or artillery; LossOrder overrides that.
//
// Without o.Ranged, Unknown units among units convert first by
// revealUnknowns (they never take melee hits, 8.5) and the infantry they
// yield take the hits; with o.Dice nil they cannot be hit at all.
//
// The U.S. reads of a face-down Japanese unit only that a hidden counter in
// its hex was removed, never which unit or what kind it was. Last, the
// game may be over at once (rule 3.8.2, checkSuddenVictory).
func (s *State) applyHits(units []*Unit, hits int, o HitOptions) []Event {
	var events []Event
	var live []*Unit
	for _, u := range units {
		if u != nil && u.OnMap() && u.Steps > 0 {
			live = append(live, u)
		}
	}
	if len(live) == 0 || hits <= 0 {
		return nil
	}
	side := live[0].Side()
	var hexes []Hex
	for _, u := range live {
		if !slices.Contains(hexes, u.Hex) {
			hexes = append(hexes, u.Hex)
		}
	}

	if !o.Ranged && o.Dice != nil {
		live, events = s.convertAmong(live, o.Dice)
	}

	st := s.Standing(side)
	order := map[string]int{}
	for i, id := range st.LossOrder {
		if _, dup := order[id]; !dup {
			order[id] = i
		}
	}
	rank := map[*Unit]int{}
	for i, u := range s.Units {
		rank[u] = i
	}

	unknownGone := false
	var last *Unit // the unit concentrated on
	lost := 0
	for range hits {
		var cands []*Unit
		for _, u := range live {
			if !u.OnMap() {
				continue
			}
			if u.Side() == JP && u.Kind() == Unknown && (!o.Ranged || unknownGone) {
				continue
			}
			if o.Ranged && s.lastJPInfantry(u) {
				continue
			}
			cands = append(cands, u)
		}
		if len(cands) == 0 {
			lost++
			continue
		}
		var pick *Unit
		best := len(order)
		for _, u := range cands {
			if i, ok := order[u.ID]; ok && i < best {
				pick, best = u, i
			}
		}
		if pick == nil && side == JP && o.Ranged && !unknownGone {
			for _, u := range cands {
				if u.Kind() == Unknown {
					pick = u
					break
				}
			}
		}
		if pick == nil && st.Losses == LossesConcentrate && last != nil && last.OnMap() {
			for _, u := range cands {
				if u == last {
					pick = u
				}
			}
		}
		if pick == nil {
			sort.SliceStable(cands, func(i, j int) bool {
				a, b := cands[i], cands[j]
				if a.Steps != b.Steps {
					if st.Losses == LossesConcentrate {
						return a.Steps < b.Steps
					}
					return a.Steps > b.Steps
				}
				if ha, hb := hiddenFrom(a, US), hiddenFrom(b, US); ha != hb {
					return hb
				}
				return rank[a] < rank[b]
			})
			pick = cands[0]
		}
		last = pick
		if pick.Kind() == Unknown {
			unknownGone = true
		}
		events = append(events, s.takeHit(pick, o)...)
	}
	if lost > 0 {
		events = append(events, lostHitsEvent(hexes, lost, o))
	}
	// Rule 10.0 clears a zone the moment its last Japanese infantry or
	// artillery unit goes, and rule 3.8.2 holds at any moment: a loss may
	// end the game at once.
	events = append(events, s.updateCleared()...)
	events = append(events, s.checkSuddenVictory()...)
	return events
}

// lastJPInfantry reports whether u is a Japanese infantry unit and the only
// one left in its hex, which ranged fire never eliminates (rule 8.5).
func (s *State) lastJPInfantry(u *Unit) bool {
	if u.Side() != JP || u.Kind() != Infantry {
		return false
	}
	n := 0
	for _, v := range s.UnitsAt(u.Hex) {
		if v.Side() == JP && v.Kind() == Infantry {
			n++
		}
	}
	return n == 1
}

// convertAmong reveals the Unknown units among live (rule 2.5: they convert
// before any melee hit) and returns live with them replaced by the infantry
// they yield.
func (s *State) convertAmong(live []*Unit, d Dice) ([]*Unit, []Event) {
	var events []Event
	done := map[Hex]bool{}
	var out []*Unit
	for _, u := range live {
		if u.Side() != JP || u.Kind() != Unknown {
			out = append(out, u)
			continue
		}
		if done[u.Hex] {
			continue
		}
		done[u.Hex] = true
		placed, evs := s.revealUnknowns(u.Hex, d)
		events = append(events, evs...)
		out = append(out, placed...)
	}
	return out, events
}

// takeHit takes one hit on u and says so.
func (s *State) takeHit(u *Unit, o HitOptions) []Event {
	h := u.Hex
	ref := unitRef(u) // taken before the hit: whether the U.S. knew it
	ev := func(kind EventKind) []Event {
		ref.Steps = 0
		if u.OnMap() {
			ref.Steps = u.Steps
		}
		units := []EventUnit{ref}
		return []Event{{Kind: kind, Seen: seenAbout(units), Units: units, Hexes: []Hex{h}, Cause: o.Cause.event()}}
	}

	if u.Side() == US {
		u.Steps--
		if u.Kind() == Infantry {
			s.Casualties++ // rule 8.4
		}
		if u.Steps > 0 {
			return ev(EventStepLost)
		}
		u.Steps = 1 // an eliminated counter keeps the strength of its last side
		if o.Melee && u.Kind() == Artillery {
			s.removeFromMap(u, BoxSetAsidePrefix+h.String())
			return ev(EventSetAside)
		}
		s.removeFromMap(u, BoxEliminated)
		return ev(EventEliminated)
	}

	// Japanese. The U.S. reads of a hidden unit only that a counter went:
	// an Unknown unit melting away and an infantry unit eliminated look
	// the same to it (rules 2.5, 8.5).
	if u.Kind() == Unknown {
		s.removeFromMap(u, BoxOffMap)
		return ev(EventEliminated)
	}
	if u.Steps > 1 { // captured U.S. artillery keeps its steps (8.2.1.4)
		u.Steps--
		return ev(EventStepLost)
	}
	s.removeFromMap(u, BoxEliminated)
	return ev(EventEliminated)
}

// lostHitsEvent says that n hits on hexes found nothing to take them. Both
// sides read it: on the table the hits are scored and the counters stay.
// It gives no reason, since the reason (the last infantry unit of a hex,
// the one Unknown unit an attack may remove) would tell the U.S. what the
// face-down counters are.
func lostHitsEvent(hexes []Hex, n int, o HitOptions) Event {
	return Event{Kind: EventHitsLost, Seen: Public, Hexes: hexes, Hits: n, Cause: o.Cause.event()}
}

// event returns the cause as an event carries it: nil when none is given.
func (c Cause) event() *Cause {
	if c == (Cause{}) {
		return nil
	}
	return &c
}

// removeFromMap takes u off the map into box, clearing what only matters on
// the map.
func (s *State) removeFromMap(u *Unit, box string) {
	u.Hex = 0
	u.Box = box
	u.FaceDown = false
	u.Melee = 0
}
