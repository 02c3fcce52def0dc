package wind

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
)

// game returns a position on the built-in map waiting for the U.S. decision
// of turn 1, with units placed by id and a Japanese platoon in the pool so
// that rule 3.8.2 does not end the game at once.
func game(t *testing.T, place map[string]Hex) *State {
	t.Helper()
	s := position(t, place)
	if err := s.Place("J64", 0, BoxPool); err != nil {
		t.Fatal(err)
	}
	s.begin()
	return s
}

func decision(night bool) Orders {
	return Orders{Side: US, Turn: 0, Wait: WaitUSDecision, Decision: &Decision{Night: night}}
}

// resolve runs orders that must be accepted.
func resolve(t *testing.T, s *State, o Orders, dice ...int) (*State, []Event) {
	t.Helper()
	d := &ForcedDice{Values: dice}
	out, evs, ps := Resolve(s, o, d)
	if len(ps) > 0 {
		t.Fatalf("refused: %v (waiting: %s)", ps, s.WaitText())
	}
	if d.Err != nil || d.Unused() > 0 {
		t.Fatalf("dice: %v, %d unused; rolled %v", d.Err, d.Unused(), d.Log)
	}
	return out, evs
}

// refuse runs orders that must be refused and returns the file's problem.
func refuse(t *testing.T, s *State, o Orders) string {
	t.Helper()
	out, _, ps := Resolve(s, o, &ForcedDice{})
	if len(ps) == 0 || out != nil {
		t.Fatalf("accepted, want refused (waiting: %s)", s.WaitText())
	}
	var msgs []string
	for _, p := range ps {
		msgs = append(msgs, p.Msg)
	}
	return strings.Join(msgs, "; ")
}

func wantWait(t *testing.T, s *State, side Side, kind WaitKind, turn int) {
	t.Helper()
	if w := s.Wait(); w.Side != side || w.Kind != kind || w.Turn != turn {
		t.Fatalf("waiting for %s %s of turn %d, want %s %s of turn %d", w.Side, w.Kind, w.Turn, side, kind, turn)
	}
}

func wantText(t *testing.T, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Errorf("got %q, want it to contain %q", got, want)
	}
}

