package baseline

import (
	"container/heap"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// field returns, for every land hex, the movement cost for the side from
// it to the nearest of goals (Dijkstra over the terrain costs of rule
// 5.0, walked backwards from the goals). Units and zones of control are
// left out: they change every turn, the terrain does not.
func (b *board) field(goals []wind.Hex) map[wind.Hex]int {
	dist := map[wind.Hex]int{}
	q := &hexQueue{}
	for _, g := range goals {
		if b.m.Land(g) {
			dist[g] = 0
			heap.Push(q, hexCost{g, 0})
		}
	}
	for q.Len() > 0 {
		cur := heap.Pop(q).(hexCost)
		if cur.cost > dist[cur.hex] {
			continue
		}
		for _, n := range b.m.Neighbours(cur.hex) {
			c, err := wind.StepCost(b.m, b.side, n, cur.hex)
			if err != nil {
				continue
			}
			nd := cur.cost + c.MP
			if d, ok := dist[n]; !ok || nd < d {
				dist[n] = nd
				heap.Push(q, hexCost{n, nd})
			}
		}
	}
	return dist
}

// distance is the cost from h to the nearest goal; far when none is
// reachable.
func (b *board) distance(h wind.Hex) int {
	if d, ok := b.dist[h]; ok {
		return d
	}
	return 1000
}

type hexCost struct {
	hex  wind.Hex
	cost int
}

// hexQueue is a priority queue of hexes by cost, ties by hex so that the
// walk does not depend on insertion order.
type hexQueue []hexCost

func (q hexQueue) Len() int { return len(q) }
func (q hexQueue) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	return q[i].hex < q[j].hex
}
func (q hexQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *hexQueue) Push(x any)   { *q = append(*q, x.(hexCost)) }
func (q *hexQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
