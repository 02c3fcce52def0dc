package wind

import (
	"github.com/attu-pbem/attu/orders"
	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// airAttackYAML is one air attack as written: a hex and the airpower
// factors, one die each, spent on it (rule 8.1.6).
type airAttackYAML struct {
	Hex     wind.Hex `yaml:"hex"`
	Factors *int     `yaml:"factors"`
}

const airExample = "like air: [{hex: 2717, factors: 2}, {hex: 2618, factors: 1}]"

func decodeAir(val *yaml.Node, a *Action) orders.Errors {
	if val.Kind != yaml.SequenceNode {
		return orders.Errors{orders.ErrAt(val.Line, val.Column, "air: want a list of attacks, one per hex, %s; got %s", airExample, orders.Describe(val))}
	}
	if len(val.Content) == 0 {
		return orders.Errors{orders.ErrAt(val.Line, val.Column, "air: the list of attacks is empty: name each hex attacked with its factors, %s, or remove the activation", airExample)}
	}
	var attacks []airAttackYAML
	if errs := decode(val, &attacks, "air"); len(errs) > 0 {
		return errs
	}
	var errs orders.Errors
	strikes := &wind.AirStrikes{}
	seen := map[wind.Hex]int{}
	for j, at := range attacks {
		n := val.Content[j]
		a.Steps = append(a.Steps, orders.Pos{Line: n.Line, Col: n.Column})
		if at.Hex == 0 {
			errs = append(errs, orders.ErrAt(n.Line, n.Column, "air[%d] needs hex: the hex attacked, like hex: 2717", j))
		} else if first, dup := seen[at.Hex]; dup {
			// rule 8.1.6: each factor is its own die, so two attacks on one
			// hex are one attack with their factors added (RULINGS.md R27).
			errs = append(errs, orders.ErrAt(n.Line, n.Column, "air[%d]: %s is attacked twice (first at line %d); put all its factors in one attack", j, at.Hex, first))
		} else {
			seen[at.Hex] = n.Line
		}
		switch {
		case at.Factors == nil:
			errs = append(errs, orders.ErrAt(n.Line, n.Column, "air[%d] needs factors: how many of this turn's airpower factors attack the hex, like factors: 2", j))
		case *at.Factors < 1:
			p := lookup(n, "factors")
			errs = append(errs, orders.ErrAt(p.Line, p.Column, "air[%d]: factors: want at least 1; leave out a hex you do not attack", j))
		default:
			strikes.Attacks = append(strikes.Attacks, wind.AirAttack{Hex: at.Hex, Factors: *at.Factors})
		}
	}
	if len(errs) > 0 {
		a.Steps = nil
		return errs
	}
	a.Air = strikes
	return nil
}
