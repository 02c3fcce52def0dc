package wind

import (
	"github.com/attu-pbem/attu/orders"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// standingYAML is wind.Standing as written under standing: the same
// fields in snake_case. Only the fields written change.
type standingYAML struct {
	Losses         string              `yaml:"losses"`
	LossOrder      []string            `yaml:"loss_order"`
	Retreat        string              `yaml:"retreat"`
	RetreatAt      map[wind.Hex]string `yaml:"retreat_at"`
	Advance        string              `yaml:"advance"`
	AdvanceAt      map[wind.Hex]string `yaml:"advance_at"`
	UnknownTable   string              `yaml:"unknown_table"`
	UnknownTableAt map[wind.Hex]string `yaml:"unknown_table_at"`
	FriendlyFire   string              `yaml:"friendly_fire"`
	MeleeOrder     []wind.Hex          `yaml:"melee_order"`
	MeleePick      string              `yaml:"melee_pick"`
	Martinez       string              `yaml:"martinez"`
	Arnold         string              `yaml:"arnold"`
	Decision       string              `yaml:"decision"`
}

func (y standingYAML) standing() *wind.Standing {
	return &wind.Standing{
		Losses: y.Losses, LossOrder: y.LossOrder,
		Retreat: y.Retreat, RetreatAt: y.RetreatAt,
		Advance: y.Advance, AdvanceAt: y.AdvanceAt,
		UnknownTable: y.UnknownTable, UnknownTableAt: y.UnknownTableAt,
		FriendlyFire: y.FriendlyFire,
		MeleeOrder:   y.MeleeOrder, MeleePick: y.MeleePick,
		Martinez: y.Martinez, Arnold: y.Arnold,
		Decision: y.Decision,
	}
}

// ParseStanding decodes standing instructions written for side outside an
// orders file (a rules case poses them so), with the same checks and
// line:col as the standing: section of an orders file.
func ParseStanding(n *yaml.Node, side wind.Side) (*wind.Standing, orders.Errors) {
	if n == nil || n.Kind == 0 {
		return &wind.Standing{}, nil // not written at all
	}
	f := &File{Side: side, fields: map[string]orders.Pos{}}
	if errs := f.decodeStanding(n); len(errs) > 0 {
		return nil, errs
	}
	if f.Standing == nil {
		return &wind.Standing{}, nil
	}
	return f.Standing, nil
}

// decodeStanding decodes the standing instructions and judges each value
// with wind.Standing.Check, one key (and one hex of a per-hex map)
// at a time, so that every complaint points at the value it is about.
func (f *File) decodeStanding(n *yaml.Node) orders.Errors {
	if orders.IsNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return orders.Errors{orders.ErrAt(n.Line, n.Column, "standing: want key: value lines naming the instructions to change, like standing: {retreat: if-losing}; got %s", orders.Describe(n))}
	}
	var y standingYAML
	if errs := decode(n, &y, "standing"); len(errs) > 0 {
		return errs
	}
	f.fieldsOf("standing", n)
	var errs orders.Errors
	// judge reports what Check says of st, which holds only the value
	// written at v.
	judge := func(st wind.Standing, v *yaml.Node) {
		if f.Side == wind.NoSide {
			return // "side is missing" says it already
		}
		for _, msg := range st.Check(f.Side) {
			errs = append(errs, orders.ErrAt(v.Line, v.Column, "standing: %s", msg))
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "losses":
			judge(wind.Standing{Losses: y.Losses}, v)
		case "retreat":
			judge(wind.Standing{Retreat: y.Retreat}, v)
		case "advance":
			judge(wind.Standing{Advance: y.Advance}, v)
		case "unknown_table":
			judge(wind.Standing{UnknownTable: y.UnknownTable}, v)
		case "friendly_fire":
			judge(wind.Standing{FriendlyFire: y.FriendlyFire}, v)
		case "melee_pick":
			judge(wind.Standing{MeleePick: y.MeleePick}, v)
		case "martinez":
			judge(wind.Standing{Martinez: y.Martinez}, v)
		case "arnold":
			judge(wind.Standing{Arnold: y.Arnold}, v)
		case "decision":
			judge(wind.Standing{Decision: y.Decision}, v)
		case "loss_order":
			_, es := unitsAt(n, "loss_order", "standing", y.LossOrder)
			errs = append(errs, es...)
		case "melee_order":
			errs = append(errs, hexList(v, "standing: melee_order", y.MeleeOrder)...)
		case "retreat_at":
			errs = append(errs, f.perHex(k, v, y.RetreatAt, func(m map[wind.Hex]string) wind.Standing {
				return wind.Standing{RetreatAt: m}
			})...)
		case "advance_at":
			errs = append(errs, f.perHex(k, v, y.AdvanceAt, func(m map[wind.Hex]string) wind.Standing {
				return wind.Standing{AdvanceAt: m}
			})...)
		case "unknown_table_at":
			errs = append(errs, f.perHex(k, v, y.UnknownTableAt, func(m map[wind.Hex]string) wind.Standing {
				return wind.Standing{UnknownTableAt: m}
			})...)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	f.Standing = y.standing()
	return nil
}

// perHex judges a per-hex map one hex at a time: a complaint naming the hex
// is about its value and points there; one that does not is about the key
// itself (say, a side that may not give it) and is reported once, at the
// key.
func (f *File) perHex(k, v *yaml.Node, m map[wind.Hex]string, only func(map[wind.Hex]string) wind.Standing) orders.Errors {
	if f.Side == wind.NoSide {
		return nil
	}
	var errs orders.Errors
	keyDone := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		hk, hv := v.Content[i], v.Content[i+1]
		h, err := wind.ParseHex(hk.Value)
		if err != nil {
			continue // the decoder has refused it
		}
		val := m[h]
		if val == "" {
			errs = append(errs, orders.ErrAt(hv.Line, hv.Column, "standing: %s: %s has no value; write one or leave the hex out", k.Value, h))
			continue
		}
		for _, msg := range only(map[wind.Hex]string{h: val}).Check(f.Side) {
			if strings.Contains(msg, h.String()) {
				errs = append(errs, orders.ErrAt(hv.Line, hv.Column, "standing: %s", msg))
			} else if !keyDone[msg] {
				keyDone[msg] = true
				errs = append(errs, orders.ErrAt(k.Line, k.Column, "standing: %s", msg))
			}
		}
	}
	return errs
}

// hexList refuses empty entries and hexes given twice in a list of hexes.
func hexList(list *yaml.Node, ctx string, hexes []wind.Hex) orders.Errors {
	var errs orders.Errors
	seen := map[wind.Hex]int{}
	for j, h := range hexes {
		n := list
		if j < len(list.Content) {
			n = list.Content[j]
		}
		if h == 0 {
			errs = append(errs, orders.ErrAt(n.Line, n.Column, "%s[%d] is empty; write a hex like 2717", ctx, j))
			continue
		}
		if first, dup := seen[h]; dup {
			errs = append(errs, orders.ErrAt(n.Line, n.Column, "%s: %s is listed twice (first at line %d); list each hex once", ctx, h, first))
			continue
		}
		seen[h] = n.Line
	}
	return errs
}
