package wind

// Surround counts, for a melee attack on target by the given attacking
// units, the hexes around target that rule 6.2 credits to the attacker: 5
// gives +1 to the attack dice and 6 gives +2 (Situation.Surround, rule 8.3).
//
// Each of the six neighbours of target counts when (RULINGS.md R35):
//
//   - it is impassable from target: off the map, sea, or across a cliff
//     from target (rule 6.2 counts impassable hexes as the attacker's; rule
//     5.7 stops both movement and zones of control at a cliff). This comes
//     first, so an enemy unit beyond a cliff does not spoil the count;
//   - otherwise, it holds none of the defenders' side's units (an enemy unit
//     cancels the attacker's zone of control there, whatever enemy zones of
//     control reach it), and it holds one of the attacking units or lies in
//     the zone of control of one.
//
// Only units taking part in this melee count: other units of the attacking
// side, and their zones of control, do not (rule 6.2). A defending unit in
// target itself is no neighbour and changes nothing.
func (s *State) Surround(target Hex, attackers []*Unit) int {
	m := s.Map()
	var side Side
	for _, u := range attackers {
		if u.OnMap() {
			side = u.Side()
			break
		}
	}
	if side == NoSide {
		return 0
	}
	n := 0
	for _, h := range target.Neighbours() {
		if !m.Land(h) || m.Cliff(target, h) {
			n++
			continue
		}
		if s.holdsSide(h, side.Enemy()) {
			continue
		}
		for _, u := range attackers {
			if u.OnMap() && (u.Hex == h || s.ProjectsZOC(u, h)) {
				n++
				break
			}
		}
	}
	return n
}
