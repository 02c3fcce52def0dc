package wind

import "slices"

// U.S. supply, rule 7.
//
// A U.S. unit is in supply when a supply line runs to it from a source: a
// landing zone (7.1) or a connected supply depot (7.3). The line is traced
// from the source to the unit (7.2), so slopes cost what they cost a unit
// moving in that direction, and it may be at most the unit's standard move
// long. A depot is connected when a line at most a standard engineer move
// long runs to it from a landing zone or from another connected depot.
//
// Interpretations, where the rules leave room (RULINGS.md R16 to R18):
//
//   - Standard move (R16). It is the unit's movement allowance this turn with the
//     night and rain effects (5.1, 5.2; State.Allowance), whatever the unit
//     has already spent moving and whether an enemy zone of control holds it
//     (6.1): a unit's supply is checked before it fights or is refit (7.4),
//     and the rule measures how far the unit moves, not how far it still may.
//   - Minimum move (R16). A unit may always move one hex (5.8), so a standard move
//     always reaches the hexes next to a source, except across a cliff. The
//     same holds for the engineer move a depot traces: a depot next to a
//     connected source is connected.
//   - Units that cannot move (R17). A unit with no movement rating or a fixed unit
//     (supply depots, the 105mm batteries) has a standard move of nothing,
//     not even the minimum move: it is in supply only in a source hex — a
//     landing zone that is a source, or a connected depot's hex. A depot
//     itself is in supply exactly when it is connected.
//   - Blocked hexes (R18). A line may not enter a hex holding a Japanese unit, face
//     down or not, nor a hex in a Japanese zone of control (6.0, Unknown
//     units included) unless a U.S. unit stands there; it passes freely
//     through hexes where U.S. units stand. A landing zone that a Japanese
//     unit holds, or that lies in a Japanese zone of control with no U.S.
//     unit in it, is no source.
//   - SupplyOverride forces a unit in or out of supply. A depot forced out
//     supplies nothing; a depot forced in is a source whatever its chain.
//   - Japanese units are never out of supply: the supply rules apply to the
//     U.S. only (7.0). U.S. units off the map are not in supply.

// supplyNet is where supply comes from in a position and where its lines may
// run: it is built once and answers for any number of units.
type supplyNet struct {
	s       *State
	blocked map[Hex]bool
	sources []Hex           // open landing zones and connected depots
	depots  map[string]bool // every U.S. depot on the map: connected?
	reached map[supplyReach]map[Hex]int
}

// supplyReach says how far a supply line may run: one search answers every
// unit with the same standard move.
type supplyReach struct {
	mp      int
	minMove bool
}

// supplyReachOf is unit u's standard move (rule 7.2).
func (s *State) supplyReachOf(u *Unit) supplyReach {
	cl := u.counter.Class
	if cl.MP <= 0 || cl.Fixed {
		return supplyReach{}
	}
	return supplyReach{mp: s.Allowance(u), minMove: true}
}

