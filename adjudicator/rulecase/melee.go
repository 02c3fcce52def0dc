package rulecase

import (
	"fmt"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
)

// The case keys for melee and the heroes (rules 3.7, 8.2, 11.0): standing
// instructions, the casualty track's start, units that declared melee in an
// earlier action step, activations the orders schema does not carry yet
// (melee declarations and Colonel Yamasaki), the melee step, and the heroes
// spent.

// RollMelee runs the melee step (3.7) after the orders and activations.
const RollMelee = "melee"

// standingYAML is a side's standing instructions as a case writes them
// (adjudicator.Standing, DESIGN 3.2).
type standingYAML struct {
	Losses       string            `yaml:"losses"`
	LossOrder    []string          `yaml:"loss_order"`
	Retreat      string            `yaml:"retreat"`
	RetreatAt    map[string]string `yaml:"retreat_at"`
	Advance      string            `yaml:"advance"`
	AdvanceAt    map[string]string `yaml:"advance_at"`
	UnknownTable string            `yaml:"unknown_table"`
	// UnknownTableAt names, per hex, the Unknown unit whose table is rolled.
	UnknownTableAt map[string]string `yaml:"unknown_table_at"`
	MeleeOrder     []adjudicator.Hex `yaml:"melee_order"`
	MeleePick      string            `yaml:"melee_pick"`
	Martinez       string            `yaml:"martinez"`
	Arnold         string            `yaml:"arnold"`
	FriendlyFire   string            `yaml:"friendly_fire"`
}

type standingsYAML struct {
	At orders.Pos
	US *standingYAML `yaml:"us"`
	JP *standingYAML `yaml:"jp"`
}

// activationYAML is one activation run after the orders files.
type activationYAML struct {
	At       orders.Pos
	Side     adjudicator.Side `yaml:"side"`
	Melee    *meleeYAML       `yaml:"melee"`
	Yamasaki *yamasakiYAML    `yaml:"yamasaki"`
	Air      []airYAML        `yaml:"air"`
}

// airYAML is one air attack of an air activation (rule 8.1.6).
type airYAML struct {
	Hex     adjudicator.Hex `yaml:"hex"`
	Factors int             `yaml:"factors"`
}

type meleeYAML struct {
	Units  []string        `yaml:"units"`
	Target adjudicator.Hex `yaml:"target"`
}

type yamasakiYAML struct {
	Hex   adjudicator.Hex `yaml:"hex"`
	Moves []struct {
		Unit string            `yaml:"unit"`
		Path []adjudicator.Hex `yaml:"path"`
	} `yaml:"moves"`
}

type heroesExpect struct {
	Martinez *bool `yaml:"martinez"`
	Arnold   *bool `yaml:"arnold"`
	Yamasaki *bool `yaml:"yamasaki"`
}

func (p *parser) standing(side adjudicator.Side, at orders.Pos, sy *standingYAML) adjudicator.Standing {
	if sy == nil {
		return adjudicator.Standing{}
	}
	hexes := func(what string, m map[string]string) map[adjudicator.Hex]string {
		if len(m) == 0 {
			return nil
		}
		out := map[adjudicator.Hex]string{}
		for k, v := range m {
			h, err := adjudicator.ParseHex(k)
			if err != nil {
				p.fail(at, "standing: %s: %v", what, err)
				continue
			}
			out[h] = v
			p.hex(h)
		}
		return out
	}
	st := adjudicator.Standing{
		Losses: sy.Losses, LossOrder: sy.LossOrder, Retreat: sy.Retreat, RetreatAt: hexes("retreat_at", sy.RetreatAt),
		Advance: sy.Advance, AdvanceAt: hexes("advance_at", sy.AdvanceAt), UnknownTable: sy.UnknownTable,
		MeleeOrder: sy.MeleeOrder, MeleePick: sy.MeleePick, Martinez: sy.Martinez, Arnold: sy.Arnold,
		FriendlyFire: sy.FriendlyFire, UnknownTableAt: hexes("unknown_table_at", sy.UnknownTableAt),
	}
	for _, why := range st.Check(side) {
		p.fail(at, "standing %s: %s", side, why)
	}
	return st
}

