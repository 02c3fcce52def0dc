package wind

import "fmt"

// Line of sight, rule 8.1.2.
//
// The line runs from the centre of one hex to the centre of the other. attu
// finds exactly which hexes it passes through and which hexsides it crosses,
// in integer arithmetic on cube coordinates, so that no rounding can tip a
// borderline case one way on one machine and the other way on another.
//
// A line that runs along a hexside, or through the corner where three hexes
// meet, has a hex on each side of it at that point. attu shifts the line by an
// infinitesimal amount to its left and to its right and follows both shifted
// lines: every hex and hexside either of them meets is on the line. So a line
// running along the side of an obstructing hex is blocked, as 8.1.2 requires,
// and a line that only grazes the corner of a hex is judged the same way.
// Lines from centre to centre run along hexsides only when they head straight
// at a hex corner (2619 to 2717, for one); the hexsides they run along count
// as crossed, which is how sighting down a slope is blocked.
//
// The obstructions, between two hexes that are neither the same nor adjacent
// (those always see each other), with "lower" and "higher" the ends' levels:
//
//  1. a hex on the line higher than both ends;
//  2. when the ends' levels differ, a hex on the line higher than the lower
//     end and no farther (in hexes) from the lower end than from the higher;
//  3. a slope hexside (without a cliff) on the line that is not a side of
//     either end's hex and whose level is at least the higher end's level;
//  4. a cliff hexside on the line whose level equals the higher end's level
//     and that is not a side of an end hex standing at that level.
//
// The level of a hexside is the higher of its two hexes' levels: a slope or
// cliff marks the edge of the higher ground and stands as high as its top.
// The ends themselves are never "on the line" for obstructions 1 and 2, and
// hexes beyond the map's edge count as level 0.
// Rule 5.7 says cliffs do not block LOS; attu reads that as "not in the way
// slopes do": a cliff obstructs only as obstruction 4 describes (RULINGS.md
// R23). Lines along hexsides and through corners are RULINGS.md R24, the
// level of a hexside R25.

// cube is a hex in cube coordinates: x+y+z == 0.
type cube struct{ x, y, z int }

func cubeOf(h Hex) cube {
	x, y, z := h.Cube()
	return cube{x, y, z}
}

func (c cube) add(d cube) cube { return cube{c.x + d.x, c.y + d.y, c.z + d.z} }
func (c cube) sub(d cube) cube { return cube{c.x - d.x, c.y - d.y, c.z - d.z} }
func (c cube) dot(d cube) int  { return c.x*d.x + c.y*d.y + c.z*d.z }

func (c cube) dist(d cube) int {
	return max(abs(c.x-d.x), abs(c.y-d.y), abs(c.z-d.z))
}

// hex converts back to CCRR. Cubes beyond a map's edge may have no CCRR
// form; they convert to the zero Hex, which is never on a map.
func (c cube) hex() Hex {
	col := c.x
	row := c.z + (c.x-(c.x&1))/2
	if col < 1 || col > 99 || row < 1 || row > 99 {
		return 0
	}
	return MakeHex(col, row)
}

// cubeDir is the step to the neighbour in each Direction. The border between
// a hex h and its neighbour h+n lies where (p-h)·n == 1 (|n|² is 2).
var cubeDir = [6]cube{
	North:     {0, 1, -1},
	NorthEast: {1, 0, -1},
	SouthEast: {1, -1, 0},
	South:     {0, -1, 1},
	SouthWest: {-1, 0, 1},
	NorthWest: {-1, 1, 0},
}

var offMapCell cell

// cubeCell returns the cell at c, or an empty sea cell off the map.
func (m *Map) cubeCell(c cube) *cell {
	col := c.x
	row := c.z + (c.x-(c.x&1))/2
	if col < m.MinCol || col > m.MaxCol || row < m.MinRow || row > m.MaxRow {
		return &offMapCell
	}
	return &m.cells[(col-m.MinCol)*m.nrows+(row-m.MinRow)]
}

