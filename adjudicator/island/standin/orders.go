package standin

import (
	"sort"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// Orders gives side's orders for its Player-Turn: its moves, then its
// attacks in the order they are resolved, and its own retreat
// instructions. The position is the side's Movement Phase (or its Combat
// Phase, when it has moved already: then there are no moves). The orders
// always pass the engine: should the planned ones not, simpler ones that
// do are given.
func Orders(e *island.Engine, p island.Position, side island.Side, seed uint64) island.Orders {
	o, _ := orders(e, p, side, seed)
	return o
}

// orders is Orders, also telling whether the planned moves or attacks
// were refused and simpler ones given instead.
func orders(e *island.Engine, p island.Position, side island.Side, seed uint64) (island.Orders, bool) {
	if p.Phasing != side || (p.Phase != island.PhaseMovement && p.Phase != island.PhaseCombat) {
		return island.Orders{}, false
	}
	r := &rng{seed ^ uint64(p.Turn)<<32 ^ uint64(p.Combats)}
	var o island.Orders
	fell := false
	q := p
	if p.Phase == island.PhaseMovement {
		o.Moves = newView(e, p, side).moves(r)
		var ps []island.Problem
		q, _, ps = e.Move(p, o)
		if len(ps) > 0 {
			o.Moves, fell = nil, true // staying put is always legal
			q, _, _ = e.Move(p, o)
		}
	}
	v := newView(e, q, side)
	for _, g := range v.attackPlan() {
		o.Attacks = append(o.Attacks, v.order(g))
	}
	if ps := e.CheckAttacks(q, o.Attacks); len(ps) > 0 {
		o.Attacks, fell = v.plainAttacks(), true
	}
	o.Own = v.instructions(1)
	return o, fell
}

// plainAttacks meets the duties of rules 7.11 and 7.12 and nothing more:
// each attacker against one of its neighbours, uncovered defenders then
// covered as in cover. It is the stand-in's fallback.
func (v *view) plainAttacks() []island.Attack {
	var groups []plan
	of := map[int]int{}
	for _, j := range v.pieces(v.me.Enemy()) {
		if len(v.next(v.hex(j), v.me)) > 0 {
			of[j] = len(groups)
			groups = append(groups, plan{defs: []int{j}})
		}
	}
	for _, i := range v.pieces(v.me) {
		if ns := v.next(v.hex(i), v.me.Enemy()); len(ns) > 0 {
			k := of[ns[0]]
			groups[k].atts = append(groups[k].atts, i)
		}
	}
	var out []island.Attack
	for _, g := range v.cover(groups) {
		out = append(out, v.order(g))
	}
	return out
}

// instructions gives the side's wishes for its own retreats (rules 7.7,
// 7.8): toward the nearest friend further from the enemy, so that a
// beaten unit falls back on its line; the engine already keeps it out of enemy zones
// of control (rule 7.71).
//
// Only units within reach of the enemy get them: reach is one hex in the
// side's own Combat Phase, where only its attackers may retreat, and the
// enemy's move and one more in his.
func (v *view) instructions(reach int) island.Instructions {
	in := island.Instructions{Retreats: map[string]island.RetreatPlan{}}
	mine := v.pieces(v.me)
	for _, i := range mine {
		if v.nearest(v.hex(i), v.me.Enemy()) > reach {
			continue
		}
		best, bestD := -1, 99
		front := v.nearest(v.hex(i), v.me.Enemy())
		for _, k := range mine {
			if k == i || v.zoc(v.hex(k), v.me.Enemy()) || v.nearest(v.hex(k), v.me.Enemy()) <= front {
				continue // only a friend further back
			}
			if d := v.dist(v.hex(i), v.hex(k)); d < bestD {
				best, bestD = k, d
			}
		}
		if best >= 0 {
			h := v.hex(best)
			in.Retreats[v.unit(i).ID] = island.RetreatPlan{Toward: &h}
		}
	}
	// A friend pushed aside (rule 7.81) goes where it scores, then to the
	// best ground, then away from the enemy; the engine keeps it out of
	// enemy zones of control.
	w := v.worthNow()
	in.Displace = map[string][]island.Hex{}
	for _, i := range mine {
		if v.nearest(v.hex(i), v.me.Enemy()) > reach+2 {
			continue // nobody retreats through it
		}
		var hs []island.Hex
		for _, n := range v.nbrs(v.hex(i)) {
			if v.passable(n) && !v.prohibited(v.hex(i), n) {
				hs = append(hs, n)
			}
		}
		sortHexes(hs)
		key := func(h island.Hex) float64 {
			return 10*(w.occ[h]+w.ctrl[h]) + 2*float64(v.terrainLine(h).Rank()) + 0.1*float64(v.nearest(h, v.me.Enemy()))
		}
		sort.SliceStable(hs, func(x, y int) bool { return key(hs[x]) > key(hs[y]) })
		if len(hs) > 0 {
			in.Displace[v.unit(i).ID] = hs
		}
	}
	// The units that cost most to lose retreat first, while the ways back
	// are open (IW15).
	sort.SliceStable(mine, func(x, y int) bool { return v.loss(mine[x]) > v.loss(mine[y]) })
	for _, i := range mine {
		in.Order = append(in.Order, v.unit(i).ID)
	}
	return in
}

// Deploy gives side's set-up (rule 3.0) when the position is in its set-up
// phase for side: each unit in a free hex of its area, scoring hexes and
// good ground first, guns back from the enemy.
func Deploy(e *island.Engine, p island.Position, side island.Side, seed uint64) map[string]island.Hex {
	if p.Phase != island.PhaseSetup || p.Phasing != side {
		return nil
	}
	v := newView(e, p, side)
	r := &rng{seed}
	w := v.worthNow()
	todo := e.ToPlace(p, side)
	// Stout units take the best hexes.
	sort.SliceStable(todo, func(x, y int) bool {
		a, _ := indexOf(e, todo[x].Unit)
		b, _ := indexOf(e, todo[y].Unit)
		return v.unit(a).Defense > v.unit(b).Defense
	})
	out := map[string]island.Hex{}
	for _, pl := range todo {
		i, _ := indexOf(e, pl.Unit)
		best, bestS := island.Hex{}, -1e18
		for _, h := range e.S.Areas[pl.Area] {
			if v.at(h) >= 0 || !v.passable(h) {
				continue
			}
			s := v.setupScore(i, h, w) + r.jitter()
			if s > bestS {
				best, bestS = h, s
			}
		}
		if bestS > -1e18 {
			out[pl.Unit] = best
			v.place(i, best)
		}
	}
	return out
}

// setupScore is the worth of placing unit i in h.
func (v *view) setupScore(i int, h island.Hex, w worth) float64 {
	s := 0.0
	// The First Player strikes before the other has moved (rule 4.1):
	// hexes the enemy will reach at once are paid for.
	near := v.threatDist(h)
	if v.me != v.s.FirstPlayer {
		s -= 0.4 * float64(max(0, 5-near))
	}
	if v.isGun(i) {
		s -= 0.5 * float64(max(0, 3-near))
	} else {
		s += 2 * (w.ctrl[h] + w.occ[h])
	}
	for _, g := range v.goals(w) {
		s += 0.5 * g.want / float64(1+v.dist(h, g.hex))
	}
	s += 0.4 * float64(v.terrainLine(h).Rank())
	for _, n := range v.nbrs(h) {
		if j := v.at(n); j >= 0 && v.side(j) == v.me {
			s += 0.1 // a line, not a scatter
		}
	}
	return s
}

func indexOf(e *island.Engine, id string) (int, bool) {
	for i, u := range e.S.Units {
		if u.ID == id {
			return i, true
		}
	}
	return 0, false
}

// threatDist gives the distance from h to the nearest enemy unit, or to
// the nearest hex of an area the enemy has still to set up in.
func (v *view) threatDist(h island.Hex) int {
	best := v.nearest(h, v.me.Enemy())
	for _, pl := range v.s.Setup.Placements {
		i, ok := indexOf(v.e, pl.Unit)
		if !ok || pl.Hex != nil || v.side(i) == v.me || v.p.Pieces[i].Where != island.Waiting {
			continue
		}
		for _, c := range v.s.Areas[pl.Area] {
			best = min(best, v.dist(h, c))
		}
	}
	return best
}
