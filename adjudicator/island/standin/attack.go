package standin

import (
	"sort"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// attackPlan makes the phasing side's combat orders for the position of
// its Combat Phase: every duty of rules 7.11 and 7.12 met (IW10), the
// attackers grouped for the best odds, barrage from guns out of contact
// (rule 8.11), ground support where it lifts a column (rule 9.11), Banzai
// where the doubling pays (rule 10.0), and advances into hexes that score.
func (v *view) attackPlan() []plan {
	n := v.p.Combats
	var atts, defs []int
	for _, i := range v.pieces(v.me) {
		if len(v.next(v.hex(i), v.me.Enemy())) > 0 && v.p.Pieces[i].Attacked != n {
			atts = append(atts, i)
		}
	}
	for _, j := range v.pieces(v.me.Enemy()) {
		if len(v.next(v.hex(j), v.me)) > 0 && v.p.Pieces[j].Defended != n {
			defs = append(defs, j)
		}
	}
	// Strongest attackers choose first.
	sort.SliceStable(atts, func(x, y int) bool { return v.power(atts[x]) > v.power(atts[y]) })
	groups := make([]plan, 0, len(defs))
	of := map[int]int{} // defender -> group
	for _, j := range defs {
		of[j] = len(groups)
		groups = append(groups, plan{defs: []int{j}})
	}
	for _, i := range atts {
		best, bestGain := -1, 0.0
		for _, j := range v.next(v.hex(i), v.me.Enemy()) {
			k, ok := of[j]
			if !ok || !v.nextToAll(i, groups[k].defs) {
				continue
			}
			gain := v.gain(groups[k], i)
			if best < 0 || gain > bestGain {
				best, bestGain = k, gain
			}
		}
		if best < 0 {
			continue // cannot happen: a defender next to i has a group
		}
		groups[best].atts = append(groups[best].atts, i)
	}
	groups = v.cover(groups)
	v.improve(groups)
	groups = v.barrage(groups)
	v.support(groups)
	v.banzai(groups)
	for k := range groups {
		groups[k].advance = v.shouldAdvance(groups[k])
	}
	// Good attacks first; the forced bad ones last, where a displacement
	// may yet cancel them (IW20).
	val := make([]float64, len(groups))
	for k := range groups {
		val[k] = v.value(groups[k], v.fpfGuess(groups[k].defs, n))
	}
	idx := make([]int, len(groups))
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(x, y int) bool { return val[idx[x]] > val[idx[y]] })
	out := make([]plan, len(groups))
	for k, x := range idx {
		out[k] = groups[x]
	}
	return out
}

// power orders units by what they bring to an attack.
func (v *view) power(i int) int {
	u := v.unit(i)
	if v.isGun(i) {
		return u.Barrage
	}
	return u.Attack
}

// nextToAll reports whether piece i is next to every one of defs (rule 7.23).
func (v *view) nextToAll(i int, defs []int) bool {
	for _, j := range defs {
		if !v.s.Grid.Adjacent(v.hex(i), v.hex(j)) {
			return false
		}
	}
	return true
}

// gain is what adding attacker i to an attack is worth.
func (v *view) gain(a plan, i int) float64 {
	fpf := v.fpfGuess(a.defs, v.p.Combats)
	before := 0.0
	if len(a.atts)+len(a.bars) > 0 || a.gsp > 0 {
		before = v.value(a, fpf)
	}
	b := a
	b.atts = append(append([]int(nil), a.atts...), i)
	return v.value(b, fpf) - before
}

