package wind

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"go.yaml.in/yaml/v3"
	"maps"
	"slices"
	"strings"

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

// ReadDoc decodes an order file already parsed (orders.Envelope.Doc): the
// orders with the file they were read from, or its mistakes.
func (Rules) ReadDoc(doc *yaml.Node) (adjudicator.Orders, error) {
	f, err := windorders.ParseNode(doc, windorders.Options{})
	if err != nil {
		return nil, err
	}
	return Filed{Orders: f.Orders(), File: f}, nil
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
	if tmpl.Lookup("default-"+string(k)) == nil {
		return "", false
	}
	what := strings.TrimSpace(execute("default-"+string(k), nil))
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
	return s.Winner, s.VictoryText()
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
	return &Report{Game: in.Game, Map: s.Map(), View: s.View(in.Side), Outlook: o, Events: rules.VisibleEvents(evs, in.Side),
		Solitaire: s.IsSolitaire()}, nil
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

// ReplayPage draws the replay page of a game from what the game service
// replayed of its export (the package's ReplayPage).
func (Rules) ReplayPage(in *templates.Replay) ([]byte, error) { return ReplayPage(in) }

// Open checks the choices a game is created with against the rules of
// creation and says how it begins: by the rules of setup (rule 12) when
// they name a scenario or a side's setup, else placed by hand (Placements)
// with what the rules leave to chance drawn from a stream pick returns,
// the same each time, which the caller derives from the game's seed.
func (Rules) Open(c adjudicator.Choices, pick func() func(n int) int) (*adjudicator.Creation, error) {
	byRules := c.Scenario != "" || c.Setups[adjudicator.JP] != "" || c.Setups[adjudicator.US] != ""
	opt := rules.Options{JPSetup: c.Setups[adjudicator.JP], USSetup: c.Setups[adjudicator.US]}
	out := &adjudicator.Creation{Scenario: cmp.Or(c.Scenario, rules.ScenarioCampaign)}
	for _, r := range c.Rules {
		switch {
		case !slices.Contains(OptionalRules, r):
			return nil, fmt.Errorf("unknown optional rule %q (%s)", r, strings.Join(OptionalRules, ", "))
		case !byRules:
			return nil, fmt.Errorf("the optional rule %q needs a game set up by the rules: name its scenario", r)
		case r == "solitaire":
			opt.Solitaire, out.Server = true, adjudicator.JP
		case opt.VPChits != "":
			return nil, fmt.Errorf("choose one of vp-chits and vp-chits-placed")
		case r == "vp-chits":
			opt.VPChits = rules.VPDrawn
		case r == "vp-chits-placed":
			opt.VPChits = rules.VPPlaced
		}
	}
	if byRules {
		out.Start = Start(out.Scenario, opt)
		return out, nil
	}
	name := cmp.Or(c.Place, "historic")
	p, ok := Placements[name]
	if !ok {
		return nil, fmt.Errorf("unknown setup %q (%s)", name, strings.Join(slices.Sorted(maps.Keys(Placements)), ", "))
	}
	out.Placed = map[adjudicator.Side]string{adjudicator.US: p.US, adjudicator.JP: p.JP}
	out.Start = StartPlaced(func(st *rules.State) error { return p.Place(st, pick()) })
	return out, nil
}

// Setups names each side's setup of the opening p, for the game's record:
// those the creation settled, defaults filled in, for a game set up by
// the rules; else those of its placement (Creation.Placed).
func (Rules) Setups(p adjudicator.Position, c *adjudicator.Creation) map[adjudicator.Side]string {
	if s, ok := p.(*rules.State); ok && s.Options != nil {
		return map[adjudicator.Side]string{adjudicator.US: s.Options.USSetup, adjudicator.JP: s.Options.JPSetup}
	}
	return c.Placed
}

// OptionalRules are the optional rules a game may be created with: the
// solitaire game of rule 13, its Japanese played by the rules of 13.1 to
// 13.6 and, where they leave the choice, by the stand-in; the victory
// point chits of rule 14.0, drawn at random or the value chits placed by
// the Japanese.
var OptionalRules = []string{"solitaire", "vp-chits", "vp-chits-placed"}

// Placement places the units of a new campaign game, drawing what the
// rules leave to chance from pick, a stream derived from the game's seed.
type Placement struct {
	US, JP string // the setup, for the game's record
	Place  func(s *rules.State, pick func(n int) int) error
}

// Placements are the setups placed by hand that attu can create games
// with besides the setup waits of rule 12: the historic Japanese setup of
// rule 12.3 with the U.S. already ashore near its beaches, or every unit
// placed at random. Such a game begins with the U.S. decision of turn 1.
var Placements = map[string]Placement{
	"historic": {US: "landed", JP: "historic", Place: autoplay.DeployHistoric},
	"random":   {US: "landed", JP: "random", Place: func(s *rules.State, pick func(int) int) error { autoplay.Deploy(s, pick); return nil }},
}

// Decided reports whether the rules ended the game in p: a victory (rule
// 3.8) or the last turn played (12.1.3).
func (Rules) Decided(p adjudicator.Position) bool {
	s, ok := p.(*rules.State)
	return ok && s.Over()
}

// Level names the level of the victory the victory point chits decided
// (rule 14.0) and its grade by the Victory Level Table, empty and none
// when they decided none.
func (Rules) Level(p adjudicator.Position) (string, adjudicator.Grade) {
	if s, ok := p.(*rules.State); ok && s.VP != nil && s.VP.Level != "" {
		return s.VP.Level, rules.VictoryGrade(s.VP.Score)
	}
	return "", adjudicator.GradeNone
}

// State reads a War in the Wind position from the JSON a store read
// returned (with its error), and judges it: a position the rules cannot
// reach is an error.
func State(b []byte, err error) (*rules.State, error) {
	if err != nil {
		return nil, err
	}
	p, err := Rules{}.Position(b)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("unsound position: %w", err)
	}
	return p.(*rules.State), nil
}

