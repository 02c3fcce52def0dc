package island

import "sort"

// maxChain bounds a chain of displacements (rule 7.82); a longer chain is
// treated as impossible. No map of the four games packs units that deep.
const maxChain = 8

// clone gives a copy of the board to try a retreat on.
func (b *board) clone() *board {
	q := b.p.Clone()
	return &board{e: b.e, p: &q, occ: append([]int(nil), b.occ...)}
}

// adopt makes the board what c is.
func (b *board) adopt(c *board) {
	*b.p = *c.p
	b.occ = c.occ
}

// retreatable reports whether piece i may enter c from its neighbour from
// in a retreat or a displacement (rules 7.71, 7.72; IW7, IW9).
func (b *board) retreatable(i int, from, c Hex) bool {
	e := b.e
	d := e.dir(from, c)
	if d < 0 {
		return false
	}
	fc := &e.cells[e.index(from)]
	if fc.side[d].prohibited || e.cells[e.index(c)].terrain.Impassable {
		return false
	}
	enemy := b.side(i).Enemy()
	if at := b.at(c); at >= 0 && b.side(at) == enemy {
		return false
	}
	return !b.controlled(c, enemy) // friends do not negate it (rule 7.71)
}

// retreat moves piece i hexes hexes away from its combat hex (rule 7.7) and
// gives the report and the path of retreat (rule 7.91).
func (r *resolver) retreat(i, hexes int, in Instructions) (Retreat, []Hex) {
	e, b := r.e, r.b
	n := b.p.Combats
	id := e.S.Units[i].ID
	h0 := b.p.Pieces[i].Hex
	b.p.Pieces[i].Adverse = n // rule 8.41, IW6
	all := r.retreatPaths(i, h0, hexes)
	var full, part [][]Hex
	for _, path := range all {
		if len(path) == hexes {
			full = append(full, path)
		} else if r.friends(i, path) == 0 {
			// A unit that cannot complete its retreat displaces nobody
			// (rule 7.81: displacement serves the full retreat).
			part = append(part, path)
		}
	}
	r.rank(i, full, in.Retreats[id])
	for _, path := range full {
		s := b.clone()
		var disp []Displacement
		ok := true
		for k, c := range path {
			if f := s.at(c); f >= 0 {
				at := h0
				if k > 0 {
					at = path[k-1]
				}
				if !r.displace(s, f, at, path[k+1:], nil, in, &disp) {
					ok = false
					break
				}
			}
			s.put(i, c)
		}
		if ok {
			b.adopt(s)
			return Retreat{Unit: id, Path: path, Displaced: disp}, append([]Hex{h0}, path[:len(path)-1]...)
		}
	}
	if len(full) > 0 { // rule 7.82: eliminated instead of the friend it would push to death
		b.remove(i)
		return Retreat{Unit: id, Eliminated: true}, []Hex{h0}
	}
	// Rule 7.74: as far as it can go, and eliminated there (IW9).
	sort.SliceStable(part, func(x, y int) bool { return len(part[x]) > len(part[y]) })
	if len(part) > 0 {
		longest := len(part[0])
		k := 0
		for k < len(part) && len(part[k]) == longest {
			k++
		}
		part = part[:k]
		r.rank(i, part, in.Retreats[id])
		path := part[0]
		for _, c := range path {
			b.put(i, c)
		}
		b.remove(i)
		return Retreat{Unit: id, Path: path, Eliminated: true}, append([]Hex{h0}, path...)
	}
	b.remove(i)
	return Retreat{Unit: id, Eliminated: true}, []Hex{h0}
}

// retreatPaths gives every path a retreat of piece i from h0 may take, of
// any length from 1 to hexes, each hex one farther from h0 (IW9), through
// vacant or friendly hexes.
func (r *resolver) retreatPaths(i int, h0 Hex, hexes int) [][]Hex {
	b := r.b
	g := r.e.S.Grid
	var out [][]Hex
	var walk func(path []Hex)
	walk = func(path []Hex) {
		at := h0
		if len(path) > 0 {
			at = path[len(path)-1]
			out = append(out, append([]Hex(nil), path...))
		}
		if len(path) == hexes {
			return
		}
		for _, c := range g.Neighbours(at) {
			if g.Distance(h0, c) == len(path)+1 && b.retreatable(i, at, c) {
				walk(append(path, c))
			}
		}
	}
	walk(nil)
	return out
}

// friends counts the friendly units on a path (rule 7.73).
func (r *resolver) friends(i int, path []Hex) int {
	n := 0
	for _, c := range path {
		if at := r.b.at(c); at >= 0 && at != i {
			n++
		}
	}
	return n
}

