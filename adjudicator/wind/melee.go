package wind

import (
	"fmt"
	"sort"
)

// Melee combat: declaring it as an action (rule 8.2) and resolving every
// declared melee in the melee step (rules 3.7, 8.2.1 to 8.2.1.4), with the
// surround bonus (6.2, surround.go) and the U.S. heroes Martinez (11.1) and
// Arnold (11.2). Colonel Yamasaki's assault (11.3) is in yamasaki.go and
// uses the same rounds.
//
// Readings taken where the rules leave room (RULINGS.md R29 to R42):
//
//   - Who may declare (R29). Rule 8.2 allows infantry, not artillery (the 8.3
//     footnote says the same). The code lets infantry, recon, engineers and
//     Japanese Unknown units declare (Unknown units are infantry in
//     disguise, 2.5); artillery never, and supply depots never, since they
//     cannot move (7.3) and a unit may only melee a hex it could move into.
//   - Could move into (8.2, 5.7; R30): the target must be an adjacent land hex
//     not across a cliff. Movement points do not matter: a minimum move
//     (5.8) always reaches an adjacent hex.
//   - Each unit that declares is marked Acted (3.5) and its Melee holds the
//     target. A later declaration from a hex where units already declared
//     must name the same target (8.2).
//   - Picking (3.7; R31). Melee hexes are picked alternately, the U.S. first by
//     day and the Japanese first at night; a side with nothing left to pick
//     passes its turn. A side picks from its standing instructions: the
//     hexes of MeleeOrder first, then by MeleePick. "strongest" weighs the
//     attacking dice against the defending dice as the picking side sees
//     them: a counter it cannot identify counts as a platoon's 3 dice, so
//     the order never depends on what a face-down counter is.
//   - Who fights (R32). The defenders are every unit in the target hex when its
//     melee comes up, including units that moved in after the declaration
//     (8.2). The attackers are the declared units still on the map, next to
//     the target and not yet in a melee this step. A unit that fought,
//     attacking or defending, may not fight again in this step (8.2), so
//     its own declaration lapses. A declaration with no attacker left or
//     no enemy left in its target lapses with an event: a unit must attack
//     if it can, and only then.
//   - Revealing (2.5; R33). Before the first round every Japanese unit in the
//     melee is turned face up, and the Unknown units among attackers and
//     defenders are converted to infantry (State.RevealUnknowns); infantry
//     converted in an attacker's hex attack in its place.
//   - Modifiers (8.3). Each unit rolls with its own modifiers. The level and
//     slope lines and the surround bonus are about attacking into the
//     target, so they apply to the attackers' offensive fire only; supply
//     (checked once, when the melee begins, 7.4), weather and night apply
//     to both. The surround count is taken again each round from the
//     attackers still standing. (R34, R35)
//   - Losses (R36). The owner spreads hits by its standing instructions
//     (State.ApplyHits). When defensive fire eliminates every attacker,
//     the hits left over fall on the other units of the attackers' hexes
//     (8.2.1.1). Non-attacking units left alone in an attacker's hex after
//     a round must retreat if U.S. and are eliminated if Japanese (8.2).
//   - Retreat (8.2.1.3; R37), U.S. only, after each round in which both sides
//     still stand, by Standing.Retreat (or RetreatAt for the melee hex):
//     "always" retreats after the first round, "if-losing" when the round
//     cost the U.S. more steps than the Japanese, "below-N" when the U.S.
//     units in the melee have fewer than N steps left. Every U.S. unit in
//     the melee retreats on its own to the adjacent hex it could move into
//     (land, no cliff, no Japanese unit, not in a Japanese zone of control,
//     stacking legal with the units that retreated before it) that lies
//     nearest a landing zone, ties going to the lower hex id. A unit with
//     no such hex, or that cannot move at all, stays and the melee goes on.
//   - Advance (8.2.1.4; R38): when the target is empty of defenders, attackers
//     move in by Standing.Advance (or AdvanceAt): "all", "none" or
//     "strongest" (most steps, ties by counter order), whatever the
//     movement cost, but never over the stacking limits (4.0). The
//     defenders never advance.
//   - Captured artillery (8.2.1.2, 8.2.1.4; R39). U.S. artillery eliminated while
//     defending is set aside; if Japanese units advance into its hex they
//     capture it, back at the steps it had when the melee began. Otherwise
//     it is eliminated when the melee ends. A captured battery is Japanese
//     artillery for stacking (4.2), so batteries beyond the three units a
//     hex may hold are eliminated instead, in the order they fell. U.S.
//     artillery hit in an attackers' hex by the hits left over (8.2.1.1)
//     was not defending and is eliminated at once.
//   - Martinez (11.1; R41), once a game, when a U.S. infantry unit is in the
//     melee: after a U.S. fire is rolled, one missed die becomes a 0 (a
//     hit). Standing.Martinez "auto" spends him on the first U.S. fire that
//     falls exactly one hit short of destroying every enemy unit in the
//     melee (the extra hit wins it); a hex spends him on the first U.S.
//     fire with a missed die in the melee of that hex; "never" keeps him.
//     The die changed is the first missed one, in rolling order.
//   - Arnold (11.2; R42), once a game: one U.S. engineer or supply depot
//     defending rolls 6 dice for the whole of one melee. Standing.Arnold
//     "auto" spends him the first time one defends; a hex, in the first
//     melee at that hex where one defends. The engineer or depot with most
//     steps rolls them (engineers before depots, then counter order).
//   - Endless melees (R40). A natural 0 always hits (8.0), so a melee ends with
//     near certainty, but a forced die source could repeat misses for ever:
//     a melee stops after MaxMeleeRounds rounds, both sides staying put,
//     and an event says so.
//
// Fought is cleared at the start of each melee step; Melee declarations are
// cleared as they are fought or lapse.

