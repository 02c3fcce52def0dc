package wind

import (
	"fmt"
	"slices"
	"sort"
)

// Solitaire (rule 13): one player takes the U.S. and the rules of 13.1 to
// 13.6 manage the Japanese; wherever they decide nothing the Japanese
// orders (of a stand-in or of a person) move the Japanese as in any game.
// A game is solitaire when it is created with Options.Solitaire.
//
// What the engine decides, and where (RULINGS.md R69 to R77):
//
//   - 13.1: every Unknown unit the rules draw is drawn at random with the
//     dice, never chosen: those of the initial placement, the one whose
//     table an ambush reads, and the table rolled when a stack of Unknown
//     units converts (the Japanese standing instructions on tables do not
//     apply). The U.S. never reads a table or its die (R69).
//   - 13.2: an Unknown unit converting on a victory hex gives three
//     infantry units without a roll (from the eliminated units, drawn at
//     random, when the pool runs short); the Japanese airpower is spent by
//     the engine at the start of the melee step on the U.S. stacks
//     attacking victory hexes, and the Japanese orders may not use it
//     (R70).
//   - 13.2.1: the engine sets up the Japanese: one Unknown unit on each
//     victory hex of the play area (it never moves), then 1d10+1 more in
//     the way of the U.S. advance (solitaireInTheWay), the guns on the
//     hexes of 12.3 (R71).
//   - 13.2.2: after every U.S. activation and every step the engine
//     resolves, a U.S. unit within four hexes of a victory hex the U.S.
//     does not hold brings 1d10+1 infantry units onto hexes near it, once
//     per victory hex (solitaire_adhoc.go). They fire at the nearest U.S.
//     unit at the start of each Japanese actions step until they have
//     fought a melee, and take no Japanese orders meanwhile (R72).
//   - 13.3: a U.S. move that spends the unit's whole allowance risks an
//     ambush (solitaire_ambush.go); the U.S. chooses to withdraw through
//     its melee retreat standing instruction (R73).
//   - 13.4: the Japanese infantry defending the last objective the U.S.
//     has not taken roll twice their melee dice (R74).
//   - 13.5: at night a U.S. unit leaving an enemy zone of control first
//     rolls to infiltrate (R75).
//   - 13.6: the U.S. wins only by the objectives (all six victory hexes in
//     the campaign, the scenario's in a short one) or by the chits of 14.0;
//     the U.S. win of 3.8.2 does not apply. The Japanese wins stand (R76).
//   - The Japanese orders answer the actions and refit waits for every
//     unit the rules above do not hold; there is no Japanese setup wait
//     (R77).

// Solitaire is the state of the solitaire rules in a game (rule 13).
type Solitaire struct {
	// Fixed holds the Unknown units of the initial placement on the
	// victory hexes, each with its hex: they may not move from it (13.2.1).
	Fixed map[string]Hex `json:"fixed,omitempty"`
	// Placed lists the victory hexes whose ad hoc placement has been made
	// (13.2.2), in the order they were made.
	Placed []Hex `json:"placed,omitempty"`
	// AdHoc lists the infantry units of the ad hoc placements that have
	// not fought a melee yet: the engine fires them (13.2.2).
	AdHoc []string `json:"ad_hoc,omitempty"`
}

func (so *Solitaire) clone() *Solitaire {
	if so == nil {
		return nil
	}
	return &Solitaire{Fixed: cloneFixed(so.Fixed), Placed: slices.Clone(so.Placed), AdHoc: slices.Clone(so.AdHoc)}
}

