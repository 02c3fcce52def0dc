package island

import "fmt"

// Move resolves the phasing player's Movement Phase (rules 4.1 A, 5.0, 6.0):
// the moves in order, each unit at most once, then the stacking check of
// rule 5.31. Orders with any problem are refused whole and change nothing;
// otherwise the position is in its Combat Phase.
func (e *Engine) Move(p Position, o Orders) (Position, []Event, []Problem) {
	var ps problems
	if p.Phase != PhaseMovement {
		ps.add("4.1", "moves", "", nil, "the game is in its %s phase, not a Movement Phase", p.Phase)
		return p, nil, ps
	}
	q := p.Clone()
	b := e.board(&q) // the enemy does not move: its occupancy and ZOC hold all phase
	moved := map[string]bool{}
	var evs []Event
	for k, m := range o.Moves {
		where := fmt.Sprintf("moves[%d]", k)
		i, ok := e.byID[m.Unit]
		switch {
		case !ok:
			ps.add("5.0", where, m.Unit, nil, "no such unit")
			continue
		case e.S.Units[i].Side != p.Phasing:
			ps.add("5.11", where, m.Unit, nil, "is not a unit of %s, the phasing side", p.Phasing)
			continue
		case moved[m.Unit]:
			ps.add("5.16", where, m.Unit, nil, "has already moved this phase; give each unit one path")
			continue
		}
		moved[m.Unit] = true
		n := len(ps)
		e.checkPath(b, i, m.Path, where, &ps)
		if len(ps) > n || len(m.Path) == 0 {
			continue
		}
		kind := EvMove
		if q.Pieces[i].Where == Waiting {
			kind = EvEnter
		}
		// The piece leaves the index while it may share a hex with friends;
		// the index only serves the enemy's occupancy and ZOC here.
		for _, h := range m.Path {
			b.touch(i, h)
		}
		q.Pieces[i].Where, q.Pieces[i].Hex = OnMap, m.Path[len(m.Path)-1]
		evs = append(evs, Event{Kind: kind, Turn: p.Turn, Side: p.Phasing, Unit: m.Unit, Path: append([]Hex(nil), m.Path...)})
	}
	seen := map[Hex]string{}
	for i, pc := range q.Pieces {
		if pc.Where != OnMap || e.S.Units[i].Side != p.Phasing {
			continue
		}
		if other, ok := seen[pc.Hex]; ok {
			ps.add("5.31", "moves", pc.ID, hexp(pc.Hex), "would end the Movement Phase in the hex of %s; no stacking", other)
		}
		seen[pc.Hex] = pc.ID
	}
	if len(ps) > 0 {
		return p, nil, ps
	}
	q.Phase = PhaseCombat
	q.Combats++
	return q, append(evs, e.phaseEvent(q)), nil
}

