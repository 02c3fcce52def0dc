package wind

import "slices"

// SetupOptions is what the side awaited at a setup wait (rule 12) may
// order, for its order template: the Japanese units of the setup box and
// where each may set up, the value chits to place, or the U.S. units that
// may land and where. Like the rest of Outlook it holds only what that side
// knows: the Japanese read their own units and the map; the U.S. reads its
// units, the map and the hexes the Japanese counters stand in (a zone held
// or watched by them is closed to a landing, 9.2), never what they are.
type SetupOptions struct {
	// Setup is the side's setup: SetupHistoric or SetupFree.
	Setup string `json:"setup"`

	// Place groups the Japanese units the free setup places (12.4) by
	// what they are (the Unknown units, the 20mm guns, the 75mm guns),
	// each group with every hex its units may set up in. Each hex listed
	// is accepted for a unit of its group on its own; the setup as a whole
	// also needs one Unknown unit a hex, each landing zone of Cover
	// covered, at least one 75mm gun in each of its hexes and, in The
	// Linkup, PerFront Unknown units on each front.
	Place []PlaceOption `json:"place,omitempty"`
	// Cover lists the landing zones that need two Unknown units two or
	// three hexes away (12.4), each with the hexes of Place's Unknown
	// group that count for it.
	Cover []CoverOption `json:"cover,omitempty"`
	// PerFront is how many Unknown units set up on each front of The
	// Linkup (RULINGS.md R65); 0 elsewhere.
	PerFront int `json:"per_front,omitempty"`
	// VPHexes are the victory hexes that take a value chit when the
	// Japanese place them (14.0), VPValues the chits to place.
	VPHexes  []Hex `json:"vp_hexes,omitempty"`
	VPValues []int `json:"vp_values,omitempty"`
	// JPSetup is the default Japanese setup, the one DefaultOrders gives.
	JPSetup *JPSetup `json:"jp_setup,omitempty"`

	// Fixed are the U.S. units the historic setup lands by itself at
	// zones A, B and C (12.5), in the order they land.
	Fixed []Landing `json:"fixed,omitempty"`
	// Land lists the U.S. units the landing orders may send, each with the
	// zones open to it now. With AllLand every one of them must be sent
	// (12.5); otherwise those left out wait in the reinforcements box.
	Land    []LandOption `json:"land,omitempty"`
	AllLand bool         `json:"all_land,omitempty"`
	// MayDelay says whether the U.S. may delay the landing a turn (12.6).
	MayDelay bool `json:"may_delay,omitempty"`
	// Landing is the default U.S. landing, the one DefaultOrders gives.
	Landing *USLanding `json:"landing,omitempty"`
}

// PlaceOption is a group of Japanese units of the setup box and the hexes
// where each of them may set up (12.4).
type PlaceOption struct {
	// Class is the units' class: "unknown", or the guns' class id.
	Class string   `json:"class"`
	Units []string `json:"units"`
	Hexes []Hex    `json:"hexes"`
}

// CoverOption is a landing zone the free Japanese setup covers, and the
// hexes an Unknown unit may set up in that count for it.
type CoverOption struct {
	Zone  string `json:"zone"`
	Hex   Hex    `json:"hex"`
	Hexes []Hex  `json:"hexes"`
}

// setupOptions lists what side may order at the setup wait it is awaited
// for.
func (s *State) setupOptions(side Side) *SetupOptions {
	w := s.Wait()
	switch {
	case w.Side != side:
		return nil
	case w.Kind == WaitJPSetup:
		return s.jpSetupOptions()
	case w.Kind == WaitUSLanding:
		return s.landingOptions()
	}
	return nil
}

func (s *State) jpSetupOptions() *SetupOptions {
	o := &SetupOptions{Setup: SetupFree, PerFront: s.spec().perFront}
	if s.Options != nil && s.Options.JPSetup != "" {
		o.Setup = s.Options.JPSetup
	}
	js := s.PlanJPSetup(nil)
	o.JPSetup = &js
	if vp := s.DefaultVP(); len(vp) > 0 {
		for _, p := range vp {
			o.VPHexes = append(o.VPHexes, p.Hex)
		}
		o.VPValues = slices.Clone(s.Counters().VP.Values)
		slices.Sort(o.VPValues)
		slices.Reverse(o.VPValues)
	}
	if o.Setup == SetupHistoric {
		return o
	}
	groups := map[string]*PlaceOption{}
	land := s.Map().LandHexes()
	for _, u := range s.SetupUnits() {
		class := "unknown"
		if u.Kind() != Unknown {
			class = u.Counter().Class.ID
		}
		g, ok := groups[class]
		if !ok {
			g = &PlaceOption{Class: class}
			// The bans of SetupBan depend on what a unit is, never on
			// which unit of its class it is.
			for _, h := range land {
				if s.SetupBan(u, h) == "" {
					g.Hexes = append(g.Hexes, h)
				}
			}
			groups[class] = g
			o.Place = append(o.Place, PlaceOption{Class: class})
		}
		g.Units = append(g.Units, u.ID)
	}
	for i := range o.Place {
		o.Place[i] = *groups[o.Place[i].Class]
	}
	if g := groups["unknown"]; g != nil {
		for _, lz := range s.CoverZones() {
			c := CoverOption{Zone: lz.ID, Hex: lz.Hex}
			for _, h := range g.Hexes {
				if covers(h, lz) {
					c.Hexes = append(c.Hexes, h)
				}
			}
			o.Cover = append(o.Cover, c)
		}
	}
	return o
}

func (s *State) landingOptions() *SetupOptions {
	o := &SetupOptions{Setup: SetupFree, AllLand: s.historicUS(), MayDelay: !s.historicUS()}
	if s.historicUS() {
		o.Setup = SetupHistoric
		o.Fixed = historicFixed()
	}
	units, zones := s.LandingChoices()
	for _, id := range units {
		o.Land = append(o.Land, LandOption{Unit: id, Zones: zones[id]})
	}
	l := s.PlanLanding(nil)
	o.Landing = &l
	return o
}
