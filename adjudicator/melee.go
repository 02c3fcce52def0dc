package adjudicator

import (
	"fmt"
	"sort"
	"strings"
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

// canDeclareMelee reports whether a unit of this type may declare melee.
func canDeclareMelee(u *Unit) bool {
	switch u.Kind() {
	case Infantry, Recon, Engineer, Unknown:
		return true
	}
	return false
}

// declareMelee judges and records a melee declaration (rule 8.2). It is the
// same with or without dice: declaring rolls none.
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
	ids := make([]string, len(units))
	hidden := 0
	for i, u := range units {
		u.Acted = true
		u.Melee = t
		ids[i] = u.ID
		if hiddenFrom(u, US) {
			hidden++
		}
	}
	text := fmt.Sprintf("%s in %s %s melee against %s (rule 8.2)", joinAnd(ids), from, declares(len(ids)), t)
	ev := Event{Kind: "melee-declared", Text: text, Side: side, Hexes: []Hex{from, t}}
	if hidden == 0 {
		return []Event{ev}, nil
	}
	// rule 2.5: the U.S. sees melee markers go on counters, not what they are.
	ev.Seen = JP
	anon := Event{Kind: "melee-declared", Side: JP, Seen: US, Hexes: []Hex{from, t},
		Text: fmt.Sprintf("%s in %s %s melee against %s (rule 8.2)", counters(len(ids)), from, declares(len(ids)), t)}
	return []Event{ev, anon}, nil
}

func declares(n int) string {
	if n == 1 {
		return "declares"
	}
	return "declare"
}

// counters names n anonymous Japanese counters.
func counters(n int) string {
	if n == 1 {
		return "a Japanese counter"
	}
	return fmt.Sprintf("%d Japanese counters", n)
}