// LOS reports whether the centres of a and b see each other (rule 8.1.2),
// and when they do not, what is in the way, naming the hex or hexside:
// "2618 (level 3) is higher than both 2619 (level 1) and 2717 (level 2)".
// The answer is the same both ways round, reason included.
func LOS(m *Map, a, b Hex) (bool, string) {
	if a > b {
		a, b = b, a
	}
	if a == b || a.Adjacent(b) {
		return true, ""
	}
	o := losWalk(m, cubeOf(a), cubeOf(b))
	if o.kind == obsNone {
		return true, ""
	}
	return false, o.explain(m, a, b)
}

type obsKind uint8

const (
	obsNone       obsKind = iota
	obsHigher             // obstruction 1
	obsNearLower          // obstruction 2
	obsSlope              // obstruction 3, crossed
	obsCliff              // obstruction 4, crossed
	obsSlopeAlong         // obstruction 3, the line runs along it
	obsCliffAlong         // obstruction 4, the line runs along it
)

// obstruction is what losWalk found: a hex p, or the hexside between p and
// q, at level.
type obstruction struct {
	kind  obsKind
	p, q  Hex
	level int
}

func (o obstruction) explain(m *Map, a, b Hex) string {
	la, lb := m.Level(a), m.Level(b)
	lo, hi := a, b
	if la > lb {
		lo, hi = b, a
	}
	p, q := o.p, o.q
	if q != 0 && p > q {
		p, q = q, p
	}
	switch o.kind {
	case obsHigher:
		return fmt.Sprintf("%s (level %d) is higher than both %s (level %d) and %s (level %d)", p, o.level, a, la, b, lb)
	case obsNearLower:
		return fmt.Sprintf("%s (level %d) is higher than %s (level %d) and no farther from it than from %s (level %d)",
			p, o.level, lo, m.Level(lo), hi, m.Level(hi))
	case obsSlope:
		return fmt.Sprintf("slope between %s and %s (level %d) is crossed, not a side of either end, and as high as %s (level %d)",
			p, q, o.level, hi, m.Level(hi))
	case obsSlopeAlong:
		return fmt.Sprintf("the line runs along the slope between %s and %s (level %d), as high as %s (level %d)",
			p, q, o.level, hi, m.Level(hi))
	case obsCliff:
		return fmt.Sprintf("cliff between %s and %s (level %d) is at the level of %s and not one of its sides",
			p, q, o.level, hi)
	case obsCliffAlong:
		return fmt.Sprintf("the line runs along the cliff between %s and %s (level %d), at the level of %s",
			p, q, o.level, hi)
	}
	return ""
}

