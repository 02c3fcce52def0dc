package standin

import (
	"sort"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// Defence gives side's standing instructions for the enemy's coming
// Player-Turn, decided before his attacks are known: final protective
// fire for each unit he could reach, committed only against attacks whose
// odds are dangerous (rules 8.4, 9.0), its own retreat wishes, and an
// advance into the hex of a beaten attacker (rule 7.91, IW11): following
// up played better than staying put, against itself and the random
// player. The position is the enemy's Movement or Combat Phase; his
// orders are not looked at.
func Defence(e *island.Engine, p island.Position, side island.Side, seed uint64) island.Defence {
	if p.Phasing == side {
		return island.Defence{}
	}
	v := newView(e, p, side)
	d := island.Defence{Own: v.instructions(reachOf(v, side.Enemy())), Advance: true}
	mine := v.pieces(side)
	// The units that cost most to lose are protected first.
	sort.SliceStable(mine, func(x, y int) bool { return v.loss(mine[x]) > v.loss(mine[y]) })
	var guns []int
	for _, i := range mine {
		if v.isGun(i) {
			guns = append(guns, i)
		}
	}
	for _, i := range mine {
		if v.nearest(v.hex(i), side.Enemy()) > 6 {
			continue // no enemy can reach it this Player-Turn
		}
		at := dangerous(v.terrainLine(v.hex(i)))
		if v.loss(i) >= 2.5 {
			at-- // a unit worth points to the enemy is guarded sooner
		}
		var arty []string
		for _, g := range guns {
			if g != i && v.dist(v.hex(g), v.hex(i)) <= v.unit(g).Range { // rule 8.42
				arty = append(arty, v.unit(g).ID)
			}
		}
		if len(arty) > 0 {
			d.FPF = append(d.FPF, island.FPFPlan{Protect: v.unit(i).ID, Artillery: arty, MinDifferential: intp(at)})
		}
		if p.GSP[side] > 0 {
			d.FPF = append(d.FPF, island.FPFPlan{Protect: v.unit(i).ID, GSP: 1, MinDifferential: intp(at + 1)})
		}
	}
	// Against a Banzai the doubled attack is met with everything: a
	// beaten Banzai still pays its price (rule 10.12).
	for _, i := range mine {
		if side == island.US && p.GSP[side] > 0 {
			d.FPF = append(d.FPF, island.FPFPlan{Protect: v.unit(i).ID, GSP: 1, OnlyBanzai: true})
		}
	}
	return d
}

// dangerous gives the lowest differential at which an attack on a line
// has an even chance of forcing the defender out (rule 7.61).
func dangerous(l island.Line) int {
	for diff := -7; diff <= 10; diff++ {
		col := island.Column(l, diff)
		n := 0
		for die := 1; die <= 6; die++ {
			switch island.Lookup(col, die) {
			case island.D1, island.D2, island.D3, island.De:
				n++
			}
		}
		if n >= 3 {
			return diff
		}
	}
	return 10
}

func intp(n int) *int { return &n }

// reachOf gives how far side s's units can strike in a Player-Turn: the
// longest move, plus one hex for the attack (rule 7.23).
func reachOf(v *view, s island.Side) int {
	n := 1
	for _, i := range v.pieces(s) {
		n = max(n, v.unit(i).Movement+1)
	}
	return n
}
