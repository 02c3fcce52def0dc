package island

import (
	"fmt"
	"sort"
)

// Combat resolves the phasing player's Combat Phase (rules 4.1 B, 7.0-10.13):
// it checks the attacks of o whole (IW10), then resolves them in order, each
// with the defender's choices d, rolling dice for each. Orders with any
// problem are refused whole and change nothing. The position returned is in
// the next Player-Turn's Movement Phase, or over after the last Game-Turn.
func (e *Engine) Combat(p Position, o Orders, d Defence, dice Dice) (Position, []Event, []Problem) {
	if p.Phase != PhaseCombat {
		var ps problems
		ps.add("4.1", "attacks", "", nil, "the game is in its %s phase, not a Combat Phase", p.Phase)
		return p, nil, ps
	}
	q := p.Clone()
	b := e.board(&q)
	if ps := e.checkAttacks(b, o.Attacks); len(ps) > 0 {
		return p, nil, ps
	}
	r := &resolver{e: e, b: b, o: o, d: d, dice: dice, start: make([]Hex, len(q.Pieces))}
	for i, pc := range q.Pieces {
		r.start[i] = pc.Hex
	}
	var evs []Event
	for k := range o.Attacks {
		evs = append(evs, r.resolve(k))
	}
	q, more := e.endCombat(q)
	return q, append(evs, more...), nil
}

// CheckAttacks judges combat orders against a position in its Combat Phase
// without resolving them: what Combat would refuse. A defender can be shown
// the attacks once they pass.
func (e *Engine) CheckAttacks(p Position, attacks []Attack) []Problem {
	if p.Phase != PhaseCombat {
		return []Problem{{Rule: "4.1", Order: "attacks", Msg: "not a Combat Phase"}}
	}
	return e.checkAttacks(e.board(&p), attacks)
}

// checkAttacks is the whole check of the combat orders: each attack's
// units, adjacency and range, and the duties of rules 7.11 and 7.12.
func (e *Engine) checkAttacks(b *board, attacks []Attack) []Problem {
	var ps problems
	p := b.p
	us, them := p.Phasing, p.Phasing.Enemy()
	usedA := map[int]string{} // unit -> the attack it is in (rule 7.14)
	usedD := map[int]string{}
	gsp := 0
	for k, a := range attacks {
		where := fmt.Sprintf("attacks[%d]", k)
		defs := e.units(b, a.Defenders, them, "7.11", where, "defender", &ps)
		atts := e.units(b, a.Attackers, us, "7.12", where, "attacker", &ps)
		bars := e.units(b, a.Barrage, us, "8.11", where, "barrage", &ps)
		if len(a.Defenders) == 0 {
			ps.add("7.0", where, "", nil, "names no defender")
		}
		if len(a.Attackers)+len(a.Barrage) == 0 && a.GSP <= 0 {
			ps.add("7.0", where, "", nil, "names no attacker, no barrage and no ground support")
		}
		if a.GSP < 0 {
			ps.add("9.11", where, "", nil, "ground support %d is negative", a.GSP)
		}
		gsp += max(a.GSP, 0)
		for _, i := range defs {
			if prev, ok := usedD[i]; ok {
				ps.add("7.14", where, e.S.Units[i].ID, nil, "is already attacked by %s", prev)
			}
			if p.Pieces[i].Defended == p.Combats {
				ps.add("7.14", where, e.S.Units[i].ID, nil, "has already been attacked in this Combat Phase")
			}
			usedD[i] = where
		}
		for _, i := range append(append([]int(nil), atts...), bars...) {
			if prev, ok := usedA[i]; ok {
				ps.add("7.14", where, e.S.Units[i].ID, nil, "already attacks in %s", prev)
			}
			if p.Pieces[i].Attacked == p.Combats {
				ps.add("7.14", where, e.S.Units[i].ID, nil, "has already attacked in this Combat Phase")
			}
			usedA[i] = where
		}
		for _, i := range atts {
			for _, j := range defs {
				if !e.S.Grid.Adjacent(p.Pieces[i].Hex, p.Pieces[j].Hex) {
					ps.add("7.23", where, e.S.Units[i].ID, hexp(p.Pieces[i].Hex), "is not next to defender %s; every attacker from an adjacent hex must be next to every defender", e.S.Units[j].ID)
				}
			}
		}
		for _, i := range bars {
			e.checkBarrage(b, i, defs, where, &ps)
		}
		if rng := e.S.Rules.GSPRange; rng > 0 && a.GSP > 0 && len(defs) > 0 && !e.nearFriend(b, p.Pieces[defs[0]].Hex, us, rng) {
			ps.add("9.13", where, "", nil, "ground support reaches only %d hexes from a %s unit in this game", rng, us)
		}
		if len(a.Attackers) == 0 && len(a.Defenders) > 1 {
			ps.add("8.13", where, "", nil, "a barrage or ground support alone attacks a single hex")
		}
		if a.Banzai {
			e.checkBanzai(atts, us, where, &ps)
		}
		for _, adv := range a.Advance {
			if !contains(a.Attackers, adv.Unit) {
				ps.add("7.94", where, adv.Unit, nil, "advances only if it attacks from an adjacent hex in this attack")
			}
		}
		for _, id := range a.Removals {
			if !contains(a.Attackers, id) {
				ps.add("10.13", where, id, nil, "is removed for Banzai only if it attacks from an adjacent hex in this attack")
			}
		}
	}
	if gsp > p.GSP[us] {
		ps.add("9.12", "attacks", "", nil, "the attacks spend %d Ground Support Points; %s has %d this Game-Turn", gsp, us, p.GSP[us])
	}
	e.checkDuties(b, usedA, usedD, &ps)
	return ps
}

