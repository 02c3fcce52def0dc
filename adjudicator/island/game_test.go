package island

import (
	"bytes"
	"reflect"
	"testing"
)

// frontScenario: ten U.S. units in column 4 facing ten Japanese in column
// 5, guns behind each line, jungle and a river on part of the front, and
// ground support for both sides; the U.S. set up in an area.
func frontScenario() *Scenario {
	s := &Scenario{
		Name: "front", Invented: true,
		Grid:           Grid{Columns: 10, Rows: 10, Shifted: ShiftEven},
		DefaultTerrain: "clear",
		Terrain:        map[Hex]string{{5, 3}: "jungle", {5, 4}: "jungle", {5, 8}: "town", {3, 6}: "broken"},
		Hexsides:       map[Pair][]string{},
		Key:            testKey(),
		Kinds:          testKinds(),
		FirstPlayer:    US,
		GameTurns:      3,
		Areas:          map[string][]Hex{"beach": nil},
		GroundSupport:  []Support{{Turn: 1, Side: US, Points: 6}, {Turn: 1, Side: Japan, Points: 2}, {Turn: 2, Side: US, Points: 4}},
	}
	for r := 1; r <= 10; r++ {
		s.Hexsides[MakePair(Hex{4, r}, Hex{5, r})] = []string{"river"}
		s.Areas["beach"] = append(s.Areas["beach"], Hex{4, r}, Hex{3, r})
	}
	for r := 1; r <= 10; r++ {
		us := inf(hexID("u", r), US, 3+r%3, 3, 3)
		jp := inf(hexID("j", r), Japan, 2+r%2, 3+r%3, 3)
		if r == 5 {
			us = arm("ut", US, 5, 4, 5)
			jp = Unit{ID: "je", Side: Japan, Kind: "engineer", Attack: 3, Defense: 2, Movement: 3}
		}
		s.Units = append(s.Units, us, jp)
		s.Setup.Placements = append(s.Setup.Placements,
			Placement{Unit: us.ID, Area: "beach"}, Placement{Unit: jp.ID, Hex: &Hex{5, r}})
	}
	for _, r := range []int{3, 8} {
		ug := gun(hexID("ug", r), US, 4, 3, 4, 1, 1)
		jg := gun(hexID("jg", r), Japan, 3, 3, 4, 1, 1)
		s.Units = append(s.Units, ug, jg)
		s.Setup.Placements = append(s.Setup.Placements, Placement{Unit: ug.ID, Hex: &Hex{2, r}}, Placement{Unit: jg.ID, Hex: &Hex{7, r}})
	}
	s.Units = append(s.Units, inf("u11", US, 4, 4, 3))
	s.Reinforcements = []Reinforcement{{Turn: 2, Side: US, Units: []string{"u11"}, Entry: []Hex{{1, 5}}}}
	s.Victory = Victory{
		Scores:   []Score{{Side: Japan, Count: CountHexes, Points: 1, Hexes: []Hex{{5, 3}, {5, 4}, {5, 8}}, Held: HeldControl}, {Side: US, Count: CountEliminated, Points: 1}},
		Outcomes: []Outcome{{Winner: Japan, When: Condition{Side: Japan, Op: ">=", Value: 3}}, {Winner: US, Level: "marginal", When: Condition{Side: US, Minus: Japan, Op: ">", Value: 0}}},
		Owner:    map[Hex]Side{{5, 3}: Japan, {5, 4}: Japan, {5, 8}: Japan},
	}
	return s
}

func hexID(prefix string, r int) string { return prefix + string(rune('a'+r-1)) }

// attacksFor gives legal attack orders for the position: every duty done
// (rules 7.11, 7.12), spare guns barraging and all ground support spent.
func attacksFor(e *Engine, p Position) []Attack {
	b := e.board(&p)
	us := p.Phasing
	var attacks []Attack
	in := map[int]int{}       // phasing unit -> its attack
	attacked := map[int]int{} // enemy unit -> its attack
	for i, pc := range p.Pieces {
		if pc.Where != OnMap || b.side(i) != us {
			continue
		}
		enemies := b.enemiesNext(pc.Hex, us)
		if len(enemies) == 0 {
			continue
		}
		k := -1
		for _, j := range enemies {
			if _, ok := attacked[j]; !ok {
				k = len(attacks)
				attacks = append(attacks, Attack{Defenders: []string{e.S.Units[j].ID}})
				attacked[j] = k
				break
			}
		}
		if k < 0 { // every neighbour is taken: join the attack on the first
			k = attacked[enemies[0]]
		}
		attacks[k].Attackers = append(attacks[k].Attackers, e.S.Units[i].ID)
		in[i] = k
	}
	// Enemies no attack has taken yet: join one attacker's attack if it
	// attacks alone, or take that attacker out of a larger one.
	for j, pc := range p.Pieces {
		if _, ok := attacked[j]; ok || pc.Where != OnMap || b.side(j) == us {
			continue
		}
		near := b.enemiesNext(pc.Hex, b.side(j))
		if len(near) == 0 {
			continue
		}
		x := near[0]
		k := in[x]
		if len(attacks[k].Attackers) == 1 {
			attacks[k].Defenders = append(attacks[k].Defenders, e.S.Units[j].ID)
			attacked[j] = k
			continue
		}
		id := e.S.Units[x].ID
		var keep []string
		for _, a := range attacks[k].Attackers {
			if a != id {
				keep = append(keep, a)
			}
		}
		attacks[k].Attackers = keep
		in[x] = len(attacks)
		attacked[j] = len(attacks)
		attacks = append(attacks, Attack{Defenders: []string{e.S.Units[j].ID}, Attackers: []string{id}})
	}
	for i, pc := range p.Pieces {
		if pc.Where != OnMap || b.side(i) != us || !e.isArtillery(i) || len(b.enemiesNext(pc.Hex, us)) > 0 {
			continue
		}
		for k := range attacks {
			j := e.byID[attacks[k].Defenders[0]]
			if e.S.Grid.Distance(pc.Hex, p.Pieces[j].Hex) <= e.unit(i).Range {
				attacks[k].Barrage = append(attacks[k].Barrage, e.S.Units[i].ID)
				break
			}
		}
	}
	if len(attacks) > 0 {
		attacks[0].GSP = p.GSP[us]
	}
	if us == Japan {
		for k := range attacks {
			for _, id := range attacks[k].Attackers {
				if e.isFoot(e.byID[id]) && k%2 == 0 {
					attacks[k].Banzai = true
				}
			}
		}
	}
	return attacks
}

