package autoplay

import "github.com/attu-pbem/attu/adjudicator/island"

// view is the position seen by a player: who is where.
type view struct {
	e   *island.Engine
	p   island.Position
	occ map[island.Hex]int
}

func newView(e *island.Engine, p island.Position) *view {
	v := &view{e: e, p: p, occ: map[island.Hex]int{}}
	for i, pc := range p.Pieces {
		if pc.Where == island.OnMap {
			v.occ[pc.Hex] = i
		}
	}
	return v
}

func (v *view) unit(i int) island.Unit { return v.e.S.Units[i] }

func (v *view) class(i int) island.Class { return v.e.S.ClassOf(v.e.S.Units[i]) }

// enemiesNext gives the enemy units next to piece i.
func (v *view) enemiesNext(i int) []int {
	var out []int
	for _, n := range v.e.S.Grid.Neighbours(v.p.Pieces[i].Hex) {
		if j, ok := v.occ[n]; ok && v.unit(j).Side != v.unit(i).Side {
			out = append(out, j)
		}
	}
	return out
}

// mine gives the pieces of side s on the map.
func (v *view) mine(s island.Side) []int {
	var out []int
	for i, pc := range v.p.Pieces {
		if pc.Where == island.OnMap && v.unit(i).Side == s {
			out = append(out, i)
		}
	}
	return out
}

// Attacks gives random legal combat orders: every unit next to an enemy
// attacks and every enemy next to one is attacked (rules 7.11, 7.12), each
// attack's attackers next to all its defenders (rule 7.23); guns out of
// contact barrage at random, ground support is spread at random, the
// Japanese declare Banzai now and then, winners try random advances.
func Attacks(e *island.Engine, p island.Position, r *Rand) []island.Attack {
	v := newView(e, p)
	us := p.Phasing
	var attacks []island.Attack
	in := map[int]int{}       // attacker -> attack
	attacked := map[int]int{} // defender -> attack
	front := v.mine(us)
	shuffle(r, front)
	for _, i := range front {
		enemies := v.enemiesNext(i)
		if len(enemies) == 0 {
			continue
		}
		shuffle(r, enemies)
		k := -1
		for _, j := range enemies {
			if _, ok := attacked[j]; !ok {
				k = len(attacks)
				attacks = append(attacks, island.Attack{Defenders: []string{v.unit(j).ID}})
				attacked[j] = k
				break
			}
		}
		if k < 0 {
			// Every neighbour is taken: join an attack all of whose
			// defenders are next to this unit; one always is, since
			// attacks made here have one defender until the pass below.
			k = attacked[enemies[0]]
		}
		attacks[k].Attackers = append(attacks[k].Attackers, v.unit(i).ID)
		in[i] = k
	}
	// Enemies no attack took yet: join a lone attacker's attack (it is next
	// to every defender of it), or take an attacker out of a larger one.
	for _, j := range v.mine(us.Enemy()) {
		near := v.enemiesNext(j)
		if _, ok := attacked[j]; ok || len(near) == 0 {
			continue
		}
		x := near[r.Intn(len(near))]
		k := in[x]
		if len(attacks[k].Attackers) == 1 {
			attacks[k].Defenders = append(attacks[k].Defenders, v.unit(j).ID)
			attacked[j] = k
			continue
		}
		id := v.unit(x).ID
		var keep []string
		for _, a := range attacks[k].Attackers {
			if a != id {
				keep = append(keep, a)
			}
		}
		attacks[k].Attackers = keep
		in[x], attacked[j] = len(attacks), len(attacks)
		attacks = append(attacks, island.Attack{Defenders: []string{v.unit(j).ID}, Attackers: []string{id}})
	}
	attacks = v.barrages(attacks, attacked, r)
	v.support(attacks, r)
	for k := range attacks {
		v.flourish(&attacks[k], r)
	}
	shuffle(r, attacks)
	return attacks
}