// nearFriend reports whether a unit of side s is within rng hexes of h.
func (e *Engine) nearFriend(b *board, h Hex, s Side, rng int) bool {
	for i, pc := range b.p.Pieces {
		if pc.Where == OnMap && b.side(i) == s && e.S.Grid.Distance(h, pc.Hex) <= rng {
			return true
		}
	}
	return false
}

// units resolves ids to pieces of side s on the map.
func (e *Engine) units(b *board, ids []string, s Side, rule, where, role string, ps *problems) []int {
	var out []int
	for _, id := range ids {
		i, ok := e.byID[id]
		switch {
		case !ok:
			ps.add(rule, where, id, nil, "no such unit")
		case e.S.Units[i].Side != s:
			ps.add(rule, where, id, nil, "is not a unit of %s, as a %s must be", s, role)
		case b.p.Pieces[i].Where != OnMap:
			ps.add(rule, where, id, nil, "is not on the map")
		default:
			out = append(out, i)
		}
	}
	return out
}

// checkBarrage judges one barraging artillery unit (rules 8.11-8.32).
func (e *Engine) checkBarrage(b *board, i int, defs []int, where string, ps *problems) {
	u := e.unit(i)
	h := b.p.Pieces[i].Hex
	switch {
	case !e.isArtillery(i):
		ps.add("7.15", where, u.ID, nil, "is not artillery: it attacks only from an adjacent hex")
		return
	case len(b.enemiesNext(h, u.Side)) > 0:
		ps.add("8.32", where, u.ID, hexp(h), "is next to an enemy unit: it attacks only adjacent units, as an attacker")
		return
	}
	for _, j := range defs { // rule 8.22: in range of one defender is enough
		if e.S.Grid.Distance(h, b.p.Pieces[j].Hex) <= u.Range {
			return
		}
	}
	ps.add("8.11", where, u.ID, hexp(h), "has range %d: no defender is in range", u.Range)
}

// checkBanzai judges a Banzai declaration (rule 10.0, IW13).
func (e *Engine) checkBanzai(atts []int, us Side, where string, ps *problems) {
	if us != Japan {
		ps.add("10.0", where, "", nil, "only the Japanese make Banzai attacks")
		return
	}
	for _, i := range atts {
		if e.isFoot(i) {
			return
		}
	}
	ps.add("10.0", where, "", nil, "a Banzai attack needs Japanese infantry or engineers attacking from adjacent hexes")
}

// checkDuties enforces the duties fixed at the start of the phase (IW10):
// every enemy unit next to a phasing unit is attacked (rule 7.11), every
// phasing unit next to an enemy attacks from its hex (rules 7.12, 8.31).
func (e *Engine) checkDuties(b *board, usedA, usedD map[int]string, ps *problems) {
	us := b.p.Phasing
	for i, pc := range b.p.Pieces {
		if pc.Where != OnMap || len(b.enemiesNext(pc.Hex, b.side(i))) == 0 {
			continue
		}
		id := e.S.Units[i].ID
		if b.side(i) != us {
			if _, ok := usedD[i]; !ok && pc.Defended != b.p.Combats { // rule 7.14: attacked already this phase
				ps.add("7.11", "attacks", id, hexp(pc.Hex), "is next to a %s unit and must be attacked", us)
			}
			continue
		}
		if _, ok := usedA[i]; !ok && pc.Attacked != b.p.Combats { // rule 7.14: it has attacked this phase
			rule := "7.12"
			if e.isArtillery(i) {
				rule = "8.31"
			}
			ps.add(rule, "attacks", id, hexp(pc.Hex), "is next to an enemy unit and must attack one")
		}
	}
	// Artillery next to an enemy must attack as an adjacent attacker, not
	// barrage: checkBarrage refuses the barrage, so usedA covers it.
}