// newSupplyNet works out the blocked hexes, the open landing zones and the
// chain of depots (rules 7.1 to 7.3).
func (s *State) newSupplyNet() *supplyNet {
	n := &supplyNet{s: s, blocked: map[Hex]bool{}, depots: map[string]bool{}, reached: map[supplyReach]map[Hex]int{}}
	us := map[Hex]bool{}
	for _, u := range s.Units {
		if u.OnMap() && u.Side() == US {
			us[u.Hex] = true
		}
	}
	for _, u := range s.Units {
		if !u.OnMap() || u.Side() != JP {
			continue
		}
		n.blocked[u.Hex] = true
		for _, h := range u.Hex.Neighbours() {
			if !us[h] && s.ProjectsZOC(u, h) {
				n.blocked[h] = true
			}
		}
	}
	m := s.Map()
	for _, lz := range m.LandingZones {
		if m.Land(lz.Hex) && !n.blocked[lz.Hex] && !slices.Contains(n.sources, lz.Hex) {
			n.sources = append(n.sources, lz.Hex)
		}
	}

	// The chain: depots forced in are sources from the start; the others
	// join while a connected source lies within their engineer's move.
	// Engineer moves are grouped so that each round runs one search per
	// distinct move.
	var waiting []*Unit
	for _, u := range s.Units {
		if !u.OnMap() || u.Side() != US || u.Kind() != Depot {
			continue
		}
		n.depots[u.ID] = false
		if v, ok := s.SupplyOverride[u.ID]; ok {
			if v {
				n.depots[u.ID] = true
				n.sources = append(n.sources, u.Hex)
			}
			continue
		}
		waiting = append(waiting, u)
	}
	for len(waiting) > 0 {
		found := map[int]map[Hex]int{}
		var still []*Unit
		for _, u := range waiting {
			mp := s.engineerMove(u)
			r, ok := found[mp]
			if !ok {
				r = Reach(m, US, n.sources, mp, ReachOptions{Block: n.block, MinMove: true})
				found[mp] = r
			}
			if _, ok := r[u.Hex]; ok {
				n.depots[u.ID] = true
				continue
			}
			still = append(still, u)
		}
		if len(still) == len(waiting) {
			break
		}
		for _, u := range waiting {
			if n.depots[u.ID] && !slices.Contains(n.sources, u.Hex) {
				n.sources = append(n.sources, u.Hex)
			}
		}
		waiting = still
	}
	return n
}

// engineerMove is the standard engineer move a depot traces its line with
// (rule 7.3: 6 MP), night and rain applied: the movement rating of the
// engineer unit that creates the depot.
func (s *State) engineerMove(depot *Unit) int {
	mp := 6
	if e, ok := s.Counters().Get(depot.counter.Engineer); ok && e.Class.MP > 0 {
		mp = e.Class.MP
	}
	return adjustMP(mp, s.Night, s.Weather)
}

func (n *supplyNet) block(h Hex) bool { return n.blocked[h] }

// supplied answers for one U.S. unit on the map, overrides aside.
func (n *supplyNet) supplied(u *Unit) bool {
	if u.Kind() == Depot {
		return n.depots[u.ID]
	}
	r := n.s.supplyReachOf(u)
	got, ok := n.reached[r]
	if !ok {
		got = Reach(n.s.Map(), US, n.sources, r.mp, ReachOptions{Block: n.block, MinMove: r.minMove})
		n.reached[r] = got
	}
	_, in := got[u.Hex]
	return in
}

// InSupply reports whether unit u is in supply now (rule 7.2). Japanese units
// always are: the supply rules are for the U.S. only. See the notes at the
// top of supply.go for how the rule is read.
func (s *State) InSupply(u *Unit) bool { return s.supplyCheck()(u) }

// supplyCheck answers InSupply for any number of units of the position as
// it stands, building the supply network once: combat asks for every unit
// of an attack or a melee at the same moment (rule 7.4).
func (s *State) supplyCheck() func(*Unit) bool {
	var n *supplyNet
	return func(u *Unit) bool {
		if v, ok := s.SupplyOverride[u.ID]; ok {
			return v
		}
		if u.Side() != US {
			return true
		}
		if !u.OnMap() {
			return false
		}
		if n == nil {
			n = s.newSupplyNet()
		}
		return n.supplied(u)
	}
}

// SupplyReport gives the supply status of every U.S. unit on the map, supply
// depots included, keyed by unit id. It runs one search per distinct
// standard move, not one per unit.
func (s *State) SupplyReport() map[string]bool {
	n := s.newSupplyNet()
	out := map[string]bool{}
	for _, u := range s.Units {
		if !u.OnMap() || u.Side() != US {
			continue
		}
		if v, ok := s.SupplyOverride[u.ID]; ok {
			out[u.ID] = v
			continue
		}
		out[u.ID] = n.supplied(u)
	}
	return out
}
