package island

import (
	"fmt"

	iw "github.com/attu-pbem/attu/adjudicator/island"
)

var (
	counts = []string{iw.CountHexes, iw.CountEliminated}
	helds  = []string{iw.HeldOccupied, iw.HeldControl}
	ops    = []string{">=", ">", "<=", "<", "==", "!="}
)

// victory reads the scoring and the outcomes (rule 3.0: the scenario's
// victory conditions tell how the game is won).
func (b *builder) victory() {
	v := b.f.Victory
	if v == nil {
		b.missing(b.f.Pos, "victory", "say how the game is won: scores and outcomes (rule 3.0)")
		return
	}
	b.owner(v)
	for _, s := range v.Scores {
		if sc, ok := b.score(s); ok {
			b.sc.Victory.Scores = append(b.sc.Victory.Scores, sc)
		}
	}
	if len(v.Outcomes) == 0 {
		b.missing(v.Pos, "victory.outcomes", "list the results, the first whose condition holds winning, like {winner: us, when: {side: us, minus: japan, op: \">=\", value: 5}}")
	}
	always := -1
	for i, o := range v.Outcomes {
		if always >= 0 {
			b.ps.at(o.Pos, "move it before that outcome, or give that one a when", "victory.outcomes: this outcome is never reached: the one at line %d always holds", v.Outcomes[always].Line)
			break
		}
		out, ok := b.outcome(o)
		if ok {
			b.sc.Victory.Outcomes = append(b.sc.Victory.Outcomes, out)
		}
		if o.When == nil || (!o.When.Op.Set() && len(o.When.All) == 0 && len(o.When.Any) == 0) {
			always = i
		}
	}
}

func (b *builder) owner(v *victorySec) {
	taken := map[iw.Hex]string{}
	for _, e := range v.Owner {
		side, ok := b.side(e.Key, e.Key.Pos, "victory.owner")
		if !ok {
			continue
		}
		for _, s := range e.Value {
			h, ok := b.hexAt(s, "victory.owner."+e.Key.Value)
			if !ok {
				continue
			}
			if other, dup := taken[h]; dup {
				b.ps.at(s.Pos, "give each hex one owner", "victory.owner: hex %s is %s's already", s.Value, other)
				continue
			}
			taken[h] = e.Key.Value
			if b.sc.Victory.Owner == nil {
				b.sc.Victory.Owner = map[iw.Hex]iw.Side{}
			}
			b.sc.Victory.Owner[h] = side
		}
	}
}

// score checks one way of scoring points.
func (b *builder) score(s scoreEntry) (iw.Score, bool) {
	out := iw.Score{}
	side, ok := b.side(s.Side, s.Pos, "score side")
	out.Side = side
	if !s.Points.Set() {
		b.missing(s.Pos, "points", "give the points scored for each thing counted")
		ok = false
	} else if s.Points.Value == 0 {
		b.ps.at(s.Points.Pos, "give a number of points other than 0, or remove the score", "a score of 0 points counts for nothing")
		ok = false
	}
	out.Points = s.Points.Value
	if !s.Count.Set() {
		b.missing(s.Pos, "count", "say what the score counts: hexes (held) or eliminated (enemy units)")
		return out, false
	}
	if !b.oneOf(s.Count, "count", counts) {
		return out, false
	}
	out.Count = s.Count.Value
	if out.Count == iw.CountHexes {
		return out, b.hexScore(s, &out) && ok
	}
	return out, b.eliminatedScore(s, side, &out) && ok
}

func (b *builder) hexScore(s scoreEntry, out *iw.Score) bool {
	ok := true
	for _, no := range []struct {
		set bool
		p   Pos
		key string
	}{{len(s.Units) > 0, s.Pos, "units"}, {s.Class.Set(), s.Class.Pos, "class"}} {
		if no.set {
			b.ps.at(no.p, "remove it, or write count: eliminated", "a score that counts hexes has %s", no.key)
			ok = false
		}
	}
	switch {
	case len(s.Hexes) > 0 && s.Area.Set():
		b.ps.at(s.Area.Pos, "keep hexes or area", "a score has both hexes and area")
		ok = false
	case len(s.Hexes) == 0 && !s.Area.Set():
		b.missing(s.Pos, "hexes or area", "list the hexes that score, or name an area")
		ok = false
	}
	for _, h := range s.Hexes {
		if hex, good := b.hexAt(h, "score"); good {
			out.Hexes = append(out.Hexes, hex)
		} else {
			ok = false
		}
	}
	if s.Area.Set() {
		if _, good := b.area(s.Area, "score"); good {
			out.Area = s.Area.Value
		} else {
			ok = false
		}
	}
	if s.Held.Set() {
		if b.oneOf(s.Held, "held", helds) {
			out.Held = s.Held.Value
		} else {
			ok = false
		}
	}
	if s.Turn.Set() {
		if b.turn(s.Turn, "score") {
			out.Turn = s.Turn.Value
		} else {
			ok = false
		}
	}
	return ok
}