// MaxMeleeRounds bounds the rounds of one melee (see above).
const MaxMeleeRounds = 100

// canDeclareMelee reports whether a unit of this type may declare melee
// (rule 8.2: infantry; see the readings above).
func canDeclareMelee(u *Unit) bool {
	switch u.Kind() {
	case Infantry, Recon, Engineer, Unknown:
		return true
	}
	return false
}

// declareMelee judges and records a melee declaration (rule 8.2: units of
// one hex against one adjacent hex they could move into, every declaring
// unit of a hex against the same hex; rule 3.5: it is the unit's action).
// It is the same with or without dice: declaring rolls none.
func (s *State) declareMelee(dm *Melee, side Side) ([]Event, []Problem) {
	var problems []Problem
	bad := func(format string, a ...any) {
		problems = append(problems, Problem{Step: -1, Msg: fmt.Sprintf(format, a...)})
	}
	if len(dm.Units) == 0 {
		bad("a melee declaration names the units that declare it")
		return nil, problems
	}
	if dm.Target == 0 {
		bad("a melee declaration names the hex attacked")
		return nil, problems
	}
	var units []*Unit
	var from Hex
	seen := map[string]bool{}
	for _, id := range dm.Units {
		u, ok := s.Unit(id)
		switch {
		case !ok:
			bad("there is no unit %q", id)
			continue
		case u.Side() != side:
			bad("%s is not one of your units", id)
			continue
		case seen[id]:
			bad("%s is listed twice", id)
			continue
		case !u.OnMap():
			bad("%s is not on the map", id)
			continue
		}
		seen[id] = true
		switch {
		case u.Acted:
			bad("%s has already acted this turn (rule 3.5)", id)
		case u.Kind() == Artillery:
			bad("%s is artillery; artillery may not declare melee (rule 8.2)", id)
		case !canDeclareMelee(u):
			bad("%s is a %s and may not declare melee (rule 8.2: infantry only)", id, u.Kind())
		}
		if from == 0 {
			from = u.Hex
		} else if u.Hex != from {
			bad("%s is in %s, not %s: the units of one declaration come from one hex (rule 8.2)", id, u.Hex, from)
		}
		units = append(units, u)
	}
	if from == 0 {
		return nil, problems
	}
	m := s.Map()
	t := dm.Target
	switch {
	case !m.OnMap(t):
		bad("%s is off the map", t)
	case !from.Adjacent(t):
		bad("%s is not next to %s; melee is declared against an adjacent hex (rule 8.2)", t, from)
	case !m.Land(t):
		bad("%s is sea", t)
	case m.Cliff(from, t):
		bad("cliff between %s and %s: no melee across a cliff (rule 5.7)", from, t)
	case !s.holdsSide(t, side.Enemy()):
		bad("%s holds no enemy unit to melee (rule 8.2)", t)
	}
	for _, u := range s.UnitsAt(from) {
		if u.Side() == side && u.Melee != 0 && u.Melee != t && !seen[u.ID] {
			bad("%s in %s already declared melee against %s; all units of a hex that declare melee attack the same hex (rule 8.2)", u.ID, from, u.Melee)
			break
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	for _, u := range units {
		u.Acted = true
		u.Melee = t
	}
	// rule 2.5: the U.S. sees melee markers go on counters, not what they are.
	refs := unitRefs(units)
	return []Event{{Kind: EventMeleeDeclared, Seen: seenAbout(refs), Side: side, Units: refs, Hexes: []Hex{from, t}, Target: t}}, nil
}

// ResolveMelee runs the melee step (rule 3.7) on a copy of s, as the
// server does after the second player's actions (Resolve), and returns the
// new position and what happened; s itself is never changed. It stops
// there: the victory check and the turn advance that follow in a real turn
// are left out, so that rules cases can pose and fight a melee alone.
func ResolveMelee(s *State, d Dice) (*State, []Event) {
	out := s.Clone()
	return out, out.resolveMelee(d)
}

// resolveMelee is the melee step (rule 3.7): every melee declared in this
// turn's action steps is fought to its end, one hex at a time, the hexes
// picked alternately by the two sides from their standing instructions.
// It changes s and returns what happened.
func (s *State) resolveMelee(d Dice) []Event {
	for _, u := range s.Units {
		u.Fought = false
	}
	var events []Event
	picker := US
	if s.Night {
		picker = JP
	}
	for !s.Over() {
		events = append(events, s.lapseDeclarations()...)
		target, ok := s.pickMelee(picker)
		if !ok {
			picker = picker.Enemy()
			if target, ok = s.pickMelee(picker); !ok {
				break
			}
		}
		events = append(events, Event{Kind: EventMeleePicked, Seen: Public, Side: picker, Hexes: []Hex{target}, Target: target})
		mt := s.newMelee(picker, target, s.attackersOf(picker, target), d)
		mt.fight()
		events = append(events, mt.events...)
		picker = picker.Enemy()
	}
	if s.Over() {
		// The game ended mid-step (3.8.2): the melees not yet fought lapse.
		for _, u := range s.Units {
			u.Melee = 0
		}
	}
	return events
}

// attackersOf returns the units of side that may attack target now: those
// that declared against it, still next to it and not yet in a melee of this
// step (rule 8.2).
func (s *State) attackersOf(side Side, target Hex) []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if u.Melee == target && u.Side() == side && u.OnMap() && !u.Fought && u.Hex.Adjacent(target) && !s.Map().Cliff(u.Hex, target) {
			out = append(out, u)
		}
	}
	return out
}

