package adjudicator

import "fmt"

// WaitKind is the kind of orders a game waits for. Each system names its
// own kinds (War in the Wind's "us-decision", "actions", …); the host knows
// only the two every game has, WaitNone and WaitEnded. An order file names
// the kind it answers in its envelope (wait:).
type WaitKind string

// The kinds of wait every system shares.
const (
	// WaitNone: the game waits for nothing yet, a position set up but not
	// begun.
	WaitNone WaitKind = ""
	// WaitEnded: the game is over and waits for nothing more.
	WaitEnded WaitKind = "ended"
)

// Wait is what a game waits for: whose orders, of which kind, in which
// turn. The rules compute it from the position, and it is the only
// description of it: the store records it after every step and refuses
// orders that do not answer it. A game over waits for WaitEnded and no side.
type Wait struct {
	Turn int      `json:"turn"`
	Side Side     `json:"side,omitempty"`
	Kind WaitKind `json:"kind,omitempty"`
}

// Over reports whether the game is over and waits for nothing more.
func (w Wait) Over() bool { return w.Kind == WaitEnded }

// Open reports whether the game waits for a side's orders.
func (w Wait) Open() bool { return w.Kind != WaitNone && w.Kind != WaitEnded }

func (w Wait) String() string {
	switch w.Kind {
	case WaitNone:
		return "nothing: the game has not begun"
	case WaitEnded:
		return fmt.Sprintf("nothing: the game ended in turn %d", w.Turn)
	}
	return fmt.Sprintf("turn %d %s from %s", w.Turn, w.Kind, w.Side)
}
