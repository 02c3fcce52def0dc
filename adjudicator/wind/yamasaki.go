package wind

import "fmt"

// Colonel Yamasaki's banzai charge (rule 11.3), a Japanese activation usable
// once a game.
//
// Readings taken (RULINGS.md R43, R44):
//
//   - Eligibility (R43). The Japanese must be down to four or fewer steps of
//     infantry. Every Japanese infantry unit has one step (2.4); the count is
//     the infantry on the map plus the pool of available infantry, Unknown
//     units not counted (they are not infantry units until converted, as in
//     3.8.2). Counting the map alone would make him available from the first
//     turn, when all Japanese infantry is still in the pool.
//   - Activation (R44). Every Japanese unit in the hex that has not yet acted this
//     turn is activated (3.5); the activation lists a move for any of them,
//     and those without one stay put, having acted.
//   - Movement (11.3.1; R44). Each unit's allowance this turn (rain, night) is
//     doubled, and U.S. zones of control neither stop it nor hold it. The
//     usual costs, cliffs, the minimum move and stacking still apply.
//   - Assault (11.3.2; R44). Entering a U.S.-held hex costs one MP more than the
//     hex would. The unit stops next to it and fights a melee against every
//     unit there, alone, with offensive fire before defensive fire in each
//     round; the rest of the melee is as in the melee step, including the
//     U.S. retreat option and the capture of U.S. artillery. If the hex is
//     emptied and the unit still stands, it enters and goes on with the
//     movement points it has left, assaulting again if its path says so; if
//     it falls, or the U.S. holds, the rest of its path is void. An Unknown
//     unit converts first (2.5) and the infantry it yields take the hex but
//     go no further, since the path was written for the Unknown unit.
//     Artillery may not assault: it may not melee (8.2).
//   - When the file is judged without dice, every assault is taken to
//     succeed, so that the rest of the path is judged too; the unit is left
//     where the path ends, or short of it when the path ends on a U.S. hex.

// YamasakiSteps is the most steps of Japanese infantry at which Colonel
// Yamasaki may lead a charge (rule 11.3).
const YamasakiSteps = 4

// YamasakiEligible says whether the Japanese may call on Colonel Yamasaki
// now, and if not, why (for the Japanese player only: it counts the pool).
func (s *State) YamasakiEligible() (bool, string) {
	if s.Scenario != "" {
		sp := s.spec()
		return false, fmt.Sprintf("none of the heroes of rule 11 is available in %s (rule %s)", sp.title, sp.rule)
	}
	if s.Heroes.Yamasaki {
		return false, "Colonel Yamasaki has already led his charge; he leads one per game (rule 11.0)"
	}
	onMap, pool, _ := s.PoolCounts()
	if n := onMap + pool; n > YamasakiSteps {
		return false, fmt.Sprintf("the Japanese still have %d steps of infantry on the map and in the pool; Colonel Yamasaki leads only when %d or fewer are left (rule 11.3)", n, YamasakiSteps)
	}
	return true, ""
}

