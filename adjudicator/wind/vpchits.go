package wind

import (
	"fmt"
	"github.com/attu-pbem/attu/adjudicator"
	"slices"
	"strings"
)

// The optional victory point chits (rule 14.0), chosen when a campaign game
// is created.
//
// Readings taken where the rules leave room (RULINGS.md R67):
//
//   - The counter mix says how many chits of each value there are
//     (Counters.VP); the rules name only the values.
//   - The chits are a campaign rule: every short scenario ends before May
//     27, and 14.0 speaks of all six victory hexes.
//   - Drawn: the value chits are drawn at random, one for each victory hex
//     but Attu Village, in the map's order, when the game is created.
//     Placed: the Japanese player puts one on each of those hexes, as he
//     pleases, in the setup wait. Either way the "0" and "Cancelled" chits
//     are drawn next, one for every victory hex: at creation after drawn
//     values, in the setup step after placed ones, so the Japanese never
//     place a value knowing which hexes are cancelled. The draws are the
//     Japanese player's, out of the U.S. player's sight, and the Japanese
//     may review every chit once it is down.
//   - The game ends when rule 3.8 ends it (victory hexes, landing zones,
//     casualties, eliminations, the last turn); the chits then decide who
//     won and how well. A victory hex is captured when the U.S. occupies it
//     at the end (R45). A value chit stacked with "Cancelled" is discarded;
//     Attu Village is worth 4 more unless its chit is "Cancelled". The
//     date is that of the turn the game ends in: before May 27 adds 1,
//     after May 30 takes 1.

// VP chit modes (Options.VPChits).
const (
	VPDrawn  = "drawn"  // the value chits are drawn at random (14.0)
	VPPlaced = "placed" // the Japanese place them (14.0, face to face)
)

// VPChits are the victory point chits on the victory hexes (rule 14.0).
type VPChits struct {
	Mode string `json:"mode"`
	// Hexes has one entry per victory hex, in the map's order.
	Hexes []VPHex `json:"hexes"`
	// Revealed: the game is over and the chits are shown to both sides.
	Revealed bool `json:"revealed,omitempty"`
	// Score and Level are the victory points and the Victory Level Table's
	// line, set when the game ends.
	Score int    `json:"score,omitempty"`
	Level string `json:"level,omitempty"`
}

// VPHex is the chits on one victory hex.
type VPHex struct {
	Hex Hex `json:"hex"`
	// Value is the value chit (1 to 3); 0 on Attu Village, which has
	// none, and on every hex while the Japanese have still to place them.
	Value int `json:"value,omitempty"`
	// Cancelled: the second chit is "Cancelled" rather than "0".
	Cancelled bool `json:"cancelled,omitempty"`
	// Attu marks Attu Village, worth AttuVP when captured and not
	// cancelled.
	Attu bool `json:"attu,omitempty"`
	// Name and Captured are for the events that show the chits: the
	// victory hex's name, and whether the U.S. held it when the game
	// ended.
	Name     string `json:"name,omitempty"`
	Captured bool   `json:"captured,omitempty"`
}

func (v *VPChits) clone() *VPChits {
	if v == nil {
		return nil
	}
	c := *v
	c.Hexes = slices.Clone(v.Hexes)
	return &c
}

// AttuVP is what Attu Village adds when captured and not cancelled (14.0).
const AttuVP = 4

// vpLevels is the Victory Level Table of rule 14.0: the least points of
// each line, from the top.
var vpLevels = []struct {
	min    int
	winner Side
	level  string
	grade  adjudicator.Grade
}{
	{11, US, "U.S. major victory", adjudicator.GradeMajor},
	{9, US, "U.S. minor victory", adjudicator.GradeMinor},
	{7, US, "U.S. marginal victory", adjudicator.GradeMarginal},
	{5, JP, "Japanese marginal victory", adjudicator.GradeMarginal},
	{3, JP, "Japanese minor victory", adjudicator.GradeMinor},
	{-1 << 30, JP, "Japanese major victory", adjudicator.GradeMajor},
}

// VictoryGrade is how decisive the victory of points victory points is
// by the Victory Level Table (rule 14.0).
func VictoryGrade(points int) adjudicator.Grade {
	for _, l := range vpLevels {
		if points >= l.min {
			return l.grade
		}
	}
	return adjudicator.GradeMajor
}

// VictoryLevel reads the Victory Level Table (rule 14.0): who wins with
// points victory points and how well.
func VictoryLevel(points int) (Side, string) {
	for _, l := range vpLevels {
		if points >= l.min {
			return l.winner, l.level
		}
	}
	return JP, vpLevels[len(vpLevels)-1].level
}

// VPDateAdjustment is what the date adds to the victory points (14.0): 1
// when the game ends before May 27, -1 when after May 30, else 0.
func VPDateAdjustment(turn int) int {
	switch {
	case turn < TurnOfMay(27):
		return 1
	case turn > TurnOfMay(30):
		return -1
	}
	return 0
}

