package wind

import (
	"fmt"
	"github.com/attu-pbem/attu/adjudicator"
	"slices"
)

// The kinds of wait. Adding one takes a constant here, its line in
// waitKinds, and the code in Resolve and checkFile that plays it.
const (
	// WaitNone: the game waits for nothing yet, a position set up but not
	// begun (NewGame begins it).
	WaitNone = adjudicator.WaitNone
	// WaitJPSetup: the free Japanese setup (rule 12.4).
	WaitJPSetup WaitKind = "jp-setup"
	// WaitUSLanding: the U.S. assignment to staging zones (rules 12.5,
	// 12.6).
	WaitUSLanding WaitKind = "us-landing"
	// WaitUSDecision: refit turn or not, night or day (rules 3.1, 3.2).
	WaitUSDecision WaitKind = "us-decision"
	// WaitUSRefit: the U.S. steps of a refit turn (rules 9.1 to 9.4).
	WaitUSRefit WaitKind = "us-refit"
	// WaitJPRefit: the Japanese steps of a refit turn (rules 9.5, 9.6).
	WaitJPRefit WaitKind = "jp-refit"
	// WaitActions: a side's activations (rules 3.5, 3.6).
	WaitActions WaitKind = "actions"
	// WaitEnded: the game is over, decided (rule 3.8) or out of turns
	// (12.1.3); it waits for nothing more.
	WaitEnded = adjudicator.WaitEnded
)

// waitKinds describes each kind of orders a game can wait for, in the order
// a game meets them.
var waitKinds = []waitKind{
	{WaitJPSetup, "setup", true},
	{WaitUSLanding, "landing", true},
	{WaitUSDecision, "decision", true},
	{WaitUSRefit, "refit orders", true},
	{WaitJPRefit, "refit orders", true},
	{WaitActions, "actions", true},
}

type waitKind struct {
	kind WaitKind
	// noun names the orders in a refusal: "the U.S. decision of turn 3".
	noun string
	// played: this version resolves orders of this kind. The others are
	// named so that a file answering them is told "not accepted yet".
	played bool
}

// WaitKinds returns every kind of orders a game can wait for, in the order
// a game meets them, whether or not this version plays it (Played).
func WaitKinds() []WaitKind {
	out := make([]WaitKind, len(waitKinds))
	for i, k := range waitKinds {
		out[i] = k.kind
	}
	return out
}

// Played reports whether this version resolves orders of kind k.
func Played(k WaitKind) bool {
	i := slices.IndexFunc(waitKinds, func(w waitKind) bool { return w.kind == k })
	return i >= 0 && waitKinds[i].played
}

// noun names orders of kind k in a sentence: "decision", "actions".
func noun(k WaitKind) string {
	if i := slices.IndexFunc(waitKinds, func(w waitKind) bool { return w.kind == k }); i >= 0 {
		return waitKinds[i].noun
	}
	return string(k)
}

// Answers reports whether orders o answer w: the side, the kind and the
// turn it waits for. o's turn 0 and empty wait stand for the current turn
// and actions, as ResolveActions takes them. No orders answer a game that
// waits for nothing.
func Answers(w Wait, o Orders) bool {
	kind, turn := o.Wait, o.Turn
	if kind == WaitNone {
		kind = WaitActions
	}
	if turn == 0 {
		turn = w.Turn
	}
	return w.Open() && o.Side == w.Side && kind == w.Kind && turn == w.Turn
}

// Veiled reports whether side reads w only as "the U.S." of its turn: the
// Japanese, while the game waits for the U.S. decision, refit orders or
// actions. A U.S. standing decision (Standing.Decision) makes the decision
// as the turn begins, so a wait read as "the U.S. actions" would tell the
// Japanese that the decision is made, and by the day or night after it
// which: they are told no more than they would be while the U.S. decides.
func Veiled(w Wait, side Side) bool {
	if side != JP || w.Side != US {
		return false
	}
	switch w.Kind {
	case WaitUSDecision, WaitUSRefit, WaitActions:
		return true
	}
	return false
}

// Wait returns what the game waits for. A decided game (Winner set) waits
// for nothing more, whatever Awaiting says.
func (s *State) Wait() Wait {
	switch {
	case s.Awaiting == WaitEnded || s.Winner != NoSide:
		return Wait{Turn: s.Turn, Kind: WaitEnded}
	case s.Awaiting == WaitNone:
		return Wait{Turn: s.Turn}
	}
	return Wait{Turn: s.Turn, Side: s.Waiting, Kind: s.Awaiting}
}

