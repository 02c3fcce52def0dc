package rulecase

import (
	"fmt"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
)

// The case keys for melee and the heroes (rules 3.7, 8.2, 11.0): standing
// instructions, the casualty track's start, units that declared melee in an
// earlier action step, the melee step, and the heroes spent. Melee
// declarations and Colonel Yamasaki's charge made during the case are
// ordinary activations of its orders files.

// RollMelee runs the melee step (3.7) after the orders files.
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
