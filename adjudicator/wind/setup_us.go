package wind

import (
	"fmt"
	"slices"
)

// The U.S. setup and the opening landing: historic (rule 12.5) or free
// (12.6), the U.S. orders of the us-landing wait.
//
// Readings taken where the rules leave room (RULINGS.md R63):
//
//   - Historic: the units 12.5 names for zones A, B and C go to their
//     staging boxes by themselves; the U.S. orders split the units of D, E,
//     F and G among those four zones and send the independent recon
//     platoon to H or I. Which counters 12.5's lines are is attu's choice
//     (scenario.go): 2/32-E lands at C, 105-1 at B, 105-2 to 105-4 at D to
//     G; 105-5, 105-6 and the 75mm section are reinforcements.
//   - Free: the U.S. sends any of its units to any staging zone, the
//     reinforcements of 12.5 included; those it holds back wait in the
//     reinforcements box. In a short scenario only the scenario's opening
//     force lands now, at its zones; its reinforcements land in refit turns.
//   - The landing is step 2 of a refit turn (9.2): one scatter die a unit,
//     the units of A, B and C first, then the others in the order the
//     orders list them, the last landed losing steps first to a zone's
//     capacity (R54); the weather is that of the turn, fog on May 11.
//   - Only the free setup may delay (12.6 grants it; 12.5 lands on May
//     11). A delay moves the turn marker on one turn, flips the
//     Komandorski chits as their dates come and rolls the weather the
//     landing will have; the turn that follows the landing rolls its own
//     (3.3). Delaying past the last turn ends the game: the U.S. has not
//     won (3.8.3).

// USLanding is the U.S. orders of the landing wait (rules 12.5, 12.6).
type USLanding struct {
	// Delay moves the turn marker on one turn instead of landing, for
	// better weather (12.6).
	Delay bool
	// Land sends units to staging zones, in the order they land (9.2.2).
	Land []Landing
}

// historicFixed are the units rule 12.5 sends to zones A, B and C, in the
// order they land.
func historicFixed() []Landing {
	var out []Landing
	for _, z := range []struct {
		zone  string
		units []string
	}{{"A", usZoneA}, {"B", usZoneB}, {"C", usZoneC}} {
		for _, id := range z.units {
			out = append(out, Landing{Unit: id, Zone: z.zone})
		}
	}
	return out
}

func (s *State) historicUS() bool {
	return s.Options != nil && s.Options.USSetup == SetupHistoric
}

// historicZones returns the zones of zs that rule 12.5 gives unit id.
func historicZones(id string, zs []string) []string {
	var line []string
	switch {
	case slices.Contains(usZonesDG, id):
		line = []string{"D", "E", "F", "G"}
	case slices.Contains(usZoneHI, id):
		line = []string{"H", "I"}
	}
	var out []string
	for _, z := range zs {
		if slices.Contains(line, z) {
			out = append(out, z)
		}
	}
	return out
}

// LandingChoices returns the units the U.S. orders of the landing wait may
// send and, for each, the zones it may be sent to now: with the historic
// setup the units of D, E, F and G and the recon platoon, all of which
// must be sent (12.5); with the free setup the units that may land at the
// opening (12.6, 15.x). Zones held by the Japanese or in their zones of
// control are left out (9.2).
func (s *State) LandingChoices() (units []string, zones map[string][]string) {
	zones = map[string][]string{}
	open := func(ids []string) []string {
		var out []string
		for _, id := range ids {
			if lz, ok := s.Map().LandingZone(id); ok && s.landingBan(lz) == "" {
				out = append(out, id)
			}
		}
		return out
	}
	if s.historicUS() {
		for _, id := range usZonesDG {
			units = append(units, id)
			zones[id] = open([]string{"D", "E", "F", "G"})
		}
		for _, id := range usZoneHI {
			units = append(units, id)
			zones[id] = open([]string{"H", "I"})
		}
		return units, zones
	}
	for _, u := range s.Units {
		if u.Box != BoxReinforcements || u.Counter().Side() != US || s.openingBan(u.ID) != "" {
			continue
		}
		units = append(units, u.ID)
		zones[u.ID] = open(s.ScenarioLandingZones(u.ID))
	}
	return units, zones
}

