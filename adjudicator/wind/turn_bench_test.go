package wind_test

import (
	"math/rand"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
)

// The whole-turn benchmark plays turn fullTurn of generated game
// fullTurnSeed (TestGeneratedGames's games), a day turn in which the two
// actions files hold 40 activations and the melee step fights 8 melees.
const (
	fullTurnSeed = 20
	fullTurn     = 9
)

// replayDice hands out recorded dice in order, without allocating.
type replayDice struct {
	values []int
	i      int
}

func (d *replayDice) Roll(wind.Die) int {
	v := d.values[d.i%len(d.values)]
	d.i++
	return v
}

// fullTurnPosition returns the position at the start of the benchmarked
// turn, the three orders files of that turn (the U.S. decision and both
// actions files, from autoplay) and its dice, with the activations and the
// melees fought.
func fullTurnPosition(tb testing.TB) (*wind.State, []wind.Orders, []int, int, int) {
	r := rand.New(rand.NewSource(fullTurnSeed))
	s, _ := startGame(fullTurnSeed, r)
	var start *wind.State
	var orders []wind.Orders
	d := &recDice{r: r}
	acts, melees := 0, 0
	for s.Turn <= fullTurn {
		if phase := s.Wait().Kind; phase == wind.WaitEnded {
			tb.Fatalf("game %d ended in turn %d", fullTurnSeed, s.Turn)
		}
		if s.Turn == fullTurn && start == nil {
			start, d = s, &recDice{r: r}
		}
		o := autoplay.Orders(s, r.Intn)
		ns, evs, ps := wind.Resolve(s, o, d)
		if len(ps) > 0 {
			tb.Fatal(ps)
		}
		if start != nil {
			orders = append(orders, o)
			acts += len(o.Actions)
			for _, e := range evs {
				if e.Kind == wind.EventMeleePicked {
					melees++
				}
			}
		}
		s = ns
	}
	if phase := s.Wait().Kind; phase != wind.WaitUSDecision || len(orders) != 3 {
		tb.Fatalf("turn %d of game %d is not a whole normal turn: %d orders files, then %s", fullTurn, fullTurnSeed, len(orders), s.WaitText())
	}
	return start, orders, d.values(), acts, melees
}

// BenchmarkFullTurn measures one whole normal turn through Resolve: the
// U.S. decision with weather and airpower, both actions files, the melee
// step, victory and the turn advance.
func BenchmarkFullTurn(b *testing.B) {
	start, orders, values, acts, melees := fullTurnPosition(b)
	d := &replayDice{values: values}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		d.i = 0
		s := start
		for _, o := range orders {
			var ps []wind.Problem
			if s, _, ps = wind.Resolve(s, o, d); len(ps) > 0 {
				b.Fatal(ps)
			}
		}
		if s.Turn != fullTurn+1 || d.i != len(values) {
			b.Fatalf("the turn played differently: turn %d, %d of %d dice", s.Turn, d.i, len(values))
		}
	}
	b.ReportMetric(float64(acts), "activations/op")
	b.ReportMetric(float64(melees), "melees/op")
}

// TestFullTurnPosition keeps the benchmark honest: its turn must still be
// a day or night turn of about 40 activations and 8 melees.
func TestFullTurnPosition(t *testing.T) {
	_, orders, values, acts, melees := fullTurnPosition(t)
	t.Logf("%d activations, %d melees, %d dice", acts, melees, len(values))
	if acts < 30 || acts > 50 || melees < 5 || melees > 11 {
		t.Errorf("turn %d of game %d has %d activations and %d melees; pick another (fullTurnSeed, fullTurn) near 40 and 8", fullTurn, fullTurnSeed, acts, melees)
	}
	if orders[0].Decision == nil {
		t.Errorf("the turn does not start with the U.S. decision")
	}
}