func (b *builder) eliminatedScore(s scoreEntry, side iw.Side, out *iw.Score) bool {
	ok := true
	for _, no := range []struct {
		set bool
		p   Pos
		key string
	}{{len(s.Hexes) > 0, s.Pos, "hexes"}, {s.Area.Set(), s.Area.Pos, "area"}, {s.Held.Set(), s.Held.Pos, "held"}, {s.Turn.Set(), s.Turn.Pos, "turn"}} {
		if no.set {
			b.ps.at(no.p, "remove it, or write count: hexes", "a score that counts eliminated units has %s", no.key)
			ok = false
		}
	}
	if len(s.Units) > 0 && s.Class.Set() {
		b.ps.at(s.Class.Pos, "keep units or class", "a score has both units and class")
		ok = false
	}
	for _, id := range s.Units {
		u, known := b.unitRef(id, "score")
		switch {
		case !known:
			ok = false
		case side != "" && u.Side == side:
			b.ps.at(id.Pos, "a side scores for eliminating enemy units: name "+string(side.Enemy())+"'s units, or give the score to "+string(side.Enemy()), "score for %s: unit %s is %s's own", side, id.Value, side)
			ok = false
		default:
			out.Units = append(out.Units, id.Value)
		}
	}
	if s.Class.Set() {
		if b.oneOf(s.Class, "class", classes) {
			out.Class = iw.Class(s.Class.Value)
		} else {
			ok = false
		}
	}
	return ok
}

func (b *builder) outcome(o outcomeEntry) (iw.Outcome, bool) {
	out := iw.Outcome{Level: o.Level.Value}
	ok := true
	if o.Winner.Set() {
		if side, good := b.side(o.Winner, o.Pos, "winner"); good {
			out.Winner = side
		} else {
			ok = false
		}
	}
	if !o.Winner.Set() && !o.Level.Set() {
		b.missing(o.Pos, "winner or level", "give the winner (us or japan), or level: draw for a draw")
		ok = false
	}
	if o.When != nil {
		c, good := b.condition(*o.When, 0)
		out.When = c
		ok = ok && good
	}
	return out, ok
}

// condition checks a comparison of points, or a combination of
// conditions.
func (b *builder) condition(c condition, depth int) (iw.Condition, bool) {
	out := iw.Condition{}
	ok := true
	parts := 0
	for _, set := range []bool{c.Op.Set(), len(c.All) > 0, len(c.Any) > 0} {
		if set {
			parts++
		}
	}
	if parts > 1 {
		b.ps.at(c.Pos, "write one of op, all or any here, and put the others inside all: or any:", "a condition mixes op, all and any")
		return out, false
	}
	if !c.Op.Set() {
		for _, s := range []struct {
			set bool
			p   Pos
			key string
		}{{c.Side.Set(), c.Side.Pos, "side"}, {c.Minus.Set(), c.Minus.Pos, "minus"}, {c.Value.Set(), c.Value.Pos, "value"}} {
			if s.set {
				b.ps.at(s.p, "add op, like op: \">=\"", "a condition has %s but no op", s.key)
				ok = false
			}
		}
		if parts == 0 && depth > 0 {
			b.ps.at(c.Pos, "give it an op, or remove it", "an empty condition inside all or any")
			ok = false
		}
	} else {
		if b.oneOf(c.Op, "op", ops) {
			out.Op = c.Op.Value
		} else {
			ok = false
		}
		if !c.Side.Set() && !c.Minus.Set() {
			b.missing(c.Pos, "side", "say whose points are compared, like side: us (and minus: japan for a margin)")
			ok = false
		}
		for _, s := range []struct {
			s  Str
			to *iw.Side
			k  string
		}{{c.Side, &out.Side, "side"}, {c.Minus, &out.Minus, "minus"}} {
			if s.s.Set() {
				side, good := b.side(s.s, c.Pos, s.k)
				*s.to = side
				ok = ok && good
			}
		}
		if c.Side.Set() && c.Minus.Set() && c.Side.Value == c.Minus.Value {
			b.ps.at(c.Minus.Pos, "compare a side with the other: side: us, minus: japan", "a condition subtracts %s's points from themselves", c.Side.Value)
			ok = false
		}
		if !c.Value.Set() {
			b.missing(c.Pos, "value", fmt.Sprintf("give the number the points are compared with, like value: %d", 0))
			ok = false
		}
		out.Value = c.Value.Value
	}
	for _, list := range []struct {
		in  []condition
		out *[]iw.Condition
	}{{c.All, &out.All}, {c.Any, &out.Any}} {
		for _, sub := range list.in {
			sc, good := b.condition(sub, depth+1)
			*list.out = append(*list.out, sc)
			ok = ok && good
		}
	}
	return out, ok
}
