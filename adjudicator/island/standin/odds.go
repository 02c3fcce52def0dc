package standin

import (
	"sort"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// plan is one attack being weighed: piece indexes rather than ids.
type plan struct {
	defs    []int
	atts    []int // from adjacent hexes
	bars    []int // barrage from non-adjacent hexes (rule 8.11)
	gsp     int
	banzai  bool
	advance bool // whether a winner advances into a defender's hex
}

// line gives the CRT line the defenders would use (rules 7.41-7.45, 8.62,
// IW3): the best of their hexes' lines and of the hexside features every
// adjacent ground attacker crosses.
func (v *view) line(defs, atts []int) island.Line {
	var ground []int
	for _, i := range atts {
		if !v.isGun(i) {
			ground = append(ground, i)
		}
	}
	best := island.LineClear
	for _, j := range defs {
		h := v.hex(j)
		if l := v.terrainLine(h); l.Rank() > best.Rank() {
			best = l
		}
		if len(ground) == 0 {
			continue // rule 8.62: no hexside helps against artillery alone
		}
		for _, f := range v.s.FeaturesOf(h, v.hex(ground[0])) {
			l := f.Line
			if l == "" && f.Class == island.ClassRiver {
				l = island.LineRiver
			}
			if l == "" || l.Rank() <= best.Rank() {
				continue
			}
			all := true
			for _, i := range ground[1:] {
				if !hasFeature(v.s.FeaturesOf(h, v.hex(i)), f.Name) {
					all = false
				}
			}
			if all {
				best = l
			}
		}
	}
	return best
}

func hasFeature(fs []island.Feature, name string) bool {
	for _, f := range fs {
		if f.Name == name {
			return true
		}
	}
	return false
}

// strength gives an attack's total (rules 7.15, 8.31, 9.11, 10.11) and
// whether it is by artillery and ground support alone (IW4).
func (v *view) strength(a plan) (int, bool) {
	t, gunsOnly := a.gsp, true
	for _, i := range a.atts {
		u := v.unit(i)
		switch {
		case v.isGun(i):
			t += u.Barrage
		case a.banzai && v.isFoot(i):
			t += 2 * u.Attack
			gunsOnly = false
		default:
			t += u.Attack
			gunsOnly = false
		}
	}
	for _, i := range a.bars {
		t += v.unit(i).Barrage
	}
	return t, gunsOnly
}

// fpfGuess is how much final protective fire the defenders' side could add
// to an attack on defs (rules 8.4, 9.0): its guns in range that no unit of
// ours is next to and that are free to fire (rule 8.41, IW6), and a point
// or two of ground support. It is a guess: the enemy's plans are his own.
func (v *view) fpfGuess(defs []int, combats int) int {
	if len(defs) == 0 {
		return 0
	}
	them := v.side(defs[0])
	t := 0
	for _, g := range v.pieces(them) {
		pc := v.p.Pieces[g]
		if !v.isGun(g) || containsInt(defs, g) || pc.FPF == combats || (pc.Adverse > 0 && pc.Adverse >= combats-1) {
			continue
		}
		if v.zoc(pc.Hex, them.Enemy()) {
			continue
		}
		for _, j := range defs {
			if v.dist(pc.Hex, v.hex(j)) <= v.unit(g).Range {
				t += v.unit(g).FPF
				break
			}
		}
	}
	return t + min(v.p.GSP[them], 1)
}

// value gives the expected worth of an attack to the attacking side, over
// the six rolls of the die: units eliminated or forced out on both sides
// (rules 7.62, 7.74), the Banzai price (rule 10.12), the hex won.
func (v *view) value(a plan, fpf int) float64 {
	att, gunsOnly := v.strength(a)
	def := 0
	for _, j := range a.defs {
		def += v.unit(j).Defense // rule 8.5: artillery too
	}
	if !gunsOnly { // rule 8.45
		def += fpf
	}
	col := island.Column(v.line(a.defs, a.atts), att-def)
	total := 0.0
	for die := 1; die <= 6; die++ {
		total += v.outcome(a, island.Lookup(col, die), gunsOnly)
	}
	return total / 6
}

// outcome is the worth of one result of an attack to the attacker.
func (v *view) outcome(a plan, r island.Result, gunsOnly bool) float64 {
	x := 0.0
	switch r {
	case island.De:
		for _, j := range a.defs {
			x += v.loss(j)
		}
		x += v.won(a)
	case island.D1, island.D2, island.D3:
		if r == island.D1 && gunsOnly { // rule 8.15
			break
		}
		n := int(r[1] - '0')
		for _, j := range a.defs {
			if v.canRetreat(j, n) {
				x += 0.35 + 0.1*float64(n)
			} else {
				x += v.loss(j)
			}
		}
		x += v.won(a)
	case island.A1, island.A2, island.A3:
		n := int(r[1] - '0')
		for _, i := range a.atts { // barraging guns never retreat (rule 8.14)
			if v.canRetreat(i, n) {
				x -= 0.3
			} else {
				x -= v.loss(i)
			}
		}
	case island.Ae:
		for _, i := range a.atts {
			x -= v.loss(i)
		}
		return x // rule 10.0, IW13: nothing more is removed
	}
	if a.banzai {
		for _, i := range v.banzaiPrice(a) {
			x -= v.loss(i)
		}
	}
	return x
}

// won is the worth of the defenders' hexes to the winner who advances into
// one (rule 7.9): the points of the scoring hexes among them.
func (v *view) won(a plan) float64 {
	if !a.advance {
		return 0
	}
	w := v.worthNow()
	best := 0.0
	for _, j := range a.defs {
		h := v.hex(j)
		x := w.occ[h]
		if v.owner(h) != v.side(a.atts[0]) {
			x += w.ctrl[h]
		}
		best = max(best, x)
	}
	return best * 0.8 // the enemy may take it back
}

// banzaiPrice gives the attackers removed after a Banzai result (rules
// 10.12, 10.13; IW12): foot first, by the engine's default (the set of least
// printed strength that pays), then armor, then adjacent guns.
func (v *view) banzaiPrice(a plan) []int {
	price := 0
	for _, j := range a.defs {
		price += v.unit(j).Defense
	}
	printed := func(i int) int {
		if v.isGun(i) {
			return v.unit(i).Barrage
		}
		return v.unit(i).Attack
	}
	var out []int
	paid := 0
	for _, tier := range []func(int) bool{v.isFoot, func(i int) bool { return v.cls[i] == island.Armor }, v.isGun} {
		if paid >= price {
			break
		}
		var c []int
		for _, i := range a.atts {
			if tier(i) {
				c = append(c, i)
			}
		}
		sort.Slice(c, func(x, y int) bool { return printed(c[x]) < printed(c[y]) })
		// The cheapest single unit that pays, or else the weakest first.
		picked := -1
		for k, i := range c {
			if paid+printed(i) >= price {
				picked = k
				break
			}
		}
		if picked >= 0 {
			out = append(out, c[picked])
			paid += printed(c[picked])
			continue
		}
		for _, i := range c {
			if paid >= price {
				break
			}
			out = append(out, i)
			paid += printed(i)
		}
	}
	return out
}

// canRetreat reports whether piece i could retreat n hexes, each one
// farther from its hex (IW9), never into or next to an enemy (rules 7.71,
// 7.72), friends being passed by displacing them (rule 7.81).
func (v *view) canRetreat(i, n int) bool {
	h0 := v.hex(i)
	enemy := v.side(i).Enemy()
	var walk func(at island.Hex, k int) bool
	walk = func(at island.Hex, k int) bool {
		if k == n {
			return true
		}
		for _, c := range v.nbrs(at) {
			if v.dist(h0, c) != k+1 || !v.passable(c) || v.prohibited(at, c) || v.zoc(c, enemy) {
				continue
			}
			if j := v.at(c); j >= 0 && v.side(j) == enemy {
				continue
			}
			if walk(c, k+1) {
				return true
			}
		}
		return false
	}
	return walk(h0, 0)
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
