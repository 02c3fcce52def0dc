package standin

import (
	"sort"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// view is a position as the side the stand-in plays sees it: who is where,
// with the scenario's values at hand. It holds nothing of the enemy's
// orders or standing instructions.
type view struct {
	e   *island.Engine
	s   *island.Scenario
	p   island.Position
	me  island.Side
	occ map[island.Hex]int // hex -> piece index
	cls []island.Class     // by unit index
	wc  *worth
}

// newView copies the position, so that what-ifs never touch the caller's.
func newView(e *island.Engine, p island.Position, me island.Side) *view {
	v := &view{e: e, s: e.S, p: p.Clone(), me: me, occ: map[island.Hex]int{}, cls: make([]island.Class, len(e.S.Units))}
	for i, u := range e.S.Units {
		v.cls[i] = e.S.ClassOf(u)
	}
	for i, pc := range p.Pieces {
		if pc.Where == island.OnMap {
			v.occ[pc.Hex] = i
		}
	}
	return v
}

// worthNow gives the worth of the hexes, worked out once per view.
func (v *view) worthNow() worth {
	if v.wc == nil {
		w := v.worth()
		v.wc = &w
	}
	return *v.wc
}

// place puts piece i in h for a what-if, and gives the undo.
func (v *view) place(i int, h island.Hex) func() {
	old := v.p.Pieces[i]
	if old.Where == island.OnMap && v.occ[old.Hex] == i {
		delete(v.occ, old.Hex)
	}
	v.p.Pieces[i].Where, v.p.Pieces[i].Hex = island.OnMap, h
	prev, had := v.occ[h]
	v.occ[h] = i
	return func() {
		if had {
			v.occ[h] = prev
		} else {
			delete(v.occ, h)
		}
		v.p.Pieces[i] = old
		if old.Where == island.OnMap {
			v.occ[old.Hex] = i
		}
	}
}

// final reports whether this is the game's last Player-Turn, which no
// enemy Player-Turn follows: what the enemy could do next no longer counts.
func (v *view) final() bool {
	return v.p.Turn >= v.s.GameTurns && v.p.Phasing != v.s.FirstPlayer
}

func (v *view) unit(i int) island.Unit { return v.s.Units[i] }

func (v *view) side(i int) island.Side { return v.s.Units[i].Side }

func (v *view) hex(i int) island.Hex { return v.p.Pieces[i].Hex }

func (v *view) onMap(i int) bool { return v.p.Pieces[i].Where == island.OnMap }

func (v *view) isGun(i int) bool { return v.cls[i] == island.Artillery }

// isFoot reports infantry and engineers, the classes Banzai doubles and
// rule 6.14 lets step out of a U.S. zone of control.
func (v *view) isFoot(i int) bool { return v.cls[i] == island.Infantry || v.cls[i] == island.Engineer }

func (v *view) dist(a, b island.Hex) int { return v.s.Grid.Distance(a, b) }

func (v *view) nbrs(h island.Hex) []island.Hex { return v.s.Grid.Neighbours(h) }

// at gives the piece in h, or -1.
func (v *view) at(h island.Hex) int {
	if i, ok := v.occ[h]; ok {
		return i
	}
	return -1
}

// pieces gives the pieces of side s on the map, in scenario order.
func (v *view) pieces(s island.Side) []int {
	var out []int
	for i, pc := range v.p.Pieces {
		if pc.Where == island.OnMap && v.side(i) == s {
			out = append(out, i)
		}
	}
	return out
}

// next gives the pieces of side s next to h.
func (v *view) next(h island.Hex, s island.Side) []int {
	var out []int
	for _, n := range v.nbrs(h) {
		if j := v.at(n); j >= 0 && v.side(j) == s {
			out = append(out, j)
		}
	}
	return out
}

// zoc reports whether side s exerts a zone of control on h (rule 6.11).
func (v *view) zoc(h island.Hex, s island.Side) bool { return len(v.next(h, s)) > 0 }

// nearest gives the distance from h to the nearest piece of side s.
func (v *view) nearest(h island.Hex, s island.Side) int {
	best := 99
	for _, j := range v.pieces(s) {
		best = min(best, v.dist(h, v.hex(j)))
	}
	return best
}

// terrainLine gives the CRT line of a hex (rule 7.43).
func (v *view) terrainLine(h island.Hex) island.Line { return v.s.TerrainOf(h).Line }

func (v *view) passable(h island.Hex) bool {
	return v.s.Grid.On(h) && !v.s.TerrainOf(h).Impassable
}

// prohibited reports a hexside no unit crosses (IW7).
func (v *view) prohibited(a, b island.Hex) bool { return v.s.HasClass(a, b, island.ClassProhibited) }

// movable gives side s's pieces that may move this phase: those on the map
// and reinforcements due (IW16), in scenario order.
func (v *view) movable(s island.Side) []int {
	var out []int
	for i, pc := range v.p.Pieces {
		if v.side(i) != s {
			continue
		}
		if pc.Where == island.OnMap || (pc.Where == island.Waiting && pc.Due > 0 && pc.Due <= v.p.Turn) {
			out = append(out, i)
		}
	}
	return out
}

func sortHexes(hs []island.Hex) {
	sort.Slice(hs, func(i, j int) bool {
		a, b := hs[i], hs[j]
		return a.Col < b.Col || (a.Col == b.Col && a.Row < b.Row)
	})
}

// rng is a splitmix64 generator, for the seed's tie-breaks: the rules
// packages may not import math/rand.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	x := r.s
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// jitter gives a small number in [0, 0.01) to break ties by the seed.
func (r *rng) jitter() float64 { return float64(r.next()%1000) / 100000 }