// cover gives every defender left without an attacker one (rule 7.11): it
// joins the attack of a lone attacker next to it, who is next to all that
// attack's defenders, or takes an attacker out of an attack of several.
// One of the two always works, since each attack has an attacker.
func (v *view) cover(groups []plan) []plan {
	var out, bare []plan
	for _, g := range groups {
		if len(g.atts) == 0 {
			bare = append(bare, g)
		} else {
			out = append(out, g)
		}
	}
	for _, b := range bare {
		j := b.defs[0]
		best, bestGain, join := -1, 0.0, false
		var who int
		for k, g := range out {
			for _, i := range g.atts {
				if !v.s.Grid.Adjacent(v.hex(i), v.hex(j)) {
					continue
				}
				fpf := v.fpfGuess(g.defs, v.p.Combats)
				old := v.value(g, fpf)
				if len(g.atts) == 1 {
					m := g
					m.defs = append(append([]int(nil), g.defs...), j)
					gain := v.value(m, v.fpfGuess(m.defs, v.p.Combats)) - old
					if best < 0 || gain > bestGain {
						best, bestGain, join, who = k, gain, true, i
					}
					continue
				}
				rest := g
				rest.atts = without(g.atts, i)
				alone := plan{defs: []int{j}, atts: []int{i}}
				gain := v.value(rest, fpf) + v.value(alone, v.fpfGuess(alone.defs, v.p.Combats)) - old
				if best < 0 || gain > bestGain {
					best, bestGain, join, who = k, gain, false, i
				}
			}
		}
		if best < 0 {
			continue // no attacker next to it: it is no duty
		}
		if join {
			out[best].defs = append(out[best].defs, j)
			continue
		}
		out[best].atts = without(out[best].atts, who)
		out = append(out, plan{defs: []int{j}, atts: []int{who}})
	}
	return out
}

