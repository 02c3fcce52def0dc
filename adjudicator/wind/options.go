package wind

import (
	"slices"
	"sort"
)

// Outlook is what one side may know of a position beyond its View that
// reports and order templates need: what the game waits for, the standing
// instructions in force, which heroes are spent, the state of each of the
// side's units on the map (supply, zones of control, movement) and, when the
// game waits for the side's actions, what each unit may do now. Like View it
// is plain data that holds nothing the side may not know.
//
// The fog reasoning, for the U.S. (the Japanese see every U.S. unit on the
// map, so nothing in their outlook needs care):
//
//   - Supply (rule 7) is blocked by Japanese units and their zones of
//     control. Every unit on the map projects a zone of control (6.0) and
//     the U.S. sees every counter, so supply depends only on where the
//     counters stand, never on what they are.
//   - Moves (Reachable) stop at zones of control and never enter a hex held
//     by the enemy; stacking counts the side's own units only. Again only
//     the counters' hexes matter.
//   - Melee may be declared against any adjacent hex holding enemy counters
//     (8.2), whatever they are.
//   - Fire (CheckFireBy) depends on range, line of sight (terrain only),
//     spotting and the enemy counters in the target hex; for a hex mixing
//     face-up and face-down Japanese units the U.S. names a face-up unit
//     (8.0), and the face-up ones are in its view.
//
// Heroes (rule 11) are public: each is used in the open, and the events say
// so. Standing instructions are the side's own: the umpire gets both
// sides'.
type Outlook struct {
	Side Side `json:"side"`
	// Wait is what the game waits for now, and WaitText the same in
	// words.
	Wait     Wait   `json:"wait"`
	WaitText string `json:"wait_text"`
	// Winner and Victory say who won and why, once the game is decided.
	Winner  Side   `json:"winner,omitempty"`
	Victory string `json:"victory,omitempty"`
	// Heroes records which heroes of rule 11 are spent.
	Heroes Heroes `json:"heroes"`
	// Standing is the standing instructions in force of the
	// side, or of both sides for the umpire.
	Standing []SideStanding `json:"standing"`
	// Units is the state of the side's units on the map (both sides' for
	// the umpire), in counter order.
	Units []UnitStatus `json:"units"`
	// Options is, when the game waits for this side's actions, what each of
	// its units on the map may do now, in counter order.
	Options []UnitOptions `json:"options,omitempty"`
	// Refit is, when the game waits for this side's refit orders, what it
	// may order (rules 9.1 to 9.6).
	Refit *RefitOptions `json:"refit,omitempty"`
	// Setup is, when the game waits for this side's setup or landing
	// orders, what it may order (rule 12; options_setup.go).
	Setup *SetupOptions `json:"setup,omitempty"`
	// Yamasaki says, for the Japanese and the umpire, whether Colonel
	// Yamasaki may lead a charge now (rule 11.3), and if not why. The
	// count behind it includes the pool, which the U.S. may not see.
	Yamasaki *YamasakiView `json:"yamasaki,omitempty"`
}

// SideStanding is one side's standing instructions in force.
type SideStanding struct {
	Side     Side     `json:"side"`
	Standing Standing `json:"standing"`
}

// YamasakiView says whether Colonel Yamasaki may lead a charge now.
type YamasakiView struct {
	Available bool   `json:"available"`
	Why       string `json:"why,omitempty"`
}

// UnitStatus is the state of one unit on the map as its owner knows it.
type UnitStatus struct {
	ID       string `json:"id"`
	Side     Side   `json:"side"`
	Hex      Hex    `json:"hex"`
	Steps    int    `json:"steps"`
	MaxSteps int    `json:"max_steps"`
	// Supply is "in" or "out" for a U.S. unit (rule 7); Japanese units are
	// always in supply and leave it empty.
	Supply string `json:"supply,omitempty"`
	// EnemyZOC: the hex lies in an enemy zone of control (rule 6.1).
	EnemyZOC bool `json:"enemy_zoc,omitempty"`
	// MP is the unit's movement allowance this turn (rules 5.1, 5.2);
	// MPSpent what it spent moving. While the U.S. decides whether the
	// turn is fought by night, MP is the allowance by day in the weather
	// last rolled.
	MP      int  `json:"mp"`
	MPSpent int  `json:"mp_spent,omitempty"`
	Acted   bool `json:"acted,omitempty"`
	// Melee is the hex it declared melee against this turn (rule 8.2).
	Melee    Hex  `json:"melee,omitempty"`
	FaceDown bool `json:"face_down,omitempty"`
}

// UnitOptions is what one unit may do in the current actions step (rule
// 3.5): the hexes it may move to, the hexes it may declare melee against and
// the hexes it may fire at. Each option listed is accepted by CheckOrders
// when it is the only activation of a file.
type UnitOptions struct {
	Unit  string       `json:"unit"`
	Hex   Hex          `json:"hex"`
	Moves []MoveOption `json:"moves,omitempty"`
	Melee []Hex        `json:"melee,omitempty"`
	Fire  []FireOption `json:"fire,omitempty"`
	// Idle says why the unit may do nothing, when it may not.
	Idle string `json:"idle,omitempty"`
}

