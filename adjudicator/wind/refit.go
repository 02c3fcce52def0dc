package wind

import (
	"fmt"
	"sort"
	"strings"
)

// Refit turns (rule 9). A U.S. decision calling a refit turn replaces the
// rest of the turn sequence (3.1) with these waits:
//
//	us-decision (U.S.)       refit: true, perhaps with the refit orders
//	  weather                server (3.3, 9.1)
//	  loss recovery          server: two dice on the Loss Recovery table,
//	                         then the casualty track goes back to 0 (9.1)
//	us-refit (U.S.)          unless the decision carried them: restore
//	                         steps, land, independents, depots (9.1-9.4)
//	  scatter, capacity      server (9.2.1, 9.2.2)
//	jp-refit (Japanese)      hide units, move and swap Unknown units (9.5, 9.6)
//	  turn advance           server (9.7, 12.1.3)
//
// Readings taken where the rules leave room:
//
//   - Loss recovery. The two dice are added and modified by the weather just
//     rolled (fog -1, williwaw -2) and by the scenario (RefitModifier). The
//     table's rows run from 2 to 20: a modified total below 2 reads as 2 (a
//     row of nothing but 0), and no modifier ever raises the total above 20.
//     Its columns are the casualty track from 1 to 29: a track at 0 gives 0
//     steps, and 30 never occurs because it ends the game (3.8.2;
//     RULINGS.md R51).
//   - Restoring steps is a priority list: each entry names an infantry unit
//     and, if the player wishes, how many steps it should get; without a
//     number it gets as many as it may take. Steps are handed out in list
//     order until the roll's are spent; the rest are lost with the track's
//     reset. A unit must be on the map and in supply when its steps are
//     restored (7.4); an entry asking for more steps than the unit lacks,
//     or than its hex can stack (4.0, 9.2.1), is refused, while an entry
//     without a number is cut to what fits (RULINGS.md R52).
//   - Landing. Units land in the order the orders list them, so the most
//     recently landed units (9.2.1) are the last listed. A unit landing
//     where it was sent or scattering lands in that zone's hex; the capacity
//     of each zone is then enforced by taking steps from the units landed
//     there this turn, the last landed first. Units already in a zone before
//     the landing were landed earlier and lose nothing (RULINGS.md R54).
//   - The casualty track counts U.S. infantry steps only (8.4): steps of
//     recon, engineers and artillery lost in a landing are lost without a
//     mark, as they are in combat ("just like combat losses", 9.2.1;
//     RULINGS.md R55).
//   - Independent units (9.3): each infantry company may give one step per
//     refit turn, never its last (rule 9.4 allows the last step for depots
//     only, and says so). The counter mix limits them: an independent is
//     created from a counter never used yet, so the counters eliminated do
//     not come back (RULINGS.md R56). Each engineer company creates its
//     depot once a game (9.4; R57).
//   - Orders are judged without dice when they arrive, as actions are: the
//     landing as though every unit lands where it is sent. When the refit
//     orders come inside the decision, they are judged before the weather
//     is rolled. Whatever the dice then make impossible (a unit out of
//     supply in the new weather, a unit scattered or delayed) is skipped,
//     and the report says so (RULINGS.md R53).
//
// The Japanese part (9.5 to 9.7) is in refit_japanese.go, the landing and
// the U.S. creations (9.2 to 9.4) in refit_landing.go.

// Refit is the U.S. orders of a refit turn (rules 9.1 to 9.4), carried out
// in the order of the rules: steps restored, units landed, independent
// units created, supply depots created.
type Refit struct {
	// Restore lists the infantry units to restore, in priority order (9.1).
	Restore []Restore
	// Land lists the units leaving the reinforcements box, in the order
	// they land (9.2).
	Land []Landing
	// Independents lists infantry units that each give one step to a new
	// independent unit in their hex (9.3).
	Independents []string
	// Depots lists engineer units that each create their supply depot in
	// their hex (9.4).
	Depots []string
}

// Restore asks for steps for one infantry unit (rule 9.1). Steps 0 means as
// many as it may take.
type Restore struct {
	Unit  string
	Steps int
}

// Landing sends a unit of the reinforcements box to a landing zone's
// staging box (rule 9.2.2).
type Landing struct {
	Unit string
	Zone string
}

// The lists of refit orders, as Problem.Part names them.
const (
	PartRestore      = "restore"
	PartLand         = "land"
	PartIndependents = "independents"
	PartDepots       = "depots"
	PartHide         = "hide"
	PartMove         = "move"
	PartSwap         = "swap"
)

