package wind

import (
	"github.com/attu-pbem/attu/orders"
	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// fireYAML is ranged combat as written (rule 8.1).
type fireYAML struct {
	Units      []string `yaml:"units"`
	Target     wind.Hex `yaml:"target"`
	Spotter    string   `yaml:"spotter"`
	TargetUnit string   `yaml:"target_unit"`
}

func decodeFire(val *yaml.Node, a *Action) orders.Errors {
	var fy fireYAML
	if errs := decode(val, &fy, "fire"); len(errs) > 0 {
		return errs
	}
	var errs orders.Errors
	if len(fy.Units) == 0 {
		errs = append(errs, orders.ErrAt(val.Line, val.Column, "fire needs units: the ids of the units firing together, like units: [2/32-E]"))
	}
	steps, es := unitsAt(val, "units", "fire", fy.Units)
	errs = append(errs, es...)
	if fy.Target == 0 {
		errs = append(errs, orders.ErrAt(val.Line, val.Column, "fire needs target: the hex fired at, like target: 2717"))
	}
	if len(errs) > 0 {
		return errs
	}
	a.Fire = &wind.Fire{Units: fy.Units, Target: fy.Target, Spotter: fy.Spotter, TargetUnit: fy.TargetUnit}
	a.Steps = steps
	return nil
}
