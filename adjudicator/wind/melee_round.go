package wind

import (
	"fmt"
	"strings"
)

// One melee fought to its end (rules 8.2.1 to 8.2.1.4): the rounds of
// defensive and offensive fire, the losses, the U.S. retreat option and the
// advance, with Martinez (11.1) and Arnold (11.2). The readings taken where
// the rules leave room are at the top of melee.go, which declares melees
// and picks them.

// meleeFight is one melee being fought (rule 8.2.1).
type meleeFight struct {
	s         *State
	d         Dice
	side      Side // attacking side
	target    Hex
	attackers []*Unit
	from      map[*Unit]Hex  // where each attacker attacks from
	outside   map[*Unit]bool // out of supply, as checked when the melee began (7.4)
	before    map[*Unit]int  // steps when the melee began
	setAside  []*Unit        // U.S. artillery eliminated while defending (8.2.1.2)
	arnold    *Unit
	assault   bool // Yamasaki: offensive fire comes first (11.3.2)
	ambush    bool // an ambush, fought in the U.S. hex (13.3)
	lastStand bool // the Japanese defend the last victory hex (13.4)
	round     int
	events    []Event
	// usLost and jpLost are the steps each side lost in the current round.
	usLost, jpLost int
}

// newMelee sets up side's melee against target with attackers (rule 8.2).
func (s *State) newMelee(side Side, target Hex, attackers []*Unit, d Dice) *meleeFight {
	return &meleeFight{s: s, d: d, side: side, target: target, attackers: attackers,
		from: map[*Unit]Hex{}, outside: map[*Unit]bool{}, before: map[*Unit]int{}}
}

// say records an event of the melee, at the target hex (Target): by default
// public, of the attacking side. What it says is public when every unit it names
// is: all the units in a melee are face up once it begins (rule 2.5).
func (mt *meleeFight) say(ev Event) {
	if ev.Side == NoSide {
		ev.Side = mt.side
	}
	ev.Target = mt.target
	if ev.Seen == (Visibility{}) {
		ev.Seen = seenAbout(ev.Units, ev.Others)
	}
	mt.events = append(mt.events, ev)
}

// defenders returns the units standing in the target hex: all of them are
// attacked, those that moved in after the declaration too (rule 8.2).
func (mt *meleeFight) defenders() []*Unit {
	var out []*Unit
	for _, u := range mt.s.UnitsAt(mt.target) {
		if u.Side() == mt.side.Enemy() {
			out = append(out, u)
		}
	}
	return out
}

// standing returns the attackers still in their hexes.
func (mt *meleeFight) standing() []*Unit {
	var out []*Unit
	for _, u := range mt.attackers {
		if u.OnMap() && u.Hex == mt.from[u] {
			out = append(out, u)
		}
	}
	return out
}

