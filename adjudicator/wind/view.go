package wind

import (
	"slices"
	"sort"
)

// View is what one side may know of a game position: the only thing
// reports, maps and order templates are built from, so that fog of war holds
// by construction. It is
// plain data, safe to marshal to JSON, and holds nothing derived from what
// the viewer may not see: two positions that differ only in what is hidden
// from a side give that side identical views.
//
// The fog rules it applies (RULINGS.md R2):
//
//   - Public to both sides: turn, weather, night, both sides' airpower (each
//     side rolls on the table, rule 3.4, and announces its air attacks,
//     8.1.6), the U.S. casualty track (8.4), who holds each victory hex
//     (3.8.1) and the Komandorski chits once flipped (12.1.3).
//   - Each side sees its own units in full: where they are (hex or box),
//     steps, face, activation, and for the Japanese the tables of their
//     Unknown units (the Japanese player picks which table to roll, 2.5).
//   - The Japanese see every U.S. unit on the map with its id, type and
//     steps: U.S. counters have no hidden side. Off the map they see only how
//     many U.S. units (and steps) are in each staging box, in the
//     reinforcements box and eliminated; which units the U.S. holds back is
//     its own business until they land (9.2, 12.6).
//   - The U.S. sees a face-up Japanese unit with its id, type and steps. A
//     face-down one (2.5) is an anonymous counter: Hidden gives, per hex, only
//     how many counters stand there, never which are Unknown, infantry or
//     artillery, their ids or tables. An Unknown unit is always anonymous:
//     its table side shows only at the moment it converts (2.5), which the
//     events of that conversion report.
//   - The U.S. sees no Japanese unit off the map and no count of them: not
//     the pool of infantry (2.5), not the Unknown units set aside (8.5, 9.6),
//     not even the eliminated infantry. An Unknown unit hit by ranged fire is
//     removed secretly while a hit infantry unit is eliminated (8.5), so a
//     public count of eliminated Japanese would tell the U.S. what kind of
//     face-down counter its fire removed. What the U.S. sees die in melee it
//     learns from the events; whether it has won by 3.8.2 the server judges.
//   - Victory zones (10.0) show as cleared by their Zone Cleared markers,
//     which lie on the map for both sides; see ClearedZones.
//   - In a hex mixing face-up and face-down units the U.S. names a face-up
//     target by id or aims at the anonymous counters (8.0); which face-down
//     unit that is must then be settled without regard to counter order, or
//     the choice would leak what the view hides.
//   - The victory point chits of rule 14.0: only the Japanese (who may
//     review them) and the umpire see their values before the end of the
//     game; the U.S. sees that they are in use, and every value once they
//     are revealed at the end.
//   - Komandorski chits (12.1): the Japanese see both from the start; the
//     U.S. sees the effect chit once it is revealed and the delay chit once
//     it is revealed (12.1.3).
//   - The umpire sees everything, as the state holds it. Any other side
//     (NoSide) gets only what is public: no units at all.
//
// The 9.6 rearrangement shows to the U.S. only through the resulting
// positions, and Japanese hiding (3.9, 9.5) only as counters turning
// anonymous, because the view is computed from the position alone.
type View struct {
	Side     Side   `json:"side"`
	Scenario string `json:"scenario,omitempty"`
	// Solitaire says the game is the solitaire game of rule 13, whose
	// Japanese the server plays; both sides know it.
	Solitaire  bool    `json:"solitaire,omitempty"`
	Turn       int     `json:"turn"`
	Weather    Weather `json:"weather"`
	Night      bool    `json:"night,omitempty"`
	Air        Air     `json:"air"`
	Casualties int     `json:"casualties"`
	// RefitSteps is what the loss recovery roll gave the U.S. to restore
	// in this refit turn (rule 9.1), until the U.S. refit orders spend it.
	// Both sides see the dice.
	RefitSteps int `json:"refit_steps,omitempty"`
	// Komandorski is nil when the viewer may see neither chit.
	Komandorski *KomandorskiView `json:"komandorski,omitempty"`
	// VP is the victory point chits of rule 14.0 as the viewer may see
	// them; nil when the game does not use them.
	VP *VPChits `json:"vp_chits,omitempty"`
	// Units are the viewer's own units, on and off the map, in counter
	// order; for the umpire, every unit of both sides.
	Units []UnitView `json:"units"`
	// Enemy are the enemy units the viewer may identify, on the map, by hex
	// then id. Empty for the umpire, whose Units hold them.
	Enemy []UnitView `json:"enemy,omitempty"`
	// Hidden are the anonymous enemy counters, by hex (U.S. view only).
	Hidden []HiddenStack `json:"hidden,omitempty"`
	// Boxes counts the units in off-map boxes that the viewer may count,
	// by side then box.
	Boxes        []BoxCount        `json:"boxes,omitempty"`
	VictoryHexes []VictoryHexState `json:"victory_hexes"`
	// ClearedZones lists, by letter, the victory zones that carry a Zone
	// Cleared marker (rule 10.0). The markers lie on the map for both sides
	// to see, so they tell the U.S. nothing it could not see.
	ClearedZones []string `json:"cleared_zones,omitempty"`
}

