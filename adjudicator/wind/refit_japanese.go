package wind

import (
	"fmt"
	"slices"
	"sort"
)

// Steps 5 to 7 of a refit turn: the Japanese hide units (rule 9.5), move
// and swap Unknown units (9.6), and the turn marker advances (9.7).
//
// Readings taken where the rules leave room:
//
//   - Hiding (9.5) is for units face up on the map; listing a unit already
//     face down does nothing. Captured U.S. artillery has no hidden side
//     (RULINGS.md R58).
//   - "Not adjacent to a U.S. unit" also keeps Unknown units out of a hex
//     holding U.S. units: no hex holds both sides.
//   - A swap (9.6, step 2) takes every Japanese infantry unit of the hex
//     back to the pool (they are not eliminated); artillery and Unknown
//     units there stay. It places at least one Unknown unit from off the
//     map, each within seven movement points of the hex: Japanese movement
//     costs (5.0), through no hex holding U.S. units, zones of control
//     aside (the distance of a placement, not a move), weather and night
//     aside.
//   - The limit of 9.6 counts every Unknown unit on the map, as its worked
//     figures do (16 Unknown units are no constraint until 49 infantry are
//     lost): no placement may leave more Unknown units on the map than
//     Japanese infantry units left on the map and in the pool (RULINGS.md
//     R59).
//   - The turn advance of a refit turn (9.7) turns nothing face down: rule
//     3.9's flip belongs to step 9 of a normal turn, and 9.5 gave the
//     Japanese their choice (RULINGS.md R58).

// Rearrange is the Japanese orders of a refit turn (rules 9.5, 9.6),
// carried out in the order of the rules.
type Rearrange struct {
	// Hide lists units to turn face down (9.5).
	Hide []string
	// Moves moves Unknown units on the map anywhere allowed (9.6, step 1).
	Moves []UnknownMove
	// Swaps takes the infantry of hexes off the map for Unknown units from
	// off the map (9.6, step 2).
	Swaps []Swap
}

// UnknownMove puts an Unknown unit in hex To (rule 9.6).
type UnknownMove struct {
	Unit string
	To   Hex
}

// Swap takes every Japanese infantry unit of Hex back to the pool and
// places Unknown units from off the map within seven movement points of it
// (rule 9.6, step 2).
type Swap struct {
	Hex   Hex
	Place []UnknownMove
}

// SwapReach is how far from a swapped hex Unknown units are placed, in
// movement points (rule 9.6).
const SwapReach = 7

// HideBan says why Japanese unit u may not turn face down in a refit turn
// (rule 9.5), or returns "": it must stand on the map, not next to a U.S.
// unit, and neither in nor next to a landing zone.
func (s *State) HideBan(u *Unit) string {
	switch {
	case u.Captured:
		return fmt.Sprintf("%s is captured U.S. artillery, which has no hidden side", u.ID)
	case !u.OnMap():
		return fmt.Sprintf("%s is not on the map", u.ID)
	}
	if h := s.usNextTo(u.Hex); h != 0 {
		return fmt.Sprintf("%s in %s is next to U.S. units in %s (rule 9.5)", u.ID, u.Hex, h)
	}
	if lz, ok := s.landingZoneNear(u.Hex); ok {
		return fmt.Sprintf("%s in %s is %s landing zone %s (rule 9.5)", u.ID, u.Hex, inOrNextTo(u.Hex, lz), lz.ID)
	}
	return ""
}

// UnknownBan says why no Unknown unit may be moved or placed in h in a
// refit turn (rule 9.6), or returns "": h must be land, hold no U.S. unit
// and be next to none, be neither in nor next to a landing zone, and lie
// in no cleared victory zone (10.0).
func (s *State) UnknownBan(h Hex) string {
	m := s.Map()
	switch {
	case !m.Land(h):
		return fmt.Sprintf("%s is not a land hex of the map", h)
	case s.Occupied(h) == US:
		return fmt.Sprintf("%s holds U.S. units (rule 9.6)", h)
	}
	if n := s.usNextTo(h); n != 0 {
		return fmt.Sprintf("%s is next to U.S. units in %s (rule 9.6)", h, n)
	}
	if lz, ok := s.landingZoneNear(h); ok {
		return fmt.Sprintf("%s is %s landing zone %s (rule 9.6)", h, inOrNextTo(h, lz), lz.ID)
	}
	if s.ClearedAt(h) {
		return fmt.Sprintf("%s lies in the cleared %s zone (rules 9.6, 10.0)", h, m.ZoneName(m.Zone(h)))
	}
	if !s.InPlayArea(h) {
		return s.areaBan(0, h)
	}
	return ""
}