// lossRecovery is the Loss Recovery table of rule 9.1: one row per modified
// two-dice total from 2 to 20, one column per casualty track value from 1
// to 29; each entry is the steps the U.S. may restore.
var lossRecovery = [19][29]int{
	/*  2 */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	/*  3 */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	/*  4 */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	/*  5 */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	/*  6 */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	/*  7 */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
	/*  8 */ {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2},
	/*  9 */ {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3},
	/* 10 */ {1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4},
	/* 11 */ {1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6},
	/* 12 */ {1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8},
	/* 13 */ {1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5, 5, 6, 6, 6, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10},
	/* 14 */ {1, 1, 2, 3, 3, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 8, 8, 9, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13},
	/* 15 */ {1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15},
	/* 16 */ {1, 2, 2, 3, 4, 4, 5, 6, 6, 6, 7, 7, 7, 8, 8, 9, 9, 10, 10, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16},
	/* 17 */ {1, 2, 3, 3, 4, 5, 6, 6, 6, 7, 8, 8, 8, 9, 10, 10, 11, 12, 12, 13, 13, 14, 15, 15, 16, 17, 17, 18, 19},
	/* 18 */ {1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 13, 13, 14, 14, 15, 16, 17, 17, 18, 19, 19, 20, 21},
	/* 19 */ {1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 9, 10, 10, 11, 12, 13, 13, 14, 15, 16, 17, 17, 18, 19, 20, 21, 21, 22, 23},
	/* 20 */ {1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15, 16, 17, 18, 19, 20, 20, 21, 22, 23, 24, 25},
}

// The rows of the Loss Recovery table (rule 9.1).
const (
	LossRecoveryLow  = 2  // a modified total below reads as this row
	LossRecoveryHigh = 20 // two dice can show no more
)

// LossRecovery reads the Loss Recovery table (rule 9.1): the steps the U.S.
// may restore for a modified two-dice total and the casualty track. A total
// below 2 reads as 2 and one above 20 as 20; a track at 0 or below gives 0
// steps, and one at 30 or above (which has ended the game, 3.8.2) reads as
// 29.
func LossRecovery(total, casualties int) int {
	if casualties <= 0 {
		return 0
	}
	total = min(max(total, LossRecoveryLow), LossRecoveryHigh)
	casualties = min(casualties, CasualtyLimit-1)
	return lossRecovery[total-LossRecoveryLow][casualties-1]
}

// RefitModifier is what a scenario adds to the loss recovery roll: -2 in
// Up the Hog's Back (15.1), -3 in Holtz Bay to Jarmin Pass (15.2), -2 in The
// Linkup (15.3), 0 in the campaign.
func RefitModifier(scenario string) int {
	switch scenario {
	case ScenarioUpTheHogsBack, ScenarioTheLinkup:
		return -2
	case ScenarioHoltzBayToJarminPass:
		return -3
	}
	return 0
}

// WeatherRefitModifier is what the weather adds to the loss recovery roll
// (rule 9.1) and to each landing die (9.2.2): -1 in fog, -2 in a williwaw.
func WeatherRefitModifier(w Weather) int {
	switch w {
	case Fog:
		return -1
	case Williwaw:
		return -2
	}
	return 0
}

// LossRecoveryTotal is the modified total of the loss recovery roll (rule
// 9.1): the two dice, plus the weather's modifier, plus scenarioMod, what
// the scenario adds (RefitModifier), before a total below 2 reads as 2.
func LossRecoveryTotal(die1, die2 int, w Weather, scenarioMod int) int {
	return die1 + die2 + WeatherRefitModifier(w) + scenarioMod
}

// beginRefit is a U.S. decision calling a refit turn (rules 3.1, 9.1):
// weather, the loss recovery roll, the casualty track back to 0; then the
// refit orders the decision carried, or the wait for them.
func (s *State) beginRefit(r *Refit, d Dice) []Event {
	s.Night = false // a refit turn replaces the night decision with the rest (3.1)
	evs := []Event{refitPublic(Event{Kind: EventRefitDecision, Side: US, Turn: s.Turn})}
	evs = append(evs, RollWeather(s, d))
	evs = append(evs, s.rollLossRecovery(d)...)
	if r == nil {
		s.await(WaitUSRefit, US)
		return evs
	}
	return append(evs, s.refitUS(*r, d)...)
}