// Air is both sides' airpower factors for this turn (rule 3.4).
type Air struct {
	US int `json:"us"`
	JP int `json:"jp"`
}

// KomandorskiView is what a side may see of the Komandorski chits (rule
// 12.1). A value the viewer may not see is zero.
type KomandorskiView struct {
	Effect         int  `json:"effect,omitempty"`
	Delay          int  `json:"delay,omitempty"`
	EffectRevealed bool `json:"effect_revealed,omitempty"`
	DelayRevealed  bool `json:"delay_revealed,omitempty"`
}

// UnitView is one unit as a side sees it. Fields the viewer may not know are
// zero: activation only for its own units, a table only for Unknown units
// seen by the Japanese (not in a solitaire game, rule 13.1) or the umpire.
type UnitView struct {
	ID        string `json:"id"`
	Side      Side   `json:"side"`
	Kind      Kind   `json:"kind"`
	Battalion string `json:"battalion,omitempty"` // U.S. units (rule 4.1)
	Hex       Hex    `json:"hex,omitempty"`
	Box       string `json:"box,omitempty"`
	Steps     int    `json:"steps"`
	FaceDown  bool   `json:"face_down,omitempty"`
	Acted     bool   `json:"acted,omitempty"`
	MPSpent   int    `json:"mp_spent,omitempty"`
	Table     []int  `json:"table,omitempty"`
}

// HiddenStack is a number of anonymous counters in a hex (rule 2.5).
type HiddenStack struct {
	Hex   Hex `json:"hex"`
	Count int `json:"count"`
}

// BoxCount is how many units of a side, and how many steps, are in an
// off-map box.
type BoxCount struct {
	Side  Side   `json:"side"`
	Box   string `json:"box"`
	Units int    `json:"units"`
	Steps int    `json:"steps"`
}

// VictoryHexState is a victory hex (rule 3.8.1) and the side whose units
// stand in it, if any. A hex held by anonymous counters is held by the
// Japanese: the counters are seen, only their nature is hidden.
type VictoryHexState struct {
	Hex  Hex    `json:"hex"`
	Name string `json:"name"`
	Zone string `json:"zone"`
	Held Side   `json:"held,omitempty"`
}

// hiddenFrom reports whether u shows to side only as an anonymous counter
// (rule 2.5).
func hiddenFrom(u *Unit, side Side) bool {
	if side != US || u.Side() != JP {
		return false
	}
	return u.FaceDown || u.Kind() == Unknown
}

