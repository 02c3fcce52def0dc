package wind

import (
	"fmt"
	"sort"
)

// Air attacks (rule 8.1.6). Readings taken where the rules leave room
// (RULINGS.md R26 to R28):
//
//   - All of a side's air attacks for the turn are announced together in one
//     air activation. Announcing them spends the turn's airpower: factors
//     left out can never be announced later, and are lost (8.1.6, 3.4), so
//     a second air activation in the same turn finds none left (R26).
//   - Each attack (a hex and its factors) is one attack in the sense of
//     rules 2.5 and 8.5: its dice are ranged combat dice, so the last
//     Japanese infantry unit in a hex survives them and at most one
//     face-down Unknown unit melts away per attack (R27).
//   - When the attack is announced the hex must hold enemy units (judged
//     from the position as the attacker sees it: counters, not what they
//     are), and no hex is attacked twice. When it is carried out and the
//     hex has emptied since, the factors are wasted (R27).
//   - A modified die of 2 or less hits the attacker's own unit nearest the
//     target hex instead. Among equally near units, the U.S. chooses by day
//     and the Japanese at night (8.1.6), by the chooser's standing
//     instruction FriendlyFire: most-steps or fewest-steps, then a unit the
//     U.S. can identify before face-down counters (the Japanese choosing
//     too: a tie between a face-up unit and a face-down counter broken by
//     counter order would tell the U.S. which units the counter could be),
//     then the lower hex, then counter order. The U.S. cannot tell
//     face-down Japanese counters apart: when its choice falls on one, the
//     hit is on that hex's face-down counters and the Japanese decide which
//     takes it, as for any hit on a hex (8.0). (R28)

// airpower returns a pointer to side's airpower factors this turn.
func (s *State) airpower(side Side) *int {
	if side == JP {
		return &s.AirJP
	}
	return &s.AirUS
}

