package wind

import (
	"fmt"
	"github.com/attu-pbem/attu/orders"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Options says where a file comes from.
type Options struct {
	// Case marks orders written inside a rules case: the envelope's game,
	// token and turn may then be omitted (the case supplies the position).
	Case bool
}

// File is a decoded order file: its envelope (game, side, turn, wait,
// token), what it answers
// (activations or the U.S. decision) and any standing instructions, each
// remembering where it was written.
type File struct {
	Game  string
	Side  wind.Side
	Turn  int // 0 when a rules case's orders leave it out
	Wait  wind.WaitKind
	Token string
	// Now asks the server to apply the file at once rather than hold it
	// for the game's settle window (now: true in the envelope).
	Now bool

	Actions []Action
	// Decision is set in us-decision orders, and only there.
	Decision *wind.Decision
	// Refit is set in us-refit orders, and in a decision calling a refit
	// turn that carries its refit orders (rules 9.1 to 9.4).
	Refit *wind.Refit
	// Rearrange is set in jp-refit orders (rules 9.5, 9.6).
	Rearrange *wind.Rearrange
	// JPSetup is set in jp-setup orders (rules 12.4, 14.0).
	JPSetup *wind.JPSetup
	// Landing is set in us-landing orders (rules 12.5, 12.6).
	Landing *wind.USLanding
	// Standing is set when the file changes standing instructions; any
	// orders file may.
	Standing *wind.Standing

	pos     orders.Pos
	fields  map[string]orders.Pos
	refitAt *refitAt
}

// Action is one activation of an actions file (rule 3.5) and where it was
// written. Exactly one of Move, Fire, Melee, Air and Yamasaki is set.
type Action struct {
	wind.Action

	Pos orders.Pos // the activation's "- " item
	// Steps is where each part that wind.Problem.Step indexes is
	// written: the hexes of a move's path, the units of a fire or a melee,
	// the attacks of an air activation.
	Steps []orders.Pos
	// Moves is, for a Yamasaki activation, where each of its moves is
	// written (wind.Problem.Move counts them from 1).
	Moves []MoveAt
}

// MoveAt is where one move inside an activation is written: its item and
// each hex of its path.
type MoveAt struct {
	Pos   orders.Pos
	Steps []orders.Pos
}

// The envelope as written; actions, decision and standing are decoded by
// hand, since their checks depend on the wait and the side.
type envelope struct {
	Game     string        `yaml:"game"`
	Side     wind.Side     `yaml:"side"`
	Turn     int           `yaml:"turn"`
	Wait     wind.WaitKind `yaml:"wait"`
	Token    string        `yaml:"token"`
	Now      bool          `yaml:"now"`
	Actions  yaml.Node     `yaml:"actions"`
	Decision yaml.Node     `yaml:"decision"`
	Refit    yaml.Node     `yaml:"refit"`
	Setup    yaml.Node     `yaml:"setup"`
	Landing  yaml.Node     `yaml:"landing"`
	Standing yaml.Node     `yaml:"standing"`
}

// Parse decodes an order file. Its error, when not nil, is an Errors
// listing every mistake found, each at its line and column.
func Parse(data []byte, opt Options) (*File, error) {
	root, errs := orders.ParseDocument(data, orders.MaxSize)
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return ParseNode(root, opt)
}

// ParseNode decodes an order file already read as YAML: the top mapping of
// a document, or a mapping inside a larger file (a rules case), in which
// case the positions reported are those of the larger file. The node should
// come from ParseDocument, which refuses aliases and excessive depth.
func ParseNode(n *yaml.Node, opt Options) (*File, error) {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil, orders.Errors{orders.ErrAt(n.Line, n.Column, "orders must be key: value lines (side:, turn:, actions: ...), not %s", orders.Describe(n))}
	}
	f := &File{pos: orders.Pos{Line: n.Line, Col: n.Column}, fields: map[string]orders.Pos{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if _, dup := f.fields[k.Value]; !dup {
			f.fields[k.Value] = orders.Pos{Line: k.Line, Col: k.Column}
		}
	}
	var env envelope
	errs := decode(n, &env, "")
	have := func(key string) bool { _, ok := f.fields[key]; return ok }
	missing := func(key, what string) {
		errs = append(errs, orders.ErrAt(n.Line, n.Column, "%s is missing: %s", key, what))
	}
	if !opt.Case {
		if !have("game") || env.Game == "" {
			missing("game", "write the game's name as in the welcome mail, like game: attu-1")
		}
		if !have("token") || env.Token == "" {
			missing("token", "copy your side's token from the welcome mail")
		}
		if !have("turn") {
			missing("turn", "write the turn these orders are for, like turn: 3")
		}
	}
	if !have("side") {
		missing("side", "write side: us or side: jp")
	}
	if have("turn") && env.Turn < 1 && !hasErrorAt(errs, f.fields["turn"]) {
		p := f.fields["turn"]
		errs = append(errs, orders.ErrAt(p.Line, p.Col, "turn: turns start at 1"))
	}
	f.Game, f.Side, f.Turn, f.Wait, f.Token, f.Now = env.Game, env.Side, env.Turn, env.Wait, env.Token, env.Now
	if f.Wait == "" {
		f.Wait = wind.WaitActions
	}
	// misplaced refuses a part of the file that the wait does not take.
	misplaced := func(key, why string) {
		if have(key) {
			p := f.fields[key]
			errs = append(errs, orders.ErrAt(p.Line, p.Col, "%s: %s", key, why))
		}
	}
	switch f.Wait {
	case wind.WaitActions:
		if !have("actions") {
			missing("actions", "list the activations under actions:, or write actions: [] to do nothing this turn")
		} else {
			errs = append(errs, f.decodeActions(&env.Actions)...)
		}
		misplaced("decision", "the refit and night decision belongs only in the U.S. decision at the start of a turn, sent with wait: us-decision")
		misplaced("refit", "refit orders are sent in a refit turn, with wait: us-refit or wait: jp-refit (rule 9.0)")
	case wind.WaitJPSetup, wind.WaitUSLanding:
		want, key := wind.JP, "setup"
		if f.Wait == wind.WaitUSLanding {
			want, key = wind.US, "landing"
		}
		if f.Side != wind.NoSide && f.Side != want {
			p := f.fields["wait"]
			errs = append(errs, orders.ErrAt(p.Line, p.Col, "wait: %s orders come from the %s player; the %s player answers wait: %s",
				f.Wait, sideWord(want), sideWord(f.Side), setupWait(f.Side)))
		}
		if !have(key) {
			missing(key, setupHelp(want))
		} else if f.Side == want {
			if key == "setup" {
				errs = append(errs, f.decodeSetup(&env.Setup)...)
			} else {
				errs = append(errs, f.decodeLanding(&env.Landing)...)
			}
		}
		misplaced("actions", "the setup holds no activations: turns begin once the U.S. has landed (rule 12.5)")
		misplaced("decision", "the first decision comes once the U.S. has landed (rule 12.5)")
		misplaced("refit", "refit orders are sent in a refit turn, once play has begun (rule 9.0)")
		if key == "setup" {
			misplaced("landing", "the U.S. landing is sent by the U.S. player with wait: us-landing (rules 12.5, 12.6)")
		} else {
			misplaced("setup", "the Japanese setup is sent by the Japanese player with wait: jp-setup (rule 12.4)")
		}
	case wind.WaitUSRefit, wind.WaitJPRefit:
		want := wind.US
		if f.Wait == wind.WaitJPRefit {
			want = wind.JP
		}
		if f.Side != wind.NoSide && f.Side != want {
			p := f.fields["wait"]
			errs = append(errs, orders.ErrAt(p.Line, p.Col, "wait: %s orders come from the %s player; the %s refit orders are sent with wait: %s",
				f.Wait, sideWord(want), sideWord(f.Side), refitWait(f.Side)))
		}
		if !have("refit") {
			missing("refit", refitHelp(f.Side))
		} else if f.Side == want {
			errs = append(errs, f.decodeRefit(&env.Refit)...)
		}
		misplaced("actions", "refit orders hold no activations: a refit turn has none (rule 9.0)")
		misplaced("decision", "the refit decision was made at the start of the turn; send only refit: now")
	case wind.WaitUSDecision:
		if f.Side != wind.NoSide && f.Side != wind.US {
			p := f.fields["wait"]
			errs = append(errs, orders.ErrAt(p.Line, p.Col, "wait: only the U.S. player decides on refit and night turns (rules 3.1, 3.2)"))
		}
		if !have("decision") {
			missing("decision", "write decision: {refit: false, night: false}, with true for a refit turn (rule 3.1) or a night turn (rule 3.2)")
		} else {
			errs = append(errs, f.decodeDecision(&env.Decision)...)
		}
		misplaced("actions", "the decision holds no activations: send them when attu asks for the turn's actions")
		if have("refit") {
			switch {
			case f.Decision != nil && !f.Decision.Refit:
				p := f.fields["refit"]
				errs = append(errs, orders.ErrAt(p.Line, p.Col, "refit: refit orders come with a refit turn: write decision: {refit: true} to give them now, or leave refit: out"))
			case f.Side == wind.US:
				errs = append(errs, f.decodeRefit(&env.Refit)...)
			}
		}
	default:
		p := f.fields["wait"]
		errs = append(errs, orders.ErrAt(p.Line, p.Col, "wait: %s", unknownWait(f.Wait)))
	}
	if f.Wait != wind.WaitJPSetup && f.Wait != wind.WaitUSLanding {
		misplaced("setup", "the Japanese setup is sent before the first turn, with wait: jp-setup (rule 12.4)")
		misplaced("landing", "the U.S. landing is sent before the first turn, with wait: us-landing (rules 12.5, 12.6)")
	}
	if have("standing") {
		errs = append(errs, f.decodeStanding(&env.Standing)...)
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return f, nil
}

// unknownWait explains a wait: that is not one this version plays. The
// kinds themselves are the adjudicator's (wind.WaitKinds).
func unknownWait(w wind.WaitKind) string {
	known := "attu takes actions orders (wait: actions), the U.S. decision at the start of a turn (wait: us-decision), the refit orders of a refit turn (wait: us-refit, wait: jp-refit) and, before the first turn, the Japanese setup (wait: jp-setup) and the U.S. landing (wait: us-landing)"
	switch w {
	case "refit":
		return "the orders of a refit turn are wait: us-refit (U.S.) and wait: jp-refit (Japanese)"
	case "setup", "landing":
		return "the orders before the first turn are wait: jp-setup (the Japanese setup) and wait: us-landing (the U.S. landing)"
	}
	var played []string
	for _, k := range wind.WaitKinds() {
		if wind.Played(k) {
			played = append(played, string(k))
		} else if w == k {
			return fmt.Sprintf("%s orders are not accepted yet; %s", w, known)
		}
	}
	if s := orders.Closest(string(w), played); s != "" {
		return fmt.Sprintf("%q is not a kind of orders (did you mean %q?); %s", w, s, known)
	}
	return fmt.Sprintf("%q is not a kind of orders; %s", w, known)
}

func hasErrorAt(errs orders.Errors, p orders.Pos) bool {
	for _, e := range errs {
		if e.Line == p.Line {
			return true
		}
	}
	return false
}

// decode is DecodeStrict with a context naming the part of the file, for
// messages such as "unknown field "x" in move".
func decode(n *yaml.Node, v any, ctx string) orders.Errors {
	return orders.DecodeStrictIn(n, v, ctx)
}

// lookup returns the value under key in mapping n, or an empty node.
func lookup(n *yaml.Node, key string) *yaml.Node {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
	}
	return &yaml.Node{}
}

// Orders returns the file as the adjudicator takes it.
func (f *File) Orders() wind.Orders {
	o := wind.Orders{Side: f.Side, Turn: f.Turn, Wait: f.Wait, Decision: f.Decision, Standing: f.Standing,
		Refit: f.Refit, Rearrange: f.Rearrange, JPSetup: f.JPSetup, Landing: f.Landing}
	for _, a := range f.Actions {
		o.Actions = append(o.Actions, a.Action)
	}
	return o
}

// Start returns where the orders begin: their first key.
func (f *File) Start() (line, col int) { return f.pos.Line, f.pos.Col }

// Field returns where a top-level key (game, side, turn, wait, token,
// actions, decision, standing) is written, or the start of the orders when
// it is not. Keys inside decision and standing are named with a dot, like
// "standing.retreat_at".
func (f *File) Field(key string) (line, col int) {
	if p, ok := f.fields[key]; ok {
		return p.Line, p.Col
	}
	return f.pos.Line, f.pos.Col
}

// Locate returns where in the file the adjudicator's problem p lies: the
// part of the activation it names (a path step, a unit, an air attack; for
// a Yamasaki activation the move and its path step), else its activation,
// else the start of the orders.
func (f *File) Locate(p wind.Problem) (line, col int) {
	if line, col, ok := f.locateRefit(p); ok {
		return line, col
	}
	if p.Action < 0 || p.Action >= len(f.Actions) {
		return f.pos.Line, f.pos.Col
	}
	a := f.Actions[p.Action]
	if p.Move >= 1 && p.Move <= len(a.Moves) {
		m := a.Moves[p.Move-1]
		if p.Step >= 0 && p.Step < len(m.Steps) {
			return m.Steps[p.Step].Line, m.Steps[p.Step].Col
		}
		return m.Pos.Line, m.Pos.Col
	}
	if p.Move == 0 && p.Step >= 0 && p.Step < len(a.Steps) {
		return a.Steps[p.Step].Line, a.Steps[p.Step].Col
	}
	return a.Pos.Line, a.Pos.Col
}

// Message words p for the player: its own words and, when an earlier
// activation of the file brought it about, which one and on what line, so
// that an option the order template listed is not thought wrongly listed.
func (f *File) Message(p wind.Problem) string {
	if p.Cause < 1 || p.Cause > len(f.Actions) {
		return p.Msg
	}
	a := f.Actions[p.Cause-1]
	did := "the activation on line %d"
	switch {
	case a.Move != nil:
		did = a.Move.Unit + " moved on line %d"
	case a.Fire != nil:
		did = strings.Join(a.Fire.Units, ", ") + " fired on line %d"
	case a.Melee != nil:
		did = "the melee on line %d"
	case a.Yamasaki != nil:
		did = "the Yamasaki attack on line %d"
	}
	return fmt.Sprintf("%s; %s, earlier in this file (activations are judged in the order written)", p.Msg, fmt.Sprintf(did, a.Pos.Line))
}

// Problems turns the adjudicator's problems with the file into mistakes at
// their lines, ready to send back to the player.
func (f *File) Problems(ps []wind.Problem) orders.Errors {
	var errs orders.Errors
	for _, p := range ps {
		line, col := f.Locate(p)
		errs = append(errs, orders.ErrAt(line, col, "%s", f.Message(p)))
	}
	errs.Sort()
	return errs
}

func sideWord(s wind.Side) string {
	if s == wind.JP {
		return "Japanese"
	}
	return "U.S."
}

// refitWait is the wait a side's refit orders answer.
func refitWait(s wind.Side) wind.WaitKind {
	if s == wind.JP {
		return wind.WaitJPRefit
	}
	return wind.WaitUSRefit
}

// setupWait is the setup wait a side's orders answer.
func setupWait(s wind.Side) wind.WaitKind {
	if s == wind.JP {
		return wind.WaitJPSetup
	}
	return wind.WaitUSLanding
}

// refitHelp says what a side's refit orders hold.
func refitHelp(s wind.Side) string {
	if s == wind.JP {
		return "list under refit: the units to hide (rule 9.5) and the Unknown units to move and swap (rule 9.6), or write refit: {} to do nothing"
	}
	return "list under refit: the steps to restore, the units to land, the independent units and depots to create (rules 9.1 to 9.4), or write refit: {} to do nothing"
}