// MoveOption is a hex a unit may move to, what it costs and the cheapest
// path there (the hexes entered, in order).
type MoveOption struct {
	To   Hex   `json:"to"`
	MP   int   `json:"mp"`
	Path []Hex `json:"path"`
}

// FireOption is a hex a unit may fire at (rule 8.1): its distance, whether
// the unit sees it itself (line of sight and within spotting distance,
// 8.1.1, 8.1.2), and otherwise the units that may spot for it (8.1.4,
// artillery only). TargetUnits lists, when the U.S. fires at a hex mixing
// face-up and face-down units, the face-up units it must name one of (8.0).
type FireOption struct {
	Target      Hex      `json:"target"`
	Distance    int      `json:"distance"`
	LOS         bool     `json:"los"`
	Sees        bool     `json:"sees"`
	Spotters    []string `json:"spotters,omitempty"`
	TargetUnits []string `json:"target_units,omitempty"`
}

// Outlook returns what side knows beyond its View (see Outlook). side is US,
// JP or Umpire; any other side gets only what is public.
func (s *State) Outlook(side Side) *Outlook {
	w := s.Wait()
	o := &Outlook{
		Side:     side,
		Wait:     w,
		WaitText: s.WaitTextFor(side),
		Winner:   s.Winner,
		Victory:  s.VictoryText(),
		Heroes:   s.Heroes,
		Units:    []UnitStatus{},
	}
	for _, sd := range []Side{US, JP} {
		if side == sd || side == Umpire {
			o.Standing = append(o.Standing, SideStanding{Side: sd, Standing: s.Standing(sd)})
		}
	}
	if side == JP || side == Umpire {
		ok, why := s.YamasakiEligible()
		o.Yamasaki = &YamasakiView{Available: ok, Why: why}
	}
	if side != US && side != JP && side != Umpire {
		return o
	}
	supply := s.SupplyReport()
	for _, u := range s.Units {
		if !u.OnMap() || (side != Umpire && u.Side() != side) {
			continue
		}
		st := UnitStatus{
			ID: u.ID, Side: u.Side(), Hex: u.Hex, Steps: u.Steps, MaxSteps: u.Counter().MaxSteps(),
			EnemyZOC: s.InEnemyZOC(u.Hex, u.Side().Enemy()),
			MP:       s.Allowance(u), MPSpent: u.MPSpent, Acted: u.Acted, Melee: u.Melee, FaceDown: u.FaceDown,
		}
		if w.Kind == WaitUSDecision {
			st.MP = adjustMP(u.counter.Class.MP, false, s.Weather)
		}
		if u.Side() == US {
			st.Supply = "out"
			if supply[u.ID] {
				st.Supply = "in"
			}
		}
		o.Units = append(o.Units, st)
	}
	switch {
	case w.Side != side:
	case w.Kind == WaitActions:
		o.Options = s.options(side)
	case w.Kind == WaitUSRefit || w.Kind == WaitJPRefit:
		o.Refit = s.refitOptions(side)
	case w.Kind == WaitJPSetup || w.Kind == WaitUSLanding:
		o.Setup = s.setupOptions(side)
	}
	return o
}

// options lists what each of side's units on the map may do now.
func (s *State) options(side Side) []UnitOptions {
	var enemyHexes []Hex
	hexes, by := s.Occupants()
	for _, h := range hexes {
		if by[h][0].Side() == side.Enemy() {
			enemyHexes = append(enemyHexes, h)
		}
	}
	f := fireFinder{s: s, side: side, enemies: enemyHexes, by: by, los: map[[2]Hex]bool{}}
	// Paths ask about the same hexes for every unit.
	zocAt := map[Hex]bool{}
	inZOC := func(h Hex) bool {
		z, ok := zocAt[h]
		if !ok {
			z = s.InEnemyZOC(h, side.Enemy())
			zocAt[h] = z
		}
		return z
	}
	var out []UnitOptions
	for _, u := range s.Units {
		if !u.OnMap() || u.Side() != side {
			continue
		}
		uo := UnitOptions{Unit: u.ID, Hex: u.Hex}
		if u.Acted {
			uo.Idle = "it has already acted this turn (rule 3.5)"
			out = append(out, uo)
			continue
		}
		if why := s.cannotMove(u); why == "" {
			reach := s.Reachable(u)
			dests := make([]Hex, 0, len(reach))
			for h := range reach {
				if h != u.Hex {
					dests = append(dests, h)
				}
			}
			slices.Sort(dests)
			for _, h := range dests {
				if p := s.pathTo(u, reach, h, inZOC); p != nil {
					uo.Moves = append(uo.Moves, MoveOption{To: h, MP: reach[h], Path: p})
				}
			}
		}
		if canDeclareMelee(u) {
			uo.Melee = s.meleeTargets(u)
		}
		uo.Fire = f.targets(u)
		if len(uo.Moves) == 0 && len(uo.Melee) == 0 && len(uo.Fire) == 0 {
			uo.Idle = s.idleReason(u)
		}
		out = append(out, uo)
	}
	return out
}