// lapseDeclarations drops the declarations that can no longer be fought:
// their units are gone or have fought (rule 8.2: a unit in one melee of a
// step is in no other), or their target holds no enemy, or only enemies
// that have fought (rule 8.2).
func (s *State) lapseDeclarations() []Event {
	type key struct {
		from, target Hex
		side         Side
		why          Reason
	}
	lapsed := map[key][]*Unit{}
	var keys []key
	for _, u := range s.Units {
		if u.Melee == 0 {
			continue
		}
		var why Reason
		switch {
		case !u.OnMap():
			u.Melee = 0 // gone: nothing to say
			continue
		case u.Fought:
			why = ReasonFoughtElsewhere
		case !s.holdsSide(u.Melee, u.Side().Enemy()):
			why = ReasonNoEnemy
		case s.foughtIn(u.Melee, u.Side().Enemy()):
			why = ReasonTargetFought
		case !u.Hex.Adjacent(u.Melee) || s.Map().Cliff(u.Hex, u.Melee):
			why = ReasonNotAdjacent
		default:
			continue
		}
		k := key{u.Hex, u.Melee, u.Side(), why}
		if lapsed[k] == nil {
			keys = append(keys, k)
		}
		lapsed[k] = append(lapsed[k], u)
		u.Melee = 0
	}
	var events []Event
	for _, k := range keys {
		refs := unitRefs(lapsed[k])
		events = append(events, Event{Kind: EventMeleeLapsed, Seen: seenAbout(refs), Side: k.side, Units: refs,
			Hexes: []Hex{k.from, k.target}, Target: k.target, Reason: k.why})
	}
	return events
}

// foughtIn reports whether a unit of side in h has fought in a melee of
// this step. Rule 8.2 bars such units from being attacked again, and a
// melee attacks every unit of its target hex, so the hex may not be
// attacked at all: the declarations against it lapse (RULINGS.md R32).
func (s *State) foughtIn(h Hex, side Side) bool {
	for _, u := range s.UnitsAt(h) {
		if u.Side() == side && u.Fought {
			return true
		}
	}
	return false
}

// pickMelee returns the next melee hex side would pick (rule 3.7: the sides
// pick in turn, by their standing instructions), if any.
func (s *State) pickMelee(side Side) (Hex, bool) {
	cands := map[Hex]bool{}
	var list []Hex
	for _, u := range s.Units {
		if u.Melee != 0 && u.Side() == side && !cands[u.Melee] && len(s.attackersOf(side, u.Melee)) > 0 &&
			s.holdsSide(u.Melee, side.Enemy()) && !s.foughtIn(u.Melee, side.Enemy()) {
			cands[u.Melee] = true
			list = append(list, u.Melee)
		}
	}
	if len(list) == 0 {
		return 0, false
	}
	st := s.Standing(side)
	for _, h := range st.MeleeOrder {
		if cands[h] {
			return h, true
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
	if st.MeleePick == PickListed {
		return list[0], true
	}
	best, bestScore := list[0], 0
	for i, h := range list {
		score := 0
		for _, u := range s.attackersOf(side, h) {
			score += u.Rating().Melee
		}
		for _, u := range s.UnitsAt(h) {
			if hiddenFrom(u, side) {
				score -= 3 // a platoon's dice: the picker cannot tell more
			} else {
				score -= u.Rating().Melee
			}
		}
		if i == 0 || score > bestScore {
			best, bestScore = h, score
		}
	}
	return best, true
}
