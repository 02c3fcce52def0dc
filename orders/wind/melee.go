package wind

import (
	"github.com/attu-pbem/attu/orders"
	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// meleeYAML declares melee as written (rule 8.2): units of one hex against
// an adjacent hex. The melee itself is fought in the melee step (3.7) by the
// standing instructions.
type meleeYAML struct {
	Units  []string `yaml:"units"`
	Target wind.Hex `yaml:"target"`
}

func decodeMelee(val *yaml.Node, a *Action) orders.Errors {
	var m meleeYAML
	if errs := decode(val, &m, "melee"); len(errs) > 0 {
		return errs
	}
	var errs orders.Errors
	if len(m.Units) == 0 {
		errs = append(errs, orders.ErrAt(val.Line, val.Column, "melee needs units: the ids of the units declaring melee, all from one hex, like units: [1/17-A, 1/17-B]"))
	}
	steps, es := unitsAt(val, "units", "melee", m.Units)
	errs = append(errs, es...)
	if m.Target == 0 {
		errs = append(errs, orders.ErrAt(val.Line, val.Column, "melee needs target: the adjacent hex the units will attack, like target: 2717"))
	}
	if len(errs) > 0 {
		return errs
	}
	a.Melee = &wind.Melee{Units: m.Units, Target: m.Target}
	a.Steps = steps
	return nil
}