// hashDice rolls from the die's purpose, like a seeded source.
type hashDice uint64

func (s hashDice) Roll(d Die) int {
	x := uint64(s) ^ uint64(d.Turn)<<40 ^ uint64(d.Combat)<<20 ^ uint64(d.Attack)
	if d.Side == Japan {
		x ^= 1 << 60
	}
	x += 0x9e3779b97f4a7c15 // splitmix64
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return int(x%6) + 1
}

// deployed starts the front scenario with the U.S. on the beach column 4.
func deployed(t testing.TB) (*Engine, Position) {
	e := New(frontScenario())
	p, _ := e.Start()
	if p.Phase != PhaseSetup || p.Phasing != US {
		t.Fatalf("start: %s", p)
	}
	place := map[string]Hex{}
	for r := 1; r <= 10; r++ {
		id := hexID("u", r)
		if r == 5 {
			id = "ut"
		}
		place[id] = Hex{4, r}
	}
	p, _, ps := e.Deploy(p, place)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	return e, p
}

func TestSetUpInAreas(t *testing.T) { // rule 3.0
	e := New(frontScenario())
	p, _ := e.Start()
	bad := map[string]Hex{"ua": {9, 9}}
	if _, _, ps := e.Deploy(p, bad); len(ps) < 2 { // off the beach, and nine units unplaced
		t.Fatalf("bad set-up: %v", ps)
	}
	_, p = deployed(t)
	if p.Phase != PhaseMovement || p.Turn != 1 || p.Phasing != US || p.GSP[US] != 6 {
		t.Fatalf("after set-up: %s, GSP %v", p, p.GSP)
	}
}

// playGame plays the front scenario to its end with attacksFor.
func playGame(t testing.TB, seed hashDice) (Position, []Event) {
	e, p := deployed(t)
	var all []Event
	for p.Phase != PhaseOver {
		var o Orders
		if p.Phasing == US && p.Turn == 2 {
			o.Moves = []Move{{Unit: "u11", Path: []Hex{{1, 5}}}}
		}
		q, evs, ps := e.Move(p, o)
		if len(ps) > 0 {
			t.Fatalf("%s: %v", p, ps)
		}
		o.Attacks = attacksFor(e, q)
		d := Defence{Advance: true, FPF: []FPFPlan{}}
		for _, pc := range q.Pieces {
			if pc.Where == OnMap && e.S.Units[e.byID[pc.ID]].Side != q.Phasing {
				d.FPF = append(d.FPF, FPFPlan{Protect: pc.ID, Artillery: []string{"uga", "ugc", "ugh", "jgc", "jgh"}, GSP: 1})
			}
		}
		r, evs2, ps := e.Combat(q, o, d, seed)
		if len(ps) > 0 {
			t.Fatalf("%s: %v\n%+v", q, ps, o.Attacks)
		}
		all = append(all, evs...)
		all = append(all, evs2...)
		p = r
	}
	return p, all
}

func TestWholeGameIsDeterministicAndRoundTrips(t *testing.T) {
	p1, ev1 := playGame(t, 7)
	p2, ev2 := playGame(t, 7)
	b1, _ := p1.Marshal()
	b2, _ := p2.Marshal()
	if !bytes.Equal(b1, b2) || !reflect.DeepEqual(ev1, ev2) {
		t.Fatal("the same orders and dice gave two games")
	}
	e := New(frontScenario())
	q, err := e.Unmarshal(b1)
	if err != nil {
		t.Fatal(err)
	}
	b3, _ := q.Marshal()
	if !bytes.Equal(b1, b3) {
		t.Fatalf("round trip changed the position:\n%s\n%s", b1, b3)
	}
	if p1.Phase != PhaseOver || p1.Turn != 3 {
		t.Fatalf("game ended at %s", p1)
	}
	combats := 0
	for _, ev := range ev1 {
		if ev.Kind == EvCombat {
			combats++
		}
	}
	if combats < 10 {
		t.Fatalf("only %d combats in three Game-Turns", combats)
	}
	v := e.Verdict(p1)
	elim := 0
	for i, pc := range p1.Pieces {
		if pc.Where == Eliminated && e.S.Units[i].Side == Japan {
			elim++
		}
	}
	if v.Points[US] != elim {
		t.Fatalf("verdict %v, %d Japanese units eliminated", v, elim)
	}
	if _, err := e.Unmarshal([]byte(`{"pieces":[]}`)); err == nil {
		t.Fatal("a position without the scenario's pieces was accepted")
	}
}

func BenchmarkGameTurn(b *testing.B) {
	e, p := deployed(b)
	for b.Loop() {
		q := p
		for range 2 {
			m, _, ps := e.Move(q, Orders{})
			if len(ps) > 0 {
				b.Fatal(ps)
			}
			r, _, ps := e.Combat(m, Orders{Attacks: attacksFor(e, m)}, Defence{Advance: true}, hashDice(3))
			if len(ps) > 0 {
				b.Fatal(ps)
			}
			q = r
		}
	}
}
