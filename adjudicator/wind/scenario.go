package wind

import (
	"fmt"
	"slices"
)

// Scenarios (rules 12.0 and 15.0): the campaign game and the three short
// scenarios, each with its forces, its play area, its modifiers and its
// goal. A game's scenario is State.Scenario: "" for the campaign, else one
// of the Scenario* names.
//
// Readings taken where the rules leave room (RULINGS.md R64 to R66):
//
//   - The play area of a short scenario is its victory zones together with
//     the hexes its map lists for it (scenario_areas): on the built-in map
//     landing zones F and G lie in the Alexei Point zone, and the hexes
//     that join them to the Engineer Hill zone belong to the area. No unit
//     moves, retreats, advances, lands or is placed outside it (R64).
//   - The Linkup has two fronts: the north (the Holtz Bay and Jarmin Pass
//     zones) and the south (the Engineer Hill area). A unit of either side
//     crosses from the north into the south only once Jarmin Pass is
//     secured, and from the south into the north only once Engineer Hill
//     is: a zone is secured while it carries its Zone Cleared marker
//     (10.0). Each U.S. unit belongs to the force of the landing zones it
//     came from and lands only there (R64).
//   - The U.S. forces are the units 12.5 puts in the scenario's landing
//     zones; its reinforcements are those 15.x names, the 32nd Infantry
//     including the company 12.5 lands at C. The Japanese receive Unknown
//     units drawn at random (eight; sixteen in The Linkup, eight for each
//     front) and no artillery, whose setup hexes of 12.4 lie outside the
//     areas; the infantry they turn into comes from the pool. An Unknown
//     unit converted to infantry leaves play for good (R65).
//   - No hero is available: the game begins with the three of rule 11
//     spent. No Komandorski chit is drawn: every scenario ends before May
//     24 (R65).
//   - The U.S. wins by occupying the scenario's victory hex (both, in The
//     Linkup) at a step 8 on or before the scenario's last day; the
//     Japanese win when that turn ends without it. The U.S. casualty track
//     at 30 still ends the game (3.8.2); the U.S. wins by 3.8.2 when no
//     Japanese infantry stands on the map and no Unknown unit of the
//     scenario is left, on the map or off it. The Japanese goals of 3.8.1
//     belong to the campaign (R66).

// ScenarioCampaign names the campaign game (rule 12.0) where a name is
// asked for; the state holds "" for it.
const ScenarioCampaign = "campaign"

// Fronts of The Linkup (rule 15.3).
const (
	FrontNorth = "north" // the Holtz Bay and Jarmin Pass area (15.2)
	FrontSouth = "south" // the Engineer Hill area (15.1)
)

// ScenarioArea is the play area of a short scenario on a map (rule 15):
// its victory zones and the hexes outside them that belong to it.
type ScenarioArea struct {
	Scenario string   `yaml:"scenario"`
	Zones    []string `yaml:"zones"`
	Hexes    []Hex    `yaml:"hexes"`
}

// scenarioSpec is what a scenario changes of the campaign game.
type scenarioSpec struct {
	name  string
	title string
	rule  string
	// landing is the landing zones the U.S. force uses; nil for all.
	landing []string
	// initial and reinforcements are the U.S. units of the opening
	// landing and those that may land later; nil for the campaign's.
	initial, reinforcements []string
	// unknowns is how many Unknown units the Japanese receive; perFront
	// is how many of them set up on each front of The Linkup.
	unknowns, perFront int
	// artillery: the Japanese guns are in play.
	artillery bool
	// objectives are the victory hexes the U.S. must occupy at a step 8
	// by lastDay (a day of May); none for the campaign (3.8.1).
	objectives []Hex
	lastDay    int
}

// The U.S. forces of rule 12.5, line by line. The rule counts companies and
// batteries; which counters they are is attu's reading (RULINGS.md R63).
var (
	usZoneA    = []string{"7SCT", "7RCN"}
	usZoneB    = []string{"1/17-A", "1/17-B", "1/17-C", "1/17-D", "105-1"}
	usZoneC    = []string{"2/32-E"}
	usZonesDG  = []string{"2/17-E", "2/17-F", "2/17-G", "2/17-H", "3/17-I", "3/17-K", "3/17-L", "3/17-M", "2/32-F", "2/32-G", "2/32-H", "105-2", "105-3", "105-4"}
	usZoneHI   = []string{"IRP"}
	us32nd     = []string{"1/32-A", "1/32-B", "1/32-C", "1/32-D", "3/32-I", "3/32-K", "3/32-L", "3/32-M"}
	us4th      = []string{"1/4-A", "1/4-B", "1/4-C", "1/4-D"}
	us13thEng  = []string{"13E-A", "13E-B", "13E-C"}
	us50thEng  = []string{"50E-A", "50E-B", "50E-C"}
	usArtReinf = []string{"105-5", "105-6", "75PH"}
	// usReduced are the units that begin below full strength (12.5: the
	// recon troop lands with 3 steps).
	usReduced = map[string]int{"7RCN": 3}
)

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