// await makes the game wait for side's orders of kind k.
func (s *State) await(k WaitKind, side Side) {
	s.Awaiting, s.Waiting = k, side
}

// WaitText says in one line what the game waits for, for reports: "U.S.
// actions, turn 3 (May 13), day".
func (s *State) WaitText() string {
	w := s.Wait()
	switch w.Kind {
	case WaitEnded:
		if s.Winner == NoSide {
			return fmt.Sprintf("game over, turn %d (%s)", s.Turn, TurnDate(s.Turn))
		}
		return fmt.Sprintf("game over, turn %d (%s): %s victory, %s", s.Turn, TurnDate(s.Turn), sideName(s.Winner), s.VictoryText())
	case WaitNone:
		return "the game has not begun"
	case WaitUSDecision:
		return fmt.Sprintf("%s decision, turn %d (%s)", sideName(w.Side), s.Turn, TurnDate(s.Turn))
	case WaitUSRefit:
		return fmt.Sprintf("%s refit orders, turn %d (%s), refit turn: %s to restore", sideName(w.Side), s.Turn, TurnDate(s.Turn), plural(s.RefitSteps, "step"))
	case WaitJPRefit:
		return fmt.Sprintf("%s refit orders, turn %d (%s), refit turn", sideName(w.Side), s.Turn, TurnDate(s.Turn))
	case WaitJPSetup, WaitUSLanding:
		return fmt.Sprintf("%s %s, turn %d (%s), before play begins", sideName(w.Side), noun(w.Kind), s.Turn, TurnDate(s.Turn))
	}
	return fmt.Sprintf("%s %s, turn %d (%s), %s", sideName(w.Side), w.Kind, s.Turn, TurnDate(s.Turn), dayOrNight(s.Night))
}

// WaitTextFor is WaitText as side may read it: "U.S., turn 3 (May 13)"
// for a wait veiled to it (Wait.Veiled).
func (s *State) WaitTextFor(side Side) string {
	if w := s.Wait(); Veiled(w, side) {
		return fmt.Sprintf("%s, turn %d (%s)", sideName(w.Side), s.Turn, TurnDate(s.Turn))
	}
	return s.WaitText()
}

// awaited names the wait for a refusal: "the U.S. decision of turn 3".
func (s *State) awaited() string {
	w := s.Wait()
	switch w.Kind {
	case WaitNone:
		return "no orders: the game has not begun"
	case WaitEnded:
		return "no more orders: " + s.WaitText()
	case WaitUSDecision:
		// Night or day is what is being decided.
		return fmt.Sprintf("the %s decision of turn %d (%s)", sideName(w.Side), s.Turn, TurnDate(s.Turn))
	case WaitUSRefit, WaitJPRefit:
		// A refit turn is never a night turn (3.1).
		return fmt.Sprintf("the %s refit orders of turn %d (%s)", sideName(w.Side), s.Turn, TurnDate(s.Turn))
	case WaitJPSetup, WaitUSLanding:
		return fmt.Sprintf("the %s %s of turn %d (%s)", sideName(w.Side), noun(w.Kind), s.Turn, TurnDate(s.Turn))
	}
	return fmt.Sprintf("the %s %s of turn %d (%s, %s)", sideName(w.Side), noun(w.Kind), s.Turn, TurnDate(s.Turn), dayOrNight(s.Night))
}

// CheckWait refuses orders that do not answer what the game waits for, as
// their envelope names it: another side, another kind, another turn, or any orders
// before the game begins or once it is over. The one Problem, about the
// file as a whole, names what the game waits for now. It is the only
// staleness check: Resolve and CheckOrders make it first, and the store
// makes it before it applies anything.
func (s *State) CheckWait(o Orders) *Problem {
	w := s.Wait()
	if Answers(w, o) {
		return nil
	}
	kind, turn := o.Wait, o.Turn
	if kind == WaitNone {
		kind = WaitActions
	}
	if turn == 0 {
		turn = s.Turn
	}
	got := fmt.Sprintf("%s %s", sideName(o.Side), noun(kind))
	if turn != s.Turn {
		got += fmt.Sprintf(" for turn %d", turn)
	}
	msg := fmt.Sprintf("the game waits for %s, not %s", s.awaited(), got)
	if !w.Open() {
		msg = fmt.Sprintf("the game waits for %s; these are %s", s.awaited(), got)
	}
	return &Problem{Action: -1, Step: -1, Msg: msg}
}

func dayOrNight(night bool) string {
	if night {
		return "night"
	}
	return "day"
}
