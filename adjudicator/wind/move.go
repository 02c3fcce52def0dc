package wind

import (
	"fmt"
	"strings"
)

// Movement (rules 5.0 to 5.8 and 6.1).
//
// A move names every hex the unit enters, in order, leaving out the hex it
// starts in. It is judged step by step against the position as it stands
// when the activation comes up:
//
//   - each hex must be a land hex next to the previous one, not across a
//     cliff (5.7), and hold no enemy unit: units meet by melee (8.2), never
//     by sharing a hex. Since every hex next to an enemy lies in its zone of
//     control, this only comes up at night, for a unit leaving one
//     (RULINGS.md R15);
//   - the steps cost what StepCost says (5.0 table, rivers 5.5, slopes 5.3,
//     levels 5.4), out of the allowance of State.Allowance (rain 5.1,
//     night 5.2);
//   - minimum move (5.8): whatever its cost, a unit may take one step, and
//     then has spent its whole allowance and goes no further. This holds
//     even when rain at night leaves a slow unit 0 MP: its rating is what
//     makes it a unit that moves (RULINGS.md R13);
//   - zones of control (6.1): a unit that enters an enemy zone of control
//     stops there. A unit that starts in one may not move at all by day,
//     not even into another hex of the same zone; at night it may give its
//     whole allowance for one step into an adjacent hex outside every enemy
//     zone of control. Every enemy unit on the map projects a zone of
//     control, face-down Japanese units included: rule 2.5 gives Unknown
//     units a zone of control and 6.0 gives one to all units, and a
//     face-down counter is visible to the U.S. as a counter, so stopping at
//     it leaks nothing (RULINGS.md R14);
//   - stacking (4.0) is checked in every hex entered, not only the last;
//   - units that cannot move: fixed batteries (105mm, 8.1.5), supply depots
//     (7.3), any unit rated 0 MP, units off the map, and units that have
//     already acted in this actions step (3.5).
//
// A refused move reports the path step at fault: the hex that cannot be
// entered, or for a unit that had to stop, the first step beyond the stop.

// movePlan is a move judged legal: where the unit goes and what it pays.
type movePlan struct {
	unit      *Unit
	hexes     []Hex // the start hex, then every hex entered
	mp        int   // movement points spent
	minMove   bool  // entered one hex it could not afford (5.8)
	need      int   // with minMove: what that hex costs
	nightExit bool  // left an enemy zone of control at night (6.1)
}

