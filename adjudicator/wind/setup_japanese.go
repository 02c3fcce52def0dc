package wind

import (
	"fmt"
	"slices"
	"sort"
)

// The Japanese setup: historic (rule 12.3), placed by the server, or free
// (12.4), the Japanese orders of the jp-setup wait.
//
// Readings taken where the rules leave room (RULINGS.md R61, R62):
//
//   - Historic: the rule names the hexes, not which of the sixteen Unknown
//     units (each with its own table) stands in which. The server draws
//     them at random for the Japanese, out of the U.S. player's sight; the
//     guns of one calibre are alike, so they go in counter order (R61).
//   - Free: "not adjacent to any landing zone" keeps Unknown units out of
//     the landing zone hexes too, and counts every landing zone of the map;
//     "within two or three hexes" of a landing zone is a distance of 2 or
//     3, and each landing zone the scenario's U.S. force uses needs two
//     such Unknown units (one may serve several zones). The 20mm guns stand
//     at most five hexes from 3311, the 75mm guns in 3311 and 2409 with at
//     least one in each; stacking (4.2) holds for the guns. In The Linkup
//     eight Unknown units set up on each front (R62).
//   - Every unit sets up face down (2.5); the infantry waits in the pool.

// JPSetup is the Japanese orders of the setup wait (rules 12.4, 14.0).
type JPSetup struct {
	// Place puts each Japanese unit of the setup box in a hex (12.4).
	Place []Placement
	// VP puts a value chit on each victory hex but Attu Village, when the
	// Japanese place them (14.0).
	VP []VPPlacement
}

// Placement puts a unit in a hex.
type Placement struct {
	Unit string
	Hex  Hex
}

// The lists of the setup orders, as Problem.Part names them (PartLand
// names the landing's list).
const (
	PartPlace = "place"
	PartVP    = "vp"
)

// Artillery classes of the free setup (rule 12.4).
const (
	class20mm = "jp-20mm"
	class75mm = "jp-75mm"
)

// historicJapanese places the Japanese as rule 12.3 does (RULINGS.md R61):
// the Unknown units of the setup box drawn one by one for the listed hexes
// in order, the guns in counter order, everything face down.
func (s *State) historicJapanese(d Dice) ([]Event, error) {
	setup := s.Map().Setup
	var unknowns, guns20, guns75 []*Unit
	for _, u := range s.SetupUnits() {
		switch {
		case u.Kind() == Unknown:
			unknowns = append(unknowns, u)
		case u.Counter().Class.ID == class20mm:
			guns20 = append(guns20, u)
		case u.Counter().Class.ID == class75mm:
			guns75 = append(guns75, u)
		}
	}
	if len(unknowns) != len(setup.HistoricUnknown) || len(guns20) != len(setup.Historic20mm) || len(guns75) != len(setup.Historic75mm) {
		return nil, fmt.Errorf("adjudicator: the historic setup lists %d, %d and %d hexes for %d Unknown units, %d 20mm and %d 75mm guns (rule 12.3)",
			len(setup.HistoricUnknown), len(setup.Historic20mm), len(setup.Historic75mm), len(unknowns), len(guns20), len(guns75))
	}
	var placed []*Unit
	put := func(u *Unit, h Hex) {
		u.Hex, u.Box, u.FaceDown = h, "", true
		placed = append(placed, u)
	}
	for _, h := range setup.HistoricUnknown {
		i := drawWith(len(unknowns), d, Die{Purpose: DieSetupDraw, Side: JP, Hex: h, Seen: AudienceJP})
		put(unknowns[i], h)
		unknowns = slices.Delete(unknowns, i, i+1)
	}
	for i, h := range setup.Historic20mm {
		put(guns20[i], h)
	}
	for i, h := range setup.Historic75mm {
		put(guns75[i], h)
	}
	return []Event{s.setUpEvent(ReasonHistoric, placed)}, nil
}

// setUpEvent says where the Japanese units set up: the Japanese read the
// units, the U.S. how many counters stand in each hex.
func (s *State) setUpEvent(why Reason, placed []*Unit) Event {
	hexes := s.japaneseHexes()
	counts := make([]int, len(hexes))
	for i, h := range hexes {
		for _, u := range s.UnitsAt(h) {
			if u.Side() == JP {
				counts[i]++
			}
		}
	}
	return setupCounters(Event{Kind: EventJapaneseSetUp, Side: JP, Reason: why, Units: counterRefs(placed), Hexes: hexes, Counts: counts})
}