// checkPath judges one unit's path against the position before this
// phase's moves of the phasing side (only the enemy's units matter).
func (e *Engine) checkPath(b *board, i int, path []Hex, where string, ps *problems) {
	u := e.unit(i)
	pc := b.p.Pieces[i]
	enemy := u.Side.Enemy()
	if len(path) == 0 {
		return
	}
	for _, h := range path {
		if !e.on(h) {
			ps.add("5.0", where, u.ID, hexp(h), "is off the map")
			return
		}
	}
	budget := 2 * u.Movement // in half Movement Points (IW17)
	spent := 0
	from := pc.Hex
	start := 0
	switch {
	case pc.Where == Eliminated:
		ps.add("5.0", where, u.ID, nil, "has been eliminated")
		return
	case pc.Where == Waiting && (pc.Due == 0 || pc.Due > b.p.Turn):
		ps.add("IW16", where, u.ID, nil, "is not due before Game-Turn %d", pc.Due)
		return
	case pc.Where == Waiting:
		// IW16: the entry hex is the first hex entered, at its terrain cost.
		h := path[0]
		if !e.entryHex(u, h) {
			ps.add("IW16", where, u.ID, hexp(h), "is not an entry hex of this unit")
			return
		}
		c := &e.cells[e.index(h)]
		switch {
		case c.terrain.Impassable:
			ps.add("5.21", where, u.ID, hexp(h), "is impassable (%s)", c.terrain.Name)
			return
		case b.at(h) >= 0 && b.side(b.at(h)) == enemy:
			ps.add("5.12", where, u.ID, hexp(h), "holds an enemy unit")
			return
		case e.class[i] == Armor && !c.terrain.Armor && !c.road && !c.trail:
			ps.add("5.25", where, u.ID, hexp(h), "armor enters %s only by road or trail", c.terrain.Name)
			return
		}
		spent = 2 * c.terrain.MP
		if spent > budget {
			ps.add("5.24", where, u.ID, hexp(h), "costs %s MP to enter; the unit has %d", half(spent), u.Movement)
			return
		}
		from, start = h, 1
	case b.controlled(from, enemy):
		// Leaving an enemy-controlled hex in a Movement Phase.
		if !(u.Side == Japan && e.isFoot(i)) {
			rule := "5.14"
			if u.Side == Japan {
				rule = "5.15"
			}
			ps.add(rule, where, u.ID, hexp(from), "may not leave an enemy-controlled hex in a Movement Phase")
			return
		}
		if len(path) > 1 { // rule 6.14
			ps.add("6.14", where, u.ID, hexp(from), "begins in a U.S.-controlled hex: it may move one hex only")
			return
		}
	}
	for k := start; k < len(path); k++ {
		to := path[k]
		if k > 0 && b.controlled(from, enemy) {
			ps.add("6.0", where, u.ID, hexp(from), "entered an enemy-controlled hex and must stop there")
			return
		}
		cost, rule, msg := e.stepCost(i, from, to)
		if rule != "" {
			ps.add(rule, where, u.ID, hexp(to), "%s", msg)
			return
		}
		if at := b.at(to); at >= 0 && b.side(at) == enemy {
			ps.add("5.12", where, u.ID, hexp(to), "holds an enemy unit")
			return
		}
		spent += cost
		if spent > budget {
			ps.add("5.24", where, u.ID, hexp(to), "the path costs %s MP so far; the unit has %d (rule 5.13)", half(spent), u.Movement)
			return
		}
		from = to
	}
}

// stepCost gives what entering to from its neighbour from costs unit i in
// half Movement Points, or the rule that forbids it.
func (e *Engine) stepCost(i int, from, to Hex) (int, string, string) {
	d := e.dir(from, to)
	if d < 0 {
		return 0, "5.0", fmt.Sprintf("is not next to %s", from)
	}
	fc, tc := &e.cells[e.index(from)], &e.cells[e.index(to)]
	hs := fc.side[d]
	switch {
	case tc.terrain.Impassable:
		return 0, "5.21", fmt.Sprintf("is impassable (%s)", tc.terrain.Name)
	case hs.prohibited:
		return 0, "IW7", fmt.Sprintf("the hexside from %s is prohibited", from)
	case e.class[i] == Armor && !tc.terrain.Armor && !hs.road && !hs.trail:
		return 0, "5.25", fmt.Sprintf("armor enters %s only through a road or trail hexside", tc.terrain.Name)
	}
	switch {
	case hs.road: // rule 5.22; a road over a river is a bridge (IW17)
		return 1, "", ""
	case hs.trail: // rule 5.23
		return 2, "", ""
	}
	return 2 * (tc.terrain.MP + hs.mp), "", "" // rule 5.21: hex and hexside add up
}

// entryHex reports whether h is an entry hex of unit u's reinforcement.
func (e *Engine) entryHex(u *Unit, h Hex) bool {
	for _, r := range e.S.Reinforcements {
		for _, id := range r.Units {
			if id == u.ID && (inArea(r.Entry, h) || inArea(e.S.Areas[r.Area], h)) {
				return true
			}
		}
	}
	return false
}

// half writes a count of half Movement Points.
func half(n int) string {
	if n%2 == 0 {
		return fmt.Sprint(n / 2)
	}
	return fmt.Sprintf("%d½", n/2)
}