// attackHexes returns the hexes the attackers attack from (rule 8.2).
func (mt *meleeFight) attackHexes() []Hex {
	var out []Hex
	for _, u := range mt.attackers {
		h := mt.from[u]
		if h == 0 {
			h = u.Hex
		}
		if h != 0 && !containsHex(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// containsHex reports whether h is among hs.
func containsHex(hs []Hex, h Hex) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

// begin reveals the Japanese units in the melee (rule 2.5: Unknown units
// convert, every counter turns face up), marks everyone as having fought
// (rule 8.2: no other melee this step) and notes supply (rule 7.4) and
// strengths (rule 8.2.1.4: captured artillery keeps them).
func (mt *meleeFight) begin() {
	s := mt.s
	// rule 2.5: Unknown units attacking or attacked in melee convert first.
	if mt.side == JP {
		for _, h := range mt.attackHexes() {
			if !hasUnknown(mt.attackers, h) {
				continue
			}
			converted, evs := s.revealUnknowns(h, mt.d)
			mt.events = append(mt.events, evs...)
			var kept []*Unit
			for _, u := range mt.attackers {
				if u.OnMap() && u.Kind() != Unknown {
					kept = append(kept, u)
				}
			}
			mt.attackers = append(kept, converted...)
		}
	} else if hasUnknown(mt.defenders(), mt.target) {
		_, evs := s.revealUnknowns(mt.target, mt.d)
		mt.events = append(mt.events, evs...)
	}
	for _, u := range mt.attackers {
		mt.from[u] = u.Hex
	}
	all := append(append([]*Unit(nil), mt.attackers...), mt.defenders()...)
	var flipped []*Unit
	inSupply := s.supplyCheck()
	for _, u := range all {
		u.Fought = true
		mt.before[u] = u.Steps
		if u.Side() == JP && u.FaceDown {
			u.FaceDown = false
			flipped = append(flipped, u)
		}
		if u.Side() == US && !inSupply(u) {
			mt.outside[u] = true
		}
	}
	for _, u := range mt.attackers {
		u.Melee = 0
	}
	mt.say(Event{Kind: EventMeleeBegins, Units: unitRefs(mt.attackers), Others: unitRefs(mt.defenders()),
		Hexes: append([]Hex{mt.target}, mt.attackHexes()...)})
	if len(flipped) > 0 {
		mt.say(Event{Kind: EventMeleeRevealed, Units: unitRefs(flipped)})
	}
	mt.arnold = mt.pickArnold()
	if mt.side == US && s.soloLastStand(mt.target) {
		mt.lastStand = true
		mt.say(Event{Kind: EventLastStand, Side: JP, Seen: Public})
	}
}

// hasUnknown reports whether an Unknown unit among units stands in h (rule
// 2.5).
func hasUnknown(units []*Unit, h Hex) bool {
	for _, u := range units {
		if u.Hex == h && u.Kind() == Unknown {
			return true
		}
	}
	return false
}

// pickArnold returns the U.S. engineer or depot General Arnold leads in
// this melee, spending him, or nil (rule 11.2).
func (mt *meleeFight) pickArnold() *Unit {
	s := mt.s
	if mt.side != JP || s.Heroes.Arnold {
		return nil
	}
	want := s.Standing(US).Arnold
	if want == HeroNever || (want != HeroAuto && want != "" && want != mt.target.String()) {
		return nil
	}
	var best *Unit
	for _, u := range mt.defenders() {
		if u.Kind() != Engineer && u.Kind() != Depot {
			continue
		}
		if best == nil || (best.Kind() == Depot && u.Kind() == Engineer) || (best.Kind() == u.Kind() && u.Steps > best.Steps) {
			best = u
		}
	}
	if best != nil {
		s.Heroes.Arnold = true
		mt.say(Event{Kind: EventArnold, Units: []EventUnit{unitRef(best)}})
	}
	return best
}

// fight resolves the melee to its end (rule 8.2.1).
func (mt *meleeFight) fight() {
	mt.begin()
	mt.rounds()
	mt.finish()
}

// rounds fights rounds until one side's hex is empty, the U.S. retreats or
// the round limit is reached (rule 8.2.1: defensive fire, offensive fire,
// the retreat option; rule 11.3.2: a Yamasaki assault fires first).
func (mt *meleeFight) rounds() {
	for mt.round = 1; mt.round <= MaxMeleeRounds; mt.round++ {
		mt.usLost, mt.jpLost = 0, 0
		if mt.s.Over() {
			return // a victory condition of 3.8.2 ended the game mid-melee
		}
		// From edition 1 the game ends at the fire that decides it
		// (3.8.2): the other side's fire of the round is not rolled.
		over := func() bool { return mt.s.Over() && mt.s.Edition >= EditionRule13 }
		if mt.assault {
			mt.offensiveFire()
			if len(mt.defenders()) == 0 || over() {
				return
			}
			mt.defensiveFire()
		} else {
			mt.defensiveFire()
			if len(mt.standing()) == 0 || over() {
				return
			}
			mt.offensiveFire()
		}
		if len(mt.standing()) == 0 || len(mt.defenders()) == 0 {
			return
		}
		if mt.retreat() {
			return
		}
	}
	mt.say(Event{Kind: EventMeleeBrokenOff, Round: MaxMeleeRounds})
}

// roll has one unit roll its melee dice.
type roll struct {
	u    *Unit
	dice []int
	drm  int
	why  []Modifier
}

// fire rolls the dice of firers, each its melee rating with its own
// modifiers (rules 8.2.1.1, 8.2.1.2, 8.3); offensive says whether they
// attack the target hex. It returns the rolls and the hits.
func (mt *meleeFight) fire(firers []*Unit, offensive bool, enemySteps int) ([]roll, int) {
	s := mt.s
	m := s.Map()
	surround := 0
	if offensive && !mt.ambush {
		surround = s.Surround(mt.target, firers)
	}
	var rolls []roll
	for _, u := range firers {
		n := u.Rating().Melee
		if u == mt.arnold {
			n = 6
		}
		if mt.lastStand && !offensive && u.Side() == JP && u.Kind() == Infantry {
			n *= 2 // rule 13.4: Yamasaki's last stand
		}
		sit := Situation{Combat: MeleeCombat, Artillery: u.Kind() == Artillery, OutOfSupply: mt.outside[u],
			Weather: s.Weather, Night: s.Night}
		if offensive && !mt.ambush {
			sit.HigherLevel = m.Level(mt.target) > m.Level(u.Hex)
			sit.UpSlope, _ = m.Slope(u.Hex, mt.target)
			sit.Surround = surround
		}
		drm, why := DRM(sit)
		r := roll{u: u, drm: drm, why: why}
		purpose := DieMeleeDefence
		if offensive {
			purpose = DieMeleeAttack
		}
		for range n {
			r.dice = append(r.dice, mt.d.Roll(Die{Purpose: purpose, Side: u.Side(), Unit: u.ID, Hex: mt.target, Need: HitNeed(drm), Seen: AudienceBoth}))
		}
		rolls = append(rolls, r)
	}
	hits := 0
	for _, r := range rolls {
		hits += CountHits(r.dice, r.drm)
	}
	if len(firers) > 0 && firers[0].Side() == US {
		hits += mt.martinez(rolls, hits, enemySteps)
	}
	for _, r := range rolls {
		mt.say(Event{Kind: EventMeleeRoll, Units: []EventUnit{unitRef(r.u)},
			Dice: eventDice(r.dice, r.drm, true), DRM: r.drm, Mods: r.why, Hits: CountHits(r.dice, r.drm)})
	}
	return rolls, hits
}

// martinez turns one missed U.S. die into a 0 when the standing
// instructions say so, and returns the hit it adds (rule 11.1).
func (mt *meleeFight) martinez(rolls []roll, hits, enemySteps int) int {
	s := mt.s
	if s.Heroes.Martinez {
		return 0
	}
	infantry := false
	for _, u := range append(mt.standing(), mt.defenders()...) {
		infantry = infantry || (u.Side() == US && u.Kind() == Infantry)
	}
	if !infantry {
		return 0
	}
	switch want := s.Standing(US).Martinez; want {
	case HeroNever:
		return 0
	case HeroAuto, "":
		if hits != enemySteps-1 {
			return 0
		}
	default:
		if want != mt.target.String() {
			return 0
		}
	}
	for i := range rolls {
		for j, v := range rolls[i].dice {
			if !IsHit(v, rolls[i].drm) {
				rolls[i].dice[j] = 10
				s.Heroes.Martinez = true
				mt.say(Event{Kind: EventMartinez, Side: US, Units: []EventUnit{unitRef(rolls[i].u)}, Dice: []EventDie{{Face: v}}})
				return 1
			}
		}
	}
	return 0
}

// steps counts the steps of the units still on the map.
func steps(units []*Unit) int {
	n := 0
	for _, u := range units {
		if u.OnMap() {
			n += u.Steps
		}
	}
	return n
}

// defensiveFire: the defenders fire at the attackers, and hits beyond the
// attackers fall on the other units of their hexes (rule 8.2.1.1).
func (mt *meleeFight) defensiveFire() {
	defs := mt.defenders()
	att := mt.standing()
	_, hits := mt.fire(defs, false, steps(att))
	mt.say(Event{Kind: EventDefensiveFire, Round: mt.round, Hits: hits})
	if hits == 0 {
		return
	}
	standing := steps(att)
	mt.hit(att, min(hits, standing))
	if excess := hits - standing; excess > 0 {
		// rule 8.2.1.1: the rest fall on the other units of the attackers' hexes.
		var others []*Unit
		for _, h := range mt.attackHexes() {
			for _, u := range mt.s.UnitsAt(h) {
				if u.Side() == mt.side {
					others = append(others, u)
				}
			}
		}
		if len(others) > 0 {
			mt.hit(others, excess)
		}
	}
	mt.leftAlone()
}

// leftAlone applies rule 8.2: units that did not attack, left alone in an
// attacker's hex after its attackers fell, retreat (U.S.) or are eliminated
// (Japanese; an Unknown unit goes off the map, RULINGS.md R36).
func (mt *meleeFight) leftAlone() {
	s := mt.s
	if mt.ambush && s.Edition >= EditionRule13 {
		return // the ambush's own hex: ambushLeftAlone (rule 13.3)
	}
	for _, h := range mt.attackHexes() {
		if hasAttacker(mt.attackers, h) {
			continue
		}
		var left []*Unit
		for _, u := range s.UnitsAt(h) {
			if u.Side() == mt.side {
				left = append(left, u)
			}
		}
		if len(left) == 0 {
			continue
		}
		if mt.side == US {
			mt.retreatUnits(left, ReasonLeftAlone, "")
			continue
		}
		// Said before they go: the U.S. reads ids only of counters it saw.
		mt.say(Event{Kind: EventLeftAlone, Side: JP, Units: unitRefs(left), Hexes: []Hex{h}})
		for _, u := range left {
			box := BoxEliminated
			if u.Kind() == Unknown {
				box = BoxOffMap
			}
			s.removeFromMap(u, box)
		}
	}
}

// hasAttacker reports whether an attacker attacks from h.
func hasAttacker(attackers []*Unit, h Hex) bool {
	for _, u := range attackers {
		if u.Hex == h {
			return true
		}
	}
	return false
}

// offensiveFire: the attackers still standing fire at the target (rule
// 8.2.1.2).
func (mt *meleeFight) offensiveFire() {
	att := mt.standing()
	defs := mt.defenders()
	_, hits := mt.fire(att, true, steps(defs))
	mt.say(Event{Kind: EventOffensiveFire, Round: mt.round, Hits: hits})
	if hits > 0 {
		mt.hit(defs, hits)
	}
}

// hit applies hits to units of one side, the owner sharing them out by its
// standing instructions (rules 8.2.1.1, 8.2.1.2), and keeps the round's
// tally for the retreat option (rule 8.2.1.3).
func (mt *meleeFight) hit(units []*Unit, hits int) {
	if len(units) == 0 || hits <= 0 {
		return
	}
	before := steps(units)
	// rule 8.2.1.2: only defending U.S. artillery is set aside; U.S. units
	// hit while the Japanese attack are the defenders, and artillery in a
	// U.S. attackers' hex hit by the hits left over is simply eliminated
	// (RULINGS.md R36).
	setAside := mt.side == JP && units[0].Side() == US
	mt.events = append(mt.events, mt.s.applyHits(units, hits, HitOptions{Cause: Cause{Kind: CauseMelee, Hex: mt.target}, Melee: setAside, Dice: mt.d})...)
	lost := before - steps(units)
	if units[0].Side() == US {
		mt.usLost += lost
	} else {
		mt.jpLost += lost
	}
	// rule 8.2.1.2: defending U.S. artillery eliminated is set aside.
	for _, u := range units {
		_, inMelee := mt.before[u]
		if mt.side == JP && inMelee && !u.OnMap() && u.Side() == US && u.Kind() == Artillery && !containsUnit(mt.setAside, u) {
			mt.setAside = append(mt.setAside, u)
		}
	}
}

// containsUnit reports whether u is among us.
func containsUnit(us []*Unit, u *Unit) bool {
	for _, x := range us {
		if x == u {
			return true
		}
	}
	return false
}

// usInMelee returns the U.S. units taking part, attacking or defending:
// those the retreat option moves (rule 8.2.1.3).
func (mt *meleeFight) usInMelee() []*Unit {
	if mt.side == US {
		return mt.standing()
	}
	return mt.defenders()
}

// retreat applies the U.S. retreat option after a round (rule 8.2.1.3) and
// reports whether the melee is over.
func (mt *meleeFight) retreat() bool {
	s := mt.s
	st := s.Standing(US)
	policy := st.Retreat
	if p, ok := st.RetreatAt[mt.target]; ok {
		policy = p
	}
	us := mt.usInMelee()
	go_ := false
	switch {
	case policy == RetreatAlways:
		go_ = true
	case policy == RetreatIfLosing:
		go_ = mt.usLost > mt.jpLost
	case strings.HasPrefix(policy, RetreatBelowPrefix):
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(policy, RetreatBelowPrefix), "%d", &n); err == nil {
			go_ = steps(us) < n
		}
	}
	if !go_ {
		return false
	}
	mt.retreatUnits(us, ReasonStanding, policy)
	return len(mt.usInMelee()) == 0
}

// retreatUnits moves U.S. units each to its retreat hex; those with none
// stay. why is ReasonLeftAlone (rule 8.2) or ReasonStanding, by the
// standing instruction instruction (rule 8.2.1.3).
func (mt *meleeFight) retreatUnits(units []*Unit, why Reason, instruction string) {
	s := mt.s
	for _, u := range units {
		from := u.Hex
		to, ok := s.retreatHex(u)
		if !ok {
			mt.say(Event{Kind: EventCannotRetreat, Side: US, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{from},
				Reason: why, Instruction: instruction})
			continue
		}
		u.Hex = to
		mt.say(Event{Kind: EventRetreat, Side: US, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{from, to},
			Reason: why, Instruction: instruction})
	}
}

// retreatHex returns where U.S. unit u retreats: the adjacent hex it could
// move into, outside every Japanese zone of control and within the
// stacking limits, nearest a landing zone, then lowest id (rule 8.2.1.3,
// RULINGS.md R37).
func (s *State) retreatHex(u *Unit) (Hex, bool) {
	cl := u.counter.Class
	if cl.Fixed || cl.Kind == Depot || cl.MP <= 0 {
		return 0, false
	}
	m := s.Map()
	best, bestDist := Hex(0), 0
	for _, n := range m.Neighbours(u.Hex) {
		if m.Cliff(u.Hex, n) || s.holdsSide(n, JP) || s.InEnemyZOC(n, JP) || s.StackingProblemWith(n, u, u.Steps) != "" || s.areaBan(u.Hex, n) != "" {
			continue
		}
		dist := 1 << 30
		for _, lz := range m.LandingZones {
			dist = min(dist, n.Distance(lz.Hex))
		}
		if best == 0 || dist < bestDist || (dist == bestDist && n < best) {
			best, bestDist = n, dist
		}
	}
	return best, best != 0
}

// finish carries out the advance option (rule 8.2.1.4; rule 11.3.2 for a
// Yamasaki assault) and settles the artillery set aside: captured if the
// Japanese advance into its hex, else eliminated (rules 8.2.1.2, 8.2.1.4).
func (mt *meleeFight) finish() {
	s := mt.s
	att := mt.standing()
	var outcome Reason
	switch {
	case len(mt.defenders()) == 0 && len(att) > 0:
		outcome = ReasonAttackersTake
	case len(att) == 0 && len(mt.defenders()) > 0:
		outcome = ReasonDefendersHold
	default:
		outcome = ReasonBothStand
	}
	if len(mt.defenders()) == 0 && len(att) > 0 {
		if mt.assault {
			// rule 11.3.2: the charge takes the hex and may go on.
			for _, u := range att {
				u.Hex = mt.target
			}
			mt.say(Event{Kind: EventChargeTakes, Units: unitRefs(att)})
		} else {
			mt.advance(att)
		}
	}
	captor := Side(NoSide)
	for _, u := range s.UnitsAt(mt.target) {
		captor = u.Side()
	}
	for _, u := range mt.setAside {
		if captor == JP {
			// A captured battery is Japanese artillery and counts against
			// the three of rule 4.2: what does not fit is eliminated.
			u.Captured = true
			if s.StackingProblemWith(mt.target, u, mt.before[u]) == "" {
				u.Hex, u.Box = mt.target, ""
				u.Steps = mt.before[u]
				mt.say(Event{Kind: EventCaptured, Side: JP, Units: []EventUnit{unitRef(u)}})
				continue
			}
			u.Captured = false
			u.Hex, u.Box = 0, BoxEliminated
			mt.say(Event{Kind: EventSetAsideEliminated, Units: []EventUnit{unitRef(u)}, Reason: ReasonStackFull})
			continue
		}
		u.Hex, u.Box = 0, BoxEliminated
		mt.say(Event{Kind: EventSetAsideEliminated, Units: []EventUnit{unitRef(u)}, Reason: ReasonNotCaptured})
	}
	mt.say(Event{Kind: EventMeleeEnds, Round: min(mt.round, MaxMeleeRounds), Reason: outcome})
	// rule 10.0: an advance onto a victory hex may clear its zone, or
	// retake a cleared one, before the next melee is picked.
	mt.events = append(mt.events, s.updateCleared()...)
}

// advance moves attackers into the empty target by the attacking side's
// standing instructions (rule 8.2.1.4), within the stacking limits
// (RULINGS.md R38).
func (mt *meleeFight) advance(att []*Unit) {
	s := mt.s
	st := s.Standing(mt.side)
	policy := st.Advance
	if p, ok := st.AdvanceAt[mt.target]; ok {
		policy = p
	}
	var movers []*Unit
	switch policy {
	case AdvanceNone:
		mt.say(Event{Kind: EventNoAdvance, Instruction: policy})
		return
	case AdvanceStrongest:
		best := att[0]
		for _, u := range att[1:] {
			if u.Steps > best.Steps {
				best = u
			}
		}
		movers = []*Unit{best}
	default:
		movers = att
	}
	for _, u := range movers {
		if s.unknownBarred(u, mt.target) {
			// Attacking Unknown units convert when the melee begins (2.5),
			// so this holds only should one ever be left unconverted.
			mt.say(Event{Kind: EventAdvanceBarred, Seen: OnlyTo(JP), Units: []EventUnit{unitRef(u)}, Hexes: []Hex{u.Hex, mt.target}})
			continue
		}
		if why := s.areaBan(u.Hex, mt.target); why != "" {
			// rule 15: no unit leaves the play area, nor crosses between
			// the fronts of The Linkup before it may.
			mt.say(Event{Kind: EventAdvanceOutOfArea, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{u.Hex, mt.target}, Note: why})
			continue
		}
		if why := s.StackingProblemWith(mt.target, u, u.Steps); why != "" {
			if mt.side == JP {
				// Both sides read this; say it without the stacking text,
				// which speaks of Unknown units: the hex is full (4.2).
				why = ""
			}
			mt.say(Event{Kind: EventAdvanceStacked, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{u.Hex, mt.target}, Note: why})
			continue
		}
		from := u.Hex
		u.Hex = mt.target
		ref := unitRef(u)
		ref.Hex = from
		mt.say(Event{Kind: EventAdvance, Units: []EventUnit{ref}, Hexes: []Hex{from, mt.target}})
	}
}