// japaneseHexes returns the hexes holding Japanese units, in order.
func (s *State) japaneseHexes() []Hex {
	var out []Hex
	for _, u := range s.Units {
		if u.OnMap() && u.Side() == JP && !slices.Contains(out, u.Hex) {
			out = append(out, u.Hex)
		}
	}
	slices.Sort(out)
	return out
}

// SetupBan says why Japanese unit u may not set up in h by the free setup
// (rule 12.4), judged on its own: the play area, the landing zones, the
// guns' hexes. The rules on the setup as a whole (one Unknown unit a hex,
// the landing zones covered, stacking) are judged with the whole orders.
func (s *State) SetupBan(u *Unit, h Hex) string {
	m := s.Map()
	setup := m.Setup
	switch {
	case !m.Land(h):
		return fmt.Sprintf("%s: %s is not a land hex of the map", u.ID, h)
	case !s.InPlayArea(h):
		return fmt.Sprintf("%s: %s", u.ID, s.areaBan(0, h))
	}
	switch u.Kind() {
	case Unknown:
		if lz, ok := s.landingZoneNear(h); ok {
			return fmt.Sprintf("%s: %s is %s landing zone %s, and no Unknown unit sets up in or next to a landing zone (rule 12.4)", u.ID, h, inOrNextTo(h, lz), lz.ID)
		}
	case Artillery:
		switch u.Counter().Class.ID {
		case class20mm:
			if dist := h.Distance(setup.FreeArtilleryCentre); dist > 5 {
				return fmt.Sprintf("%s: %s is %s from %s; the 20mm guns set up within five hexes of it (rule 12.4)", u.ID, h, plural(dist, "hex"), setup.FreeArtilleryCentre)
			}
		case class75mm:
			if !slices.Contains(setup.Free75mm, h) {
				return fmt.Sprintf("%s: the 75mm guns set up in %s only (rule 12.4)", u.ID, hexList(setup.Free75mm))
			}
		}
	default:
		return fmt.Sprintf("%s is %s: the infantry waits in the pool (rule 12.4)", u.ID, kindArticle(u.Kind()))
	}
	return ""
}

// CoverZones returns the landing zones the free Japanese setup must cover
// with two Unknown units each, within two or three hexes (rule 12.4): the
// zones the scenario's U.S. force lands at.
func (s *State) CoverZones() []LandingZone {
	var out []LandingZone
	for _, id := range s.ScenarioLandingZones("") {
		lz, _ := s.Map().LandingZone(id)
		out = append(out, lz)
	}
	return out
}

// covers reports whether an Unknown unit in h counts for landing zone lz
// (rule 12.4; RULINGS.md R62).
func covers(h Hex, lz LandingZone) bool {
	d := h.Distance(lz.Hex)
	return d >= 2 && d <= 3
}

