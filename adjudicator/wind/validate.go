package wind

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Violation is one way in which a position is not one the rules can reach
// (see Validate): what is wrong, naming the units, and the hexes concerned.
type Violation struct {
	Msg   string
	Hexes []Hex // none when the problem is not in a hex
}

func (v *Violation) Error() string { return v.Msg }

// Validate checks the invariants every position reached by the rules keeps,
// whatever happened before it. It returns nil for a sound position, else
// every problem found, joined (errors.Join), each a *Violation:
//
//   - the units are the counter mix: one unit per counter, bound to it
//     (Attach), no id twice;
//   - each unit is in exactly one place: a land hex, or a box that its
//     side and kind may be in (reinforcements and staging boxes for the
//     U.S., the pool for Japanese infantry, the off-map box for Unknown
//     units, rules 2.5, 9.2); none is left set aside, a box that lasts only
//     while a melee is fought (8.2.1.2);
//   - every unit has between one step and its counter's full strength (an
//     eliminated counter keeps its last step);
//   - only Japanese units on the map are face down, and Unknown units on
//     the map always are (2.5); only U.S. artillery is ever captured
//     (8.2.1.4);
//   - when a turn starts (the U.S. decision) no unit has acted, moved,
//     declared a melee or fought (3.9);
//   - no hex holds both sides, and every stack is legal: U.S. rule 4.1 or,
//     in a landing zone hex, its capacity instead (9.2.1); Japanese at most
//     three infantry and artillery units (4.2);
//   - the casualty track is not negative and a track at 30 has ended the
//     game (3.8.2); airpower is not negative; refit steps are kept only
//     while the U.S. refit orders are awaited (9.1);
//   - cleared zones are victory zones of the map other than Attu Village,
//     each listed once, with no Unknown unit in them and no Japanese
//     infantry on their victory hex (10.0);
//   - the Komandorski chits are either not drawn or valid chits, revealed
//     only once drawn (12.1); a winner comes with the reason;
//   - the standing instructions in force are valid (Standing.Check), and
//     supply overrides name units of the mix.
//
// What depends on the history of a game (the casualty track against the
// steps lost, pool counts against a scenario's setup) is not checked here.
func (s *State) Validate() error {
	var errs []error
	bad := func(hexes []Hex, format string, a ...any) {
		errs = append(errs, &Violation{Msg: fmt.Sprintf(format, a...), Hexes: hexes})
	}
	if !s.validUnits(bad) {
		// The checks below read each unit's counter.
		return errors.Join(errs...)
	}
	m := s.Map()
	phase := s.Wait().Kind
	for _, u := range s.Units {
		var at []Hex
		if u.OnMap() {
			at = []Hex{u.Hex}
		}
		c := u.Counter()
		switch {
		case u.OnMap() && u.Box != "":
			bad(at, "%s is both in %s and in box %q", u.ID, u.Hex, u.Box)
		case u.OnMap() && !m.Land(u.Hex):
			bad(at, "%s stands in %s, which is not a land hex", u.ID, u.Hex)
		case !u.OnMap():
			if why := boxProblem(m, u); why != "" {
				bad(nil, "%s %s", u.ID, why)
			}
		}
		if u.Steps < 1 || u.Steps > c.MaxSteps() {
			bad(at, "%s has %d steps; its counter has 1 to %d", u.ID, u.Steps, c.MaxSteps())
		}
		switch {
		case u.FaceDown && c.Side() != JP:
			bad(at, "%s is face down, but only Japanese units hide (rule 2.5)", u.ID)
		case u.FaceDown && !u.OnMap():
			bad(nil, "%s is face down in box %q; off the map a counter has no face", u.ID, u.Box)
		case u.OnMap() && u.Kind() == Unknown && !u.FaceDown:
			bad(at, "Unknown unit %s is face up on the map; it turns into infantry when revealed (rule 2.5)", u.ID)
		}
		if u.Captured && (c.Side() != US || c.Kind() != Artillery) {
			bad(at, "%s is captured, but only U.S. artillery is ever captured (rule 8.2.1.4)", u.ID)
		}
		if phase == WaitUSDecision && (u.Acted || u.MPSpent != 0 || u.Melee != 0 || u.Fought) {
			bad(at, "%s starts turn %d marked as having acted (acted %v, %d MP spent, melee against %s, fought %v; rule 3.9)",
				u.ID, s.Turn, u.Acted, u.MPSpent, u.Melee, u.Fought)
		}
	}

	s.validStacks(bad)

	switch {
	case s.Turn < 1:
		bad(nil, "turn %d: the first turn is 1 (rule 12.2)", s.Turn)
	case s.Weather > Williwaw:
		bad(nil, "weather %d is none of the four of rule 3.3", s.Weather)
	}
	if s.AirUS < 0 || s.AirJP < 0 {
		bad(nil, "airpower %d U.S., %d Japanese: factors are never negative (rule 3.4)", s.AirUS, s.AirJP)
	}
	if s.RefitSteps < 0 || s.RefitSteps != 0 && phase != WaitUSRefit {
		bad(nil, "%d refit steps are kept while the game waits for %s; the roll's steps are spent in the U.S. refit orders (rule 9.1)", s.RefitSteps, s.WaitText())
	}
	if s.Edition < EditionFirst || s.Edition > LatestEdition {
		bad(nil, "the position is of edition %d of attu's rules; the editions are %d to %d", s.Edition, EditionFirst, LatestEdition)
	}
	if s.Casualties < 0 {
		bad(nil, "the casualty track is at %d, below 0 (rule 8.4)", s.Casualties)
	}
	if s.Casualties >= CasualtyLimit && !s.Over() {
		bad(nil, "the casualty track is at %d, yet the game goes on; at %d the Japanese win at once (rule 3.8.2)", s.Casualties, CasualtyLimit)
	}
	if s.Winner != NoSide && (s.Winner != US && s.Winner != JP || s.Victory == "") {
		bad(nil, "the winner is %s with the reason %q; a winner is the U.S. or the Japanese, with a reason (rule 3.8)", s.Winner, s.Victory)
	}
	s.validCleared(bad)
	s.validKomandorski(bad)
	s.validSolo(bad)
	for _, why := range s.StandingUS.Check(US) {
		bad(nil, "U.S. standing instructions in force: %s", why)
	}
	for _, why := range s.StandingJP.Check(JP) {
		bad(nil, "Japanese standing instructions in force: %s", why)
	}
	for _, id := range sortedIDs(s.SupplyOverride) {
		if _, ok := s.Unit(id); !ok {
			bad(nil, "the supply override names %q, which is not a unit of the game", id)
		}
	}
	return errors.Join(errs...)
}