var scenarioSpecs = []scenarioSpec{
	{name: "", title: "The campaign", rule: "12.0",
		initial:        concat(usZoneA, usZoneB, usZoneC, usZonesDG, usZoneHI),
		reinforcements: concat(us32nd, us4th, us13thEng, us50thEng, usArtReinf),
		unknowns:       16, artillery: true},
	{name: ScenarioUpTheHogsBack, title: "Up the Hog's Back", rule: "15.1",
		landing:        []string{"D", "E", "F", "G"},
		initial:        usZonesDG,
		reinforcements: concat(us32nd, usZoneC, us13thEng),
		unknowns:       8, objectives: []Hex{EngineerHill}, lastDay: 18},
	{name: ScenarioHoltzBayToJarminPass, title: "Holtz Bay to Jarmin Pass", rule: "15.2",
		landing:        []string{"A", "B"},
		initial:        concat(usZoneA, usZoneB),
		reinforcements: concat(us4th, us50thEng),
		unknowns:       8, objectives: []Hex{JarminPass}, lastDay: 22},
	{name: ScenarioTheLinkup, title: "The Linkup", rule: "15.3",
		landing:        []string{"A", "B", "D", "E", "F", "G"},
		initial:        concat(usZoneA, usZoneB, usZonesDG),
		reinforcements: concat(us4th, us50thEng, us32nd, usZoneC, us13thEng),
		unknowns:       16, perFront: 8, objectives: []Hex{JarminPass, EngineerHill}, lastDay: 22},
}

// JarminPass is the victory hex of Holtz Bay to Jarmin Pass (rule 15.2).
const JarminPass Hex = 2117

// northForce are the U.S. units of the northern force in The Linkup: those
// 12.5 lands at A and B and the reinforcements of 15.2.
var northForce = concat(usZoneA, usZoneB, us4th, us50thEng)

// spec returns the rules of s's scenario; the campaign's for an unknown
// name.
func (s *State) spec() *scenarioSpec { return specOf(s.Scenario) }

func specOf(name string) *scenarioSpec {
	for i := range scenarioSpecs {
		if scenarioSpecs[i].name == name {
			return &scenarioSpecs[i]
		}
	}
	return &scenarioSpecs[0]
}

// ScenarioNames returns the names NewGameFrom takes: "campaign" and the
// three short scenarios of rule 15.
func ScenarioNames() []string {
	out := []string{ScenarioCampaign}
	for _, sp := range scenarioSpecs[1:] {
		out = append(out, sp.name)
	}
	return out
}

// ScenarioTitle returns a scenario's title, like "Up the Hog's Back";
// "" and "campaign" are "The campaign".
func ScenarioTitle(name string) string {
	if name == ScenarioCampaign {
		name = ""
	}
	return specOf(name).title
}

// ScenarioRule returns the rule that describes a scenario, like "15.1";
// "12.0" for the campaign.
func ScenarioRule(name string) string {
	if name == ScenarioCampaign {
		name = ""
	}
	return specOf(name).rule
}

// knownScenario reports whether name is one NewGameFrom takes ("" or
// "campaign" for the campaign).
func knownScenario(name string) bool {
	return name == "" || slices.Contains(ScenarioNames(), name)
}

// InPlayArea reports whether h lies in the play area of the game's
// scenario (rule 15); every land hex does in the campaign.
func (s *State) InPlayArea(h Hex) bool {
	if s.Scenario == "" {
		return s.Map().Land(h)
	}
	return s.Map().inArea(s.Scenario, h)
}

// inArea reports whether h lies in the play area of scenario name on m.
// A map without an area for it has the scenario's victory zones alone.
func (m *Map) inArea(name string, h Hex) bool {
	if !m.Land(h) {
		return false
	}
	a, ok := m.areas[name]
	if !ok {
		return false
	}
	return slices.Contains(a.Zones, m.Zone(h)) || slices.Contains(a.Hexes, h)
}

// Front returns the front of The Linkup that h belongs to (rule 15.3):
// FrontNorth, FrontSouth, or "" outside both or in another scenario.
func (s *State) Front(h Hex) string {
	if s.Scenario != ScenarioTheLinkup {
		return ""
	}
	m := s.Map()
	switch {
	case m.inArea(ScenarioHoltzBayToJarminPass, h):
		return FrontNorth
	case m.inArea(ScenarioUpTheHogsBack, h):
		return FrontSouth
	}
	return ""
}

// frontObjective is the victory hex whose zone, once cleared, opens a
// front's units the way to the other front (rule 15.3).
func frontObjective(front string) Hex {
	if front == FrontNorth {
		return JarminPass
	}
	return EngineerHill
}

// secured reports whether the zone of front's objective carries a Zone
// Cleared marker (rules 10.0, 15.3; RULINGS.md R64).
func (s *State) secured(front string) bool {
	return s.ClearedAt(frontObjective(front))
}

