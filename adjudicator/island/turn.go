package island

import (
	"fmt"
	"sort"
)

// Start gives the position before the first Game-Turn: units with a fixed
// hex placed, reinforcements waiting for their Game-Turn, and, when a side
// places units in areas, a set-up phase for that side (rule 3.0). The
// scenario must have passed its checker.
func (e *Engine) Start() (Position, []Event) {
	p := Position{Pieces: make([]Piece, len(e.S.Units)), GSP: map[Side]int{}}
	var evs []Event
	for i, u := range e.S.Units {
		p.Pieces[i] = Piece{ID: u.ID, Where: Waiting}
	}
	b := e.board(&p)
	for _, pl := range e.S.Setup.Placements {
		if i, ok := e.byID[pl.Unit]; ok && pl.Hex != nil {
			b.put(i, *pl.Hex)
			evs = append(evs, Event{Kind: EvSetup, Unit: pl.Unit, Path: []Hex{*pl.Hex}})
		}
	}
	for _, r := range e.S.Reinforcements {
		for _, id := range r.Units {
			if i, ok := e.byID[id]; ok {
				p.Pieces[i].Due = r.Turn
			}
		}
	}
	first := e.S.Setup.First
	if first == "" {
		first = e.S.FirstPlayer
	}
	for _, s := range []Side{first, first.Enemy()} {
		if len(e.ToPlace(p, s)) > 0 {
			p.Phase, p.Phasing = PhaseSetup, s
			return p, evs
		}
	}
	p = e.beginTurn(p, 1)
	return p, append(evs, e.phaseEvent(p))
}

// ToPlace gives the units side s still places in an area, in scenario
// order (rule 3.0): the set-up a player, the stand-in or the defaults give.
func (e *Engine) ToPlace(p Position, s Side) []Placement {
	var out []Placement
	for _, pl := range e.S.Setup.Placements {
		i, ok := e.byID[pl.Unit]
		if ok && pl.Hex == nil && e.S.Units[i].Side == s && p.Pieces[i].Where == Waiting && p.Pieces[i].Due == 0 {
			out = append(out, pl)
		}
	}
	return out
}

// Deploy places the units the setting-up side places in areas (rule 3.0):
// every one of them, each in a hex of its area, no two in one hex and none
// in a hex already held. Refused placements change nothing.
func (e *Engine) Deploy(p Position, hexes map[string]Hex) (Position, []Event, []Problem) {
	var ps problems
	if p.Phase != PhaseSetup {
		ps.add("3.0", "setup", "", nil, "the game is not in its set-up")
		return p, nil, ps
	}
	q := p.Clone()
	b := e.board(&q)
	want := e.ToPlace(p, p.Phasing)
	named := map[string]bool{}
	for _, pl := range want {
		named[pl.Unit] = true
	}
	ids := make([]string, 0, len(hexes))
	for id := range hexes {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if !named[id] {
			ps.add("3.0", "setup", id, nil, "is not a unit of %s placed in an area now", p.Phasing)
		}
	}
	var evs []Event
	for _, pl := range want {
		h, ok := hexes[pl.Unit]
		if !ok {
			ps.add("3.0", "setup", pl.Unit, nil, "has no hex: place it in area %q", pl.Area)
			continue
		}
		if !inArea(e.S.Areas[pl.Area], h) {
			ps.add("3.0", "setup", pl.Unit, hexp(h), "is not in area %q", pl.Area)
			continue
		}
		if b.at(h) >= 0 {
			ps.add("5.31", "setup", pl.Unit, hexp(h), "is already held by %s", e.S.Units[b.at(h)].ID)
			continue
		}
		b.put(e.byID[pl.Unit], h)
		evs = append(evs, Event{Kind: EvSetup, Side: p.Phasing, Unit: pl.Unit, Path: []Hex{h}})
	}
	if len(ps) > 0 {
		return p, nil, ps
	}
	if other := p.Phasing.Enemy(); len(e.ToPlace(q, other)) > 0 {
		q.Phasing = other
		return q, evs, nil
	}
	q = e.beginTurn(q, 1)
	return q, append(evs, e.phaseEvent(q)), nil
}

func inArea(hs []Hex, h Hex) bool {
	for _, a := range hs {
		if a == h {
			return true
		}
	}
	return false
}

// beginTurn starts Game-Turn t: the First Player's Movement Phase, each
// side's Ground Support Points of the track, the rest lost (rule 9.14).
func (e *Engine) beginTurn(p Position, t int) Position {
	p.Turn, p.Phase, p.Phasing = t, PhaseMovement, e.S.FirstPlayer
	p.GSP = map[Side]int{US: e.S.SupportFor(t, US), Japan: e.S.SupportFor(t, Japan)}
	return p
}

// endCombat ends the phasing player's Combat Phase: the second Player-Turn
// follows the first; after the second comes the Game-Turn Record
// Interphase (rule 4.1), and after the last Game-Turn the game is over.
func (e *Engine) endCombat(p Position) (Position, []Event) {
	if p.Phasing == e.S.FirstPlayer {
		p.Phasing, p.Phase = p.Phasing.Enemy(), PhaseMovement
		return p, []Event{e.phaseEvent(p)}
	}
	p = e.bank(p)
	if p.Turn >= e.S.GameTurns {
		p.Phase = PhaseOver
		o := e.Verdict(p)
		return p, []Event{{Kind: EvGameOver, Turn: p.Turn, Side: o.Winner, Note: o.String()}}
	}
	p = e.beginTurn(p, p.Turn+1)
	return p, []Event{e.phaseEvent(p)}
}

func (e *Engine) phaseEvent(p Position) Event {
	return Event{Kind: EvPhase, Turn: p.Turn, Side: p.Phasing, Phase: p.Phase}
}

// PlayerTurn resolves a whole Player-Turn: the phasing player's movement,
// then his combat with the defender's choices. Problems in either refuse
// the lot.
func (e *Engine) PlayerTurn(p Position, o Orders, d Defence, dice Dice) (Position, []Event, []Problem) {
	q, evs, ps := e.Move(p, o)
	if len(ps) > 0 {
		return p, nil, ps
	}
	r, evs2, ps := e.Combat(q, o, d, dice)
	if len(ps) > 0 {
		return p, nil, ps
	}
	return r, append(evs, evs2...), nil
}

func (p Position) String() string {
	return fmt.Sprintf("Game-Turn %d, %s %s phase", p.Turn, p.Phasing, p.Phase)
}