// air carries out side's air activation: every air attack of the turn
// (rule 8.1.6). With d nil it only judges and spends the airpower.
func (s *State) air(a *AirStrikes, side Side, d Dice) ([]Event, []Problem) {
	var problems []Problem
	bad := func(format string, args ...any) {
		problems = append(problems, Problem{Step: -1, Msg: fmt.Sprintf(format, args...)})
	}
	left := s.airpower(side)
	total := 0
	seen := map[Hex]bool{}
	for _, at := range a.Attacks {
		if seen[at.Hex] {
			// Each factor is a die of its own: two attacks on a hex are one
			// attack with their factors added (as package orders reads it).
			bad("air attack on %s: the hex is attacked twice; put all its factors in one attack", at.Hex)
		}
		seen[at.Hex] = true
		if at.Factors < 1 {
			bad("air attack on %s: give it at least 1 factor", at.Hex)
		}
		total += max(at.Factors, 0)
		if !s.Map().Land(at.Hex) {
			bad("air attack on %s: not a land hex of the map", at.Hex)
			continue
		}
		if d == nil && s.enemiesAt(at.Hex, side) == 0 {
			bad("air attack on %s: the hex holds no enemy units", at.Hex)
		}
	}
	switch {
	case len(a.Attacks) == 0:
		bad("an air activation needs at least one attack, like {hex: 2717, factors: 2}")
	case *left == 0:
		bad("no airpower left this turn: all of it is announced in one air activation (rule 8.1.6)")
	case total > *left:
		bad("the air attacks use %d factors; %s has %d this turn (rule 8.1.6)", total, sideName(side), *left)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	*left = 0
	if d == nil {
		return nil, nil
	}

	var events []Event
	for _, at := range a.Attacks {
		events = append(events, s.airAttack(at, side, d)...)
	}
	return events, nil
}

// enemiesAt counts the units of side's enemy in h.
func (s *State) enemiesAt(h Hex, side Side) int {
	n := 0
	for _, u := range s.UnitsAt(h) {
		if u.Side() == side.Enemy() {
			n++
		}
	}
	return n
}

// airAttack rolls one attack's dice against its hex.
func (s *State) airAttack(at AirAttack, side Side, d Dice) []Event {
	var targets []*Unit
	for _, u := range s.UnitsAt(at.Hex) {
		if u.Side() == side.Enemy() {
			targets = append(targets, u)
		}
	}
	if len(targets) == 0 {
		return []Event{{Kind: EventAirWasted, Seen: Public, Side: side, Hexes: []Hex{at.Hex}, Target: at.Hex, Factors: at.Factors}}
	}
	faceDown := side == US
	for _, u := range targets {
		if !hiddenFrom(u, US) {
			faceDown = false
		}
	}
	drm, why := DRM(Situation{Combat: AirCombat, Weather: s.Weather, Night: s.Night, FaceDown: faceDown})
	var dice []int
	for range at.Factors {
		// Need is the hit threshold; friendly fire on 2 or less is apart.
		dice = append(dice, d.Roll(Die{Purpose: DieAirStrike, Side: side, Hex: at.Hex, Need: HitNeed(drm), Seen: AudienceBoth}))
	}
	hits, friendly := 0, 0
	for _, x := range dice {
		switch {
		case IsHit(x, drm):
			hits++
		case x+drm <= 2:
			friendly++
		}
	}
	events := []Event{{Kind: EventAirStrike, Seen: Public, Side: side, Hexes: []Hex{at.Hex}, Target: at.Hex,
		Dice: eventDice(dice, drm, true), DRM: drm, Mods: why, Hits: hits, Friendly: friendly}}
	if hits > 0 {
		events = append(events, s.applyHits(targets, hits, HitOptions{Cause: Cause{Kind: CauseAir, Side: side, Hex: at.Hex}, Ranged: true})...)
	}
	for range friendly {
		units := s.friendlyFireTarget(side, at.Hex)
		if len(units) == 0 {
			events = append(events, Event{Kind: EventFriendlyFireMissed, Seen: Public, Side: side, Hexes: []Hex{at.Hex}, Target: at.Hex})
			continue
		}
		events = append(events, s.applyHits(units, 1, HitOptions{Cause: Cause{Kind: CauseFriendlyFire, Side: side, Hex: at.Hex}, Ranged: true})...)
	}
	return events
}

// friendlyFireTarget returns the unit of side that a friendly-fire air hit
// on target falls on (rule 8.1.6): the nearest, chosen among equals as the
// notes at the top of this file say. When the U.S. chooses among face-down
// Japanese counters, all of that hex's face-down counters are returned and
// the Japanese decide which takes the hit.
func (s *State) friendlyFireTarget(side Side, target Hex) []*Unit {
	var cands []*Unit
	best := -1
	for _, u := range s.Units {
		if !u.OnMap() || u.Side() != side {
			continue
		}
		dist := u.Hex.Distance(target)
		switch {
		case best < 0 || dist < best:
			best, cands = dist, []*Unit{u}
		case dist == best:
			cands = append(cands, u)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	chooser := US
	if s.Night {
		chooser = JP
	}
	policy := s.Standing(chooser).FriendlyFire
	steps := func(u *Unit) int {
		if hiddenFrom(u, chooser) {
			return 1 // every face-down Japanese counter looks the same
		}
		return u.Steps
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if sa, sb := steps(a), steps(b); sa != sb {
			if policy == FireFewestSteps {
				return sa < sb
			}
			return sa > sb
		}
		if hiddenFrom(a, US) != hiddenFrom(b, US) {
			return !hiddenFrom(a, US) // a unit the U.S. can see first
		}
		return a.Hex < b.Hex
	})
	pick := cands[0]
	if !hiddenFrom(pick, chooser) {
		return []*Unit{pick}
	}
	var out []*Unit
	for _, u := range cands {
		if u.Hex == pick.Hex && hiddenFrom(u, chooser) {
			out = append(out, u)
		}
	}
	return out
}
