package island

import (
	"testing"
)

func attack(defs, atts []string) Attack { return Attack{Defenders: defs, Attackers: atts} }

func ids(s ...string) []string { return s }

func TestAttackResolvedAndAdvance(t *testing.T) { // rules 7.0, 7.61, 7.62, 7.9
	units := []Unit{inf("u1", US, 6, 3, 4), inf("j1", Japan, 2, 2, 4)}
	g := setup(t, units, map[string]string{"u1": "0205", "j1": "0204"}, nil, nil, US).combat()
	a := attack(ids("j1"), ids("u1"))
	a.Advance = []Advance{{Unit: "u1", To: hx(t, "0204")}}
	evs := g.fight(Orders{Attacks: []Attack{a}}, Defence{}, rolls(1))
	r := report(t, evs, 0)
	if r.AttackTotal != 6 || r.DefenseTotal != 2 || r.Differential != 4 || r.Line != LineClear || r.Column != 9 || r.Result != D2 {
		t.Fatalf("report %+v", r)
	}
	if len(r.Retreats) != 1 || len(r.Retreats[0].Path) != 2 {
		t.Fatalf("retreats %+v", r.Retreats)
	}
	end := r.Retreats[0].Path[1]
	if g.at("j1") != end.String() || g.s.Grid.Distance(hx(t, "0204"), end) != 2 {
		t.Fatalf("j1 in %s after retreating along %v", g.at("j1"), r.Retreats[0].Path)
	}
	for _, h := range r.Retreats[0].Path { // rule 7.71
		if g.s.Grid.Distance(h, hx(t, "0205")) <= 1 {
			t.Fatalf("j1 retreated into u1's zone at %s", h)
		}
	}
	if g.at("u1") != "0204" || len(r.Advances) != 1 {
		t.Fatalf("u1 in %s, advances %v", g.at("u1"), r.Advances)
	}
	if g.p.Phasing != Japan || g.p.Phase != PhaseMovement {
		t.Fatalf("after the U.S. combat: %s", g.p)
	}
}

func TestAttacksAreMandatory(t *testing.T) { // rules 7.11, 7.12, 8.31; IW10
	units := []Unit{inf("u1", US, 6, 3, 4), gun("g1", US, 4, 4, 3, 1, 2), inf("j1", Japan, 2, 2, 4), inf("j2", Japan, 2, 2, 4)}
	at := map[string]string{"u1": "0205", "g1": "0305", "j1": "0204", "j2": "0208"}
	g := setup(t, units, at, nil, nil, US).combat()
	_, _, ps := g.e.Combat(g.p, Orders{}, Defence{}, rolls())
	if !hasRule(ps, "7.11") || !hasRule(ps, "7.12") || !hasRule(ps, "8.31") {
		t.Fatalf("no attacks: %v", ps)
	}
	// The gun is next to j1: it attacks from its hex, not as a barrage.
	o := Orders{Attacks: []Attack{{Defenders: ids("j1"), Attackers: ids("u1"), Barrage: ids("g1")}}}
	if _, _, ps = g.e.Combat(g.p, o, Defence{}, rolls(3)); !hasRule(ps, "8.32") {
		t.Fatalf("adjacent gun barraging: %v", ps)
	}
	// Every attacker next to every defender (rule 7.23).
	o = Orders{Attacks: []Attack{{Defenders: ids("j1", "j2"), Attackers: ids("u1", "g1")}}}
	if _, _, ps = g.e.Combat(g.p, o, Defence{}, rolls(3)); !hasRule(ps, "7.23") {
		t.Fatalf("attacking a unit not adjacent: %v", ps)
	}
	// Rule 7.14: one attack per defender.
	o = Orders{Attacks: []Attack{attack(ids("j1"), ids("u1")), attack(ids("j1"), ids("g1"))}}
	if _, _, ps = g.e.Combat(g.p, o, Defence{}, rolls(3, 3)); !hasRule(ps, "7.14") {
		t.Fatalf("j1 attacked twice: %v", ps)
	}
	o = Orders{Attacks: []Attack{attack(ids("j1"), ids("u1", "g1"))}}
	if _, _, ps = g.e.Combat(g.p, o, Defence{}, rolls(3)); ps != nil {
		t.Fatalf("u1 and g1 on j1: %v", ps)
	}
}