// rollLossRecovery is the second half of step 1 (rule 9.1): two dice
// against the Loss Recovery table, the steps they give kept in RefitSteps
// for the U.S. orders, and the casualty track reset to 0: the steps not
// recovered are gone for good.
func (s *State) rollLossRecovery(d Dice) []Event {
	d1 := d.Roll(Die{Purpose: DieLossRecovery, Side: US, Seen: AudienceBoth})
	d2 := d.Roll(Die{Purpose: DieLossRecovery, Side: US, Seen: AudienceBoth})
	wmod, smod := WeatherRefitModifier(s.Weather), RefitModifier(s.Scenario)
	total := LossRecoveryTotal(d1, d2, s.Weather, smod)
	steps := LossRecovery(total, s.Casualties)
	var mods []Modifier
	if wmod != 0 {
		mods = append(mods, Modifier{Value: wmod, Line: weatherLine[s.Weather]})
	}
	if smod != 0 {
		mods = append(mods, Modifier{Value: smod, Line: ModScenario})
	}
	evs := []Event{refitPublic(Event{Kind: EventLossRecovery, Side: US, Dice: []EventDie{{Face: d1}, {Face: d2}},
		Mods: mods, DRM: wmod + smod, Casualties: s.Casualties, Steps: steps, Weather: s.Weather})}
	lost := max(s.Casualties-steps, 0)
	s.RefitSteps = steps
	s.Casualties = 0
	evs = append(evs, refitPublic(Event{Kind: EventTrackReset, Side: US, Steps: lost}))
	return evs
}

// refitUS carries out the U.S. refit orders (rules 9.1 to 9.4) and moves on
// to the Japanese refit wait, unless a landing loss has ended the game
// (3.8.2).
func (s *State) refitUS(r Refit, d Dice) []Event {
	run := &refitRun{s: s, d: d, budget: s.RefitSteps}
	run.refit(r)
	s.RefitSteps = 0
	evs := run.events
	evs = append(evs, s.updateCleared()...)
	evs = append(evs, s.checkSuddenVictory()...)
	if s.Over() {
		return evs
	}
	s.await(WaitJPRefit, JP)
	return evs
}

// refitRun carries out or judges the U.S. refit orders. With d nil it
// judges them as they arrive, on a copy of the position: what is wrong
// becomes a Problem, and the landing goes as though every unit lands where
// it is sent. With dice it carries them out: an entry that the dice have
// made impossible is skipped and an event says so.
type refitRun struct {
	s *State
	d Dice
	// budget is the refit steps left to hand out (9.1); below 0 they are
	// not counted, as when orders inside a decision are judged before the
	// roll.
	budget   int
	problems []Problem
	events   []Event
}

func (r *refitRun) judging() bool { return r.d == nil }

// refuse reports entry i of list part as impossible: a problem when
// judging, a skipped entry when carrying out.
func (r *refitRun) refuse(part string, i int, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if r.judging() {
		r.problems = append(r.problems, Problem{Action: -1, Step: i, Part: part, Msg: msg})
		return
	}
	r.events = append(r.events, refitPublic(Event{Kind: EventRefitSkipped, Side: US, Part: part, Activation: i + 1, Note: msg}))
}

func (r *refitRun) event(e Event) { r.events = append(r.events, e) }

// refit runs the four U.S. steps in the order of the rules.
func (r *refitRun) refit(o Refit) {
	r.restore(o.Restore)
	r.land(o.Land)
	if r.s.Over() && !r.judging() {
		return
	}
	r.independents(o.Independents)
	r.depots(o.Depots)
}

// usUnit returns the U.S. unit of the orders named id, or why it cannot be
// one.
func (s *State) usUnit(id string) (*Unit, string) {
	u, ok := s.Unit(id)
	switch {
	case !ok:
		return nil, fmt.Sprintf("there is no unit %q", id)
	case u.Counter().Side() != US:
		return nil, fmt.Sprintf("%s is not a U.S. unit", id)
	}
	return u, ""
}

// twice tracks the units an orders list names, refusing a second mention.
type twice map[string]int

func (t twice) again(r *refitRun, part string, i int, id string) bool {
	if j, ok := t[id]; ok {
		r.refuse(part, i, "%s is listed twice under %s (first as entry %d)", id, part, j+1)
		return true
	}
	t[id] = i
	return false
}