// judgeJPSetup plays the Japanese setup orders on a copy and returns every
// problem found.
func (s *State) judgeJPSetup(js JPSetup) []Problem {
	var problems []Problem
	bad := func(i int, format string, a ...any) {
		problems = append(problems, Problem{Action: -1, Step: i, Part: PartPlace, Msg: fmt.Sprintf(format, a...)})
	}
	file := func(format string, a ...any) { bad(-1, format, a...) }
	historic := s.Options != nil && s.Options.JPSetup == SetupHistoric
	if historic && len(js.Place) > 0 {
		bad(0, "the historic setup has placed the Japanese units (rule 12.3): list only the victory point chits under vp:")
	}
	problems = append(problems, s.judgeVP(js.VP)...)
	if historic {
		return problems
	}
	units := s.SetupUnits()
	seen := map[string]int{}
	unknownAt := map[Hex]string{}
	guns := map[Hex]int{}
	var placed []Placement
	for i, p := range js.Place {
		u, ok := s.Unit(p.Unit)
		switch {
		case !ok:
			bad(i, "there is no unit %q", p.Unit)
			continue
		case u.Box != BoxSetup || u.Counter().Side() != JP:
			bad(i, "%s is not one of the units to set up: they are %s (rule 12.4)", u.ID, unitIDs(units))
			continue
		}
		if j, dup := seen[u.ID]; dup {
			bad(i, "%s is placed twice (first as entry %d)", u.ID, j+1)
			continue
		}
		seen[u.ID] = i
		if why := s.SetupBan(u, p.Hex); why != "" {
			bad(i, "%s", why)
			continue
		}
		if u.Kind() == Unknown {
			if other, dup := unknownAt[p.Hex]; dup {
				bad(i, "%s: %s already holds %s, and Unknown units set up one to a hex (rule 12.4)", u.ID, p.Hex, other)
				continue
			}
			unknownAt[p.Hex] = u.ID
		} else {
			if guns[p.Hex] >= jpStackLimit {
				bad(i, "%s: %s holds %d guns already, the most a hex may hold (rule 4.2)", u.ID, p.Hex, jpStackLimit)
				continue
			}
			guns[p.Hex]++
		}
		placed = append(placed, p)
	}
	var missing []string
	for _, u := range units {
		if _, ok := seen[u.ID]; !ok {
			missing = append(missing, u.ID)
		}
	}
	if len(missing) > 0 {
		file("place %s too: every Unknown unit%s the game gives sets up (rule 12.4)", joinAnd(missing), gunsText(s.spec().artillery))
	}
	// The setup as a whole, from the placements that are legal.
	for _, lz := range s.CoverZones() {
		var near []string
		for _, p := range placed {
			if u, _ := s.Unit(p.Unit); u.Kind() == Unknown && covers(p.Hex, lz) {
				near = append(near, fmt.Sprintf("%s in %s", u.ID, p.Hex))
			}
		}
		if len(near) < 2 {
			have := "none does"
			if len(near) == 1 {
				have = "only " + near[0] + " does"
			}
			file("landing zone %s (%s) needs two Unknown units two or three hexes away; %s (rule 12.4)", lz.ID, lz.Hex, have)
		}
	}
	if s.spec().artillery {
		for _, h := range s.Map().Setup.Free75mm {
			n := 0
			for _, p := range placed {
				if u, _ := s.Unit(p.Unit); u.Counter().Class.ID == class75mm && p.Hex == h {
					n++
				}
			}
			if n == 0 {
				file("%s needs at least one 75mm gun: they set up in %s, at least one in each (rule 12.4)", h, hexList(s.Map().Setup.Free75mm))
			}
		}
	}
	if n := s.spec().perFront; n > 0 {
		count := map[string]int{}
		for h := range unknownAt {
			count[s.Front(h)]++
		}
		for _, f := range []string{FrontNorth, FrontSouth} {
			if count[f] != n {
				file("the %s front of The Linkup holds %s; %d set up on each front (RULINGS.md R65)", f, plural(count[f], "Unknown unit"), n)
			}
		}
	}
	return problems
}

func gunsText(artillery bool) string {
	if artillery {
		return " and gun"
	}
	return ""
}

func unitIDs(us []*Unit) string {
	var ids []string
	for _, u := range us {
		ids = append(ids, u.ID)
	}
	if len(ids) == 0 {
		return "none"
	}
	return joinAnd(ids)
}

// setUpJapanese carries out the Japanese setup orders, already judged, and
// moves on to the U.S. landing. When the Japanese place the value chits,
// the 0 and Cancelled chits are drawn with d once they are down (rule
// 14.0): the Japanese choose where to put the values without knowing
// which hexes will be cancelled.
func (s *State) setUpJapanese(js JPSetup, d Dice) []Event {
	var evs []Event
	if len(js.Place) > 0 {
		var placed []*Unit
		for _, p := range js.Place {
			u, _ := s.Unit(p.Unit)
			u.Hex, u.Box, u.FaceDown = p.Hex, "", true
			placed = append(placed, u)
		}
		evs = append(evs, s.setUpEvent(ReasonFree, placed))
	}
	evs = append(evs, s.placeVP(js.VP)...)
	if s.VP != nil && s.VP.Mode == VPPlaced {
		evs = append(evs, s.drawCancelled(d)...)
	}
	s.await(WaitUSLanding, US)
	return evs
}

