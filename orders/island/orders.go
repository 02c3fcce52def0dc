package island

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator"
	iw "github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/orders"
)

// The kinds of order file an Island War game waits for (RULINGS.md IW22),
// as the envelope's wait: names them.
const (
	WaitSetup   adjudicator.WaitKind = "setup"   // placements in areas (rule 3.0)
	WaitOrders  adjudicator.WaitKind = "orders"  // the phasing player's moves and attacks
	WaitDefence adjudicator.WaitKind = "defence" // the defender's answer to the declared attacks
)

// WaitKinds lists the kinds in the order of a Player-Turn.
func WaitKinds() []adjudicator.WaitKind {
	return []adjudicator.WaitKind{WaitSetup, WaitOrders, WaitDefence}
}

// Standing is a side's standing instructions for the enemy's Player-Turns
// (IW24): its Defence, used whenever it defends without a defence wait,
// and Ask, which asks for the defence wait instead.
type Standing struct {
	Ask     bool       `json:"ask,omitempty"`
	Defence iw.Defence `json:"defence"`
}

// Orders is what one order file holds, as the rules take it: its envelope,
// and the part its wait asks for (placements, the Player-Turn's orders or
// the answer to the declared attacks), with any standing instructions.
// Its JSON is what a log entry records.
type Orders struct {
	Side     adjudicator.Side     `json:"side"`
	Turn     int                  `json:"turn"`
	Wait     adjudicator.WaitKind `json:"wait"`
	Now      bool                 `json:"now,omitempty"`
	Setup    map[string]iw.Hex    `json:"setup,omitempty"`
	Play     *iw.Orders           `json:"play,omitempty"`
	Defence  *iw.Defence          `json:"defence,omitempty"`
	Standing *Standing            `json:"standing,omitempty"`
}

// Answering is the wait the envelope names.
func (o Orders) Answering() adjudicator.Wait {
	return adjudicator.Wait{Turn: o.Turn, Side: o.Side, Kind: o.Wait}
}

// OrderFile is an order file read: its orders and where each of their
// parts is written, so that the rules' problems are placed at their lines.
type OrderFile struct {
	Orders
	Game, Token string
	start       orders.Pos
	at          map[string]orders.Pos // "moves[0]", "attacks[2]", "setup.I/124", top-level keys
}

// Start is where the file's mapping begins.
func (f *OrderFile) Start() (line, col int) { return f.start.Line, f.start.Col }

// Key is where a top-level key is written, or the file's start when it
// is not.
func (f *OrderFile) Key(name string) (line, col int) {
	if at, ok := f.at[name]; ok {
		return at.Line, at.Col
	}
	return f.Start()
}

// Locate places one of the engine's problems in the file: at the unit's
// placement or move, the order it names, the move ending in its hex, the
// list it names, or the file's start.
func (f *OrderFile) Locate(p iw.Problem) (line, col int) {
	keys := []string{p.Order + "." + p.Unit}
	if p.Hex != nil {
		keys = append(keys, p.Order+"@"+p.Hex.String())
	}
	for _, k := range append(keys, p.Order, strings.SplitN(p.Order, "[", 2)[0]) {
		if at, ok := f.at[k]; ok && k != "" {
			return at.Line, at.Col
		}
	}
	return f.start.Line, f.start.Col
}

