package wind

import "fmt"

// ResolveActions carries out one side's actions orders (rules 3.5, 3.6): its
// activations, in the order written.
//
// The whole file is judged first by playing it on a copy of s without dice
// (CheckActions). If anything in it is illegal, nothing is applied: the
// state returned is nil and every problem found is listed, each with the
// index of its activation and, for a move, of the path step at fault.
//
// Otherwise the activations run in order on a copy of s, which is returned
// with what happened. An activation that an earlier die made impossible (its
// unit destroyed, say) is skipped and an event says so. s itself is never
// changed. Each unit that acts is marked Acted; a unit that moves records
// the movement points it spent in MPSpent.
func ResolveActions(s *State, o Orders, d Dice) (*State, []Event, []Problem) {
	if problems := CheckActions(s, o); len(problems) > 0 {
		return nil, nil, problems
	}
	out := s.Clone()
	var events []Event
	for i, a := range o.Actions {
		if out.Over() {
			// Rule 3.8.2 wins at once: nothing after the deciding loss runs.
			events = append(events, Event{Kind: EventActionsCutShort, Seen: Public, Side: o.Side,
				Activation: i + 1, LastActivation: len(o.Actions)})
			break
		}
		evs, problems := out.activate(i, a, o.Side, d)
		if len(problems) > 0 {
			// The refusal is worded for the orders' author and may name
			// what only that side knows.
			events = append(events, Event{Kind: EventActivationSkipped, Seen: OnlyTo(o.Side), Side: o.Side,
				Activation: i + 1, Note: problems[0].Msg})
			continue
		}
		events = append(events, evs...)
	}
	return out, events, nil
}

// CheckActions judges an actions file against s without changing it and
// without dice: it plays the activations in order on a copy, so that each
// is judged in the position the earlier ones leave, and returns every
// problem found. A file with no problems may still meet dice that change the
// outcome when it runs.
func CheckActions(s *State, o Orders) []Problem {
	var problems []Problem
	file := func(format string, a ...any) {
		problems = append(problems, Problem{Action: -1, Step: -1, Msg: fmt.Sprintf(format, a...)})
	}
	if o.Side != US && o.Side != JP {
		file("actions orders come from the U.S. or the Japanese player, not %s", o.Side)
		return problems
	}
	if o.Wait != "" && o.Wait != WaitActions {
		file("these are %s orders; ResolveActions takes actions orders", o.Wait)
	}
	if o.Turn != 0 && o.Turn != s.Turn {
		file("these orders are for turn %d, but the game is in turn %d", o.Turn, s.Turn)
	}
	if len(problems) > 0 {
		return problems
	}
	sim := s.Clone()
	causes := 0
	for i, a := range o.Actions {
		_, ps := sim.activate(i, a, o.Side, nil)
		if len(ps) > 0 && causes < maxCauses {
			causes++
			for k, c := 0, s.causeOf(i, o); k < len(ps); k++ {
				ps[k].Cause = c
			}
		}
		problems = append(problems, ps...)
	}
	return problems
}

// maxCauses bounds how many refused activations of one file are traced to
// an earlier activation: each trace plays the file again up to that point.
const maxCauses = 20

// causeOf returns, for activation i of o that is refused after the ones
// before it, the earlier activation (its index plus one) after which it
// is first refused, when it would have been taken in s as it was; 0
// otherwise. It is how a refusal can tell the player that the option the
// template listed was taken away by a line of their own file.
func (s *State) causeOf(i int, o Orders) int {
	taken := func(c *State) bool {
		_, ps := c.Clone().activate(i, o.Actions[i], o.Side, nil)
		return len(ps) == 0
	}
	c := s.Clone()
	if !taken(c) {
		return 0
	}
	for j := range i {
		c.activate(j, o.Actions[j], o.Side, nil)
		if !taken(c) {
			return j + 1
		}
	}
	return 0
}

// activate runs activation i of side on s. With d nil it only judges, as
// when a file is checked: activations that need dice are judged but their
// dice are not rolled, and s still changes as though the activation ran, so
// that later activations see the position it leaves. Problems carry i.
func (s *State) activate(i int, a Action, side Side, d Dice) ([]Event, []Problem) {
	var (
		events   []Event
		problems []Problem
	)
	if why := s.soloHeldIn(a, side); why != "" {
		return nil, []Problem{{Action: i, Step: -1, Msg: why}}
	}
	switch a.Kind() {
	case KindMove:
		var p movePlan
		p, problems = s.planMove(a.Move, side)
		if len(problems) == 0 {
			events = s.soloMove(p, side, d)
		} else if u, ok := s.Unit(a.Move.Unit); ok && u.Side() == side {
			// The unit used its activation even though the move was refused,
			// so listing it again is reported as well; it stays put so that
			// later activations are judged from where it is.
			u.Acted = true
		}
	case KindFire:
		events, problems = s.fire(a.Fire, side, d)
	case KindMelee:
		events, problems = s.declareMelee(a.Melee, side)
	case KindYamasaki:
		events, problems = s.yamasaki(a.Yamasaki, side, d)
	case KindAir:
		if why := s.soloBarsAir(side); why != "" {
			problems = []Problem{{Step: -1, Msg: why}}
			break
		}
		events, problems = s.air(a.Air, side, d)
	default:
		problems = []Problem{{Step: -1, Msg: oneKind}}
	}
	for k := range problems {
		problems[k].Action = i
	}
	if len(problems) == 0 {
		// rule 10.0 acts the moment the position allows it; moves, losses
		// and melees already apply it as they happen, and this catches
		// whatever else an activation changed.
		events = append(events, s.updateCleared()...)
		if side == US {
			events = append(events, s.soloAdHoc(d)...) // rule 13.2.2
		}
	}
	return events, problems
}

// oneKind is the problem with an activation that is not exactly one thing
// (rule 3.5: each unit does one of these per turn).
const oneKind = "an activation is exactly one of move, fire, melee, air or yamasaki"