func (p *parser) standings(sy standingsYAML) {
	s := p.state
	s.StandingUS = adjudicator.DefaultStanding(adjudicator.US).Merge(p.standing(adjudicator.US, sy.At, sy.US))
	s.StandingJP = adjudicator.DefaultStanding(adjudicator.JP).Merge(p.standing(adjudicator.JP, sy.At, sy.JP))
}

func (p *parser) activations(c *Case, as []activationYAML) {
	for i, a := range as {
		if a.Side != adjudicator.US && a.Side != adjudicator.JP {
			p.fail(a.At, "activations[%d]: side: want us or jp", i)
		}
		var act adjudicator.Action
		switch {
		case a.Air != nil && a.Melee == nil && a.Yamasaki == nil:
			act.Air = &adjudicator.AirStrikes{}
			for _, at := range a.Air {
				act.Air.Attacks = append(act.Air.Attacks, adjudicator.AirAttack{Hex: at.Hex, Factors: at.Factors})
				p.hex(at.Hex)
			}
		case a.Melee != nil && a.Yamasaki == nil:
			act.Melee = &adjudicator.Melee{Units: a.Melee.Units, Target: a.Melee.Target}
			p.hex(a.Melee.Target)
		case a.Yamasaki != nil && a.Melee == nil:
			y := &adjudicator.Yamasaki{Hex: a.Yamasaki.Hex}
			for _, m := range a.Yamasaki.Moves {
				y.Moves = append(y.Moves, adjudicator.Move{Unit: m.Unit, Path: m.Path})
				p.hex(m.Path...)
			}
			act.Yamasaki = y
		default:
			p.fail(a.At, "activations[%d]: give exactly one of melee, yamasaki or air", i)
			continue
		}
		c.activations = append(c.activations, activation{at: a.At, side: a.Side, action: act})
	}
}

type activation struct {
	at     orders.Pos
	side   adjudicator.Side
	action adjudicator.Action
}

// runActivations runs each activation as an actions file of its own, after
// the orders files; they are numbered after them.
func (c *Case) runActivations(r *Result, s *adjudicator.State, d adjudicator.Dice) *adjudicator.State {
	for i, a := range c.activations {
		or := OrdersResult{Index: len(c.orders) + i + 1, Side: a.side.String(), Line: a.at.Line}
		o := adjudicator.Orders{Side: a.side, Turn: s.Turn, Wait: adjudicator.WaitActions, Actions: []adjudicator.Action{a.action}}
		ns, evs, problems := adjudicator.ResolveActions(s, o, d)
		if len(problems) > 0 {
			for _, pr := range problems {
				or.Errors = append(or.Errors, fmt.Sprintf("%d:%d: %s", a.at.Line, a.at.Col, pr.Msg))
			}
		} else {
			or.Accepted = true
			or.Events = evs
			s = ns
			r.Events = append(r.Events, evs...)
		}
		r.Orders = append(r.Orders, or)
	}
	return s
}

func (c *Case) checkHeroes(r *Result, s *adjudicator.State) {
	h := c.expect.Heroes
	if h == nil {
		return
	}
	one := func(name string, want *bool, got bool) {
		if want == nil {
			return
		}
		r.check(fmt.Sprintf("%s %s", name, usedWord(*want)), got == *want,
			fmt.Sprintf("heroes: expected %s %s, got %s", name, usedWord(*want), usedWord(got)))
	}
	one("Martinez", h.Martinez, s.Heroes.Martinez)
	one("Arnold", h.Arnold, s.Heroes.Arnold)
	one("Yamasaki", h.Yamasaki, s.Heroes.Yamasaki)
}

func usedWord(used bool) string {
	if used {
		return "used"
	}
	return "not used"
}
