package orders

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator"
)

// Options says where a file comes from.
type Options struct {
	// Case marks orders written inside a rules case: the envelope's game,
	// token and turn may then be omitted (the case supplies the position).
	Case bool
}

// Pos is a place in a file: line and column, both from 1.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// File is a decoded order file: its envelope (DESIGN 3.0) and its
// activations, each remembering where it was written.
type File struct {
	Game  string
	Side  adjudicator.Side
	Turn  int // 0 when a rules case's orders leave it out
	Wait  string
	Token string

	Actions []Action

	pos    Pos
	fields map[string]Pos
}

// Action is one activation of an actions file (rule 3.5) and where it was
// written. Exactly one of Move and Fire is set.
type Action struct {
	Move *adjudicator.Move
	Fire *adjudicator.Fire

	Pos   Pos   // the activation's "- " item
	Steps []Pos // for a move, where each hex of its path is written
}

// The envelope as written; Actions is decoded by hand, since each item is a
// one-key mapping naming its kind.
type envelope struct {
	Game    string           `yaml:"game"`
	Side    adjudicator.Side `yaml:"side"`
	Turn    int              `yaml:"turn"`
	Wait    string           `yaml:"wait"`
	Token   string           `yaml:"token"`
	Actions yaml.Node        `yaml:"actions"`
}

type moveYAML struct {
	Unit string            `yaml:"unit"`
	Path []adjudicator.Hex `yaml:"path"`
}

type fireYAML struct {
	Units      []string        `yaml:"units"`
	Target     adjudicator.Hex `yaml:"target"`
	Spotter    string          `yaml:"spotter"`
	TargetUnit string          `yaml:"target_unit"`
}

// Parse decodes an order file. Its error, when not nil, is an Errors
// listing every mistake found, each at its line and column.
func Parse(data []byte, opt Options) (*File, error) {
	root, errs := ParseDocument(data, MaxSize)
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
		return nil, Errors{errAt(n.Line, n.Column, "orders must be key: value lines (side:, turn:, actions: ...), not %s", describe(n))}
	}
	f := &File{pos: Pos{n.Line, n.Column}, fields: map[string]Pos{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if _, dup := f.fields[k.Value]; !dup {
			f.fields[k.Value] = Pos{k.Line, k.Column}
		}
	}
	var env envelope
	errs := decode(n, &env, "")
	have := func(key string) bool { _, ok := f.fields[key]; return ok }
	missing := func(key, what string) {
		errs = append(errs, errAt(n.Line, n.Column, "%s is missing: %s", key, what))
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
		errs = append(errs, errAt(p.Line, p.Col, "turn: turns start at 1"))
	}
	f.Game, f.Side, f.Turn, f.Wait, f.Token = env.Game, env.Side, env.Turn, env.Wait, env.Token
	if f.Wait == "" {
		f.Wait = adjudicator.WaitActions
	}
	switch f.Wait {
	case adjudicator.WaitActions:
		if !have("actions") {
			missing("actions", "list the activations under actions:, or write actions: [] to do nothing this turn")
		} else {
			errs = append(errs, f.decodeActions(&env.Actions)...)
		}
	default:
		p := f.fields["wait"]
		errs = append(errs, errAt(p.Line, p.Col, "wait: %q is not a kind of orders attu takes; want %s", f.Wait, adjudicator.WaitActions))
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return f, nil
}

func hasErrorAt(errs Errors, p Pos) bool {
	for _, e := range errs {
		if e.Line == p.Line {
			return true
		}
	}
	return false
}

// decode is DecodeStrict with a context naming the part of the file, for
// messages such as "unknown field "x" in move".
func decode(n *yaml.Node, v any, ctx string) Errors {
	var d strictDecoder
	d.decode(n, refValue(v), ctx)
	return d.errs
}

func (f *File) decodeActions(n *yaml.Node) Errors {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return Errors{errAt(n.Line, n.Column, "actions: want a list of activations, each starting with \"- \" (like - move: {unit: 1/17-A, path: [2720]}), got %s", describe(n))}
	}
	var errs Errors
	for i, item := range n.Content {
		a, es := decodeAction(item, i)
		errs = append(errs, es...)
		if len(es) == 0 {
			f.Actions = append(f.Actions, a)
		}
	}
	return errs
}

