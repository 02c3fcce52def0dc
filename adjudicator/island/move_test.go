package island

import (
	"reflect"
	"testing"
)

// move gives the problems of one move of unit id along p, and applies it
// when there are none.
func (g *game) move(id, p string) []Problem {
	g.t.Helper()
	q, _, ps := g.e.Move(g.p, Orders{Moves: []Move{{Unit: id, Path: path(g.t, p)}}})
	if len(ps) == 0 {
		g.p = q
	}
	return ps
}

func TestClearHexesCostOneMP(t *testing.T) { // rules 5.13, 5.21, 5.24
	g := setup(t, []Unit{inf("u1", US, 3, 3, 3)}, map[string]string{"u1": "0205"}, nil, nil, US)
	if ps := g.move("u1", "0204 0203 0202 0201"); !hasRule(ps, "5.24") {
		t.Fatalf("four clear hexes with 3 MP: %v", ps)
	}
	if ps := g.move("u1", "0204 0203 0202"); ps != nil {
		t.Fatalf("three clear hexes with 3 MP: %v", ps)
	}
	if g.at("u1") != "0202" || g.p.Phase != PhaseCombat {
		t.Fatalf("u1 in %s, phase %s", g.at("u1"), g.p.Phase)
	}
}

func TestRoadHalfMPAndTrailOneMP(t *testing.T) { // rules 5.22, 5.23
	jungle := map[string]string{"0204": "jungle", "0203": "jungle", "0202": "jungle", "0201": "jungle", "0205": "jungle"}
	roads := map[string]string{"0205-0204": "road", "0204-0203": "road", "0203-0202": "road", "0202-0201": "road"}
	g := setup(t, []Unit{inf("u1", US, 3, 3, 2)}, map[string]string{"u1": "0205"}, jungle, roads, US)
	if ps := g.move("u1", "0204 0203 0202 0201"); ps != nil {
		t.Fatalf("four road hexes with 2 MP: %v", ps)
	}
	trails := map[string]string{"0205-0204": "trail", "0204-0203": "trail", "0203-0202": "trail"}
	g = setup(t, []Unit{inf("u1", US, 3, 3, 2)}, map[string]string{"u1": "0205"}, jungle, trails, US)
	if ps := g.move("u1", "0204 0203 0202"); !hasRule(ps, "5.24") {
		t.Fatalf("three trail hexes with 2 MP: %v", ps)
	}
	if ps := g.move("u1", "0204 0203"); ps != nil {
		t.Fatalf("two trail hexes with 2 MP: %v", ps)
	}
	// Off the trail, jungle costs its 3 MP.
	g = setup(t, []Unit{inf("u1", US, 3, 3, 2)}, map[string]string{"u1": "0205"}, jungle, nil, US)
	if ps := g.move("u1", "0204"); !hasRule(ps, "5.24") {
		t.Fatalf("a 3 MP jungle hex with 2 MP: %v", ps)
	}
}

func TestRiverHexsideAddsToTheHex(t *testing.T) { // rule 5.21
	g := setup(t, []Unit{inf("u1", US, 3, 3, 2)}, map[string]string{"u1": "0205"}, nil, map[string]string{"0205-0204": "river"}, US)
	if ps := g.move("u1", "0204 0203"); !hasRule(ps, "5.24") {
		t.Fatalf("river (1) + clear (1) + clear (1) with 2 MP: %v", ps)
	}
	if ps := g.move("u1", "0204"); ps != nil {
		t.Fatalf("river + clear with 2 MP: %v", ps)
	}
}

func TestArmorOffClearOnlyByRoadOrTrail(t *testing.T) { // rule 5.25
	terrain := map[string]string{"0204": "jungle", "0206": "town"}
	g := setup(t, []Unit{arm("t1", US, 4, 4, 6)}, map[string]string{"t1": "0205"}, terrain, nil, US)
	if ps := g.move("t1", "0204"); !hasRule(ps, "5.25") {
		t.Fatalf("armor into jungle: %v", ps)
	}
	if ps := g.move("t1", "0206"); ps != nil {
		t.Fatalf("armor into town: %v", ps)
	}
	g = setup(t, []Unit{arm("t1", US, 4, 4, 6)}, map[string]string{"t1": "0205"}, terrain, map[string]string{"0205-0204": "trail"}, US)
	if ps := g.move("t1", "0204"); ps != nil {
		t.Fatalf("armor into jungle by a trail: %v", ps)
	}
}

