package wind

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/attu-pbem/attu/adjudicator"
	rules "github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/standin"
	"github.com/attu-pbem/attu/orders"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/templates"
)

// What the game service asks of War in the Wind beyond the store's rules
// (store/referee.System): its words for turns and waits, its order files
// read, judged and written, and its stand-in.

// Date names game-turn turn by its day of May 1943 (rule 3.0).
func (Rules) Date(turn int) string { return rules.TurnDate(turn) }

// Waiting says what a game waiting for w waits for, as reader may read it
// (WaitPhraseTo); NoSide reads it as the umpire and the log do
// (WaitPhrase).
func (Rules) Waiting(w adjudicator.Wait, reader adjudicator.Side) string {
	if reader == adjudicator.NoSide {
		return WaitPhrase(w)
	}
	return WaitPhraseTo(w, reader)
}

// Kinds lists every kind of orders a game can wait for.
func (Rules) Kinds() []adjudicator.WaitKind { return rules.WaitKinds() }

// Empty returns orders that answer w and hold nothing: an envelope alone.
func (Rules) Empty(w adjudicator.Wait) adjudicator.Orders {
	return rules.Orders{Side: w.Side, Turn: w.Turn, Wait: w.Kind}
}

// Answers reports whether orders o answer w.
func (Rules) Answers(w adjudicator.Wait, o adjudicator.Orders) bool {
	ord, _, ok := OrdersOf(o)
	return ok && rules.Answers(w, ord)
}

// Read decodes an order file once: the orders with the file they were read
// from (Filed), or its mistakes as orders.Errors.
func (Rules) Read(raw []byte) (adjudicator.Orders, error) {
	return Read(raw, windorders.Options{})
}

// Stale says why o does not answer what p waits for, at the start of its
// file; nil when it does (rule 3.0's sequence, State.CheckWait).
func (Rules) Stale(p adjudicator.Position, o adjudicator.Orders) *adjudicator.Problem {
	s, ord, file, err := both(p, o)
	if err != nil {
		return &adjudicator.Problem{Msg: err.Error()}
	}
	pr := s.CheckWait(ord)
	if pr == nil {
		return nil
	}
	out := adjudicator.Problem{Msg: pr.Msg}
	if file != nil {
		out.Line, out.Col = file.Start()
	}
	return &out
}

// Check judges o against p as Resolve would, without resolving it: the
// problems found, placed in its file (rules.CheckOrders).
func (Rules) Check(p adjudicator.Position, o adjudicator.Orders) []adjudicator.Problem {
	s, ord, file, err := both(p, o)
	if err != nil {
		return []adjudicator.Problem{{Msg: err.Error()}}
	}
	return placedIn(file, rules.CheckOrders(s, ord))
}

// Immediate reports whether the file asks to be applied at once rather
// than held for the game's settle window (its now: true).
func (Rules) Immediate(o adjudicator.Orders) bool {
	_, file, _ := OrdersOf(o)
	return file != nil && file.Now
}

// Accepted says what an accepted file answering wait w held, for the
// acceptance (templates.Accepted): its activations in words, and whether it
// changed standing instructions.
func (Rules) Accepted(o adjudicator.Orders, w adjudicator.WaitKind) (held string, standing bool) {
	ord, _, _ := OrdersOf(o)
	return Held(ord, w), ord.Standing != nil
}

// Defaults says in words what the default orders of a wait of kind k are
// (rules 3.1 and 3.2: no refit, a day turn; 3.5: every unit stays; 9.1 to
// 9.6: the default refit; 12.4 to 12.6 and 14.0: a legal setup or
// landing); false for a kind without them.
func (Rules) Defaults(k adjudicator.WaitKind) (string, bool) {
	if !slices.Contains(rules.WaitKinds(), k) {
		return "", false
	}
	what := templates.DefaultOrders(k)
	return what, what != ""
}

// DefaultFile is the orders file the server writes for the side that
// missed the deadline of what p waits for, headed by why: stored and
// audited like a player's file.
func (r Rules) DefaultFile(game string, p adjudicator.Position, why string) ([]byte, adjudicator.Orders, error) {
	s, ok := p.(*rules.State)
	if !ok {
		return nil, nil, fmt.Errorf("not War in the Wind: %T", p)
	}
	w := s.Wait()
	what, ok := r.Defaults(w.Kind)
	if !ok || !w.Open() {
		return nil, nil, fmt.Errorf("no default orders for %s", w)
	}
	return serverFile(game, fmt.Sprintf("Default orders written by attu: %s (%s).", why, what), s.DefaultOrders())
}

// StandIn is the order file the stand-in writes for what p waits for, from
// the waiting side's view and outlook alone, without the entries the
// rules' check refuses (standin.Trim); seed makes its choices.
func (Rules) StandIn(game string, p adjudicator.Position, seed uint64) ([]byte, adjudicator.Orders, error) {
	s, ok := p.(*rules.State)
	if !ok {
		return nil, nil, fmt.Errorf("not War in the Wind: %T", p)
	}
	w := s.Wait()
	ord := standin.Decide(s.View(w.Side), s.Outlook(w.Side), seed)
	ord = standin.Trim(ord, s.DefaultOrders(), func(o rules.Orders) []rules.Problem {
		return rules.CheckOrders(s, o)
	})
	return serverFile(game, "Orders written by attu's stand-in.", ord)
}

