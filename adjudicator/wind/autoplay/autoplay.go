// Package autoplay is a player that gives random legal orders, for tests
// that play whole games (the generated-game property test, the store's
// long games) and for demonstrations.
//
// Like the rules it plays by, it is pure: randomness is the caller's, passed
// in as a function, so that a seed replays a game exactly.
//
// # Basics
//
// Orders answers whatever the game waits for (wind.State.Wait):
// the U.S. decision with a random night or day turn or, now and then, a
// refit turn; an actions file with a random mix of moves, ranged fire,
// melee declarations, now and then the side's air strikes or Colonel
// Yamasaki's charge, and units left alone; the refit orders of either
// side (see refit.go); or the setup orders of either side (see setup.go).
// Every file it returns passes wind.CheckOrders, so Resolve accepts
// it; the dice may still make an activation moot when it runs.
//
// # Caveats
//
// It decides only from what its side may see: the enemy
// counters' hexes and the enemy units shown face up; it names no face-down
// enemy unit, and the Japanese never look at the U.S. units off the map.
// It plays badly on purpose, favouring moves towards the enemy so that
// fights happen, and nothing more.
package autoplay

import (
	"slices"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Orders returns random legal orders for what s waits for. pick(n) must
// return a number from 0 to n-1; the same answers give the same orders.
// When the game waits for no one (over, or not begun) it returns
// s.DefaultOrders(), which nothing accepts.
func Orders(s *wind.State, pick func(n int) int) wind.Orders {
	w := s.Wait()
	switch w.Kind {
	case wind.WaitUSDecision:
		return decision(s, pick)
	case wind.WaitUSRefit:
		return usRefit(s, s.DefaultOrders(), pick)
	case wind.WaitJPRefit:
		return jpRefit(s, pick)
	case wind.WaitActions:
		return actions(s, w.Side, pick)
	case wind.WaitJPSetup:
		return jpSetup(s, pick)
	case wind.WaitUSLanding:
		return usLanding(s, pick)
	}
	return s.DefaultOrders()
}

// player builds one actions file activation by activation. sim is the
// position as the file so far leaves it when no die changes anything, as
// the rules judge a file (CheckActions); the player chooses each activation
// from it and never changes it itself.
type player struct {
	s    *wind.State
	sim  *wind.State
	side wind.Side
	pick func(int) int
	o    wind.Orders
	// enemies are the hexes holding enemy counters, in order. The enemy
	// does not move during the side's actions, and without dice nothing
	// is lost, so they stay the same while the file is written.
	enemies []wind.Hex
	enemy   map[wind.Hex]bool
}

// chance is true one time in n.
func (p *player) chance(n int) bool { return p.pick(n) == 0 }

// try appends a to the file when it is legal where the file so far
// leaves the position, and then plays it on sim as the rules judge it
// (ResolveActions without dice is CheckActions, one activation at a time).
func (p *player) try(a wind.Action) bool {
	one := p.o
	one.Actions = []wind.Action{a}
	ns, _, ps := wind.ResolveActions(p.sim, one, nil)
	if len(ps) > 0 {
		return false
	}
	p.sim = ns
	p.o.Actions = append(p.o.Actions, a)
	return true
}

// check makes sure the whole file passes CheckOrders. Judging activations
// one at a time on sim is what CheckActions does, so this holds; should
// the two ever differ, the file is rebuilt keeping each activation only if
// the file up to it passes.
func (p *player) check() {
	if len(wind.CheckOrders(p.s, p.o)) == 0 {
		return
	}
	all := p.o.Actions
	p.o.Actions = nil
	for _, a := range all {
		p.o.Actions = append(p.o.Actions, a)
		if len(wind.CheckOrders(p.s, p.o)) > 0 {
			p.o.Actions = p.o.Actions[:len(p.o.Actions)-1]
		}
	}
}

func actions(s *wind.State, side wind.Side, pick func(int) int) wind.Orders {
	p := &player{s: s, sim: s, side: side, pick: pick, o: s.DefaultOrders(), enemy: map[wind.Hex]bool{}}
	hexes, by := s.Occupants()
	for _, h := range hexes {
		if by[h][0].Side() != side {
			p.enemies = append(p.enemies, h)
			p.enemy[h] = true
		}
	}
	if p.chance(4) {
		st := randomStanding(side, pick)
		p.o.Standing = &st
		if len(wind.CheckOrders(s, p.o)) > 0 {
			p.o.Standing = nil
		}
	}
	p.play()
	p.check()
	return p.o
}

// play fills the file: the side's units in a random order, each given one
// activation or none; the air strikes and Colonel Yamasaki at a random
// point.
func (p *player) play() {
	units := p.own()
	shuffle(units, p.pick)
	air := -1
	if p.airpower() > 0 && p.chance(2) {
		air = p.pick(len(units) + 1)
	}
	yamasaki := -1
	if p.side == wind.JP {
		if ok, _ := p.sim.YamasakiEligible(); ok && p.chance(3) {
			yamasaki = p.pick(len(units) + 1)
		}
	}
	for i := 0; i <= len(units); i++ {
		if i == air {
			p.air()
		}
		if i == yamasaki {
			p.yamasaki()
		}
		if i == len(units) {
			break
		}
		u, _ := p.sim.Unit(units[i])
		if u.Acted || !u.OnMap() {
			continue
		}
		p.activate(u)
	}
}

// own returns the ids of the side's units on the map.
func (p *player) own() []string {
	var ids []string
	for _, u := range p.sim.OnMap() {
		if u.Side() == p.side {
			ids = append(ids, u.ID)
		}
	}
	return ids
}

// activate gives u a random activation, or none: melee when an enemy is
// next to it more often than not, otherwise fire or a move.
func (p *player) activate(u *wind.Unit) {
	if p.chance(6) {
		return // left alone
	}
	if p.canMelee(u) && len(p.meleeTargets(u)) > 0 && !p.chance(3) {
		if p.melee(u) {
			return
		}
	}
	if u.Rating().Ranged > 0 && u.Rating().Range > 0 && p.chance(2) {
		if p.fire(u) {
			return
		}
	}
	p.move(u)
}

// canMelee: the unit types that may declare melee (rule 8.2, as melee.go
// reads it).
func (p *player) canMelee(u *wind.Unit) bool {
	switch u.Kind() {
	case wind.Infantry, wind.Recon, wind.Engineer, wind.Unknown:
		return true
	}
	return false
}

// enemyAt reports whether h holds enemy counters.
func (p *player) enemyAt(h wind.Hex) bool { return p.enemy[h] }

// meleeTargets are the hexes next to u it could melee: land, not across a
// cliff, held by the enemy.
func (p *player) meleeTargets(u *wind.Unit) []wind.Hex {
	m := p.sim.Map()
	var out []wind.Hex
	for _, n := range m.Neighbours(u.Hex) {
		if m.Land(n) && !m.Cliff(u.Hex, n) && p.enemyAt(n) {
			out = append(out, n)
		}
	}
	return out
}

// melee declares u, and some of the other units of its hex, against an
// adjacent enemy hex (rule 8.2). Units of a hex that already declared must
// name the same target.
func (p *player) melee(u *wind.Unit) bool {
	targets := p.meleeTargets(u)
	target := targets[p.pick(len(targets))]
	for _, o := range p.sim.UnitsAt(u.Hex) {
		if o.Side() == p.side && o.Melee != 0 {
			target = o.Melee
		}
	}
	ids := []string{u.ID}
	for _, o := range p.sim.UnitsAt(u.Hex) {
		if o != u && o.Side() == p.side && !o.Acted && p.canMelee(o) && p.chance(2) {
			ids = append(ids, o.ID)
		}
	}
	return p.try(wind.Action{Melee: &wind.Melee{Units: ids, Target: target}})
}

// fire has u fire at an enemy hex in range that CheckFireBy accepts, with
// other units joining it now and then, and a spotter for artillery that
// cannot see the target (8.1.4).
func (p *player) fire(u *wind.Unit) bool {
	var targets []wind.Hex
	for _, h := range p.enemies {
		if u.Hex.Distance(h) <= u.Rating().Range {
			targets = append(targets, h)
		}
	}
	shuffle(targets, p.pick)
	for i, t := range targets {
		if i == 3 {
			break
		}
		f := wind.Fire{Units: []string{u.ID}, Target: t, TargetUnit: p.targetUnit(t)}
		if p.sim.CheckFireBy(p.side, f) != nil {
			if u.Kind() != wind.Artillery {
				continue
			}
			f.Spotter = p.spotter(f)
			if f.Spotter == "" {
				continue
			}
		}
		for _, o := range p.sim.OnMap() {
			if o == u || o.Side() != p.side || o.Acted || o.Rating().Range <= 0 || o.Hex.Distance(t) > o.Rating().Range || !p.chance(3) {
				continue
			}
			g := f
			g.Units = append(slices.Clip(f.Units), o.ID)
			if p.sim.CheckFireBy(p.side, g) == nil {
				f = g
			}
		}
		if p.try(wind.Action{Fire: &f}) {
			return true
		}
	}
	return false
}

// targetUnit names the unit to fire at when the U.S. fires at a hex mixing
// face-up and face-down units (rule 8.0): one of the face-up ones.
func (p *player) targetUnit(h wind.Hex) string {
	if p.side != wind.US {
		return ""
	}
	var up []string
	down := false
	for _, e := range p.sim.UnitsAt(h) {
		switch {
		case e.Side() == p.side:
		case e.FaceDown:
			down = true
		default:
			up = append(up, e.ID)
		}
	}
	if !down || len(up) == 0 {
		return ""
	}
	return up[p.pick(len(up))]
}

// spotter returns a unit of the side that lets the artillery of f fire,
// or "".
func (p *player) spotter(f wind.Fire) string {
	var cands []string
	for _, o := range p.sim.OnMap() {
		if o.Side() == p.side && o.Hex.Distance(f.Target) <= wind.SpottingDistance(p.sim.Weather) {
			cands = append(cands, o.ID)
		}
	}
	shuffle(cands, p.pick)
	for i, id := range cands {
		if i == 3 {
			break
		}
		f.Spotter = id
		if p.sim.CheckFireBy(p.side, f) == nil {
			return id
		}
	}
	return ""
}

// move sends u to a hex it can reach: half the time the one nearest the
// enemy, otherwise any.
func (p *player) move(u *wind.Unit) bool {
	reach := p.sim.Reachable(u)
	delete(reach, u.Hex)
	if len(reach) == 0 {
		return false
	}
	dests := make([]wind.Hex, 0, len(reach))
	for h := range reach {
		dests = append(dests, h)
	}
	slices.Sort(dests) // map order must not decide
	dest := dests[p.pick(len(dests))]
	if p.chance(2) {
		dest = p.nearestEnemy(dests, dest)
	}
	path := p.path(u, reach, dest)
	return path != nil && p.try(wind.Action{Move: &wind.Move{Unit: u.ID, Path: path}})
}

// nearestEnemy returns the hex of dests nearest an enemy counter, or def
// when there is none.
func (p *player) nearestEnemy(dests []wind.Hex, def wind.Hex) wind.Hex {
	best, bestD := def, -1
	for _, d := range dests {
		for _, e := range p.enemies {
			if dist := d.Distance(e); bestD < 0 || dist < bestD {
				best, bestD = d, dist
			}
		}
	}
	return best
}

// path returns the hexes u enters on its cheapest way to dest, walking
// back from dest through the costs of reach (Reachable): a hex next to the
// start is entered directly (it is always legal, by the minimum move of rule
// 5.8 if need be); otherwise the previous hex is one it may leave (not in an
// enemy zone of control, rule 6.1) whose cost plus the step's is dest's.
func (p *player) path(u *wind.Unit, reach map[wind.Hex]int, dest wind.Hex) []wind.Hex {
	m := p.sim.Map()
	enemy := p.side.Enemy()
	path := []wind.Hex{dest}
	for cur := dest; !cur.Adjacent(u.Hex); {
		var prev wind.Hex
		for _, n := range m.Neighbours(cur) {
			c, ok := reach[n]
			if !ok || n == u.Hex || p.sim.InEnemyZOC(n, enemy) {
				continue
			}
			if sc, err := wind.StepCost(m, p.side, n, cur); err == nil && c+sc.MP == reach[cur] {
				prev = n
				break
			}
		}
		if prev == 0 || len(path) > 64 {
			return nil
		}
		path = append(path, prev)
		cur = prev
	}
	slices.Reverse(path)
	return path
}

// airpower is the side's airpower left this turn (rule 3.4).
func (p *player) airpower() int {
	if p.side == wind.US {
		return p.sim.AirUS
	}
	return p.sim.AirJP
}

// air announces the side's air strikes (rule 8.1.6): all its factors over
// one or two enemy hexes.
func (p *player) air() {
	targets := slices.Clone(p.enemies)
	n := p.airpower()
	if len(targets) == 0 || n == 0 {
		return
	}
	shuffle(targets, p.pick)
	attacks := []wind.AirAttack{{Hex: targets[0], Factors: n}}
	if n > 1 && len(targets) > 1 && p.chance(2) {
		k := 1 + p.pick(n-1)
		attacks = []wind.AirAttack{{Hex: targets[0], Factors: k}, {Hex: targets[1], Factors: n - k}}
	}
	p.try(wind.Action{Air: &wind.AirStrikes{Attacks: attacks}})
}

// yamasaki has Colonel Yamasaki lead the units of a Japanese hex (rule
// 11.3), each one hex on, into a U.S.-held hex when there is one next to it.
func (p *player) yamasaki() {
	hexes, by := p.sim.Occupants()
	var cands []wind.Hex
	for _, h := range hexes {
		for _, u := range by[h] {
			if u.Side() == p.side && !u.Acted {
				cands = append(cands, h)
				break
			}
		}
	}
	if len(cands) == 0 {
		return
	}
	h := cands[p.pick(len(cands))]
	m := p.sim.Map()
	y := &wind.Yamasaki{Hex: h}
	for _, u := range by[h] {
		if u.Side() != p.side || u.Acted {
			continue
		}
		var to []wind.Hex
		for _, n := range m.Neighbours(h) {
			if m.Land(n) && !m.Cliff(h, n) {
				to = append(to, n)
			}
		}
		if len(to) == 0 || p.chance(3) {
			continue
		}
		dest := to[p.pick(len(to))]
		for _, n := range to {
			if p.enemyAt(n) {
				dest = n
			}
		}
		y.Moves = append(y.Moves, wind.Move{Unit: u.ID, Path: []wind.Hex{dest}})
	}
	p.try(wind.Action{Yamasaki: y})
}

// randomStanding returns standing instructions for side with a few fields
// set at random, so that retreats, advances, loss orders and
// the heroes' timing vary.
func randomStanding(side wind.Side, pick func(int) int) wind.Standing {
	one := func(vs ...string) string { return vs[pick(len(vs))] }
	st := wind.Standing{
		Losses:       one("", wind.LossesSpread, wind.LossesConcentrate),
		Advance:      one("", wind.AdvanceAll, wind.AdvanceNone, wind.AdvanceStrongest),
		FriendlyFire: one("", wind.FireMostSteps, wind.FireFewestSteps),
		MeleePick:    one("", wind.PickStrongest, wind.PickListed),
	}
	if side == wind.US {
		st.Retreat = one("", wind.RetreatNever, wind.RetreatAlways, wind.RetreatIfLosing,
			wind.RetreatBelowPrefix+"2", wind.RetreatBelowPrefix+"4")
		st.Martinez = one("", wind.HeroAuto, wind.HeroNever)
		st.Arnold = one("", wind.HeroAuto, wind.HeroNever)
	} else {
		st.UnknownTable = one("", wind.TableMost, wind.TableFewest)
	}
	return st
}

// shuffle puts xs in a random order (Fisher–Yates).
func shuffle[T any](xs []T, pick func(int) int) {
	for i := len(xs) - 1; i > 0; i-- {
		j := pick(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// Deploy puts the units of a game that has not been set up on the map at
// random, as a stand-in for the setup waits of rule 12, which come later:
// every Unknown and artillery unit and a third of the Japanese infantry
// face down on random land hexes (at most three infantry and artillery
// units a hex, rule 4.2), the rest of the infantry in the pool (2.5); three
// quarters of the U.S. battalion units within a few hexes of the landing
// zones, stacked legally (4.1, 9.2.1), the others in the reinforcements box.
// Independent units and supply depots stay unused. The sides never share a
// hex.
func Deploy(s *wind.State, pick func(n int) int) {
	m := s.Map()
	land := m.LandHexes()
	var beach []wind.Hex
	for _, h := range land {
		for _, lz := range m.LandingZones {
			if h.Distance(lz.Hex) <= 4 {
				beach = append(beach, h)
				break
			}
		}
	}
	held := map[wind.Hex]wind.Side{}
	jpStack := map[wind.Hex]int{}
	for _, u := range s.Units {
		side, kind := u.Counter().Side(), u.Kind()
		if side == wind.JP {
			if kind == wind.Infantry && pick(3) > 0 {
				s.Place(u.ID, 0, wind.BoxPool)
				continue
			}
			placed := false
			for range 20 {
				h := land[pick(len(land))]
				if held[h] == wind.US {
					continue
				}
				if _, lz := m.LandingZoneAt(h); lz {
					continue
				}
				if kind != wind.Unknown && jpStack[h] >= wind.StackJapanese {
					continue
				}
				if kind != wind.Unknown {
					jpStack[h]++
				}
				s.Place(u.ID, h, "")
				u.FaceDown = true
				held[h] = wind.JP
				placed = true
				break
			}
			if !placed {
				box := wind.BoxEliminated
				switch kind {
				case wind.Infantry:
					box = wind.BoxPool
				case wind.Unknown:
					box = wind.BoxOffMap
				}
				s.Place(u.ID, 0, box)
			}
			continue
		}
		if u.Counter().Class.Independent || kind == wind.Depot {
			continue // unused
		}
		s.Place(u.ID, 0, wind.BoxReinforcements)
		if pick(4) == 0 || len(beach) == 0 {
			continue
		}
		for range 20 {
			h := beach[pick(len(beach))]
			if held[h] == wind.JP || s.StackingProblemWith(h, u, u.Steps) != "" {
				continue
			}
			s.Place(u.ID, h, "")
			held[h] = wind.US
			break
		}
	}
}
