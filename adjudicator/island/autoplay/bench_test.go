package autoplay

import (
	"testing"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// turnOrders is everything one Game-Turn is given: for each Player-Turn
// its moves, its attacks and the defender's choices.
type turnOrders struct {
	start  island.Position
	moves  [2]island.Orders
	combat [2]combatIn
	dice   island.Dice
	fights int
}

// busiestTurn plays random games of the scenario and keeps the Game-Turn
// with the most attacks, with the orders its two Player-Turns were given.
func busiestTurn(tb testing.TB, e *island.Engine, games int) turnOrders {
	var best turnOrders
	for seed := uint64(1); seed <= uint64(games); seed++ {
		r, dice := NewRand(seed), Dice(seed)
		p, _ := e.Start()
		for p.Phase == island.PhaseSetup {
			p, _, _ = e.Deploy(p, Deploy(e, p, r))
		}
		for p.Phase != island.PhaseOver {
			t := turnOrders{start: p, dice: dice}
			for k := range 2 {
				t.moves[k] = island.Orders{Moves: Moves(e, p, r)}
				q, _, ps := e.Move(p, t.moves[k])
				if len(ps) > 0 {
					tb.Fatal(ps)
				}
				t.combat[k] = combatIn{Orders: island.Orders{Attacks: Attacks(e, q, r), Own: Instructions(e, q, q.Phasing, r)}, Defence: Defence(e, q, r)}
				q2, evs, ps := e.Combat(q, t.combat[k].Orders, t.combat[k].Defence, dice)
				if len(ps) > 0 {
					tb.Fatal(ps)
				}
				for _, ev := range evs {
					if ev.Kind == island.EvCombat {
						t.fights++
					}
				}
				p = q2
			}
			if t.fights > best.fights {
				best = t
			}
		}
	}
	return best
}

// BenchmarkGameTurn plays one whole Game-Turn of the shipped Ridge 42
// scenario: both Player-Turns, moves and every attack, the busiest turn
// of 100 random games. The orders are made beforehand; the engine alone is
// timed.
func BenchmarkGameTurn(b *testing.B) {
	e := island.New(exampleScenario(b))
	t := busiestTurn(b, e, 100)
	for b.Loop() {
		p := t.start
		for k := range 2 {
			q, _, ps := e.Move(p, t.moves[k])
			if len(ps) > 0 {
				b.Fatal(ps)
			}
			q2, _, ps := e.Combat(q, t.combat[k].Orders, t.combat[k].Defence, t.dice)
			if len(ps) > 0 {
				b.Fatal(ps)
			}
			p = q2
		}
	}
	b.ReportMetric(float64(t.fights), "attacks/op")
}

// packedScenario is a clear 7 by 7 island where one Japanese unit in 0304,
// attacked by a single U.S. unit from 0204, has every hex within two of it
// held by friends, except those next to the attacker: a retreat of two
// hexes must displace friends, and they in turn others (rules 7.81, 7.82).
func packedScenario() *island.Scenario {
	g := island.Grid{Columns: 7, Rows: 7, Shifted: island.ShiftEven}
	s := &island.Scenario{
		Name: "packed", Invented: true, Grid: g, DefaultTerrain: "clear",
		Key:         island.Key{Terrain: []island.TerrainType{{Name: "clear", MP: 1, Line: island.LineClear, Armor: true}}},
		Kinds:       []island.Kind{{Name: "infantry", Class: island.Infantry}},
		FirstPlayer: island.US, GameTurns: 1,
		Setup: island.Setup{First: island.US},
	}
	place := func(u island.Unit, h island.Hex) {
		s.Units = append(s.Units, u)
		s.Setup.Placements = append(s.Setup.Placements, island.Placement{Unit: u.ID, Hex: &h})
	}
	us, j0 := island.Hex{Col: 2, Row: 4}, island.Hex{Col: 3, Row: 4}
	place(island.Unit{ID: "u1", Side: island.US, Kind: "infantry", Attack: 9, Defense: 3, Movement: 4}, us)
	place(island.Unit{ID: "j0", Side: island.Japan, Kind: "infantry", Attack: 2, Defense: 1, Movement: 4}, j0)
	for c := 1; c <= g.Columns; c++ {
		for r := 1; r <= g.Rows; r++ {
			h := island.Hex{Col: c, Row: r}
			if d := g.Distance(j0, h); d == 0 || d > 2 || g.Distance(us, h) <= 1 {
				continue
			}
			place(island.Unit{ID: "j" + h.String(), Side: island.Japan, Kind: "infantry", Attack: 2, Defense: 2, Movement: 4}, h)
		}
	}
	return s
}

// BenchmarkRetreatDisplacement resolves one attack whose D2 result makes
// the defender retreat through a pack of friends, displacing a chain of
// them.
func BenchmarkRetreatDisplacement(b *testing.B) {
	e := island.New(packedScenario())
	p, _ := e.Start()
	q, _, ps := e.Move(p, island.Orders{})
	if len(ps) > 0 {
		b.Fatal(ps)
	}
	o := island.Orders{Attacks: []island.Attack{{Attackers: []string{"u1"}, Defenders: []string{"j0"}}}}
	dice := island.DiceFunc(func(island.Die) int { return 3 }) // +8 on the Clear line: D2
	_, evs, ps := e.Combat(q, o, island.Defence{}, dice)
	if len(ps) > 0 {
		b.Fatal(ps)
	}
	var c *island.CombatReport
	for _, ev := range evs {
		if ev.Kind == island.EvCombat {
			c = ev.Combat
		}
	}
	if c == nil || c.Result != island.D2 || len(c.Retreats) != 1 || c.Retreats[0].Eliminated || !chained(c.Retreats[0].Displaced) {
		b.Fatalf("want a D2 retreat displacing a chain of friends, got %+v", c)
	}
	if err := checkCombatPhase(e, q, mustPosition(b, e, q, o, dice), evs); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		e.Combat(q, o, island.Defence{}, dice)
	}
	b.ReportMetric(float64(len(c.Retreats[0].Displaced)), "displacements/op")
}

// chained reports whether a displaced unit was pushed into a hex another
// displaced unit left: a chain (rule 7.82).
func chained(ds []island.Displacement) bool {
	for _, a := range ds {
		for _, b := range ds {
			if a.To == b.From {
				return true
			}
		}
	}
	return false
}

func mustPosition(b *testing.B, e *island.Engine, q island.Position, o island.Orders, dice island.Dice) island.Position {
	p, _, ps := e.Combat(q, o, island.Defence{}, dice)
	if len(ps) > 0 {
		b.Fatal(ps)
	}
	return p
}
