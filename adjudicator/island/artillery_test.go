package island

import "testing"

func TestBarrage(t *testing.T) { // rules 8.11-8.15; IW4
	units := []Unit{gun("g1", US, 5, 4, 4, 1, 2), inf("j1", Japan, 2, 2, 4)}
	at := map[string]string{"g1": "0208", "j1": "0204"}
	barrage := Orders{Attacks: []Attack{{Defenders: ids("j1"), Barrage: ids("g1")}}}
	// +3 on clear, column 8: die 1 is D2, die 3 is D1 (void), die 6 NE.
	g := setup(t, units, at, nil, nil, US).combat()
	evs := g.fight(barrage, Defence{}, rolls(3))
	if r := report(t, evs, 0); r.Result != D1 || !r.Void || !r.ArtilleryOnly || g.at("j1") != "0204" {
		t.Fatalf("D1 from a barrage alone: %+v, j1 %s", r, g.at("j1"))
	}
	g = setup(t, units, at, nil, nil, US).combat()
	evs = g.fight(barrage, Defence{}, rolls(1))
	if r := report(t, evs, 0); r.Result != D2 || r.Void || g.at("j1") == "0204" {
		t.Fatalf("D2 from a barrage alone: %+v, j1 %s", r, g.at("j1"))
	}
	// Barraging artillery never suffers a result (rule 8.14).
	strong := []Unit{gun("g1", US, 1, 4, 4, 1, 2), inf("j1", Japan, 2, 12, 4)}
	g = setup(t, strong, at, nil, nil, US).combat()
	evs = g.fight(barrage, Defence{}, rolls(6))
	if r := report(t, evs, 0); r.Result != Ae || g.at("g1") != "0208" {
		t.Fatalf("Ae against a barrage: %+v, g1 %s", r, g.at("g1"))
	}
	// Out of range (rule 8.12 counts the target hex, not the gun's).
	short := []Unit{gun("g1", US, 5, 4, 3, 1, 2), inf("j1", Japan, 2, 2, 4)}
	g = setup(t, short, at, nil, nil, US).combat()
	if _, _, ps := g.e.Combat(g.p, barrage, Defence{}, rolls(1)); !hasRule(ps, "8.11") {
		t.Fatalf("range 3 at 4 hexes: %v", ps)
	}
}

func TestAdjacentArtilleryAloneSuffersAResults(t *testing.T) { // rule 8.33, IW4
	units := []Unit{gun("g1", US, 1, 4, 3, 1, 2), inf("j1", Japan, 2, 9, 4)}
	g := setup(t, units, map[string]string{"g1": "0205", "j1": "0204"}, nil, nil, US).combat()
	evs := g.fight(Orders{Attacks: []Attack{attack(ids("j1"), ids("g1"))}}, Defence{}, rolls(1)) // -8: A1
	r := report(t, evs, 0)
	if r.Result != A1 || len(r.Retreats) != 1 || g.at("g1") == "0205" {
		t.Fatalf("A1 on adjacent artillery: %+v, g1 %s", r, g.at("g1"))
	}
	if pc, _ := g.e.Piece(g.p, "g1"); pc.Adverse != 1 {
		t.Fatalf("g1's adverse result not recorded: %+v", pc)
	}
}

// fpfGame: u1 (attack 8) next to j1 (defense 2) in 0204; Japanese gun jg
// (FPF 4, range 3) in 0201, next to nobody.
func fpfGame(t *testing.T, extra ...Unit) *game {
	units := append([]Unit{inf("u1", US, 8, 3, 4), inf("j1", Japan, 2, 2, 4), gun("jg", Japan, 3, 4, 3, 1, 2)}, extra...)
	at := map[string]string{"u1": "0205", "j1": "0204", "jg": "0201", "u9": "0101", "g1": "0208"}
	return setup(t, units, at, nil, nil, US).combat()
}