// The file's shape, read by orders.DecodeStrict; a Pos field receives where
// its mapping is written.
type (
	fileYAML struct {
		Game     string            `yaml:"game,omitempty"`
		Side     string            `yaml:"side,omitempty"`
		Turn     int               `yaml:"turn,omitempty"`
		Wait     string            `yaml:"wait,omitempty"`
		Token    string            `yaml:"token,omitempty"`
		Now      bool              `yaml:"now,omitempty"`
		Setup    map[string]iw.Hex `yaml:"setup,omitempty"`
		Moves    []moveYAML        `yaml:"moves,omitempty"`
		Attacks  []attackYAML      `yaml:"attacks,omitempty"`
		Own      *ownYAML          `yaml:"own,omitempty"`
		Defence  *defenceYAML      `yaml:"defence,omitempty"`
		Standing *standingYAML     `yaml:"standing,omitempty"`
	}
	moveYAML struct {
		At   orders.Pos `yaml:"-"`
		Unit string     `yaml:"unit,omitempty"`
		Path []iw.Hex   `yaml:"path,omitempty"`
	}
	attackYAML struct {
		At        orders.Pos    `yaml:"-"`
		Defenders []string      `yaml:"defenders,omitempty"`
		Attackers []string      `yaml:"attackers,omitempty"`
		Barrage   []string      `yaml:"barrage,omitempty"`
		GSP       int           `yaml:"gsp,omitempty"`
		Banzai    bool          `yaml:"banzai,omitempty"`
		Advance   []advanceYAML `yaml:"advance,omitempty"`
		Removals  []string      `yaml:"removals,omitempty"`
	}
	advanceYAML struct {
		At   orders.Pos `yaml:"-"`
		Unit string     `yaml:"unit,omitempty"`
		To   *iw.Hex    `yaml:"to,omitempty"`
	}
	ownYAML struct {
		Retreats map[string]retreatYAML `yaml:"retreats,omitempty"`
		Order    []string               `yaml:"order,omitempty"`
		Displace map[string][]iw.Hex    `yaml:"displace,omitempty"`
	}
	retreatYAML struct {
		Paths  [][]iw.Hex `yaml:"paths,omitempty"`
		Toward *iw.Hex    `yaml:"toward,omitempty"`
	}
	defenceYAML struct {
		FPF     []fpfYAML `yaml:"fpf,omitempty"`
		Own     *ownYAML  `yaml:"own,omitempty"`
		Advance bool      `yaml:"advance,omitempty"`
	}
	standingYAML struct {
		Ask     bool      `yaml:"ask,omitempty"`
		FPF     []fpfYAML `yaml:"fpf,omitempty"`
		Own     *ownYAML  `yaml:"own,omitempty"`
		Advance bool      `yaml:"advance,omitempty"`
	}
	fpfYAML struct {
		At              orders.Pos `yaml:"-"`
		Protect         string     `yaml:"protect,omitempty"`
		Artillery       []string   `yaml:"artillery,omitempty"`
		GSP             int        `yaml:"gsp,omitempty"`
		MinDifferential *int       `yaml:"min_differential,omitempty"`
		OnlyBanzai      bool       `yaml:"only_banzai,omitempty"`
	}
)

// ReadOrders reads an Island War order file: the shared envelope (game,
// side, turn, wait, token, now) and what its wait asks for, strictly
// (unknown keys, repeated keys, values of the wrong kind), every mistake
// collected as orders.Errors at its line and column. Whether the orders
// are legal is the rules' to judge.
func ReadOrders(data []byte) (*OrderFile, error) {
	root, errs := orders.ParseDocument(data, orders.MaxSize)
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return ReadOrdersDoc(root)
}

// ReadOrdersDoc reads an order file already parsed (orders.Envelope.Doc).
func ReadOrdersDoc(n *yaml.Node) (*OrderFile, error) {
	if n == nil {
		return nil, orders.Errors{orders.ErrAt(1, 1, "the file is empty: write the envelope (game:, side:, turn:, wait:, token:) and your orders")}
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil, orders.Errors{orders.ErrAt(n.Line, n.Column, "orders must be key: value lines (game:, side:, wait:, moves: ...), not %s", orders.Describe(n))}
	}
	f := &OrderFile{start: orders.Pos{Line: n.Line, Col: n.Column}, at: map[string]orders.Pos{}}
	var y fileYAML
	errs := orders.DecodeStrict(n, &y)
	values := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if _, dup := f.at[k.Value]; !dup {
			f.at[k.Value] = orders.Pos{Line: k.Line, Col: k.Column}
			values[k.Value] = n.Content[i+1]
		}
	}
	c := &checker{f: f, errs: errs, root: n}
	c.envelope(y)
	if v := values["setup"]; v != nil && v.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(v.Content); i += 2 {
			f.at["setup."+v.Content[i].Value] = orders.Pos{Line: v.Content[i].Line, Col: v.Content[i].Column}
		}
	}
	c.parts(y)
	if len(c.errs) > 0 {
		return nil, c.errs.Err()
	}
	return f, nil
}