// openingBan says why unit id may not land at the opening of a short
// scenario: it is one of the scenario's reinforcements (15.x).
func (s *State) openingBan(id string) string {
	sp := s.spec()
	if s.Scenario == "" || slices.Contains(sp.initial, id) {
		return ""
	}
	return fmt.Sprintf("%s is a reinforcement in %s: it lands in a later refit turn (rule %s)", id, sp.title, sp.rule)
}

// judgeLanding judges the U.S. landing orders without dice and returns
// every problem found.
func (s *State) judgeLanding(l USLanding) []Problem {
	var problems []Problem
	bad := func(i int, format string, a ...any) {
		problems = append(problems, Problem{Action: -1, Step: i, Part: PartLand, Msg: fmt.Sprintf(format, a...)})
	}
	file := func(format string, a ...any) { bad(-1, format, a...) }
	if l.Delay {
		switch {
		case s.historicUS():
			file("the historic setup lands on %s (rule 12.5); only the free setup may delay the landing (rule 12.6)", TurnDate(1))
		case len(l.Land) > 0:
			file("delay: true moves the turn marker on instead of landing: leave land: out, or write delay: false to land now (rule 12.6)")
		}
		return problems
	}
	m := s.Map()
	fixed := map[string]string{}
	if s.historicUS() {
		for _, f := range historicFixed() {
			fixed[f.Unit] = f.Zone
		}
	}
	units, zones := s.LandingChoices()
	seen := map[string]int{}
	for i, e := range l.Land {
		u, why := s.usUnit(e.Unit)
		if why != "" {
			bad(i, "%s", why)
			continue
		}
		if j, dup := seen[u.ID]; dup {
			bad(i, "%s is listed twice under land (first as entry %d)", u.ID, j+1)
			continue
		}
		seen[u.ID] = i
		lz, ok := m.LandingZone(e.Zone)
		if !ok {
			bad(i, "%s: there is no landing zone %q; the zones are %s", u.ID, e.Zone, zoneIDs(m))
			continue
		}
		switch {
		case fixed[u.ID] != "":
			bad(i, "%s lands at zone %s by the historic setup (rule 12.5): list only the units of zones D, E, F and G and the recon platoon", u.ID, fixed[u.ID])
		case s.historicUS() && !slices.Contains(units, u.ID):
			bad(i, "%s is a reinforcement in the historic setup (rule 12.5): it lands in a later refit turn", u.ID)
		case s.historicUS() && slices.Contains(usZoneHI, u.ID) && e.Zone != "H" && e.Zone != "I":
			bad(i, "%s lands at H or I by the historic setup, not %s (rule 12.5)", u.ID, e.Zone)
		case s.historicUS() && !slices.Contains(usZoneHI, u.ID) && !slices.Contains([]string{"D", "E", "F", "G"}, e.Zone):
			bad(i, "%s is one of the units of zones D, E, F and G, not %s (rule 12.5)", u.ID, e.Zone)
		case !s.historicUS() && u.Box != BoxReinforcements:
			bad(i, "%s is not among the units to land (%s)", u.ID, boxName(u.Box))
		case !s.historicUS() && s.openingBan(u.ID) != "":
			bad(i, "%s", s.openingBan(u.ID))
		case s.landingZoneBan(u.ID, e.Zone) != "":
			bad(i, "%s: %s", u.ID, s.landingZoneBan(u.ID, e.Zone))
		case s.landingBan(lz) != "":
			bad(i, "%s: %s", u.ID, s.landingBan(lz))
		case !slices.Contains(zones[u.ID], e.Zone):
			bad(i, "%s may not be sent to zone %s", u.ID, e.Zone)
		}
	}
	if s.historicUS() {
		var missing []string
		for _, id := range units {
			if _, ok := seen[id]; !ok {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			file("send %s too: the historic setup lands every unit of zones D, E, F and G, and the recon platoon at H or I (rule 12.5)", joinAnd(missing))
		}
	}
	return problems
}

// land carries out the U.S. landing orders, already judged: a delay, or
// the opening landing followed by the first turn.
func (s *State) land(l USLanding, d Dice) []Event {
	if l.Delay {
		return s.delayLanding(d)
	}
	list := l.Land
	if s.historicUS() {
		list = append(historicFixed(), l.Land...)
	}
	evs := []Event{setupPublic(Event{Kind: EventOpeningLanding, Side: US, Weather: s.Weather})}
	run := &refitRun{s: s, d: d, budget: -1}
	run.land(list)
	evs = append(evs, run.events...)
	evs = append(evs, s.updateCleared()...)
	evs = append(evs, s.checkSuddenVictory()...)
	if s.Over() {
		return evs
	}
	s.Night = false
	s.await(WaitUSDecision, US)
	return append(evs, setupPublic(Event{Kind: EventPlayBegins, Turn: s.Turn}))
}

// delayLanding moves the turn marker on one turn instead of landing (rule
// 12.6): the Komandorski chits flip as their dates come and the weather the
// landing will have is rolled.
func (s *State) delayLanding(d Dice) []Event {
	if last := s.lastTurn(); last > 0 && s.Turn >= last {
		evs := []Event{setupPublic(Event{Kind: EventLastTurn, Turn: s.Turn})}
		return append(evs, s.endGame(Event{Side: JP, Reason: ReasonNotLanded}, "the U.S. had not landed by the end of the last turn (rules 12.6, 3.8.3)")...)
	}
	s.Turn++
	evs := []Event{setupPublic(Event{Kind: EventLandingDelayed, Side: US, Turn: s.Turn})}
	evs = append(evs, s.revealKomandorski()...)
	evs = append(evs, RollWeather(s, d))
	s.await(WaitUSLanding, US)
	return evs
}

// PlanLanding returns legal U.S. landing orders (rules 12.5, 12.6),
// choosing at random with pick (pick(n) returns 0 to n-1), or, when pick
// is nil, the default: every unit that may land now, each to the open zone
// with the most room left, 12.5's zones for A, B and C first. It reads only
// what the U.S. knows: its units and where Japanese counters stand.
func (s *State) PlanLanding(pick func(int) int) USLanding {
	random := pick != nil
	if !random {
		pick = func(int) int { return 0 }
	}
	var l USLanding
	if random && !s.historicUS() && pick(8) == 0 {
		if s.lastTurn() == 0 || s.Turn < s.lastTurn() {
			l.Delay = true
			return l
		}
	}
	units, zones := s.LandingChoices()
	room := map[string]int{}
	for _, lz := range s.Map().LandingZones {
		room[lz.ID] = lz.Capacity
	}
	if s.historicUS() {
		for _, f := range historicFixed() {
			u, _ := s.Unit(f.Unit)
			room[f.Zone] -= u.Steps
		}
	}
	want := map[string]string{}
	for _, f := range historicFixed() {
		want[f.Unit] = f.Zone
	}
	for _, id := range units {
		zs := zones[id]
		if len(zs) == 0 {
			continue
		}
		u, _ := s.Unit(id)
		if random && !s.historicUS() && pick(6) == 0 {
			continue // held back
		}
		if !random && !s.historicUS() && s.Scenario == "" && !slices.Contains(concat(usZoneA, usZoneB, usZoneC, usZonesDG, usZoneHI), id) {
			continue // the default lands the historic force only
		}
		var z string
		switch {
		case random:
			// Mostly where the unit still fits (9.2.1): random play
			// should not drown its own landing.
			var fit []string
			for _, c := range zs {
				if room[c] >= u.Steps {
					fit = append(fit, c)
				}
			}
			if len(fit) == 0 && !s.historicUS() && pick(4) > 0 {
				continue
			}
			if len(fit) > 0 {
				zs = fit
			}
			z = zs[pick(len(zs))]
		case slices.Contains(zs, want[id]):
			z = want[id]
		default:
			// 12.5's line for the unit where it can.
			if hz := historicZones(id, zs); len(hz) > 0 {
				zs = hz
			}
			z = zs[0]
			for _, c := range zs {
				if room[c] > room[z] {
					z = c
				}
			}
		}
		room[z] -= u.Steps
		l.Land = append(l.Land, Landing{Unit: id, Zone: z})
	}
	return l
}