// idleReason says why a unit that has not acted may do nothing now.
func (s *State) idleReason(u *Unit) string {
	if why := s.cannotMove(u); why != "" {
		return why + ", and it has no target to fire at"
	}
	if s.InEnemyZOC(u.Hex, u.Side().Enemy()) && !s.Night {
		return "it may not leave the enemy zone of control by day (rule 6.1), and it has no target in reach"
	}
	return "no hex it can enter and no target in reach"
}

// pathTo returns the hexes u enters on a cheapest way to dest, walking back
// from dest through the costs reach (from Reachable) holds: a step from a
// hex the unit could leave (not an enemy zone of control, rule 6.1, unless
// it is the start) whose cost plus the step's is dest's. A hex next to the
// start that no such step explains is entered directly: by the minimum move
// (5.8), or at night out of an enemy zone of control (6.1). It returns nil
// when no path is found. inZOC answers whether a hex lies in an enemy zone
// of control.
func (s *State) pathTo(u *Unit, reach map[Hex]int, dest Hex, inZOC func(Hex) bool) []Hex {
	m := s.Map()
	path := []Hex{dest}
	for cur := dest; ; {
		if c, err := StepCost(m, u.Side(), u.Hex, cur); err == nil && c.MP == reach[cur] {
			break
		}
		var prev Hex
		for _, n := range m.Neighbours(cur) {
			c, ok := reach[n]
			if !ok || n == u.Hex || inZOC(n) {
				continue
			}
			if sc, err := StepCost(m, u.Side(), n, cur); err == nil && c+sc.MP == reach[cur] && (prev == 0 || n < prev) {
				prev = n
			}
		}
		if prev == 0 {
			if cur.Adjacent(u.Hex) {
				break
			}
			return nil
		}
		if len(path) > 64 {
			return nil
		}
		path = append(path, prev)
		cur = prev
	}
	slices.Reverse(path)
	return path
}

// meleeTargets returns the hexes unit u may declare melee against now (rule
// 8.2): adjacent land hexes holding enemy units, not across a cliff; only
// the hex already declared against when another unit of its hex has
// declared.
func (s *State) meleeTargets(u *Unit) []Hex {
	for _, o := range s.UnitsAt(u.Hex) {
		if o.Side() == u.Side() && o.Melee != 0 {
			return []Hex{o.Melee}
		}
	}
	m := s.Map()
	var out []Hex
	for _, n := range m.Neighbours(u.Hex) {
		if m.Land(n) && !m.Cliff(u.Hex, n) && s.holdsSide(n, u.Side().Enemy()) {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// fireFinder lists the fire options of one side's units, remembering lines
// of sight, which many units share.
type fireFinder struct {
	s       *State
	side    Side
	enemies []Hex
	by      map[Hex][]*Unit
	los     map[[2]Hex]bool
}

func (f *fireFinder) sight(a, b Hex) bool {
	k := [2]Hex{a, b}
	v, ok := f.los[k]
	if !ok {
		v, _ = LOS(f.s.Map(), a, b)
		f.los[k] = v
	}
	return v
}

// targets returns the hexes u may fire at alone (rule 8.1), with a spotter
// for artillery that cannot see the target itself (8.1.4).
func (f *fireFinder) targets(u *Unit) []FireOption {
	s := f.s
	r := u.Rating()
	spot := SpottingDistance(s.Weather)
	if r.Ranged <= 0 || r.Range <= 0 || spot == 0 {
		return nil
	}
	var out []FireOption
	for _, t := range f.enemies {
		dist := u.Hex.Distance(t)
		if dist > r.Range {
			continue
		}
		opt := FireOption{Target: t, Distance: dist, LOS: f.sight(u.Hex, t)}
		opt.Sees = opt.LOS && dist <= spot
		opt.TargetUnits = f.faceUpTargets(t)
		fire := Fire{Units: []string{u.ID}, Target: t}
		if len(opt.TargetUnits) > 0 {
			fire.TargetUnit = opt.TargetUnits[0]
		}
		if s.CheckFireBy(f.side, fire) == nil {
			out = append(out, opt)
			continue
		}
		if u.Kind() != Artillery {
			continue
		}
		for _, o := range s.Units {
			if !o.OnMap() || o.Side() != f.side || o.Hex.Distance(t) > spot || !f.sight(o.Hex, t) {
				continue
			}
			fire.Spotter = o.ID
			if s.CheckFireBy(f.side, fire) == nil {
				opt.Spotters = append(opt.Spotters, o.ID)
			}
		}
		if len(opt.Spotters) > 0 {
			out = append(out, opt)
		}
	}
	return out
}

// faceUpTargets returns the face-up units the U.S. must name one of when it
// fires at t, a hex mixing face-up and face-down Japanese units (rule 8.0),
// and nil for any other hex or side.
func (f *fireFinder) faceUpTargets(t Hex) []string {
	if f.side != US {
		return nil
	}
	var up []string
	down := false
	for _, e := range f.by[t] {
		switch {
		case e.Side() == f.side:
		case hiddenFrom(e, US):
			down = true
		default:
			up = append(up, e.ID)
		}
	}
	if !down {
		return nil
	}
	return up
}