// restore is step 1 (rule 9.1): steps to infantry units, in the order the
// orders list them, until the roll's steps are spent.
func (r *refitRun) restore(list []Restore) {
	s := r.s
	seen := twice{}
	for i, e := range list {
		u, why := s.usUnit(e.Unit)
		if why != "" {
			r.refuse(PartRestore, i, "%s", why)
			continue
		}
		if seen.again(r, PartRestore, i, u.ID) {
			continue
		}
		if why := s.restoreBan(u); why != "" {
			r.refuse(PartRestore, i, "%s", why)
			continue
		}
		full := u.Counter().MaxSteps()
		room := full - u.Steps
		switch {
		case e.Steps < 0:
			r.refuse(PartRestore, i, "%s: steps %d: write how many steps, 1 or more, or leave steps out", u.ID, e.Steps)
			continue
		case room == 0:
			r.refuse(PartRestore, i, "%s has all its %d steps: no unit is restored above the steps it started with (rule 9.1)", u.ID, full)
			continue
		case e.Steps > room:
			r.refuse(PartRestore, i, "%s has %d of its %d steps: it may take %s at most, not %d (rule 9.1)",
				u.ID, u.Steps, full, plural(room, "more step"), e.Steps)
			continue
		}
		want := e.Steps
		if want == 0 {
			want = room
		}
		fit := want
		for fit > 0 && s.StackingProblemWith(u.Hex, u, u.Steps+fit) != "" {
			fit--
		}
		if fit < want && e.Steps > 0 {
			r.refuse(PartRestore, i, "%s: %s, and no step is restored that over-stacks its hex (rule 9.1)",
				u.ID, s.StackingProblemWith(u.Hex, u, u.Steps+want))
			continue
		}
		if r.judging() && fit == 0 {
			// Nothing fits now, and nothing but earlier entries of these
			// orders changes the hex before the steps are handed out.
			r.refuse(PartRestore, i, "%s: %s, and no step is restored that over-stacks its hex (rule 9.1)",
				u.ID, s.StackingProblemWith(u.Hex, u, u.Steps+1))
			continue
		}
		if r.budget >= 0 {
			if r.budget == 0 {
				if !r.judging() {
					r.event(refitPublic(Event{Kind: EventNoRefitStep, Side: US, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{u.Hex}}))
				}
				continue
			}
			fit = min(fit, r.budget)
			r.budget -= fit
		}
		if fit == 0 {
			r.event(refitPublic(Event{Kind: EventRefitHexFull, Side: US, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{u.Hex}}))
			continue
		}
		u.Steps += fit
		r.event(refitPublic(Event{Kind: EventStepsRestored, Side: US, Units: []EventUnit{unitRef(u)}, Hexes: []Hex{u.Hex}, Steps: fit}))
	}
	if !r.judging() && r.budget > 0 {
		r.event(refitPublic(Event{Kind: EventRefitUnused, Side: US, Steps: r.budget}))
	}
}

// restoreBan says why u may not receive refit steps at all (rule 9.1), or
// returns "".
func (s *State) restoreBan(u *Unit) string {
	switch {
	case u.Box == BoxEliminated:
		return fmt.Sprintf("%s is eliminated, and an eliminated unit is never refit (rule 9.1)", u.ID)
	case u.Kind() != Infantry:
		return fmt.Sprintf("%s is %s: only infantry is refit, never recon, engineers, supply depots or artillery (rule 9.1)", u.ID, kindArticle(u.Kind()))
	case !u.OnMap():
		return fmt.Sprintf("%s is not on the map (%s): only units on the map, in supply, are refit (rule 9.1)", u.ID, boxName(u.Box))
	case !s.InSupply(u):
		return fmt.Sprintf("%s in %s is out of supply, and only units in supply are refit (rules 7.4, 9.1)", u.ID, u.Hex)
	}
	return ""
}

// kindArticle names a unit type for a sentence: "recon", "an engineer", "a
// supply depot", "artillery".
func kindArticle(k Kind) string {
	switch k {
	case Engineer:
		return "an engineer"
	case Depot:
		return "a supply depot"
	case Infantry:
		return "infantry"
	}
	return k.String()
}

// boxName names an off-map box for a sentence.
func boxName(box string) string {
	switch {
	case box == BoxReinforcements:
		return "it is in the reinforcements box"
	case box == BoxUnused:
		return "it has not been created"
	case strings.HasPrefix(box, BoxStagingPrefix):
		return "it is in the staging box of zone " + strings.TrimPrefix(box, BoxStagingPrefix)
	}
	return "it is in the " + box + " box"
}