func TestFinalProtectiveFire(t *testing.T) { // rules 8.41-8.45; IW6, IW19
	plan := Defence{FPF: []FPFPlan{{Protect: "j1", Artillery: ids("jg")}}}
	on := Orders{Attacks: []Attack{attack(ids("j1"), ids("u1"))}}
	g := fpfGame(t)
	evs := g.fight(on, plan, rolls(6))
	if r := report(t, evs, 0); r.DefenseTotal != 6 || r.Differential != 2 || len(r.FPF) != 1 {
		t.Fatalf("with FPF: %+v", r)
	}
	if pc, _ := g.e.Piece(g.p, "jg"); pc.FPF != 1 || g.at("jg") != "0201" {
		t.Fatalf("jg after FPF: %+v", pc) // rule 8.44: untouched by the result
	}

	// The plan's condition on the differential before FPF (+6).
	seven := 7
	g = fpfGame(t)
	evs = g.fight(on, Defence{FPF: []FPFPlan{{Protect: "j1", Artillery: ids("jg"), MinDifferential: &seven}}}, rolls(6))
	if r := report(t, evs, 0); len(r.FPF) != 0 || r.DefenseTotal != 2 {
		t.Fatalf("FPF only from +7 given at +6: %+v", r)
	}

	// Not against artillery alone (rule 8.45).
	g = fpfGame(t, gun("g1", US, 5, 4, 4, 1, 2))
	g.p.Pieces[g.e.byID["u1"]].Where = Eliminated // leave the gun alone in range
	evs = g.fight(Orders{Attacks: []Attack{{Defenders: ids("j1"), Barrage: ids("g1")}}}, plan, rolls(6))
	if r := report(t, evs, 0); len(r.FPF) != 0 {
		t.Fatalf("FPF against a barrage: %+v", r)
	}

	// Not from a gun next to an enemy (8.41 c).
	g = fpfGame(t, inf("u9", US, 1, 1, 4))
	o := Orders{Attacks: []Attack{attack(ids("j1"), ids("u1")), attack(ids("jg"), ids("u9"))}}
	evs = g.fight(o, plan, rolls(6, 6))
	if r := report(t, evs, 0); len(r.FPF) != 0 {
		t.Fatalf("FPF from a gun next to u9: %+v", r)
	}

	// Not after an adverse result in the Combat Phase before (8.41 b).
	g = fpfGame(t)
	g.p.Combats = 5
	g.p.Pieces[g.e.byID["jg"]].Adverse = 4
	evs = g.fight(on, plan, rolls(6))
	if r := report(t, evs, 0); len(r.FPF) != 0 {
		t.Fatalf("FPF from a gun beaten in the phase before: %+v", r)
	}
	g = fpfGame(t)
	g.p.Combats = 5
	g.p.Pieces[g.e.byID["jg"]].Adverse = 3
	evs = g.fight(on, plan, rolls(6))
	if r := report(t, evs, 0); len(r.FPF) != 1 {
		t.Fatalf("no FPF from a gun beaten two phases before: %+v", r)
	}
}

func TestFPFOncePerPhase(t *testing.T) { // IW19
	units := []Unit{inf("u1", US, 8, 3, 4), inf("u2", US, 8, 3, 4), inf("j1", Japan, 2, 2, 4), inf("j2", Japan, 2, 2, 4), gun("jg", Japan, 3, 4, 9, 1, 2)}
	at := map[string]string{"u1": "0205", "j1": "0204", "u2": "0605", "j2": "0604", "jg": "0401"}
	g := setup(t, units, at, nil, nil, US).combat()
	plan := Defence{FPF: []FPFPlan{{Protect: "j1", Artillery: ids("jg")}, {Protect: "j2", Artillery: ids("jg")}}}
	evs := g.fight(Orders{Attacks: []Attack{attack(ids("j1"), ids("u1")), attack(ids("j2"), ids("u2"))}}, plan, rolls(6, 6))
	if a, b := report(t, evs, 0), report(t, evs, 1); len(a.FPF) != 1 || len(b.FPF) != 0 {
		t.Fatalf("FPF %v then %v", a.FPF, b.FPF)
	}
}

func TestGroundSupport(t *testing.T) { // rules 9.0-9.14; IW5
	units := []Unit{inf("u1", US, 4, 3, 4), inf("j1", Japan, 2, 2, 4), inf("j2", Japan, 2, 2, 4)}
	g := setup(t, units, map[string]string{"u1": "0205", "j1": "0204", "j2": "0808"}, nil, nil, US)
	g.s.GroundSupport = []Support{{Turn: 1, Side: US, Points: 5}, {Turn: 1, Side: Japan, Points: 3}, {Turn: 2, Side: US, Points: 1}}
	g.e = New(g.s)
	g.p, _ = g.e.Start()
	g.combat()
	if g.p.GSP[US] != 5 || g.p.GSP[Japan] != 3 {
		t.Fatalf("GSP at the start: %v", g.p.GSP)
	}
	a := attack(ids("j1"), ids("u1"))
	a.GSP = 3
	far := Attack{Defenders: ids("j2"), GSP: 3} // unlimited range (rule 9.13)
	if _, _, ps := g.e.Combat(g.p, Orders{Attacks: []Attack{a, far}}, Defence{}, rolls(6, 6)); !hasRule(ps, "9.12") {
		t.Fatalf("6 of 5 points: %v", ps)
	}
	far.GSP = 2
	d := Defence{FPF: []FPFPlan{{Protect: "j1", GSP: 2}}}
	evs := g.fight(Orders{Attacks: []Attack{a, far}}, d, rolls(6, 6))
	r := report(t, evs, 0)
	if r.AttackTotal != 7 || r.DefenseTotal != 4 || r.FPFGSP != 2 {
		t.Fatalf("ground support: %+v", r)
	}
	if r := report(t, evs, 1); r.AttackTotal != 2 || !r.ArtilleryOnly {
		t.Fatalf("ground support alone: %+v", r)
	}
	if g.p.GSP[US] != 0 || g.p.GSP[Japan] != 1 {
		t.Fatalf("GSP left: %v", g.p.GSP)
	}
	// The Japanese Player-Turn, then Game-Turn 2: the U.S. gets 1, the
	// Japanese point left is lost (rule 9.14).
	q, _, ps := g.e.PlayerTurn(g.p, Orders{Attacks: []Attack{attack(ids("u1"), ids("j1"))}}, Defence{}, rolls(6))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if q.Turn != 2 || q.GSP[US] != 1 || q.GSP[Japan] != 0 {
		t.Fatalf("Game-Turn 2: %s, GSP %v", q, q.GSP)
	}
}