// checker collects the mistakes the strict decoding cannot see: keys
// missing, parts the wait does not take, values out of range.
type checker struct {
	f    *OrderFile
	errs orders.Errors
	root *yaml.Node
}

func (c *checker) fail(at orders.Pos, format string, args ...any) {
	c.errs = append(c.errs, orders.ErrAt(at.Line, at.Col, format, args...))
}

func (c *checker) have(key string) bool { _, ok := c.f.at[key]; return ok }

func (c *checker) missing(key, what string) {
	c.fail(c.f.start, "%s is missing: %s", key, what)
}

// envelope checks the keys every file opens with.
func (c *checker) envelope(y fileYAML) {
	f := c.f
	if !c.have("game") || y.Game == "" {
		c.missing("game", "write the game's name as in the welcome mail, like game: ridge-1")
	}
	if !c.have("token") || y.Token == "" {
		c.missing("token", "copy your side's token from the welcome mail")
	}
	switch {
	case !c.have("side"):
		c.missing("side", "write side: us or side: jp")
	case y.Side == "us":
		f.Side = adjudicator.US
	case y.Side == "jp":
		f.Side = adjudicator.JP
	default:
		c.fail(f.at["side"], "side: %q is not a side: write us or jp", y.Side)
	}
	switch {
	case !c.have("turn"):
		c.missing("turn", "write the Game-Turn these orders are for, like turn: 1")
	case y.Turn < 1:
		c.fail(f.at["turn"], "turn: Game-Turns start at 1")
	}
	switch w := adjudicator.WaitKind(y.Wait); {
	case !c.have("wait"):
		c.missing("wait", "write wait: setup, wait: orders or wait: defence, as your report asks")
	case w == WaitSetup || w == WaitOrders || w == WaitDefence:
		f.Wait = w
	default:
		c.fail(f.at["wait"], "wait: %q is not a wait of Island War: write setup, orders or defence", y.Wait)
	}
	f.Game, f.Token, f.Turn, f.Now = y.Game, y.Token, y.Turn, y.Now
}

// parts checks and converts what the wait asks for and the standing
// instructions.
func (c *checker) parts(y fileYAML) {
	f := c.f
	only := map[string]adjudicator.WaitKind{"setup": WaitSetup, "moves": WaitOrders, "attacks": WaitOrders, "own": WaitOrders, "defence": WaitDefence}
	for _, key := range []string{"setup", "moves", "attacks", "own", "defence"} {
		if w := only[key]; c.have(key) && f.Wait != "" && f.Wait != w {
			c.fail(f.at[key], "%s: belongs in a file of wait: %s, and this one answers wait: %s", key, w, f.Wait)
		}
	}
	switch f.Wait {
	case WaitSetup:
		if !c.have("setup") {
			c.missing("setup", `place every unit the report lists, like setup: {"I/124": "0603"}`)
		}
		f.Setup = y.Setup
		if f.Setup == nil {
			f.Setup = map[string]iw.Hex{}
		}
	case WaitOrders:
		f.Play = &iw.Orders{Own: c.own(y.Own, "own")}
		for i, m := range y.Moves {
			f.Play.Moves = append(f.Play.Moves, c.move(m, i))
		}
		for i, a := range y.Attacks {
			f.Play.Attacks = append(f.Play.Attacks, c.attack(a, i))
		}
	case WaitDefence:
		if !c.have("defence") {
			c.missing("defence", "answer the declared attacks under defence: (write defence: {} to give no fire and take the defaults)")
		}
		d := iw.Defence{}
		if y.Defence != nil {
			d = iw.Defence{FPF: c.fpf(y.Defence.FPF, "defence.fpf"), Own: c.own(y.Defence.Own, "defence.own"), Advance: y.Defence.Advance}
		}
		f.Defence = &d
	}
	if s := y.Standing; s != nil {
		f.Standing = &Standing{Ask: s.Ask, Defence: iw.Defence{FPF: c.fpf(s.FPF, "standing.fpf"), Own: c.own(s.Own, "standing.own"), Advance: s.Advance}}
	}
}

