package standin

import (
	"flag"
	"fmt"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/adjudicator/island/autoplay"
	oisland "github.com/attu-pbem/attu/orders/island"
)

// iwgames is how many games TestStrength plays from each side; the figure
// in BENCHMARKS.md is from 200.
var iwgames = flag.Int("iwgames", 20, "games TestStrength plays from each side against the random player")

const exampleFile = "../../../examples/island-war/ridge-42-invented.yaml"

func ridge42(tb testing.TB) *island.Engine {
	tb.Helper()
	data, err := os.ReadFile(exampleFile)
	if err != nil {
		tb.Fatal(err)
	}
	sc, ps := oisland.ParseScenario(data)
	if len(ps) > 0 {
		tb.Fatalf("%s: %v", exampleFile, ps)
	}
	return island.New(sc)
}

// player is one side's chooser of orders in a test game.
type player interface {
	deploy(e *island.Engine, p island.Position) map[string]island.Hex
	orders(e *island.Engine, p island.Position) island.Orders // moves, or attacks in the Combat Phase
	defence(e *island.Engine, p island.Position) island.Defence
}

// stand is the stand-in playing a side.
type stand struct {
	side island.Side
	seed uint64
}

func (s stand) deploy(e *island.Engine, p island.Position) map[string]island.Hex {
	return Deploy(e, p, s.side, s.seed)
}
func (s stand) orders(e *island.Engine, p island.Position) island.Orders {
	o, fell := orders(e, p, s.side, s.seed)
	if fell {
		// The planned orders should pass as they are; the fallback only
		// guards a game against a bug.
		fallbacks++
	}
	return o
}

// fallbacks counts the stand-in's planned orders the engine refused.
var fallbacks int

func (s stand) defence(e *island.Engine, p island.Position) island.Defence {
	return Defence(e, p, s.side, s.seed)
}

// random is the legal-random player of autoplay.
type random struct{ r *autoplay.Rand }

func (x random) deploy(e *island.Engine, p island.Position) map[string]island.Hex {
	return autoplay.Deploy(e, p, x.r)
}
func (x random) orders(e *island.Engine, p island.Position) island.Orders {
	if p.Phase == island.PhaseMovement {
		return island.Orders{Moves: autoplay.Moves(e, p, x.r)}
	}
	return island.Orders{Attacks: autoplay.Attacks(e, p, x.r), Own: autoplay.Instructions(e, p, p.Phasing, x.r)}
}
func (x random) defence(e *island.Engine, p island.Position) island.Defence {
	return autoplay.Defence(e, p, x.r)
}

// play plays one game of Ridge 42 and gives its verdict. The stand-in's
// standing instructions are taken at the start of the enemy's Player-Turn,
// before he moves; the random player's after his enemy's moves. Any order
// the engine refuses is an error.
func play(e *island.Engine, seed uint64, players map[island.Side]player) (island.Verdict, error) {
	return playLog(e, seed, players, nil)
}

// playLog is play, telling logf each Player-Turn's events when it is set.
func playLog(e *island.Engine, seed uint64, players map[island.Side]player, logf func(string, ...any)) (island.Verdict, error) {
	dice := autoplay.Dice(seed)
	p, _ := e.Start()
	for p.Phase == island.PhaseSetup {
		q, _, ps := e.Deploy(p, players[p.Phasing].deploy(e, p))
		if len(ps) > 0 {
			return island.Verdict{}, fmt.Errorf("%s set-up refused: %v", p.Phasing, ps)
		}
		p = q
	}
	for p.Phase != island.PhaseOver {
		us, them := players[p.Phasing], players[p.Phasing.Enemy()]
		var d island.Defence
		_, standing := them.(stand)
		if standing {
			d = them.defence(e, p)
		}
		o := us.orders(e, p)
		q, _, ps := e.Move(p, o)
		if len(ps) > 0 {
			return island.Verdict{}, fmt.Errorf("%s: moves refused: %v", p, ps)
		}
		if _, ok := us.(random); ok {
			o = us.orders(e, q)
		}
		if !standing {
			d = them.defence(e, q)
		}
		q2, evs, ps := e.Combat(q, o, d, dice)
		if len(ps) > 0 {
			return island.Verdict{}, fmt.Errorf("%s: attacks refused: %v in %+v", q, ps, o.Attacks)
		}
		if logf != nil {
			logTurn(e, logf, p, o, evs, q2)
		}
		p = q2
	}
	return e.Verdict(p), nil
}

// wilson gives the 95 % Wilson score interval of k wins in n games.
func wilson(k, n int) (float64, float64) {
	const z = 1.96
	f, m := float64(k)/float64(n), float64(n)
	c := f + z*z/(2*m)
	h := z * math.Sqrt(f*(1-f)/m+z*z/(4*m*m))
	d := 1 + z*z/m
	return (c - h) / d, (c + h) / d
}

