package wind

import (
	"strings"
)

// jpStackLimit is how many Japanese infantry and artillery units may stand
// in one hex, Unknown units aside (rule 4.2).
const jpStackLimit = 3

// maxUnknownYield is the most infantry units the Unknown units of one hex
// can turn into, however many there are (rule 2.5).
const maxUnknownYield = 3

// revealUnknowns converts every Unknown unit in h into infantry (rule 2.5),
// as when one of them fires, or they attack or defend in melee, and returns
// the infantry units placed and what happened.
//
// All the Unknown units of the hex go to the off-map box together and one
// die is rolled on one table: that of the unit the Japanese standing
// instruction UnknownTableAt names for h, if it is one of them, otherwise
// the table with the highest (UnknownTable "most") or lowest ("fewest")
// average yield, ties in counter order. The table gives how many infantry
// units come out, at most three whatever the number of Unknown units. They
// come from the pool of available infantry, so fewer come out when the pool
// runs short. Stacking holds at all times (4.0): with face-up or face-down
// infantry or artillery already in h, only as many are placed as keep the
// hex within three (4.2) and the rest stay in the pool, so a full hex
// yields none. Otherwise at least one is placed whenever the pool has one,
// which every table already promises (RULINGS.md R5).
//
// Each infantry unit is drawn at random from the pool, in counter order, by
// d (see drawIndex): the draw is uniform and any turn can be replayed. The
// units are placed face up: their identities are now public.
//
// The Japanese read everything. The U.S. reads only that the hex's hidden
// counters turned out to be the infantry units placed: not which counters
// they were, their tables, nor the table die. With the table and the die the
// U.S. could tell when the pool or stacking cut the yield short, and the
// pool is hidden from it; the table die is the Japanese
// player's own roll against a counter that then leaves the map.
func (s *State) revealUnknowns(h Hex, d Dice) ([]*Unit, []Event) {
	var unknowns []*Unit
	others := 0
	for _, u := range s.UnitsAt(h) {
		if u.Side() != JP {
			continue
		}
		if u.Kind() == Unknown {
			unknowns = append(unknowns, u)
		} else {
			others++
		}
	}
	if len(unknowns) == 0 {
		return nil, nil
	}
	var table *Unit
	var die, n int
	switch {
	case s.soloDefends(h):
		// rule 13.2: on a victory hex no table is rolled; three come.
		n = maxUnknownYield
	case s.IsSolitaire():
		table = s.soloTable(h, unknowns, d) // rule 13.1: drawn, not chosen
	default:
		table = s.unknownTable(h, unknowns)
	}
	if table != nil {
		// The die names no unit: a dice log shown to the U.S. must not say
		// which counter was which; the Japanese event names the table.
		die = d.Roll(Die{Purpose: DieUnknownTable, Side: JP, Hex: h, Seen: AudienceJP})
		n = min(table.Counter().Table[die-1], maxUnknownYield)
	}
	want := n

	gone := unitRefs(unknowns) // before they leave: where they stood
	for _, u := range unknowns {
		s.removeFromMap(u, s.convertedBox()) // for good in a short scenario (15.1)
	}
	n = min(n, jpStackLimit-others)
	var placed []*Unit
	for range max(n, 0) {
		pool := s.pool()
		var u *Unit
		switch {
		case len(pool) > 0:
			u = pool[drawIndex(len(pool), d, h)]
		case table == nil:
			u = s.soloReinforce(h, d) // rule 13.2: drawn from the eliminated
		}
		if u == nil {
			break
		}
		u.Hex, u.Box, u.FaceDown = h, "", false
		placed = append(placed, u)
	}

	priv := &Private{Die: die, Yield: want}
	if table != nil {
		priv.Table = table.ID
	} else {
		priv.Reason = ReasonVictoryHexDefence
	}
	if len(placed) < want {
		priv.Reason = ReasonPoolEmpty
		if len(placed) == jpStackLimit-others {
			priv.Reason = ReasonHexFull
		}
	}
	// The infantry placed are face up and public; which counters they
	// replace, the table and its die are the Japanese player's.
	return placed, []Event{{Kind: EventConverted, Seen: Visibility{US: SightAnonymous, JP: SightFull}, Side: JP,
		Units: gone, Others: unitRefs(placed), Hexes: []Hex{h}, Private: priv}}
}

// unknownTable picks the Unknown unit whose table is rolled for the units
// stacked in h (rule 2.5): the Japanese standing instruction for the hex,
// else the richest or poorest table on average.
func (s *State) unknownTable(h Hex, unknowns []*Unit) *Unit {
	st := s.Standing(JP)
	if id := st.UnknownTableAt[h]; id != "" {
		for _, u := range unknowns {
			if strings.EqualFold(u.ID, id) {
				return u
			}
		}
	}
	sum := func(u *Unit) int {
		t := 0
		for _, v := range u.Counter().Table {
			t += v
		}
		return t
	}
	best := unknowns[0]
	for _, u := range unknowns[1:] {
		a, b := sum(u), sum(best)
		if st.UnknownTable == TableFewest && a < b || st.UnknownTable != TableFewest && a > b {
			best = u
		}
	}
	return best
}

// pool returns the Japanese infantry available off the map (rule 2.5), in
// counter order.
func (s *State) pool() []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if u.Box == BoxPool && !u.OnMap() && u.Side() == JP && u.Kind() == Infantry {
			out = append(out, u)
		}
	}
	return out
}

// PoolCounts counts the Japanese infantry units (rule 2.5, 8.5): on the map,
// available in the pool and eliminated. Units in other boxes (unused in a
// scenario) are in none of the three.
func (s *State) PoolCounts() (onMap, pool, eliminated int) {
	for _, u := range s.Units {
		if u.Captured || u.Counter().Side() != JP || u.Kind() != Infantry {
			continue
		}
		switch {
		case u.OnMap():
			onMap++
		case u.Box == BoxPool:
			pool++
		case u.Box == BoxEliminated:
			eliminated++
		}
	}
	return onMap, pool, eliminated
}

// drawIndex draws a uniform index below n with ten-sided dice, for picking
// a unit at random from a list such as the pool. The dice read as digits (a
// 10 is 0): one die gives 0 to 9 when n is at most 10, two dice (tens, then
// units) give 0 to 99 when n is at most 100, and so on. A number below the
// largest multiple of n that the dice can show is taken modulo n; any other
// is rolled again. Every index is then equally likely and the draw depends
// only on the dice, so it replays exactly.
func drawIndex(n int, d Dice, h Hex) int {
	return drawWith(n, d, Die{Purpose: DiePoolDraw, Side: JP, Hex: h, Seen: AudienceJP})
}

// drawWith is drawIndex with die for every digit rolled: a uniform index
// below n.
func drawWith(n int, d Dice, die Die) int {
	if n <= 1 {
		return 0
	}
	digits, span := 1, 10
	for span < n {
		digits++
		span *= 10
	}
	limit := span - span%n
	for {
		v := 0
		for range digits {
			v = v*10 + d.Roll(die)%10
		}
		if v < limit {
			return v % n
		}
	}
}