func decodeAction(item *yaml.Node, i int) (Action, Errors) {
	a := Action{Pos: Pos{item.Line, item.Column}}
	if item.Kind != yaml.MappingNode || len(item.Content) == 0 {
		return a, Errors{errAt(item.Line, item.Column, "activation %d: want one order such as move: {...} or fire: {...}, got %s", i+1, describe(item))}
	}
	if len(item.Content) > 2 {
		k := item.Content[2]
		return a, Errors{errAt(k.Line, k.Column, "activation %d holds more than one order (%s and %s): start each order on its own line with \"- \"", i+1, item.Content[0].Value, k.Value)}
	}
	key, val := item.Content[0], item.Content[1]
	switch key.Value {
	case "move":
		var m moveYAML
		errs := decode(val, &m, "move")
		if len(errs) > 0 {
			return a, errs
		}
		if m.Unit == "" {
			errs = append(errs, errAt(val.Line, val.Column, "move needs unit: the id of the unit moving, like unit: 1/17-A"))
		}
		if len(m.Path) == 0 {
			errs = append(errs, errAt(val.Line, val.Column, "move needs path: the hexes it enters in order, like path: [2720, 2719]"))
		}
		for j, h := range m.Path {
			if h == 0 {
				p := lookup(val, "path").Content[j]
				errs = append(errs, errAt(p.Line, p.Column, "move: path[%d] is empty; write a hex like 2717", j))
			}
		}
		if len(errs) > 0 {
			return a, errs
		}
		a.Move = &adjudicator.Move{Unit: m.Unit, Path: m.Path}
		for _, s := range lookup(val, "path").Content {
			a.Steps = append(a.Steps, Pos{s.Line, s.Column})
		}
	case "fire":
		var fy fireYAML
		errs := decode(val, &fy, "fire")
		if len(errs) > 0 {
			return a, errs
		}
		if len(fy.Units) == 0 {
			errs = append(errs, errAt(val.Line, val.Column, "fire needs units: the ids of the units firing together, like units: [2/32-E]"))
		}
		for j, u := range fy.Units {
			if u == "" {
				p := lookup(val, "units").Content[j]
				errs = append(errs, errAt(p.Line, p.Column, "fire: units[%d] is empty; write a unit id", j))
			}
		}
		if fy.Target == 0 {
			errs = append(errs, errAt(val.Line, val.Column, "fire needs target: the hex fired at, like target: 2717"))
		}
		if len(errs) > 0 {
			return a, errs
		}
		a.Fire = &adjudicator.Fire{Units: fy.Units, Target: fy.Target, Spotter: fy.Spotter, TargetUnit: fy.TargetUnit}
	default:
		return a, Errors{errAt(key.Line, key.Column, "activation %d: %s", i+1, unknownOrder(key.Value))}
	}
	return a, nil
}

func unknownOrder(kind string) string {
	switch kind {
	case "melee", "air", "yamasaki":
		return fmt.Sprintf("%s orders are not accepted yet; this version takes move and fire", kind)
	}
	msg := fmt.Sprintf("unknown order %q; want move or fire", kind)
	if s := closest(kind, []string{"move", "fire"}); s != "" {
		msg = fmt.Sprintf("unknown order %q (did you mean %q?); want move or fire", kind, s)
	}
	return msg
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
func (f *File) Orders() adjudicator.Orders {
	o := adjudicator.Orders{Side: f.Side, Turn: f.Turn, Wait: f.Wait}
	for _, a := range f.Actions {
		o.Actions = append(o.Actions, adjudicator.Action{Move: a.Move, Fire: a.Fire})
	}
	return o
}

// Start returns where the orders begin: their first key.
func (f *File) Start() (line, col int) { return f.pos.Line, f.pos.Col }

// Field returns where an envelope key (game, side, turn, wait, token,
// actions) is written, or the start of the orders when it is not.
func (f *File) Field(key string) (line, col int) {
	if p, ok := f.fields[key]; ok {
		return p.Line, p.Col
	}
	return f.pos.Line, f.pos.Col
}

// Locate returns where in the file the adjudicator's problem p lies: the
// path step it names, else its activation, else the start of the orders.
func (f *File) Locate(p adjudicator.Problem) (line, col int) {
	if p.Action < 0 || p.Action >= len(f.Actions) {
		return f.pos.Line, f.pos.Col
	}
	a := f.Actions[p.Action]
	if p.Step >= 0 && p.Step < len(a.Steps) {
		return a.Steps[p.Step].Line, a.Steps[p.Step].Col
	}
	return a.Pos.Line, a.Pos.Col
}

// Problems turns the adjudicator's problems with the file into mistakes at
// their lines, ready to send back to the player.
func (f *File) Problems(ps []adjudicator.Problem) Errors {
	var errs Errors
	for _, p := range ps {
		line, col := f.Locate(p)
		errs = append(errs, errAt(line, col, "%s", p.Msg))
	}
	errs.Sort()
	return errs
}
