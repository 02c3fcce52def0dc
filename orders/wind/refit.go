package wind

import (
	"fmt"
	"github.com/attu-pbem/attu/orders"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// The refit orders of a refit turn (rule 9): refit: in a U.S. file answers
// wait: us-refit, or comes with decision: {refit: true} so that the game
// need not wait for it; refit: in a Japanese file answers wait: jp-refit.
// The two sides' refit: hold different lists.

// usRefitYAML is the U.S. refit as written (rules 9.1 to 9.4).
type usRefitYAML struct {
	Restore      []restoreYAML `yaml:"restore"`
	Land         []landYAML    `yaml:"land"`
	Independents []string      `yaml:"independents"`
	Depots       []string      `yaml:"depots"`
}

// restoreYAML asks for steps for one unit (9.1); without steps, as many as
// it may take.
type restoreYAML struct {
	At    orders.Pos
	Unit  string `yaml:"unit"`
	Steps *int   `yaml:"steps"`
}

// landYAML sends a unit of the reinforcements box to a zone's staging box
// (9.2.2).
type landYAML struct {
	At   orders.Pos
	Unit string `yaml:"unit"`
	Zone string `yaml:"zone"`
}

// jpRefitYAML is the Japanese refit as written (rules 9.5, 9.6).
type jpRefitYAML struct {
	Hide []string    `yaml:"hide"`
	Move []placeYAML `yaml:"move"`
	Swap []swapYAML  `yaml:"swap"`
}

// placeYAML puts an Unknown unit in a hex: a move (9.6 step 1) or a
// placement of a swap (step 2).
type placeYAML struct {
	At   orders.Pos
	Unit string   `yaml:"unit"`
	To   wind.Hex `yaml:"to"`
}

// swapYAML swaps the infantry of a hex for Unknown units (9.6 step 2).
type swapYAML struct {
	At    orders.Pos
	Hex   wind.Hex    `yaml:"hex"`
	Place []placeYAML `yaml:"place"`
}

// refitAt is where each entry of the refit lists (or of the setup lists)
// is written, for Locate.
type refitAt struct {
	parts map[string][]orders.Pos
	place [][]orders.Pos // per swap, its placements
	// section is the top-level key the lists are under: refit (the
	// default), setup or landing.
	section string
}

// decodeRefit decodes refit: for the file's side.
func (f *File) decodeRefit(n *yaml.Node) orders.Errors {
	if orders.IsNull(n) {
		n = &yaml.Node{Kind: yaml.MappingNode, Line: n.Line, Column: n.Column}
	}
	if n.Kind != yaml.MappingNode {
		return orders.Errors{orders.ErrAt(n.Line, n.Column, "refit: want key: value lines naming the refit orders, like refit: {restore: [{unit: 1/17-A}]}, or refit: {} for none; got %s", orders.Describe(n))}
	}
	f.fieldsOf("refit", n)
	f.refitAt = &refitAt{parts: map[string][]orders.Pos{}}
	if f.Side == wind.JP {
		return f.decodeJPRefit(n)
	}
	return f.decodeUSRefit(n)
}

func (f *File) decodeUSRefit(n *yaml.Node) orders.Errors {
	var y usRefitYAML
	if errs := decode(n, &y, "refit"); len(errs) > 0 {
		return withSideHint(errs, "the U.S. refit takes restore, land, independents and depots; hide, move and swap are the Japanese refit's")
	}
	var errs orders.Errors
	r := &wind.Refit{}
	at := f.refitAt.parts
	for i, e := range y.Restore {
		at[wind.PartRestore] = append(at[wind.PartRestore], e.At)
		if e.Unit == "" {
			errs = append(errs, orders.ErrAt(e.At.Line, e.At.Col, "refit.restore[%d] needs unit: the infantry unit to restore, like {unit: 1/17-A, steps: 2}", i))
		}
		steps := 0
		if e.Steps != nil {
			steps = *e.Steps
			if steps < 1 {
				p := lookup(lookupItem(n, "restore", i), "steps")
				errs = append(errs, orders.ErrAt(p.Line, p.Column, "refit.restore[%d].steps: write 1 or more, or leave steps out for as many as the unit may take", i))
			}
		}
		r.Restore = append(r.Restore, wind.Restore{Unit: e.Unit, Steps: steps})
	}
	for i, e := range y.Land {
		at[wind.PartLand] = append(at[wind.PartLand], e.At)
		if e.Unit == "" || e.Zone == "" {
			errs = append(errs, orders.ErrAt(e.At.Line, e.At.Col, "refit.land[%d] needs unit: and zone:, like {unit: 1/32-A, zone: E}", i))
		}
		r.Land = append(r.Land, wind.Landing{Unit: e.Unit, Zone: e.Zone})
	}
	var es orders.Errors
	at[wind.PartIndependents], es = idsAt(n, "independents", y.Independents)
	errs = append(errs, es...)
	at[wind.PartDepots], es = idsAt(n, "depots", y.Depots)
	errs = append(errs, es...)
	r.Independents, r.Depots = y.Independents, y.Depots
	if len(errs) > 0 {
		return errs
	}
	f.Refit = r
	return nil
}

func (f *File) decodeJPRefit(n *yaml.Node) orders.Errors {
	var y jpRefitYAML
	if errs := decode(n, &y, "refit"); len(errs) > 0 {
		return withSideHint(errs, "the Japanese refit takes hide, move and swap; restore, land, independents and depots are the U.S. refit's")
	}
	var errs orders.Errors
	r := &wind.Rearrange{}
	at := f.refitAt.parts
	var es orders.Errors
	at[wind.PartHide], es = idsAt(n, "hide", y.Hide)
	errs = append(errs, es...)
	r.Hide = y.Hide
	place := func(p placeYAML, what string) (wind.UnknownMove, orders.Errors) {
		if p.Unit == "" || p.To == 0 {
			return wind.UnknownMove{}, orders.Errors{orders.ErrAt(p.At.Line, p.At.Col, "%s needs unit: and to:, the Unknown unit and its hex, like {unit: U03, to: 2512}", what)}
		}
		return wind.UnknownMove{Unit: p.Unit, To: p.To}, nil
	}
	for i, p := range y.Move {
		at[wind.PartMove] = append(at[wind.PartMove], p.At)
		m, es := place(p, fmt.Sprintf("refit.move[%d]", i))
		errs = append(errs, es...)
		r.Moves = append(r.Moves, m)
	}
	for i, sw := range y.Swap {
		at[wind.PartSwap] = append(at[wind.PartSwap], sw.At)
		if sw.Hex == 0 {
			errs = append(errs, orders.ErrAt(sw.At.Line, sw.At.Col, "refit.swap[%d] needs hex: the hex whose infantry leaves, like hex: 2717", i))
		}
		if len(sw.Place) == 0 {
			errs = append(errs, orders.ErrAt(sw.At.Line, sw.At.Col, "refit.swap[%d] needs place: the Unknown units to place, like place: [{unit: U05, to: 2716}]", i))
		}
		s := wind.Swap{Hex: sw.Hex}
		var pos []orders.Pos
		for k, p := range sw.Place {
			pos = append(pos, p.At)
			m, es := place(p, fmt.Sprintf("refit.swap[%d].place[%d]", i, k))
			errs = append(errs, es...)
			s.Place = append(s.Place, m)
		}
		f.refitAt.place = append(f.refitAt.place, pos)
		r.Swaps = append(r.Swaps, s)
	}
	if len(errs) > 0 {
		return errs
	}
	f.Rearrange = r
	return nil
}

// withSideHint adds to an unknown field of refit: which side's lists it
// holds, since the two sides' refit orders differ.
func withSideHint(errs orders.Errors, hint string) orders.Errors {
	for _, e := range errs {
		if strings.HasPrefix(e.Msg, "unknown field ") && (strings.Contains(e.Msg, " in refit (") || strings.Contains(e.Msg, " in refit;")) {
			e.Msg += "; " + hint
		}
	}
	return errs
}

// idsAt checks a list of unit ids under key in the mapping n: none empty.
// It returns where each is written.
func idsAt(n *yaml.Node, key string, ids []string) ([]orders.Pos, orders.Errors) {
	list := lookup(n, key)
	var errs orders.Errors
	at := make([]orders.Pos, 0, len(ids))
	for j, id := range ids {
		item := list
		if j < len(list.Content) {
			item = list.Content[j]
		}
		at = append(at, orders.Pos{Line: item.Line, Col: item.Column})
		if id == "" {
			errs = append(errs, orders.ErrAt(item.Line, item.Column, "refit.%s[%d] is empty; write a unit id", key, j))
		}
	}
	return at, errs
}

// lookupItem returns item i of the list under key in mapping n, or an
// empty node.
func lookupItem(n *yaml.Node, key string, i int) *yaml.Node {
	list := lookup(n, key)
	if i < len(list.Content) {
		return list.Content[i]
	}
	return &yaml.Node{}
}

// locateRefit returns where a problem with refit orders lies: the entry of
// the list it names, the placement of a swap; ok is false when p is about
// no refit entry.
func (f *File) locateRefit(p wind.Problem) (line, col int, ok bool) {
	if p.Part == "" || f.refitAt == nil {
		return 0, 0, false
	}
	at := f.refitAt.parts[p.Part]
	if p.Step < 0 || p.Step >= len(at) {
		section := f.refitAt.section
		if section == "" {
			section = "refit"
		}
		l, c := f.Field(section)
		return l, c, true
	}
	if p.Part == wind.PartSwap && p.Place >= 1 && p.Step < len(f.refitAt.place) && p.Place <= len(f.refitAt.place[p.Step]) {
		pl := f.refitAt.place[p.Step][p.Place-1]
		return pl.Line, pl.Col, true
	}
	return at[p.Step].Line, at[p.Step].Col, true
}