// validUnits checks that s.Units is the counter mix, each unit bound to its
// counter, and says whether the other checks may read the counters.
func (s *State) validUnits(bad func([]Hex, string, ...any)) bool {
	// The quick look, which holds for every sound position: as many units
	// as counters, each known, bound to its counter and found by its id.
	ok := len(s.Units) == len(s.Counters().IDs())
	for _, u := range s.Units {
		if c, known := s.Counters().Get(u.ID); !ok || !known || u.counter != c || s.index[u.ID] != u {
			ok = false
			break
		}
	}
	if ok {
		return true
	}
	ok = true
	seen := make(map[string]bool, len(s.Units))
	for i, u := range s.Units {
		switch c, known := s.Counters().Get(u.ID); {
		case !known:
			bad(nil, "unit %d, %q, is not in the counter mix", i+1, u.ID)
			ok = false
		case seen[u.ID]:
			bad(nil, "%s is in the position twice", u.ID)
			ok = false
		case u.counter != c:
			bad(nil, "%s is not bound to its counter (the position was not attached)", u.ID)
			ok = false
		}
		seen[u.ID] = true
	}
	for _, id := range s.Counters().IDs() {
		if !seen[id] {
			bad(nil, "counter %s has no unit in the position", id)
			ok = false
		}
	}
	return ok
}

// validStacks checks that no hex holds both sides and that every stack is
// legal (rule 4.0, with the landing zones' capacity of 9.2.1).
func (s *State) validStacks(bad func([]Hex, string, ...any)) {
	on := make([]*Unit, 0, len(s.Units))
	for _, u := range s.Units {
		if u.OnMap() {
			on = append(on, u)
		}
	}
	slices.SortStableFunc(on, func(a, b *Unit) int { return int(a.Hex) - int(b.Hex) })
	entries := make([]stackEntry, 0, 8)
	for i := 0; i < len(on); {
		h, side := on[i].Hex, on[i].Side()
		j := i
		entries = entries[:0]
		mixed := -1
		for ; j < len(on) && on[j].Hex == h; j++ {
			if on[j].Side() != side && mixed < 0 {
				mixed = j
			}
			entries = append(entries, stackEntry{on[j].counter, on[j].Steps})
		}
		switch {
		case mixed >= 0:
			bad([]Hex{h}, "%s holds units of both sides (%s and %s)", h, on[i].ID, on[mixed].ID)
		case side == US:
			if why := s.usStacking(h, entries); why != "" {
				bad([]Hex{h}, "stacking: %s holds %s", h, why)
			}
		default:
			if why := jpStacking(entries); why != "" {
				bad([]Hex{h}, "stacking: %s holds %s", h, why)
			}
		}
		i = j
	}
}

