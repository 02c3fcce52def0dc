package rulecase

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// Keys for refit turns (rule 9): refit_steps poses the U.S. refit wait
// with what the loss recovery roll gave (phase: us-refit), and
// expect.refit_steps checks what a roll gave while the game waits for the
// U.S. refit orders. The orders of a refit turn are ordinary orders files
// with wait: us-refit or wait: jp-refit, or a decision carrying refit:.

// refitSteps reads refit_steps, which only a case posing the U.S. refit
// wait may give.
func (p *parser) refitSteps(root *yaml.Node, y *caseYAML) {
	if y.RefitSteps == nil {
		return
	}
	at := keyPos(root, "refit_steps")
	switch {
	case y.Phase != wind.WaitUSRefit:
		p.fail(at, "refit_steps: give it with phase: us-refit, the wait it belongs to (rule 9.1)")
	case *y.RefitSteps < 0 || *y.RefitSteps > 25:
		p.fail(at, "refit_steps: the Loss Recovery table gives 0 to 25 steps (rule 9.1)")
	}
	p.state.RefitSteps = *y.RefitSteps
}

// refitHexes notes the hexes refit orders name, for the close-up map:
// where the units they list stand, the landing zones, the hexes Unknown
// units go to and the hexes swapped.
func (p *parser) refitHexes(f *windorders.File) {
	s := p.state
	unit := func(id string) {
		if u, ok := s.Unit(id); ok && u.OnMap() {
			p.hex(u.Hex)
		}
	}
	if r := f.Refit; r != nil {
		for _, e := range r.Restore {
			unit(e.Unit)
		}
		for _, e := range r.Land {
			if lz, ok := s.Map().LandingZone(e.Zone); ok {
				p.hex(lz.Hex)
			}
		}
		for _, id := range append(append([]string(nil), r.Independents...), r.Depots...) {
			unit(id)
		}
	}
	if r := f.Rearrange; r != nil {
		for _, id := range r.Hide {
			unit(id)
		}
		for _, m := range r.Moves {
			unit(m.Unit)
			p.hex(m.To)
		}
		for _, sw := range r.Swaps {
			p.hex(sw.Hex)
			for _, pl := range sw.Place {
				p.hex(pl.To)
			}
		}
	}
}

// checkRefitSteps compares what the loss recovery roll left to restore
// with expect.refit_steps.
func (c *Case) checkRefitSteps(r *Result, s *wind.State) {
	if want := c.expect.RefitSteps; want != nil {
		r.check(fmt.Sprintf("%s to restore", plural(*want, "refit step")), s.RefitSteps == *want,
			fmt.Sprintf("refit_steps: expected %d, got %d", *want, s.RefitSteps))
	}
}
