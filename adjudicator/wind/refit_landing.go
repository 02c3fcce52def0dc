package wind

import "fmt"

// Steps 2 to 4 of a refit turn: reinforcements (rules 9.2 to 9.2.2),
// independent units (9.3) and supply depots (9.4). See refit.go for the
// readings taken.

// landingBan says why no unit may be sent to land in zone lz (rule 9.2), or
// returns "".
func (s *State) landingBan(lz LandingZone) string {
	if s.Occupied(lz.Hex) == JP {
		return fmt.Sprintf("landing zone %s (%s) is held by the Japanese, and units land only where no Japanese unit stands (rule 9.2)", lz.ID, lz.Hex)
	}
	if s.InEnemyZOC(lz.Hex, JP) {
		return fmt.Sprintf("landing zone %s (%s) lies in a Japanese zone of control, and units land only outside one (rule 9.2)", lz.ID, lz.Hex)
	}
	return ""
}

// landed is a unit that came ashore this turn, in landing order.
type landed struct {
	u    *Unit
	zone LandingZone
}

// land is step 2 (rules 9.2 to 9.2.2): the units listed go to the staging
// boxes, then one die each, in the order listed, says where each comes
// ashore; last, each zone's capacity is enforced.
func (r *refitRun) land(list []Landing) {
	s := r.s
	m := s.Map()
	seen := twice{}
	type staged struct {
		u  *Unit
		lz LandingZone
	}
	var waves []staged
	for i, e := range list {
		u, why := s.usUnit(e.Unit)
		if why != "" {
			r.refuse(PartLand, i, "%s", why)
			continue
		}
		if seen.again(r, PartLand, i, u.ID) {
			continue
		}
		lz, ok := m.LandingZone(e.Zone)
		switch {
		case u.Box != BoxReinforcements:
			where := "on the map in " + u.Hex.String()
			if !u.OnMap() {
				where = boxName(u.Box)
			}
			r.refuse(PartLand, i, "%s is not in the reinforcements box (%s): only reinforcements land (rule 9.2)", u.ID, where)
			continue
		case !ok:
			r.refuse(PartLand, i, "%s: there is no landing zone %q; the zones are %s", u.ID, e.Zone, zoneIDs(m))
			continue
		}
		if why := s.landingBan(lz); why != "" {
			r.refuse(PartLand, i, "%s: %s", u.ID, why)
			continue
		}
		if why := s.landingZoneBan(u.ID, lz.ID); why != "" {
			r.refuse(PartLand, i, "%s: %s", u.ID, why) // rule 15
			continue
		}
		waves = append(waves, staged{u, lz})
	}
	if len(waves) == 0 {
		return
	}
	var inBoxes []EventUnit
	for _, w := range waves {
		w.u.Box = BoxStagingPrefix + w.lz.ID
		ref := unitRef(w.u)
		ref.Box = w.u.Box
		inBoxes = append(inBoxes, ref)
	}
	if !r.judging() {
		r.event(refitPublic(Event{Kind: EventStaged, Side: US, Units: inBoxes}))
	}

	var ashore []landed
	for _, w := range waves {
		if s.Over() && !r.judging() {
			// Rule 3.8.2 ends the game at once: the rest stay at sea.
			w.u.Box = BoxReinforcements
			continue
		}
		dest, ok := r.scatter(w.u, w.lz)
		if !ok {
			continue
		}
		if s.Occupied(dest.Hex) == JP || s.InEnemyZOC(dest.Hex, JP) {
			why := ReasonJapaneseHeld
			if s.Occupied(dest.Hex) != JP {
				why = ReasonJapaneseZOC
			}
			r.eliminateLanding(Event{Kind: EventLandingLost, Zone: dest.ID, Hexes: []Hex{dest.Hex}, Reason: why}, w.u, w.u.Steps)
			continue
		}
		w.u.Hex, w.u.Box = dest.Hex, ""
		ashore = append(ashore, landed{w.u, dest})
	}
	r.capacity(ashore)
}

