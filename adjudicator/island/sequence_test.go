package island

import "testing"

// A real attack at each line's two edges, dice 1 and 6 (rules 7.43, 7.61;
// IW1): the defender's terrain picks the line, the differential the column.
func TestCombatAtEachLinesEdges(t *testing.T) {
	type want struct {
		col        int
		die1, die6 Result
	}
	cases := []struct {
		line    Line
		terrain string
		river   bool
		low     int // the line's first heading
		last    want
	}{
		{LineClear, "clear", false, -7, want{12, De, D1}},
		{LineRiver, "clear", true, -5, want{11, De, D1}},
		{LineBroken, "broken", false, -3, want{10, D3, D1}},
		{LineRough, "jungle", false, -2, want{9, D2, NE}},
	}
	for _, c := range cases {
		for _, diff := range []int{c.low - 1, c.low, 10, 11} {
			w := want{1, A1, Ae}
			if diff >= 10 {
				w = c.last
			}
			for _, die := range []int{1, 6} {
				units := []Unit{inf("u1", US, 12+diff, 3, 4), inf("j1", Japan, 1, 12, 4)}
				sides := map[string]string{}
				if c.river {
					sides["0205-0204"] = "river"
				}
				g := setup(t, units, map[string]string{"u1": "0205", "j1": "0204"}, map[string]string{"0204": c.terrain}, sides, US).combat()
				r := report(t, g.fight(Orders{Attacks: []Attack{attack(ids("j1"), ids("u1"))}}, Defence{}, rolls(die)), 0)
				res := w.die1
				if die == 6 {
					res = w.die6
				}
				if r.Line != c.line || r.Differential != diff || r.Column != w.col || r.Result != res {
					t.Errorf("%s %+d die %d: line %s column %d %s, want column %d %s", c.line, diff, die, r.Line, r.Column, r.Result, w.col, res)
				}
			}
		}
	}
}

func TestSequenceOfPlay(t *testing.T) { // rule 4.1
	units := []Unit{inf("u1", US, 3, 3, 4), inf("j1", Japan, 3, 3, 4)}
	g := setup(t, units, map[string]string{"u1": "0202", "j1": "0808"}, nil, nil, US)
	if _, _, ps := g.e.Combat(g.p, Orders{}, Defence{}, rolls()); !hasRule(ps, "4.1") {
		t.Fatalf("combat in a Movement Phase: %v", ps)
	}
	if _, _, ps := g.e.Move(g.p, Orders{Moves: []Move{{Unit: "j1", Path: path(t, "0807")}}}); !hasRule(ps, "5.11") {
		t.Fatalf("moving the enemy's unit: %v", ps)
	}
	want := []struct {
		turn int
		side Side
	}{{1, Japan}, {2, US}, {2, Japan}, {3, US}, {3, Japan}}
	for _, w := range want {
		q, evs, ps := g.e.PlayerTurn(g.p, Orders{}, Defence{}, rolls())
		if len(ps) > 0 {
			t.Fatal(ps)
		}
		g.p = q
		if q.Turn != w.turn || q.Phasing != w.side || q.Phase != PhaseMovement || evs[len(evs)-1].Kind != EvPhase {
			t.Fatalf("after a Player-Turn: %s, want Game-Turn %d %s", q, w.turn, w.side)
		}
	}
	q, evs, _ := g.e.PlayerTurn(g.p, Orders{}, Defence{}, rolls())
	if q.Phase != PhaseOver || evs[len(evs)-1].Kind != EvGameOver {
		t.Fatalf("after the last Player-Turn: %s", q)
	}
	if _, _, ps := g.e.Move(q, Orders{}); !hasRule(ps, "4.1") {
		t.Fatalf("moving after the end: %v", ps)
	}
}

func TestVictory(t *testing.T) { // rule 3.0
	units := []Unit{inf("u1", US, 3, 3, 4), inf("j1", Japan, 3, 3, 4), inf("j2", Japan, 3, 3, 4)}
	g := setup(t, units, map[string]string{"u1": "0202", "j1": "0808", "j2": "0606"}, nil, nil, US)
	g.s.Victory = Victory{
		Scores: []Score{
			{Side: US, Count: CountHexes, Points: 5, Hexes: []Hex{{2, 3}}},                       // occupied at the end
			{Side: US, Count: CountHexes, Points: 2, Hexes: []Hex{{2, 2}}, Turn: 1},              // at the end of Game-Turn 1
			{Side: Japan, Count: CountHexes, Points: 1, Hexes: []Hex{{2, 4}}, Held: HeldControl}, // last in it
			{Side: US, Count: CountEliminated, Points: 3, Units: []string{"j2"}},
		},
		Outcomes: []Outcome{
			{Winner: US, Level: "decisive", When: Condition{All: []Condition{{Side: US, Op: ">=", Value: 10}, {Side: Japan, Op: "==", Value: 0}}}},
			{Winner: US, Level: "marginal", When: Condition{Side: US, Minus: Japan, Op: ">", Value: 0}},
			{Winner: Japan, When: Condition{Any: []Condition{{Side: Japan, Op: ">", Value: 0}}}},
		},
		Owner: map[Hex]Side{{2, 4}: Japan},
	}
	g.e = New(g.s)
	g.p, _ = g.e.Start()
	if v := g.e.Verdict(g.p); v.Winner != Japan || v.Points[Japan] != 1 || v.Points[US] != 0 {
		t.Fatalf("at the start: %v", v)
	}
	// Game-Turn 1 ends with u1 in 0202: 2 points banked.
	q, _, ps := g.e.PlayerTurn(g.p, Orders{}, Defence{}, rolls())
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	q, _, _ = g.e.PlayerTurn(q, Orders{}, Defence{}, rolls())
	if q.Banked[US] != 2 || q.Turn != 2 {
		t.Fatalf("banked %v at %s", q.Banked, q)
	}
	// u1 passes through 0204 (the U.S. held it last) and stops in 0203.
	q, _, ps = g.e.Move(q, Orders{Moves: []Move{{Unit: "u1", Path: path(t, "0203 0204 0203")}}})
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if v := g.e.Verdict(q); v.Winner != US || v.Level != "marginal" || v.Points[US] != 7 || v.Points[Japan] != 0 {
		t.Fatalf("u1 in 0203, 0204 last held by the U.S.: %v", v)
	}
	q.Pieces[g.e.byID["j2"]].Where = Eliminated
	if v := g.e.Verdict(q); v.Level != "decisive" || v.Points[US] != 10 {
		t.Fatalf("j2 eliminated: %v", v)
	}
}