// areaBan says why a unit of side may not go from hex from (0 when it
// comes from off the map) into h under the scenario's play area (rule 15),
// or returns "". Movement, retreats, advances, the Yamasaki charge and the
// refit rearrangement ask it.
func (s *State) areaBan(from, h Hex) string {
	if s.Scenario == "" {
		return ""
	}
	sp := s.spec()
	if !s.InPlayArea(h) {
		return fmt.Sprintf("%s lies outside the play area of %s (rule %s)", h, sp.title, sp.rule)
	}
	ff, ft := s.Front(from), s.Front(h)
	if from != 0 && ff != "" && ft != "" && ff != ft && !s.secured(ff) {
		vh, _ := s.Map().VictoryHexAt(frontObjective(ff))
		return fmt.Sprintf("%s lies in the %s area of The Linkup, and units cross from the %s only once %s (%s) is secured, its zone cleared (rule 15.3)",
			h, ft, ff, vh.Name, vh.Hex)
	}
	return ""
}

// ScenarioLandingZones returns the landing zones the U.S. units of the
// game's scenario may land at (rules 9.2, 15.0), in map order; for The
// Linkup, those of unit id's force (15.3), or all the scenario's when id
// is "".
func (s *State) ScenarioLandingZones(id string) []string {
	sp := s.spec()
	var out []string
	for _, lz := range s.Map().LandingZones {
		if sp.landing == nil || slices.Contains(sp.landing, lz.ID) && s.forceMayLand(id, lz.ID) {
			out = append(out, lz.ID)
		}
	}
	return out
}

// forceMayLand: in The Linkup the northern force lands at A and B, the
// southern at D to G (rule 15.3).
func (s *State) forceMayLand(id, zone string) bool {
	if s.Scenario != ScenarioTheLinkup || id == "" {
		return true
	}
	north := slices.Contains(northForce, id)
	return north == (zone == "A" || zone == "B")
}

// landingZoneBan says why unit id may not land at zone in the scenario
// (rule 15), or returns "".
func (s *State) landingZoneBan(id, zone string) string {
	if slices.Contains(s.ScenarioLandingZones(id), zone) {
		return ""
	}
	sp := s.spec()
	if s.Scenario == ScenarioTheLinkup && slices.Contains(sp.landing, zone) {
		force, zones := "southern", "D, E, F and G"
		if slices.Contains(northForce, id) {
			force, zones = "northern", "A and B"
		}
		return fmt.Sprintf("%s belongs to the %s force, which lands at %s (rule 15.3)", id, force, zones)
	}
	return fmt.Sprintf("%s uses landing zones %s only (rule %s)", sp.title, joinAnd(sp.landing), sp.rule)
}

// lastTurn returns the last turn of the game: the scenario's last day, or
// in the campaign what the Komandorski chits say (12.1.3), 0 when the
// state holds none.
func (s *State) lastTurn() int {
	if d := s.spec().lastDay; d > 0 {
		return TurnOfMay(d)
	}
	return s.Komandorski.LastTurn()
}

// scenarioVictory is step 8 of a short scenario (RULINGS.md R66): the U.S.
// wins when it occupies every objective of the scenario.
func (s *State) scenarioVictory() []Event {
	sp := s.spec()
	if len(sp.objectives) == 0 {
		return nil
	}
	var names []string
	for _, h := range sp.objectives {
		if !s.holds(h, US) {
			return nil
		}
		vh, _ := s.Map().VictoryHexAt(h)
		names = append(names, fmt.Sprintf("%s (%s)", vh.Name, h))
	}
	ev := Event{Side: US, Reason: ReasonObjectives, Scenario: s.Scenario, Hexes: sp.objectives, Place: joinAnd(names),
		Turn: s.Turn, LastTurn: TurnOfMay(sp.lastDay)}
	return s.endGame(ev, fmt.Sprintf("the U.S. occupies %s at step 8 of %s, by %s (rule %s)",
		joinAnd(names), TurnDate(s.Turn), TurnDate(TurnOfMay(sp.lastDay)), sp.rule))
}

// scenarioJapaneseLeft reports whether the Japanese force of a short
// scenario fights on (rule 3.8.2 as R66 reads it there): infantry or
// artillery on the map, or an Unknown unit still in play, on the map or
// off it.
func (s *State) scenarioJapaneseLeft() bool {
	for _, u := range s.Units {
		c := u.Counter()
		if c.Side() != JP {
			continue
		}
		switch {
		case u.OnMap():
			return true
		case c.Kind() == Unknown && u.Box == BoxOffMap:
			return true
		}
	}
	return false
}

// convertedBox is where an Unknown unit goes once it turns into infantry
// (rule 2.5): off the map, ready to come back (9.6); in a short scenario it
// leaves play for good (15.1, 15.2).
func (s *State) convertedBox() string {
	if s.Scenario != "" {
		return BoxEliminated
	}
	return BoxOffMap
}

// crossBarred reports whether a step from one hex into the next crosses
// between the fronts of The Linkup before it may (rule 15.3).
func (s *State) crossBarred(from, to Hex) bool {
	if s.Scenario != ScenarioTheLinkup {
		return false
	}
	ff, ft := s.Front(from), s.Front(to)
	return ff != "" && ft != "" && ff != ft && !s.secured(ff)
}
