package standin

import (
	"maps"
	"slices"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// goalUnknowns is how many Unknown units a Japanese refit turn gathers on
// each goal hex (regroup): one more than the ring's, so that one hit of
// U.S. fire (rule 8.5) no longer empties the hex.
const goalUnknowns = 2

// regroup writes step 6 of a Japanese refit turn (rule 9.6) for the
// two-player game. It fills, in this order, the goal hexes up to
// goalUnknowns Unknown units and the empty hexes of the ring (within
// ringReach hexes of a goal, on the side of the landing zones, the
// nearest the zones first): first with the Unknown units on the map that
// stand farther out than the ring, the richest tables first, then with
// the Unknown units off the map, each swap taking the infantry of a hex
// outside the goals back to the pool. A hex the rules close to Unknown
// units (next to U.S. units, by a landing zone, in a cleared zone) is
// left out; whatever else the rules refuse, Trim drops.
func (b *board) regroup(ra *wind.Rearrange) {
	usAt := map[wind.Hex]bool{}
	for _, e := range b.v.Enemy {
		if e.Hex != 0 {
			usAt[e.Hex] = true
		}
	}
	open := func(h wind.Hex) bool {
		if !b.m.Land(h) || usAt[h] || slices.Contains(b.v.ClearedZones, b.m.Zone(h)) {
			return false
		}
		for _, n := range h.Neighbours() {
			if usAt[n] {
				return false
			}
		}
		for _, lz := range b.m.LandingZones {
			if lz.Hex == h || lz.Hex.Adjacent(h) {
				return false
			}
		}
		return true
	}
	jpAt := map[wind.Hex]int{}
	unknownAt := map[wind.Hex]int{}
	var movers, offMap []wind.UnitView
	for _, u := range b.v.Units {
		switch {
		case u.Kind == wind.Unknown && u.Box == wind.BoxOffMap:
			offMap = append(offMap, u)
		case u.Hex == 0 || u.Box != "":
		case u.Kind == wind.Unknown:
			unknownAt[u.Hex]++
			jpAt[u.Hex]++
			if _, d := b.nearestGoal(u.Hex); d > ringReach {
				movers = append(movers, u)
			}
		default:
			jpAt[u.Hex]++
		}
	}

	var slots []wind.Hex
	for _, g := range b.goals {
		if open(g) {
			for range goalUnknowns - unknownAt[g] {
				slots = append(slots, g)
			}
		}
	}
	var ring []wind.Hex
	for _, h := range b.m.LandHexes() {
		g, d := b.nearestGoal(h)
		if d > 0 && d <= ringReach && jpAt[h] == 0 && open(h) && b.beachDistance(h, g) < b.beachDistance(g, g) {
			ring = append(ring, h)
		}
	}
	slices.SortStableFunc(ring, func(x, y wind.Hex) int {
		gx, _ := b.nearestGoal(x)
		gy, _ := b.nearestGoal(y)
		if d := b.beachDistance(x, gx) - b.beachDistance(y, gy); d != 0 {
			return d
		}
		return int(x) - int(y)
	})
	slots = append(slots, ring...)

	richest := func(us []wind.UnitView) {
		slices.SortStableFunc(us, func(x, y wind.UnitView) int { return tableSum(y.Table) - tableSum(x.Table) })
	}
	richest(movers)
	for _, u := range movers {
		if len(slots) == 0 {
			return
		}
		ra.Moves = append(ra.Moves, wind.UnknownMove{Unit: u.ID, To: slots[0]})
		slots = slots[1:]
	}

	richest(offMap)
	infantry := map[wind.Hex]bool{}
	for _, u := range b.v.Units {
		if u.Kind == wind.Infantry && u.Hex != 0 && u.Box == "" && !slices.Contains(b.goals, u.Hex) {
			infantry[u.Hex] = true
		}
	}
	for _, h := range slices.Sorted(maps.Keys(infantry)) {
		if len(offMap) == 0 || len(slots) == 0 {
			return
		}
		reach := wind.Reach(b.m, wind.JP, []wind.Hex{h}, wind.SwapReach, wind.ReachOptions{Block: func(x wind.Hex) bool { return usAt[x] }})
		sw := wind.Swap{Hex: h}
		var left []wind.Hex
		for _, to := range slots {
			if _, ok := reach[to]; ok && len(offMap) > 0 {
				sw.Place = append(sw.Place, wind.UnknownMove{Unit: offMap[0].ID, To: to})
				offMap = offMap[1:]
			} else {
				left = append(left, to)
			}
		}
		if len(sw.Place) > 0 {
			ra.Swaps = append(ra.Swaps, sw)
			slots = left
		}
	}
}