// barrages sends guns out of contact against attacks in range, or alone
// against a single enemy in range (rules 8.11-8.22).
func (v *view) barrages(attacks []island.Attack, attacked map[int]int, r *Rand) []island.Attack {
	g := v.e.S.Grid
	for _, i := range v.mine(v.p.Phasing) {
		if v.class(i) != island.Artillery || len(v.enemiesNext(i)) > 0 || r.chance(3) {
			continue
		}
		h, rng := v.p.Pieces[i].Hex, v.unit(i).Range
		var cands []int
		for k, a := range attacks {
			if len(a.Attackers) == 0 {
				continue
			}
			for _, id := range a.Defenders {
				pc, _ := v.e.Piece(v.p, id)
				if g.Distance(h, pc.Hex) <= rng {
					cands = append(cands, k)
					break
				}
			}
		}
		if len(cands) > 0 && !r.chance(4) {
			k := cands[r.Intn(len(cands))]
			attacks[k].Barrage = append(attacks[k].Barrage, v.unit(i).ID)
			continue
		}
		var targets []int
		for _, j := range v.mine(v.p.Phasing.Enemy()) {
			if _, ok := attacked[j]; !ok && g.Distance(h, v.p.Pieces[j].Hex) <= rng {
				targets = append(targets, j)
			}
		}
		if len(targets) > 0 {
			j := targets[r.Intn(len(targets))]
			attacked[j] = len(attacks)
			attacks = append(attacks, island.Attack{Defenders: []string{v.unit(j).ID}, Barrage: []string{v.unit(i).ID}})
		}
	}
	return attacks
}

// support spends some of the phasing side's ground support on random
// attacks (rules 9.11, 9.12).
func (v *view) support(attacks []island.Attack, r *Rand) {
	if len(attacks) == 0 {
		return
	}
	for range v.p.GSP[v.p.Phasing] {
		if r.chance(2) {
			attacks[r.Intn(len(attacks))].GSP++
		}
	}
}

// flourish adds a Banzai now and then, advances into the defenders' hexes
// and a removal order.
func (v *view) flourish(a *island.Attack, r *Rand) {
	foot := false
	for _, id := range a.Attackers {
		u, _ := v.e.S.Unit(id)
		c := v.e.S.ClassOf(u)
		foot = foot || c == island.Infantry || c == island.Engineer
	}
	if v.p.Phasing == island.Japan && foot && r.chance(3) {
		a.Banzai = true
		if r.chance(2) {
			a.Removals = append([]string(nil), a.Attackers...)
			shuffle(r, a.Removals)
		}
	}
	for _, id := range a.Attackers {
		if len(a.Defenders) > 0 && r.chance(2) {
			pc, _ := v.e.Piece(v.p, a.Defenders[r.Intn(len(a.Defenders))])
			a.Advance = append(a.Advance, island.Advance{Unit: id, To: pc.Hex})
		}
	}
}

// Defence gives the non-phasing side random standing instructions: FPF
// plans for some of its units, sometimes with conditions, retreat and
// displacement wishes, and whether it advances after A results.
func Defence(e *island.Engine, p island.Position, r *Rand) island.Defence {
	v := newView(e, p)
	them := p.Phasing.Enemy()
	var guns []string
	for _, i := range v.mine(them) {
		if v.class(i) == island.Artillery {
			guns = append(guns, v.unit(i).ID)
		}
	}
	d := island.Defence{Advance: r.chance(2), Own: Instructions(e, p, them, r)}
	for _, i := range v.mine(them) {
		if r.chance(2) {
			continue
		}
		plan := island.FPFPlan{Protect: v.unit(i).ID, GSP: r.Intn(3)}
		for _, g := range guns {
			if r.chance(2) {
				plan.Artillery = append(plan.Artillery, g)
			}
		}
		if r.chance(3) {
			m := r.Intn(9) - 2
			plan.MinDifferential = &m
		}
		plan.OnlyBanzai = r.chance(6)
		d.FPF = append(d.FPF, plan)
	}
	shuffle(r, d.FPF)
	return d
}

// Instructions gives random retreat and displacement wishes for side s.
func Instructions(e *island.Engine, p island.Position, s island.Side, r *Rand) island.Instructions {
	v := newView(e, p)
	in := island.Instructions{Retreats: map[string]island.RetreatPlan{}, Displace: map[string][]island.Hex{}}
	g := e.S.Grid
	for _, i := range v.mine(s) {
		id := v.unit(i).ID
		h := p.Pieces[i].Hex
		if r.chance(2) {
			to := island.Hex{Col: 1 + r.Intn(g.Columns), Row: 1 + r.Intn(g.Rows)}
			in.Retreats[id] = island.RetreatPlan{Toward: &to}
		}
		if n := g.Neighbours(h); r.chance(3) && len(n) > 0 {
			in.Displace[id] = []island.Hex{n[r.Intn(len(n))]}
		}
		if r.chance(2) {
			in.Order = append(in.Order, id)
		}
	}
	return in
}
