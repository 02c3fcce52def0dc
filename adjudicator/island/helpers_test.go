package island

import (
	"fmt"
	"strings"
	"testing"
)

// The test map: 10 by 10 hexes, even columns lowered, clear unless a test
// says otherwise. Its key has every kind of terrain the standard rules
// speak of and one of each hexside class.
func testKey() Key {
	return Key{
		Terrain: []TerrainType{
			{Name: "clear", MP: 1, Line: LineClear, Armor: true},
			{Name: "town", MP: 2, Line: LineBroken, Armor: true},
			{Name: "broken", MP: 2, Line: LineBroken},
			{Name: "jungle", MP: 3, Line: LineRough},
			{Name: "sea", MP: 1, Line: LineClear, Impassable: true},
		},
		Hexsides: []Feature{
			{Name: "river", Class: ClassRiver, MP: 1, Line: LineRiver},
			{Name: "road", Class: ClassRoad},
			{Name: "trail", Class: ClassTrail},
			{Name: "cliff", Class: ClassProhibited},
		},
	}
}

func testKinds() []Kind {
	return []Kind{
		{Name: "infantry", Class: Infantry},
		{Name: "engineer", Class: Engineer},
		{Name: "armor", Class: Armor},
		{Name: "artillery", Class: Artillery},
		{Name: "lvt", Class: Other},
	}
}

// inf, eng, arm and gun make units with printed values.
func inf(id string, s Side, a, d, m int) Unit {
	return Unit{ID: id, Side: s, Kind: "infantry", Attack: a, Defense: d, Movement: m}
}

func arm(id string, s Side, a, d, m int) Unit {
	return Unit{ID: id, Side: s, Kind: "armor", Attack: a, Defense: d, Movement: m}
}

func gun(id string, s Side, barrage, fpf, rng, d, m int) Unit {
	return Unit{ID: id, Side: s, Kind: "artillery", Barrage: barrage, FPF: fpf, Range: rng, Defense: d, Movement: m}
}

// hx reads a hex id or fails the test.
func hx(t testing.TB, s string) Hex {
	t.Helper()
	h, err := ParseHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// path reads "0302 0303 0404".
func path(t testing.TB, s string) []Hex {
	t.Helper()
	var out []Hex
	for _, f := range strings.Fields(s) {
		out = append(out, hx(t, f))
	}
	return out
}

// game is a test's scenario, engine and position.
type game struct {
	t *testing.T
	s *Scenario
	e *Engine
	p Position
}

// setup gives a game with units placed at fixed hexes ("id": "0304"),
// terrain per hex and features per hexside ("0304-0305": "river"); the
// position is in side's Movement Phase of Game-Turn 1.
func setup(t *testing.T, units []Unit, at map[string]string, terrain map[string]string, sides map[string]string, side Side) *game {
	t.Helper()
	s := &Scenario{
		Name: "test", Invented: true,
		Grid:           Grid{Columns: 10, Rows: 10, Shifted: ShiftEven},
		DefaultTerrain: "clear",
		Terrain:        map[Hex]string{},
		Hexsides:       map[Pair][]string{},
		Key:            testKey(),
		Kinds:          testKinds(),
		Units:          units,
		FirstPlayer:    side,
		GameTurns:      3,
	}
	for h, name := range terrain {
		s.Terrain[hx(t, h)] = name
	}
	for pr, names := range sides {
		var p Pair
		if err := p.UnmarshalText([]byte(pr)); err != nil {
			t.Fatal(err)
		}
		if !s.Grid.Adjacent(p.A, p.B) {
			t.Fatalf("hexside %s joins hexes that are not adjacent", pr)
		}
		s.Hexsides[p] = strings.Fields(names)
	}
	for _, u := range units {
		if h, ok := at[u.ID]; ok {
			h := hx(t, h)
			s.Setup.Placements = append(s.Setup.Placements, Placement{Unit: u.ID, Hex: &h})
		}
	}
	e := New(s)
	p, _ := e.Start()
	if p.Phase != PhaseMovement || p.Phasing != side {
		t.Fatalf("start: %s", p)
	}
	return &game{t: t, s: s, e: e, p: p}
}

// combat puts the game straight into the phasing side's Combat Phase.
func (g *game) combat() *game {
	g.t.Helper()
	q, _, ps := g.e.Move(g.p, Orders{})
	if len(ps) > 0 {
		g.t.Fatalf("empty movement refused: %v", ps)
	}
	g.p = q
	return g
}

// at gives a unit's hex, or "elim"/"wait".
func (g *game) at(id string) string {
	g.t.Helper()
	pc, ok := g.e.Piece(g.p, id)
	if !ok {
		g.t.Fatalf("no unit %s", id)
	}
	switch pc.Where {
	case OnMap:
		return pc.Hex.String()
	case Eliminated:
		return "elim"
	}
	return "wait"
}

// rolls forces the die of each attack by its index.
func rolls(ds ...int) Dice {
	return DiceFunc(func(d Die) int {
		if d.Attack >= len(ds) {
			panic(fmt.Sprintf("no die forced for attack %d", d.Attack))
		}
		return ds[d.Attack]
	})
}

// fight resolves combat orders and fails on problems.
func (g *game) fight(o Orders, d Defence, dice Dice) []Event {
	g.t.Helper()
	q, evs, ps := g.e.Combat(g.p, o, d, dice)
	if len(ps) > 0 {
		g.t.Fatalf("combat refused: %v", ps)
	}
	g.p = q
	return evs
}

// report gives the combat report of attack k among the events.
func report(t *testing.T, evs []Event, k int) *CombatReport {
	t.Helper()
	for _, ev := range evs {
		if ev.Combat != nil && ev.Combat.Index == k {
			if ev.Kind != EvCombat {
				t.Fatalf("attack %d: %s (%s)", k, ev.Kind, ev.Note)
			}
			return ev.Combat
		}
	}
	t.Fatalf("no report of attack %d in %v", k, evs)
	return nil
}

// hasRule reports whether one of the problems cites rule.
func hasRule(ps []Problem, rule string) bool {
	for _, p := range ps {
		if p.Rule == rule {
			return true
		}
	}
	return false
}
