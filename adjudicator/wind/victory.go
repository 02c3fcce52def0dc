package wind

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Victory (rule 3.8) and victory zones (rule 10.0).
//
// Readings taken where the rules leave room (RULINGS.md R45 to R50):
//
//   - "Occupies" a hex means at least one unit of the side stands in it and
//     none of the enemy's. Any unit counts, Unknown units and face-down
//     counters included, for both the victory hexes (U.S.) and landing zones
//     D to G (Japanese). (R45)
//   - The artillery on Engineer Hill (2717) "can fire on" landing zones D,
//     E, F and G when every one of them is within its range at its current
//     strength. Line of sight is not asked for: any friendly unit may call
//     in artillery (8.1.4), so range is what limits it. On the built-in
//     map zone G lies 9 hexes from 2717: the Japanese 75mm and a captured
//     U.S. 105mm battery (both range 10) reach all four, the 20mm does not.
//     (R46)
//   - Rule 3.8.2 counts the counters of the Japanese mix: infantry and
//     artillery on the map or in the pool. Unknown units never count, and
//     neither does captured U.S. artillery, which is not a Japanese unit.
//     (R47)
//   - When both sides meet a condition of 3.8.1 in the same step 8 (the
//     U.S. holding all six victory hexes while the Japanese hold landing
//     zones D to G), the U.S. wins: the rule lists its condition first and
//     the U.S. has taken the objectives the game is about. (R48)

// CasualtyLimit is the U.S. casualty track value at which the Japanese win
// at once (rule 3.8.2).
const CasualtyLimit = 30

// EngineerHill is the victory hex from which artillery threatens the
// southern landing zones (rule 3.8.1).
const EngineerHill Hex = 2717

// SouthernLandingZones are the landing zones the Japanese must hold, or
// cover with artillery from Engineer Hill, to win (rule 3.8.1).
var SouthernLandingZones = []string{"D", "E", "F", "G"}

// Over reports whether the game has been decided or has run out of turns.
func (s *State) Over() bool { return s.Wait().Over() }

// checkSuddenVictory applies rule 3.8.2, which holds at any moment of a
// turn: the Japanese win as soon as the U.S. casualty track reaches 30; the
// U.S. wins as soon as no Japanese infantry or artillery remains on the map
// or in the pool (Unknown units do not count). Code that inflicts losses
// calls it after every loss. It sets Winner and Victory and ends the game
// (it then waits for WaitEnded), returning the event that says so; it does
// nothing once the game is over.
func (s *State) checkSuddenVictory() []Event {
	if s.Over() {
		return nil
	}
	if s.Casualties >= CasualtyLimit {
		return s.endGame(Event{Side: JP, Reason: ReasonCasualties, Casualties: s.Casualties},
			fmt.Sprintf("the U.S. casualty track reached %d (rule 3.8.2)", s.Casualties))
	}
	if !s.japaneseFightOn() && !s.IsSolitaire() { // rule 13.6: the objectives alone
		return s.endGame(Event{Side: US, Reason: ReasonNoJapanese}, "no Japanese infantry or artillery remain (rule 3.8.2)")
	}
	return nil
}

// japaneseFightOn reports whether any Japanese infantry or artillery unit
// is on the map or in the pool (rule 3.8.2, RULINGS.md R47).
func (s *State) japaneseFightOn() bool {
	if s.Scenario != "" {
		return s.scenarioJapaneseLeft() // RULINGS.md R66
	}
	for _, u := range s.Units {
		c := u.Counter()
		if c.Side() != JP || (c.Kind() != Infantry && c.Kind() != Artillery) || u.Steps <= 0 {
			continue
		}
		if u.OnMap() || u.Box == BoxPool {
			return true
		}
	}
	return false
}