// PlanJPSetup returns legal Japanese setup orders (rules 12.4, 14.0),
// choosing at random with pick (pick(n) returns 0 to n-1), or the first
// choice every time when pick is nil: DefaultOrders uses that. It reads
// only what the Japanese know: the map, their units and the chits.
func (s *State) PlanJPSetup(pick func(int) int) JPSetup {
	random := pick != nil
	if !random {
		pick = func(int) int { return 0 }
	}
	js := JPSetup{VP: s.planVP(pick)}
	if s.Options != nil && s.Options.JPSetup == SetupHistoric {
		return js
	}
	var unknowns, guns []*Unit
	for _, u := range s.SetupUnits() {
		if u.Kind() == Unknown {
			unknowns = append(unknowns, u)
		} else {
			guns = append(guns, u)
		}
	}
	var cands []Hex
	for _, h := range s.Map().LandHexes() {
		if len(unknowns) > 0 && s.SetupBan(unknowns[0], h) == "" {
			cands = append(cands, h)
		}
	}
	quota := map[string]int{"": len(unknowns)}
	if n := s.spec().perFront; n > 0 {
		quota = map[string]int{FrontNorth: n, FrontSouth: n}
	}
	used := map[Hex]bool{}
	next := 0
	place := func(h Hex) {
		used[h] = true
		quota[s.Front(h)]--
		js.Place = append(js.Place, Placement{unknowns[next].ID, h})
		next++
	}
	free := func(ok func(Hex) bool) []Hex {
		var out []Hex
		for _, h := range cands {
			if !used[h] && quota[s.Front(h)] > 0 && ok(h) {
				out = append(out, h)
			}
		}
		return out
	}
	// Cover the landing zones first (12.4), greedily: each Unknown unit
	// goes to a hex covering as many zones still short as any.
	zones := s.CoverZones()
	for next < len(unknowns) {
		need := map[string]int{}
		for _, lz := range zones {
			need[lz.ID] = 2
			for h := range used {
				if covers(h, lz) {
					need[lz.ID]--
				}
			}
		}
		best, bestScore := []Hex(nil), 0
		for _, h := range free(func(Hex) bool { return true }) {
			score := 0
			for _, lz := range zones {
				if need[lz.ID] > 0 && covers(h, lz) {
					score++
				}
			}
			switch {
			case score > bestScore:
				best, bestScore = []Hex{h}, score
			case score == bestScore && score > 0:
				best = append(best, h)
			}
		}
		if len(best) == 0 {
			break
		}
		place(best[pick(len(best))])
	}
	// The rest anywhere; by default on or nearest the victory hexes.
	var objectives []Hex
	for _, vh := range s.Map().VictoryHexes {
		if s.InPlayArea(vh.Hex) {
			objectives = append(objectives, vh.Hex)
		}
	}
	for next < len(unknowns) {
		hs := free(func(Hex) bool { return true })
		if len(hs) == 0 {
			break
		}
		if random {
			place(hs[pick(len(hs))])
			continue
		}
		nearest := func(h Hex) int {
			d := 1 << 30
			for _, o := range objectives {
				d = min(d, h.Distance(o))
			}
			return d
		}
		best := hs[0]
		for _, h := range hs[1:] {
			if nearest(h) < nearest(best) {
				best = h
			}
		}
		place(best)
	}
	setup := s.Map().Setup
	stack := map[Hex]int{}
	var n75 int
	for _, u := range guns {
		var hs []Hex
		if u.Counter().Class.ID == class75mm && n75 < len(setup.Free75mm) {
			hs = []Hex{setup.Free75mm[n75]}
			n75++
		} else {
			for _, h := range s.Map().LandHexes() {
				if stack[h] < jpStackLimit && s.SetupBan(u, h) == "" {
					hs = append(hs, h)
				}
			}
		}
		if len(hs) == 0 {
			continue
		}
		h := hs[pick(len(hs))]
		stack[h]++
		js.Place = append(js.Place, Placement{u.ID, h})
	}
	return js
}

// planVP places the value chits, when the Japanese place them: the mix in
// an order chosen with pick, on the victory hexes in the map's order.
func (s *State) planVP(pick func(int) int) []VPPlacement {
	vp := s.DefaultVP()
	if len(vp) == 0 {
		return nil
	}
	values := slices.Clone(s.Counters().VP.Values)
	sort.Sort(sort.Reverse(sort.IntSlice(values)))
	for i, k := range permutation(len(values), pick) {
		if i < len(vp) {
			vp[i].Value = values[k]
		}
	}
	return vp
}

// permutation returns 0..n-1 in an order chosen with pick; in order when
// pick always answers 0 from the last place down, as Fisher-Yates does.
func permutation(n int, pick func(int) int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := i - pick(i+1)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// hexList names hexes for a sentence: "3311 and 2409".
func hexList(hs []Hex) string {
	names := make([]string, len(hs))
	for i, h := range hs {
		names[i] = h.String()
	}
	return joinAnd(names)
}
