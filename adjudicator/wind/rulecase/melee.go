package rulecase

import (
	"fmt"
	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// The case keys for melee and the heroes (rules 3.7, 8.2, 11.0): standing
// instructions, the casualty track's start, units that declared melee in an
// earlier action step, the melee step, and the heroes spent. Melee
// declarations and Colonel Yamasaki's charge made during the case are
// ordinary activations of its orders files.

// RollMelee runs the melee step (3.7) after the orders files.
const RollMelee = "melee"

// standingsYAML is each side's standing instructions as a case writes
// them: the standing: section of an orders file (windorders.ParseStanding).
type standingsYAML struct {
	US yaml.Node `yaml:"us"`
	JP yaml.Node `yaml:"jp"`
}

type heroesExpect struct {
	Martinez *bool `yaml:"martinez"`
	Arnold   *bool `yaml:"arnold"`
	Yamasaki *bool `yaml:"yamasaki"`
}

// standing decodes one side's standing instructions, noting the hexes they
// name for the close-up map.
func (p *parser) standing(side wind.Side, n *yaml.Node) wind.Standing {
	st, errs := windorders.ParseStanding(n, side)
	if len(errs) > 0 {
		p.errs = append(p.errs, errs...)
		return wind.Standing{}
	}
	for _, m := range []map[wind.Hex]string{st.RetreatAt, st.AdvanceAt, st.UnknownTableAt} {
		for h := range m {
			p.hex(h)
		}
	}
	return *st
}

func (p *parser) standings(sy standingsYAML) {
	s := p.state
	s.StandingUS = wind.DefaultStanding(wind.US).Merge(p.standing(wind.US, &sy.US))
	s.StandingJP = wind.DefaultStanding(wind.JP).Merge(p.standing(wind.JP, &sy.JP))
}

func (c *Case) checkHeroes(r *Result, s *wind.State) {
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