func TestProhibitedHexsideAndImpassableHex(t *testing.T) { // IW7, rule 5.21
	g := setup(t, []Unit{inf("u1", US, 3, 3, 4)}, map[string]string{"u1": "0205"}, map[string]string{"0206": "sea"}, map[string]string{"0205-0204": "cliff"}, US)
	if ps := g.move("u1", "0204"); !hasRule(ps, "IW7") {
		t.Fatalf("across a cliff: %v", ps)
	}
	if ps := g.move("u1", "0206"); !hasRule(ps, "5.21") {
		t.Fatalf("into the sea: %v", ps)
	}
}

func TestZonesOfControl(t *testing.T) {
	units := []Unit{inf("u1", US, 3, 3, 4), inf("j1", Japan, 3, 3, 4)}
	g := setup(t, units, map[string]string{"u1": "0205", "j1": "0202"}, nil, nil, US)
	if ps := g.move("u1", "0204 0203 0202"); !hasRule(ps, "6.0") {
		t.Fatalf("on through an enemy-controlled hex: %v", ps)
	}
	if ps := g.move("u1", "0204 0203"); ps != nil { // rule 6.12: no extra cost
		t.Fatalf("stopping on entering an enemy-controlled hex: %v", ps)
	}
	// Rule 5.14: a U.S. unit never leaves a Japanese-controlled hex.
	g = setup(t, units, map[string]string{"u1": "0205", "j1": "0204"}, nil, nil, US)
	if ps := g.move("u1", "0206"); !hasRule(ps, "5.14") {
		t.Fatalf("U.S. leaving a Japanese ZOC: %v", ps)
	}
}

func TestJapaneseStepOutOfUSZone(t *testing.T) { // rules 5.15, 6.14, IW18
	units := []Unit{inf("u1", US, 3, 3, 4), inf("u2", US, 3, 3, 4), inf("j1", Japan, 3, 3, 4), arm("jt", Japan, 3, 3, 4)}
	at := map[string]string{"u1": "0205", "u2": "0405", "j1": "0305", "jt": "0105"}
	g := setup(t, units, at, nil, nil, Japan)
	// 0305 is next to both U.S. units; 0306 too.
	if ps := g.move("j1", "0306 0307"); !hasRule(ps, "6.14") {
		t.Fatalf("two hexes out of a U.S. ZOC: %v", ps)
	}
	if ps := g.move("jt", "0104"); !hasRule(ps, "5.15") {
		t.Fatalf("Japanese armor out of a U.S. ZOC: %v", ps)
	}
	if ps := g.move("j1", "0306"); ps != nil {
		t.Fatalf("one hex, into another U.S.-controlled hex: %v", ps)
	}
}

func TestNoStackingAtTheEndOfMovement(t *testing.T) { // rules 5.31, 5.32
	units := []Unit{inf("u1", US, 3, 3, 4), inf("u2", US, 3, 3, 4)}
	g := setup(t, units, map[string]string{"u1": "0205", "u2": "0204"}, nil, nil, US)
	before, _ := g.p.Marshal()
	if ps := g.move("u1", "0204"); !hasRule(ps, "5.31") {
		t.Fatalf("ending in a friend's hex: %v", ps)
	}
	after, _ := g.p.Marshal()
	if string(before) != string(after) {
		t.Fatal("a refused move changed the position")
	}
	if ps := g.move("u1", "0204 0203"); ps != nil {
		t.Fatalf("passing through a friend: %v", ps)
	}
	// A friend may end in a hex another leaves later in the phase.
	g = setup(t, units, map[string]string{"u1": "0205", "u2": "0204"}, nil, nil, US)
	q, _, ps := g.e.Move(g.p, Orders{Moves: []Move{{Unit: "u1", Path: path(t, "0204")}, {Unit: "u2", Path: path(t, "0203")}}})
	if len(ps) > 0 {
		t.Fatalf("u1 into u2's hex, then u2 out: %v", ps)
	}
	g.p = q
	if g.at("u1") != "0204" || g.at("u2") != "0203" {
		t.Fatalf("u1 %s, u2 %s", g.at("u1"), g.at("u2"))
	}
	// Rule 5.16: one path per unit.
	g = setup(t, units, map[string]string{"u1": "0205", "u2": "0204"}, nil, nil, US)
	_, _, ps = g.e.Move(g.p, Orders{Moves: []Move{{Unit: "u1", Path: path(t, "0206")}, {Unit: "u1", Path: path(t, "0207")}}})
	if !hasRule(ps, "5.16") {
		t.Fatalf("two moves of one unit: %v", ps)
	}
}