// attuHex returns the Attu Village victory hex, or 0.
func (m *Map) attuHex() Hex {
	for _, vh := range m.VictoryHexes {
		if isAttuVillage(vh) {
			return vh.Hex
		}
	}
	return 0
}

// drawVP puts the chits on the victory hexes at creation (rule 14.0): the
// value chits drawn, then the 0 and Cancelled chits drawn; when the
// Japanese are to place the values, only the bare victory hexes, the rest
// coming in the setup step (setUpJapanese). The draws are the Japanese
// player's (DieVPDraw).
func (s *State) drawVP(mode string, d Dice) ([]Event, error) {
	m, mix := s.Map(), s.Counters().VP
	attu := m.attuHex()
	if n := len(m.VictoryHexes) - 1; len(mix.Values) < n || mix.Zero+mix.Cancelled < n+1 {
		return nil, fmt.Errorf("adjudicator: the counter mix has %d value chits and %d 0 or Cancelled chits, too few for %d victory hexes (rule 14.0)",
			len(mix.Values), mix.Zero+mix.Cancelled, n+1)
	}
	v := &VPChits{Mode: mode}
	values := slices.Clone(mix.Values)
	for _, vh := range m.VictoryHexes {
		e := VPHex{Hex: vh.Hex, Attu: vh.Hex == attu}
		if vh.Hex != attu && mode == VPDrawn {
			i := drawWith(len(values), d, Die{Purpose: DieVPDraw, Side: JP, Hex: vh.Hex, Seen: AudienceJP})
			e.Value = values[i]
			values = slices.Delete(values, i, i+1)
		}
		v.Hexes = append(v.Hexes, e)
	}
	s.VP = v
	if mode != VPDrawn {
		return nil, nil
	}
	evs := []Event{setupSeen(JP, Event{Kind: EventVPValues, Side: JP, Reason: ReasonDrawn, Private: &Private{VP: v.named(m).Hexes}})}
	return append(evs, s.drawCancelled(d)...), nil
}

// drawCancelled draws a 0 or Cancelled chit for every victory hex (14.0).
func (s *State) drawCancelled(d Dice) []Event {
	mix := s.Counters().VP
	pool := make([]bool, 0, mix.Zero+mix.Cancelled) // true: Cancelled
	for range mix.Zero {
		pool = append(pool, false)
	}
	for range mix.Cancelled {
		pool = append(pool, true)
	}
	for i := range s.VP.Hexes {
		e := &s.VP.Hexes[i]
		k := drawWith(len(pool), d, Die{Purpose: DieVPDraw, Side: JP, Hex: e.Hex, Seen: AudienceJP})
		e.Cancelled = pool[k]
		pool = slices.Delete(pool, k, k+1)
	}
	return []Event{setupCounters(Event{Kind: EventVPCancelled, Side: JP, Private: &Private{VP: s.VP.named(s.Map()).Hexes}})}
}

// named returns a copy of the chits with each victory hex's name, for an
// event.
func (v *VPChits) named(m *Map) *VPChits {
	c := v.clone()
	for i := range c.Hexes {
		vh, _ := m.VictoryHexAt(c.Hexes[i].Hex)
		c.Hexes[i].Name = vh.Name
	}
	return c
}

// VPPlacement puts a value chit on a victory hex (rule 14.0).
type VPPlacement struct {
	Hex   Hex
	Value int
}

// judgeVP judges the Japanese placement of the value chits: one on each
// victory hex but Attu Village, from the chits of the mix.
func (s *State) judgeVP(list []VPPlacement) []Problem {
	var problems []Problem
	bad := func(i int, format string, a ...any) {
		problems = append(problems, Problem{Action: -1, Step: i, Part: PartVP, Msg: fmt.Sprintf(format, a...)})
	}
	if s.VP == nil || s.VP.Mode != VPPlaced {
		if len(list) > 0 {
			bad(-1, "vp: this game places no victory point chits: they are not in use, or were drawn at random (rule 14.0)")
		}
		return problems
	}
	m := s.Map()
	attu := m.attuHex()
	left := slices.Clone(s.Counters().VP.Values)
	seen := map[Hex]int{}
	for i, p := range list {
		vh, ok := m.VictoryHexAt(p.Hex)
		switch {
		case !ok:
			bad(i, "%s is not a victory hex; the value chits go on %s (rule 14.0)", p.Hex, s.vpHexNames())
			continue
		case p.Hex == attu:
			bad(i, "%s (%s) takes no value chit: it is worth %d on its own (rule 14.0)", vh.Name, p.Hex, AttuVP)
			continue
		}
		if j, dup := seen[p.Hex]; dup {
			bad(i, "%s has a value chit already (entry %d): one chit a victory hex (rule 14.0)", p.Hex, j+1)
			continue
		}
		seen[p.Hex] = i
		k := slices.Index(left, p.Value)
		if k < 0 {
			bad(i, "no value chit of %d is left: the chits are %s (rule 14.0)", p.Value, intsText(s.Counters().VP.Values))
			continue
		}
		left = slices.Delete(left, k, k+1)
	}
	var missing []string
	for _, vh := range m.VictoryHexes {
		if _, ok := seen[vh.Hex]; !ok && vh.Hex != attu {
			missing = append(missing, vh.Hex.String())
		}
	}
	if len(missing) > 0 {
		bad(-1, "vp: put a value chit on %s too: every victory hex but Attu Village takes one (rule 14.0)", joinAnd(missing))
	}
	return problems
}