// scatter rolls the landing die for u sent to zone lz (rule 9.2.2) and
// returns the zone it comes ashore in, or false when it is delayed and goes
// back to the reinforcements box. Judging, it lands where it was sent.
func (r *refitRun) scatter(u *Unit, lz LandingZone) (LandingZone, bool) {
	if r.judging() {
		return lz, true
	}
	s := r.s
	die := r.d.Roll(Die{Purpose: DieScatter, Side: US, Unit: u.ID, Seen: AudienceBoth})
	mod := WeatherRefitModifier(s.Weather)
	res := lz.ScatterFor(die + mod)
	ev := Event{Kind: EventLandingRoll, Side: US, Units: []EventUnit{unitRef(u)}, Zone: lz.ID, Dice: []EventDie{{Face: die}}, DRM: mod}
	if mod != 0 {
		ev.Mods = []Modifier{{Value: mod, Line: weatherLine[s.Weather]}}
	}
	switch res.Kind {
	case Delayed:
		u.Box = BoxReinforcements
		ev.Reason = ReasonDelayed
		r.event(refitPublic(ev))
		return lz, false
	case Scattered:
		to, _ := s.Map().LandingZone(res.To)
		ev.Reason, ev.ToZone, ev.Hexes = ReasonScattered, to.ID, []Hex{to.Hex}
		r.event(refitPublic(ev))
		return to, true
	}
	ev.Reason, ev.Hexes = ReasonLanded, []Hex{lz.Hex}
	r.event(refitPublic(ev))
	return lz, true
}

// eliminateLanding takes steps from a landing unit; with none left it is
// eliminated. U.S. infantry steps go on the casualty track (8.4, 9.2.1).
// ev says where and why; it gets the unit, the steps lost and the track.
func (r *refitRun) eliminateLanding(ev Event, u *Unit, steps int) {
	s := r.s
	if u.Kind() == Infantry {
		s.Casualties += steps
		ev.Casualties = s.Casualties
	}
	u.Steps -= steps
	ref := unitRef(u)
	if u.Steps <= 0 {
		ref.Steps = 0
		u.Steps = 1 // an eliminated counter keeps the strength of its last side
		s.removeFromMap(u, BoxEliminated)
	}
	if !r.judging() {
		ev.Side, ev.Units, ev.Steps = US, []EventUnit{ref}, steps
		r.event(refitPublic(ev))
	}
	r.events = append(r.events, s.checkSuddenVictory()...)
}

// capacity enforces each landing zone's capacity once the units are ashore
// (rule 9.2.1): steps come off the units landed there this turn, the last
// landed first, until the zone holds no more than it may.
func (r *refitRun) capacity(ashore []landed) {
	s := r.s
	for _, lz := range s.Map().LandingZones {
		total := 0
		for _, u := range s.UnitsAt(lz.Hex) {
			if u.Side() == US {
				total += u.Steps
			}
		}
		over := total - lz.Capacity
		for i := len(ashore) - 1; i >= 0 && over > 0 && (r.judging() || !s.Over()); i-- {
			a := ashore[i]
			if a.zone.ID != lz.ID || !a.u.OnMap() {
				continue
			}
			n := min(over, a.u.Steps)
			over -= n
			r.eliminateLanding(Event{Kind: EventOverCapacity, Zone: lz.ID, Hexes: []Hex{lz.Hex}, Total: total, Capacity: lz.Capacity}, a.u, n)
			total -= n
		}
	}
}

func zoneIDs(m *Map) string {
	var ids []string
	for _, lz := range m.LandingZones {
		ids = append(ids, lz.ID)
	}
	return joinAnd(ids)
}

// independentBan says why infantry unit u may not give a step to an
// independent unit now (rule 9.3), or returns "".
func (s *State) independentBan(u *Unit) string {
	switch {
	case !u.OnMap():
		return fmt.Sprintf("%s is not on the map (%s)", u.ID, boxName(u.Box))
	case u.Kind() != Infantry:
		return fmt.Sprintf("%s is %s: only infantry creates independent units (rule 9.3)", u.ID, kindArticle(u.Kind()))
	case u.Counter().Class.Independent:
		return fmt.Sprintf("%s is an independent unit already: independent units are never split or reabsorbed (rule 9.3)", u.ID)
	case u.Steps < 2:
		return fmt.Sprintf("%s has only its last step, which it may not give (rule 9.3)", u.ID)
	case !s.InSupply(u):
		return fmt.Sprintf("%s in %s is out of supply, and only infantry in supply creates independent units (rule 9.3)", u.ID, u.Hex)
	case s.InEnemyZOC(u.Hex, JP):
		return fmt.Sprintf("%s in %s is in a Japanese zone of control, where no independent unit is created (rule 9.3)", u.ID, u.Hex)
	}
	return ""
}

