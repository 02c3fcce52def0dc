package wind

import (
	"fmt"
)

// The game turn as a state machine (rules 3.0 to 3.9).
//
// A game always waits for one side's orders of one kind, or for nothing
// once it is over: State.Wait says which (wait.go). Resolve takes the orders that answer
// the wait, then runs every step the server resolves by itself (weather,
// airpower, melee, victory, turn advance) until the game waits for a player
// again or is over. In a normal turn the waits come in this order:
//
//	us-decision (U.S.)        refit? night? (3.1, 3.2)
//	  weather, airpower       server (3.3, 3.4)
//	actions (first player)    U.S. by day, Japanese at night (3.2, 3.5)
//	actions (second player)   (3.6)
//	  melee                   server, from standing instructions (3.7)
//	  victory                 server (3.8.1; 3.8.2 whenever it happens)
//	  turn advance            server (3.9, 12.1.3, 3.8.3)
//	us-decision of the next turn, or ended
//
// A refit turn (rule 9) replaces everything after the U.S. decision: see
// refit.go. The setup waits of rule 12 (jp-setup, us-landing) come before
// the first turn: see setup.go.

// FirstTurnDay is the day of May of turn 1 (rule 12.2: the turn marker
// starts on May 11).
const FirstTurnDay = 11

// Komandorski dates, as the turns they fall on (rule 12.1).
const (
	// KomandorskiTurn is the May 24 turn, where both chits lie and the
	// effect chit is revealed (12.1.1 to 12.1.3).
	KomandorskiTurn = 24 - FirstTurnDay + 1
)

// TurnDate returns the calendar day of a turn: turn 1 is May 11 (12.2), one
// day a turn, running on into June.
func TurnDate(turn int) string {
	day := FirstTurnDay + turn - 1
	if day > 31 {
		return fmt.Sprintf("June %d", day-31)
	}
	return fmt.Sprintf("May %d", day)
}

// TurnOfMay returns the turn that falls on the given day of May.
func TurnOfMay(day int) int { return day - FirstTurnDay + 1 }

// FirstPlayer returns who acts first in a turn: the U.S. by day, the
// Japanese at night (rules 3.2, 3.5).
func FirstPlayer(night bool) Side {
	if night {
		return JP
	}
	return US
}

// NewGame returns a fresh campaign game on map m with counters cs (nil for
// the built-in ones): the Komandorski chits drawn with d (rule 12.1) and the
// game waiting for the U.S. decision of turn 1 (begin). Every unit is still
// in the unused box, for the caller to place: tests and rules cases pose
// their positions so. NewGameFrom plays the setup of rule 12 instead.
func NewGame(m *Map, cs *Counters, d Dice) (*State, []Event) {
	s := NewState(m, cs)
	s.Komandorski = DrawKomandorski(d)
	// Rule 12.1: the Japanese draw and examine the chits; the U.S. sees
	// them only as they are revealed.
	evs := []Event{{Kind: EventKomandorskiDrawn, Seen: OnlyTo(JP), Side: JP, Turn: KomandorskiTurn,
		Private: &Private{Effect: s.Komandorski.Effect, Delay: s.Komandorski.Delay}}}
	return s, append(evs, s.begin()...)
}

// DrawKomandorski draws the two chits of rule 12.1: the effect (May 24, 27
// or 30) and the delay (1 to 4), each equally likely. A die of 10 is rolled
// again for the effect and 9 or 10 for the delay, so that no chit is
// favoured; after maxRedraws rolls the last die is taken as it falls, so
// that a dice source stuck on one face cannot loop for ever. The dice show
// the chits: the dice log must keep them from the U.S. until they are
// revealed.
func DrawKomandorski(d Dice) Komandorski {
	var k Komandorski
	for i := 0; k.Effect == 0; i++ {
		if v := d.Roll(Die{Purpose: DieKomandorskiEffect, Side: JP, Seen: AudienceJP}); v <= 9 || i >= maxRedraws {
			k.Effect = []int{24, 27, 30}[(v-1)%9/3]
		}
	}
	for i := 0; k.Delay == 0; i++ {
		if v := d.Roll(Die{Purpose: DieKomandorskiDelay, Side: JP, Seen: AudienceJP}); v <= 8 || i >= maxRedraws {
			k.Delay = (v-1)%8/2 + 1
		}
	}
	return k
}

// maxRedraws bounds the rolls of one chit draw.
const maxRedraws = 20

