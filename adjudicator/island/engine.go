package island

import "sort"

// Engine is a scenario made ready for the rules: its hexes, hexsides and
// units indexed. It is read-only after New and may be shared.
type Engine struct {
	S     *Scenario
	cells []cell           // by cellIndex
	byID  map[string]int   // unit id -> index in S.Units and Position.Pieces
	class []Class          // by unit index
	score map[Hex]struct{} // hexes a Score counts, whose control is tracked
}

// cell is one hex of the grid with what the rules ask of it.
type cell struct {
	hex     Hex
	terrain TerrainType
	nbr     [6]int // cell index of the neighbour in each direction, -1 off the grid
	side    [6]hexside
	road    bool // a road hexside touches it (rule 5.22's road hex)
	trail   bool
}

// hexside is what one side of a cell holds.
type hexside struct {
	road, trail, prohibited bool
	mp                      int     // extra MP of its other features (rule 5.21)
	lined                   []lined // features that give a defender a line (rule 7.42)
}

// lined is a hexside feature with the CRT line it gives.
type lined struct {
	name string
	line Line
}

// New indexes a scenario for the engine. The scenario must have passed its
// checker; New trusts it.
func New(s *Scenario) *Engine {
	e := &Engine{S: s, byID: map[string]int{}, score: map[Hex]struct{}{}}
	g := s.Grid
	e.cells = make([]cell, g.Columns*g.Rows)
	for c := 1; c <= g.Columns; c++ {
		for r := 1; r <= g.Rows; r++ {
			h := Hex{c, r}
			ce := &e.cells[e.index(h)]
			ce.hex = h
			ce.terrain = s.TerrainOf(h)
			for d := North; d <= NorthWest; d++ {
				n := g.Step(h, d)
				ce.nbr[d] = -1
				if !g.On(n) {
					continue
				}
				ce.nbr[d] = e.index(n)
				hs := hexside{}
				for _, f := range s.FeaturesOf(h, n) {
					switch f.Class {
					case ClassRoad:
						hs.road = true
					case ClassTrail:
						hs.trail = true
					case ClassProhibited:
						hs.prohibited = true
					default:
						hs.mp += f.MP
					}
					if f.Line != "" {
						hs.lined = append(hs.lined, lined{f.Name, f.Line})
					}
				}
				ce.side[d] = hs
				ce.road = ce.road || hs.road
				ce.trail = ce.trail || hs.trail
			}
		}
	}
	e.class = make([]Class, len(s.Units))
	for i, u := range s.Units {
		e.byID[u.ID] = i
		e.class[i] = s.ClassOf(u)
	}
	for _, sc := range s.Victory.Scores {
		if sc.Count != CountHexes {
			continue
		}
		for _, h := range e.scoreHexes(sc) {
			e.score[h] = struct{}{}
		}
	}
	return e
}

// scoreHexes gives the hexes a hex-counting Score names.
func (e *Engine) scoreHexes(sc Score) []Hex {
	hs := append([]Hex(nil), sc.Hexes...)
	hs = append(hs, e.S.Areas[sc.Area]...)
	sort.Slice(hs, func(i, j int) bool { return less(hs[i], hs[j]) })
	return hs
}

func less(a, b Hex) bool { return a.Col < b.Col || (a.Col == b.Col && a.Row < b.Row) }

// index gives the cell index of a hex of the grid.
func (e *Engine) index(h Hex) int { return (h.Col-1)*e.S.Grid.Rows + h.Row - 1 }

// on reports whether h is on the grid.
func (e *Engine) on(h Hex) bool { return e.S.Grid.On(h) }

// dir gives the direction from a to its neighbour b, or -1.
func (e *Engine) dir(a, b Hex) int {
	if !e.on(a) || !e.on(b) {
		return -1
	}
	bi := e.index(b)
	for d, n := range e.cells[e.index(a)].nbr {
		if n == bi {
			return d
		}
	}
	return -1
}

// unit gives the printed values of the unit at index i.
func (e *Engine) unit(i int) *Unit { return &e.S.Units[i] }

// isArtillery reports whether unit i is artillery (rule 8.0).
func (e *Engine) isArtillery(i int) bool { return e.class[i] == Artillery }

// isFoot reports whether unit i is infantry or engineer (rules 6.14, 10.11).
func (e *Engine) isFoot(i int) bool { return e.class[i] == Infantry || e.class[i] == Engineer }
