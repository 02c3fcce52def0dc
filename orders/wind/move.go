package wind

import (
	"github.com/attu-pbem/attu/orders"
	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// moveYAML is a move as written: the unit and every hex it enters (rule 5.0).
type moveYAML struct {
	Unit string     `yaml:"unit"`
	Path []wind.Hex `yaml:"path"`
}

func decodeMove(val *yaml.Node, a *Action) orders.Errors {
	var m moveYAML
	if errs := decode(val, &m, "move"); len(errs) > 0 {
		return errs
	}
	move, steps, errs := m.check(val, "move")
	if len(errs) > 0 {
		return errs
	}
	a.Move, a.Steps = move, steps
	return nil
}

// check refuses a move without a unit or a path, or with an empty hex in
// its path, naming the order it belongs to.
func (m moveYAML) check(val *yaml.Node, order string) (*wind.Move, []orders.Pos, orders.Errors) {
	var errs orders.Errors
	if m.Unit == "" {
		errs = append(errs, orders.ErrAt(val.Line, val.Column, "%s needs unit: the id of the unit moving, like unit: 1/17-A", order))
	}
	if len(m.Path) == 0 {
		errs = append(errs, orders.ErrAt(val.Line, val.Column, "%s needs path: the hexes it enters in order, like path: [2720, 2719]", order))
	}
	steps, es := pathAt(val, order, m.Path)
	errs = append(errs, es...)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	return &wind.Move{Unit: m.Unit, Path: m.Path}, steps, nil
}