// begin starts play: turn 1 (May 11), the weather marker on Fog and the
// casualty track at 0 (rule 12.2), waiting for the U.S. decision of turn 1.
func (s *State) begin() []Event {
	s.Turn, s.Weather, s.Night, s.Casualties = 1, Fog, false, 0
	s.Winner, s.Victory = NoSide, ""
	s.await(WaitUSDecision, US)
	return []Event{{Kind: EventGameBegins, Seen: Public, Turn: 1}}
}

// LastTurn returns the last turn of the game by the Komandorski chits (rule
// 12.1.3), or 0 when the state holds no chits (no limit).
//
// The reading taken: the delay chit is revealed on the turn of the effect's
// date (on May 24 itself when the effect is May 24) and says how many turns
// are played after that turn. The last turn is the effect's date plus the
// delay: effect May 27 and delay 2 make May 29 the last turn (RULINGS.md R7).
func (k Komandorski) LastTurn() int {
	if k.Effect == 0 || k.Delay == 0 {
		return 0
	}
	return TurnOfMay(k.Effect) + k.Delay
}

// DefaultOrders returns the orders that stand for a side that missed the
// deadline of the current wait: a day turn without refit for
// the U.S. decision, no activations for actions, DefaultRefit and
// DefaultRearrange in a refit turn, and at the setup the plans PlanJPSetup
// and PlanLanding make without a choice of their own.
func (s *State) DefaultOrders() Orders {
	w := s.Wait()
	o := Orders{Side: w.Side, Turn: w.Turn, Wait: w.Kind}
	switch w.Kind {
	case WaitUSDecision:
		o.Decision = &Decision{}
	case WaitUSRefit:
		o.Refit = s.DefaultRefit()
	case WaitJPRefit:
		o.Rearrange = s.DefaultRearrange()
	case WaitJPSetup:
		js := s.PlanJPSetup(nil)
		o.JPSetup = &js
	case WaitUSLanding:
		l := s.PlanLanding(nil)
		o.Landing = &l
	}
	return o
}

// Resolve is the one entry point for a side's orders at any wait. It checks
// that o answers what the game waits for, merges o.Standing into the side's
// standing instructions, carries out the orders, then runs every step the
// server resolves until the game waits for a player again or is over.
//
// Orders that do not answer the current wait (another side, another kind,
// another turn, or any orders once the game is over) are refused with one
// file-level Problem naming what the game waits for now. Turn 0 and an
// empty Wait stand for the current turn and the actions wait, as in
// ResolveActions. Invalid standing instructions and illegal activations
// refuse the file too (CheckOrders judges a file the same way without
// running it). With any Problem the state returned is nil; s itself is
// never changed.
func Resolve(s *State, o Orders, d Dice) (*State, []Event, []Problem) {
	if problems := s.checkFile(o); len(problems) > 0 {
		return nil, nil, problems
	}
	kind := s.Wait().Kind

	base := s
	var events []Event
	if o.Standing != nil {
		base = s.Clone()
		base.mergeStanding(o.Side, *o.Standing)
		events = append(events, Event{Kind: EventStandingChanged, Seen: OnlyTo(o.Side), Side: o.Side})
	}

	var out *State
	switch kind {
	case WaitUSDecision:
		out = base
		if out == s {
			out = s.Clone()
		}
		if o.Decision.Refit {
			events = append(events, out.beginRefit(o.Refit, d)...)
		} else {
			events = append(events, out.decide(*o.Decision, d)...)
		}
	case WaitActions:
		ns, evs, ps := ResolveActions(base, o, d)
		if len(ps) > 0 {
			return nil, nil, ps
		}
		out = ns
		events = append(events, evs...)
		events = append(events, out.afterActions(o.Side, d)...)
	case WaitUSRefit, WaitJPRefit:
		out = base
		if out == s {
			out = s.Clone()
		}
		if kind == WaitUSRefit {
			events = append(events, out.refitUS(*o.Refit, d)...)
		} else {
			events = append(events, out.refitJP(*o.Rearrange)...)
		}
	case WaitJPSetup, WaitUSLanding:
		out = base
		if out == s {
			out = s.Clone()
		}
		events = append(events, out.resolveSetup(kind, o, d)...)
	}
	// rule 13.2.2: whatever the step did, a U.S. unit may have come near a
	// victory hex (an advance, a landing).
	events = append(events, out.soloAdHoc(d)...)
	events = append(events, out.standingDecision(d)...)
	if w := out.Wait(); !w.Over() {
		events = append(events, Event{Kind: EventWait, Seen: Public, Side: w.Side, Wait: w.Kind, Turn: w.Turn, Night: out.Night})
	}
	return out, events, nil
}