// serverFile is the orders file the server writes for o, headed by the
// comment line head, redacted, and the orders as read back from it.
func serverFile(game, head string, o rules.Orders) ([]byte, adjudicator.Orders, error) {
	body, err := windorders.Write(game, orders.RedactedToken, o)
	if err != nil {
		return nil, nil, fmt.Errorf("writing %s: %w", head, err)
	}
	raw := append([]byte("# "+head+"\n"), body...)
	read, err := Read(raw, windorders.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("%s for %s %s: %w", head, o.Side, o.Wait, err)
	}
	return raw, read, nil
}

// both returns War in the Wind's position and orders of p and o.
func both(p adjudicator.Position, o adjudicator.Orders) (*rules.State, rules.Orders, *windorders.File, error) {
	s, ok := p.(*rules.State)
	ord, file, ok2 := OrdersOf(o)
	if !ok || !ok2 {
		return nil, rules.Orders{}, nil, fmt.Errorf("not War in the Wind: %T, %T", p, o)
	}
	return s, ord, file, nil
}

// Report is side's report of the position in force: made only of the
// side's View and Outlook and of its version of each event (VisibleEvents).
func (Rules) Report(in templates.ReportFor) (*templates.SideReport, error) {
	r, err := reportFrom(in)
	if err != nil {
		return nil, err
	}
	a, err := r.RenderWords()
	if err != nil {
		return nil, err
	}
	out := &templates.SideReport{Subject: ReportSubject(r), Text: a.Text, TemplateName: a.TemplateName, Template: a.Template,
		JSON: a.JSON, PictureKey: pictureKey(r.View)}
	if name, page, ok := r.OrderSheet(in.Address); ok {
		out.SheetName, out.Sheet = name, page
	}
	return out, nil
}

// Template is the order template of side's report, for the side awaited;
// false for none.
func (Rules) Template(in templates.ReportFor) (name, body string, ok bool) {
	r, err := reportFrom(in)
	if err != nil {
		return "", "", false
	}
	return r.OrderTemplate()
}

// Picture draws the map as the side sees the position, outlining what the
// events tell of.
func (Rules) Picture(in templates.ReportFor) ([]byte, error) {
	s, ok := in.Position.(*rules.State)
	if !ok {
		return nil, fmt.Errorf("not War in the Wind: %T", in.Position)
	}
	evs, err := decodeEvents(in.Events)
	if err != nil {
		return nil, err
	}
	r := &Report{Game: Game{ID: in.Game.ID}, Map: s.Map(), View: s.View(in.Side), Events: rules.VisibleEvents(evs, in.Side)}
	return r.PNG()
}

// Result is who won the game over in p and why; NoSide and nothing while
// it runs or when it ended without a winner.
func (Rules) Result(p adjudicator.Position) (adjudicator.Side, string) {
	s, ok := p.(*rules.State)
	if !ok {
		return adjudicator.NoSide, ""
	}
	return s.Winner, s.Victory
}

// Summary says in one line what a game in position p waits for, or how it
// ended (State.WaitText).
func (Rules) Summary(p adjudicator.Position) string {
	s, ok := p.(*rules.State)
	if !ok {
		return ""
	}
	return s.WaitText()
}

// reportFrom builds side's report from what the service gives.
func reportFrom(in templates.ReportFor) (*Report, error) {
	s, ok := in.Position.(*rules.State)
	if !ok {
		return nil, fmt.Errorf("not War in the Wind: %T", in.Position)
	}
	evs, err := decodeEvents(in.Events)
	if err != nil {
		return nil, err
	}
	o := s.Outlook(in.Side)
	if in.Ended {
		o.Wait = adjudicator.Wait{Turn: o.Wait.Turn, Kind: adjudicator.WaitEnded}
	}
	return &Report{Game: in.Game, Map: s.Map(), View: s.View(in.Side), Outlook: o, Events: rules.VisibleEvents(evs, in.Side)}, nil
}

// decodeEvents reads events, each the JSON of one.
func decodeEvents(raw []json.RawMessage) ([]rules.Event, error) {
	out := make([]rules.Event, len(raw))
	for i, b := range raw {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			return nil, fmt.Errorf("decoding event %d: %w", i+1, err)
		}
	}
	return out, nil
}

// pictureKey sums up what a side's picture shows of the position: the
// units and counters where they stand, the victory hexes and the cleared
// zones (not the turn, weather and time of day its caption names, which
// the report's text gives).
func pictureKey(v *rules.View) string {
	b, err := json.Marshal(struct {
		Units, Enemy []rules.UnitView
		Hidden       []rules.HiddenStack
		Victory      []rules.VictoryHexState
		Cleared      []string
	}{v.Units, v.Enemy, v.Hidden, v.VictoryHexes, v.ClearedZones})
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
