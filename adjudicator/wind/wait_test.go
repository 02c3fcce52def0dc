package wind

import (
	"encoding/json"
	"testing"
)

// A wait is answered by orders of its side, kind and turn only, and
// CheckWait refuses exactly the orders Answers rejects.
func TestWaitAnswers(t *testing.T) {
	s := NewState(nil, nil)
	notBegun := s.Clone()
	s.begin()
	over := s.Clone()
	over.endGame(Event{Side: JP, Reason: ReasonLastTurn}, "test")
	for _, c := range []struct {
		name string
		s    *State
		o    Orders
		ok   bool
	}{
		{"the decision", s, Orders{Side: US, Turn: 1, Wait: WaitUSDecision}, true},
		{"turn 0 is the current turn", s, Orders{Side: US, Wait: WaitUSDecision}, true},
		{"another side", s, Orders{Side: JP, Turn: 1, Wait: WaitUSDecision}, false},
		{"another kind", s, Orders{Side: US, Turn: 1, Wait: WaitActions}, false},
		{"no kind is actions", s, Orders{Side: US, Turn: 1}, false},
		{"another turn", s, Orders{Side: US, Turn: 2, Wait: WaitUSDecision}, false},
		{"not begun", notBegun, Orders{Side: NoSide, Turn: 1}, false},
		{"over", over, Orders{Side: NoSide, Turn: 1, Wait: WaitEnded}, false},
	} {
		w := c.s.Wait()
		p := c.s.CheckWait(c.o)
		if Answers(w, c.o) != c.ok || (p == nil) != c.ok {
			t.Errorf("%s: %s answered by %+v: %v, refusal %v; want %v", c.name, w, c.o, Answers(w, c.o), p, c.ok)
		}
	}
	if w := over.Wait(); !w.Over() || w.Open() || w.Side != NoSide {
		t.Errorf("a decided game waits for %s", w)
	}
	if w := notBegun.Wait(); w.Over() || w.Open() {
		t.Errorf("a game not begun waits for %s", w)
	}
}

// Every kind of wait is named once; this version plays them
// all, and a Wait keeps its JSON names.
func TestWaitKinds(t *testing.T) {
	seen := map[WaitKind]bool{}
	for _, k := range WaitKinds() {
		if k == WaitNone || k == WaitEnded || seen[k] {
			t.Errorf("kind %q listed wrongly", k)
		}
		seen[k] = true
		if !Played(k) {
			t.Errorf("%s played: %v", k, Played(k))
		}
	}
	for _, k := range []WaitKind{WaitJPSetup, WaitUSLanding, WaitUSRefit, WaitJPRefit} {
		if !seen[k] {
			t.Errorf("%s is not listed", k)
		}
	}
	b, _ := json.Marshal(Wait{Turn: 3, Side: JP, Kind: WaitActions})
	if string(b) != `{"turn":3,"side":"jp","kind":"actions"}` {
		t.Errorf("JSON %s", b)
	}
}
