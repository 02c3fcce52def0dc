package wind

import (
	"github.com/attu-pbem/attu/orders"
	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// decisionYAML is the U.S. decision at the start of a turn as written. Both
// answers are pointers so that a forgotten one is refused rather than read
// as false: a day turn nobody chose is worse than a reply asking again.
type decisionYAML struct {
	Refit *bool `yaml:"refit"`
	Night *bool `yaml:"night"`
}

func (f *File) decodeDecision(n *yaml.Node) orders.Errors {
	if n.Kind != yaml.MappingNode {
		return orders.Errors{orders.ErrAt(n.Line, n.Column, "decision: want refit: and night:, like decision: {refit: false, night: true}; got %s", orders.Describe(n))}
	}
	var d decisionYAML
	if errs := decode(n, &d, "decision"); len(errs) > 0 {
		return errs
	}
	f.fieldsOf("decision", n)
	var errs orders.Errors
	if d.Refit == nil {
		errs = append(errs, orders.ErrAt(n.Line, n.Column, "decision needs refit: true to call a refit turn (rule 3.1), or refit: false"))
	}
	refit := d.Refit != nil && *d.Refit
	switch {
	case d.Night == nil && !refit:
		errs = append(errs, orders.ErrAt(n.Line, n.Column, "decision needs night: true for a night turn, when the Japanese act first (rule 3.2), or night: false for a day turn"))
	case d.Night != nil && *d.Night && refit:
		// rule 3.1: a refit turn skips the rest of the turn sequence,
		// the night decision with it.
		p := lookup(n, "night")
		errs = append(errs, orders.ErrAt(p.Line, p.Column, "decision: a refit turn replaces the rest of the turn, so it is never a night turn (rule 3.1): write night: false, or refit: false for a night turn"))
	}
	if len(errs) > 0 {
		return errs
	}
	f.Decision = &wind.Decision{Refit: refit, Night: d.Night != nil && *d.Night}
	return nil
}

// fieldsOf records where each key of the mapping n under the top-level key
// parent is written, as "parent.key", for Field.
func (f *File) fieldsOf(parent string, n *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		name := parent + "." + k.Value
		if _, dup := f.fields[name]; !dup {
			f.fields[name] = orders.Pos{Line: k.Line, Col: k.Column}
		}
	}
}