// CheckOrders judges orders against s without changing it and without
// dice, as Resolve would: that they answer the current wait, that their
// standing instructions and decision are valid, and for actions every
// activation (CheckActions). It returns every problem found; none means
// Resolve will accept the file, though dice may still change what it does.
func CheckOrders(s *State, o Orders) []Problem {
	if problems := s.checkFile(o); len(problems) > 0 {
		return problems
	}
	if s.Wait().Kind != WaitActions {
		return nil
	}
	if o.Standing != nil {
		s = s.Clone()
		s.mergeStanding(o.Side, *o.Standing)
	}
	return CheckActions(s, o)
}

// checkFile judges what is file-wide in orders: the wait they answer, their
// standing instructions, the decision.
func (s *State) checkFile(o Orders) []Problem {
	if p := s.CheckWait(o); p != nil {
		return []Problem{*p}
	}
	var problems []Problem
	file := func(format string, a ...any) {
		problems = append(problems, Problem{Action: -1, Step: -1, Msg: fmt.Sprintf(format, a...)})
	}
	if o.Standing != nil {
		for _, bad := range o.Standing.Check(o.Side) {
			file("standing instructions: %s", bad)
		}
	}
	switch s.Wait().Kind {
	case WaitUSDecision:
		if o.Decision == nil {
			file("the U.S. decision needs an answer: refit or not (rule 3.1), night or day (rule 3.2)")
		}
		if len(o.Actions) > 0 {
			file("the U.S. decision holds no activations; they come in the actions of this turn")
		}
	case WaitActions:
		if o.Decision != nil {
			file("a refit or night decision is made only at the start of a turn, in the U.S. decision (rules 3.1, 3.2)")
		}
	}
	problems = append(problems, s.checkRefitParts(o)...)
	return append(problems, s.checkSetupParts(o)...)
}

// mergeStanding puts standing instructions from an orders file of side in
// force, field by field.
func (s *State) mergeStanding(side Side, st Standing) {
	if side == US {
		s.StandingUS = s.StandingUS.Merge(st)
	} else {
		s.StandingJP = s.StandingJP.Merge(st)
	}
}

// standingDecision makes the U.S. decision of a turn that has just begun
// when the U.S. standing instructions give it in advance (Standing.
// Decision), as that decision filed would, and tells the U.S. alone why.
func (s *State) standingDecision(d Dice) []Event {
	dec := s.Standing(US).Decision
	if s.Wait().Kind != WaitUSDecision || dec == "" || dec == DecisionAsk {
		return nil
	}
	// The wait for the decision is told as when the player answers it, so
	// that the Japanese read the same events either way.
	evs := []Event{
		{Kind: EventWait, Seen: Public, Side: US, Wait: WaitUSDecision, Turn: s.Turn, Night: s.Night},
		{Kind: EventStandingDecision, Seen: OnlyTo(US), Side: US, Turn: s.Turn, Instruction: dec},
	}
	if dec == DecisionRefit {
		evs = append(evs, s.beginRefit(nil, d)...)
	} else {
		evs = append(evs, s.decide(Decision{Night: dec == DecisionNight}, d)...)
	}
	return append(evs, s.soloAdHoc(d)...) // rule 13.2.2, as after a filed decision
}

// decide carries out the U.S. decision (rules 3.1, 3.2) and the server
// steps that follow it: weather (3.3) and airpower (3.4), then the first
// player's actions wait.
func (s *State) decide(dec Decision, d Dice) []Event {
	s.Night = dec.Night
	first := FirstPlayer(s.Night)
	evs := []Event{{Kind: EventDecision, Seen: Public, Side: US, Turn: s.Turn, Night: s.Night}}
	evs = append(evs, RollWeather(s, d))
	evs = append(evs, RollAirpower(s, d)...)
	s.await(WaitActions, first)
	if first == JP {
		evs = append(evs, s.soloAdHocFire(d)...) // rule 13.2.2
	}
	return evs
}

// afterActions moves on from side's actions: to the second player's
// actions, or after the second player to the end of the turn. Losses during
// the actions may already have ended the game (3.8.2).
func (s *State) afterActions(side Side, d Dice) []Event {
	evs := s.updateCleared()
	evs = append(evs, s.checkSuddenVictory()...)
	if s.Over() {
		return evs
	}
	if side == FirstPlayer(s.Night) {
		s.await(WaitActions, side.Enemy())
		if side == US {
			evs = append(evs, s.soloAdHocFire(d)...) // rule 13.2.2
		}
		return evs
	}
	return append(evs, s.endTurn(d)...)
}