// TestStrength plays the stand-in against the random player from each
// side of Ridge 42 and asks for at least 75 % wins by the engine's
// Verdict (a draw is no win). -iwgames 200 gives the BENCHMARKS.md figure.
func TestStrength(t *testing.T) {
	e := ridge42(t)
	for _, side := range []island.Side{island.US, island.Japan} {
		wins, draws := 0, 0
		for g := range *iwgames {
			seed := uint64(1000 + g)
			players := map[island.Side]player{side: stand{side, seed}, side.Enemy(): random{autoplay.NewRand(seed)}}
			o, err := play(e, seed, players)
			if err != nil {
				t.Fatalf("seed %d, stand-in %s: %v", seed, side, err)
			}
			switch o.Winner {
			case side:
				wins++
			case "":
				draws++
			}
		}
		lo, hi := wilson(wins, *iwgames)
		t.Logf("stand-in as %s: %d wins, %d draws in %d games: %.1f %% (95 %% Wilson %.1f-%.1f %%)",
			side, wins, draws, *iwgames, 100*float64(wins)/float64(*iwgames), 100*lo, 100*hi)
		if float64(wins) < 0.75*float64(*iwgames) {
			t.Errorf("stand-in as %s won %d of %d games; it should win at least 75 %%", side, wins, *iwgames)
		}
	}
}

// late is the stand-in asked for its standing instructions only after
// the enemy has moved, as a host may ask.
type late struct{ stand }

// TestOrdersAccepted plays the stand-in against itself and against the
// random player from both sides over many seeds, on Ridge 42, on a
// variant where the Japanese move first and on one where ground support
// reaches one hex (rule 9.13; the random player does not keep to that
// rule, so only the stand-in plays it): the engine must accept every
// set-up, move and attack the stand-in gives.
func TestOrdersAccepted(t *testing.T) {
	first, near := *ridge42(t).S, *ridge42(t).S
	first.FirstPlayer = island.Japan
	near.Rules.GSPRange = 1
	for v, e := range []*island.Engine{ridge42(t), island.New(&first), island.New(&near)} {
		for seed := uint64(1); seed <= 15; seed++ {
			pairings := []map[island.Side]player{
				{island.US: stand{island.US, seed}, island.Japan: stand{island.Japan, ^seed}},
				{island.US: late{stand{island.US, seed}}, island.Japan: late{stand{island.Japan, ^seed}}},
				{island.US: stand{island.US, seed}, island.Japan: random{autoplay.NewRand(seed)}},
				{island.US: random{autoplay.NewRand(seed)}, island.Japan: stand{island.Japan, seed}},
			}
			if v == 2 {
				pairings = pairings[:2]
			}
			for k, players := range pairings {
				fallbacks = 0
				if _, err := play(e, seed, players); err != nil {
					t.Fatalf("variant %d, seed %d, pairing %d: %v", v, seed, k, err)
				}
				if fallbacks > 0 {
					t.Fatalf("variant %d, seed %d, pairing %d: %d planned orders refused", v, seed, k, fallbacks)
				}
			}
		}
	}
}

// twice is the stand-in asked each question twice, the answers compared.
type twice struct {
	stand
	t *testing.T
}

func (x twice) orders(e *island.Engine, p island.Position) island.Orders {
	before, _ := p.Marshal()
	a, b := x.stand.orders(e, p), x.stand.orders(e, p)
	if !reflect.DeepEqual(a, b) {
		x.t.Fatalf("%s: the same position gave different orders:\n%+v\n%+v", p, a, b)
	}
	if after, _ := p.Marshal(); string(after) != string(before) {
		x.t.Fatalf("%s: Orders changed the position it was given", p)
	}
	return a
}

func (x twice) defence(e *island.Engine, p island.Position) island.Defence {
	a, b := x.stand.defence(e, p), x.stand.defence(e, p)
	if !reflect.DeepEqual(a, b) {
		x.t.Fatalf("%s: the same position gave different standing instructions", p)
	}
	return a
}

func (x twice) deploy(e *island.Engine, p island.Position) map[string]island.Hex {
	a, b := x.stand.deploy(e, p), x.stand.deploy(e, p)
	if !reflect.DeepEqual(a, b) {
		x.t.Fatalf("the same set-up position gave different placements")
	}
	return a
}

// TestDeterministic asks the same answer of the same inputs, reinforcements
// and all, over whole games, and that the position given is left as it was.
func TestDeterministic(t *testing.T) {
	e := ridge42(t)
	for seed := uint64(1); seed <= 3; seed++ {
		players := map[island.Side]player{island.US: twice{stand{island.US, seed}, t}, island.Japan: twice{stand{island.Japan, seed}, t}}
		if _, err := play(e, seed, players); err != nil {
			t.Fatal(err)
		}
	}
}

// logTurn tells what one Player-Turn did, for a failing or traced game.
func logTurn(e *island.Engine, logf func(string, ...any), p island.Position, o island.Orders, evs []island.Event, q island.Position) {
	logf("%s", p)
	for _, m := range o.Moves {
		logf("  move %s -> %s", m.Unit, m.Path[len(m.Path)-1])
	}
	for _, ev := range evs {
		if c := ev.Combat; c != nil {
			logf("  %s %v+%v gsp %d banzai %v vs %v: %d-%d=%d %s col %d die %d %s fpf %v/%d elim %v rem %v adv %v",
				ev.Kind, c.Attackers, c.Barrage, c.GSP, c.Banzai, c.Defenders, c.AttackTotal, c.DefenseTotal, c.Differential,
				c.Line, c.Column, c.Die, c.Result, c.FPF, c.FPFGSP, c.Eliminated, c.Removals, c.Advances)
		}
	}
	var where []string
	for _, pc := range q.Pieces {
		if pc.Where == island.OnMap {
			where = append(where, pc.ID+"@"+pc.Hex.String())
		}
	}
	logf("  now %v; %v", where, e.Verdict(q))
}
