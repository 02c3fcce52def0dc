package island

import "sort"

// Reach gives every hex unit id could end its move in this Movement Phase,
// each with one cheapest legal path to it (rules 5.1-5.2, 6.0, 6.14; IW16),
// for order templates and players. Friends are passed through freely, so a
// hex a friend holds is listed too: ending there is refused by rule 5.31
// unless the friend moves out. The unit's own hex is not listed.
func (e *Engine) Reach(p Position, id string) map[Hex][]Hex {
	best := e.reach(p, id)
	if best == nil {
		return nil
	}
	return paths(best)
}

// Route is one cheapest legal way to a hex: its path and its cost in
// half Movement Points (road moves cost half a point, rule 5.22).
type Route struct {
	Path []Hex
	Half int
}

// ReachCosts is Reach with the cost of each path, for order templates.
func (e *Engine) ReachCosts(p Position, id string) map[Hex]Route {
	best := e.reach(p, id)
	if best == nil {
		return nil
	}
	out := make(map[Hex]Route, len(best))
	for h, n := range best {
		out[h] = Route{Path: n.path, Half: n.cost}
	}
	return out
}

// reach is Reach with each path's cost.
func (e *Engine) reach(p Position, id string) map[Hex]node {
	i, ok := e.byID[id]
	if !ok || p.Phase != PhaseMovement || e.S.Units[i].Side != p.Phasing {
		return nil
	}
	b := e.board(&p)
	u := e.unit(i)
	pc := p.Pieces[i]
	enemy := u.Side.Enemy()
	budget := 2 * u.Movement
	best := map[Hex]node{}
	var frontier []Hex
	free := func(h Hex) bool { // neither impassable nor enemy-held
		at := b.at(h)
		return !e.cells[e.index(h)].terrain.Impassable && (at < 0 || b.side(at) != enemy)
	}
	switch {
	case pc.Where == Waiting && pc.Due > 0 && pc.Due <= p.Turn:
		for _, r := range e.S.Reinforcements {
			if !contains(r.Units, id) {
				continue
			}
			for _, h := range append(append([]Hex(nil), r.Entry...), e.S.Areas[r.Area]...) {
				c := &e.cells[e.index(h)]
				cost := 2 * c.terrain.MP
				if !free(h) || cost > budget || (e.class[i] == Armor && !c.terrain.Armor && !c.road && !c.trail) {
					continue
				}
				if n, seen := best[h]; !seen || cost < n.cost {
					best[h] = node{cost, []Hex{h}}
					frontier = append(frontier, h)
				}
			}
		}
	case pc.Where != OnMap:
		return nil
	case b.controlled(pc.Hex, enemy):
		if u.Side != Japan || !e.isFoot(i) { // rules 5.14, 5.15
			return nil
		}
		for _, h := range e.S.Grid.Neighbours(pc.Hex) { // rule 6.14: one hex
			if cost, rule, _ := e.stepCost(i, pc.Hex, h); rule == "" && free(h) && cost <= budget {
				best[h] = node{cost, []Hex{h}}
			}
		}
		return best
	default:
		best[pc.Hex] = node{0, nil}
		frontier = append(frontier, pc.Hex)
	}
	// Costs are small integers: relax until nothing improves.
	for len(frontier) > 0 {
		sort.Slice(frontier, func(x, y int) bool { return best[frontier[x]].cost < best[frontier[y]].cost })
		h := frontier[0]
		frontier = frontier[1:]
		from := best[h]
		if len(from.path) > 0 && b.controlled(h, enemy) {
			continue // rule 6.0: it stops on entering
		}
		for _, n := range e.S.Grid.Neighbours(h) {
			cost, rule, _ := e.stepCost(i, h, n)
			if rule != "" || !free(n) || from.cost+cost > budget {
				continue
			}
			if old, seen := best[n]; seen && old.cost <= from.cost+cost {
				continue
			}
			best[n] = node{from.cost + cost, append(append([]Hex(nil), from.path...), n)}
			frontier = append(frontier, n)
		}
	}
	delete(best, pc.Hex)
	return best
}

// node is the cheapest way found to a hex: its cost in half MP and path.
type node struct {
	cost int
	path []Hex
}

func paths(m map[Hex]node) map[Hex][]Hex {
	out := make(map[Hex][]Hex, len(m))
	for h, n := range m {
		out[h] = n.path
	}
	return out
}
