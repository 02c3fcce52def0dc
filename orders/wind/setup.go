package wind

import (
	"github.com/attu-pbem/attu/orders"
	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// The setup orders (rule 12): setup: in a Japanese file answers wait:
// jp-setup (the free setup of 12.4 and the victory point chits of 14.0);
// landing: in a U.S. file answers wait: us-landing (the staging zones of
// 12.5 or 12.6, or a delay of 12.6).

// jpSetupYAML is the Japanese setup as written.
type jpSetupYAML struct {
	Place []unitHexYAML `yaml:"place"`
	VP    []vpYAML      `yaml:"vp"`
}

// unitHexYAML puts a unit in a hex.
type unitHexYAML struct {
	At   orders.Pos
	Unit string   `yaml:"unit"`
	Hex  wind.Hex `yaml:"hex"`
}

// vpYAML puts a value chit on a victory hex (14.0).
type vpYAML struct {
	At    orders.Pos
	Hex   wind.Hex `yaml:"hex"`
	Value int      `yaml:"value"`
}

// usLandingYAML is the U.S. landing as written.
type usLandingYAML struct {
	Delay bool       `yaml:"delay"`
	Land  []landYAML `yaml:"land"`
}

// decodeSetup decodes setup: of a Japanese file.
func (f *File) decodeSetup(n *yaml.Node) orders.Errors {
	if orders.IsNull(n) {
		n = &yaml.Node{Kind: yaml.MappingNode, Line: n.Line, Column: n.Column}
	}
	if n.Kind != yaml.MappingNode {
		return orders.Errors{orders.ErrAt(n.Line, n.Column, "setup: want place: and vp: lists, like setup: {place: [{unit: U01, hex: 1216}]}; got %s", orders.Describe(n))}
	}
	f.fieldsOf("setup", n)
	f.refitAt = &refitAt{parts: map[string][]orders.Pos{}, section: "setup"}
	var y jpSetupYAML
	if errs := decode(n, &y, "setup"); len(errs) > 0 {
		return errs
	}
	var errs orders.Errors
	js := &wind.JPSetup{}
	at := f.refitAt.parts
	for i, p := range y.Place {
		at[wind.PartPlace] = append(at[wind.PartPlace], p.At)
		if p.Unit == "" || p.Hex == 0 {
			errs = append(errs, orders.ErrAt(p.At.Line, p.At.Col, "setup.place[%d] needs unit: and hex:, like {unit: U01, hex: 1216}", i))
		}
		js.Place = append(js.Place, wind.Placement{Unit: p.Unit, Hex: p.Hex})
	}
	for i, v := range y.VP {
		at[wind.PartVP] = append(at[wind.PartVP], v.At)
		if v.Hex == 0 || v.Value == 0 {
			errs = append(errs, orders.ErrAt(v.At.Line, v.At.Col, "setup.vp[%d] needs hex: and value:, the victory hex and its value chit, like {hex: 2717, value: 3}", i))
		}
		js.VP = append(js.VP, wind.VPPlacement{Hex: v.Hex, Value: v.Value})
	}
	if len(errs) > 0 {
		return errs
	}
	f.JPSetup = js
	return nil
}

// decodeLanding decodes landing: of a U.S. file.
func (f *File) decodeLanding(n *yaml.Node) orders.Errors {
	if orders.IsNull(n) {
		n = &yaml.Node{Kind: yaml.MappingNode, Line: n.Line, Column: n.Column}
	}
	if n.Kind != yaml.MappingNode {
		return orders.Errors{orders.ErrAt(n.Line, n.Column, "landing: want land: (the units for each staging zone) or delay: true, like landing: {land: [{unit: 2/17-E, zone: D}]}; got %s", orders.Describe(n))}
	}
	f.fieldsOf("landing", n)
	f.refitAt = &refitAt{parts: map[string][]orders.Pos{}, section: "landing"}
	var y usLandingYAML
	if errs := decode(n, &y, "landing"); len(errs) > 0 {
		return errs
	}
	var errs orders.Errors
	l := &wind.USLanding{Delay: y.Delay}
	at := f.refitAt.parts
	for i, e := range y.Land {
		at[wind.PartLand] = append(at[wind.PartLand], e.At)
		if e.Unit == "" || e.Zone == "" {
			errs = append(errs, orders.ErrAt(e.At.Line, e.At.Col, "landing.land[%d] needs unit: and zone:, like {unit: 2/17-E, zone: D}", i))
		}
		l.Land = append(l.Land, wind.Landing{Unit: e.Unit, Zone: e.Zone})
	}
	if len(errs) > 0 {
		return errs
	}
	f.Landing = l
	return nil
}

// setupHelp says what a side's setup orders hold.
func setupHelp(s wind.Side) string {
	if s == wind.JP {
		return "list under setup: place: the unit and hex of each Unknown unit and gun (rule 12.4), and vp: the value chit of each victory hex when you place them (rule 14.0)"
	}
	return "list under landing: land: the unit and staging zone of each unit to land (rules 12.5, 12.6), or write landing: {delay: true} to land a turn later (rule 12.6)"
}
