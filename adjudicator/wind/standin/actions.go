package standin

import (
	"slices"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// planner writes one actions file: the melee declarations first (so
// that fire and air can soften their targets), then the air strikes, the
// ranged fire, and last the moves of every unit left.
type planner struct {
	*board
	ord  *wind.Orders
	opts []wind.UnitOptions
	// used marks the units given an activation.
	used map[string]bool
	// assault is the melee strength declared against each hex.
	assault map[wind.Hex]int
	// stack is what stands in each of the side's hexes once the file's
	// moves are made: steps for the U.S., units that count against
	// stacking for the Japanese (rule 4).
	stack map[wind.Hex]int
	// held marks the goal hexes the side holds now.
	held map[wind.Hex]bool
	// unknown counts the side's Unknown units in each hex once the file's
	// moves are made (Japanese only).
	unknown map[wind.Hex]int
}

func (b *board) actions(ord *wind.Orders) {
	p := &planner{board: b, ord: ord, opts: b.o.Options, used: map[string]bool{},
		assault: map[wind.Hex]int{}, stack: map[wind.Hex]int{}, held: map[wind.Hex]bool{}, unknown: map[wind.Hex]int{}}
	for _, u := range b.units {
		p.stack[u.Hex] += p.weight(u)
		if u.Kind == wind.Unknown {
			p.unknown[u.Hex]++
		}
	}
	for _, vh := range b.v.VictoryHexes {
		if vh.Held == b.side && slices.Contains(b.goals, vh.Hex) {
			p.held[vh.Hex] = true
		}
	}
	p.melees()
	p.air()
	p.hold()
	p.fires()
	p.moves()
}

// weight is what u counts for stacking (rule 4): its steps for the U.S.;
// for the Japanese one, and nothing for an Unknown unit (4.2).
func (p *planner) weight(u wind.UnitView) int {
	if p.side == wind.US {
		return u.Steps
	}
	if u.Kind == wind.Unknown {
		return 0
	}
	return 1
}

// room is how much a hex may hold by the stand-in's reckoning: the
// Japanese limit of rule 4.2; for the U.S. the mixed-battalion limit of
// 4.1, the lowest, so that any mix of companies fits.
func (p *planner) room() int {
	if p.side == wind.US {
		return wind.StackMixed
	}
	return wind.StackJapanese
}

// add appends an activation and marks its units as used.
func (p *planner) add(a wind.Action, units ...string) {
	p.ord.Actions = append(p.ord.Actions, a)
	for _, id := range units {
		p.used[id] = true
	}
}

// free reports whether the unit of opt may still be given an activation.
func (p *planner) free(opt wind.UnitOptions) bool {
	return !p.used[opt.Unit] && opt.Idle == ""
}

// guard reports whether u should stay where it is to hold a goal hex.
func (p *planner) guard(u wind.UnitView) bool {
	return p.held[u.Hex]
}

// melees declares melee (rule 8.2) where the odds are good: each target
// hex with the melee strength of every free unit that may attack it, the
// best odds first; the units of one hex all name the same target.
func (p *planner) melees() {
	committed := map[wind.Hex]wind.Hex{}
	for {
		best, bestOdds := wind.Hex(0), 0.0
		var bestUnits []string
		for t, def := range p.enemy {
			ids, att := p.attackers(t, committed)
			if len(ids) == 0 {
				continue
			}
			odds := float64(att) / float64(max(def, 1))
			if odds >= p.threshold(t) && (odds > bestOdds || odds == bestOdds && t < best) {
				best, bestOdds, bestUnits = t, odds, ids
			}
		}
		if best == 0 {
			return
		}
		byHex := map[wind.Hex][]string{}
		var hexes []wind.Hex
		for _, id := range bestUnits {
			h := p.units[id].Hex
			if byHex[h] == nil {
				hexes = append(hexes, h)
			}
			byHex[h] = append(byHex[h], id)
			p.assault[best] += p.melee(id, p.units[id].Steps)
		}
		for _, h := range hexes {
			committed[h] = best
			p.add(wind.Action{Melee: &wind.Melee{Units: byHex[h], Target: best}}, byHex[h]...)
		}
	}
}

// threshold is the odds the side wants before it assaults t: good odds
// anywhere, even odds for a goal hex the enemy holds, since holding it is
// the game.
func (p *planner) threshold(t wind.Hex) float64 {
	if slices.Contains(p.goals, t) {
		if p.side == wind.JP {
			return 0.8 // a victory hex lost is the game lost
		}
		switch p.after() {
		case 0:
			return 0.01 // the last turn: nothing is kept for later
		case 1:
			return 0.7
		}
		return 1.0
	}
	return 1.6
}

// after is how many turns the game plays after this one (lastTurn).
func (b *board) after() int { return b.lastTurn() - b.v.Turn }

// attackers returns the free units that may melee t, leaving out units
// of hexes already committed to another target and units that hold a
// goal, and their melee strength. U.S.
// companies down to their last step (a die apiece) join an attack but do
// not count towards its odds, and none is made by them alone: no
// piecemeal assaults by what is left of a company.
func (p *planner) attackers(t wind.Hex, committed map[wind.Hex]wind.Hex) ([]string, int) {
	var ids []string
	att, healthy := 0, 0
	for _, opt := range p.opts {
		u, ok := p.units[opt.Unit]
		if !ok || !p.free(opt) || !slices.Contains(opt.Melee, t) {
			continue
		}
		if c, ok := committed[u.Hex]; ok && c != t {
			continue
		}
		if p.guard(u) && !slices.Contains(p.goals, t) {
			continue
		}
		ids = append(ids, opt.Unit)
		if p.side == wind.US && p.depleted(u) {
			continue
		}
		healthy++
		att += p.melee(opt.Unit, u.Steps)
	}
	if healthy == 0 {
		return nil, 0
	}
	return ids, att
}

// depleted reports whether u is a company down to its last step.
func (p *planner) depleted(u wind.UnitView) bool {
	c, ok := p.cs.Get(u.ID)
	return ok && u.Steps <= 1 && c.MaxSteps() >= 3
}

// value is how much the side gains by hitting enemy hex t.
func (p *planner) value(t wind.Hex) int {
	v := p.enemy[t]
	if p.assault[t] > 0 {
		v += 20 // soften a hex about to be assaulted
	}
	if slices.Contains(p.goals, t) {
		v += 10
	}
	for _, n := range t.Neighbours() {
		if p.held[n] {
			v += 8 // it threatens a goal the side holds
		}
		if p.own[n] > 0 {
			v += 2
		}
	}
	return v
}

// air spends all the side's airpower (rule 8.1.6) on the enemy hex worth
// most. The Japanese of the two-player game strike no hex whose nearest
// Japanese units include an Unknown unit: their die of 2 or less, as
// likely as a hit at the modifiers of the short scenarios, would take a
// whole Unknown unit off the map for the U.S. step the hit could take.
func (p *planner) air() {
	n := p.v.Air.US
	if p.side == wind.JP {
		n = p.v.Air.JP
	}
	if n <= 0 {
		return
	}
	best, bestV := wind.Hex(0), -1
	for t := range p.enemy {
		if p.airDRM(t) < airMinDRM || p.freeJapanese() && p.unknownNearest(t) {
			continue
		}
		if v := p.value(t); v > bestV || v == bestV && t < best {
			best, bestV = t, v
		}
	}
	if best != 0 {
		p.add(wind.Action{Air: &wind.AirStrikes{Attacks: []wind.AirAttack{{Hex: best, Factors: n}}}})
	}
}

// unknownNearest reports whether an Unknown unit is among the side's
// units nearest t, one of which takes the hit of an air strike's die of 2
// or less (rule 8.1.6).
func (p *planner) unknownNearest(t wind.Hex) bool {
	best, unknown := 1000, false
	for _, u := range p.units {
		switch d := u.Hex.Distance(t); {
		case d < best:
			best, unknown = d, u.Kind == wind.Unknown
		case d == best:
			unknown = unknown || u.Kind == wind.Unknown
		}
	}
	return unknown
}

// airMinDRM is the lowest modifier (rule 8.3) at which the side strikes
// from the air: a factor hits on a modified 7 or a natural 0 and falls on
// the side's own nearest unit on a modified 2 or less (8.1.6), so below
// -1 it is likelier to cost a step of its own than to take one.
var airMinDRM = -1

// airDRM is the modifier an air strike at t would roll with: the weather,
// the night and, for the U.S., a target of face-down counters alone.
func (p *planner) airDRM(t wind.Hex) int {
	faceDown := false
	if p.side == wind.US {
		faceDown = true
		for _, e := range p.v.Enemy {
			if e.Hex == t {
				faceDown = false
			}
		}
	}
	drm, _ := wind.DRM(wind.Situation{Combat: wind.AirCombat, Weather: p.v.Weather, Night: p.v.Night, FaceDown: faceDown})
	return drm
}

// fires has each free unit that should fire shoot at the target in
// reach worth most, calling in artillery through a spotter when the
// battery does not see the target itself (rule 8.1.4).
func (p *planner) fires() {
	for _, opt := range p.opts {
		u, ok := p.units[opt.Unit]
		if !ok || !p.free(opt) || len(opt.Fire) == 0 || !p.shouldFire(u, opt) {
			continue
		}
		best := p.target(opt)
		if best == nil {
			continue
		}
		fire := &wind.Fire{Units: []string{opt.Unit}, Target: best.Target}
		if !best.Sees {
			fire.Spotter = best.Spotters[p.rnd.IntN(len(best.Spotters))]
		}
		if len(best.TargetUnits) > 0 {
			fire.TargetUnit = p.strongest(best.TargetUnits)
		}
		p.add(wind.Action{Fire: fire}, opt.Unit)
		if u.Kind == wind.Unknown {
			p.turnIntoInfantry(u.Hex)
		}
	}
}

// turnIntoInfantry marks every Unknown unit of h as used: when one of
// them fires, they all turn into infantry together (rule 2.5), and none
// is left to be given an activation.
func (p *planner) turnIntoInfantry(h wind.Hex) {
	for _, o := range p.units {
		if o.Hex == h && o.Kind == wind.Unknown {
			p.used[o.ID] = true
		}
	}
}

// target is the fire option of opt worth most (value) among those the unit
// sees or has a spotter for and whose fire can take something
// (fireCounts), or nil.
func (p *planner) target(opt wind.UnitOptions) *wind.FireOption {
	var best *wind.FireOption
	bestV := -1
	for i := range opt.Fire {
		f := &opt.Fire[i]
		if !f.Sees && len(f.Spotters) == 0 || !p.fireCounts(f.Target) {
			continue
		}
		if v := p.value(f.Target); v > bestV {
			best, bestV = f, v
		}
	}
	return best
}

// strongest returns the enemy unit of ids with the most steps, the first
// on a tie.
func (p *planner) strongest(ids []string) string {
	best, steps := ids[0], -1
	for _, id := range ids {
		for _, e := range p.v.Enemy {
			if e.ID == id && e.Steps > steps {
				best, steps = id, e.Steps
			}
		}
	}
	return best
}

// shouldFire says whether u fires rather than moves: artillery always;
// other units when they cannot usefully move (an enemy next to them, or
// a goal they hold). An Unknown unit that fires turns into infantry (2.5),
// and a face-down one turns face up, so the Japanese keep them quiet
// while no U.S. unit stands beside them, and a face-down unit until the
// last day turn. An Unknown unit beside U.S. units in the two-player game
// fires (unknownFires).
func (p *planner) shouldFire(u wind.UnitView, opt wind.UnitOptions) bool {
	if u.Kind == wind.Artillery {
		return true
	}
	adjacent := p.threatened(u.Hex)
	if p.side == wind.JP && (u.Kind == wind.Unknown || u.FaceDown) && !(adjacent && (p.lastStand() || p.unknownFires(u))) {
		return false
	}
	if p.side == wind.US && adjacent && !p.guard(u) && p.advance(u, opt) {
		return false
	}
	return adjacent || p.guard(u) || len(opt.Moves) == 0
}

// unknownFires reports whether the Japanese Unknown unit u, beside U.S.
// units, fires at them in the two-player game: it cannot leave their zone
// of control (6.1), and waiting it would be assaulted, where it turns into
// infantry anyway (2.5), or shot, where one hit takes it off the map
// (8.5). Firing, it shoots first, and the infantry it turns into hold the
// hex against ranged fire, which never takes a hex's last platoon (8.5),
// so the U.S. must assault them there.
func (p *planner) unknownFires(u wind.UnitView) bool {
	return p.freeJapanese() && u.Kind == wind.Unknown
}

// advance reports whether the U.S. unit u has a move that takes it at
// least a hex's worth nearer the goals, which it makes rather than fire at
// the enemy beside it: the calendar of the short scenarios is short.
func (p *planner) advance(u wind.UnitView, opt wind.UnitOptions) bool {
	here := p.distance(u.Hex)
	for _, mv := range opt.Moves {
		if p.stack[mv.To]+p.weight(u) <= p.room() && p.distance(mv.To) <= here-2 {
			return true
		}
	}
	return false
}

// fireCounts reports whether ranged fire at t can take anything: the
// U.S. fire never takes the last Japanese infantry of a hex (rule 8.5), so
// a hex of one face-up unit and no anonymous counters is no target for it.
func (p *planner) fireCounts(t wind.Hex) bool {
	if p.side != wind.US {
		return true
	}
	n := 0
	for _, e := range p.v.Enemy {
		if e.Hex == t {
			n++
		}
	}
	for _, h := range p.v.Hidden {
		if h.Hex == t {
			n += 2 // an Unknown unit a hit takes off the map
		}
	}
	return n >= 2
}

// nearGoal reports whether h is a goal hex or next to one.
func (p *planner) nearGoal(h wind.Hex) bool {
	for _, g := range p.goals {
		if h.Distance(g) <= 1 {
			return true
		}
	}
	return false
}

// moves sends each free unit to the hex it may reach that scores best
// (score), staying put when nothing beats where it stands.
func (p *planner) moves() {
	for _, opt := range p.opts {
		u, ok := p.units[opt.Unit]
		if !ok || !p.free(opt) || len(opt.Moves) == 0 || p.guard(u) {
			continue
		}
		if p.holdsGround(u) {
			continue
		}
		w := p.weight(u)
		best, bestS := -1, p.score(u, u.Hex)
		for i, mv := range opt.Moves {
			if p.stack[mv.To]+w > p.room() {
				continue
			}
			if s := p.score(u, mv.To); s > bestS {
				best, bestS = i, s
			}
		}
		if best < 0 {
			continue
		}
		mv := opt.Moves[best]
		p.stack[u.Hex] -= w
		p.stack[mv.To] += w
		p.own[u.Hex] -= p.melee(u.ID, u.Steps)
		p.own[mv.To] += p.melee(u.ID, u.Steps)
		if u.Kind == wind.Unknown {
			p.unknown[u.Hex]--
			p.unknown[mv.To]++
		}
		p.add(wind.Action{Move: &wind.Move{Unit: u.ID, Path: slices.Clone(mv.Path)}}, u.ID)
	}
}

// surroundBonus is what a U.S. unit gains, in score points, by standing
// alone next to a goal the enemy holds: assaults from more hexes around it
// bring more of them under the zones of control that give +1 or +2 to the
// assault (rule 6.2).
var surroundBonus = 8

// besideEnemyGoal reports whether h is next to a goal hex enemy counters
// hold.
func (p *planner) besideEnemyGoal(h wind.Hex) bool {
	for _, g := range p.goals {
		if p.enemy[g] > 0 && h.Distance(g) == 1 {
			return true
		}
	}
	return false
}

// spread is what a Japanese Unknown unit loses, in score points, by
// ending its move in h beside others outside a goal hex: all the Unknown
// units of a hex turn into three infantry at most, together (2.5), so a
// second one there adds little but the choice of table, where in a hex of
// its own it is one more hex for the U.S. to clear.
func (p *planner) spread(u wind.UnitView, h wind.Hex) int {
	others := p.unknown[h]
	if h == u.Hex {
		others--
	}
	if others <= 0 || slices.Contains(p.goals, h) {
		return 0
	}
	return -6 * others
}

// score is how good it is for u to end its move in h: nearer the goals is better, a goal hex best; for the
// U.S., standing next to enemy counters much stronger than the stack is
// worse (it invites a melee it would lose), and some noise from the seed
// breaks ties.
func (p *planner) score(u wind.UnitView, h wind.Hex) int {
	s := -10 * p.distance(h)
	if slices.Contains(p.goals, h) {
		s += 30
	}
	if p.freeJapanese() && u.Kind == wind.Unknown {
		s += p.spread(u, h)
	}
	threat := 0
	for _, n := range h.Neighbours() {
		threat += p.enemy[n]
	}
	mine := p.own[h]
	if h != u.Hex {
		mine += p.melee(u.ID, u.Steps)
	}
	// In the last two turns a U.S. unit goes up to the goals whatever
	// stands beside them: the assault of the last turn is made from there.
	late := p.side == wind.US && p.after() <= 1 && p.nearGoal(h)
	if p.side == wind.US && threat > 2*mine && !late {
		s -= 3 * (threat - 2*mine)
	}
	if p.side == wind.US && threat > 0 && mine >= threat {
		s += 5 // ready to assault next turn
	}
	if p.side == wind.US && p.own[h] == 0 && p.besideEnemyGoal(h) {
		s += surroundBonus
	}
	return s*4 + p.rnd.IntN(4)
}

// hold keeps each goal hex the Japanese may still hold garrisoned: one
// that has lost its last Unknown unit (to fire, 8.5) takes in the free
// Unknown unit with the richest table that can reach it, before the U.S.
// walks in. On the last day turn, with U.S. units beside the goal, its
// Unknown units turn into infantry by firing at them (2.5; RULINGS.md R4),
// a shot the assault to come could not otherwise get, and one more
// Unknown unit comes in, whose own table tops the hex up when the melee
// is fought.
func (p *planner) hold() {
	if !p.freeJapanese() {
		return
	}
	for _, g := range p.goals {
		if p.enemy[g] > 0 || p.stack[g] >= wind.StackJapanese {
			continue
		}
		if p.unknown[g] == 0 {
			p.reinforce(g)
		}
		if p.lastStand() && p.threatened(g) && p.unknown[g] > 0 && p.convert(g) {
			p.reinforce(g)
		}
	}
}

// threatened reports whether an enemy unit stands next to h.
func (p *planner) threatened(h wind.Hex) bool {
	for _, n := range h.Neighbours() {
		if p.enemy[n] > 0 {
			return true
		}
	}
	return false
}

// convert has an Unknown unit of g fire at the enemy it sees, turning the
// hex's Unknown units into infantry (2.5), and reports whether it could.
func (p *planner) convert(g wind.Hex) bool {
	for _, opt := range p.opts {
		u, ok := p.units[opt.Unit]
		if !ok || u.Hex != g || u.Kind != wind.Unknown || !p.free(opt) {
			continue
		}
		best := p.target(opt) // an Unknown unit has no spotters: it sees its target
		if best == nil {
			continue
		}
		p.turnIntoInfantry(g)
		p.unknown[g] = 0
		p.add(wind.Action{Fire: &wind.Fire{Units: []string{opt.Unit}, Target: best.Target}}, opt.Unit)
		return true
	}
	return false
}

// reinforce moves into g the free Unknown unit with the richest table
// that can reach it from another hex.
func (p *planner) reinforce(g wind.Hex) {
	var best *wind.MoveOption
	var unit wind.UnitView
	bestT := -1
	for _, opt := range p.opts {
		u, ok := p.units[opt.Unit]
		if !ok || u.Hex == g || u.Kind != wind.Unknown || !p.free(opt) {
			continue
		}
		for i, mv := range opt.Moves {
			if mv.To != g {
				continue
			}
			if t := tableSum(u.Table); t > bestT {
				best, unit, bestT = &opt.Moves[i], u, t
			}
		}
	}
	if best == nil {
		return
	}
	p.unknown[unit.Hex]--
	p.unknown[g]++
	p.add(wind.Action{Move: &wind.Move{Unit: unit.ID, Path: slices.Clone(best.Path)}}, unit.ID)
}

// tableSum is what an Unknown unit's table yields over the ten faces.
func tableSum(t []int) int {
	n := 0
	for _, v := range t {
		n += v
	}
	return n
}

// ringTurn is the first turn on which the Japanese ring falls back on
// its goal (holdsGround).
const ringTurn = 6

// ringReach is how far from its goal an Unknown unit of the ring stands.
const ringReach = 2

// holdsGround reports whether the Japanese Unknown unit u stays where it
// is rather than move: until turn ringTurn, a lone Unknown unit within
// ringReach hexes of its goal, on the side of the landing beaches, keeps
// its hex. Each such hex the U.S. must clear or skirt under its zone of
// control (6.0) costs it time and steps, and turns into infantry on its
// own table when assaulted, where the same units stacked in the goal hex
// would give three platoons at most together (2.5).
func (p *planner) holdsGround(u wind.UnitView) bool {
	if !p.freeJapanese() || u.Kind != wind.Unknown || p.v.Turn >= ringTurn || p.unknown[u.Hex] != 1 {
		return false
	}
	g, d := p.nearestGoal(u.Hex)
	return d > 0 && d <= ringReach && p.beachDistance(u.Hex, g) < p.beachDistance(g, g)
}

// nearestGoal returns the goal nearest h and how many hexes away it is.
func (b *board) nearestGoal(h wind.Hex) (wind.Hex, int) {
	var g wind.Hex
	d := 1000
	for _, x := range b.goals {
		if n := h.Distance(x); n < d {
			g, d = x, n
		}
	}
	return g, d
}

// beachReach is how near goal g a landing zone must be to count as one
// its attackers come from.
const beachReach = 8

// beachDistance is how many hexes h lies from the nearest landing zone
// within beachReach hexes of goal g.
func (b *board) beachDistance(h, g wind.Hex) int {
	d := 1000
	for _, lz := range b.m.LandingZones {
		if lz.Hex.Distance(g) <= beachReach {
			d = min(d, h.Distance(lz.Hex))
		}
	}
	return d
}

// lastStand reports whether this is the Japanese file of the game's last
// day turn, which follows the U.S. one (3.2): the melees the U.S. has
// declared are all that is left of the game, so a goal's Unknown units
// have nothing more to hide.
func (p *planner) lastStand() bool {
	return p.freeJapanese() && !p.v.Night && p.after() == 0
}

// freeJapanese reports whether the side is the Japanese of the two-player
// game. In the solitaire game of rule 13 the stand-in only fills the
// choices rules 13.2 to 13.6 leave the Japanese, the way it did before it
// held rings and goals (holdsGround, hold, lastStand, spread,
// unknownFires, regroup, and air strikes that spare Unknown units): those
// rules, not the stand-in, set how hard that game is, and a victory hex
// defends with three infantry there whatever stands in it (13.2).
func (b *board) freeJapanese() bool {
	return b.side == wind.JP && !b.v.Solitaire
}
