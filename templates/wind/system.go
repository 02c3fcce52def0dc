package wind

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/attu-pbem/attu/adjudicator"
	rules "github.com/attu-pbem/attu/adjudicator/wind"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// Name is the system's name, recorded with every game it plays.
const Name = "war-in-the-wind"

// Rules are War in the Wind's rules as the store applies and audits them
// (they implement store.Rules): positions are *rules.State, orders
// rules.Orders or, read from a player's file, Filed.
type Rules struct{}

// System returns Name.
func (Rules) System() string { return Name }

// Faces is the ten-sided die of rule 1.2.
func (Rules) Faces() int { return 10 }

// Position reads a position from its JSON.
func (Rules) Position(b []byte) (adjudicator.Position, error) {
	s := new(rules.State)
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("decoding state: %w", err)
	}
	if err := s.Attach(nil, nil); err != nil {
		return nil, err
	}
	return s, nil
}

// Orders reads orders from their JSON, as a log entry records them.
func (Rules) Orders(b []byte) (adjudicator.Orders, error) {
	var o rules.Orders
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("decoding orders: %w", err)
	}
	return o, nil
}

// Filed is a side's orders with the file they were read from, so that the
// problems the rules find are placed at its lines without reading the file
// again. Its JSON is the orders'.
type Filed struct {
	rules.Orders
	File *windorders.File
}

// MarshalJSON writes the orders alone.
func (f Filed) MarshalJSON() ([]byte, error) { return json.Marshal(f.Orders) }

// Read decodes an order file once, for the store to apply (File.Orders).
func Read(raw []byte, opt windorders.Options) (Filed, error) {
	f, err := windorders.Parse(raw, opt)
	if err != nil {
		return Filed{}, err
	}
	return Filed{Orders: f.Orders(), File: f}, nil
}

// OrdersOf returns the War in the Wind orders o holds: Filed, rules.Orders
// or a pointer to either.
func OrdersOf(o adjudicator.Orders) (rules.Orders, *windorders.File, bool) {
	switch v := o.(type) {
	case Filed:
		return v.Orders, v.File, true
	case *Filed:
		return v.Orders, v.File, true
	case rules.Orders:
		return v, nil, true
	case *rules.Orders:
		return *v, nil, true
	}
	return rules.Orders{}, nil, false
}

// Resolve checks that the orders answer what the game waits for, then
// applies them (rules.Resolve).
func (Rules) Resolve(p adjudicator.Position, o adjudicator.Orders, d adjudicator.Dice) (adjudicator.Position, json.RawMessage, *adjudicator.Refusal) {
	s, ord, file, err := both(p, o)
	if err != nil {
		return nil, nil, &adjudicator.Refusal{Problems: []adjudicator.Problem{{Msg: err.Error()}}}
	}
	if pr := s.CheckWait(ord); pr != nil {
		return nil, nil, &adjudicator.Refusal{Stale: true, Problems: placedIn(file, []rules.Problem{*pr})}
	}
	next, events, problems := rules.Resolve(s, ord, d)
	if len(problems) > 0 {
		return nil, nil, &adjudicator.Refusal{Problems: placedIn(file, problems)}
	}
	if next == nil {
		return nil, nil, nil
	}
	var b json.RawMessage
	if len(events) > 0 {
		var err error
		if b, err = json.Marshal(events); err != nil {
			return nil, nil, &adjudicator.Refusal{Problems: []adjudicator.Problem{{Msg: "the events cannot be written: " + err.Error()}}}
		}
	}
	return next, b, nil
}

// placedIn words the rules' problems, at their lines in file when there is
// one.
func placedIn(file *windorders.File, ps []rules.Problem) []adjudicator.Problem {
	out := make([]adjudicator.Problem, len(ps))
	for i, p := range ps {
		if file == nil {
			out[i] = adjudicator.Problem{Msg: p.Error()}
			continue
		}
		line, col := file.Locate(p)
		out[i] = adjudicator.Problem{Line: line, Col: col, Msg: file.Message(p)}
	}
	return out
}

// Reread decodes an order file again, so that the orders an audit replays
// are the ones the player wrote, not only the ones the server recorded.
func (Rules) Reread(raw []byte) (adjudicator.Orders, error) {
	f, err := windorders.Parse(raw, windorders.Options{})
	if err != nil {
		return nil, err
	}
	return f.Orders(), nil
}