// yamasaki carries out Colonel Yamasaki's activation (rule 11.3); with d nil
// it only judges it.
func (s *State) yamasaki(y *Yamasaki, side Side, d Dice) ([]Event, []Problem) {
	fail := func(step int, format string, a ...any) []Problem {
		return []Problem{{Step: step, Msg: fmt.Sprintf(format, a...)}}
	}
	if side != JP {
		return nil, fail(-1, "Colonel Yamasaki leads Japanese units (rule 11.3)")
	}
	if ok, why := s.YamasakiEligible(); !ok {
		return nil, fail(-1, "%s", why)
	}
	var active []*Unit
	for _, u := range s.UnitsAt(y.Hex) {
		if u.Side() == JP && !u.Acted {
			active = append(active, u)
		}
	}
	if len(active) == 0 {
		return nil, fail(-1, "%s holds no Japanese unit that has not acted this turn", y.Hex)
	}
	moving := map[string]bool{}
	var problems []Problem
	for _, mv := range y.Moves {
		u, ok := s.Unit(mv.Unit)
		switch {
		case !ok:
			problems = append(problems, fail(-1, "there is no unit %q", mv.Unit)...)
		case !containsUnit(active, u):
			problems = append(problems, fail(-1, "%s is not one of the units Colonel Yamasaki activates in %s", mv.Unit, y.Hex)...)
		case moving[mv.Unit]:
			problems = append(problems, fail(-1, "%s has two moves", mv.Unit)...)
		case s.soloFixedBan(u) != "":
			problems = append(problems, fail(-1, "%s", s.soloFixedBan(u))...) // rule 13.2.1
		}
		moving[mv.Unit] = true
	}
	if len(problems) > 0 {
		return nil, problems
	}
	s.Heroes.Yamasaki = true
	for _, u := range active {
		u.Acted = true
	}
	events := []Event{{Kind: EventYamasaki, Seen: Public, Side: JP, Hexes: []Hex{y.Hex}}}
	for i := range y.Moves {
		evs, ps := s.yamasakiMove(&y.Moves[i], d)
		events = append(events, evs...)
		problems = append(problems, ps...)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return events, nil
}

// yamasakiMove moves one unit of the charge along its path (rules 11.3.1,
// 11.3.2).
func (s *State) yamasakiMove(mv *Move, d Dice) ([]Event, []Problem) {
	u, _ := s.Unit(mv.Unit)
	m := s.Map()
	var problems []Problem
	bad := func(step int, format string, a ...any) {
		problems = append(problems, Problem{Step: step, Msg: fmt.Sprintf(format, a...)})
	}
	cl := u.counter.Class
	if cl.Fixed || cl.MP <= 0 {
		bad(-1, "%s cannot move", u.ID)
		return nil, problems
	}
	if len(mv.Path) == 0 {
		bad(-1, "%s: the move names no hex to enter", u.ID)
		return nil, problems
	}
	allow := 2 * s.Allowance(u)
	spent := 0
	cur := u.Hex
	route := []Hex{cur}
	var events []Event
	moved := func() {
		if len(route) > 1 {
			// rule 2.5: a face-down unit charges as a counter; its movement
			// points show on the table as it goes.
			refs := []EventUnit{unitRef(u)}
			events = append(events, Event{Kind: EventCharge, Seen: seenAbout(refs), Side: JP, Units: refs,
				Hexes: route, MP: spent, Allowance: allow})
		}
		route = []Hex{cur}
	}
	for i, h := range mv.Path {
		switch {
		case !m.OnMap(h):
			bad(i, "%s: %s is off the map", u.ID, h)
		case !cur.Adjacent(h):
			bad(i, "%s: %s is not next to %s", u.ID, h, cur)
		case !m.Land(h):
			bad(i, "%s: %s is sea", u.ID, h)
		case m.Cliff(cur, h):
			bad(i, "%s: cliff between %s and %s (rule 5.7)", u.ID, cur, h)
		case s.unknownBarred(u, h):
			bad(i, "%s", s.unknownBarredMsg(u, h))
		case s.areaBan(cur, h) != "":
			bad(i, "%s: %s", u.ID, s.areaBan(cur, h)) // rule 15
		}
		if len(problems) > 0 {
			return nil, problems
		}
		c, _ := StepCost(m, JP, cur, h)
		cost := c.MP
		assault := s.holdsSide(h, US)
		if assault {
			cost++ // rule 11.3.2
			if u.Kind() == Artillery {
				bad(i, "%s is artillery and may not assault %s: artillery may not melee (rule 8.2)", u.ID, h)
				return nil, problems
			}
		}
		if spent+cost > allow && !(i == 0 && len(mv.Path) == 1) {
			bad(i, "%s: %s→%s costs %d MP, %d left of Colonel Yamasaki's doubled %d", u.ID, cur, h, cost, allow-spent, allow)
			return nil, problems
		}
		spent = min(spent+cost, allow)
		if !assault {
			if why := s.stackingWith(h, JP, u, u.Steps); why != "" {
				bad(i, "%s would over-stack %s: %s", u.ID, h, why)
				return nil, problems
			}
			cur = h
			route = append(route, h)
			u.Hex = h
			continue
		}
		if d == nil {
			// Judged without dice: take the assault as won.
			if i == len(mv.Path)-1 {
				break
			}
			cur = h
			continue
		}
		moved()
		mt := s.newMelee(JP, h, []*Unit{u}, d)
		mt.assault = true
		mt.fight()
		events = append(events, mt.events...)
		if !u.OnMap() || u.Hex != h {
			if i < len(mv.Path)-1 {
				events = append(events, Event{Kind: EventChargeEnds, Seen: Public, Side: JP, Hexes: []Hex{h}, Target: h})
			}
			u.MPSpent = spent
			return events, nil
		}
		cur = h
		route = []Hex{h} // the charge into h was reported with the melee
	}
	if d == nil && cur != u.Hex && !s.holdsSide(cur, US) {
		u.Hex = cur
	}
	moved()
	u.MPSpent = spent
	return events, nil
}
