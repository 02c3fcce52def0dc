package island

import "fmt"

// Problem is one reason orders are refused: the rule they break, the order
// (its list and index) and the unit or hex concerned, and what is wrong.
// Orders with problems change nothing.
type Problem struct {
	Rule  string `json:"rule"`            // case number, e.g. "5.12", or a ruling, e.g. "IW10"
	Order string `json:"order,omitempty"` // e.g. "moves[2]", "attacks[0]"
	Unit  string `json:"unit,omitempty"`
	Hex   *Hex   `json:"hex,omitempty"`
	Msg   string `json:"msg"`
}

func (p Problem) Error() string {
	s := "rule " + p.Rule + ": "
	if p.Order != "" {
		s += p.Order + ": "
	}
	if p.Unit != "" {
		s += p.Unit + ": "
	}
	if p.Hex != nil {
		s += p.Hex.String() + ": "
	}
	return s + p.Msg
}

// problems collects problems.
type problems []Problem

func (ps *problems) add(rule, order, unit string, h *Hex, format string, args ...any) {
	*ps = append(*ps, Problem{Rule: rule, Order: order, Unit: unit, Hex: h, Msg: fmt.Sprintf(format, args...)})
}

func hexp(h Hex) *Hex { return &h }