func TestTerrainLine(t *testing.T) { // rules 7.41-7.45, 8.62; IW3
	units := []Unit{inf("u1", US, 6, 3, 4), inf("u2", US, 6, 3, 4), gun("g1", US, 4, 4, 3, 1, 2),
		inf("j1", Japan, 2, 2, 4), inf("j2", Japan, 2, 2, 4)}
	river := map[string]string{"0205-0204": "river", "0305-0204": "river"}
	cases := []struct {
		name    string
		at      map[string]string
		terrain map[string]string
		a       Attack
		want    Line
	}{
		{"across the river", map[string]string{"u1": "0205", "j1": "0204"}, nil, attack(ids("j1"), ids("u1")), LineRiver},
		{"one attacker not across", map[string]string{"u1": "0205", "u2": "0104", "j1": "0204"}, nil, attack(ids("j1"), ids("u1", "u2")), LineClear},
		{"adjacent gun across or not", map[string]string{"u1": "0205", "g1": "0104", "j1": "0204"}, nil, attack(ids("j1"), ids("u1", "g1")), LineRiver},
		{"guns alone: no hexside", map[string]string{"g1": "0205", "j1": "0204"}, nil, attack(ids("j1"), ids("g1")), LineClear},
		{"rough behind the river is rough", map[string]string{"u1": "0205", "j1": "0204"}, map[string]string{"0204": "jungle"}, attack(ids("j1"), ids("u1")), LineRough},
		{"the best of two defenders", map[string]string{"u1": "0106", "j1": "0105", "j2": "0206"}, map[string]string{"0206": "town"}, attack(ids("j1", "j2"), ids("u1")), LineBroken},
	}
	for _, c := range cases {
		var us []Unit
		for _, u := range units {
			if _, ok := c.at[u.ID]; ok {
				us = append(us, u)
			}
		}
		g := setup(t, us, c.at, c.terrain, river, US).combat()
		evs := g.fight(Orders{Attacks: []Attack{c.a}}, Defence{}, rolls(3))
		if r := report(t, evs, 0); r.Line != c.want {
			t.Errorf("%s: line %s, want %s", c.name, r.Line, c.want)
		}
	}
}

func TestRetreatShortIsEliminatedAndLeavesItsPath(t *testing.T) { // rules 7.71, 7.74, 7.91; IW9
	units := []Unit{inf("u1", US, 6, 3, 4), inf("u2", US, 1, 1, 4), inf("j1", Japan, 2, 2, 4)}
	sea := map[string]string{"0304": "sea", "0104": "sea", "0303": "sea", "0103": "sea", "0305": "sea", "0105": "sea"}
	g := setup(t, units, map[string]string{"u1": "0205", "u2": "0201", "j1": "0204"}, sea, nil, US).combat()
	a := attack(ids("j1"), ids("u1"))
	a.Advance = []Advance{{Unit: "u1", To: hx(t, "0203")}}
	evs := g.fight(Orders{Attacks: []Attack{a}}, Defence{}, rolls(1)) // +4, D2
	r := report(t, evs, 0)
	if r.Result != D2 || len(r.Retreats) != 1 || !r.Retreats[0].Eliminated || !equalPath(r.Retreats[0].Path, path(t, "0203")) {
		t.Fatalf("report %+v", r)
	}
	if g.at("j1") != "elim" || g.at("u1") != "0203" {
		t.Fatalf("j1 %s, u1 %s: u1 may follow into the hex j1 died in", g.at("j1"), g.at("u1"))
	}
}