// View returns what side sees of the position; side is US, JP or Umpire.
// Any other side sees only what is public. The view shares nothing with s.
func (s *State) View(side Side) *View {
	v := &View{
		Side:       side,
		Scenario:   s.Scenario,
		Solitaire:  s.IsSolitaire(),
		Turn:       s.Turn,
		Weather:    s.Weather,
		Night:      s.Night,
		Air:        Air{US: s.AirUS, JP: s.AirJP},
		Casualties: s.Casualties,
		RefitSteps: s.RefitSteps,
		Units:      []UnitView{},
	}
	v.Komandorski = komandorskiFor(s.Komandorski, side)
	v.VP = vpFor(s.VP, side)

	hidden := map[Hex]int{}
	boxes := map[[2]string]*BoxCount{}
	count := func(u *Unit) {
		k := [2]string{u.Side().String(), u.Box}
		b := boxes[k]
		if b == nil {
			b = &BoxCount{Side: u.Side(), Box: u.Box}
			boxes[k] = b
		}
		b.Units++
		b.Steps += u.Steps
	}
	for _, u := range s.Units {
		own := side == Umpire || u.Side() == side
		switch {
		case own:
			uv := ownView(u)
			if side == JP && s.IsSolitaire() {
				uv.Table = nil // rule 13.1: no one looks at the tables
			}
			v.Units = append(v.Units, uv)
			if !u.OnMap() {
				count(u)
			}
		case !u.OnMap():
			// Rule 9.2, 12.6: the Japanese count U.S. units waiting to
			// land and those eliminated; the U.S. counts nothing Japanese
			// off the map (2.5, 8.5).
			if side == JP && u.Side() == US && u.Box != BoxUnused {
				count(u)
			}
		case hiddenFrom(u, side):
			hidden[u.Hex]++
		case side == US || side == JP:
			v.Enemy = append(v.Enemy, enemyView(u))
		}
	}

	sort.Slice(v.Enemy, func(i, j int) bool {
		a, b := v.Enemy[i], v.Enemy[j]
		if a.Hex != b.Hex {
			return a.Hex < b.Hex
		}
		return a.ID < b.ID
	})
	for h, n := range hidden {
		v.Hidden = append(v.Hidden, HiddenStack{Hex: h, Count: n})
	}
	sort.Slice(v.Hidden, func(i, j int) bool { return v.Hidden[i].Hex < v.Hidden[j].Hex })
	for _, b := range boxes {
		v.Boxes = append(v.Boxes, *b)
	}
	sort.Slice(v.Boxes, func(i, j int) bool {
		a, b := v.Boxes[i], v.Boxes[j]
		if a.Side != b.Side {
			return a.Side < b.Side
		}
		return a.Box < b.Box
	})

	m := s.Map()
	for _, vh := range m.VictoryHexes {
		v.VictoryHexes = append(v.VictoryHexes, VictoryHexState{
			Hex: vh.Hex, Name: vh.Name, Zone: vh.Zone, Held: s.Occupied(vh.Hex),
		})
	}
	v.ClearedZones = slices.Sorted(slices.Values(s.Cleared))
	return v
}

// komandorskiFor applies rule 12.1: the Japanese drew and examined both
// chits; the U.S. sees each once it is flipped (12.1.3).
func komandorskiFor(k Komandorski, side Side) *KomandorskiView {
	kv := &KomandorskiView{EffectRevealed: k.EffectRevealed, DelayRevealed: k.DelayRevealed}
	if side == JP || side == Umpire || k.EffectRevealed {
		kv.Effect = k.Effect
	}
	if side == JP || side == Umpire || k.DelayRevealed {
		kv.Delay = k.Delay
	}
	if *kv == (KomandorskiView{}) {
		return nil
	}
	return kv
}

// vpFor applies rule 14.0: the Japanese may review the chits, the U.S. sees
// them at the end of the game; before, it sees on which hexes they lie.
func vpFor(v *VPChits, side Side) *VPChits {
	if v == nil {
		return nil
	}
	c := v.clone()
	if side == JP || side == Umpire || v.Revealed {
		return c
	}
	for i := range c.Hexes {
		c.Hexes[i] = VPHex{Hex: c.Hexes[i].Hex}
	}
	return c
}