func (c *checker) move(m moveYAML, i int) iw.Move {
	where := fmt.Sprintf("moves[%d]", i)
	c.f.at[where] = m.At
	if _, dup := c.f.at["moves."+m.Unit]; !dup && m.Unit != "" {
		c.f.at["moves."+m.Unit] = m.At
	}
	if len(m.Path) > 0 {
		c.f.at["moves@"+m.Path[len(m.Path)-1].String()] = m.At
	}
	if m.Unit == "" {
		c.fail(m.At, "%s: unit is missing: name the unit that moves, like unit: 1/5", where)
	}
	if len(m.Path) == 0 {
		c.fail(m.At, "%s: path is missing: list the hexes the unit enters, in order, like path: [\"0303\", \"0403\"]", where)
	}
	return iw.Move{Unit: m.Unit, Path: m.Path}
}

func (c *checker) attack(a attackYAML, i int) iw.Attack {
	where := fmt.Sprintf("attacks[%d]", i)
	c.f.at[where] = a.At
	if len(a.Defenders) == 0 {
		c.fail(a.At, "%s: defenders is missing: name the enemy units attacked, like defenders: [I/124]", where)
	}
	if a.GSP < 0 {
		c.fail(a.At, "%s: gsp: %d is negative", where, a.GSP)
	}
	out := iw.Attack{Defenders: a.Defenders, Attackers: a.Attackers, Barrage: a.Barrage, GSP: a.GSP, Banzai: a.Banzai, Removals: a.Removals}
	for j, v := range a.Advance {
		if v.Unit == "" || v.To == nil {
			c.fail(v.At, "%s.advance[%d]: write both the unit and the hex it advances to, like {unit: 1/5, to: \"0603\"}", where, j)
			continue
		}
		out.Advance = append(out.Advance, iw.Advance{Unit: v.Unit, To: *v.To})
	}
	return out
}

func (c *checker) fpf(ps []fpfYAML, where string) []iw.FPFPlan {
	var out []iw.FPFPlan
	for i, p := range ps {
		c.f.at[fmt.Sprintf("%s[%d]", where, i)] = p.At
		if p.Protect == "" {
			c.fail(p.At, "%s[%d]: protect is missing: name the unit this fire protects, like protect: 1/5", where, i)
		}
		if p.GSP < 0 {
			c.fail(p.At, "%s[%d]: gsp: %d is negative", where, i, p.GSP)
		}
		out = append(out, iw.FPFPlan{Protect: p.Protect, Artillery: p.Artillery, GSP: p.GSP, MinDifferential: p.MinDifferential, OnlyBanzai: p.OnlyBanzai})
	}
	return out
}

// Tidy gives instructions with empty lists and maps left out, so that
// instructions that say nothing are the zero value and read back from
// their JSON the same.
func Tidy(in iw.Instructions) iw.Instructions {
	out := in
	if len(out.Retreats) == 0 {
		out.Retreats = nil
	}
	if len(out.Order) == 0 {
		out.Order = nil
	}
	if len(out.Displace) == 0 {
		out.Displace = nil
	}
	return out
}

func (c *checker) own(o *ownYAML, where string) iw.Instructions {
	if o == nil {
		return iw.Instructions{}
	}
	out := iw.Instructions{Order: o.Order, Displace: o.Displace}
	for id, r := range o.Retreats {
		if out.Retreats == nil {
			out.Retreats = map[string]iw.RetreatPlan{}
		}
		if len(r.Paths) == 0 && r.Toward == nil {
			c.fail(c.f.at[strings.SplitN(where, ".", 2)[0]], "%s.retreats.%s: give paths or toward", where, id)
		}
		out.Retreats[id] = iw.RetreatPlan{Paths: r.Paths, Toward: r.Toward}
	}
	return Tidy(out)
}