func TestRetreatDisplacesAChain(t *testing.T) { // rules 7.73, 7.81, 7.82; IW15
	units := []Unit{inf("j1", Japan, 9, 3, 4), inf("u1", US, 2, 2, 4), inf("u3", US, 2, 2, 4),
		inf("u4", US, 2, 2, 4), inf("u5", US, 2, 2, 4), inf("u2", US, 2, 2, 4)}
	at := map[string]string{"j1": "0204", "u1": "0205", "u2": "0306", "u3": "0206", "u4": "0106", "u5": "0107"}
	g := setup(t, units, at, nil, nil, Japan).combat()
	d := Defence{Own: Instructions{Retreats: map[string]RetreatPlan{"u1": {Paths: [][]Hex{path(t, "0106")}}}}}
	evs := g.fight(Orders{Attacks: []Attack{attack(ids("u1"), ids("j1"))}}, d, rolls(6)) // +7, D1
	r := report(t, evs, 0)
	if r.Result != D1 || len(r.Retreats) != 1 {
		t.Fatalf("report %+v", r)
	}
	ret := r.Retreats[0]
	if ret.Eliminated || g.at("u1") != "0106" || g.at("u4") != "0107" || len(ret.Displaced) != 2 {
		t.Fatalf("u1 %s u4 %s u5 %s, retreat %+v", g.at("u1"), g.at("u4"), g.at("u5"), ret)
	}
	if ret.Displaced[0].Unit != "u5" || ret.Displaced[1].Unit != "u4" || g.at("u5") != ret.Displaced[0].To.String() {
		t.Fatalf("displacements %+v, u5 in %s", ret.Displaced, g.at("u5"))
	}
	if pc, _ := g.e.Piece(g.p, "u4"); pc.Displaced != 1 || pc.Adverse != 1 {
		t.Fatalf("u4 not marked displaced: %+v", pc)
	}
}

func TestRetreaterDiesWhenTheFriendItPushesWould(t *testing.T) { // rule 7.82
	units := []Unit{inf("j1", Japan, 9, 3, 4), inf("u1", US, 2, 2, 4), inf("u4", US, 2, 2, 4)}
	at := map[string]string{"j1": "0204", "u1": "0205", "u4": "0106"}
	sea := map[string]string{"0306": "sea", "0206": "sea", "0107": "sea"}
	g := setup(t, units, at, sea, nil, Japan).combat()
	evs := g.fight(Orders{Attacks: []Attack{attack(ids("u1"), ids("j1"))}}, Defence{}, rolls(6)) // D1
	r := report(t, evs, 0)
	if g.at("u1") != "elim" || g.at("u4") != "0106" || len(r.Retreats) != 1 || !r.Retreats[0].Eliminated {
		t.Fatalf("u1 %s u4 %s, report %+v", g.at("u1"), g.at("u4"), r)
	}
}

func TestAttackerResultsAndTheDefendersAdvance(t *testing.T) { // rules 7.62, 7.91, 7.96; IW2, IW11, IW20
	units := []Unit{inf("u1", US, 1, 3, 4), inf("u2", US, 1, 3, 4), inf("j1", Japan, 2, 9, 4)}
	at := map[string]string{"u1": "0205", "u2": "0305", "j1": "0204"}
	g := setup(t, units, at, nil, nil, US).combat()
	o := Orders{Attacks: []Attack{attack(ids("j1"), ids("u1")), attack(ids("j1"), ids("u2"))}}
	if _, _, ps := g.e.Combat(g.p, o, Defence{}, rolls(5, 5)); !hasRule(ps, "7.14") {
		t.Fatalf("j1 twice: %v", ps)
	}
	// u1 -8 on clear, die 5: A3; j1 follows into 0205; u2's attack on it
	// is then void, and u2 must still have been given one.
	o = Orders{Attacks: []Attack{attack(ids("j1"), ids("u1", "u2"))}}
	evs := g.fight(o, Defence{Advance: true}, rolls(5))
	r := report(t, evs, 0)
	if r.Result != A3 || len(r.Retreats) != 2 {
		t.Fatalf("report %+v", r)
	}
	for _, ret := range r.Retreats {
		if !ret.Eliminated && len(ret.Path) != 3 {
			t.Fatalf("A3 retreat %+v", ret)
		}
	}
	if g.at("j1") != "0205" && g.at("j1") != "0305" {
		t.Fatalf("j1 did not advance: %s", g.at("j1"))
	}
	if pc, _ := g.e.Piece(g.p, "j1"); pc.Advanced != 1 {
		t.Fatalf("j1 not marked as advanced: %+v", pc)
	}
}