// losWalk follows the line from a to b shifted infinitesimally to each side
// (walkLine) and returns the first obstruction met. a and b are neither equal
// nor adjacent.
func losWalk(m *Map, a, b cube) obstruction {
	ca, cb := m.cubeCell(a), m.cubeCell(b)
	la, lb := int(ca.level), int(cb.level)
	lo, hi := min(la, lb), max(la, lb)
	low := a // the lower end, when the levels differ
	if lb < la {
		low = b
	}
	d := b.sub(a)
	n := a.dist(b)

	hexObstructs := func(h cube, lh int) obsKind {
		if lh > hi {
			return obsHigher
		}
		if la != lb && lh > lo && h.dist(low) <= h.dist(a.add(b).sub(low)) {
			return obsNearLower
		}
		return obsNone
	}
	// sideObstructs judges the hexside between p and its neighbour in
	// direction k, met by the line (crossed or, when along, run along).
	sideObstructs := func(p cube, cp *cell, k int, along bool) (obsKind, int) {
		f := cp.sides[k]
		if f == 0 {
			return obsNone, 0
		}
		q := p.add(cubeDir[k])
		lvl := max(int(cp.level), int(m.cubeCell(q).level))
		endSide := p == a || p == b || q == a || q == b
		if f&sideCliff != 0 {
			if lvl != hi {
				return obsNone, 0
			}
			// Not a side of an end hex that stands at the higher level.
			if (p == a || q == a) && la == hi || (p == b || q == b) && lb == hi {
				return obsNone, 0
			}
			if along {
				return obsCliffAlong, lvl
			}
			return obsCliff, lvl
		}
		if endSide || lvl < hi {
			return obsNone, 0
		}
		if along {
			return obsSlopeAlong, lvl
		}
		return obsSlope, lvl
	}

	for _, s := range [2]int{1, -1} {
		var o obstruction
		walkLine(a, b, s, func(h cube, k int) bool {
			ch := m.cubeCell(h)
			if kind, lvl := sideObstructs(h, ch, k, false); kind != obsNone {
				o = obstruction{kind: kind, p: h.hex(), q: h.add(cubeDir[k]).hex(), level: lvl}
				return true
			}
			next := h.add(cubeDir[k])
			if next == b {
				return false
			}
			lvl := int(m.cubeCell(next).level)
			if kind := hexObstructs(next, lvl); kind != obsNone {
				o = obstruction{kind: kind, p: next.hex(), level: lvl}
				return true
			}
			return false
		})
		if o.kind != obsNone {
			return o
		}
	}

	// A line heading at a hex corner (two of d's coordinates equal) runs
	// along one hexside in every three: the side between the two hexes
	// whose directions from the line's hexes make up the step u.
	if d.x == d.y || d.y == d.z || d.z == d.x {
		k := n / 2
		u := cube{d.x / k, d.y / k, d.z / k}
		k1, k2 := -1, -1
		for i := range 6 {
			if u.dot(cubeDir[i]) == 3 {
				if k1 < 0 {
					k1 = i
				} else {
					k2 = i
				}
			}
		}
		// cubeDir[k2] - cubeDir[k1] is the neighbour direction from p to q.
		kpq := -1
		diff := cubeDir[k2].sub(cubeDir[k1])
		for i := range 6 {
			if cubeDir[i] == diff {
				kpq = i
			}
		}
		c := a
		for range k {
			p := c.add(cubeDir[k1])
			if kind, lvl := sideObstructs(p, m.cubeCell(p), kpq, true); kind != obsNone {
				return obstruction{kind: kind, p: p.hex(), q: c.add(cubeDir[k2]).hex(), level: lvl}
			}
			c = c.add(u)
		}
	}
	return obstruction{}
}

// walkLine follows the line from the centre of a to the centre of b, shifted
// infinitesimally to its left (s = 1) or right (s = -1), and calls cross for
// every hexside it crosses, in order: from hex h to its neighbour in
// direction k. It stops as soon as cross returns true, and reports whether
// that happened.
//
// From the cell it is in, the line leaves across the hexside it reaches
// first. For hex h and neighbour direction n the line a + t·d + s·ε·e
// (e ⊥ d, ε → 0+) reaches that hexside at t = (1 - (a-h)·n - s·ε·(e·n)) /
// (d·n), for d·n > 0. Comparing these first on the ε-free part and then on
// the ε term decides every case exactly; a shifted line never passes through
// a corner, so no tie is left.
func walkLine(a, b cube, s int, cross func(h cube, k int) bool) bool {
	d := b.sub(a)
	// e is d turned a quarter (d × (1,1,1)), in the plane x+y+z=0.
	e := cube{d.y - d.z, d.z - d.x, d.x - d.y}
	// Only the hexsides ahead (d·n > 0) can be left by; their d·n and e·n
	// are the same for every cell.
	var ks [3]int
	var bs, cs [3]int
	nk := 0
	for k := range 6 {
		if bk := d.dot(cubeDir[k]); bk > 0 {
			ks[nk], bs[nk], cs[nk] = k, bk, e.dot(cubeDir[k])
			nk++
		}
	}
	limit := 4*a.dist(b) + 4
	h := a
	for steps := 0; h != b; steps++ {
		if steps > limit {
			panic("adjudicator: line of sight walk lost its way")
		}
		best, bestA, bestB, bestC := -1, 0, 0, 0
		ah := a.sub(h)
		for i := range nk {
			k, bk, ck := ks[i], bs[i], cs[i]
			ak := 1 - ah.dot(cubeDir[k])
			if best >= 0 {
				// Is t_k < t_best, (ak - s·ε·ck)/bk < (bestA - s·ε·bestC)/bestB?
				l, r := ak*bestB, bestA*bk
				if l > r || l == r && s*ck*bestB <= s*bestC*bk {
					continue
				}
			}
			best, bestA, bestB, bestC = k, ak, bk, ck
		}
		if cross(h, best) {
			return true
		}
		h = h.add(cubeDir[best])
	}
	return false
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