func (s *State) vpHexNames() string {
	var out []string
	attu := s.Map().attuHex()
	for _, vh := range s.Map().VictoryHexes {
		if vh.Hex != attu {
			out = append(out, vh.Hex.String())
		}
	}
	return joinAnd(out)
}

func intsText(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}

// placeVP puts the judged value chits on their hexes.
func (s *State) placeVP(list []VPPlacement) []Event {
	if s.VP == nil || s.VP.Mode != VPPlaced || len(list) == 0 {
		return nil
	}
	for _, p := range list {
		for i := range s.VP.Hexes {
			if s.VP.Hexes[i].Hex == p.Hex {
				s.VP.Hexes[i].Value = p.Value
			}
		}
	}
	return []Event{setupSeen(JP, Event{Kind: EventVPValues, Side: JP, Reason: ReasonPlaced, Private: &Private{VP: s.VP.named(s.Map()).Hexes}})}
}

// DefaultVP returns a placement of the value chits: the highest values on
// the victory hexes in the map's order.
func (s *State) DefaultVP() []VPPlacement {
	if s.VP == nil || s.VP.Mode != VPPlaced {
		return nil
	}
	values := slices.Clone(s.Counters().VP.Values)
	slices.Sort(values)
	slices.Reverse(values)
	var out []VPPlacement
	attu := s.Map().attuHex()
	for _, vh := range s.Map().VictoryHexes {
		if vh.Hex == attu || len(values) == 0 {
			continue
		}
		out = append(out, VPPlacement{Hex: vh.Hex, Value: values[0]})
		values = values[1:]
	}
	return out
}

// VPScore adds up the victory points of rule 14.0 as the position stands:
// the chits of the victory hexes the U.S. occupies, Attu Village's 4, and
// the date of the current turn. It returns the total and one line per
// item, for the report.
func (s *State) VPScore() (int, []string) {
	if s.VP == nil {
		return 0, nil
	}
	m := s.Map()
	attu := m.attuHex()
	total := 0
	var lines []string
	for _, e := range s.VP.Hexes {
		vh, _ := m.VictoryHexAt(e.Hex)
		name := fmt.Sprintf("%s (%s)", vh.Name, e.Hex)
		if !s.holds(e.Hex, US) {
			lines = append(lines, name+": not captured, 0")
			continue
		}
		switch {
		case e.Cancelled:
			lines = append(lines, name+": captured, Cancelled, 0")
		case e.Hex == attu:
			total += AttuVP
			lines = append(lines, fmt.Sprintf("%s: captured, 0 chit, %d for Attu", name, AttuVP))
		default:
			total += e.Value
			lines = append(lines, fmt.Sprintf("%s: captured, %d", name, e.Value))
		}
	}
	if adj := VPDateAdjustment(s.Turn); adj != 0 {
		total += adj
		when := "before May 27"
		if adj < 0 {
			when = "after May 30"
		}
		lines = append(lines, fmt.Sprintf("the game ends on %s, %s: %+d", TurnDate(s.Turn), when, adj))
	}
	return total, lines
}

// scoreVP reveals the chits at the end of the game and reads the Victory
// Level Table (rule 14.0): it returns the winner and why.
func (s *State) scoreVP(why string) (Side, string) {
	total, lines := s.VPScore()
	for i := range s.VP.Hexes {
		s.VP.Hexes[i].Captured = s.holds(s.VP.Hexes[i].Hex, US)
	}
	winner, level := VictoryLevel(total)
	s.VP.Revealed, s.VP.Score, s.VP.Level = true, total, level
	return winner, fmt.Sprintf("%s%s%s; %d victory points: %s", why, chitsDecide, strings.Join(lines, "; "), total, level)
}

// chitsDecide joins why the game ended to the chits' score in s.Victory
// (scoreVP); kept as stored, since positions hold it.
const chitsDecide = "; the victory point chits (rule 14.0): "

// VictoryText says why the game was won, for the reader: s.Victory, but
// when the victory point chits decided (rule 14.0) it says so first and
// tells why the game ended after, so that a U.S. victory never reads as
// the U.S. failing to win.
func (s *State) VictoryText() string {
	why, chits, ok := strings.Cut(s.Victory, chitsDecide)
	if s.VP == nil || !s.VP.Revealed || !ok {
		return s.Victory
	}
	if why == lastTurnWhy {
		why = "the last turn was over (rule 3.8.3)"
	}
	return "the victory point chits decide (rule 14.0): " + chits + "; the game ended when " + why
}