// endTurn runs steps 7 to 9 (rules 3.7 to 3.9): melee, victory, turn
// advance.
func (s *State) endTurn(d Dice) []Event {
	evs := s.soloAir(d) // rule 13.2
	if s.Over() {
		return evs
	}
	evs = append(evs, s.meleeStep(d)...)
	s.soloAfterMelee()
	evs = append(evs, s.updateCleared()...)
	evs = append(evs, s.checkSuddenVictory()...)
	if s.Over() {
		return evs
	}
	evs = append(evs, s.checkVictory()...)
	if s.Over() {
		return evs
	}
	return append(evs, s.advanceTurn()...)
}

// meleeStep is step 7 (rule 3.7): every melee declared in the actions of
// both sides, fought by the server from the standing instructions.
func (s *State) meleeStep(d Dice) []Event {
	return s.resolveMelee(d)
}

// advanceTurn is step 9 (rule 3.9): the end of the game when this was the
// last turn (3.8.3), else the next turn with its flips and reveals.
func (s *State) advanceTurn() []Event {
	if last := s.lastTurn(); last > 0 && s.Turn >= last {
		evs := []Event{{Kind: EventLastTurn, Seen: Public, Turn: s.Turn}}
		return append(evs, s.endGame(Event{Side: JP, Reason: ReasonLastTurn}, lastTurnWhy)...)
	}
	s.Turn++
	s.AirUS, s.AirJP = 0, 0 // unused airpower is lost (3.4)
	for _, u := range s.Units {
		u.Acted, u.MPSpent, u.Melee, u.Fought = false, 0, 0, false
	}
	evs := []Event{{Kind: EventTurnBegins, Seen: Public, Turn: s.Turn}}
	evs = append(evs, s.hideJapanese()...)
	evs = append(evs, s.revealKomandorski()...)
	s.await(WaitUSDecision, US)
	return evs
}

// hideJapanese turns face down every Japanese unit on the map that is not
// in a U.S. zone of control (rule 3.9). Captured U.S. artillery has no
// hidden side and stays as it is (RULINGS.md R6, R39). The U.S. reads
// which of the counters it could name turn anonymous; the Japanese read
// them all.
func (s *State) hideJapanese() []Event {
	var units []EventUnit
	named := false
	for _, u := range s.Units {
		if !u.OnMap() || u.FaceDown || u.Counter().Side() != JP || s.InEnemyZOC(u.Hex, US) {
			continue
		}
		ref := unitRef(u) // before it turns: whether the U.S. could name it
		named = named || ref.Known
		units = append(units, ref)
		u.FaceDown = true
	}
	if len(units) == 0 {
		return nil
	}
	seen := OnlyTo(JP) // nothing the U.S. could name turns: it sees no change
	if named {
		seen = seenAbout(units)
	}
	return []Event{{Kind: EventHidden, Seen: seen, Side: JP, Units: units}}
}

// revealKomandorski flips the Komandorski chits as the turn marker reaches
// their dates (rule 12.1.3): the effect chit on May 24; the delay chit on
// the effect's date (May 24 itself when the effect is May 24).
func (s *State) revealKomandorski() []Event {
	k := &s.Komandorski
	if k.Effect == 0 {
		return nil
	}
	var evs []Event
	if !k.EffectRevealed && s.Turn >= KomandorskiTurn {
		k.EffectRevealed = true
		evs = append(evs, Event{Kind: EventKomandorskiEffect, Seen: Public, Effect: k.Effect})
	}
	if k.EffectRevealed && !k.DelayRevealed && s.Turn >= TurnOfMay(k.Effect) {
		k.DelayRevealed = true
		evs = append(evs, Event{Kind: EventKomandorskiDelay, Seen: Public, Delay: k.Delay, LastTurn: k.LastTurn()})
	}
	return evs
}

// lastTurnWhy is the reason a game that reaches the end of its last turn
// ends (rule 3.8.3), as positions store it.
const lastTurnWhy = "the U.S. had not won by the end of the last turn (rule 3.8.3)"

// endGame records the winner and why, and ends the game (rule 3.8). ev
// holds the winner (Side) and the facts of the victory event; why words
// the victory for the state (State.Victory). With the victory point chits
// in use they decide who won and how well (rule 14.0).
func (s *State) endGame(ev Event, why string) []Event {
	if s.VP != nil && !s.VP.Revealed {
		ev.Side, why = s.scoreVP(why)
		ev.VP, ev.Turn = s.VP.named(s.Map()), s.Turn
	}
	s.Winner, s.Victory = ev.Side, why
	s.await(WaitEnded, NoSide)
	ev.Kind, ev.Seen = EventVictory, Public
	return []Event{ev}
}