// DefaultRefit returns the U.S. refit orders that stand when the U.S.
// misses the deadline of the refit wait: steps restored by the
// default priority, nothing landed, no independent unit or depot created.
// The default priority is the infantry units on the map, in supply, that
// lack steps and have room in their hex for at least one more: those that
// lack the most first, then in counter order; each takes as many steps as
// it may.
func (s *State) DefaultRefit() *Refit {
	type cand struct {
		u       *Unit
		missing int
		rank    int
	}
	var cands []cand
	supplied := s.supplyCheck()
	for i, u := range s.Units {
		if !u.OnMap() || u.Counter().Side() != US || u.Kind() != Infantry || u.Captured {
			continue
		}
		missing := u.Counter().MaxSteps() - u.Steps
		if missing == 0 || !supplied(u) || s.StackingProblemWith(u.Hex, u, u.Steps+1) != "" {
			continue
		}
		cands = append(cands, cand{u, missing, i})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].missing != cands[j].missing {
			return cands[i].missing > cands[j].missing
		}
		return cands[i].rank < cands[j].rank
	})
	r := &Refit{}
	// An entry whose hex the entries before it fill would be refused:
	// keep only those that still fit after the ones kept.
	sim := s.Clone()
	for _, c := range cands {
		u, _ := sim.Unit(c.u.ID)
		if sim.StackingProblemWith(u.Hex, u, u.Steps+1) != "" {
			continue
		}
		fit := c.missing
		for fit > 0 && sim.StackingProblemWith(u.Hex, u, u.Steps+fit) != "" {
			fit--
		}
		u.Steps += fit
		r.Restore = append(r.Restore, Restore{Unit: u.ID})
	}
	return r
}

// checkRefitParts judges what an orders file says about refit turns,
// whatever the wait: refit orders only where a refit turn takes them, and
// those orders themselves (without dice, see refitRun).
func (s *State) checkRefitParts(o Orders) []Problem {
	var problems []Problem
	file := func(format string, a ...any) {
		problems = append(problems, Problem{Action: -1, Step: -1, Msg: fmt.Sprintf(format, a...)})
	}
	switch s.Wait().Kind {
	case WaitUSDecision:
		if o.Decision != nil && o.Decision.Refit && o.Decision.Night {
			file("a refit turn replaces the rest of the turn, so it is never a night turn (rule 3.1)")
		}
		if o.Refit != nil && (o.Decision == nil || !o.Decision.Refit) {
			file("refit orders come with a refit turn: decide refit: true to give them (rule 3.1)")
		}
		if o.Rearrange != nil {
			file("the Japanese rearrange their units in the Japanese refit orders, not in the U.S. decision (rules 9.5, 9.6)")
		}
		if len(problems) == 0 && o.Refit != nil {
			problems = append(problems, s.judgeRefit(*o.Refit, -1)...)
		}
	case WaitUSRefit:
		if o.Refit == nil {
			file("the U.S. refit orders need refit: restore, land, independents, depots, or refit: {} to do nothing (rules 9.1 to 9.4)")
		}
		if o.Decision != nil || len(o.Actions) > 0 || o.Rearrange != nil {
			file("the U.S. refit orders hold only refit: (rules 9.1 to 9.4)")
		}
		if len(problems) == 0 {
			problems = append(problems, s.judgeRefit(*o.Refit, s.RefitSteps)...)
		}
	case WaitJPRefit:
		if o.Rearrange == nil {
			file("the Japanese refit orders need refit: hide, move, swap, or refit: {} to do nothing (rules 9.5, 9.6)")
		}
		if o.Decision != nil || len(o.Actions) > 0 || o.Refit != nil {
			file("the Japanese refit orders hold only refit: hide, move and swap (rules 9.5, 9.6)")
		}
		if len(problems) == 0 {
			sim := s.Clone()
			_, problems = sim.rearrange(*o.Rearrange, true)
		}
	default:
		if o.Refit != nil || o.Rearrange != nil {
			file("refit orders are given only in a refit turn (rule 9.0)")
		}
	}
	return problems
}

// judgeRefit plays U.S. refit orders on a copy of the position without
// dice and returns every problem found; budget is the refit steps (below
// 0 when not yet rolled).
func (s *State) judgeRefit(r Refit, budget int) []Problem {
	run := &refitRun{s: s.Clone(), budget: budget}
	run.refit(r)
	return run.problems
}
