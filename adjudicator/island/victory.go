package island

import (
	"fmt"
	"strings"
)

// Verdict is the result of a game under the scenario's victory conditions
// (rule 3.0).
type Verdict struct {
	Winner Side         `json:"winner,omitempty"` // empty: a draw
	Level  string       `json:"level,omitempty"`
	Points map[Side]int `json:"points"`
}

func (o Verdict) String() string {
	who := "draw"
	if o.Winner != "" {
		who = string(o.Winner) + " win"
		if o.Level != "" {
			who = string(o.Winner) + " " + o.Level + " win"
		}
	}
	return fmt.Sprintf("%s (us %d, japan %d)", who, o.Points[US], o.Points[Japan])
}

// ParseVerdict reads a verdict back from its String, as a game-over
// event's note records it; false when s is not one.
func ParseVerdict(s string) (Verdict, bool) {
	head, pts, ok := strings.Cut(s, " (")
	var o Verdict
	o.Points = map[Side]int{}
	var us, jp int
	if !ok {
		return Verdict{}, false
	}
	if n, err := fmt.Sscanf(pts, "us %d, japan %d)", &us, &jp); n != 2 || err != nil {
		return Verdict{}, false
	}
	o.Points[US], o.Points[Japan] = us, jp
	if head == "draw" {
		return o, true
	}
	f := strings.Fields(head)
	if len(f) < 2 || f[len(f)-1] != "win" || (Side(f[0]) != US && Side(f[0]) != Japan) {
		return Verdict{}, false
	}
	o.Winner, o.Level = Side(f[0]), strings.Join(f[1:len(f)-1], " ")
	return o, o.String() == s
}

// Verdict judges the position by the victory conditions: the points
// banked at the end of earlier Game-Turns plus those counted now, then the
// first outcome whose condition holds.
func (e *Engine) Verdict(p Position) Verdict {
	pts := map[Side]int{US: p.Banked[US], Japan: p.Banked[Japan]}
	for _, sc := range e.S.Victory.Scores {
		if sc.Count == CountHexes && sc.Turn != 0 {
			continue // banked by bank
		}
		pts[sc.Side] += e.count(p, sc)
	}
	o := Verdict{Points: pts}
	for _, oc := range e.S.Victory.Outcomes {
		if holds(oc.When, pts) {
			o.Winner, o.Level = oc.Winner, oc.Level
			break
		}
	}
	return o
}

// bank adds the points of scores counted at the end of this Game-Turn.
func (e *Engine) bank(p Position) Position {
	for _, sc := range e.S.Victory.Scores {
		if sc.Count == CountHexes && sc.Turn == p.Turn {
			if p.Banked == nil {
				p.Banked = map[Side]int{}
			}
			p.Banked[sc.Side] += e.count(p, sc)
		}
	}
	return p
}

// count gives one score's points now.
func (e *Engine) count(p Position, sc Score) int {
	n := 0
	switch sc.Count {
	case CountHexes:
		b := e.board(&p)
		for _, h := range e.scoreHexes(sc) {
			if sc.Held == HeldControl {
				owner, ok := p.Control[h]
				if !ok {
					owner = e.S.Victory.Owner[h]
				}
				if owner == sc.Side {
					n++
				}
			} else if i := b.at(h); i >= 0 && b.side(i) == sc.Side {
				n++
			}
		}
	case CountEliminated:
		for i, pc := range p.Pieces {
			u := e.S.Units[i]
			if pc.Where != Eliminated || u.Side == sc.Side {
				continue
			}
			if len(sc.Units) > 0 && !contains(sc.Units, u.ID) {
				continue
			}
			if sc.Class != "" && e.class[i] != sc.Class {
				continue
			}
			n++
		}
	}
	return n * sc.Points
}

func holds(c Condition, pts map[Side]int) bool {
	for _, a := range c.All {
		if !holds(a, pts) {
			return false
		}
	}
	if len(c.Any) > 0 {
		any := false
		for _, a := range c.Any {
			any = any || holds(a, pts)
		}
		if !any {
			return false
		}
	}
	if c.Op == "" {
		return true
	}
	v := 0
	if c.Side != "" {
		v = pts[c.Side]
	}
	if c.Minus != "" {
		v -= pts[c.Minus]
	}
	switch c.Op {
	case ">=":
		return v >= c.Value
	case ">":
		return v > c.Value
	case "<=":
		return v <= c.Value
	case "<":
		return v < c.Value
	case "==":
		return v == c.Value
	case "!=":
		return v != c.Value
	}
	return false
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