func TestDayTurn(t *testing.T) {
	s := game(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	wantWait(t, s, US, WaitUSDecision, 1)
	wantText(t, s.WaitText(), "U.S. decision, turn 1 (May 11)")

	// Turn 1 rolls on the Fog line (3.3): 2 is rain; airpower 9-1 and 10-1.
	s, evs := resolve(t, s, decision(false), 2, 9, 10)
	wantWait(t, s, US, WaitActions, 1)
	if s.Weather != Rain || s.AirUS != 3 || s.AirJP != 2 {
		t.Errorf("weather %s, air %d/%d; want rain, 3/2", s.Weather, s.AirUS, s.AirJP)
	}
	wantText(t, eventTexts(evs), "day turn: the U.S. acts first")
	wantText(t, s.WaitText(), "U.S. actions, turn 1 (May 11), day")

	wantText(t, refuse(t, s, actions(JP)), "the game waits for the U.S. actions of turn 1 (May 11, day), not Japanese actions")
	s, _ = resolve(t, s, actions(US, mv("1/17-A", 2720)))
	wantWait(t, s, JP, WaitActions, 1)
	s, evs = resolve(t, s, actions(JP))
	wantWait(t, s, US, WaitUSDecision, 2)
	wantText(t, eventTexts(evs), "Turn 2 (May 12) begins")
	if u, _ := s.Unit("1/17-A"); u.Acted || u.MPSpent != 0 {
		t.Errorf("1/17-A acted %v, spent %d after the turn advance", u.Acted, u.MPSpent)
	}
	if s.AirUS != 0 || s.AirJP != 0 {
		t.Errorf("airpower %d/%d survives the turn (3.4)", s.AirUS, s.AirJP)
	}
}

// Rule 3.2: at night the Japanese act first; the U.S. waits its turn.
func TestNightTurnOrder(t *testing.T) {
	s := game(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	s, _ = resolve(t, s, decision(true), 5, 1, 1)
	wantWait(t, s, JP, WaitActions, 1)
	wantText(t, s.WaitText(), "Japanese actions, turn 1 (May 11), night")
	wantText(t, refuse(t, s, actions(US, mv("1/17-A", 2720))),
		"the game waits for the Japanese actions of turn 1 (May 11, night), not U.S. actions")
	s, _ = resolve(t, s, actions(JP))
	wantWait(t, s, US, WaitActions, 1)
	s, _ = resolve(t, s, actions(US, mv("1/17-A", 2720)))
	wantWait(t, s, US, WaitUSDecision, 2)
}

func TestWrongWaits(t *testing.T) {
	s := game(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	cases := []struct {
		name string
		o    Orders
		want string
	}{
		{"actions at the decision", actions(US), "the game waits for the U.S. decision of turn 1 (May 11), not U.S. actions"},
		{"japanese", Orders{Side: JP, Wait: WaitUSDecision, Decision: &Decision{}}, "not Japanese decision"},
		{"stale turn", Orders{Side: US, Turn: 2, Wait: WaitUSDecision, Decision: &Decision{}}, "not U.S. decision for turn 2"},
		{"umpire", Orders{Side: Umpire, Wait: WaitUSDecision}, "not umpire decision"},
		{"no answer", Orders{Side: US, Wait: WaitUSDecision}, "needs an answer"},
		{"refit at night", Orders{Side: US, Wait: WaitUSDecision, Decision: &Decision{Refit: true, Night: true}}, "a refit turn replaces the rest of the turn, so it is never a night turn"},
		{"refit orders without refit", Orders{Side: US, Wait: WaitUSDecision, Decision: &Decision{}, Refit: &Refit{}}, "refit orders come with a refit turn"},
		{"refit orders for the wrong wait", Orders{Side: US, Wait: WaitUSRefit, Refit: &Refit{}}, "the game waits for the U.S. decision of turn 1 (May 11), not U.S. refit orders"},
		{"actions in decision", Orders{Side: US, Wait: WaitUSDecision, Decision: &Decision{}, Actions: []Action{mv("1/17-A", 2720)}}, "holds no activations"},
		{"bad standing", Orders{Side: US, Wait: WaitUSDecision, Decision: &Decision{}, Standing: &Standing{UnknownTable: TableMost}}, "standing instructions: unknown_table"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantText(t, refuse(t, s, c.o), c.want) })
	}

	// A decision in the actions wait is refused too.
	a, _ := resolve(t, s, decision(false), 5, 1, 1)
	o := actions(US)
	o.Decision = &Decision{}
	wantText(t, refuse(t, a, o), "made only at the start of a turn")

	// And any orders once the game is over.
	over := s.Clone()
	over.endGame(Event{Side: JP, Reason: ReasonLastTurn}, "test")
	wantText(t, refuse(t, over, decision(false)), "the game waits for no more orders: game over")

	// A state that never began waits for nothing.
	wantText(t, refuse(t, position(t, nil), decision(false)), "the game has not begun")
}

// Refused orders change nothing, accepted ones only the returned copy.
func TestResolveLeavesStateAlone(t *testing.T) {
	s := game(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	before := mustJSON(t, s)
	Resolve(s, actions(JP), &ForcedDice{})
	resolve(t, s, decision(true), 5, 1, 1)
	if after := mustJSON(t, s); !bytes.Equal(before, after) {
		t.Errorf("Resolve changed its input:\n%s\n%s", before, after)
	}
}

func TestStandingMerged(t *testing.T) {
	s := game(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	o := decision(false)
	o.Standing = &Standing{Retreat: "below-3"}
	out, evs := resolve(t, s, o, 5, 1, 1)
	if got := out.Standing(US).Retreat; got != "below-3" {
		t.Errorf("retreat %q after merge", got)
	}
	if out.Standing(US).Advance != AdvanceAll {
		t.Errorf("merge lost the default advance")
	}
	if s.Standing(US).Retreat != RetreatNever {
		t.Errorf("input state's standing changed")
	}
	for _, e := range evs {
		if e.Kind == EventStandingChanged && e.Seen != OnlyTo(US) {
			t.Errorf("standing event seen by %s", e.Seen)
		}
	}
	// The Japanese merge theirs in their actions.
	o = actions(JP)
	o.Standing = &Standing{UnknownTable: TableFewest}
	out, _ = resolve(t, out, actions(US))
	out, _ = resolve(t, out, o)
	if out.Standing(JP).UnknownTable != TableFewest {
		t.Errorf("Japanese standing not merged")
	}
}

// Rule 3.9: Japanese units outside U.S. zones of control turn face down.
func TestTurnAdvanceHides(t *testing.T) {
	// 1/17-A in 2720 projects a ZOC into 2719; 2717 is out of it.
	s := game(t, map[string]Hex{"1/17-A": 2720, "J01": 2719, "J02": 2717, "U01": 2615, "20MM1": 2516})
	for _, id := range []string{"J01", "J02", "U01", "20MM1"} {
		u, _ := s.Unit(id)
		u.FaceDown = false
	}
	s, _ = resolve(t, s, decision(false), 5, 1, 1)
	s, _ = resolve(t, s, actions(US))
	s, evs := resolve(t, s, actions(JP))
	for id, down := range map[string]bool{"J01": false, "J02": true, "U01": true, "20MM1": true} {
		if u, _ := s.Unit(id); u.FaceDown != down {
			t.Errorf("%s face down %v, want %v", id, u.FaceDown, down)
		}
	}
	us := eventTexts(VisibleEvents(evs, US))
	wantText(t, us, "J02 and 20MM1 turn face down")
	if strings.Contains(us, "U01") {
		t.Errorf("the U.S. reads about an Unknown unit: %s", us)
	}
	wantText(t, eventTexts(VisibleEvents(evs, JP)), "J02, 20MM1 and U01 turn face down")
}

func TestKomandorski(t *testing.T) {
	cases := []struct {
		effect, delay int
		last          int
	}{
		{24, 1, 15}, {24, 4, 18}, {27, 2, 19}, {30, 4, 24},
	}
	for _, c := range cases {
		k := Komandorski{Effect: c.effect, Delay: c.delay}
		if got := k.LastTurn(); got != c.last {
			t.Errorf("effect %d delay %d: last turn %d, want %d", c.effect, c.delay, got, c.last)
		}
	}
	if (Komandorski{}).LastTurn() != 0 {
		t.Errorf("no chits, yet a last turn")
	}

	// Effect May 27, delay 2: the effect flips on reaching May 24 (turn
	// 14), the delay on reaching May 27 (turn 17); turn 19 is the last.
	s := game(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	s.Komandorski = Komandorski{Effect: 27, Delay: 2}
	s.Turn = 13
	var all []Event
	for turn := 13; s.Awaiting != WaitEnded; turn++ {
		if turn > 19 {
			t.Fatalf("the game runs past turn 19: %s", s.WaitText())
		}
		wantWait(t, s, US, WaitUSDecision, turn)
		k := s.Komandorski
		if k.EffectRevealed != (turn >= 14) || k.DelayRevealed != (turn >= 17) {
			t.Errorf("turn %d: effect revealed %v, delay revealed %v", turn, k.EffectRevealed, k.DelayRevealed)
		}
		var evs []Event
		s, evs = resolve(t, s, Orders{Side: US, Turn: turn, Wait: WaitUSDecision, Decision: &Decision{}}, 5, 1, 1)
		all = append(all, evs...)
		s, evs = resolve(t, s, Orders{Side: US, Turn: turn, Wait: WaitActions})
		all = append(all, evs...)
		s, evs = resolve(t, s, Orders{Side: JP, Turn: turn, Wait: WaitActions})
		all = append(all, evs...)
	}
	if s.Turn != 19 || s.Winner != JP || !strings.Contains(s.Victory, "3.8.3") {
		t.Errorf("ended turn %d, winner %s (%s); want turn 19, Japanese by 3.8.3", s.Turn, s.Winner, s.Victory)
	}
	text := eventTexts(all)
	wantText(t, text, "The Komandorski Effect chit is revealed: May 27")
	wantText(t, text, "2 turns more; the last turn is turn 19 (May 29)")
	wantText(t, s.WaitText(), "game over, turn 19 (May 29): Japanese victory")

	// Effect May 24: both chits flip together.
	s = game(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	s.Komandorski = Komandorski{Effect: 24, Delay: 3}
	s.Turn = 13
	s.advanceTurn()
	if !s.Komandorski.EffectRevealed || !s.Komandorski.DelayRevealed {
		t.Errorf("May 24 effect: %+v", s.Komandorski)
	}
}

func TestNewGame(t *testing.T) {
	// 10 is rolled again for the effect, 9 and 10 for the delay.
	d := &ForcedDice{Values: []int{10, 5, 9, 10, 3}}
	s, evs := NewGame(nil, nil, d)
	if s.Komandorski != (Komandorski{Effect: 27, Delay: 2}) || d.Unused() != 0 {
		t.Errorf("chits %+v, %d dice unused", s.Komandorski, d.Unused())
	}
	wantWait(t, s, US, WaitUSDecision, 1)
	if s.Weather != Fog || s.Casualties != 0 {
		t.Errorf("weather %s, casualties %d", s.Weather, s.Casualties)
	}
	if strings.Contains(eventTexts(VisibleEvents(evs, US)), "May 27") {
		t.Errorf("the U.S. reads the Komandorski chits")
	}
	// Every face is reachable and none favoured.
	count := map[Komandorski]int{}
	for a := 1; a <= 9; a++ {
		for b := 1; b <= 8; b++ {
			count[DrawKomandorski(&ForcedDice{Values: []int{a, b}})]++
		}
	}
	if len(count) != 12 {
		t.Errorf("%d chit pairs, want 12", len(count))
	}
	for k, n := range count {
		if n != 6 {
			t.Errorf("%+v drawn %d times of 72, want 6", k, n)
		}
	}
}

func TestTurnDate(t *testing.T) {
	for turn, want := range map[int]string{1: "May 11", 14: "May 24", 21: "May 31", 22: "June 1", 24: "June 3"} {
		if got := TurnDate(turn); got != want {
			t.Errorf("turn %d: %s, want %s", turn, got, want)
		}
	}
	if TurnOfMay(24) != KomandorskiTurn || KomandorskiTurn != 14 {
		t.Errorf("May 24 is turn %d", TurnOfMay(24))
	}
}

func TestDefaultOrders(t *testing.T) {
	s := game(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	s, _ = resolve(t, s, s.DefaultOrders(), 5, 1, 1)
	if s.Night {
		t.Errorf("the default decision is a night turn")
	}
	s, _ = resolve(t, s, s.DefaultOrders())
	s, _ = resolve(t, s, s.DefaultOrders())
	wantWait(t, s, US, WaitUSDecision, 2)
}

// Property: whatever the position, the default orders of each wait are
// accepted and leave the input alone, orders for another wait are refused
// naming the one awaited; the game always waits for a player or is over; each full turn
// moves the turn marker on by one; and after a turn advance no unit has
// acted and every face-up Japanese counter stands in a U.S. ZOC.
func TestTurnCycleProperty(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := range n {
		s := randomState(r)
		s.Komandorski = Komandorski{}
		s.Cleared = nil
		s.await(WaitUSDecision, US)
		dice := make([]int, 3)
		for j := range dice {
			dice[j] = 1 + r.Intn(10)
		}
		turn := s.Turn
		for step := 0; step < 3 && s.Awaiting != WaitEnded; step++ {
			w := s.Wait()
			side, phase := w.Side, w.Kind
			if phase != WaitUSDecision && phase != WaitActions || (side != US && side != JP) {
				t.Fatalf("position %d: waiting for %s %q", i, side, phase)
			}
			o := s.DefaultOrders()
			if step == 0 {
				o.Decision.Night = r.Intn(2) == 0
			}
			// The other side, or the other kind of orders, is refused with
			// the wait named.
			wrong := o
			if r.Intn(2) == 0 {
				wrong.Side = side.Enemy()
			} else if phase == WaitActions {
				wrong.Wait, wrong.Decision = WaitUSDecision, &Decision{}
			} else {
				wrong.Wait, wrong.Decision = WaitActions, nil
			}
			if out, _, ps := Resolve(s, wrong, &ForcedDice{}); out != nil || len(ps) != 1 || !strings.Contains(ps[0].Msg, "the game waits for "+s.awaited()) {
				t.Fatalf("position %d: %+v answered %s: %v", i, wrong, s.WaitText(), ps)
			}
			if ps := CheckOrders(s, wrong); len(ps) != 1 {
				t.Fatalf("position %d: CheckOrders of %+v: %v", i, wrong, ps)
			}
			if ps := CheckOrders(s, o); len(ps) > 0 {
				t.Fatalf("position %d: CheckOrders refuses the default orders: %v", i, ps)
			}
			before := mustJSON(t, s)
			next, _, ps := Resolve(s, o, &ForcedDice{Values: dice})
			if len(ps) > 0 {
				t.Fatalf("position %d: default orders refused: %v", i, ps)
			}
			if !bytes.Equal(before, mustJSON(t, s)) {
				t.Fatalf("position %d: Resolve changed its input", i)
			}
			s = next
		}
		if s.Awaiting == WaitEnded {
			if s.Winner == NoSide {
				t.Fatalf("position %d: ended without a winner", i)
			}
			continue
		}
		wantWait(t, s, US, WaitUSDecision, turn+1)
		for _, u := range s.Units {
			if u.Acted || u.MPSpent != 0 || u.Melee != 0 || u.Fought {
				t.Fatalf("position %d: %s keeps this turn's activation", i, u.ID)
			}
			if u.OnMap() && u.Counter().Side() == JP && !u.FaceDown && !s.InEnemyZOC(u.Hex, US) {
				t.Fatalf("position %d: %s face up out of U.S. ZOC", i, u.ID)
			}
		}
	}
}

func eventTexts(evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(eventText(e))
		b.WriteString("\n")
	}
	return b.String()
}

// The state round-trips with its wait.
func TestWaitRoundTrip(t *testing.T) {
	s := game(t, map[string]Hex{"1/17-A": 2821})
	s, _ = resolve(t, s, decision(true), 5, 1, 1)
	var back State
	if err := json.Unmarshal(mustJSON(t, s), &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Attach(nil, nil); err != nil {
		t.Fatal(err)
	}
	if back.WaitText() != s.WaitText() {
		t.Errorf("after JSON: %q, want %q", back.WaitText(), s.WaitText())
	}
}

// CheckOrders judges as Resolve does, activations included, without
// running anything.
func TestCheckOrders(t *testing.T) {
	s := game(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	wantText(t, CheckOrders(s, actions(US))[0].Msg, "the game waits for the U.S. decision")
	if ps := CheckOrders(s, decision(true)); len(ps) > 0 {
		t.Errorf("decision refused: %v", ps)
	}
	a, _ := resolve(t, s, decision(false), 5, 1, 1)
	before := mustJSON(t, a)
	// 2821 to 2717 is far more than one move.
	ps := CheckOrders(a, actions(US, mv("1/17-A", 2720, 2719, 2718, 2717)))
	if len(ps) == 0 || ps[0].Action != 0 {
		t.Errorf("an impossible move passes: %v", ps)
	}
	o := actions(US)
	o.Standing = &Standing{Retreat: "sometimes"}
	wantText(t, CheckOrders(a, o)[0].Msg, "standing instructions: retreat")
	if !bytes.Equal(before, mustJSON(t, a)) {
		t.Errorf("CheckOrders changed the state")
	}
}

// A dice source stuck on 10 (forced dice that ran out) cannot hang the draw.
func TestDrawKomandorskiEnds(t *testing.T) {
	d := &ForcedDice{}
	k := DrawKomandorski(d)
	if k.Effect != 24 || k.Delay != 1 || len(d.Log) != 2*(maxRedraws+1) {
		t.Errorf("%+v after %d dice", k, len(d.Log))
	}
}

// Rules 3.1, 3.2 answered in advance: a U.S. standing decision makes each
// new turn's decision with the dice and the public events of the decision
// filed, until the U.S. writes decision: ask; the Japanese cannot tell the
// two apart, and may not give one.
func TestStandingDecision(t *testing.T) {
	start := game(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	start, _ = resolve(t, start, decision(false), 5, 1, 1)

	// Filed: the U.S. answers the decision of turn 2 itself.
	filed, _ := resolve(t, start, actions(US))
	filed, evsFiled := resolve(t, filed, actions(JP))
	wantWait(t, filed, US, WaitUSDecision, 2)
	filed, more := resolve(t, filed, decision(true), 5, 1, 1)
	evsFiled = append(evsFiled, more...)

	// Standing: the same night turn, made as turn 2 begins.
	us := actions(US)
	us.Standing = &Standing{Decision: DecisionNight}
	byStanding, _ := resolve(t, start, us)
	byStanding, evs := resolve(t, byStanding, actions(JP), 5, 1, 1)
	wantWait(t, byStanding, JP, WaitActions, 2)
	if !byStanding.Night || byStanding.Weather != filed.Weather || byStanding.AirUS != filed.AirUS || byStanding.AirJP != filed.AirJP {
		t.Errorf("standing night turn: night %v, weather %s, air %d/%d; filed: %s, air %d/%d",
			byStanding.Night, byStanding.Weather, byStanding.AirUS, byStanding.AirJP, filed.Weather, filed.AirUS, filed.AirJP)
	}
	wantText(t, eventTexts(evs), "night turn: the Japanese act first")
	seen := func(evs []Event, side Side) string {
		var b strings.Builder
		for _, e := range evs {
			if r, ok := Redact(e, side); ok {
				b.Write(mustJSON(t, r))
			}
		}
		return b.String()
	}
	if a, b := seen(evs, JP), seen(evsFiled, JP); a != b {
		t.Errorf("the Japanese read a standing decision differently from a filed one:\n%s\n%s", a, b)
	}
	if !strings.Contains(seen(evs, US), string(EventStandingDecision)) {
		t.Errorf("the U.S. is not told its standing decision made the turn")
	}

	// It stands: turn 3 is a night turn too, then refit, then ask again.
	now := func(side Side) Orders { return Orders{Side: side, Wait: WaitActions} }
	s, _ := resolve(t, byStanding, now(JP))
	s, _ = resolve(t, s, now(US), 5, 1, 1)
	wantWait(t, s, JP, WaitActions, 3)
	s, _ = resolve(t, s, now(JP))
	refit := now(US)
	refit.Standing = &Standing{Decision: DecisionRefit}
	s, _ = resolve(t, s, refit, 5, 1, 1) // weather, then the loss recovery dice (9.1)
	wantWait(t, s, US, WaitUSRefit, 4)
	o := s.DefaultOrders()
	o.Standing = &Standing{Decision: DecisionAsk}
	s, _ = resolve(t, s, o)
	s, _ = resolve(t, s, s.DefaultOrders())
	wantWait(t, s, US, WaitUSDecision, 5)

	bad := now(JP)
	bad.Standing = &Standing{Decision: DecisionDay}
	wantText(t, refuse(t, byStanding, bad), "only the U.S. decides the kind of turn")
	bad = decision(false)
	bad.Standing = &Standing{Decision: "dawn"}
	wantText(t, refuse(t, s, bad), `decision "dawn": want one of ask, day, night, refit`)
}