// resolver resolves the attacks of one Combat Phase in order.
type resolver struct {
	e     *Engine
	b     *board
	o     Orders
	d     Defence
	dice  Dice
	start []Hex // each piece's hex when the phase began
	tries int   // displacements tried for the retreat under way
}

// unmoved reports whether piece i is where it was when the phase began and
// neither displaced nor advanced since (IW20).
func (r *resolver) unmoved(i int) bool {
	pc := r.b.p.Pieces[i]
	n := r.b.p.Combats
	return pc.Where == OnMap && pc.Hex == r.start[i] && pc.Displaced != n && pc.Advanced != n
}

// resolve makes attack k, or skips it (IW20).
func (r *resolver) resolve(k int) Event {
	e, p := r.e, r.b.p
	a := r.o.Attacks[k]
	n := p.Combats
	rep := &CombatReport{Index: k, Defenders: a.Defenders, Attackers: a.Attackers, GSP: a.GSP, Banzai: a.Banzai}
	ev := Event{Kind: EvCombat, Turn: p.Turn, Side: p.Phasing, Combat: rep}
	defs, atts := r.ids(a.Defenders), r.ids(a.Attackers)
	for _, i := range append(append([]int(nil), defs...), atts...) {
		if !r.unmoved(i) {
			ev.Kind, ev.Note = EvSkip, fmt.Sprintf("%s has been eliminated, has left its hex or has advanced (IW20)", e.S.Units[i].ID)
			return ev
		}
	}
	var bars []int
	for _, i := range r.ids(a.Barrage) {
		if p.Pieces[i].Displaced == n || p.Pieces[i].Where != OnMap { // rule 7.82
			rep.Dropped = append(rep.Dropped, e.S.Units[i].ID)
			continue
		}
		bars = append(bars, i)
		rep.Barrage = append(rep.Barrage, e.S.Units[i].ID)
	}
	if len(atts)+len(bars) == 0 && a.GSP <= 0 {
		ev.Kind, ev.Note = EvSkip, "nothing is left to attack with (rule 7.82)"
		return ev
	}
	// 4.1 a and b: the attack's strength.
	rep.ArtilleryOnly = true
	for _, i := range atts {
		u := e.unit(i)
		switch {
		case e.isArtillery(i):
			rep.AttackTotal += u.Barrage // rule 8.31
		case a.Banzai && e.isFoot(i):
			rep.AttackTotal += 2 * u.Attack // rules 10.0, 10.11
			rep.ArtilleryOnly = false
		default:
			rep.AttackTotal += u.Attack
			rep.ArtilleryOnly = false
		}
	}
	for _, i := range bars {
		rep.AttackTotal += e.unit(i).Barrage
	}
	rep.AttackTotal += a.GSP // rule 9.11
	p.GSP[p.Phasing] -= a.GSP
	for _, i := range defs {
		rep.DefenseTotal += e.unit(i).Defense // rule 8.5: artillery too
	}
	rep.Line = r.line(defs, atts, rep.ArtilleryOnly)
	// 4.1 c: final protective fire.
	if !rep.ArtilleryOnly { // rule 8.45
		r.fpf(rep, defs, rep.AttackTotal-rep.DefenseTotal)
	}
	// 4.1 d.
	rep.Differential = rep.AttackTotal - rep.DefenseTotal
	rep.Column = Column(rep.Line, rep.Differential) // rule 7.52: never shifted left
	rep.Die = r.dice.Roll(Die{Purpose: "combat", Turn: p.Turn, Side: p.Phasing, Combat: n, Attack: k})
	if rep.Die < 1 || rep.Die > 6 {
		panic(fmt.Sprintf("island: the dice rolled %d, not 1 to 6", rep.Die))
	}
	rep.Result = Lookup(rep.Column, rep.Die)
	for _, i := range atts {
		p.Pieces[i].Attacked = n
	}
	for _, i := range bars {
		p.Pieces[i].Attacked = n
	}
	for _, i := range defs {
		p.Pieces[i].Defended = n
	}
	r.apply(rep, a, defs, atts)
	return ev
}