// rank orders retreat paths best first: fewest friends to displace (rule
// 7.73), then the owner's plan, then the default of IW21.
func (r *resolver) rank(i int, paths [][]Hex, plan RetreatPlan) {
	b := r.b
	s := b.side(i)
	planned := func(path []Hex) int {
		for k, q := range plan.Paths {
			if equalPath(q, path) {
				return k
			}
		}
		return len(plan.Paths)
	}
	type key struct {
		friends, plan, toward, enemy, terrain int
	}
	keys := make(map[int]key, len(paths))
	for k, path := range paths {
		end := path[len(path)-1]
		ky := key{friends: r.friends(i, path), plan: planned(path)}
		if plan.Toward != nil {
			ky.toward = r.e.S.Grid.Distance(end, *plan.Toward)
		}
		ky.enemy = -b.nearestEnemy(end, s)
		ky.terrain = -r.e.cells[r.e.index(end)].terrain.Line.Rank()
		keys[k] = ky
	}
	idx := make([]int, len(paths))
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(x, y int) bool {
		a, c := keys[idx[x]], keys[idx[y]]
		switch {
		case a.friends != c.friends:
			return a.friends < c.friends
		case a.plan != c.plan:
			return a.plan < c.plan
		case a.toward != c.toward:
			return a.toward < c.toward
		case a.enemy != c.enemy:
			return a.enemy < c.enemy
		case a.terrain != c.terrain:
			return a.terrain < c.terrain
		}
		return pathLess(paths[idx[x]], paths[idx[y]])
	})
	sorted := make([][]Hex, len(paths))
	for k, j := range idx {
		sorted[k] = paths[j]
	}
	copy(paths, sorted)
}

func equalPath(a, b []Hex) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

func pathLess(a, b []Hex) bool {
	for k := range min(len(a), len(b)) {
		if a[k] != b[k] {
			return less(a[k], b[k])
		}
	}
	return len(a) < len(b)
}

// displace pushes friend f one hex out of its hex on board s, as if it
// retreated (rule 7.81), never into the hex of the unit pushing it (from):
// to a vacant hex if it can, otherwise pushing another friend in turn
// (rule 7.82). Hexes still ahead on the retreat (ahead) come last, so that
// nobody is pushed twice where once would do (rule 7.82). It reports
// whether f could go; s is changed only if so.
func (r *resolver) displace(s *board, f int, from Hex, ahead []Hex, chain []int, in Instructions, disp *[]Displacement) bool {
	if len(chain) >= maxChain {
		return false
	}
	e := r.e
	fh := s.p.Pieces[f].Hex
	var vacant, held []Hex
	for _, c := range e.S.Grid.Neighbours(fh) {
		if c == from || !s.retreatable(f, fh, c) {
			continue
		}
		if at := s.at(c); at < 0 {
			vacant = append(vacant, c)
		} else if !containsInt(chain, at) {
			held = append(held, c)
		}
	}
	order := func(hs []Hex) {
		prefs := in.Displace[e.S.Units[f].ID]
		pref := func(h Hex) int {
			for k, p := range prefs {
				if p == h {
					return k
				}
			}
			return len(prefs)
		}
		sort.SliceStable(hs, func(x, y int) bool {
			a, c := hs[x], hs[y]
			if wa, wc := inArea(ahead, a), inArea(ahead, c); wa != wc {
				return wc
			}
			if pa, pc := pref(a), pref(c); pa != pc {
				return pa < pc
			}
			side := s.side(f)
			if da, dc := s.nearestEnemy(a, side), s.nearestEnemy(c, side); da != dc {
				return da > dc
			}
			ra, rc := e.cells[e.index(a)].terrain.Line.Rank(), e.cells[e.index(c)].terrain.Line.Rank()
			if ra != rc {
				return ra > rc
			}
			return less(a, c)
		})
	}
	n := s.p.Combats
	mark := func(b *board, to Hex) {
		b.put(f, to)
		b.p.Pieces[f].Displaced = n // rule 7.82
		b.p.Pieces[f].Adverse = n   // IW6
		*disp = append(*disp, Displacement{Unit: e.S.Units[f].ID, From: fh, To: to})
	}
	if len(vacant) > 0 {
		order(vacant)
		mark(s, vacant[0])
		return true
	}
	order(held)
	for _, c := range held {
		t := s.clone()
		var more []Displacement
		if r.displace(t, t.at(c), fh, ahead, append(chain, f), in, &more) {
			*disp = append(*disp, more...)
			s.adopt(t)
			mark(s, c)
			return true
		}
	}
	return false
}