// boxProblem says why off-map unit u may not be in its box, or returns "".
func boxProblem(m *Map, u *Unit) string {
	c := u.Counter()
	switch box := u.Box; {
	case box == "":
		return "is nowhere: neither in a hex nor in a box"
	case box == BoxEliminated, box == BoxUnused:
		return ""
	case strings.HasPrefix(box, BoxSetAsidePrefix):
		return fmt.Sprintf("is still in box %q; units are set aside only while a melee is fought (rule 8.2.1.2)", box)
	case box == BoxReinforcements && c.Side() != US:
		return "is in the reinforcements box, which holds U.S. units only (rule 9.2)"
	case box == BoxPool && (c.Side() != JP || c.Kind() != Infantry):
		return "is in the pool, which holds Japanese infantry only (rule 2.5)"
	case box == BoxOffMap && (c.Side() != JP || c.Kind() != Unknown):
		return "is in the off-map box, which holds Unknown units only (rules 2.5, 9.6)"
	case box == BoxSetup && (c.Side() != JP || c.Kind() != Unknown && c.Kind() != Artillery):
		return "is in the setup box, which holds the Japanese Unknown units and guns still to be placed (rule 12.4)"
	case box == BoxReinforcements, box == BoxPool, box == BoxOffMap, box == BoxSetup:
		return ""
	case strings.HasPrefix(box, BoxStagingPrefix):
		if _, ok := m.LandingZone(strings.TrimPrefix(box, BoxStagingPrefix)); !ok {
			return fmt.Sprintf("is in box %q, the staging box of no landing zone of the map (rule 9.2.2)", box)
		}
		if c.Side() != US {
			return fmt.Sprintf("is in box %q; staging boxes hold U.S. units only (rule 9.2.2)", box)
		}
		return ""
	}
	return fmt.Sprintf("is in box %q, which does not exist", u.Box)
}

// validCleared checks the Zone Cleared markers (rule 10.0).
func (s *State) validCleared(bad func([]Hex, string, ...any)) {
	m := s.Map()
	for i, z := range s.Cleared {
		var vh *VictoryHex
		for k := range m.VictoryHexes {
			if m.VictoryHexes[k].Zone == z {
				vh = &m.VictoryHexes[k]
			}
		}
		switch {
		case vh == nil:
			bad(nil, "cleared zone %q is not a victory zone of the map", z)
			continue
		case slices.Contains(s.Cleared[:i], z):
			bad([]Hex{vh.Hex}, "the %s zone is listed as cleared twice", m.ZoneName(z))
			continue
		case isAttuVillage(*vh):
			bad([]Hex{vh.Hex}, "the %s zone is cleared, but it never is (rule 10.0)", m.ZoneName(z))
			continue
		case s.japaneseInfantryIn(vh.Hex):
			bad([]Hex{vh.Hex}, "the %s zone is cleared, but Japanese infantry holds its victory hex %s, which removes the marker (rule 10.0)", m.ZoneName(z), vh.Hex)
		}
		for _, u := range s.Units {
			if u.OnMap() && u.Kind() == Unknown && m.Zone(u.Hex) == z {
				bad([]Hex{u.Hex}, "Unknown unit %s stands in %s, in the cleared %s zone, where no Unknown unit may be (rule 10.0)", u.ID, u.Hex, m.ZoneName(z))
			}
		}
	}
}

// validKomandorski checks the chits of rule 12.1: not drawn, or an effect
// chit of May 24, 27 or 30 and a delay of 1 to 4 turns.
func (s *State) validKomandorski(bad func([]Hex, string, ...any)) {
	k := s.Komandorski
	if k == (Komandorski{}) {
		return
	}
	if !slices.Contains([]int{24, 27, 30}, k.Effect) || k.Delay < 1 || k.Delay > 4 {
		bad(nil, "Komandorski chits: effect May %d, delay %d; the effect is May 24, 27 or 30 and the delay 1 to 4 turns (rule 12.1)", k.Effect, k.Delay)
	}
	if k.DelayRevealed && !k.EffectRevealed {
		bad(nil, "the Komandorski delay chit is revealed before the effect chit (rule 12.1.3)")
	}
}

func sortedIDs(m map[string]bool) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