// planMove judges a move by side against s without changing s. Problems
// carry the index of the path step at fault (-1 for the unit itself);
// their Action is left for the caller to fill in.
func (s *State) planMove(mv *Move, side Side) (movePlan, []Problem) {
	fail := func(step int, format string, a ...any) (movePlan, []Problem) {
		return movePlan{}, []Problem{{Step: step, Msg: fmt.Sprintf(format, a...)}}
	}
	u, ok := s.Unit(mv.Unit)
	if !ok {
		return fail(-1, "there is no unit %q", mv.Unit)
	}
	if u.Side() != side {
		return fail(-1, "%s is not one of your units", u.ID)
	}
	if problem := s.cannotMove(u); problem != "" {
		return fail(-1, "%s", problem)
	}
	if len(mv.Path) == 0 {
		return fail(-1, "%s: the move names no hex to enter", u.ID)
	}
	m := s.Map()
	enemy := side.Enemy()
	allow := s.Allowance(u)
	p := movePlan{unit: u, hexes: append(make([]Hex, 0, len(mv.Path)+1), u.Hex)}

	// rule 6.1: a unit may not leave an enemy zone of control, except at
	// night by spending everything on one hex free of it.
	startZOC := s.InEnemyZOC(u.Hex, enemy)
	if startZOC && !s.Night {
		return fail(0, "%s is in the zone of control of enemy units in %s and may not leave it by day (rule 6.1)", u.ID, u.Hex)
	}

	var problems []Problem
	cur := u.Hex
	for i, h := range mv.Path {
		bad := func(format string, a ...any) {
			problems = append(problems, Problem{Step: i, Msg: fmt.Sprintf(format, a...)})
		}
		switch {
		case i == 0 && h == u.Hex:
			bad("%s: the path lists the hexes %s enters; leave out %s, where it stands", u.ID, u.ID, h)
		case !m.OnMap(h):
			bad("%s: %s is off the map", u.ID, h)
		case !cur.Adjacent(h):
			bad("%s: %s is not next to %s", u.ID, h, cur)
		case !m.Land(h):
			bad("%s: %s is sea", u.ID, h)
		case m.Cliff(cur, h):
			bad("%s: cliff between %s and %s (rule 5.7)", u.ID, cur, h)
		case s.holdsSide(h, enemy):
			bad("%s: %s is held by enemy units; units never share a hex with the enemy (declare melee instead, rule 8.2)", u.ID, h)
		case s.unknownBarred(u, h):
			bad("%s", s.unknownBarredMsg(u, h))
		case s.areaBan(cur, h) != "":
			bad("%s: %s", u.ID, s.areaBan(cur, h)) // rule 15
		}
		if len(problems) > 0 {
			return movePlan{}, problems
		}
		c, err := StepCost(m, side, cur, h)
		if err != nil { // ruled out above; kept so a map oddity cannot slip through
			bad("%s: cannot move from %s to %s", u.ID, cur, h)
			return movePlan{}, problems
		}
		switch {
		case startZOC:
			// Only reached at night, on the first step.
			if s.InEnemyZOC(h, enemy) {
				bad("%s: at night a unit may leave an enemy zone of control only into a hex free of it, and %s is in the zone of control of enemy units (rule 6.1)", u.ID, h)
				return movePlan{}, problems
			}
			if len(mv.Path) > 1 {
				problems = append(problems, Problem{Step: 1, Msg: fmt.Sprintf(
					"%s leaves an enemy zone of control at night: it spends all its MP on %s and can go no further (rule 6.1)", u.ID, h)})
				return movePlan{}, problems
			}
			p.nightExit = true
			p.mp = allow
		case p.mp+c.MP > allow && i == 0:
			// rule 5.8: one hex is always possible.
			if len(mv.Path) > 1 {
				bad("%s: %s→%s costs %d MP (%s), %d left; a minimum move (rule 5.8) enters that one hex and ends there",
					u.ID, cur, h, c.MP, c.Explain(side), allow)
				return movePlan{}, problems
			}
			p.minMove, p.need, p.mp = true, c.MP, allow
		case p.mp+c.MP > allow:
			bad("%s: %s→%s costs %d MP (%s), %d left", u.ID, cur, h, c.MP, c.Explain(side), allow-p.mp)
			return movePlan{}, problems
		default:
			p.mp += c.MP
		}
		// rule 4.0: stacking holds while moving, in every hex entered.
		if why := s.stackingWith(h, side, u, u.Steps); why != "" {
			bad("%s would over-stack %s: %s", u.ID, h, why)
		}
		p.hexes = append(p.hexes, h)
		cur = h
		// rule 6.1: entering an enemy zone of control ends the move.
		if i < len(mv.Path)-1 && s.InEnemyZOC(h, enemy) {
			problems = append(problems, Problem{Step: i + 1, Msg: fmt.Sprintf(
				"%s must stop in %s: it entered the zone of control of enemy units (rule 6.1)", u.ID, h)})
			return movePlan{}, problems
		}
	}
	if len(problems) > 0 {
		return movePlan{}, problems
	}
	return p, nil
}