// ids gives the piece indexes of ids the check has accepted.
func (r *resolver) ids(ids []string) []int {
	out := make([]int, 0, len(ids))
	for _, id := range ids {
		out = append(out, r.e.byID[id])
	}
	return out
}

// line gives the CRT line the defenders use (rules 7.41-7.45, 8.62, IW3).
func (r *resolver) line(defs, atts []int, artilleryOnly bool) Line {
	e, p := r.e, r.b.p
	var ground []int
	for _, i := range atts {
		if !e.isArtillery(i) {
			ground = append(ground, i)
		}
	}
	best := LineClear
	for _, j := range defs {
		h := p.Pieces[j].Hex
		c := &e.cells[e.index(h)]
		if c.terrain.Line.Rank() > best.Rank() { // rules 7.41, 8.62: the hex at any range
			best = c.terrain.Line
		}
		if artilleryOnly || len(ground) == 0 {
			continue // rule 8.62: no hexside benefit against artillery alone
		}
		first := c.side[e.dir(h, p.Pieces[ground[0]].Hex)]
		for _, f := range first.lined {
			all := true
			for _, i := range ground[1:] { // rule 7.42 as 8.62 reads it (IW3)
				if !hasLined(c.side[e.dir(h, p.Pieces[i].Hex)], f.name) {
					all = false
				}
			}
			if all && f.line.Rank() > best.Rank() { // rule 7.44: the best only
				best = f.line
			}
		}
	}
	return best // rule 7.45: the best of all defenders
}

func hasLined(hs hexside, name string) bool {
	for _, f := range hs.lined {
		if f.name == name {
			return true
		}
	}
	return false
}