// ResolveMelee is the melee step (rule 3.7): every melee declared in this
// turn's action steps is fought to its end, one hex at a time, the hexes
// picked alternately by the two sides from their standing instructions.
// It changes s and returns what happened.
func (s *State) ResolveMelee(d Dice) []Event {
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
		events = append(events, Event{Kind: "melee-picked", Side: picker, Hexes: []Hex{target},
			Text: fmt.Sprintf("%s picks the melee at %s (rule 3.7)", sideName(picker), target)})
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

// attackersOf returns the units of side that may attack target now.
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
// their units are gone, have fought, or their target holds no enemy.
func (s *State) lapseDeclarations() []Event {
	type key struct {
		from, target Hex
		side         Side
		why          string
	}
	lapsed := map[key][]*Unit{}
	var keys []key
	for _, u := range s.Units {
		if u.Melee == 0 {
			continue
		}
		var why string
		switch {
		case !u.OnMap():
			u.Melee = 0 // gone: nothing to say
			continue
		case u.Fought:
			why = "they fought in another melee this step (rule 8.2)"
		case !s.holdsSide(u.Melee, u.Side().Enemy()):
			why = "no enemy unit is left in " + u.Melee.String()
		case s.foughtIn(u.Melee, u.Side().Enemy()):
			why = "the enemy units in " + u.Melee.String() + " fought in another melee this step and may not be attacked again (rule 8.2)"
		case !u.Hex.Adjacent(u.Melee) || s.Map().Cliff(u.Hex, u.Melee):
			why = "they are no longer next to " + u.Melee.String()
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
		events = append(events, s.unitsEvent("melee-lapsed", k.side, lapsed[k], []Hex{k.from, k.target},
			func(who string) string {
				return fmt.Sprintf("the melee declared by %s in %s against %s is not fought: %s", who, k.from, k.target, k.why)
			})...)
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

// unitsEvent describes something units of side did: one public event, or,
// when some are anonymous to the U.S., the full one for the Japanese and
// one naming only counters for the U.S. (rule 2.5).
func (s *State) unitsEvent(kind string, side Side, units []*Unit, hexes []Hex, text func(who string) string) []Event {
	ids := make([]string, len(units))
	hidden := false
	for i, u := range units {
		ids[i] = u.ID
		hidden = hidden || hiddenFrom(u, US)
	}
	ev := Event{Kind: kind, Side: side, Hexes: hexes, Text: text(joinAnd(ids))}
	if !hidden {
		return []Event{ev}
	}
	ev.Seen = JP
	anon := Event{Kind: kind, Side: side, Seen: US, Hexes: hexes, Text: text(counters(len(units)))}
	return []Event{ev, anon}
}

// pickMelee returns the next melee hex side would pick (rule 3.7), if any.
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

// meleeFight is one melee being fought.
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
	round     int
	events    []Event
	// usLost and jpLost are the steps each side lost in the current round.
	usLost, jpLost int
}

func (s *State) newMelee(side Side, target Hex, attackers []*Unit, d Dice) *meleeFight {
	return &meleeFight{s: s, d: d, side: side, target: target, attackers: attackers,
		from: map[*Unit]Hex{}, outside: map[*Unit]bool{}, before: map[*Unit]int{}}
}

func (mt *meleeFight) say(kind, text string) {
	mt.events = append(mt.events, Event{Kind: kind, Text: text, Side: mt.side, Hexes: []Hex{mt.target}})
}

// defenders returns the units standing in the target hex.
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

func containsHex(hs []Hex, h Hex) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

// begin reveals the Japanese units in the melee, marks everyone as having
// fought and notes supply and strengths.
func (mt *meleeFight) begin() {
	s := mt.s
	// rule 2.5: Unknown units attacking or attacked in melee convert first.
	if mt.side == JP {
		for _, h := range mt.attackHexes() {
			if !hasUnknown(mt.attackers, h) {
				continue
			}
			converted, evs := s.RevealUnknowns(h, mt.d)
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
		_, evs := s.RevealUnknowns(mt.target, mt.d)
		mt.events = append(mt.events, evs...)
	}
	for _, u := range mt.attackers {
		mt.from[u] = u.Hex
	}
	all := append(append([]*Unit(nil), mt.attackers...), mt.defenders()...)
	var flipped []string
	inSupply := s.supplyCheck()
	for _, u := range all {
		u.Fought = true
		mt.before[u] = u.Steps
		if u.Side() == JP && u.FaceDown {
			u.FaceDown = false
			flipped = append(flipped, u.ID)
		}
		if u.Side() == US && !inSupply(u) {
			mt.outside[u] = true
		}
	}
	for _, u := range mt.attackers {
		u.Melee = 0
	}
	var ids []string
	for _, u := range mt.attackers {
		ids = append(ids, u.ID)
	}
	var defs []string
	for _, u := range mt.defenders() {
		defs = append(defs, u.ID)
	}
	mt.say("melee", fmt.Sprintf("melee at %s: %s attack%s from %s; %s defend%s",
		mt.target, joinAnd(ids), verbS(len(ids)), hexList(mt.attackHexes()), joinAnd(defs), verbS(len(defs))))
	if len(flipped) > 0 {
		mt.say("revealed", fmt.Sprintf("revealed for the melee at %s: %s (rule 2.5)", mt.target, joinAnd(flipped)))
	}
	mt.arnold = mt.pickArnold()
}

func hasUnknown(units []*Unit, h Hex) bool {
	for _, u := range units {
		if u.Hex == h && u.Kind() == Unknown {
			return true
		}
	}
	return false
}

func verbS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

func hexList(hs []Hex) string {
	names := make([]string, len(hs))
	for i, h := range hs {
		names[i] = h.String()
	}
	return joinAnd(names)
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
		mt.say("hero", fmt.Sprintf("General Arnold: %s rolls 6 dice in the defence of %s (rule 11.2)", best.ID, mt.target))
	}
	return best
}

// fight resolves the melee to its end.
func (mt *meleeFight) fight() {
	mt.begin()
	mt.rounds()
	mt.finish()
}

// rounds fights rounds until one side's hex is empty, the U.S. retreats or
// the round limit is reached (rule 8.2.1).
func (mt *meleeFight) rounds() {
	for mt.round = 1; mt.round <= MaxMeleeRounds; mt.round++ {
		mt.usLost, mt.jpLost = 0, 0
		if mt.s.Over() {
			return // a victory condition of 3.8.2 ended the game mid-melee
		}
		if mt.assault {
			mt.offensiveFire()
			if len(mt.defenders()) == 0 {
				return
			}
			mt.defensiveFire()
		} else {
			mt.defensiveFire()
			if len(mt.standing()) == 0 {
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
	mt.say("melee-stalemate", fmt.Sprintf("the melee at %s is broken off after %d rounds with both sides standing", mt.target, MaxMeleeRounds))
}

// roll has one unit roll its melee dice.
type roll struct {
	u    *Unit
	dice []int
	drm  int
	why  []string
}

// fire rolls the dice of firers; offensive says whether they attack the
// target hex. It returns the rolls and the hits.
func (mt *meleeFight) fire(firers []*Unit, offensive bool, enemySteps int) ([]roll, int) {
	s := mt.s
	m := s.Map()
	surround := 0
	if offensive {
		surround = s.Surround(mt.target, firers)
	}
	var rolls []roll
	for _, u := range firers {
		n := u.Rating().Melee
		if u == mt.arnold {
			n = 6
		}
		sit := Situation{Combat: MeleeCombat, Artillery: u.Kind() == Artillery, OutOfSupply: mt.outside[u],
			Weather: s.Weather, Night: s.Night}
		if offensive {
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
		h := CountHits(r.dice, r.drm)
		text := fmt.Sprintf("%s rolls %s: %s", r.u.ID, DiceText(r.dice, r.drm), plural(h, "hit"))
		if len(r.why) > 0 {
			text += " (" + strings.Join(r.why, ", ") + ")"
		}
		mt.say("melee-fire", text)
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
				mt.say("hero", fmt.Sprintf("PFC Joe Martinez: %s's %d becomes a 0, a hit (rule 11.1)", rolls[i].u.ID, v))
				return 1
			}
		}
	}
	return 0
}

func steps(units []*Unit) int {
	n := 0
	for _, u := range units {
		if u.OnMap() {
			n += u.Steps
		}
	}
	return n
}

// defensiveFire: the defenders fire at the attackers (rule 8.2.1.1).
func (mt *meleeFight) defensiveFire() {
	defs := mt.defenders()
	att := mt.standing()
	_, hits := mt.fire(defs, false, steps(att))
	mt.say("melee-round", fmt.Sprintf("melee at %s, round %d, defensive fire: %s", mt.target, mt.round, plural(hits, "hit")))
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
			mt.retreatUnits(left, "left alone after the attackers of "+h.String()+" fell (rule 8.2)")
			continue
		}
		// Said before they go: the U.S. reads ids only of counters it saw.
		mt.events = append(mt.events, s.unitsEvent("eliminated", JP, left, []Hex{h}, func(who string) string {
			return fmt.Sprintf("%s, left alone in %s after its attackers fell, %s eliminated (rule 8.2)", who, h, isAre(len(left)))
		})...)
		for _, u := range left {
			box := BoxEliminated
			if u.Kind() == Unknown {
				box = BoxOffMap
			}
			s.removeFromMap(u, box)
		}
	}
}

func hasAttacker(attackers []*Unit, h Hex) bool {
	for _, u := range attackers {
		if u.Hex == h {
			return true
		}
	}
	return false
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// offensiveFire: the attackers still standing fire at the target (rule
// 8.2.1.2).
func (mt *meleeFight) offensiveFire() {
	att := mt.standing()
	defs := mt.defenders()
	_, hits := mt.fire(att, true, steps(defs))
	mt.say("melee-round", fmt.Sprintf("melee at %s, round %d, offensive fire: %s", mt.target, mt.round, plural(hits, "hit")))
	if hits > 0 {
		mt.hit(defs, hits)
	}
}

// hit applies hits to units of one side and keeps the round's tally.
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
	mt.events = append(mt.events, mt.s.ApplyHits(units, hits, HitOptions{Cause: "melee at " + mt.target.String(), Melee: setAside, Dice: mt.d})...)
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

func containsUnit(us []*Unit, u *Unit) bool {
	for _, x := range us {
		if x == u {
			return true
		}
	}
	return false
}

// usInMelee returns the U.S. units taking part.
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
	mt.retreatUnits(us, fmt.Sprintf("retreat from the melee at %s (standing instruction %q, rule 8.2.1.3)", mt.target, policy))
	return len(mt.usInMelee()) == 0
}

// retreatUnits moves U.S. units each to its retreat hex; those with none
// stay.
func (mt *meleeFight) retreatUnits(units []*Unit, why string) {
	s := mt.s
	for _, u := range units {
		from := u.Hex
		to, ok := s.retreatHex(u)
		if !ok {
			mt.events = append(mt.events, Event{Kind: "retreat", Side: US, Unit: u.ID, Hexes: []Hex{from},
				Text: fmt.Sprintf("%s cannot retreat from %s: no adjacent hex it could move into outside Japanese zones of control (%s)", u.ID, from, why)})
			continue
		}
		u.Hex = to
		mt.events = append(mt.events, Event{Kind: "retreat", Side: US, Unit: u.ID, Hexes: []Hex{from, to},
			Text: fmt.Sprintf("%s retreats %s→%s (%s)", u.ID, from, to, why)})
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

// finish carries out the advance option (rule 8.2.1.4) and settles the
// artillery set aside.
func (mt *meleeFight) finish() {
	s := mt.s
	att := mt.standing()
	var winner string
	switch {
	case len(mt.defenders()) == 0 && len(att) > 0:
		winner = "the " + sideName(mt.side) + " attackers take " + mt.target.String()
	case len(att) == 0 && len(mt.defenders()) > 0:
		winner = "the " + sideName(mt.side.Enemy()) + " defenders hold " + mt.target.String()
	default:
		winner = "both sides stand"
	}
	if len(mt.defenders()) == 0 && len(att) > 0 {
		if mt.assault {
			// rule 11.3.2: the charge takes the hex and may go on.
			for _, u := range att {
				u.Hex = mt.target
			}
			mt.events = append(mt.events, s.unitsEvent("advance", mt.side, att, []Hex{mt.target}, func(who string) string {
				return fmt.Sprintf("%s %s into %s (rule 11.3.2)", who, charge(len(att)), mt.target)
			})...)
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
				mt.say("captured", fmt.Sprintf("the Japanese capture %s in %s, at %s (rule 8.2.1.4)", u.ID, mt.target, plural(u.Steps, "step")))
				continue
			}
			u.Captured = false
			u.Hex, u.Box = 0, BoxEliminated
			mt.say("eliminated", fmt.Sprintf("%s, set aside in the melee at %s, is eliminated: %s already holds %d Japanese infantry and artillery units, the most a hex may hold (rules 4.2, 8.2.1.4)", u.ID, mt.target, mt.target, StackJapanese))
			continue
		}
		u.Hex, u.Box = 0, BoxEliminated
		mt.say("eliminated", fmt.Sprintf("%s, set aside in the melee at %s, is eliminated (rule 8.2.1.2)", u.ID, mt.target))
	}
	mt.say("melee-end", fmt.Sprintf("melee at %s over after %s: %s", mt.target, plural(min(mt.round, MaxMeleeRounds), "round"), winner))
	// rule 10.0: an advance onto a victory hex may clear its zone, or
	// retake a cleared one, before the next melee is picked.
	mt.events = append(mt.events, s.UpdateCleared()...)
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
		mt.say("advance", fmt.Sprintf("%s does not advance into %s (standing instruction %q)", sideName(mt.side), mt.target, policy))
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
			mt.events = append(mt.events, Event{Kind: "advance", Side: mt.side, Seen: JP, Unit: u.ID, Hexes: []Hex{u.Hex, mt.target},
				Text: fmt.Sprintf("%s stays in %s: %s lies in a cleared victory zone (rule 10.0)", u.ID, u.Hex, mt.target)})
			continue
		}
		if why := s.areaBan(u.Hex, mt.target); why != "" {
			// rule 15: no unit leaves the play area, nor crosses between
			// the fronts of The Linkup before it may.
			mt.events = append(mt.events, Event{Kind: "advance", Side: mt.side, Unit: u.ID, Hexes: []Hex{u.Hex, mt.target},
				Text: fmt.Sprintf("%s stays in %s: %s", u.ID, u.Hex, why)})
			continue
		}
		if why := s.StackingProblemWith(mt.target, u, u.Steps); why != "" {
			if mt.side == JP {
				// Both sides read this; say it without the stacking text,
				// which speaks of Unknown units.
				why = fmt.Sprintf("%s already holds %d Japanese infantry and artillery units, the most a hex may hold (rule 4.2)", mt.target, StackJapanese)
			}
			mt.events = append(mt.events, Event{Kind: "advance", Side: mt.side, Unit: u.ID, Hexes: []Hex{u.Hex, mt.target},
				Text: fmt.Sprintf("%s stays in %s: %s", u.ID, u.Hex, why)})
			continue
		}
		from := u.Hex
		u.Hex = mt.target
		mt.events = append(mt.events, Event{Kind: "advance", Side: mt.side, Unit: u.ID, Hexes: []Hex{from, mt.target},
			Text: fmt.Sprintf("%s advances %s→%s (rule 8.2.1.4)", u.ID, from, mt.target)})
	}
}

func charge(n int) string {
	if n == 1 {
		return "charges"
	}
	return "charge"
}