func cloneFixed(m map[string]Hex) map[string]Hex {
	if m == nil {
		return nil
	}
	out := make(map[string]Hex, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// IsSolitaire reports whether the game is played by the solitaire rules
// (rule 13): the U.S. alone, the Japanese managed by 13.1 to 13.6.
func (s *State) IsSolitaire() bool { return s.Options != nil && s.Options.Solitaire }

// SetSolitaire makes a position set up by hand a solitaire game (rule 13),
// as rules cases pose one; fixed lists Unknown units on the map that may
// not move (13.2.1).
func (s *State) SetSolitaire(fixed ...string) error {
	if s.Options == nil {
		s.Options = &Options{}
	}
	s.Options.Solitaire = true
	so := s.solo()
	for _, id := range fixed {
		u, ok := s.Unit(id)
		if !ok || !u.OnMap() || u.Kind() != Unknown {
			return fmt.Errorf("fixed: %s is not an Unknown unit on the map (rule 13.2.1)", id)
		}
		if so.Fixed == nil {
			so.Fixed = map[string]Hex{}
		}
		so.Fixed[id] = u.Hex
	}
	return nil
}

// solo returns the solitaire state, creating it.
func (s *State) solo() *Solitaire {
	if s.Solo == nil {
		s.Solo = &Solitaire{}
	}
	return s.Solo
}

// Solitaire die purposes (rule 13).
const (
	// DieSoloDraw is one digit of a random draw of the solitaire rules:
	// an Unknown unit (13.1) or an eliminated platoon (13.2), the
	// Japanese player's, out of the U.S. player's sight.
	DieSoloDraw DiePurpose = "solitaire-draw"
	// DieSoloCount is the die of 13.2.1 and 13.2.2 that says how many
	// units are placed (one more than the die), rolled in the open.
	DieSoloCount DiePurpose = "solitaire-count"
	// DieAmbush is the die rolled on the drawn Unknown unit's table for
	// an ambush (rule 13.3), out of the U.S. player's sight.
	DieAmbush DiePurpose = "ambush"
	// DieInfiltration is the night infiltration die (rule 13.5), rolled
	// in the open.
	DieInfiltration DiePurpose = "infiltration"
)

// Reasons of the solitaire rules.
const (
	ReasonSolitaire         Reason = "solitaire"          // EventJapaneseSetUp: the placement of 13.2.1
	ReasonVictoryHexDefence Reason = "victory-hex"        // EventConverted (Private): three units, no roll (13.2)
	ReasonNoAmbush          Reason = "no-ambush"          // EventAmbush (Private): the modified result is below 1 (13.3)
	ReasonInfiltrated       Reason = "infiltrated"        // EventInfiltration: the unit leaves (13.5)
	ReasonHeldInZOC         Reason = "held"               // EventInfiltration: the unit stays (13.5)
	ReasonAmbushStanding    Reason = "ambush-standing"    // EventAmbushWithdraw: by the retreat standing instruction
	ReasonAmbushRoundLimit  Reason = "ambush-round-limit" // EventAmbushWithdraw: the rounds ran out
	ReasonAmbushMelt        Reason = "ambush-melt"        // EventAmbushWithdraw: Others, the ambushers, go back to the pool
)

// soloHexes returns the victory hexes the solitaire rules defend: those of
// the play area, in map order (rules 13.2, 15).
func (s *State) soloHexes() []Hex {
	var out []Hex
	for _, vh := range s.Map().VictoryHexes {
		if s.InPlayArea(vh.Hex) {
			out = append(out, vh.Hex)
		}
	}
	return out
}

// soloObjectives returns the victory hexes the U.S. must take (rule 13.6):
// the scenario's objectives, or every victory hex in the campaign.
func (s *State) soloObjectives() []Hex {
	if obj := s.spec().objectives; len(obj) > 0 {
		return obj
	}
	var out []Hex
	for _, vh := range s.Map().VictoryHexes {
		out = append(out, vh.Hex)
	}
	return out
}

// soloFixedBan says why u may not move in a solitaire game: it is an
// Unknown unit of the initial placement on its victory hex (rule 13.2.1).
func (s *State) soloFixedBan(u *Unit) string {
	if s.Solo == nil || !u.OnMap() {
		return ""
	}
	if h, ok := s.Solo.Fixed[u.ID]; ok && h == u.Hex {
		return fmt.Sprintf("%s holds victory hex %s and cannot move (rule 13.2.1)", u.ID, h)
	}
	return ""
}

// soloHeld says why a Japanese unit of an ad hoc placement takes no
// orders: the engine fires it until it has fought a melee (rule 13.2.2).
func (s *State) soloHeld(u *Unit) string {
	if s.Solo == nil || !u.OnMap() || !slices.Contains(s.Solo.AdHoc, u.ID) {
		return ""
	}
	return fmt.Sprintf("%s was placed by rule 13.2.2 and fires at the nearest U.S. unit until it fights a melee", u.ID)
}

// soloHeldIn says why a Japanese activation may not use a unit the ad hoc
// placement holds (rule 13.2.2), or "".
func (s *State) soloHeldIn(a Action, side Side) string {
	if s.Solo == nil || side != JP {
		return ""
	}
	var ids []string
	switch {
	case a.Move != nil:
		ids = []string{a.Move.Unit}
	case a.Fire != nil:
		ids = a.Fire.Units
	case a.Melee != nil:
		ids = a.Melee.Units
	}
	for _, id := range ids {
		if u, ok := s.Unit(id); ok && u.Side() == JP {
			if why := s.soloHeld(u); why != "" {
				return why
			}
		}
	}
	return ""
}

// soloTable draws the Unknown unit whose table is rolled for a stack
// converting in h (rule 13.1: drawn, never chosen).
func (s *State) soloTable(h Hex, unknowns []*Unit, d Dice) *Unit {
	return unknowns[drawWith(len(unknowns), d, Die{Purpose: DieSoloDraw, Side: JP, Hex: h, Seen: AudienceJP})]
}

// soloDefends reports whether Unknown units converting in h give three
// units without a roll (rule 13.2).
func (s *State) soloDefends(h Hex) bool {
	return s.IsSolitaire() && slices.Contains(s.soloHexes(), h)
}

// soloReinforce draws an infantry unit for a victory hex's defence when
// the pool is empty: one of the eliminated, at random (rule 13.2). It
// returns nil when none is left either.
func (s *State) soloReinforce(h Hex, d Dice) *Unit {
	var elim []*Unit
	for _, u := range s.Units {
		if u.Box == BoxEliminated && !u.Captured && u.Counter().Side() == JP && u.Kind() == Infantry {
			elim = append(elim, u)
		}
	}
	if len(elim) == 0 {
		return nil
	}
	u := elim[drawWith(len(elim), d, Die{Purpose: DieSoloDraw, Side: JP, Hex: h, Seen: AudienceJP})]
	u.Steps = u.Counter().MaxSteps()
	return u
}

// soloCount rolls the die of 13.2.1 or 13.2.2 and returns one more than it.
func soloCount(d Dice, h Hex) (int, int) {
	v := d.Roll(Die{Purpose: DieSoloCount, Side: JP, Hex: h, Seen: AudienceBoth})
	return v + 1, v
}

// solitaireSetup places the Japanese of a solitaire game (rule 13.2.1):
// an Unknown unit drawn for each victory hex of the play area, then 1d10+1
// more drawn and placed in the way of the U.S. advance; the guns of the
// campaign on the hexes of 12.3. The Unknown units left undrawn wait off
// the map (2.5, 9.6).
func (s *State) solitaireSetup(d Dice) []Event {
	var container, guns20, guns75 []*Unit
	for _, u := range s.SetupUnits() {
		switch {
		case u.Kind() == Unknown:
			container = append(container, u)
		case u.Counter().Class.ID == class20mm:
			guns20 = append(guns20, u)
		case u.Counter().Class.ID == class75mm:
			guns75 = append(guns75, u)
		}
	}
	var placed []*Unit
	put := func(u *Unit, h Hex) {
		u.Hex, u.Box, u.FaceDown = h, "", true
		placed = append(placed, u)
	}
	draw := func(h Hex) *Unit {
		i := drawWith(len(container), d, Die{Purpose: DieSoloDraw, Side: JP, Hex: h, Seen: AudienceJP})
		u := container[i]
		container = slices.Delete(container, i, i+1)
		return u
	}
	so := s.solo()
	so.Fixed = map[string]Hex{}
	for _, h := range s.soloHexes() {
		if len(container) == 0 {
			break
		}
		u := draw(h)
		put(u, h)
		so.Fixed[u.ID] = h
	}
	n, die := soloCount(d, 0)
	evs := []Event{{Kind: EventSoloCount, Seen: Public, Side: JP, Dice: []EventDie{{Face: die}}, Total: n}}
	for k := 0; k < n && len(container) > 0; k++ {
		h := s.solitaireInTheWay(k, d)
		if h == 0 {
			break
		}
		put(draw(h), h)
	}
	setup := s.Map().Setup
	for i, u := range guns20 {
		if i < len(setup.Historic20mm) {
			put(u, setup.Historic20mm[i])
		}
	}
	for i, u := range guns75 {
		if i < len(setup.Historic75mm) {
			put(u, setup.Historic75mm[i])
		}
	}
	for _, u := range s.SetupUnits() {
		if u.Kind() == Unknown {
			s.Place(u.ID, 0, BoxOffMap)
		} else {
			s.Place(u.ID, 0, BoxUnused)
		}
	}
	return append(evs, s.setUpEvent(ReasonSolitaire, placed))
}

// solitaireInTheWay returns the hex of the k-th Unknown unit placed in the
// way of the U.S. advance (rule 13.2.1; RULINGS.md R71), or 0 when no hex
// is left. The victory hexes take them in turn, nearest a U.S. landing
// zone first; each is placed between its victory hex and the landing zone
// of the scenario nearest it: a hex nearer that landing zone than the
// victory hex is, at most one hex off the straight way, not in or next to
// a landing zone (12.4) and holding no other unit. The dice draw one of
// those hexes; with none, the condition of the straight way is dropped,
// then any free hex of the free setup is drawn.
func (s *State) solitaireInTheWay(k int, d Dice) Hex {
	vhs := s.soloHexes()
	var lzs []LandingZone
	for _, id := range s.ScenarioLandingZones("") {
		lz, _ := s.Map().LandingZone(id)
		lzs = append(lzs, lz)
	}
	if len(vhs) == 0 || len(lzs) == 0 {
		return 0
	}
	nearest := func(h Hex) LandingZone {
		best := lzs[0]
		for _, lz := range lzs[1:] {
			if h.Distance(lz.Hex) < h.Distance(best.Hex) {
				best = lz
			}
		}
		return best
	}
	sort.SliceStable(vhs, func(i, j int) bool {
		return vhs[i].Distance(nearest(vhs[i]).Hex) < vhs[j].Distance(nearest(vhs[j]).Hex)
	})
	vh := vhs[k%len(vhs)]
	lz := nearest(vh)
	probe := &Unit{ID: "Unknown", counter: s.unknownCounter()}
	free := func(h Hex) bool {
		return len(s.UnitsAt(h)) == 0 && s.SetupBan(probe, h) == ""
	}
	way := vh.Distance(lz.Hex)
	for _, slack := range []int{1, 1 << 20} {
		var cands []Hex
		for _, h := range s.Map().LandHexes() {
			dl := h.Distance(lz.Hex)
			if free(h) && dl < way && h.Distance(vh)+dl <= way+slack {
				cands = append(cands, h)
			}
		}
		if len(cands) > 0 {
			return cands[drawWith(len(cands), d, Die{Purpose: DieSetupDraw, Side: JP, Hex: vh, Seen: AudienceJP})]
		}
	}
	var cands []Hex
	for _, h := range s.Map().LandHexes() {
		if free(h) {
			cands = append(cands, h)
		}
	}
	if len(cands) == 0 {
		return 0
	}
	return cands[drawWith(len(cands), d, Die{Purpose: DieSetupDraw, Side: JP, Seen: AudienceJP})]
}

// unknownCounter returns the counter of an Unknown unit, for judging where
// one may set up.
func (s *State) unknownCounter() *Counter {
	for _, u := range s.Units {
		if u.Kind() == Unknown {
			return u.counter
		}
	}
	return nil
}

// soloLastStand reports whether the Japanese infantry defending target
// fight as at the last victory hex (rule 13.4): the game is a solitaire
// campaign (any solitaire game in edition 0) and target is the one
// objective of 13.6 the U.S. does not occupy.
func (s *State) soloLastStand(target Hex) bool {
	if !s.IsSolitaire() || s.Scenario != "" && s.Edition >= EditionRule13 {
		// rule 13.4 is Colonel Yamasaki's, and no hero of rule 11 is
		// available in a short scenario (15.1, 15.2; RULINGS.md R74).
		return false
	}
	obj := s.soloObjectives()
	if !slices.Contains(obj, target) {
		return false
	}
	for _, h := range obj {
		if h != target && !s.holds(h, US) {
			return false
		}
	}
	return true
}

// soloAir spends the Japanese airpower on the defence of the victory hexes
// (rule 13.2; RULINGS.md R70), at the start of the melee step: the
// victory hexes U.S. units have declared melee against share the factors
// evenly, the remainder going one each to the hexes attacked by the
// strongest stacks; each share strikes the strongest stack attacking its
// hex (most steps, then the lower hex). With no victory hex attacked the
// factors are lost at the end of the turn (3.4).
func (s *State) soloAir(d Dice) []Event {
	if !s.IsSolitaire() || s.AirJP <= 0 {
		return nil
	}
	type front struct {
		vh, stack Hex
		steps     int
	}
	var fronts []front
	for _, vh := range s.soloHexes() {
		f := front{vh: vh}
		for _, u := range s.Units {
			if u.OnMap() && u.Side() == US && u.Melee == vh {
				n := 0
				for _, o := range s.UnitsAt(u.Hex) {
					if o.Side() == US {
						n += o.Steps
					}
				}
				if n > f.steps || n == f.steps && u.Hex < f.stack {
					f.stack, f.steps = u.Hex, n
				}
			}
		}
		if f.stack != 0 {
			fronts = append(fronts, f)
		}
	}
	if len(fronts) == 0 {
		return nil
	}
	sort.SliceStable(fronts, func(i, j int) bool { return fronts[i].steps > fronts[j].steps })
	share, rest := s.AirJP/len(fronts), s.AirJP%len(fronts)
	s.AirJP = 0
	var evs []Event
	for i, f := range fronts {
		n := share
		if i < rest {
			n++
		}
		if n > 0 {
			evs = append(evs, s.airAttack(AirAttack{Hex: f.stack, Factors: n}, JP, d)...)
		}
	}
	return append(evs, s.checkSuddenVictory()...)
}

// soloBarsAir says why the Japanese orders may not call an air attack in a
// solitaire game (rule 13.2), or "".
func (s *State) soloBarsAir(side Side) string {
	if side != JP || !s.IsSolitaire() {
		return ""
	}
	return "in a solitaire game the Japanese airpower goes to the defence of the victory hexes by itself (rule 13.2)"
}

// validSolo checks the state of the solitaire rules (rule 13): it belongs
// to a solitaire game, its fixed units are Unknown units, its ad hoc units
// Japanese infantry, and its placements victory hexes, each once.
func (s *State) validSolo(bad func([]Hex, string, ...any)) {
	so := s.Solo
	if so == nil {
		return
	}
	if !s.IsSolitaire() {
		bad(nil, "the position holds the state of the solitaire rules, but the game is not solitaire (rule 13)")
	}
	for _, id := range fixedIDs(so.Fixed) {
		if u, ok := s.Unit(id); !ok || u.Kind() != Unknown {
			bad([]Hex{so.Fixed[id]}, "%s is fixed on a victory hex, but only Unknown units are (rule 13.2.1)", id)
		}
	}
	for _, id := range so.AdHoc {
		if u, ok := s.Unit(id); !ok || u.Counter().Side() != JP || u.Kind() != Infantry {
			bad(nil, "%s is listed as placed by rule 13.2.2, but only Japanese infantry is", id)
		}
	}
	seen := map[Hex]bool{}
	for _, h := range so.Placed {
		if _, ok := s.Map().VictoryHexAt(h); !ok || seen[h] {
			bad([]Hex{h}, "the ad hoc placements list %s, which is not a victory hex or is listed twice (rule 13.2.2)", h)
		}
		seen[h] = true
	}
}

// fixedIDs returns the ids of Solitaire.Fixed in order.
func fixedIDs(m map[string]Hex) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
