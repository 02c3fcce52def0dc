package wind

import "fmt"

// Cost is the movement points one step between adjacent hexes costs, with
// its parts so that errors and reports can explain it.
type Cost struct {
	MP       int
	Terrain  int  // clear or lake cost of the hex entered (rule 5.0)
	River    bool // moved along a river: the terrain cost is 1 (5.5)
	SlopeUp  bool // crossed an up slope (5.3)
	SlopeDn  bool // crossed a down slope (5.3)
	LevelsUp int  // levels climbed (5.4)
}

// ErrImpassable is returned by StepCost for a cliff, the sea, or hexes that
// do not touch.
var ErrImpassable = fmt.Errorf("adjudicator: impassable")

// StepCost returns what it costs a unit of side to move from a to the
// adjacent hex b (rule 5.0 table).
//
//   - Terrain: clear 2 (U.S.) or 1 (Japanese); lake 3 or 2.
//   - River: moving from a to b along one river costs 1 instead of the
//     terrain cost; slope and level costs still apply (5.5 "ignore
//     non-elevation terrain costs"; RULINGS.md R12).
//   - Slopes: the U.S. pays +1 for an up slope and +1 for a down slope; the
//     Japanese +1 for an up slope only. A side drawn both ways is both, so
//     the U.S. pays +2 there and the Japanese +1 (RULINGS.md R10).
//   - Level: the U.S. pays +1 for each level climbed. The rules give +1 for
//     "the higher elevation" on a one-level climb (5.4 example); where the
//     map rises two levels without a cliff, each level is paid (RULINGS.md
//     R11).
//   - Cliffs and sea are impassable.
func StepCost(m *Map, side Side, a, b Hex) (Cost, error) {
	if !a.Adjacent(b) || !m.Land(a) || !m.Land(b) || m.Cliff(a, b) {
		return Cost{}, ErrImpassable
	}
	var c Cost
	switch m.Terrain(b) {
	case Lake:
		c.Terrain = 3
		if side == JP {
			c.Terrain = 2
		}
	default:
		c.Terrain = 2
		if side == JP {
			c.Terrain = 1
		}
	}
	if _, ok := m.RiverBetween(a, b); ok {
		c.River = true
		c.Terrain = 1
	}
	c.SlopeUp, c.SlopeDn = m.Slope(a, b)
	c.MP = c.Terrain
	if c.SlopeUp {
		c.MP++
	}
	if c.SlopeDn && side == US {
		c.MP++
	}
	if side == US {
		if d := m.Level(b) - m.Level(a); d > 0 {
			c.LevelsUp = d
			c.MP += d
		}
	}
	return c, nil
}

// Explain lists the parts of a cost for a player: "clear 2, up slope +1,
// level +1".
func (c Cost) Explain(side Side) string {
	s := fmt.Sprintf("clear %d", c.Terrain)
	if c.River {
		s = "river 1"
	} else if (side == US && c.Terrain == 3) || (side == JP && c.Terrain == 2) {
		s = fmt.Sprintf("lake %d", c.Terrain)
	}
	if c.SlopeUp {
		s += ", up slope +1"
	}
	if c.SlopeDn && side == US {
		s += ", down slope +1"
	}
	if c.LevelsUp > 0 {
		s += fmt.Sprintf(", level +%d", c.LevelsUp)
	}
	return s
}

// Allowance returns the movement points a unit has this turn: its rating,
// halved rounding up at night (5.2), then one less in rain (5.1).
func (s *State) Allowance(u *Unit) int {
	return adjustMP(u.counter.Class.MP, s.Night, s.Weather)
}

func adjustMP(mp int, night bool, w Weather) int {
	if mp <= 0 {
		return 0
	}
	if night {
		mp = (mp + 1) / 2
	}
	if w == Rain {
		mp--
	}
	return max(mp, 0)
}

// ProjectsZOC reports whether unit u, standing in its hex, extends a zone of
// control into the adjacent hex h: it could move there (no cliff, not sea),
// rule 6.0. Every unit on the map does, Unknown units included.
func (s *State) ProjectsZOC(u *Unit, h Hex) bool {
	if !u.OnMap() || !u.Hex.Adjacent(h) {
		return false
	}
	m := s.Map()
	return m.Land(h) && !m.Cliff(u.Hex, h)
}

// InEnemyZOC reports whether hex h lies in a zone of control of a unit of
// side enemy (a unit in h itself does not count: a ZOC is projected into
// adjacent hexes).
func (s *State) InEnemyZOC(h Hex, enemy Side) bool {
	for _, n := range h.Neighbours() {
		for _, u := range s.UnitsAt(n) {
			if u.Side() == enemy && s.ProjectsZOC(u, h) {
				return true
			}
		}
	}
	return false
}
