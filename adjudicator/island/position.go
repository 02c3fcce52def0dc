package island

import (
	"encoding/json"
	"fmt"
	"maps"
)

// Phase is the step of the sequence of play a position waits in (rule 4.1).
type Phase string

// The phases.
const (
	PhaseSetup    Phase = "setup"    // a side places its units (rule 3.0)
	PhaseMovement Phase = "movement" // the phasing player moves (4.1 A)
	PhaseCombat   Phase = "combat"   // the phasing player attacks (4.1 B)
	PhaseOver     Phase = "over"     // the last Game-Turn is over
)

// Where a piece is.
const (
	OnMap      = "map"
	Waiting    = "waiting"    // a reinforcement not yet entered, or a unit not yet set up
	Eliminated = "eliminated" // removed by combat or Banzai
)

// Position is the whole state of a game between two steps. It marshals to
// canonical JSON: pieces in the scenario's unit order, maps with sorted keys.
// The functions that take a Position never change it; they return a new one.
type Position struct {
	Turn    int   `json:"turn"`    // Game-Turn, from 1
	Phasing Side  `json:"phasing"` // the phasing side, or in set-up the side placing
	Phase   Phase `json:"phase"`
	// Combats counts the Combat Phases begun; the facts of a piece below
	// record the Combat Phase they happened in by this count.
	Combats int          `json:"combats"`
	Pieces  []Piece      `json:"pieces"`
	GSP     map[Side]int `json:"gsp"`               // Ground Support Points left this Game-Turn (rule 9.14)
	Control map[Hex]Side `json:"control,omitempty"` // last side in each scoring hex
	Banked  map[Side]int `json:"banked,omitempty"`  // points scored at the end of earlier Game-Turns
}

// Piece is one unit's state.
type Piece struct {
	ID    string `json:"id"`
	Where string `json:"where"`         // OnMap, Waiting or Eliminated
	Hex   Hex    `json:"hex,omitzero"`  // when OnMap
	Due   int    `json:"due,omitempty"` // Game-Turn a Waiting reinforcement may enter
	// Attacked is the Combat Phase it last attacked in (rule 7.14).
	Attacked int `json:"attacked,omitempty"`
	// Defended is the Combat Phase it was last attacked in (rule 7.14).
	Defended int `json:"defended,omitempty"`
	// Advanced is the Combat Phase it last advanced in (rule 7.96).
	Advanced int `json:"advanced,omitempty"`
	// Adverse is the Combat Phase it last carried out a combat result or
	// was displaced in (rule 8.41, IW6).
	Adverse int `json:"adverse,omitempty"`
	// Displaced is the Combat Phase it was last displaced in (rule 7.82).
	Displaced int `json:"displaced,omitempty"`
	// FPF is the Combat Phase it last gave final protective fire in (IW19).
	FPF int `json:"fpf,omitempty"`
}

// Clone gives a deep copy of the position.
func (p Position) Clone() Position {
	q := p
	q.Pieces = append([]Piece(nil), p.Pieces...)
	q.GSP = maps.Clone(p.GSP)
	q.Control = maps.Clone(p.Control)
	q.Banked = maps.Clone(p.Banked)
	return q
}

// Marshal gives the position's canonical JSON.
func (p Position) Marshal() ([]byte, error) { return json.Marshal(p) }

// Unmarshal reads a position written by Marshal and checks that it fits
// the engine's scenario.
func (e *Engine) Unmarshal(b []byte) (Position, error) {
	var p Position
	if err := json.Unmarshal(b, &p); err != nil {
		return Position{}, fmt.Errorf("island position: %w", err)
	}
	if len(p.Pieces) != len(e.S.Units) {
		return Position{}, fmt.Errorf("island position: %d pieces, the scenario has %d units", len(p.Pieces), len(e.S.Units))
	}
	for i, pc := range p.Pieces {
		if pc.ID != e.S.Units[i].ID {
			return Position{}, fmt.Errorf("island position: piece %d is %q, the scenario's unit %d is %q", i, pc.ID, i, e.S.Units[i].ID)
		}
		if pc.Where == OnMap && !e.on(pc.Hex) {
			return Position{}, fmt.Errorf("island position: %s is in hex %s, off the map", pc.ID, pc.Hex)
		}
	}
	return p, nil
}

// Piece gives the state of the unit of that id.
func (e *Engine) Piece(p Position, id string) (Piece, bool) {
	i, ok := e.byID[id]
	if !ok {
		return Piece{}, false
	}
	return p.Pieces[i], true
}

// board is a position being worked on with an index of who is where.
type board struct {
	e   *Engine
	p   *Position
	occ []int // cell index -> piece index, -1 when vacant
}

func (e *Engine) board(p *Position) *board {
	b := &board{e: e, p: p, occ: make([]int, len(e.cells))}
	for i := range b.occ {
		b.occ[i] = -1
	}
	for i, pc := range p.Pieces {
		if pc.Where == OnMap {
			b.occ[e.index(pc.Hex)] = i
		}
	}
	return b
}

// at gives the piece in h, or -1.
func (b *board) at(h Hex) int { return b.occ[b.e.index(h)] }

// side gives the side of piece i.
func (b *board) side(i int) Side { return b.e.S.Units[i].Side }

// put moves piece i to h (on the map), keeping the index and the control of
// scoring hexes.
func (b *board) put(i int, h Hex) {
	pc := &b.p.Pieces[i]
	if pc.Where == OnMap && b.occ[b.e.index(pc.Hex)] == i {
		b.occ[b.e.index(pc.Hex)] = -1
	}
	pc.Where, pc.Hex = OnMap, h
	b.occ[b.e.index(h)] = i
	b.touch(i, h)
}

// touch records that piece i has been in h, for HeldControl scores.
func (b *board) touch(i int, h Hex) {
	if _, ok := b.e.score[h]; ok {
		if b.p.Control == nil {
			b.p.Control = map[Hex]Side{}
		}
		b.p.Control[h] = b.side(i)
	}
}

// remove eliminates piece i.
func (b *board) remove(i int) {
	pc := &b.p.Pieces[i]
	if pc.Where == OnMap && b.occ[b.e.index(pc.Hex)] == i {
		b.occ[b.e.index(pc.Hex)] = -1
	}
	pc.Where, pc.Hex = Eliminated, Hex{}
}

// controlled reports whether side s exerts a zone of control on h: a unit of
// s is next to it (rules 6.0, 6.11, 6.15, 6.22).
func (b *board) controlled(h Hex, s Side) bool {
	for _, n := range b.e.cells[b.e.index(h)].nbr {
		if n >= 0 {
			if i := b.occ[n]; i >= 0 && b.side(i) == s {
				return true
			}
		}
	}
	return false
}

// enemiesNext gives the enemy pieces next to h for side s.
func (b *board) enemiesNext(h Hex, s Side) []int {
	var out []int
	for _, n := range b.e.cells[b.e.index(h)].nbr {
		if n >= 0 {
			if i := b.occ[n]; i >= 0 && b.side(i) != s {
				out = append(out, i)
			}
		}
	}
	return out
}

// nearestEnemy gives the distance from h to the nearest unit of the enemy
// of s on the map (a large number when there is none).
func (b *board) nearestEnemy(h Hex, s Side) int {
	best := 1 << 20
	for i, pc := range b.p.Pieces {
		if pc.Where == OnMap && b.side(i) != s {
			best = min(best, b.e.S.Grid.Distance(h, pc.Hex))
		}
	}
	return best
}
