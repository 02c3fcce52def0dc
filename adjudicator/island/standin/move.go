package standin

import (
	"sort"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// mover plans one Movement Phase: where each unit ends and by which path.
type mover struct {
	*view
	r     *rng
	reach map[int]map[island.Hex][]island.Hex
	dest  map[int]island.Hex   // decided destinations
	path  map[int][]island.Hex // and their paths (nil: stays)
	done  map[int]bool
	goals []goal
	touch map[island.Hex]bool // scoring hexes a decided path passes
}

// moves gives the phasing side's moves: first the attacks worth making,
// each with attackers brought next to the defender (rule 7.23), then every
// other unit toward the hexes that score, on good ground, out of contact
// it cannot afford, guns within range but out of reach (rules 8.12, 8.32).
func (v *view) moves(r *rng) []island.Move {
	m := &mover{view: v, r: r, reach: map[int]map[island.Hex][]island.Hex{}, dest: map[int]island.Hex{},
		path: map[int][]island.Hex{}, done: map[int]bool{}, touch: map[island.Hex]bool{}}
	var units []int
	for _, i := range v.movable(v.me) {
		m.reach[i] = v.e.Reach(v.p, v.unit(i).ID)
		units = append(units, i)
	}
	m.goals = v.goals(v.worthNow())
	m.strike(units)
	// Units nearest a goal choose first, so that the goals are shared out.
	sort.SliceStable(units, func(x, y int) bool { return m.closeness(units[x]) < m.closeness(units[y]) })
	for _, i := range units {
		if !m.done[i] {
			m.settle(i)
		}
	}
	var out []island.Move
	for _, i := range v.movable(v.me) {
		if p := m.path[i]; len(p) > 0 {
			out = append(out, island.Move{Unit: v.unit(i).ID, Path: p})
		}
	}
	return out
}

// closeness is how far a unit is from its nearest goal.
func (m *mover) closeness(i int) int {
	h := m.from(i)
	best := 99
	for _, g := range m.goals {
		best = min(best, m.dist(h, g.hex))
	}
	if m.isGun(i) {
		best += 50 // guns place themselves behind the others
	}
	return best
}

// from gives where a unit starts, or for a reinforcement the first hex it
// may enter by.
func (m *mover) from(i int) island.Hex {
	if m.onMap(i) {
		return m.hex(i)
	}
	var hs []island.Hex
	for h := range m.reach[i] {
		hs = append(hs, h)
	}
	if len(hs) == 0 {
		return island.Hex{}
	}
	sortHexes(hs) // not the map's order: the same inputs give the same moves
	return hs[0]
}

// free reports whether a unit may end in h: no friend decided there nor
// still standing there undecided (rule 5.31).
func (m *mover) free(i int, h island.Hex) bool {
	for k, d := range m.dest {
		if k != i && d == h {
			return false
		}
	}
	if j := m.at(h); j >= 0 && j != i && !m.done[j] {
		return false
	}
	return true
}

// options gives the hexes unit i may end in, with paths; its own hex
// (path nil) first when it is on the map.
func (m *mover) options(i int) ([]island.Hex, map[island.Hex][]island.Hex) {
	var hs []island.Hex
	if m.onMap(i) {
		hs = append(hs, m.hex(i))
	}
	var more []island.Hex
	for h := range m.reach[i] {
		if m.free(i, h) {
			more = append(more, h)
		}
	}
	sortHexes(more)
	return append(hs, more...), m.reach[i]
}

// decide fixes unit i's move and moves it on the view.
func (m *mover) decide(i int, h island.Hex, path []island.Hex) {
	m.done[i] = true
	m.dest[i] = h
	if m.onMap(i) && h == m.hex(i) {
		return
	}
	m.path[i] = path
	for _, c := range path {
		m.touch[c] = true
	}
	m.place(i, h)
}

// strike picks the attacks worth moving for, best first: for each enemy
// unit the strongest attackers that can reach the hexes next to it, as
// many as pay, with the barrage that can reach it.
func (m *mover) strike(units []int) {
	for {
		best := struct {
			val   float64
			def   int
			units []int
			hexes []island.Hex
		}{val: 0, def: -1}
		for _, j := range m.pieces(m.me.Enemy()) {
			us, hs, val := m.bestStrike(j, units)
			if len(us) > 0 && val > best.val {
				best.val, best.def, best.units, best.hexes = val, j, us, hs
			}
		}
		if best.def < 0 {
			return
		}
		for k, i := range best.units {
			m.decide(i, best.hexes[k], m.reach[i][best.hexes[k]])
		}
	}
}

// bestStrike gives the attackers to bring against enemy j, their hexes
// and the attack's worth, counting what standing next to other enemies
// and the enemy's reply cost.
func (m *mover) bestStrike(j int, units []int) ([]int, []island.Hex, float64) {
	type cand struct {
		i     int
		hexes []island.Hex
	}
	var cands []cand
	for _, i := range units {
		if m.done[i] || m.isGun(i) || m.cls[i] == island.Other {
			continue
		}
		var hs []island.Hex
		opts, _ := m.options(i)
		for _, h := range opts {
			if m.s.Grid.Adjacent(h, m.hex(j)) {
				hs = append(hs, h)
			}
		}
		if len(hs) > 0 {
			cands = append(cands, cand{i, hs})
		}
	}
	sort.SliceStable(cands, func(x, y int) bool { return m.unit(cands[x].i).Attack > m.unit(cands[y].i).Attack })
	var (
		chosen []int
		hexes  []island.Hex
		undo   []func()
		bestV  = 0.0
		bestN  = 0
	)
	used := map[island.Hex]bool{}
	bars := m.gunsFor(j)
	fpf := m.fpfGuess([]int{j}, m.p.Combats+1)
	worth := func(atts []int) float64 {
		val := m.value(plan{defs: []int{j}, atts: atts, bars: bars, advance: true}, fpf)
		for _, i := range atts {
			val -= m.sideCost(i, j) + m.stuck(i)*m.exposure(i)
		}
		return val
	}
	for _, c := range cands {
		// The hex that makes the attack worth most: the defender's line
		// depends on the hexsides crossed (rule 7.42, IW3), the price on
		// the other enemies next to it (rule 7.11); then the best ground.
		pick, pickScore := island.Hex{}, -1e9
		next := append(append([]int(nil), chosen...), c.i)
		for _, h := range c.hexes {
			if used[h] {
				continue
			}
			u := m.place(c.i, h)
			s := worth(next) + 0.05*float64(m.terrainLine(h).Rank())
			u()
			if s > pickScore {
				pick, pickScore = h, s
			}
		}
		if pickScore == -1e9 {
			continue
		}
		used[pick] = true
		chosen = next
		hexes = append(hexes, pick)
		undo = append(undo, m.place(c.i, pick))
		if val := worth(chosen); val > bestV {
			bestV, bestN = val, len(chosen)
		}
	}
	for k := len(undo) - 1; k >= 0; k-- {
		undo[k]()
	}
	return chosen[:bestN], hexes[:bestN], bestV
}

// gunsFor gives the side's guns out of contact with j in range, for the
// barrage they could add.
func (m *mover) gunsFor(j int) []int {
	var out []int
	for _, i := range m.pieces(m.me) {
		if m.isGun(i) && !m.zoc(m.hex(i), m.me.Enemy()) && m.dist(m.hex(i), m.hex(j)) <= m.unit(i).Range {
			out = append(out, i)
		}
	}
	return out
}

// sideCost is the price of unit i standing next to enemies other than j:
// each must be attacked too (rule 7.11), by i's friends or by i at worse odds.
func (m *mover) sideCost(i, j int) float64 {
	n := 0
	for _, k := range m.next(m.hex(i), m.me.Enemy()) {
		if k != j {
			n++
		}
	}
	return 0.4 * float64(n)
}

// exposure is what the enemy's coming Player-Turn may cost unit i where it
// stands: the attack his units within a move of it could make.
func (m *mover) exposure(i int) float64 {
	if m.final() {
		return 0
	}
	h := m.hex(i)
	var strengths []int
	for _, k := range m.pieces(m.me.Enemy()) {
		u := m.unit(k)
		d := m.dist(h, m.hex(k))
		switch {
		case m.isGun(k):
			if d <= u.Range {
				strengths = append(strengths, u.Barrage)
			}
		case d <= 1+u.Movement/2:
			a := u.Attack
			if m.me == island.US && m.isFoot(k) {
				a *= 2 // a Banzai may double it (rule 10.11)
			}
			strengths = append(strengths, a)
		}
	}
	if len(strengths) == 0 {
		return 0
	}
	sort.Sort(sort.Reverse(sort.IntSlice(strengths)))
	att := 0
	for k, s := range strengths {
		if k < 3 {
			att += s
		}
	}
	col := island.Column(m.terrainLine(h), att-m.unit(i).Defense)
	x := 0.0
	for die := 1; die <= 6; die++ {
		switch r := island.Lookup(col, die); r {
		case island.De:
			x += m.loss(i)
		case island.D1, island.D2, island.D3:
			if m.canRetreat(i, int(r[1]-'0')) {
				x += 0.3
			} else {
				x += m.loss(i) // rule 7.74
			}
		}
	}
	return x/6 + m.isolation(i)
}

// isolation is the risk of a unit left alone among enemies: they can close
// every way back and, once it is in contact, it may not leave (rules 5.14,
// 5.15) and must attack them at whatever odds (rule 7.12).
func (m *mover) isolation(i int) float64 {
	if m.final() {
		return 0
	}
	h := m.hex(i)
	foes, friends := 0, 0
	for _, k := range m.pieces(m.me.Enemy()) {
		if !m.isGun(k) && m.dist(h, m.hex(k)) <= 1+m.unit(k).Movement/2 {
			foes++
		}
	}
	// Reinforcements due by the enemy's coming Player-Turn count from
	// their nearest entry hex (IW16).
	for k, pc := range m.p.Pieces {
		if m.side(k) != m.me.Enemy() || pc.Where != island.Waiting || pc.Due == 0 || pc.Due > m.p.Turn+1 || m.isGun(k) {
			continue
		}
		if d, ok := m.entryDist(k, h); ok && d <= 1+m.unit(k).Movement/2 {
			foes++
		}
	}
	for _, k := range m.pieces(m.me) {
		if k != i && m.dist(h, m.hex(k)) <= 2 {
			friends++
		}
	}
	if foes >= 2 && friends == 0 {
		return 0.8 * m.loss(i)
	}
	return 0
}

// settle moves a unit that makes no planned attack to where it is worth
// most.
func (m *mover) settle(i int) {
	opts, paths := m.options(i)
	best, bestS := island.Hex{}, -1e18
	for _, h := range opts {
		var path []island.Hex
		if !(m.onMap(i) && h == m.hex(i)) {
			path = paths[h]
		}
		s := m.score(i, h, path) + m.r.jitter()
		if s > bestS {
			best, bestS = h, s
		}
	}
	if bestS == -1e18 {
		m.done[i] = true // nowhere to go: a reinforcement waits (IW16)
		return
	}
	var path []island.Hex
	if !(m.onMap(i) && best == m.hex(i)) {
		path = paths[best]
	}
	m.decide(i, best, path)
}

// score is the worth of unit i ending its move in h by path.
func (m *mover) score(i int, h island.Hex, path []island.Hex) float64 {
	w := m.worthNow()
	undo := m.place(i, h)
	defer undo()
	s := 0.0
	for _, c := range path {
		if w.ctrl[c] > 0 && m.owner(c) != m.me && !m.touch[c] {
			if c == h {
				s += w.ctrl[c]
			} else {
				s += 0.7 * w.ctrl[c]
			}
		}
	}
	if j := m.at(h); w.occ[h] > 0 && (j < 0 || j == i) {
		s += w.occ[h]
	}
	if w.ctrl[h] > 0 {
		s += 0.3 * w.ctrl[h]
	}
	// Toward the goals no friend has taken yet.
	for _, g := range m.goals {
		if k, ok := m.taken(g.hex); ok && k != i {
			continue
		}
		s = s + 0.6*g.want/float64(1+m.dist(h, g.hex))
	}
	// A hex taken or held by a unit that will be cut off is soon lost.
	if m.isolation(i) > 0 {
		s *= 0.25
	}
	s += 0.3 / float64(m.nearestTo(h)) // pressure on the enemy
	enemies := m.next(h, m.me.Enemy())
	if m.isGun(i) {
		if len(enemies) > 0 {
			return s - 10 // rule 8.32: a gun in contact cannot barrage
		}
		inRange := 0
		for _, j := range m.pieces(m.me.Enemy()) {
			if m.dist(h, m.hex(j)) <= m.unit(i).Range {
				inRange++
			}
		}
		s += 0.4 * float64(min(inRange, 3))
		s -= 1.5 * m.exposure(i)
		return s + 0.1*float64(m.terrainLine(h).Rank())
	}
	s += 0.15 * float64(m.terrainLine(h).Rank())
	s += 0.1 * float64(min(2, len(m.next(h, m.me)))) // a line, not a scatter
	if len(enemies) > 0 {
		best := -1e9
		for _, j := range enemies {
			a := plan{defs: []int{j}, atts: []int{i}, bars: m.gunsFor(j)}
			best = max(best, m.value(a, m.fpfGuess(a.defs, m.p.Combats+1)))
		}
		s += best - 0.4*float64(len(enemies)-1)
	}
	if len(enemies) > 0 {
		s -= m.stuck(i) * m.exposure(i)
	} else {
		s -= 0.6 * m.exposure(i)
	}
	return s
}

// stuck weighs the enemy's reply to a unit in contact: all of it for one
// that may not leave an enemy zone of control (rules 5.14, 5.15), half for
// Japanese infantry and engineers, who may step out (rule 6.14).
func (m *mover) stuck(i int) float64 {
	if m.me == island.Japan && m.isFoot(i) {
		return 0.5
	}
	return 1
}

// taken reports which friend has decided to end in or pass through a goal.
func (m *mover) taken(h island.Hex) (int, bool) {
	for k, d := range m.dest {
		if d == h {
			return k, true
		}
	}
	if m.touch[h] {
		return -1, true
	}
	return 0, false
}

// nearestTo gives the distance from h to the nearest enemy, at least 1.
func (m *mover) nearestTo(h island.Hex) int { return max(1, m.nearest(h, m.me.Enemy())) }

// entryDist gives the distance from h to the nearest entry hex of
// reinforcement k.
func (m *mover) entryDist(k int, h island.Hex) (int, bool) {
	best, ok := 99, false
	for _, r := range m.s.Reinforcements {
		if !contains(r.Units, m.unit(k).ID) {
			continue
		}
		for _, c := range append(append([]island.Hex(nil), r.Entry...), m.s.Areas[r.Area]...) {
			best, ok = min(best, m.dist(h, c)), true
		}
	}
	return best, ok
}
