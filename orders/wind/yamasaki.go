package wind

import (
	"fmt"
	"github.com/attu-pbem/attu/orders"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// yamasakiYAML is Colonel Yamasaki's activation as written (rule 11.3): the
// hex whose units he leads and the move of each of them.
type yamasakiYAML struct {
	Hex   wind.Hex   `yaml:"hex"`
	Moves []moveYAML `yaml:"moves"`
}

func decodeYamasaki(val *yaml.Node, a *Action) orders.Errors {
	var y yamasakiYAML
	if errs := decode(val, &y, "yamasaki"); len(errs) > 0 {
		return errs
	}
	var errs orders.Errors
	if y.Hex == 0 {
		errs = append(errs, orders.ErrAt(val.Line, val.Column, "yamasaki needs hex: the hex whose units Colonel Yamasaki leads, like hex: 2717"))
	}
	if len(y.Moves) == 0 {
		errs = append(errs, orders.ErrAt(val.Line, val.Column, "yamasaki needs moves: the move of each unit he leads, like moves: [{unit: J12, path: [2718, 2717]}]"))
	}
	list := lookup(val, "moves")
	out := &wind.Yamasaki{Hex: y.Hex}
	seen := map[string]int{}
	for j, m := range y.Moves {
		n := list.Content[j]
		if first, dup := seen[m.Unit]; dup && m.Unit != "" {
			p := lookup(n, "unit")
			errs = append(errs, orders.ErrAt(p.Line, p.Column, "yamasaki: %s moves twice (first at line %d); give each unit one move", m.Unit, first))
		} else {
			seen[m.Unit] = n.Line
		}
		move, steps, es := m.check(n, fmt.Sprintf("yamasaki: moves[%d]", j))
		errs = append(errs, es...)
		if len(es) == 0 {
			out.Moves = append(out.Moves, *move)
			a.Moves = append(a.Moves, MoveAt{Pos: orders.Pos{Line: n.Line, Col: n.Column}, Steps: steps})
		}
	}
	if len(errs) > 0 {
		a.Moves = nil
		return errs
	}
	a.Yamasaki = out
	return nil
}