// fpf adds the defender's final protective fire and ground support (rules
// 8.4, 9.0), by his plans in order.
func (r *resolver) fpf(rep *CombatReport, defs []int, before int) {
	e, b, p := r.e, r.b, r.b.p
	them := p.Phasing.Enemy()
	n := p.Combats
	for _, plan := range r.d.FPF {
		j, ok := e.byID[plan.Protect]
		if !ok || !containsInt(defs, j) {
			continue
		}
		if plan.MinDifferential != nil && before < *plan.MinDifferential {
			continue
		}
		if plan.OnlyBanzai && !rep.Banzai {
			continue
		}
		for _, id := range plan.Artillery {
			i, ok := e.byID[id]
			if !ok || !e.isArtillery(i) || b.side(i) != them || containsInt(defs, i) {
				continue
			}
			pc := p.Pieces[i]
			switch {
			case pc.Where != OnMap, pc.FPF == n: // IW19
			case pc.Adverse > 0 && pc.Adverse >= n-1: // rule 8.41 (a), (b), (d); IW6
			case len(b.enemiesNext(pc.Hex, them)) > 0: // rule 8.41 (c)
			case e.S.Grid.Distance(pc.Hex, p.Pieces[j].Hex) > e.unit(i).Range: // rule 8.42
			default:
				p.Pieces[i].FPF = n
				rep.FPF = append(rep.FPF, id)
				rep.DefenseTotal += e.unit(i).FPF // rule 8.43
			}
		}
		if g := min(max(plan.GSP, 0), p.GSP[them]); g > 0 { // rules 9.0, 9.12; IW5
			p.GSP[them] -= g
			rep.FPFGSP += g
			rep.DefenseTotal += g
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// apply carries out the result (rules 7.62, 8.14, 8.15, 8.33), then the
// Banzai removals (rule 10.0, IW13), then the advances (rule 7.9).
func (r *resolver) apply(rep *CombatReport, a Attack, defs, atts []int) {
	e, b, p := r.e, r.b, r.b.p
	n := p.Combats
	var paths []pathOf // the paths of retreat (rule 7.91)
	var winners []int
	switch rep.Result {
	case D1, D2, D3:
		if rep.Result == D1 && rep.ArtilleryOnly { // rule 8.15, IW4
			rep.Void = true
			break
		}
		hexes := int(rep.Result[1] - '0')
		paths = r.retreatAll(rep, defs, hexes, r.d.Own)
		winners = atts
	case De:
		for _, i := range defs {
			paths = append(paths, pathOf{i, []Hex{p.Pieces[i].Hex}})
			p.Pieces[i].Adverse = n
			b.remove(i)
			rep.Eliminated = append(rep.Eliminated, e.S.Units[i].ID)
		}
		winners = atts
	case A1, A2, A3:
		// Only attackers from adjacent hexes carry it out (rules 8.14, 8.33).
		hexes := int(rep.Result[1] - '0')
		paths = r.retreatAll(rep, atts, hexes, r.o.Own)
		winners = defs
	case Ae:
		for _, i := range atts {
			paths = append(paths, pathOf{i, []Hex{p.Pieces[i].Hex}})
			p.Pieces[i].Adverse = n
			b.remove(i)
			rep.Eliminated = append(rep.Eliminated, e.S.Units[i].ID)
		}
		winners = defs
	}
	if a.Banzai && rep.Result != Ae {
		r.banzai(rep, a, defs, atts)
	}
	if len(paths) == 0 || len(winners) == 0 {
		return
	}
	if p.Phasing == b.side(winners[0]) {
		r.advance(rep, a.Advance, winners, paths)
		return
	}
	if r.d.Advance { // the defender's policy after A results (IW11, IW21)
		var advs []Advance
		used := map[int]bool{}
		for _, path := range paths {
			for _, j := range winners {
				if !used[j] && p.Pieces[j].Where == OnMap {
					used[j] = true
					advs = append(advs, Advance{Unit: e.S.Units[j].ID, To: path.hexes[0]})
					break
				}
			}
		}
		r.advance(rep, advs, winners, paths)
	}
}

// pathOf is a unit's path of retreat: its combat hex, then each hex it
// vacated (rule 7.91).
type pathOf struct {
	unit  int
	hexes []Hex
}

// retreatAll retreats units one after another in their owner's order (IW15).
func (r *resolver) retreatAll(rep *CombatReport, units []int, hexes int, in Instructions) []pathOf {
	e, p := r.e, r.b.p
	order := append([]int(nil), units...)
	rank := func(i int) int {
		for k, id := range in.Order {
			if id == e.S.Units[i].ID {
				return k
			}
		}
		return len(in.Order)
	}
	sort.SliceStable(order, func(x, y int) bool {
		rx, ry := rank(order[x]), rank(order[y])
		if rx != ry {
			return rx < ry
		}
		return e.S.Units[order[x]].ID < e.S.Units[order[y]].ID
	})
	var out []pathOf
	for _, i := range order {
		if p.Pieces[i].Where != OnMap {
			continue
		}
		ret, path := r.retreat(i, hexes, in)
		rep.Retreats = append(rep.Retreats, ret)
		if ret.Eliminated {
			rep.Eliminated = append(rep.Eliminated, e.S.Units[i].ID)
		}
		out = append(out, pathOf{i, path})
	}
	return out
}

// advance moves the victorious units along the paths of retreat (rules
// 7.91-7.96, IW11). An advance that cannot be made is left out and said so
// in the report.
func (r *resolver) advance(rep *CombatReport, advs []Advance, winners []int, paths []pathOf) {
	e, b, p := r.e, r.b, r.b.p
	n := p.Combats
	for _, adv := range advs {
		i, ok := e.byID[adv.Unit]
		if !ok || !containsInt(winners, i) || p.Pieces[i].Where != OnMap || p.Pieces[i].Advanced == n {
			rep.Unmade = append(rep.Unmade, adv) // rule 7.94; removed or eliminated units stay
			continue
		}
		ok = false
		for _, path := range paths {
			for k, h := range path.hexes {
				if h != adv.To {
					continue
				}
				free := b.at(h) < 0
				if d := e.dir(p.Pieces[i].Hex, path.hexes[0]); d >= 0 && e.cells[e.index(p.Pieces[i].Hex)].side[d].prohibited {
					free = false // IW7: not across a prohibited hexside
				}
				for _, g := range path.hexes[:k] { // rule 7.95: along the path only
					if at := b.at(g); at >= 0 && b.side(at) != b.side(i) {
						free = false
					}
				}
				if free && !ok {
					ok = true
					b.put(i, h)
					p.Pieces[i].Advanced = n // rule 7.96
					rep.Advances = append(rep.Advances, adv)
				}
			}
		}
		if !ok {
			rep.Unmade = append(rep.Unmade, adv)
		}
	}
}