func TestBanzai(t *testing.T) { // rules 10.0-10.13; IW12, IW13
	units := []Unit{inf("u1", US, 3, 3, 4), inf("j1", Japan, 3, 2, 4), inf("j2", Japan, 2, 2, 4),
		Unit{ID: "j3", Side: Japan, Kind: "engineer", Attack: 1, Defense: 1, Movement: 3}, arm("jt", Japan, 4, 4, 4),
		gun("jg", Japan, 2, 2, 5, 1, 2)}
	at := map[string]string{"u1": "0205", "j1": "0204", "j2": "0305", "j3": "0105", "jt": "0106", "jg": "0201"}
	banzai := func(removals ...string) Orders {
		return Orders{Attacks: []Attack{{Defenders: ids("u1"), Attackers: ids("j1", "j2", "j3", "jt"), Barrage: ids("jg"), Banzai: true, Removals: removals}}}
	}
	g := setup(t, units, at, nil, nil, Japan).combat()
	evs := g.fight(banzai(), Defence{}, rolls(6))
	r := report(t, evs, 0)
	// 2×(3+2+1) + 4 + 2 = 18 against 3: +15, column 12, die 6: D1.
	if r.AttackTotal != 18 || r.Result != D1 {
		t.Fatalf("Banzai: %+v", r)
	}
	// The price is u1's 3: j1 alone pays it exactly.
	if len(r.Removals) != 1 || r.Removals[0] != "j1" || g.at("j1") != "elim" {
		t.Fatalf("removals %v", r.Removals)
	}
	g = setup(t, units, at, nil, nil, Japan).combat()
	evs = g.fight(banzai("j2", "j3"), Defence{}, rolls(6))
	if r := report(t, evs, 0); len(r.Removals) != 2 || g.at("j1") != "0204" || g.at("j2") != "elim" || g.at("j3") != "elim" {
		t.Fatalf("named removals %v", r.Removals)
	}
	// A price above the foot's 6: all of them, then the armor; never the
	// barraging gun.
	big := append([]Unit(nil), units...)
	big[0] = inf("u1", US, 3, 7, 4)
	g = setup(t, big, at, nil, nil, Japan).combat()
	evs = g.fight(banzai(), Defence{}, rolls(6))
	if r := report(t, evs, 0); len(r.Removals) != 4 || g.at("jt") != "elim" || g.at("jg") != "0201" {
		t.Fatalf("removals %v, jg %s", r.Removals, g.at("jg"))
	}
	// Only the Japanese, and only with infantry or engineers.
	g = setup(t, units, at, nil, nil, Japan).combat()
	if _, _, ps := g.e.Combat(g.p, Orders{Attacks: []Attack{{Defenders: ids("u1"), Attackers: ids("j1", "j2", "j3", "jt")}}}, Defence{}, rolls(6)); ps != nil {
		t.Fatalf("plain attack: %v", ps)
	}
	solo := Orders{Attacks: []Attack{{Defenders: ids("u1"), Attackers: ids("jt", "j1", "j2", "j3"), Banzai: true}}}
	solo.Attacks[0].Attackers = ids("jt")
	if _, _, ps := g.e.Combat(g.p, solo, Defence{}, rolls(6)); !hasRule(ps, "10.0") {
		t.Fatalf("Banzai by armor alone: %v", ps)
	}
	us := setup(t, []Unit{inf("u1", US, 3, 3, 4), inf("j1", Japan, 3, 2, 4)}, map[string]string{"u1": "0205", "j1": "0204"}, nil, nil, US).combat()
	if _, _, ps := us.e.Combat(us.p, Orders{Attacks: []Attack{{Defenders: ids("j1"), Attackers: ids("u1"), Banzai: true}}}, Defence{}, rolls(6)); !hasRule(ps, "10.0") {
		t.Fatalf("U.S. Banzai: %v", ps)
	}
	// After Ae nothing more is removed (IW13).
	strong := append([]Unit(nil), units...)
	strong[0] = inf("u1", US, 3, 40, 4)
	g = setup(t, strong, at, nil, nil, Japan).combat()
	evs = g.fight(banzai(), Defence{}, rolls(6))
	if r := report(t, evs, 0); r.Result != Ae || len(r.Removals) != 0 || g.at("jg") != "0201" {
		t.Fatalf("Ae: %+v", r)
	}
}
