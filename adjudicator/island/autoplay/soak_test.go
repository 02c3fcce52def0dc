package autoplay

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// soakScenario is a small invented island: 8 by 8 hexes with jungle,
// broken ground, a town, sea, a river, a road, a trail and a cliff; six
// units a side of every class, a reinforcement each, ground support for
// both, and both sides setting up in areas.
func soakScenario() *island.Scenario {
	h := func(c, r int) island.Hex { return island.Hex{Col: c, Row: r} }
	s := &island.Scenario{
		Name: "soak", Invented: true,
		Grid:           island.Grid{Columns: 8, Rows: 8, Shifted: island.ShiftEven},
		DefaultTerrain: "clear",
		Terrain: map[island.Hex]string{h(3, 3): "jungle", h(3, 4): "jungle", h(6, 5): "jungle", h(4, 6): "town",
			h(5, 2): "broken", h(2, 7): "broken", h(8, 1): "sea", h(8, 2): "sea", h(1, 8): "sea"},
		Hexsides: map[island.Pair][]string{},
		Key: island.Key{
			Terrain: []island.TerrainType{
				{Name: "clear", MP: 1, Line: island.LineClear, Armor: true},
				{Name: "town", MP: 2, Line: island.LineBroken, Armor: true},
				{Name: "broken", MP: 2, Line: island.LineBroken},
				{Name: "jungle", MP: 3, Line: island.LineRough},
				{Name: "sea", MP: 1, Line: island.LineClear, Impassable: true},
			},
			Hexsides: []island.Feature{
				{Name: "river", Class: island.ClassRiver, MP: 1, Line: island.LineRiver},
				{Name: "road", Class: island.ClassRoad},
				{Name: "trail", Class: island.ClassTrail},
				{Name: "cliff", Class: island.ClassProhibited},
			},
		},
		Kinds: []island.Kind{{Name: "infantry", Class: island.Infantry}, {Name: "engineer", Class: island.Engineer},
			{Name: "armor", Class: island.Armor}, {Name: "artillery", Class: island.Artillery}, {Name: "lvt", Class: island.Other}},
		Areas:       map[string][]island.Hex{},
		FirstPlayer: island.US,
		GameTurns:   5,
		GroundSupport: []island.Support{{Turn: 1, Side: island.US, Points: 4}, {Turn: 1, Side: island.Japan, Points: 2},
			{Turn: 2, Side: island.US, Points: 3}, {Turn: 3, Side: island.Japan, Points: 3},
			{Turn: 4, Side: island.US, Points: 2}, {Turn: 4, Side: island.Japan, Points: 2}},
	}
	for r := 1; r <= 4; r++ {
		s.Hexsides[island.MakePair(h(4, r), h(5, r))] = []string{"river"}
	}
	for r := 5; r < 8; r++ {
		s.Hexsides[island.MakePair(h(4, r), h(4, r+1))] = []string{"road"}
	}
	s.Hexsides[island.MakePair(h(2, 2), h(3, 2))] = []string{"trail"}
	s.Hexsides[island.MakePair(h(6, 6), h(6, 7))] = []string{"cliff"}
	for r := 1; r <= 8; r++ {
		for c := 1; c <= 8; c++ {
			if s.Terrain[h(c, r)] == "sea" {
				continue
			}
			if c <= 2 {
				s.Areas["west"] = append(s.Areas["west"], h(c, r))
			}
			if c >= 6 {
				s.Areas["east"] = append(s.Areas["east"], h(c, r))
			}
		}
	}
	add := func(u island.Unit, area string) {
		s.Units = append(s.Units, u)
		if area != "" {
			s.Setup.Placements = append(s.Setup.Placements, island.Placement{Unit: u.ID, Area: area})
		}
	}
	for _, side := range []island.Side{island.US, island.Japan} {
		p, area := "u", "west"
		if side == island.Japan {
			p, area = "j", "east"
		}
		add(island.Unit{ID: p + "1", Side: side, Kind: "infantry", Attack: 4, Defense: 3, Movement: 4}, area)
		add(island.Unit{ID: p + "2", Side: side, Kind: "infantry", Attack: 3, Defense: 4, Movement: 3}, area)
		add(island.Unit{ID: p + "3", Side: side, Kind: "infantry", Attack: 2, Defense: 2, Movement: 4}, area)
		add(island.Unit{ID: p + "e", Side: side, Kind: "engineer", Attack: 3, Defense: 2, Movement: 3}, area)
		add(island.Unit{ID: p + "t", Side: side, Kind: "armor", Attack: 5, Defense: 3, Movement: 6}, area)
		add(island.Unit{ID: p + "v", Side: side, Kind: "lvt", Attack: 1, Defense: 1, Movement: 5}, area)
		add(island.Unit{ID: p + "g", Side: side, Kind: "artillery", Barrage: 4, FPF: 3, Range: 4, Defense: 1, Movement: 2}, area)
		add(island.Unit{ID: p + "4", Side: side, Kind: "infantry", Attack: 4, Defense: 4, Movement: 4}, "")
	}
	s.Setup.First = island.Japan
	s.Reinforcements = []island.Reinforcement{
		{Turn: 2, Side: island.US, Units: []string{"u4"}, Entry: []island.Hex{h(1, 1), h(1, 2)}},
		{Turn: 3, Side: island.Japan, Units: []string{"j4"}, Entry: []island.Hex{h(8, 8), h(8, 7)}},
	}
	s.Victory = island.Victory{
		Scores: []island.Score{{Side: island.Japan, Count: island.CountHexes, Points: 2, Hexes: []island.Hex{h(4, 6), h(5, 2)}, Held: island.HeldControl},
			{Side: island.US, Count: island.CountEliminated, Points: 1}},
		Outcomes: []island.Outcome{{Winner: island.US, When: island.Condition{Side: island.US, Minus: island.Japan, Op: ">", Value: 0}},
			{Winner: island.Japan, When: island.Condition{Side: island.Japan, Minus: island.US, Op: ">", Value: 0}}},
		Owner: map[island.Hex]island.Side{h(4, 6): island.Japan, h(5, 2): island.Japan},
	}
	return s
}

