package autoplay

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/island"
	oisland "github.com/attu-pbem/attu/orders/island"
)

// iwsoak is how many games TestSoak plays of each scenario; .ci/run plays
// 500.
var iwsoak = flag.Int("iwsoak", 100, "random games TestSoak plays of each scenario")

// exampleFile is the shipped scenario, the representative one.
const exampleFile = "../../../examples/island-war/ridge-42-invented.yaml"

// exampleScenario reads the shipped scenario as a user's file is read.
func exampleScenario(tb testing.TB) *island.Scenario {
	tb.Helper()
	data, err := os.ReadFile(exampleFile)
	if err != nil {
		tb.Fatal(err)
	}
	sc, ps := oisland.ParseScenario(data)
	if len(ps) > 0 {
		tb.Fatalf("%s: %v", exampleFile, ps)
	}
	return sc
}

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

// step is one call of the engine in a game: what it was given and what
// it gave, as JSON.
type step struct {
	kind     string // "setup", "move" or "combat"
	in       []byte // the set-up hexes, the Orders, or the Orders and Defence
	position []byte
	events   []byte
}

// combatIn is what a Combat Phase is given.
type combatIn struct {
	Orders  island.Orders  `json:"orders"`
	Defence island.Defence `json:"defence"`
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// game plays one game from seed with random legal orders, holding every
// step to the invariants (invariants_test.go), and gives its steps. Each
// Combat Phase is also first given its attacks with one duty undone, which
// the engine must refuse (rules 7.11, 7.12, 8.31) without changing
// anything.
func game(t *testing.T, e *island.Engine, seed uint64, seen map[string]int) []step {
	r := NewRand(seed)
	undo := NewRand(^seed)
	dice := Dice(seed)
	p, _ := e.Start()
	gone := map[string]bool{}
	var steps []step
	add := func(kind string, in any, q island.Position, evs []island.Event) {
		steps = append(steps, step{kind, mustJSON(t, in), mustJSON(t, q), mustJSON(t, evs)})
	}
	for p.Phase == island.PhaseSetup {
		hexes := Deploy(e, p, r)
		q, evs, ps := e.Deploy(p, hexes)
		if len(ps) > 0 {
			t.Fatalf("seed %d: set-up refused: %v", seed, ps)
		}
		if err := checkBoard(e, q, gone); err != nil {
			t.Fatalf("seed %d, after the set-up: %v", seed, err)
		}
		add("setup", hexes, q, evs)
		p = q
	}
	for turns := 0; p.Phase != island.PhaseOver; turns++ {
		if turns > 2*e.S.GameTurns {
			t.Fatalf("seed %d: the game does not end", seed)
		}
		o := island.Orders{Moves: Moves(e, p, r)}
		q, evs, ps := e.Move(p, o)
		if len(ps) > 0 {
			t.Fatalf("seed %d, %s: moves refused: %v", seed, p, ps)
		}
		if err := checkBoard(e, q, gone); err != nil {
			t.Fatalf("seed %d, %s, at the end of the Movement Phase: %v", seed, p, err)
		}
		add("move", o, q, evs)
		tally(seen, evs)
		in := combatIn{Orders: island.Orders{Attacks: Attacks(e, q, r), Own: Instructions(e, q, q.Phasing, r)}, Defence: Defence(e, q, r)}
		before := mustJSON(t, q)
		undone(t, e, q, in, undo, dice, seed)
		q2, evs2, ps := e.Combat(q, in.Orders, in.Defence, dice)
		if len(ps) > 0 {
			t.Fatalf("seed %d, %s: attacks refused: %v", seed, q, ps)
		}
		if !bytes.Equal(before, mustJSON(t, q)) {
			t.Fatalf("seed %d, %s: Combat changed its input", seed, q)
		}
		if err := checkBoard(e, q2, gone); err != nil {
			t.Fatalf("seed %d, %s, after the Combat Phase: %v", seed, q, err)
		}
		if err := checkCombatPhase(e, q, q2, evs2); err != nil {
			t.Fatalf("seed %d, %s: %v\n%s", seed, q, err, evs2JSON(t, evs2))
		}
		tally(seen, evs2)
		add("combat", in, q2, evs2)
		p = q2
	}
	return steps
}

func evs2JSON(t testing.TB, evs []island.Event) []byte {
	b, _ := json.MarshalIndent(evs, "", "  ")
	return b
}

// undone gives Combat the attacks with one attacker from an adjacent hex
// left out (or its attack, when it was the attack's only one): a duty the
// rules impose is then undone, and the orders must be refused whole.
func undone(t *testing.T, e *island.Engine, q island.Position, in combatIn, r *Rand, dice island.Dice, seed uint64) {
	var ks []int
	for k, a := range in.Orders.Attacks {
		if len(a.Attackers) > 0 {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return
	}
	k := ks[r.Intn(len(ks))]
	a := in.Orders.Attacks[k]
	out := a.Attackers[r.Intn(len(a.Attackers))]
	var attacks []island.Attack
	for j, b := range in.Orders.Attacks {
		if j == k {
			var keep []string
			for _, id := range b.Attackers {
				if id != out {
					keep = append(keep, id)
				}
			}
			if len(keep) == 0 {
				continue
			}
			b.Attackers = keep
		}
		attacks = append(attacks, b)
	}
	before := mustJSON(t, q)
	p2, evs, ps := e.Combat(q, island.Orders{Attacks: attacks, Own: in.Orders.Own}, in.Defence, dice)
	duty := false
	for _, p := range ps {
		duty = duty || (p.Unit == out && (p.Rule == "7.12" || p.Rule == "8.31"))
	}
	if !duty || len(evs) > 0 || !bytes.Equal(before, mustJSON(t, p2)) {
		t.Fatalf("seed %d, %s: attacks without %s (next to an enemy) gave %v and %d events", seed, q, out, ps, len(evs))
	}
}

// tally counts what the soak covers.
func tally(seen map[string]int, evs []island.Event) {
	for _, ev := range evs {
		seen[ev.Kind]++
		c := ev.Combat
		if ev.Kind != island.EvCombat {
			continue
		}
		seen["combat"]++
		seen[string(c.Result)]++
		seen["line "+string(c.Line)]++
		for _, ret := range c.Retreats {
			seen["displacement"] += len(ret.Displaced)
			if len(ret.Displaced) > 1 {
				seen["displacement chain"]++
			}
			if ret.Eliminated {
				seen["eliminated in retreat"]++
			}
		}
		seen["banzai removal"] += len(c.Removals)
		seen["fpf"] += len(c.FPF)
		seen["fpf gsp"] += c.FPFGSP
		seen["gsp"] += c.GSP
		seen["advance"] += len(c.Advances)
		seen["unmade advance"] += len(c.Unmade)
		if c.Void {
			seen["void"]++
		}
		if len(c.Defenders) > 1 {
			seen["several defenders"]++
		}
		if len(c.Attackers) == 0 {
			seen["artillery alone"]++
		}
		if c.Banzai {
			seen["banzai"]++
		}
		if len(c.Barrage) > 0 {
			seen["barrage"]++
		}
	}
}

// replayGame plays a game again from its steps as JSON: each step's
// orders read back from JSON and given to the position read back from the
// previous step's JSON, with the same dice, must give byte for byte the
// same position and events.
func replayGame(t *testing.T, e *island.Engine, seed uint64, steps []step) {
	p, _ := e.Start()
	dice := Dice(seed)
	for n, st := range steps {
		if n > 0 {
			var err error
			if p, err = e.Unmarshal(steps[n-1].position); err != nil {
				t.Fatalf("seed %d, step %d: %v", seed, n, err)
			}
		}
		var q island.Position
		var evs []island.Event
		var ps []island.Problem
		switch st.kind {
		case "setup":
			var hexes map[string]island.Hex
			must(t, json.Unmarshal(st.in, &hexes))
			q, evs, ps = e.Deploy(p, hexes)
		case "move":
			var o island.Orders
			must(t, json.Unmarshal(st.in, &o))
			q, evs, ps = e.Move(p, o)
		case "combat":
			var in combatIn
			must(t, json.Unmarshal(st.in, &in))
			q, evs, ps = e.Combat(p, in.Orders, in.Defence, dice)
		}
		if len(ps) > 0 {
			t.Fatalf("seed %d, step %d (%s): the same orders are refused on replay: %v", seed, n, st.kind, ps)
		}
		if b := mustJSON(t, q); !bytes.Equal(b, st.position) {
			t.Fatalf("seed %d, step %d (%s): replayed position differs:\n%s\n%s", seed, n, st.kind, b, st.position)
		}
		if b := mustJSON(t, evs); !bytes.Equal(b, st.events) {
			t.Fatalf("seed %d, step %d (%s): replayed events differ:\n%s\n%s", seed, n, st.kind, b, st.events)
		}
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// soak plays games of a scenario: each twice from its seed, which must
// give the same steps byte for byte, and once more from its recorded
// orders. It gives what the games covered.
func soak(t *testing.T, e *island.Engine, games int) map[string]int {
	seen := map[string]int{}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		a := game(t, e, seed, seen)
		b := game(t, e, seed, map[string]int{})
		if len(a) != len(b) {
			t.Fatalf("seed %d played %d steps, then %d", seed, len(a), len(b))
		}
		for n := range a {
			if a[n].kind != b[n].kind || !bytes.Equal(a[n].in, b[n].in) || !bytes.Equal(a[n].position, b[n].position) || !bytes.Equal(a[n].events, b[n].events) {
				t.Fatalf("seed %d played two different games from step %d (%s)", seed, n, a[n].kind)
			}
		}
		replayGame(t, e, seed, a)
	}
	return seen
}

// TestSoak plays random games of legal orders (-iwsoak of each scenario,
// 100 by default) of the shipped example and of a small inline island,
// holding every step to the invariants, and requires the kinds of combat
// the games are meant to cover.
func TestSoak(t *testing.T) {
	n := *iwsoak
	t.Run("ridge-42", func(t *testing.T) {
		seen := soak(t, island.New(exampleScenario(t)), n)
		need(t, seen, n, 5*n, "D1", "D2", "D3", "De", "A1", "A2", "A3", "Ae", "NE", "void", "displacement", "displacement chain", "banzai removal", "unmade advance", "fpf", "fpf gsp", "gsp", "advance", island.EvEnter,
			"several defenders", "artillery alone", "banzai", "barrage", "eliminated in retreat", "line clear", "line broken", "line rough", "line river")
	})
	t.Run("inline", func(t *testing.T) {
		seen := soak(t, island.New(soakScenario()), n)
		need(t, seen, n, 3*n, "D1", "D2", "De", "A1", "A2", "Ae", "displacement", "banzai removal", "fpf", "advance", "void", island.EvEnter,
			"several defenders", "artillery alone", "banzai", "unmade advance", "eliminated in retreat")
	})
}

// need fails unless the games had at least least combats and every kind
// named.
func need(t *testing.T, seen map[string]int, games, least int, kinds ...string) {
	if seen["combat"] < least {
		t.Errorf("only %d combats in %d games: the soak tests too little", seen["combat"], games)
	}
	for _, k := range kinds {
		if seen[k] == 0 {
			t.Errorf("no %s in %d games: the soak misses it", k, games)
		}
	}
	t.Logf("%d games: %v", games, seen)
}

// TestMovesEndUnstacked checks the end of every random Movement Phase
// (rule 5.31): Move itself refuses stacking, so the random moves must never
// be refused and the position after them holds one unit a hex. Combat
// must leave the position it was given as it was.
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
			if err := checkBoard(e, q, map[string]bool{}); err != nil {
				t.Fatalf("seed %d after movement: %v", seed, err)
			}
			before, _ := q.Marshal()
			q2, _, ps := e.Combat(q, island.Orders{Attacks: Attacks(e, q, r)}, Defence(e, q, r), Dice(seed))
			if len(ps) > 0 {
				t.Fatalf("seed %d: %v", seed, ps)
			}
			if after, _ := q.Marshal(); !bytes.Equal(before, after) {
				t.Fatalf("seed %d: Combat changed its input", seed)
			}
			p = q2
		}
	}
}