// Opening checks the opening position against the dice entry 1 rolled: a
// game created by the rules of setup (rule 12) must come out the same
// again, one placed by hand hold the Komandorski chits its dice draw.
func (Rules) Opening(p adjudicator.Position, d adjudicator.Dice) error {
	s, ok := p.(*rules.State)
	if !ok {
		return fmt.Errorf("not War in the Wind: %T", p)
	}
	if s.Options != nil {
		return openingFrom(s, d)
	}
	k := rules.DrawKomandorski(d)
	if s.Komandorski != k {
		return fmt.Errorf("the dice draw Komandorski chits %+v, the position holds %+v", k, s.Komandorski)
	}
	if s.Wait() != (rules.Wait{Turn: 1, Side: rules.US, Kind: rules.WaitUSDecision}) {
		return fmt.Errorf("the game does not begin with the U.S. decision of turn 1 (rule 12.2)")
	}
	return nil
}

// openingFrom creates the game again from its scenario and options with
// the dice entry 1 rolled, and requires the same position.
func openingFrom(s *rules.State, d adjudicator.Dice) error {
	name := cmp.Or(s.Scenario, rules.ScenarioCampaign)
	again, _, err := rules.NewGameFrom(name, *s.Options, d)
	if err != nil {
		return fmt.Errorf("the game cannot be created again: %w", err)
	}
	// The edition of the rules is the game's, fixed when it was created;
	// the setup is the same in every edition.
	again.Edition = s.Edition
	a, err1 := json.Marshal(again)
	b, err2 := json.Marshal(s)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("the opening position cannot be compared: %v %v", err1, err2)
	}
	if !bytes.Equal(a, b) {
		return fmt.Errorf("the dice create %s otherwise than the opening position holds it (rule 12)", rules.ScenarioTitle(name))
	}
	return nil
}

// Start returns the opening of a game by the rules of setup (rule 12),
// for store.NewGame.Start: rules.NewGameFrom with the game's dice.
func Start(scenario string, opt rules.Options) func(d adjudicator.Dice) (adjudicator.Position, json.RawMessage, error) {
	return func(d adjudicator.Dice) (adjudicator.Position, json.RawMessage, error) {
		s, events, err := rules.NewGameFrom(scenario, opt, d)
		if err != nil {
			return nil, nil, err
		}
		return s, eventsJSON(events), nil
	}
}

// StartPlaced returns the opening of a campaign game whose units setup
// places by hand (nil for none), for store.NewGame.Start: rules.NewGame
// with the game's dice, then setup. The game begins with the U.S.
// decision of turn 1; the audit checks the Komandorski chits and takes
// the placement as recorded.
func StartPlaced(setup func(s *rules.State) error) func(d adjudicator.Dice) (adjudicator.Position, json.RawMessage, error) {
	return func(d adjudicator.Dice) (adjudicator.Position, json.RawMessage, error) {
		s, events := rules.NewGame(nil, nil, d)
		if setup != nil {
			if err := setup(s); err != nil {
				return nil, nil, fmt.Errorf("setup: %w", err)
			}
		}
		return s, eventsJSON(events), nil
	}
}

// eventsJSON is the JSON of events as a log entry records them, nil for
// none.
func eventsJSON(events []rules.Event) json.RawMessage {
	if len(events) == 0 {
		return nil
	}
	b, err := json.Marshal(events)
	if err != nil {
		// Events are plain data: this does not happen.
		panic(fmt.Sprintf("encoding events: %v", err))
	}
	return b
}

// Events decodes the events a log entry records.
func Events(b json.RawMessage) ([]rules.Event, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var evs []rules.Event
	if err := json.Unmarshal(b, &evs); err != nil {
		return nil, fmt.Errorf("decoding events: %w", err)
	}
	return evs, nil
}

// LuckRules names the kinds of fire whose to-hit dice the luck summary
// judges (rules 8.1, 8.1.6, 8.2) and the dice no side rolls, the
// weather's (3.3).
func (Rules) LuckRules() adjudicator.LuckRules {
	return adjudicator.LuckRules{
		Kinds: []adjudicator.FireKind{
			{Name: "ranged", Purposes: []adjudicator.DiePurpose{rules.DieRanged}},
			{Name: "air", Purposes: []adjudicator.DiePurpose{rules.DieAirStrike}},
			{Name: "melee", Purposes: []adjudicator.DiePurpose{rules.DieMeleeAttack, rules.DieMeleeDefence}},
		},
		Unowned: "weather",
	}
}