// check holds the invariants of a position: no two units in a hex, none
// off the map or at sea, ground support never negative, eliminated units
// stay eliminated.
func check(e *island.Engine, p island.Position, gone map[string]bool) error {
	seen := map[island.Hex]string{}
	for i, pc := range p.Pieces {
		switch pc.Where {
		case island.OnMap:
			if gone[pc.ID] {
				return fmt.Errorf("%s came back from elimination", pc.ID)
			}
			if !e.S.Grid.On(pc.Hex) || e.S.TerrainOf(pc.Hex).Impassable {
				return fmt.Errorf("%s in %s", pc.ID, pc.Hex)
			}
			if other, ok := seen[pc.Hex]; ok {
				return fmt.Errorf("%s and %s both in %s", pc.ID, other, pc.Hex)
			}
			seen[pc.Hex] = pc.ID
		case island.Eliminated:
			gone[e.S.Units[i].ID] = true
		}
	}
	for s, n := range p.GSP {
		if n < 0 {
			return fmt.Errorf("%s has %d ground support points", s, n)
		}
	}
	return nil
}

// game plays one game from seed, checking after every step, and gives
// the final position's JSON and the number of combats.
func game(t *testing.T, e *island.Engine, seed uint64, seen map[string]int) ([]byte, int) {
	r := NewRand(seed)
	dice := Dice(seed)
	p, _ := e.Start()
	gone := map[string]bool{}
	for p.Phase == island.PhaseSetup {
		q, _, ps := e.Deploy(p, Deploy(e, p, r))
		if len(ps) > 0 {
			t.Fatalf("seed %d: set-up refused: %v", seed, ps)
		}
		p = q
	}
	combats := 0
	for steps := 0; p.Phase != island.PhaseOver; steps++ {
		if steps > 2*e.S.GameTurns {
			t.Fatalf("seed %d: the game does not end", seed)
		}
		before, _ := p.Marshal()
		q, evs, err := Play(e, p, r, dice)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if after, _ := p.Marshal(); !bytes.Equal(before, after) {
			t.Fatalf("seed %d: a Player-Turn changed its input", seed)
		}
		for _, ev := range evs {
			seen[ev.Kind]++
			if c := ev.Combat; ev.Kind == island.EvCombat {
				combats++
				seen[string(c.Result)]++
				for _, ret := range c.Retreats {
					seen["displacement"] += len(ret.Displaced)
				}
				seen["banzai removal"] += len(c.Removals)
				seen["fpf"] += len(c.FPF)
				seen["advance"] += len(c.Advances)
				if c.Void {
					seen["void"]++
				}
			}
		}
		if err := check(e, q, gone); err != nil {
			t.Fatalf("seed %d, %s: %v", seed, p, err)
		}
		p = q
	}
	b, _ := p.Marshal()
	return b, combats
}

// TestSoak plays 100 random games of legal orders: the engine never
// refuses them, never stacks two units or puts one at sea, never spends
// ground support it has not got, and plays the same game for the same
// seed.
func TestSoak(t *testing.T) {
	e := island.New(soakScenario())
	combats := 0
	seen := map[string]int{}
	for seed := uint64(1); seed <= 100; seed++ {
		a, n := game(t, e, seed, seen)
		b, _ := game(t, e, seed, map[string]int{})
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d played two different games", seed)
		}
		combats += n
	}
	if combats < 300 {
		t.Fatalf("only %d combats in 100 games: the soak tests too little", combats)
	}
	for _, k := range []string{"D1", "D2", "De", "A1", "A2", "Ae", "displacement", "banzai removal", "fpf", "advance", "void", island.EvEnter} {
		if seen[k] == 0 {
			t.Errorf("no %s in 100 games: the soak misses it", k)
		}
	}
	t.Logf("%d combats in 100 games: %v", combats, seen)
}

// TestMovesEndUnstacked checks the end of every random Movement Phase
// (rule 5.31): Move itself refuses stacking, so the random moves must never
// be refused and the position after them holds one unit a hex.
func TestMovesEndUnstacked(t *testing.T) {
	e := island.New(soakScenario())
	for seed := uint64(1); seed <= 30; seed++ {
		r := NewRand(seed)
		p, _ := e.Start()
		for p.Phase == island.PhaseSetup {
			p, _, _ = e.Deploy(p, Deploy(e, p, r))
		}
		for p.Phase != island.PhaseOver {
			q, _, ps := e.Move(p, island.Orders{Moves: Moves(e, p, r)})
			if len(ps) > 0 {
				t.Fatalf("seed %d: %v", seed, ps)
			}
			if err := check(e, q, map[string]bool{}); err != nil {
				t.Fatalf("seed %d after movement: %v", seed, err)
			}
			q2, _, ps := e.Combat(q, island.Orders{Attacks: Attacks(e, q, r)}, Defence(e, q, r), Dice(seed))
			if len(ps) > 0 {
				t.Fatalf("seed %d: %v", seed, ps)
			}
			p = q2
		}
	}
}