// checkVictory is step 8 (rule 3.8): the eliminations of 3.8.2 (which may
// already have ended the game) and then the objectives of 3.8.1. It ends
// the game and returns the event saying who won, or returns nothing.
func (s *State) checkVictory() []Event {
	if evs := s.checkSuddenVictory(); len(evs) > 0 || s.Over() {
		return evs
	}
	if s.Scenario != "" {
		return s.scenarioVictory() // RULINGS.md R66
	}
	if s.usHoldsVictoryHexes() {
		return s.endGame(Event{Side: US, Reason: ReasonVictoryHexes}, "the U.S. occupies all six victory hexes at step 8 (rule 3.8.1)")
	}
	if s.japaneseHoldLandingZones() {
		return s.endGame(Event{Side: JP, Reason: ReasonLandingZones}, "the Japanese occupy landing zones D, E, F and G at step 8 (rule 3.8.1)")
	}
	if u := s.artilleryOnEngineerHill(); u != nil {
		what, reason := "Japanese artillery", ReasonEngineerHill
		if u.Captured {
			what, reason = "captured U.S. artillery", ReasonEngineerHillCapture
		}
		// The Japanese player shows the gun to claim the win, so it is
		// face up from here on, as the event names it.
		u.FaceDown = false
		return s.endGame(Event{Side: JP, Reason: reason, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{EngineerHill}},
			fmt.Sprintf("%s on Engineer Hill (%s), %s, covers landing zones D, E, F and G at step 8 (rule 3.8.1)", what, EngineerHill, u.ID))
	}
	return nil
}

// holds reports whether side occupies h: a unit of side stands there and
// no enemy unit does.
func (s *State) holds(h Hex, side Side) bool {
	have := false
	for _, u := range s.UnitsAt(h) {
		if u.Side() != side {
			return false
		}
		have = true
	}
	return have
}

func (s *State) usHoldsVictoryHexes() bool {
	vhs := s.Map().VictoryHexes
	if len(vhs) == 0 {
		return false
	}
	for _, vh := range vhs {
		if !s.holds(vh.Hex, US) {
			return false
		}
	}
	return true
}

func (s *State) japaneseHoldLandingZones() bool {
	for _, id := range SouthernLandingZones {
		lz, ok := s.Map().LandingZone(id)
		if !ok || !s.holds(lz.Hex, JP) {
			return false
		}
	}
	return true
}

// artilleryOnEngineerHill returns an artillery unit fighting for the
// Japanese on 2717 with every southern landing zone within its range, or
// nil (rule 3.8.1).
func (s *State) artilleryOnEngineerHill() *Unit {
	if !s.holds(EngineerHill, JP) {
		return nil
	}
	for _, u := range s.UnitsAt(EngineerHill) {
		if u.Kind() == Artillery && u.Side() == JP && s.coversSouthernZones(u) {
			return u
		}
	}
	return nil
}

// coversSouthernZones reports whether every landing zone D to G lies within
// the range of u's ranged combat at its current strength.
func (s *State) coversSouthernZones(u *Unit) bool {
	r := u.Rating()
	if r.Ranged <= 0 || r.Range <= 0 {
		return false
	}
	for _, id := range SouthernLandingZones {
		lz, ok := s.Map().LandingZone(id)
		if !ok || u.Hex.Distance(lz.Hex) > r.Range {
			return false
		}
	}
	return true
}

// IsCleared reports whether the victory zone with letter z carries a Zone
// Cleared marker (rule 10.0).
func (s *State) IsCleared(z string) bool { return slices.Contains(s.Cleared, z) }

// ClearedAt reports whether hex h lies in a cleared victory zone, where the
// Japanese may neither move nor place Unknown units (rule 10.0).
func (s *State) ClearedAt(h Hex) bool {
	z := s.Map().Zone(h)
	return z != "" && s.IsCleared(z)
}

// unknownBarred reports whether u is an Unknown unit and h lies in a
// cleared victory zone, where no Unknown unit may move or be placed (rule
// 10.0, RULINGS.md R50). Movement, the Yamasaki charge, the melee advance
// and Reachable ask it; Japanese units never retreat (8.2.1.3), so retreats
// need not.
func (s *State) unknownBarred(u *Unit, h Hex) bool {
	return u.Kind() == Unknown && s.ClearedAt(h)
}

// unknownBarredMsg is the refusal for an Unknown unit sent into a cleared
// zone. Only the Japanese read it: it names their own unit.
func (s *State) unknownBarredMsg(u *Unit, h Hex) string {
	m := s.Map()
	return fmt.Sprintf("%s: %s lies in the cleared %s zone, and Unknown units may not enter a cleared victory zone (rule 10.0)",
		u.ID, h, m.ZoneName(m.Zone(h)))
}

