package wind

import (
	"fmt"
	"github.com/attu-pbem/attu/orders"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// orderKinds are the orders an activation may hold.
var orderKinds = []string{"move", "fire", "melee", "air", "yamasaki"}

// actionsDecoder decodes the activations of one file, remembering what
// spans activations: air attacks and Colonel Yamasaki come once a file.
type actionsDecoder struct {
	f        *File
	air      int // the activation holding the air attacks, from 1; 0 for none yet
	yamasaki int // likewise for Colonel Yamasaki
}

func (f *File) decodeActions(n *yaml.Node) orders.Errors {
	if orders.IsNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return orders.Errors{orders.ErrAt(n.Line, n.Column, "actions: want a list of activations, each starting with \"- \" (like - move: {unit: 1/17-A, path: [2720]}), got %s", orders.Describe(n))}
	}
	d := actionsDecoder{f: f}
	var errs orders.Errors
	for i, item := range n.Content {
		a, es := d.action(item, i)
		errs = append(errs, es...)
		if len(es) == 0 {
			f.Actions = append(f.Actions, a)
		}
	}
	return errs
}

func (d *actionsDecoder) action(item *yaml.Node, i int) (Action, orders.Errors) {
	a := Action{Pos: orders.Pos{Line: item.Line, Col: item.Column}}
	if item.Kind != yaml.MappingNode || len(item.Content) == 0 {
		return a, orders.Errors{orders.ErrAt(item.Line, item.Column, "activation %d: want one order such as move: {...} or fire: {...}, got %s", i+1, orders.Describe(item))}
	}
	if len(item.Content) > 2 {
		k := item.Content[2]
		return a, orders.Errors{orders.ErrAt(k.Line, k.Column, "activation %d holds more than one order (%s and %s): start each order on its own line with \"- \"", i+1, item.Content[0].Value, k.Value)}
	}
	key, val := item.Content[0], item.Content[1]
	var errs orders.Errors
	switch key.Value {
	case "move":
		errs = decodeMove(val, &a)
	case "fire":
		errs = decodeFire(val, &a)
	case "melee":
		errs = decodeMelee(val, &a)
	case "air":
		if d.air > 0 {
			// rule 8.1.6: every air attack of the turn is announced before
			// any is made, so they cannot be split over activations
			// (RULINGS.md R26).
			return a, orders.Errors{orders.ErrAt(key.Line, key.Column, "activation %d: all of the turn's air attacks are announced together in one air activation (rule 8.1.6), and activation %d already holds them: put these hexes in that list", i+1, d.air)}
		}
		d.air = i + 1
		errs = decodeAir(val, &a)
	case "yamasaki":
		if s := d.f.Side; s != wind.NoSide && s != wind.JP {
			return a, orders.Errors{orders.ErrAt(key.Line, key.Column, "activation %d: only the Japanese player has Colonel Yamasaki (rule 11.3)", i+1)}
		}
		if d.yamasaki > 0 {
			return a, orders.Errors{orders.ErrAt(key.Line, key.Column, "activation %d: Colonel Yamasaki leads one attack a game (rule 11), and activation %d already calls on him", i+1, d.yamasaki)}
		}
		d.yamasaki = i + 1
		errs = decodeYamasaki(val, &a)
	default:
		return a, orders.Errors{orders.ErrAt(key.Line, key.Column, "activation %d: %s", i+1, unknownOrder(key.Value))}
	}
	return a, errs
}

func unknownOrder(kind string) string {
	want := "want move, fire, melee, air or yamasaki"
	if s := orders.Closest(kind, orderKinds); s != "" {
		return fmt.Sprintf("unknown order %q (did you mean %q?); %s", kind, s, want)
	}
	return fmt.Sprintf("unknown order %q; %s", kind, want)
}

// unitsAt checks the unit ids listed under key in the order val (already
// decoded into ids): none empty, none listed twice. It returns where each
// is written.
func unitsAt(val *yaml.Node, key, order string, ids []string) ([]orders.Pos, orders.Errors) {
	var errs orders.Errors
	list := lookup(val, key)
	at := make([]orders.Pos, 0, len(ids))
	seen := map[string]int{}
	for j, id := range ids {
		n := list
		if j < len(list.Content) {
			n = list.Content[j]
		}
		at = append(at, orders.Pos{Line: n.Line, Col: n.Column})
		switch first, dup := seen[id]; {
		case id == "":
			errs = append(errs, orders.ErrAt(n.Line, n.Column, "%s: %s[%d] is empty; write a unit id", order, key, j))
		case dup:
			errs = append(errs, orders.ErrAt(n.Line, n.Column, "%s: %s is listed twice in %s (first at line %d); list each unit once", order, id, key, first))
		default:
			seen[id] = n.Line
		}
	}
	return at, errs
}

// pathAt checks the hexes of a path under key "path" in val: none empty.
// It returns where each is written.
func pathAt(val *yaml.Node, order string, path []wind.Hex) ([]orders.Pos, orders.Errors) {
	var errs orders.Errors
	list := lookup(val, "path")
	at := make([]orders.Pos, 0, len(path))
	for j, h := range path {
		n := list
		if j < len(list.Content) {
			n = list.Content[j]
		}
		at = append(at, orders.Pos{Line: n.Line, Col: n.Column})
		if h == 0 {
			errs = append(errs, orders.ErrAt(n.Line, n.Column, "%s: path[%d] is empty; write a hex like 2717", order, j))
		}
	}
	return at, errs
}
