package standin

import (
	"testing"

	"github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/adjudicator/island/autoplay"
)

// decision is one call the stand-in answered in a game.
type decision struct {
	p    island.Position
	side island.Side
}

// recorder is the stand-in playing a side, keeping the positions it was
// asked about.
type recorder struct {
	stand
	orders_, defences *[]decision
}

func (r recorder) orders(e *island.Engine, p island.Position) island.Orders {
	*r.orders_ = append(*r.orders_, decision{p, r.side})
	return r.stand.orders(e, p)
}

func (r recorder) defence(e *island.Engine, p island.Position) island.Defence {
	*r.defences = append(*r.defences, decision{p, r.side})
	return r.stand.defence(e, p)
}

// decisions plays games of Ridge 42, the stand-in against the random
// player from each side, and gives every position the stand-in decided in.
func decisions(tb testing.TB, e *island.Engine, games int) (orders, defences []decision) {
	for g := range games {
		seed := uint64(5000 + g)
		for _, side := range []island.Side{island.US, island.Japan} {
			players := map[island.Side]player{
				side:         recorder{stand{side, seed}, &orders, &defences},
				side.Enemy(): random{autoplay.NewRand(seed)},
			}
			// The recorder is no stand type: play takes its Defence after
			// the enemy's moves, which the stand-in must answer as well.
			if _, err := play(e, seed, players); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return orders, defences
}

// slowest gives the decision that does most work, judged by its
// allocations: a measure of time would pick another position on a loaded
// machine each run.
func slowest(ds []decision, f func(decision)) decision {
	var worst decision
	most := -1.0
	for _, d := range ds {
		if n := testing.AllocsPerRun(1, func() { f(d) }); n > most {
			worst, most = d, n
		}
	}
	return worst
}

// BenchmarkOrders times Orders over every Player-Turn of 20 games from
// each side: ns/op is the mean decision.
func BenchmarkOrders(b *testing.B) {
	e := ridge42(b)
	ds, _ := decisions(b, e, 20)
	k := 0
	for b.Loop() {
		d := ds[k%len(ds)]
		Orders(e, d.p, d.side, 1)
		k++
	}
	b.ReportMetric(float64(len(ds)), "positions")
}

// BenchmarkOrdersSlowest times Orders in the position of those games where
// it does most work.
func BenchmarkOrdersSlowest(b *testing.B) {
	e := ridge42(b)
	ds, _ := decisions(b, e, 20)
	d := slowest(ds, func(d decision) { Orders(e, d.p, d.side, 1) })
	for b.Loop() {
		Orders(e, d.p, d.side, 1)
	}
}

// BenchmarkDefence times Defence over the same games.
func BenchmarkDefence(b *testing.B) {
	e := ridge42(b)
	_, ds := decisions(b, e, 20)
	k := 0
	for b.Loop() {
		d := ds[k%len(ds)]
		Defence(e, d.p, d.side, 1)
		k++
	}
	b.ReportMetric(float64(len(ds)), "positions")
}

// BenchmarkDeploy times both sides' set-up.
func BenchmarkDeploy(b *testing.B) {
	e := ridge42(b)
	p0, _ := e.Start()
	for b.Loop() {
		p := p0
		for p.Phase == island.PhaseSetup {
			p, _, _ = e.Deploy(p, Deploy(e, p, p.Phasing, 1))
		}
	}
}
