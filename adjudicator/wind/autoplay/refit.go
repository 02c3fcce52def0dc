package autoplay

import (
	"slices"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Refit turns (rule 9). The U.S. player calls one now and then, more often
// the longer the casualty track, and half the time writes the refit orders
// into the decision. Its refit orders restore steps to some of its
// infantry, land some reinforcements, and now and then create an
// independent unit or a depot; the Japanese hide some of the units that may
// hide and move and swap a few Unknown units. Each entry is kept only if
// the orders with it still pass wind.CheckOrders.
//
// What each side decides from: its own units, all of whose facts it knows,
// and where the enemy's counters stand on the map, which is all that
// supply, zones of control and the bans of rules 9.2, 9.5 and 9.6 depend
// on. The U.S. never looks at what a face-down counter is; the Japanese
// never look at the U.S. units off the map.

// decision answers the U.S. decision: a refit turn (3.1), perhaps with its
// refit orders, or a day or night turn (3.2).
func decision(s *wind.State, pick func(int) int) wind.Orders {
	o := s.DefaultOrders()
	switch StandingDecision(s, pick) {
	case wind.DecisionRefit:
		o.Decision = &wind.Decision{Refit: true}
		if pick(2) == 0 {
			o = usRefit(s, o, pick)
		}
	case wind.DecisionNight:
		o.Decision = &wind.Decision{Night: true}
	default:
		o.Decision = &wind.Decision{}
	}
	return o
}

// StandingDecision picks the kind of a turn as the U.S. decision does, for
// a player who gives it in advance (wind.Standing.Decision): refit
// now and then, more often the longer the casualty track, else night one
// time in three.
func StandingDecision(s *wind.State, pick func(int) int) string {
	odds := 8
	if s.Casualties >= 10 {
		odds = 3
	}
	switch {
	case pick(odds) == 0:
		return wind.DecisionRefit
	case pick(3) == 0:
		return wind.DecisionNight
	}
	return wind.DecisionDay
}

// refitter builds refit orders entry by entry.
type refitter struct {
	s    *wind.State
	o    wind.Orders
	pick func(int) int
}

func (r *refitter) chance(n int) bool { return r.pick(n) == 0 }

// keep adds an entry with add and keeps it only when the orders still pass
// CheckOrders; undo takes it back.
func (r *refitter) keep(add, undo func()) bool {
	add()
	if len(wind.CheckOrders(r.s, r.o)) == 0 {
		return true
	}
	undo()
	return false
}

// usRefit returns random legal U.S. refit orders in o (the refit wait's
// orders, or a refit decision's).
func usRefit(s *wind.State, o wind.Orders, pick func(int) int) wind.Orders {
	rf := &wind.Refit{}
	o.Refit = rf
	r := &refitter{s: s, o: o, pick: pick}

	var infantry, engineers, reserves []*wind.Unit
	for _, u := range s.Units {
		if u.Counter().Side() != wind.US || u.Captured {
			continue
		}
		switch {
		case u.OnMap() && u.Kind() == wind.Infantry:
			infantry = append(infantry, u)
		case u.OnMap() && u.Kind() == wind.Engineer:
			engineers = append(engineers, u)
		case u.Box == wind.BoxReinforcements:
			reserves = append(reserves, u)
		}
	}

	// Rule 9.1: some of the infantry that lacks steps, in a random order.
	shuffle(infantry, pick)
	for _, u := range infantry {
		missing := u.Counter().MaxSteps() - u.Steps
		if missing == 0 || r.chance(3) {
			continue
		}
		e := wind.Restore{Unit: u.ID}
		if r.chance(3) {
			e.Steps = 1 + pick(missing)
		}
		r.keep(func() { rf.Restore = append(rf.Restore, e) }, func() { rf.Restore = rf.Restore[:len(rf.Restore)-1] })
	}

	// Rule 9.2: a few reinforcements, each to a zone open to landing.
	zones := s.Map().LandingZones
	shuffle(reserves, pick)
	for i, u := range reserves {
		if i >= 6 || r.chance(2) {
			continue
		}
		for range 3 {
			e := wind.Landing{Unit: u.ID, Zone: zones[pick(len(zones))].ID}
			if r.keep(func() { rf.Land = append(rf.Land, e) }, func() { rf.Land = rf.Land[:len(rf.Land)-1] }) {
				break
			}
		}
	}

	// Rule 9.3: now and then an independent unit.
	if len(infantry) > 0 && r.chance(4) {
		id := infantry[pick(len(infantry))].ID
		r.keep(func() { rf.Independents = append(rf.Independents, id) }, func() { rf.Independents = rf.Independents[:len(rf.Independents)-1] })
	}
	// Rule 9.4: now and then a supply depot.
	if len(engineers) > 0 && r.chance(4) {
		id := engineers[pick(len(engineers))].ID
		r.keep(func() { rf.Depots = append(rf.Depots, id) }, func() { rf.Depots = rf.Depots[:len(rf.Depots)-1] })
	}
	return r.o
}

// jpRefit returns random legal Japanese refit orders (rules 9.5, 9.6).
func jpRefit(s *wind.State, pick func(int) int) wind.Orders {
	o := s.DefaultOrders()
	ra := &wind.Rearrange{}
	o.Rearrange = ra
	r := &refitter{s: s, o: o, pick: pick}

	var hideable, unknowns, offmap []*wind.Unit
	infantryAt := map[wind.Hex]bool{}
	var infantryHexes []wind.Hex
	for _, u := range s.Units {
		if u.Side() != wind.JP {
			continue
		}
		switch {
		case u.OnMap() && !u.FaceDown && s.HideBan(u) == "":
			hideable = append(hideable, u)
		}
		switch {
		case u.OnMap() && u.Kind() == wind.Unknown:
			unknowns = append(unknowns, u)
		case u.Box == wind.BoxOffMap && u.Kind() == wind.Unknown:
			offmap = append(offmap, u)
		case u.OnMap() && u.Kind() == wind.Infantry && !infantryAt[u.Hex]:
			infantryAt[u.Hex] = true
			infantryHexes = append(infantryHexes, u.Hex)
		}
	}

	// Rule 9.5: most of the units that may hide.
	for _, u := range hideable {
		if !r.chance(4) {
			ra.Hide = append(ra.Hide, u.ID)
		}
	}

	// Rule 9.6, step 1: a few Unknown units somewhere new.
	land := s.Map().LandHexes()
	for _, u := range unknowns {
		if !r.chance(5) {
			continue
		}
		for range 4 {
			h := land[pick(len(land))]
			if h == u.Hex || s.UnknownBan(h) != "" {
				continue
			}
			m := wind.UnknownMove{Unit: u.ID, To: h}
			if r.keep(func() { ra.Moves = append(ra.Moves, m) }, func() { ra.Moves = ra.Moves[:len(ra.Moves)-1] }) {
				break
			}
		}
	}

	// Rule 9.6, step 2: now and then the infantry of a hex swapped for
	// one or two Unknown units from off the map.
	slices.Sort(infantryHexes)
	shuffle(offmap, pick)
	for _, h := range infantryHexes {
		if len(offmap) == 0 || !r.chance(6) {
			continue
		}
		to := s.SwapHexes(h)
		if len(to) == 0 {
			continue
		}
		sw := wind.Swap{Hex: h}
		for k := 0; k < 1+pick(2) && len(offmap) > 0; k++ {
			sw.Place = append(sw.Place, wind.UnknownMove{Unit: offmap[0].ID, To: to[pick(len(to))]})
			offmap = offmap[1:]
		}
		r.keep(func() { ra.Swaps = append(ra.Swaps, sw) }, func() { ra.Swaps = ra.Swaps[:len(ra.Swaps)-1] })
	}
	if len(wind.CheckOrders(s, r.o)) > 0 {
		// The hiding is judged with the moves and swaps; should it ever
		// not pass, fall back on the default, which always does.
		return s.DefaultOrders()
	}
	return r.o
}