// UpdateCleared applies rule 10.0 to a copy of s, as the server does after
// every move and melee, and returns the copy and what happened; s itself is
// never changed. Tools and tests that change a position by hand use it to
// bring the Zone Cleared markers up to date.
func UpdateCleared(s *State) (*State, []Event) {
	out := s.Clone()
	return out, out.updateCleared()
}

// updateCleared applies rule 10.0 to the position as it stands; code that
// moves units or ends a melee calls it afterwards (RULINGS.md R49, R50).
//
//   - A zone whose victory hex holds Japanese infantry (not an Unknown
//     unit) loses its Zone Cleared marker.
//   - A zone not cleared becomes cleared when a U.S. unit occupies its
//     victory hex and no Japanese unit other than Unknown units stands in
//     the zone; its Unknown units leave the map at once for the off-map box
//     (they may come back in a refit turn, 9.6, but not into a cleared
//     zone). A zone may be cleared any number of times.
//   - The Attu Village zone is never cleared.
//
// It returns the events saying which zone is cleared or no longer is, and
// the Unknown units that left it: the U.S. reads how many counters.
func (s *State) updateCleared() []Event {
	m := s.Map()
	var evs []Event
	for _, vh := range m.VictoryHexes {
		z := vh.Zone
		if isAttuVillage(vh) {
			continue
		}
		if s.IsCleared(z) {
			if s.japaneseInfantryIn(vh.Hex) {
				// New slices throughout: a clone shares the old one.
				s.Cleared = slices.DeleteFunc(slices.Clone(s.Cleared), func(c string) bool { return c == z })
				evs = append(evs, Event{Kind: EventZoneRetaken, Seen: Public, Side: JP, Hexes: []Hex{vh.Hex},
					Zone: z, ZoneName: m.ZoneName(z), Place: vh.Name})
			}
			continue
		}
		if !s.holds(vh.Hex, US) || s.japaneseBesidesUnknownIn(z) {
			continue
		}
		s.Cleared = append(slices.Clip(s.Cleared), z)
		sort.Strings(s.Cleared)
		var gone []EventUnit
		var from []Hex
		for _, u := range s.Units {
			if u.OnMap() && u.Kind() == Unknown && m.Zone(u.Hex) == z {
				gone = append(gone, unitRef(u))
				from = append(from, u.Hex)
				// Off the map a unit has no face, as wherever else units
				// leave it (removeFromMap).
				s.removeFromMap(u, BoxOffMap)
				u.Acted, u.MPSpent, u.Fought = false, 0, false
			}
		}
		// Only Unknown units can be left in a zone being cleared, so their
		// count tells the U.S. nothing the rule does not; which they were
		// it does not read.
		evs = append(evs, Event{Kind: EventZoneCleared, Seen: seenAbout(gone), Side: US, Units: gone,
			Hexes: append([]Hex{vh.Hex}, from...), Zone: z, ZoneName: m.ZoneName(z), Place: vh.Name})
	}
	return evs
}

// japaneseInfantryIn reports whether Japanese infantry (not an Unknown
// unit) stands in h.
func (s *State) japaneseInfantryIn(h Hex) bool {
	for _, u := range s.UnitsAt(h) {
		if u.Side() == JP && u.Kind() == Infantry {
			return true
		}
	}
	return false
}

// japaneseBesidesUnknownIn reports whether any unit fighting for the
// Japanese other than an Unknown unit stands in victory zone z.
func (s *State) japaneseBesidesUnknownIn(z string) bool {
	m := s.Map()
	for _, u := range s.Units {
		if u.OnMap() && u.Side() == JP && u.Kind() != Unknown && m.Zone(u.Hex) == z {
			return true
		}
	}
	return false
}

// isAttuVillage reports whether vh is the Attu Village victory hex, whose
// zone is never cleared (rule 10.0). The map names it; a transcribed map
// must keep the name.
func isAttuVillage(vh VictoryHex) bool {
	return strings.EqualFold(vh.Name, "Attu Village")
}