func ownView(u *Unit) UnitView {
	uv := enemyView(u)
	uv.Box = u.Box
	uv.FaceDown = u.FaceDown
	uv.Acted = u.Acted
	uv.MPSpent = u.MPSpent
	if t := u.Counter().Table; t != nil {
		uv.Table = append([]int(nil), t...)
	}
	return uv
}

// enemyView is what an identified enemy unit on the map shows: the front of
// its counter and where it stands.
func enemyView(u *Unit) UnitView {
	uv := UnitView{ID: u.ID, Side: u.Side(), Kind: u.Kind(), Hex: u.Hex, Steps: u.Steps}
	if u.Side() == US {
		uv.Battalion = u.Counter().Battalion
	}
	return uv
}

// At returns the units the view shows in hex h (own and identified enemy
// units, in the view's order) and the number of anonymous counters there.
func (v *View) At(h Hex) (units []UnitView, hidden int) {
	for _, u := range v.Units {
		if u.Hex == h {
			units = append(units, u)
		}
	}
	for _, u := range v.Enemy {
		if u.Hex == h {
			units = append(units, u)
		}
	}
	for _, st := range v.Hidden {
		if st.Hex == h {
			hidden = st.Count
		}
	}
	return units, hidden
}

// Hexes returns, in ascending order, every hex where the view shows a unit
// or an anonymous counter.
func (v *View) Hexes() []Hex {
	seen := map[Hex]bool{}
	var out []Hex
	add := func(h Hex) {
		if h != 0 && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	for _, u := range v.Units {
		add(u.Hex)
	}
	for _, u := range v.Enemy {
		add(u.Hex)
	}
	for _, st := range v.Hidden {
		add(st.Hex)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Redact returns side's version of ev and whether side reads it at all: the
// umpire reads every event as it is; a player reads what ev.Seen gives it;
// anyone else reads only events both players read in full. With
// SightAnonymous the units that are not Known keep only their side and hex,
// and Private is withheld; which activations of the other side were cut
// short is withheld too (cutShort). The result shares nothing with ev that Redact
// changed.
func Redact(ev Event, side Side) (Event, bool) {
	switch side {
	case Umpire:
		return ev, true
	case US, JP:
	default:
		if ev.Seen == Public {
			return cutShort(ev, side), true
		}
		return Event{}, false
	}
	switch ev.Seen.Of(side) {
	case SightFull:
		return cutShort(ev, side), true
	case SightAnonymous:
		ev.Units = anonymous(ev.Units)
		ev.Others = anonymous(ev.Others)
		ev.Private = nil
		return ev, true
	}
	return Event{}, false
}

// cutShort withholds from every reader but the side and the umpire which
// of a side's activations an end of the game cut short (rule 3.8.2): how
// many it wrote is its own, and tells of those the reader did not see.
func cutShort(ev Event, side Side) Event {
	if ev.Kind == EventActionsCutShort && ev.Side != side {
		ev.Activation, ev.LastActivation = 0, 0
	}
	return ev
}

// anonymous returns units with every unit not Known reduced to a counter:
// its side and hex.
func anonymous(units []EventUnit) []EventUnit {
	if units == nil {
		return nil
	}
	out := make([]EventUnit, len(units))
	for i, u := range units {
		if !u.Known {
			u = EventUnit{Side: u.Side, Hex: u.Hex}
		}
		out[i] = u
	}
	return out
}

// VisibleEvents returns side's version of each event it reads, in order
// (Redact).
func VisibleEvents(evs []Event, side Side) []Event {
	out := make([]Event, 0, len(evs))
	for _, e := range evs {
		if r, ok := Redact(e, side); ok {
			out = append(out, r)
		}
	}
	return out
}