// freeIndependent returns the first independent infantry counter not yet
// created, in counter order, or nil when the counter mix has none left
// (rule 9.3).
func (s *State) freeIndependent() *Unit {
	for _, u := range s.Units {
		c := u.Counter()
		if c.Side() == US && c.Kind() == Infantry && c.Class.Independent && u.Box == BoxUnused {
			return u
		}
	}
	return nil
}

// independents is step 3 (rule 9.3): each unit listed gives one step to a
// new independent unit in its hex. The casualty track does not move.
func (r *refitRun) independents(list []string) {
	s := r.s
	seen := twice{}
	for i, id := range list {
		u, why := s.usUnit(id)
		if why != "" {
			r.refuse(PartIndependents, i, "%s", why)
			continue
		}
		if seen.again(r, PartIndependents, i, u.ID) {
			continue
		}
		if why := s.independentBan(u); why != "" {
			r.refuse(PartIndependents, i, "%s", why)
			continue
		}
		ind := s.freeIndependent()
		if ind == nil {
			r.refuse(PartIndependents, i, "%s: every independent unit of the counter mix has been created, and the counter mix limits them (rule 9.3)", u.ID)
			continue
		}
		u.Steps--
		ind.Hex, ind.Box, ind.Steps = u.Hex, "", ind.Counter().MaxSteps()
		if !r.judging() {
			r.event(refitPublic(Event{Kind: EventIndependent, Side: US, Units: []EventUnit{unitRef(u)}, Others: []EventUnit{unitRef(ind)}, Hexes: []Hex{u.Hex}}))
		}
	}
}

// depotOf returns the supply depot that engineer unit e creates (rule 9.4).
func (s *State) depotOf(e *Unit) *Unit {
	for _, u := range s.Units {
		if u.Kind() == Depot && u.Counter().Engineer == e.ID {
			return u
		}
	}
	return nil
}

// depotBan says why engineer unit u may not create its depot now (rule
// 9.4), or returns "".
func (s *State) depotBan(u *Unit) string {
	if u.Kind() != Engineer {
		return fmt.Sprintf("%s is %s: only engineer units create supply depots (rule 9.4)", u.ID, kindArticle(u.Kind()))
	}
	if !u.OnMap() {
		return fmt.Sprintf("%s is not on the map (%s)", u.ID, boxName(u.Box))
	}
	dep := s.depotOf(u)
	switch {
	case dep == nil:
		return fmt.Sprintf("%s has no supply depot in the counter mix (rule 9.4)", u.ID)
	case dep.Box != BoxUnused:
		return fmt.Sprintf("%s has already created its supply depot %s, and each engineer unit creates one (rule 9.4)", u.ID, dep.ID)
	case !s.InSupply(u):
		return fmt.Sprintf("%s in %s is out of supply (rule 9.4)", u.ID, u.Hex)
	case s.InEnemyZOC(u.Hex, JP):
		return fmt.Sprintf("%s in %s is in a Japanese zone of control (rule 9.4)", u.ID, u.Hex)
	}
	return ""
}

// depots is step 4 (rule 9.4): each engineer unit listed loses a step, its
// last one too, and its own supply depot appears in its hex.
func (r *refitRun) depots(list []string) {
	s := r.s
	seen := twice{}
	for i, id := range list {
		u, why := s.usUnit(id)
		if why == "" {
			if seen.again(r, PartDepots, i, u.ID) {
				continue
			}
			why = s.depotBan(u)
		}
		if why != "" {
			r.refuse(PartDepots, i, "%s", why)
			continue
		}
		dep := s.depotOf(u)
		h := u.Hex
		u.Steps--
		ref := unitRef(u) // Steps 0: it gave its last step
		if u.Steps == 0 {
			u.Steps = 1 // an eliminated counter keeps the strength of its last side
			s.removeFromMap(u, BoxEliminated)
		}
		dep.Hex, dep.Box, dep.Steps = h, "", dep.Counter().MaxSteps()
		if !r.judging() {
			r.event(refitPublic(Event{Kind: EventDepot, Side: US, Units: []EventUnit{ref}, Others: []EventUnit{unitRef(dep)}, Hexes: []Hex{h}}))
		}
	}
}