// EntryOrders reads the orders a log entry records, nil for none.
func EntryOrders(b json.RawMessage) (*rules.Orders, error) {
	if len(b) == 0 {
		return nil, nil
	}
	o := new(rules.Orders)
	if err := json.Unmarshal(b, o); err != nil {
		return nil, fmt.Errorf("decoding orders: %w", err)
	}
	return o, nil
}

// EventsOf reads the events a log entry written by attu records; a list
// that does not read back (a broken file, which store.DB.Check reports)
// reads as none.
func EventsOf(b json.RawMessage) []rules.Event {
	evs, err := Events(b)
	if err != nil {
		return nil
	}
	return evs
}

// Scenarios names the scenarios a game can be created with: the campaign
// and the short scenarios of rule 15.
func (Rules) Scenarios() []string { return rules.ScenarioNames() }

// ScenarioName names a scenario for players: its title and its rule.
func (Rules) ScenarioName(name string) string {
	return fmt.Sprintf("%s (rule %s)", rules.ScenarioTitle(name), rules.ScenarioRule(name))
}

// RuleSetups are each side's setups by the rules (rule 12): historic or
// free.
func (Rules) RuleSetups() []string { return []string{rules.SetupHistoric, rules.SetupFree} }

// Allows reports whether a game of scenario may be played with the
// optional rule: the victory point chits (rule 14.0) are the campaign's.
func (Rules) Allows(scenario, rule string) bool {
	switch rule {
	case "vp-chits", "vp-chits-placed":
		return scenario == rules.ScenarioCampaign
	}
	return slices.Contains(OptionalRules, rule)
}

// Option reads an optional rule as a tournament file's rules: write it:
// vp-chits off, drawn or placed (rule 14.0), the victory point chits drawn
// at random or placed by the Japanese, for campaign rounds only. With an
// empty scenario it judges the words alone.
func (Rules) Option(key, value, scenario string) ([]string, error) {
	if key != "vp-chits" {
		return nil, fmt.Errorf("%q is not an optional rule of a tournament (vp-chits, settle)", key)
	}
	var on []string
	switch value {
	case "", "off":
		return nil, nil
	case "drawn":
		on = []string{"vp-chits"}
	case "placed":
		on = []string{"vp-chits-placed"}
	default:
		return nil, fmt.Errorf("vp-chits %q: use off, drawn or placed (rule 14.0)", value)
	}
	if scenario != "" && scenario != rules.ScenarioCampaign {
		return nil, fmt.Errorf("the victory point chits (rule 14.0) are a campaign rule; %s is a short scenario", scenario)
	}
	return on, nil
}
