package wind

import "sort"

// RefitOptions is what the side awaited in a refit turn may order now
// (rules 9.1 to 9.6). Every item listed is accepted by CheckOrders as the
// only item of that side's refit orders; together they may not be (the
// steps of the roll run out, a landing zone fills up, a hex over-stacks).
//
// The U.S. options depend on supply, zones of control and the hexes the
// Japanese counters hold, never on what the counters are (see Outlook).
type RefitOptions struct {
	// Steps is what the loss recovery roll gave to restore (rule 9.1).
	Steps int `json:"steps,omitempty"`
	// Restore lists the infantry units that may take steps (9.1).
	Restore []RestoreOption `json:"restore,omitempty"`
	// Land lists the units of the reinforcements box and the landing zones
	// each may be sent to (9.2).
	Land []LandOption `json:"land,omitempty"`
	// Independents lists the infantry companies that may give a step to a
	// new independent unit (9.3), Depots the engineers that may create
	// their supply depot (9.4).
	Independents []string `json:"independents,omitempty"`
	Depots       []string `json:"depots,omitempty"`
	// Hide lists the Japanese units that may turn face down (9.5).
	Hide []string `json:"hide,omitempty"`
	// Moves lists the Unknown units on the map that may move (9.6), each
	// with the hex nearest it where it may go and how many hexes it may go
	// to.
	Moves []UnknownMoveOption `json:"moves,omitempty"`
	// Swaps lists the hexes whose infantry may go back to the pool for an
	// Unknown unit from off the map (9.6), each with one placement that is
	// accepted.
	Swaps []SwapOption `json:"swaps,omitempty"`
}

// RestoreOption is an infantry unit that may take refit steps.
type RestoreOption struct {
	Unit     string `json:"unit"`
	Hex      Hex    `json:"hex"`
	Steps    int    `json:"steps"`
	MaxSteps int    `json:"max_steps"`
}

// LandOption is a unit of the reinforcements box and the landing zones it
// may be sent to.
type LandOption struct {
	Unit  string   `json:"unit"`
	Zones []string `json:"zones"`
}

// UnknownMoveOption is an Unknown unit that may move in a refit turn.
type UnknownMoveOption struct {
	Unit    string `json:"unit"`
	From    Hex    `json:"from"`
	Nearest Hex    `json:"nearest"`
	Hexes   int    `json:"hexes"`
}

// SwapOption is a hex whose infantry may be swapped for an Unknown unit.
type SwapOption struct {
	Hex      Hex         `json:"hex"`
	Infantry []string    `json:"infantry"`
	Place    UnknownMove `json:"place"`
}

// refitOptions lists what side may order in the refit wait it is awaited
// for, trying each item alone the way CheckOrders judges the orders.
func (s *State) refitOptions(side Side) *RefitOptions {
	w := s.Wait()
	ok := func(o Orders) bool {
		o.Side, o.Turn, o.Wait = side, w.Turn, w.Kind
		return len(CheckOrders(s, o)) == 0
	}
	us := func(r Refit) bool { return ok(Orders{Refit: &r}) }
	jp := func(r Rearrange) bool { return ok(Orders{Rearrange: &r}) }
	out := &RefitOptions{}
	switch w.Kind {
	case WaitUSRefit:
		out.Steps = s.RefitSteps
		m := s.Map()
		for _, u := range s.Units {
			if u.Side() != US {
				continue
			}
			switch {
			case u.Box == BoxReinforcements:
				lo := LandOption{Unit: u.ID}
				for _, lz := range m.LandingZones {
					if us(Refit{Land: []Landing{{Unit: u.ID, Zone: lz.ID}}}) {
						lo.Zones = append(lo.Zones, lz.ID)
					}
				}
				if len(lo.Zones) > 0 {
					out.Land = append(out.Land, lo)
				}
			case !u.OnMap():
			case u.Kind() == Infantry:
				if u.Steps < u.Counter().MaxSteps() && us(Refit{Restore: []Restore{{Unit: u.ID}}}) {
					out.Restore = append(out.Restore, RestoreOption{Unit: u.ID, Hex: u.Hex, Steps: u.Steps, MaxSteps: u.Counter().MaxSteps()})
				}
				if us(Refit{Independents: []string{u.ID}}) {
					out.Independents = append(out.Independents, u.ID)
				}
			case u.Kind() == Engineer:
				if us(Refit{Depots: []string{u.ID}}) {
					out.Depots = append(out.Depots, u.ID)
				}
			}
		}
	case WaitJPRefit:
		var offMap []*Unit
		for _, u := range s.Units {
			if u.Side() == JP && u.Kind() == Unknown && u.Box == BoxOffMap {
				offMap = append(offMap, u)
			}
		}
		allowed := map[Hex]bool{}
		for _, h := range s.Map().LandHexes() {
			if s.UnknownBan(h) == "" {
				allowed[h] = true
			}
		}
		infantry := map[Hex][]string{}
		for _, u := range s.Units {
			if u.Side() != JP || !u.OnMap() {
				continue
			}
			if !u.FaceDown && jp(Rearrange{Hide: []string{u.ID}}) {
				out.Hide = append(out.Hide, u.ID)
			}
			if u.Kind() == Infantry && !u.Captured {
				infantry[u.Hex] = append(infantry[u.Hex], u.ID)
			}
			if u.Kind() != Unknown {
				continue
			}
			for k, h := range nearestFirst(u.Hex, allowed) {
				if k > 12 {
					break // the hexes the rules allow are few or none
				}
				if h != u.Hex && jp(Rearrange{Moves: []UnknownMove{{Unit: u.ID, To: h}}}) {
					out.Moves = append(out.Moves, UnknownMoveOption{Unit: u.ID, From: u.Hex, Nearest: h, Hexes: len(allowed)})
					break
				}
			}
		}
		if len(offMap) > 0 {
			hexes := make([]Hex, 0, len(infantry))
			for h := range infantry {
				hexes = append(hexes, h)
			}
			sort.Slice(hexes, func(i, j int) bool { return hexes[i] < hexes[j] })
			for _, h := range hexes {
				for _, to := range nearestFirst(h, allowed) {
					if to.Distance(h) > 2 {
						break
					}
					place := UnknownMove{Unit: offMap[0].ID, To: to}
					if jp(Rearrange{Swaps: []Swap{{Hex: h, Place: []UnknownMove{place}}}}) {
						out.Swaps = append(out.Swaps, SwapOption{Hex: h, Infantry: infantry[h], Place: place})
						break
					}
				}
			}
		}
	}
	return out
}

// nearestFirst returns the hexes of set ordered by distance from h, then
// by number.
func nearestFirst(h Hex, set map[Hex]bool) []Hex {
	out := make([]Hex, 0, len(set))
	for x := range set {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := out[i].Distance(h), out[j].Distance(h)
		if di != dj {
			return di < dj
		}
		return out[i] < out[j]
	})
	return out
}
