package wind

import "container/heap"

// ReachOptions says what limits a movement search besides movement points.
type ReachOptions struct {
	// Block reports hexes that may not be entered at all (nil: none).
	Block func(Hex) bool
	// Stop reports hexes that may be entered but not left, like an enemy
	// zone of control (rule 6.1). Start hexes are never stopped.
	Stop func(Hex) bool
	// MinMove lets a unit always enter one adjacent hex from a start hex,
	// whatever it costs, unless a cliff or the sea is in the way (rule 5.8).
	MinMove bool
	// Cross reports steps from one hex into the next that may not be taken
	// though both hexes may be entered, like the crossing between the
	// fronts of The Linkup (rule 15.3) (nil: none).
	Cross func(from, to Hex) bool
}

// Reach returns the fewest movement points a unit of side needs to get from
// any of starts to each hex it can reach spending at most mp. Start hexes
// cost 0. A hex entered by the minimum move (5.8) costs mp when its true cost
// is higher.
func Reach(m *Map, side Side, starts []Hex, mp int, o ReachOptions) map[Hex]int {
	best := make(map[Hex]int, 64)
	q := &hexQueue{}
	for _, s := range starts {
		if m.Land(s) {
			best[s] = 0
			heap.Push(q, hexCost{s, 0})
		}
	}
	isStart := func(h Hex) bool {
		for _, s := range starts {
			if s == h {
				return true
			}
		}
		return false
	}
	for q.Len() > 0 {
		cur := heap.Pop(q).(hexCost)
		if cur.mp > best[cur.h] {
			continue
		}
		start := cur.mp == 0 && isStart(cur.h)
		if !start && o.Stop != nil && o.Stop(cur.h) {
			continue
		}
		for _, n := range cur.h.Neighbours() {
			if !m.Land(n) || (o.Block != nil && o.Block(n)) || (o.Cross != nil && o.Cross(cur.h, n)) {
				continue
			}
			c, err := StepCost(m, side, cur.h, n)
			if err != nil {
				continue
			}
			total := cur.mp + c.MP
			if total > mp {
				if !(o.MinMove && start) {
					continue
				}
				total = mp
			}
			if old, ok := best[n]; ok && old <= total {
				continue
			}
			best[n] = total
			heap.Push(q, hexCost{n, total})
		}
	}
	return best
}

type hexCost struct {
	h  Hex
	mp int
}

type hexQueue []hexCost

func (q hexQueue) Len() int { return len(q) }
func (q hexQueue) Less(i, j int) bool {
	if q[i].mp != q[j].mp {
		return q[i].mp < q[j].mp
	}
	return q[i].h < q[j].h
}
func (q hexQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *hexQueue) Push(x any)   { *q = append(*q, x.(hexCost)) }
func (q *hexQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