// usNextTo returns a hex next to h holding U.S. units, or 0.
func (s *State) usNextTo(h Hex) Hex {
	for _, n := range h.Neighbours() {
		if s.Occupied(n) == US {
			return n
		}
	}
	return 0
}

// landingZoneNear returns a landing zone in h or next to it.
func (s *State) landingZoneNear(h Hex) (LandingZone, bool) {
	for _, lz := range s.Map().LandingZones {
		if lz.Hex == h || lz.Hex.Adjacent(h) {
			return lz, true
		}
	}
	return LandingZone{}, false
}

func inOrNextTo(h Hex, lz LandingZone) string {
	if lz.Hex == h {
		return "in"
	}
	return "next to"
}

// unknownsOnMap counts the Unknown units on the map.
func (s *State) unknownsOnMap() int {
	n := 0
	for _, u := range s.Units {
		if u.OnMap() && u.Kind() == Unknown {
			n++
		}
	}
	return n
}

// SwapHexes returns the hexes an Unknown unit may be placed in when the
// infantry of hex h is swapped (rule 9.6, step 2): within seven movement
// points of h, by Japanese costs, through no hex holding U.S. units, and
// not banned (UnknownBan). h itself is among them when it is not banned.
func (s *State) SwapHexes(h Hex) []Hex {
	reach := s.swapReach(h)
	var out []Hex
	for x := range reach {
		if s.UnknownBan(x) == "" && s.areaBan(h, x) == "" {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

func (s *State) swapReach(h Hex) map[Hex]int {
	block := func(x Hex) bool { return s.Occupied(x) == US }
	return Reach(s.Map(), JP, []Hex{h}, SwapReach, ReachOptions{Block: block})
}

// rearrange carries out (or, with judge, judges) the Japanese refit orders
// on s: hiding (9.5), then moves and swaps of Unknown units (9.6). Judging,
// every problem is returned; carrying out, s has already been judged and
// the events say what happened: the Japanese read everything, the U.S.
// only what the counters on the map show.
func (s *State) rearrange(o Rearrange, judge bool) ([]Event, []Problem) {
	var problems []Problem
	bad := func(part string, i, place int, format string, a ...any) {
		problems = append(problems, Problem{Action: -1, Step: i, Part: part, Place: place, Msg: fmt.Sprintf(format, a...)})
	}
	jpUnit := func(id string) (*Unit, string) {
		u, ok := s.Unit(id)
		switch {
		case !ok:
			return nil, fmt.Sprintf("there is no unit %q", id)
		case u.Side() != JP:
			return nil, fmt.Sprintf("%s is not a Japanese unit", id)
		}
		return u, ""
	}
	before := s.usSight()

	// Step 5 (9.5): hiding.
	var hidden []EventUnit
	seen := map[string]int{}
	for i, id := range o.Hide {
		u, why := jpUnit(id)
		if why == "" {
			if j, dup := seen[u.ID]; dup {
				why = fmt.Sprintf("%s is listed twice under hide (first as entry %d)", u.ID, j+1)
			} else {
				seen[u.ID] = i
				why = s.HideBan(u)
			}
		}
		if why != "" {
			bad(PartHide, i, 0, "%s", why)
			continue
		}
		if !u.FaceDown {
			u.FaceDown = true
			hidden = append(hidden, unitRef(u))
		}
	}

	// Step 6 (9.6), part 1: Unknown units on the map move.
	var moved []EventUnit // where each went
	var from []Hex        // and where it came from
	seen = map[string]int{}
	for i, mv := range o.Moves {
		u, why := jpUnit(mv.Unit)
		if why == "" {
			if j, dup := seen[u.ID]; dup {
				why = fmt.Sprintf("%s is listed twice under move (first as entry %d)", u.ID, j+1)
			} else {
				seen[u.ID] = i
				why = s.unknownMoveBan(u, mv.To)
			}
		}
		if why != "" {
			bad(PartMove, i, 0, "%s", why)
			continue
		}
		from = append(from, u.Hex)
		u.Hex = mv.To
		moved = append(moved, unitRef(u))
	}

	// Step 6 (9.6), part 2: swaps.
	var swapped []Event
	placed := map[string]bool{}
	for i, sw := range o.Swaps {
		var inf []*Unit
		for _, u := range s.UnitsAt(sw.Hex) {
			if u.Side() == JP && u.Kind() == Infantry {
				inf = append(inf, u)
			}
		}
		if len(inf) == 0 {
			bad(PartSwap, i, 0, "%s holds no Japanese infantry to swap (rule 9.6)", sw.Hex)
			continue
		}
		if len(sw.Place) == 0 {
			bad(PartSwap, i, 0, "the infantry of %s is swapped for Unknown units: name at least one to place (rule 9.6)", sw.Hex)
			continue
		}
		reach := s.swapReach(sw.Hex)
		back := unitRefs(inf) // where they stood
		for _, u := range inf {
			s.removeFromMap(u, BoxPool)
		}
		var put []EventUnit
		for k, pl := range sw.Place {
			u, why := jpUnit(pl.Unit)
			if why == "" {
				why = s.placeBan(u, pl.To, reach, sw.Hex, placed)
			}
			if why != "" {
				bad(PartSwap, i, k+1, "%s", why)
				continue
			}
			placed[u.ID] = true
			u.Hex, u.Box, u.FaceDown = pl.To, "", true
			put = append(put, unitRef(u))
		}
		swapped = append(swapped, Event{Kind: EventSwap, Side: JP, Units: back, Others: put, Hexes: []Hex{sw.Hex}})
	}
	if judge {
		return nil, problems
	}

	var evs []Event
	if len(hidden) > 0 {
		evs = append(evs, refitSeen(JP, Event{Kind: EventRefitHidden, Side: JP, Units: hidden}))
	}
	if len(moved) > 0 {
		evs = append(evs, refitSeen(JP, Event{Kind: EventUnknownsMoved, Side: JP, Units: moved, Hexes: from}))
	}
	for _, sw := range swapped {
		evs = append(evs, refitSeen(JP, sw))
	}
	evs = append(evs, s.usSightChanges(before)...)
	return evs, nil
}

// unknownMoveBan says why u may not move to h in step 1 of rule 9.6, or
// returns "".
func (s *State) unknownMoveBan(u *Unit, h Hex) string {
	switch {
	case u.Kind() != Unknown:
		return fmt.Sprintf("%s is not an Unknown unit: only Unknown units move in a refit turn (rule 9.6)", u.ID)
	case !u.OnMap():
		return fmt.Sprintf("%s is off the map: Unknown units off the map come back only by a swap (rule 9.6)", u.ID)
	case h == u.Hex:
		return fmt.Sprintf("%s already stands in %s", u.ID, h)
	case s.soloFixedBan(u) != "":
		return s.soloFixedBan(u) // rule 13.2.1
	}
	if why := s.UnknownBan(h); why != "" {
		return fmt.Sprintf("%s may not go to %s", u.ID, why)
	}
	if why := s.areaBan(u.Hex, h); why != "" {
		return fmt.Sprintf("%s may not go to %s", u.ID, why)
	}
	return ""
}

// placeBan says why u may not be placed in h by the swap of hex from (rule
// 9.6, step 2), or returns "". reach is how far from the swapped hex each
// hex lies; placed the Unknown units already placed by these orders.
func (s *State) placeBan(u *Unit, h Hex, reach map[Hex]int, from Hex, placed map[string]bool) string {
	switch {
	case u.Kind() != Unknown:
		return fmt.Sprintf("%s is not an Unknown unit: a swap places Unknown units (rule 9.6)", u.ID)
	case placed[u.ID]:
		return fmt.Sprintf("%s is placed twice", u.ID)
	case u.OnMap() || u.Box != BoxOffMap:
		return fmt.Sprintf("%s is not off the map: a swap places Unknown units from off the map (rule 9.6)", u.ID)
	}
	if why := s.UnknownBan(h); why != "" {
		return fmt.Sprintf("%s may not be placed: %s", u.ID, why)
	}
	if why := s.areaBan(from, h); why != "" {
		return fmt.Sprintf("%s may not be placed: %s", u.ID, why)
	}
	if _, ok := reach[h]; !ok {
		return fmt.Sprintf("%s may not be placed in %s: it is more than %d movement points from %s (rule 9.6)", u.ID, h, SwapReach, from)
	}
	onMap, pool, _ := s.PoolCounts()
	if s.unknownsOnMap()+1 > onMap+pool {
		return fmt.Sprintf("%s may not be placed: %s would stand on the map with %s left on and off the map (rule 9.6)",
			u.ID, plural(s.unknownsOnMap()+1, "Unknown unit"), plural(onMap+pool, "infantry unit"))
	}
	return ""
}

// sight is what the U.S. sees in each hex: the Japanese units it
// can name and the number of anonymous counters.
type sight struct {
	named  []string
	hidden int
}

// usSight returns what the U.S. sees of the Japanese on the map, by hex.
func (s *State) usSight() map[Hex]sight {
	out := map[Hex]sight{}
	for _, u := range s.Units {
		if !u.OnMap() || u.Side() != JP {
			continue
		}
		v := out[u.Hex]
		if hiddenFrom(u, US) {
			v.hidden++
		} else {
			v.named = append(v.named, u.ID)
		}
		out[u.Hex] = v
	}
	return out
}

// usSightChanges tells the U.S. where the Japanese refit changed what it
// sees (rules 9.5, 9.6): the hexes, and how many counters stand in each
// now. It says nothing else, not even which face-up unit turned face down
// and which left the map, since a swap that puts an Unknown unit where
// infantry stood looks the same on the table: how the counters came to
// stand where they do is the Japanese player's secret (RULINGS.md R60).
func (s *State) usSightChanges(before map[Hex]sight) []Event {
	after := s.usSight()
	var hexes []Hex
	for h := range before {
		hexes = append(hexes, h)
	}
	for h := range after {
		if _, ok := before[h]; !ok {
			hexes = append(hexes, h)
		}
	}
	sort.Slice(hexes, func(i, j int) bool { return hexes[i] < hexes[j] })
	var changed []Hex
	var counts []int
	for _, h := range hexes {
		b, a := before[h], after[h]
		if slices.Equal(b.named, a.named) && b.hidden == a.hidden {
			continue
		}
		changed = append(changed, h)
		counts = append(counts, len(a.named)+a.hidden)
	}
	return []Event{refitSeen(US, Event{Kind: EventRefitMap, Side: JP, Hexes: changed, Counts: counts})}
}

// refitJP carries out the Japanese refit orders (rules 9.5, 9.6), already
// judged, then advances the turn (9.7).
func (s *State) refitJP(o Rearrange) []Event {
	evs, _ := s.rearrange(o, false)
	evs = append(evs, s.updateCleared()...)
	evs = append(evs, s.checkSuddenVictory()...)
	if s.Over() {
		return evs
	}
	return append(evs, s.advanceRefit()...)
}

// advanceRefit is step 7 (rule 9.7): the end of the game when this was the
// last turn (3.8.3), else the next turn with the Komandorski chits flipped
// as their dates come (12.1.3). Nothing turns face down: 9.5 did that.
func (s *State) advanceRefit() []Event {
	if last := s.lastTurn(); last > 0 && s.Turn >= last {
		evs := []Event{refitPublic(Event{Kind: EventLastTurn, Turn: s.Turn})}
		return append(evs, s.endGame(Event{Side: JP, Reason: ReasonLastTurn}, lastTurnWhy)...)
	}
	s.Turn++
	evs := []Event{refitPublic(Event{Kind: EventTurnBegins, Turn: s.Turn, Reason: ReasonAfterRefit})}
	evs = append(evs, s.revealKomandorski()...)
	s.await(WaitUSDecision, US)
	return evs
}

// DefaultRearrange returns the Japanese refit orders that stand when the
// Japanese miss the deadline of their refit wait: every unit
// that may turn face down does (9.5); no Unknown unit moves or is swapped.
func (s *State) DefaultRearrange() *Rearrange {
	r := &Rearrange{}
	for _, u := range s.Units {
		if u.OnMap() && u.Side() == JP && !u.FaceDown && !u.Captured && s.HideBan(u) == "" {
			r.Hide = append(r.Hide, u.ID)
		}
	}
	return r
}