func TestMoveDoesNotChangeItsInput(t *testing.T) {
	g := setup(t, []Unit{inf("u1", US, 3, 3, 4)}, map[string]string{"u1": "0205"}, nil, nil, US)
	keep := g.p.Clone()
	if _, _, ps := g.e.Move(g.p, Orders{Moves: []Move{{Unit: "u1", Path: path(t, "0204")}}}); ps != nil {
		t.Fatal(ps)
	}
	if !reflect.DeepEqual(keep, g.p) {
		t.Fatal("Move changed the position it was given")
	}
}

func TestReinforcementsEnterAtTheirHexes(t *testing.T) { // IW16
	units := []Unit{inf("u1", US, 3, 3, 4), inf("u9", US, 3, 3, 3), inf("j1", Japan, 3, 3, 3)}
	g := setup(t, units, map[string]string{"u1": "0205", "j1": "0808"}, nil, nil, US)
	g.s.Reinforcements = []Reinforcement{{Turn: 2, Side: US, Units: []string{"u9"}, Entry: []Hex{{1, 1}, {8, 8}}}}
	g.e = New(g.s)
	g.p, _ = g.e.Start()
	if g.at("u9") != "wait" {
		t.Fatalf("u9 before its turn: %s", g.at("u9"))
	}
	if ps := g.move("u9", "0101 0102"); !hasRule(ps, "IW16") {
		t.Fatalf("entering before Game-Turn 2: %v", ps)
	}
	g.p.Turn = 2
	if ps := g.move("u9", "0808"); !hasRule(ps, "5.12") { // never into an enemy hex
		t.Fatalf("entering in the enemy's hex: %v", ps)
	}
	if ps := g.move("u9", "0201"); !hasRule(ps, "IW16") {
		t.Fatalf("entering away from the entry hex: %v", ps)
	}
	if ps := g.move("u9", "0101 0102 0103 0104"); !hasRule(ps, "5.24") {
		t.Fatalf("the entry hex costs its MP: %v", ps)
	}
	if ps := g.move("u9", "0101 0102 0103"); ps != nil {
		t.Fatalf("entering: %v", ps)
	}
	if g.at("u9") != "0103" {
		t.Fatalf("u9 in %s", g.at("u9"))
	}
}

// Every hex Reach lists is a move Move accepts, and a hex one MP beyond
// is not listed (rules 5.13, 6.0).
func TestReachAgreesWithMove(t *testing.T) {
	units := []Unit{inf("u1", US, 3, 3, 3), arm("t1", US, 3, 3, 4), inf("j1", Japan, 3, 3, 3)}
	terrain := map[string]string{"0304": "jungle", "0204": "broken", "0506": "sea"}
	sides := map[string]string{"0205-0204": "river", "0305-0306": "road", "0306-0406": "road", "0406-0407": "road", "0305-0205": "cliff"}
	g := setup(t, units, map[string]string{"u1": "0205", "t1": "0305", "j1": "0208"}, terrain, sides, US)
	for _, id := range []string{"u1", "t1"} {
		reach := g.e.Reach(g.p, id)
		if len(reach) < 5 {
			t.Fatalf("%s reaches only %v", id, reach)
		}
		for h, p := range reach {
			if _, _, ps := g.e.Move(g.p, Orders{Moves: []Move{{Unit: id, Path: p}}}); len(ps) > 0 && !hasRule(ps, "5.31") {
				t.Errorf("%s to %s by %v: %v", id, h, p, ps)
			}
		}
		if _, ok := reach[hx(t, "0208")]; ok {
			t.Errorf("%s reaches the enemy's hex", id)
		}
	}
	if _, ok := g.e.Reach(g.p, "u1")[hx(t, "0202")]; ok {
		t.Error("u1 reaches 0202: across the river 0204 costs 3 of its 3 MP")
	}
	if _, ok := g.e.Reach(g.p, "t1")[hx(t, "0304")]; ok {
		t.Error("armor reaches jungle without a road")
	}
}