func without(xs []int, x int) []int {
	out := make([]int, 0, len(xs))
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// improve moves attackers between attacks while the whole is worth more,
// keeping every attack with an attacker next to all its defenders.
func (v *view) improve(groups []plan) {
	n := v.p.Combats
	val := func(g plan) float64 { return v.value(g, v.fpfGuess(g.defs, n)) }
	for pass := 0; pass < 3; pass++ {
		moved := false
		for k := range groups {
			for _, i := range append([]int(nil), groups[k].atts...) {
				if len(groups[k].atts) < 2 {
					break
				}
				from := groups[k]
				from.atts = without(from.atts, i)
				base := val(groups[k])
				for m := range groups {
					if m == k || !v.nextToAll(i, groups[m].defs) {
						continue
					}
					to := groups[m]
					to.atts = append(append([]int(nil), to.atts...), i)
					if val(from)+val(to) > base+val(groups[m])+0.01 {
						groups[k], groups[m] = from, to
						moved = true
						break
					}
				}
			}
		}
		if !moved {
			return
		}
	}
}

// barrage sends each gun out of contact where it adds most (rules 8.11,
// 8.21, 8.22): into an attack with a defender in range, or alone against
// an enemy unit nobody attacks. A barraging gun never suffers the
// attacker's results (rule 8.14), so any gain is taken.
func (v *view) barrage(groups []plan) []plan {
	n := v.p.Combats
	attacked := map[int]bool{}
	for _, g := range groups {
		for _, j := range g.defs {
			attacked[j] = true
		}
	}
	for _, i := range v.pieces(v.me) {
		if !v.isGun(i) || v.zoc(v.hex(i), v.me.Enemy()) || v.p.Pieces[i].Attacked == n {
			continue
		}
		rng := v.unit(i).Range
		best, bestGain := -1, 0.01
		for k, g := range groups {
			if !v.inRange(i, g.defs, rng) {
				continue
			}
			fpf := v.fpfGuess(g.defs, n)
			b := g
			b.bars = append(append([]int(nil), g.bars...), i)
			if gain := v.value(b, fpf) - v.value(g, fpf); gain > bestGain {
				best, bestGain = k, gain
			}
		}
		lone := -1
		for _, j := range v.pieces(v.me.Enemy()) {
			if attacked[j] || v.dist(v.hex(i), v.hex(j)) > rng {
				continue
			}
			a := plan{defs: []int{j}, bars: []int{i}}
			if gain := v.value(a, 0); gain > bestGain {
				best, bestGain, lone = -1, gain, j
			}
		}
		switch {
		case lone >= 0:
			attacked[lone] = true
			groups = append(groups, plan{defs: []int{lone}, bars: []int{i}})
		case best >= 0:
			groups[best].bars = append(groups[best].bars, i)
		}
	}
	return groups
}

func (v *view) inRange(i int, defs []int, rng int) bool {
	for _, j := range defs { // rule 8.22: one defender in range is enough
		if v.dist(v.hex(i), v.hex(j)) <= rng {
			return true
		}
	}
	return false
}

// support spends ground support a point at a time where it gains most
// (rules 9.11, 9.12), keeping points for final protective fire when the
// enemy's Player-Turn of this Game-Turn is still to come (IW5).
func (v *view) support(groups []plan) {
	n := v.p.Combats
	left := v.p.GSP[v.me]
	keep := 0.0
	if v.me == v.s.FirstPlayer {
		keep = 0.12
	}
	for left > 0 {
		best, bestGain := -1, keep
		for k, g := range groups {
			if len(g.atts) == 0 {
				continue
			}
			fpf := v.fpfGuess(g.defs, n)
			b := g
			b.gsp++
			if gain := v.value(b, fpf) - v.value(g, fpf); gain > bestGain {
				best, bestGain = k, gain
			}
		}
		if best < 0 {
			return
		}
		groups[best].gsp++
		left--
	}
}

// banzai declares Banzai (rule 10.0) where the doubled infantry and
// engineers are worth more than the units the price removes.
func (v *view) banzai(groups []plan) {
	if v.me != island.Japan {
		return
	}
	n := v.p.Combats
	for k, g := range groups {
		foot := false
		for _, i := range g.atts {
			foot = foot || v.isFoot(i)
		}
		if !foot {
			continue
		}
		fpf := v.fpfGuess(g.defs, n)
		b := g
		b.banzai = true
		if v.value(b, fpf) > v.value(g, fpf)+0.05 {
			groups[k].banzai = true
		}
	}
}

// shouldAdvance reports whether a winner should follow a retreating
// defender into its hex (rule 7.9): for points, or for better ground.
func (v *view) shouldAdvance(g plan) bool {
	if len(g.atts) == 0 || len(g.defs) == 0 {
		return false
	}
	i := v.advancer(g)
	if i < 0 {
		return false
	}
	w := v.worthNow()
	for _, j := range g.defs {
		h := v.hex(j)
		if w.occ[h] > 0 || (w.ctrl[h] > 0 && v.owner(h) != v.me) {
			return true
		}
		if v.terrainLine(h).Rank() > v.terrainLine(v.hex(i)).Rank() {
			return true
		}
	}
	return false
}

// advancer gives the attacker best fit to advance: a ground unit, the
// stoutest defender first; guns stay.
func (v *view) advancer(g plan) int {
	best := -1
	for _, i := range g.atts {
		if v.isGun(i) {
			continue
		}
		if best < 0 || v.unit(i).Defense > v.unit(best).Defense {
			best = i
		}
	}
	return best
}

// order writes a plan as the engine's Attack.
func (v *view) order(g plan) island.Attack {
	a := island.Attack{GSP: g.gsp, Banzai: g.banzai}
	for _, j := range g.defs {
		a.Defenders = append(a.Defenders, v.unit(j).ID)
	}
	for _, i := range g.atts {
		a.Attackers = append(a.Attackers, v.unit(i).ID)
	}
	for _, i := range g.bars {
		a.Barrage = append(a.Barrage, v.unit(i).ID)
	}
	if g.advance {
		if i := v.advancer(g); i >= 0 {
			best := g.defs[0]
			w := v.worthNow()
			for _, j := range g.defs {
				if w.occ[v.hex(j)]+w.ctrl[v.hex(j)] > w.occ[v.hex(best)]+w.ctrl[v.hex(best)] {
					best = j
				}
			}
			a.Advance = []island.Advance{{Unit: v.unit(i).ID, To: v.hex(best)}}
		}
	}
	return a
}