// cannotMove says why u may not move at all this actions step, or "".
func (s *State) cannotMove(u *Unit) string {
	cl := u.counter.Class
	switch {
	case u.Acted:
		return fmt.Sprintf("%s has already acted this turn (rule 3.5)", u.ID)
	case !u.OnMap():
		where := u.Box
		if strings.HasPrefix(where, BoxStagingPrefix) {
			where = "staging box " + strings.TrimPrefix(where, BoxStagingPrefix)
		}
		if where == "" {
			return fmt.Sprintf("%s is not on the map", u.ID)
		}
		return fmt.Sprintf("%s is not on the map (it is in %s)", u.ID, where)
	case cl.Fixed:
		return fmt.Sprintf("%s is a fixed battery and cannot move (rule 8.1.5)", u.ID)
	case cl.Kind == Depot:
		return fmt.Sprintf("%s is a supply depot and cannot move (rule 7.3)", u.ID)
	case cl.MP <= 0:
		return fmt.Sprintf("%s has no movement points and cannot move", u.ID)
	case s.soloFixedBan(u) != "":
		return s.soloFixedBan(u)
	case s.soloHeld(u) != "":
		return s.soloHeld(u)
	}
	return ""
}

// holdsSide reports whether any unit of side stands in h.
func (s *State) holdsSide(h Hex, side Side) bool {
	for _, u := range s.UnitsAt(h) {
		if u.Side() == side {
			return true
		}
	}
	return false
}

// applyMove carries out a legal plan and describes it.
func (s *State) applyMove(p movePlan, side Side) []Event {
	u := p.unit
	ref := unitRef(u) // rule 2.5: the U.S. sees a face-down counter move, not which unit it is
	u.Hex = p.hexes[len(p.hexes)-1]
	u.Box = ""
	u.Acted = true
	u.MPSpent = p.mp
	ref.Hex = u.Hex
	priv := &Private{MP: p.mp}
	switch {
	case p.nightExit:
		priv.Reason = ReasonNightExit
	case p.minMove:
		priv.Reason, priv.Cost = ReasonMinimumMove, p.need
	}
	units := []EventUnit{ref}
	evs := []Event{{Kind: EventMoved, Seen: seenAbout(units), Side: side, Units: units, Hexes: p.hexes, Private: priv}}
	// rule 10.0: a move onto a victory hex may clear its zone, and one into
	// a cleared victory hex may retake it, at once: the rest of the file
	// sees the island as it now is.
	return append(evs, s.updateCleared()...)
}

// Reachable returns every hex unit u could end a move in if it moved now,
// with the movement points it would spend; its own hex costs 0. It applies
// the same rules as a move order (costs, minimum move, zones of control,
// enemy-held hexes, stacking in every hex entered), so order templates and
// retreats can offer only legal hexes. A unit that may not move gets its own
// hex alone; a unit off the map gets nothing.
func (s *State) Reachable(u *Unit) map[Hex]int {
	if !u.OnMap() {
		return nil
	}
	out := map[Hex]int{u.Hex: 0}
	if s.cannotMove(u) != "" {
		return out
	}
	side, enemy := u.Side(), u.Side().Enemy()
	allow := s.Allowance(u)
	m := s.Map()
	// A search asks about the same hexes many times and each answer scans
	// every unit, so remember them.
	blockedAt, zocAt := map[Hex]bool{}, map[Hex]bool{}
	blocked := func(h Hex) bool {
		b, ok := blockedAt[h]
		if !ok {
			b = s.holdsSide(h, enemy) || s.unknownBarred(u, h) || !s.InPlayArea(h) || s.stackingWith(h, side, u, u.Steps) != ""
			blockedAt[h] = b
		}
		return b
	}
	inZOC := func(h Hex) bool {
		z, ok := zocAt[h]
		if !ok {
			z = s.InEnemyZOC(h, enemy)
			zocAt[h] = z
		}
		return z
	}
	if s.InEnemyZOC(u.Hex, enemy) {
		if !s.Night {
			return out
		}
		for _, n := range m.Neighbours(u.Hex) {
			if !m.Cliff(u.Hex, n) && !blocked(n) && !inZOC(n) && !s.crossBarred(u.Hex, n) {
				out[n] = allow
			}
		}
		return out
	}
	return Reach(m, side, []Hex{u.Hex}, allow, ReachOptions{
		Block:   blocked,
		Stop:    inZOC,
		MinMove: true,
		Cross:   s.crossBarred,
	})
}