func TestAnAdvanceCutsOffALaterRetreat(t *testing.T) { // rules 7.71, 7.96
	units := []Unit{inf("u1", US, 9, 3, 4), inf("u2", US, 9, 3, 4), inf("j1", Japan, 2, 2, 4), inf("j2", Japan, 1, 1, 4)}
	at := map[string]string{"u1": "0205", "u2": "0201", "j1": "0204", "j2": "0202"}
	sea := map[string]string{"0303": "sea", "0103": "sea"}
	g := setup(t, units, at, sea, nil, US).combat()
	first := attack(ids("j1"), ids("u1"))
	first.Advance = []Advance{{Unit: "u1", To: hx(t, "0204")}}
	o := Orders{Attacks: []Attack{first, attack(ids("j2"), ids("u2"))}}
	d := Defence{Own: Instructions{Retreats: map[string]RetreatPlan{"j1": {Paths: [][]Hex{path(t, "0304")}}}}}
	evs := g.fight(o, d, rolls(6, 6))
	if r := report(t, evs, 0); r.Result != D1 || g.at("j1") != "0304" || g.at("u1") != "0204" {
		t.Fatalf("first attack %+v, j1 %s, u1 %s", r, g.at("j1"), g.at("u1"))
	}
	// j2's only way out, 0203, is now next to u1.
	if r := report(t, evs, 1); r.Result != D1 || g.at("j2") != "elim" {
		t.Fatalf("second attack %+v, j2 %s", r, g.at("j2"))
	}
}

func TestEliminationResults(t *testing.T) { // rule 7.62
	units := []Unit{inf("u1", US, 20, 3, 4), inf("j1", Japan, 2, 2, 4)}
	at := map[string]string{"u1": "0205", "j1": "0204"}
	g := setup(t, units, at, nil, nil, US).combat()
	a := attack(ids("j1"), ids("u1"))
	a.Advance = []Advance{{Unit: "u1", To: hx(t, "0204")}}
	evs := g.fight(Orders{Attacks: []Attack{a}}, Defence{}, rolls(1)) // +18 clear: De
	if r := report(t, evs, 0); r.Result != De || g.at("j1") != "elim" || g.at("u1") != "0204" {
		t.Fatalf("De: %+v, j1 %s u1 %s", r, g.at("j1"), g.at("u1"))
	}
	units = []Unit{inf("u1", US, 1, 3, 4), inf("j1", Japan, 2, 20, 4)}
	g = setup(t, units, at, nil, nil, US).combat()
	evs = g.fight(Orders{Attacks: []Attack{attack(ids("j1"), ids("u1"))}}, Defence{}, rolls(6)) // -19: Ae
	if r := report(t, evs, 0); r.Result != Ae || g.at("u1") != "elim" || g.at("j1") != "0204" {
		t.Fatalf("Ae: %+v", r)
	}
}

// A retreat pushes the target of a later barrage out of its hex: that
// barrage is not made (rule 7.83, IW20).
func TestDisplacedTargetIsNotBarraged(t *testing.T) {
	units := []Unit{inf("u1", US, 6, 3, 4), gun("g1", US, 4, 3, 5, 1, 2), inf("j1", Japan, 2, 2, 4), inf("j2", Japan, 2, 2, 4)}
	at := map[string]string{"u1": "0205", "g1": "0208", "j1": "0204", "j2": "0203"}
	g := setup(t, units, at, map[string]string{"0304": "sea", "0104": "sea"}, nil, US).combat()
	o := Orders{Attacks: []Attack{attack(ids("j1"), ids("u1")), {Defenders: ids("j2"), Barrage: ids("g1")}}}
	evs := g.fight(o, Defence{}, rolls(3, 1)) // +4, die 3: D1
	r := report(t, evs, 0)
	if r.Result != D1 || g.at("j1") != "0203" || len(r.Retreats) != 1 || len(r.Retreats[0].Displaced) != 1 {
		t.Fatalf("first attack %+v, j1 %s", r, g.at("j1"))
	}
	skipped := false
	for _, ev := range evs {
		skipped = skipped || (ev.Kind == EvSkip && ev.Combat.Index == 1)
	}
	if !skipped || g.at("j2") == "0203" {
		t.Fatalf("the barrage on the displaced j2 was made: %v", evs)
	}
	if pc, _ := g.e.Piece(g.p, "g1"); pc.Attacked != 0 {
		t.Fatalf("g1 marked as having fired: %+v", pc)
	}
}
