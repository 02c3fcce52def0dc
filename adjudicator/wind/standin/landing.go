package standin

import (
	"slices"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// lossWeight is how many movement points of a zone's distance from the
// goals the stand-in gives up to save one step it expects to lose to a
// landing zone's capacity or to a scatter into the Japanese (rules 9.2.1,
// 9.2.2): a step lost is a step on the casualty track as well as one less
// on the map.
const lossWeight = 30

// skipLoss is the expected loss, in steps, above which a unit the rules
// do not make land stays in the reinforcements box for a later refit
// turn rather than land where it would lose them.
const skipLoss = 0.25

// openingSkipLoss is skipLoss for the opening landing of a free setup
// (12.6), where a unit left out waits for a refit turn.
var openingSkipLoss = 0.5

// zoneLoad is what the stand-in expects a landing zone to hold once this
// turn's landings are ashore: the chance of each total of U.S. steps
// there (rule 9.2.1 counts every U.S. unit in the zone's hex).
type zoneLoad struct {
	capacity int
	// p[k] is the chance that the zone holds k steps.
	p []float64
}

// over is the number of steps the zone is expected to lose to its
// capacity (9.2.1).
func (z *zoneLoad) over() float64 {
	e := 0.0
	for k, p := range z.p {
		if k > z.capacity {
			e += p * float64(k-z.capacity)
		}
	}
	return e
}

// add returns the load with a unit of steps steps come ashore there with
// chance p.
func (z *zoneLoad) add(steps int, p float64) *zoneLoad {
	out := &zoneLoad{capacity: z.capacity, p: make([]float64, len(z.p)+steps)}
	for k, q := range z.p {
		out.p[k] += q * (1 - p)
		out.p[k+steps] += q * p
	}
	return out
}

// landPlanner sends the units of a landing, one at a time, where the
// goals are near and the expected loss is small, keeping count of what
// each zone holds and may yet receive.
type landPlanner struct {
	*board
	load map[string]*zoneLoad
	// safe marks the zones the rules let a unit be sent to now: neither
	// held by the Japanese nor in their zone of control (9.2). A unit that
	// scatters to another zone is lost there (9.2.2); the stand-in counts
	// as such every zone no option lists, not knowing better.
	safe map[string]bool
}

// newLandPlanner counts the U.S. steps standing in each landing zone and
// extra, the steps the orders add there before the landing (restored
// steps, 9.1), by hex.
func (b *board) newLandPlanner(opts []wind.LandOption, extra map[wind.Hex]int) *landPlanner {
	lp := &landPlanner{board: b, load: map[string]*zoneLoad{}, safe: map[string]bool{}}
	for _, lz := range b.m.LandingZones {
		n := extra[lz.Hex]
		for _, u := range b.v.Units {
			if u.Hex == lz.Hex && u.Box == "" {
				n += u.Steps
			}
		}
		p := make([]float64, n+1)
		p[n] = 1
		lp.load[lz.ID] = &zoneLoad{capacity: lz.Capacity, p: p}
	}
	for _, lo := range opts {
		for _, z := range lo.Zones {
			lp.safe[z] = true
		}
	}
	return lp
}

// outcomes returns, for a unit sent to zone z, the chance of coming ashore
// in each zone (the scatter chart of rule 9.2.2 under this turn's
// weather; what is missing from 1 is the chance of a delay).
func (lp *landPlanner) outcomes(z string) map[string]float64 {
	lz, ok := lp.m.LandingZone(z)
	if !ok {
		return nil
	}
	mod := wind.WeatherRefitModifier(lp.v.Weather)
	out := map[string]float64{}
	for die := 1; die <= 10; die++ {
		switch r := lz.ScatterFor(die + mod); r.Kind {
		case wind.Landed:
			out[z] += 0.1
		case wind.Scattered:
			out[r.To] += 0.1
		}
	}
	return out
}

// cost returns the expected steps lost by sending a unit of steps steps
// to zone z, and the loads it leaves.
func (lp *landPlanner) cost(z string, steps int) (float64, map[string]*zoneLoad) {
	loss := 0.0
	next := map[string]*zoneLoad{}
	for to, p := range lp.outcomes(z) {
		cur, ok := lp.load[to]
		if !ok || !lp.safe[to] {
			loss += p * float64(steps)
			continue
		}
		n := cur.add(steps, p)
		loss += n.over() - cur.over()
		next[to] = n
	}
	return loss, next
}

// send commits a unit of steps steps to zone z.
func (lp *landPlanner) send(z string, steps int) {
	_, next := lp.cost(z, steps)
	for to, l := range next {
		lp.load[to] = l
	}
}

// choose returns the zone of zones best for a unit of steps steps, and
// the steps it is expected to lose there; "" when zones is empty.
func (lp *landPlanner) choose(zones []string, steps int) (string, float64) {
	best, bestC, bestL := "", 0.0, 0.0
	for _, z := range zones {
		l, _ := lp.cost(z, steps)
		c := float64(lp.zoneDistance(z)) + lossWeight*l
		if best == "" || c < bestC || c == bestC && z < best {
			best, bestC, bestL = z, c, l
		}
	}
	return best, bestL
}

// land sends the units of opts to the zones where each is expected to
// lose least for the distance to the goals, counting what the zones hold
// (rule 9.2.1) and where the scatter chart may put each unit (9.2.2);
// the biggest units choose first. A unit expected to lose more than
// skipLoss steps stays in the reinforcements box unless all must land.
// fixed are units the rules land by themselves first (12.5).
func (b *board) land(opts []wind.LandOption, fixed []wind.Landing, extra map[wind.Hex]int, skip float64) []wind.Landing {
	lp := b.newLandPlanner(opts, extra)
	steps := func(id string) int {
		for _, u := range b.v.Units {
			if u.ID == id {
				return u.Steps
			}
		}
		return 1
	}
	for _, f := range fixed {
		lp.send(f.Zone, steps(f.Unit))
	}
	order := slices.Clone(opts)
	slices.SortStableFunc(order, func(a, c wind.LandOption) int { return steps(c.Unit) - steps(a.Unit) })
	var out []wind.Landing
	for _, lo := range order {
		n := steps(lo.Unit)
		z, loss := lp.choose(lo.Zones, n)
		if z == "" || skip >= 0 && loss > skip {
			continue
		}
		lp.send(z, n)
		out = append(out, wind.Landing{Unit: lo.Unit, Zone: z})
	}
	return out
}
