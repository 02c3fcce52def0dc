package rulecase

import (
	"fmt"
	"strings"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Result is what running a case found. It marshals to JSON for machines.
type Result struct {
	Name   string `json:"name"`
	Rule   string `json:"rule,omitempty"`
	Passed bool   `json:"passed"`
	// Checks is every expectation in the order of the file, each with
	// whether it held.
	Checks []Check `json:"checks"`
	// Failures is the difference, in words, for each expectation that did
	// not hold and each thing that kept the case from running in full.
	Failures []string       `json:"failures,omitempty"`
	Events   []wind.Event   `json:"events"`
	Orders   []OrdersResult `json:"orders,omitempty"`
	Dice     []wind.Rolled  `json:"dice,omitempty"`
	// Units is every unit on the map at the end, and those the case placed
	// that have left it, as they stand after everything ran.
	Units []*wind.Unit `json:"units"`
	// Errors is what kept the case from running in full: a procedure the
	// adjudicator cannot run yet, forced dice that ran out.
	Errors []string `json:"errors,omitempty"`
	// Hexes is the hexes the case is about, for a close-up map.
	Hexes []wind.Hex `json:"hexes,omitempty"`
	// Wait is what the game waits for at the end, in a case that runs
	// whole turns (it names a phase): "Japanese actions, turn 3 (May 13),
	// night" or the outcome of the game.
	Wait string `json:"wait,omitempty"`

	// State is the final position.
	State *wind.State `json:"-"`
	// procedures counts the events, first in Events, of the procedures run
	// before the orders; those after the orders' own come from the melee
	// step.
	procedures int
	// words words an event, as the caller of Run gave it.
	words Words
}

// Check is one expectation and whether it held. Got says what differed.
type Check struct {
	Expect string `json:"expect"`
	OK     bool   `json:"ok"`
	Got    string `json:"got,omitempty"`
}

// OrdersResult is what became of one orders file of the case.
type OrdersResult struct {
	Index    int      `json:"index"` // from 1
	Side     string   `json:"side"`
	Line     int      `json:"line"`
	Accepted bool     `json:"accepted"`
	Errors   []string `json:"errors,omitempty"` // "line:col: reason"
	// Events is what the orders did; Result.Events holds them too.
	Events []wind.Event `json:"events,omitempty"`
}

func (r *Result) check(expect string, ok bool, got string) {
	r.Checks = append(r.Checks, Check{Expect: expect, OK: ok, Got: got})
	if !ok {
		r.Failures = append(r.Failures, got)
	}
}

func (r *Result) error(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.Errors = append(r.Errors, msg)
	r.Failures = append(r.Failures, msg)
}

// readBy words the events side reads, in order: each as wind.Redact
// leaves it for side.
func (r *Result) readBy(side wind.Side) []string {
	var out []string
	for _, e := range r.Events {
		if red, ok := wind.Redact(e, side); ok {
			out = append(out, r.words(red))
		}
	}
	return out
}

// Text is the result for people: what happened, each expectation with ✓ or
// ✗ and what differed, and on failure the units in each hex involved.
func (r *Result) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Case: %s", r.Name)
	if r.Rule != "" {
		fmt.Fprintf(&b, " (rule %s)", r.Rule)
	}
	b.WriteString("\n")
	if len(r.Dice) > 0 {
		b.WriteString("\nDice rolled:\n")
		for _, d := range r.Dice {
			fmt.Fprintf(&b, "  %2d  %s", d.Value, d.Purpose)
			if d.Side != wind.NoSide {
				fmt.Fprintf(&b, ", %s", d.Side)
			}
			if d.Unit != "" {
				fmt.Fprintf(&b, " (%s)", d.Unit)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\nWhat happened:\n")
	if len(r.Events) == 0 && len(r.Orders) == 0 {
		b.WriteString("  nothing\n")
	}
	// Events before the orders come from the procedures of roll, those
	// after them from the melee step.
	byOrders := 0
	for _, o := range r.Orders {
		byOrders += len(o.Events)
	}
	before := min(r.procedures, len(r.Events))
	for _, e := range r.Events[:before] {
		fmt.Fprintf(&b, "  %s\n", r.words(e))
	}
	for _, o := range r.Orders {
		verdict := "accepted"
		if !o.Accepted {
			verdict = "refused"
		}
		fmt.Fprintf(&b, "  orders %d (%s, line %d): %s\n", o.Index, o.Side, o.Line, verdict)
		for _, e := range o.Events {
			fmt.Fprintf(&b, "    %s\n", r.words(e))
		}
		for _, e := range o.Errors {
			fmt.Fprintf(&b, "    %s\n", e)
		}
	}
	for _, e := range r.Events[min(before+byOrders, len(r.Events)):] {
		fmt.Fprintf(&b, "  %s\n", r.words(e))
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "  ! %s\n", e)
	}
	if r.Wait != "" {
		fmt.Fprintf(&b, "  Now: %s\n", r.Wait)
	}
	b.WriteString("\nExpectations:\n")
	if len(r.Checks) == 0 {
		b.WriteString("  none\n")
	}
	for _, c := range r.Checks {
		if c.OK {
			fmt.Fprintf(&b, "  ✓ %s\n", c.Expect)
		} else {
			fmt.Fprintf(&b, "  ✗ %s\n      %s\n", c.Expect, c.Got)
		}
	}
	if r.Passed {
		fmt.Fprintf(&b, "\nPASS: %d of %d expectations hold\n", len(r.Checks), len(r.Checks))
		return b.String()
	}
	if r.State != nil && len(r.Hexes) > 0 {
		b.WriteString("\nUnits in the hexes involved, at the end:\n")
		b.WriteString(Closeup(r.State, r.Hexes))
	}
	fmt.Fprintf(&b, "\nFAIL: %d problem(s)\n", len(r.Failures))
	return b.String()
}

// Markers labels each hex holding units with the umpire's view of it, for a
// map renderer: "U" and the number of U.S. units, "J" and the number of
// Japanese ones (hidden or not).
func Markers(s *wind.State) map[wind.Hex]string {
	count := map[wind.Hex][2]int{}
	for _, u := range s.OnMap() {
		c := count[u.Hex]
		if u.Side() == wind.US {
			c[0]++
		} else {
			c[1]++
		}
		count[u.Hex] = c
	}
	out := make(map[wind.Hex]string, len(count))
	for h, c := range count {
		switch {
		case c[0] > 0 && c[1] > 0:
			out[h] = "U+J"
		case c[0] > 0:
			out[h] = fmt.Sprintf("U%d", c[0])
		default:
			out[h] = fmt.Sprintf("J%d", c[1])
		}
	}
	return out
}

// Closeup lists, for each hex, its terrain, level and the units in it: the
// plain-text view of a position a failing case prints.
func Closeup(s *wind.State, hexes []wind.Hex) string {
	var b strings.Builder
	m := s.Map()
	for _, h := range hexes {
		fmt.Fprintf(&b, "  %s", h)
		if m.OnMap(h) {
			fmt.Fprintf(&b, " %s level %d:", m.Terrain(h), m.Level(h))
		} else {
			b.WriteString(" off the map:")
		}
		us := s.UnitsAt(h)
		if len(us) == 0 {
			b.WriteString(" empty")
		}
		for i, u := range us {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %s", describeUnit(u))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func describeUnit(u *wind.Unit) string {
	s := fmt.Sprintf("%s (%d step", u.ID, u.Steps)
	if u.Steps != 1 {
		s += "s"
	}
	if u.FaceDown {
		s += ", face down"
	}
	return s + ")"
}
