package island

import "sort"

// banzai removes the price of a Banzai attack after its result (rules 10.0,
// 10.12, 10.13; IW12, IW13): Japanese units of the combat whose printed
// Attack Strengths reach the printed Defense Strengths of the U.S.
// defenders; infantry and engineers first, then armor, then artillery
// from adjacent hexes, never barraging artillery.
func (r *resolver) banzai(rep *CombatReport, a Attack, defs, atts []int) {
	e, b := r.e, r.b
	price := 0
	for _, j := range defs {
		price += e.unit(j).Defense
	}
	printed := func(i int) int {
		if e.isArtillery(i) {
			return e.unit(i).Barrage // IW12
		}
		return e.unit(i).Attack
	}
	tiers := []func(int) bool{
		e.isFoot,
		func(i int) bool { return e.class[i] == Armor },
		e.isArtillery, // atts holds adjacent artillery only (rule 10.13)
	}
	paid := 0
	for _, in := range tiers {
		if paid >= price {
			break
		}
		var cands []int
		for _, i := range atts {
			if in(i) && b.p.Pieces[i].Where == OnMap {
				cands = append(cands, i)
			}
		}
		for _, i := range r.removalOrder(cands, price-paid, a.Removals, printed) {
			paid += printed(i)
			b.remove(i)
			rep.Removals = append(rep.Removals, e.S.Units[i].ID)
		}
	}
}

// removalOrder picks the units of one tier to remove to pay need: all of
// them if they fall short; otherwise the player's order until paid, or by
// default the set of least printed strength that pays (then fewest units,
// then smallest ids; IW21).
func (r *resolver) removalOrder(cands []int, need int, named []string, printed func(int) int) []int {
	e := r.e
	total := 0
	for _, i := range cands {
		total += printed(i)
	}
	if total <= need {
		return cands
	}
	sort.Slice(cands, func(x, y int) bool { return e.S.Units[cands[x]].ID < e.S.Units[cands[y]].ID })
	if len(named) > 0 {
		rank := func(i int) int {
			for k, id := range named {
				if id == e.S.Units[i].ID {
					return k
				}
			}
			return len(named)
		}
		sort.SliceStable(cands, func(x, y int) bool { return rank(cands[x]) < rank(cands[y]) })
		var out []int
		paid := 0
		for _, i := range cands {
			if paid >= need {
				break
			}
			out = append(out, i)
			paid += printed(i)
		}
		return out
	}
	if len(cands) > 12 { // cannot happen on a hex grid (rule 7.13): none of six is spared
		return cands
	}
	// At most six adjacent attackers (rule 7.13): every subset is tried.
	best, bestSum, bestN := -1, 0, 0
	for m := 1; m < 1<<len(cands); m++ {
		sum, cnt := 0, 0
		for k, i := range cands {
			if m&(1<<k) != 0 {
				sum += printed(i)
				cnt++
			}
		}
		if sum < need {
			continue
		}
		if best < 0 || sum < bestSum || (sum == bestSum && cnt < bestN) {
			best, bestSum, bestN = m, sum, cnt
		}
	}
	var out []int
	for k, i := range cands {
		if best&(1<<k) != 0 {
			out = append(out, i)
		}
	}
	return out
}
