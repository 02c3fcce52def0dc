package rulecase

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/orders"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// MaxSize is the largest case file accepted, in bytes: cases may carry a
// whole map inline.
const MaxSize = 1 << 20

// Case is a parsed rules case, ready to run any number of times.
type Case struct {
	Name        string
	Rule        string
	Description string

	start  *wind.State // the position before any procedure or orders
	placed []string    // units the case puts on the map, in file order
	dice   []int
	roll   []string
	orders []*windorders.File
	expect expectYAML
	hexes  []wind.Hex
	// turnCase: the case names a phase, so its orders go through
	// wind.Resolve, which checks the wait and runs the turn on.
	turnCase bool
	// created and createdDice are the events and dice of the creation of
	// a case with scenario:.
	created     []wind.Event
	createdDice []wind.Rolled
}

type caseYAML struct {
	Name        string        `yaml:"name"`
	Rule        string        `yaml:"rule"`
	Description string        `yaml:"description"`
	Map         yaml.Node     `yaml:"map"`
	Turn        *int          `yaml:"turn"`
	Weather     wind.Weather  `yaml:"weather"`
	Night       bool          `yaml:"night"`
	Units       []unitYAML    `yaml:"units"`
	Supply      yaml.Node     `yaml:"supply"`
	Dice        []yaml.Node   `yaml:"dice"`
	Roll        []yaml.Node   `yaml:"roll"`
	Orders      []yaml.Node   `yaml:"orders"`
	Expect      expectYAML    `yaml:"expect"`
	Standing    standingsYAML `yaml:"standing"`
	Casualties  int           `yaml:"casualties"`
	// Edition plays the case by an earlier edition of attu's rules
	// (wind.State.Edition); absent, the latest.
	Edition *int `yaml:"edition"`

	// The turn's state machine and victory (rule 3.8).
	Phase       wind.WaitKind    `yaml:"phase"`
	Waiting     wind.Side        `yaml:"waiting"`
	Komandorski *komandorskiYAML `yaml:"komandorski"`
	Cleared     []string         `yaml:"cleared"`
	// RefitSteps poses a U.S. refit wait: what the loss recovery roll gave
	// (rule 9.1).
	RefitSteps *int `yaml:"refit_steps"`
	// Scenario starts the case from a game just created (rule 12, 15);
	// VPChits poses the chits of rule 14.0 by hand.
	Scenario *scenarioYAML `yaml:"scenario"`
	VPChits  []vpChitYAML  `yaml:"vp_chits"`
	// Solitaire poses a solitaire game (rule 13).
	Solitaire *solitaireYAML `yaml:"solitaire"`
}

// solitaireYAML poses the state of the solitaire rules (rule 13): the
// Unknown units that may not move (13.2.1), the victory hexes whose ad hoc
// placement is made and the units it placed that fire by themselves
// (13.2.2).
type solitaireYAML struct {
	At     orders.Pos
	Fixed  []string   `yaml:"fixed"`
	Placed []wind.Hex `yaml:"placed"`
	AdHoc  []string   `yaml:"ad_hoc"`
}

type komandorskiExpect struct {
	EffectRevealed *bool `yaml:"effect_revealed"`
	DelayRevealed  *bool `yaml:"delay_revealed"`
}

type komandorskiYAML struct {
	At             orders.Pos
	Effect         int   `yaml:"effect"`
	Delay          int   `yaml:"delay"`
	EffectRevealed *bool `yaml:"effect_revealed"`
	DelayRevealed  *bool `yaml:"delay_revealed"`
}

type unitYAML struct {
	At  orders.Pos
	ID  string   `yaml:"id"`
	Hex wind.Hex `yaml:"hex"`
	Box string   `yaml:"box"` // off the map, in this box, instead of a hex
	// The keys of a unit in a hex, nil when not given, so that one given
	// to a unit in a box is refused rather than dropped.
	Steps *int      `yaml:"steps"`
	Face  *string   `yaml:"face"`
	Melee *wind.Hex `yaml:"melee"` // declared melee against this hex earlier in the turn
	// Captured marks U.S. artillery taken by the Japanese (rule 8.2.1.4).
	Captured *bool `yaml:"captured"`
}

// hexOnly names the keys of uy that only a unit in a hex takes.
func (uy *unitYAML) hexOnly() []string {
	var keys []string
	for _, k := range []struct {
		name  string
		given bool
	}{{"steps", uy.Steps != nil}, {"face", uy.Face != nil}, {"melee", uy.Melee != nil}, {"captured", uy.Captured != nil}} {
		if k.given {
			keys = append(keys, k.name)
		}
	}
	return keys
}

type expectYAML struct {
	Refused    yaml.Node     `yaml:"refused"`
	Units      []unitExpect  `yaml:"units"`
	MP         yaml.Node     `yaml:"mp"`
	Events     []string      `yaml:"events"`
	Supply     yaml.Node     `yaml:"supply"`
	LOS        []losExpect   `yaml:"los"`
	Fire       []fireExpect  `yaml:"fire"`
	Weather    *wind.Weather `yaml:"weather"`
	Air        *airExpect    `yaml:"air"`
	ZOC        []zocExpect   `yaml:"zoc"`
	Casualties *int          `yaml:"casualties"`
	Pool       *poolExpect   `yaml:"pool"`
	USEvents   []string      `yaml:"us_events"`
	USNever    []string      `yaml:"us_never"`
	Heroes     *heroesExpect `yaml:"heroes"`
	// What the game waits for and who has won (rule 3.8).
	Winner      string             `yaml:"winner"`
	Victory     string             `yaml:"victory"`
	Phase       wind.WaitKind      `yaml:"phase"`
	Waiting     wind.Side          `yaml:"waiting"`
	Turn        *int               `yaml:"turn"`
	Cleared     *[]string          `yaml:"cleared"`
	Komandorski *komandorskiExpect `yaml:"komandorski"`
	RefitSteps  *int               `yaml:"refit_steps"`
	VP          *vpExpect          `yaml:"vp"`

	At orders.Pos // where expect: begins
	// Decoded from the nodes above by Parse.
	refused *refusedExpect
	mp      []idValue[int]
	supply  []idValue[bool]
}

type refusedExpect struct {
	At     orders.Pos
	Orders int      `yaml:"orders"` // 1 for the first orders file
	Errors []string `yaml:"errors"`
}

type unitExpect struct {
	At       orders.Pos
	ID       string   `yaml:"id"`
	Hex      wind.Hex `yaml:"hex"`
	Steps    *int     `yaml:"steps"`
	Face     string   `yaml:"face"`
	Box      string   `yaml:"box"`
	Captured *bool    `yaml:"captured"`
}

type losExpect struct {
	At     orders.Pos
	From   wind.Hex `yaml:"from"`
	To     wind.Hex `yaml:"to"`
	Clear  *bool    `yaml:"clear"`
	Reason string   `yaml:"reason"`
}

type fireExpect struct {
	At         orders.Pos
	Units      []string `yaml:"units"`
	Target     wind.Hex `yaml:"target"`
	Spotter    string   `yaml:"spotter"`
	TargetUnit string   `yaml:"target_unit"`
	Legal      *bool    `yaml:"legal"`
	Reason     string   `yaml:"reason"`
}

// poolExpect counts the Japanese infantry units (rule 2.5) on the map, in
// the pool and eliminated.
type poolExpect struct {
	OnMap      *int `yaml:"on_map"`
	Pool       *int `yaml:"pool"`
	Eliminated *int `yaml:"eliminated"`
}

type airExpect struct {
	US *int `yaml:"us"`
	JP *int `yaml:"jp"`
}

type zocExpect struct {
	At   orders.Pos
	Hex  wind.Hex  `yaml:"hex"`
	Side wind.Side `yaml:"side"`
	In   *bool     `yaml:"in"`
}

// idValue is one entry of a unit-keyed mapping (mp, supply).
type idValue[T any] struct {
	id string
	v  T
}

// Procedures a case may run before its orders (CASEFORMAT "roll").
const (
	RollWeather  = "weather"
	RollAirpower = "airpower"
)

// Parse decodes a rules case and builds its position. Its error, when not
// nil, is an orders.Errors listing every mistake with its line and column.
func Parse(data []byte) (*Case, error) {
	root, errs := orders.ParseDocument(data, MaxSize)
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	var y caseYAML
	errs = orders.DecodeStrict(root, &y)
	p := &parser{errs: errs}
	c := &Case{Name: y.Name, Rule: y.Rule, Description: y.Description}
	if strings.TrimSpace(y.Name) == "" {
		p.fail(orders.Pos{Line: root.Line, Col: root.Column}, "name is missing: say in a line what the case shows")
	}
	if len(p.errs) > 0 {
		// The shape is wrong; semantic checks would only pile on.
		return nil, p.errs.Err()
	}
	var s *wind.State
	if y.Scenario != nil && !y.Scenario.Pose {
		if s = p.createScenario(c, root, &y); s == nil {
			return nil, p.errs.Err()
		}
	} else {
		m := p.buildMap(&y.Map)
		s = wind.NewState(m, nil)
		s.Turn = 1
		if y.Turn != nil {
			s.Turn = *y.Turn
			if s.Turn < 1 {
				p.fail(keyPos(root, "turn"), "turn: turns start at 1")
			}
		}
		s.Weather, s.Night = y.Weather, y.Night
	}
	c.start = s
	p.state = s
	p.placeUnits(c, y.Units)
	p.standings(y.Standing)
	s.Casualties = y.Casualties
	if e := y.Edition; e != nil {
		if *e < wind.EditionFirst || *e > wind.LatestEdition {
			p.fail(keyPos(root, "edition"), "edition: the editions of attu's rules are %d to %d", wind.EditionFirst, wind.LatestEdition)
		}
		s.Edition = *e
	}
	p.vpChits(y.VPChits)
	p.solitaire(y.Solitaire)
	if y.Scenario != nil && y.Scenario.Pose {
		p.poseScenario(y.Scenario)
	}
	c.turnCase = p.turnState(root, &y) || y.Scenario != nil && !y.Scenario.Pose
	p.supplyOverrides(&y.Supply)
	c.dice = p.dice(y.Dice)
	c.roll = p.rolls(y.Roll)
	for i, n := range y.Orders {
		f, err := windorders.ParseNode(&n, windorders.Options{Case: true})
		if err != nil {
			p.errs = append(p.errs, err.(orders.Errors)...)
			continue
		}
		if f.Turn == 0 {
			f.Turn = s.Turn
		}
		if f.Side != wind.US && f.Side != wind.JP {
			line, col := f.Field("side")
			p.fail(orders.Pos{Line: line, Col: col}, "orders %d: side: want us or jp", i+1)
		}
		p.refitHexes(f)
		for _, a := range f.Actions {
			if a.Move != nil {
				p.hex(a.Move.Path...)
			}
			if a.Fire != nil {
				p.hex(a.Fire.Target)
			}
			if a.Melee != nil {
				p.hex(a.Melee.Target)
			}
			if a.Air != nil {
				for _, at := range a.Air.Attacks {
					p.hex(at.Hex)
				}
			}
			if a.Yamasaki != nil {
				p.hex(a.Yamasaki.Hex)
				for _, m := range a.Yamasaki.Moves {
					p.hex(m.Path...)
				}
			}
		}
		c.orders = append(c.orders, f)
	}
	c.expect = y.Expect
	p.expectations(c, &c.expect)
	if len(p.errs) > 0 {
		return nil, p.errs.Err()
	}
	slices.Sort(p.hexes)
	c.hexes = slices.Compact(p.hexes)
	return c, nil
}

type parser struct {
	errs  orders.Errors
	state *wind.State
	hexes []wind.Hex
}

func (p *parser) fail(at orders.Pos, format string, args ...any) {
	p.errs = append(p.errs, &orders.Error{Line: max(at.Line, 1), Col: max(at.Col, 1), Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) hex(hs ...wind.Hex) {
	for _, h := range hs {
		if h != 0 {
			p.hexes = append(p.hexes, h)
		}
	}
}

func nodePos(n *yaml.Node) orders.Pos { return orders.Pos{Line: n.Line, Col: n.Column} }

// keyPos returns where key is written in mapping n.
func keyPos(n *yaml.Node, key string) orders.Pos {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return nodePos(n.Content[i])
		}
	}
	return nodePos(n)
}

// buildMap reads the case's map: the built-in one, or an inline MapFile.
func (p *parser) buildMap(n *yaml.Node) *wind.Map {
	switch {
	case n.Kind == 0, n.Kind == yaml.ScalarNode && n.Value == "builtin":
		return nil
	case n.Kind != yaml.MappingNode:
		p.fail(nodePos(n), "map: want builtin or an inline map (the format of adjudicator/wind/data/attu-map.yaml)")
		return nil
	}
	var mf wind.MapFile
	if errs := orders.DecodeStrict(n, &mf); len(errs) > 0 {
		for _, e := range errs {
			e.Msg = "map: " + e.Msg
		}
		p.errs = append(p.errs, errs...)
		return nil
	}
	text, err := yaml.Marshal(n)
	if err == nil {
		var m *wind.Map
		if m, err = wind.ParseMap(text); err == nil {
			return m
		}
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		p.fail(nodePos(n), "map: %s", strings.TrimPrefix(line, "map: "))
	}
	return nil
}

func (p *parser) unit(at orders.Pos, id string) (*wind.Unit, bool) {
	if id == "" {
		p.fail(at, "id is missing: name the unit, like id: 1/17-A")
		return nil, false
	}
	u, ok := p.state.Unit(id)
	if !ok {
		p.fail(at, "no unit %q in the counter mix (ids look like 1/17-A, IND1, 105-1, J01, U01, 20MM1)", id)
	}
	return u, ok
}

func (p *parser) placeUnits(c *Case, units []unitYAML) {
	seen := map[string]orders.Pos{}
	for _, uy := range units {
		u, ok := p.unit(uy.At, uy.ID)
		if !ok {
			continue
		}
		if first, dup := seen[uy.ID]; dup {
			p.fail(uy.At, "%s is placed twice (first at line %d)", uy.ID, first.Line)
			continue
		}
		seen[uy.ID] = uy.At
		switch {
		case uy.Hex != 0 && uy.Box != "":
			p.fail(uy.At, "%s: give hex or box, not both", uy.ID)
		case uy.Box != "":
			p.boxUnit(c, u, &uy)
		case uy.Hex == 0:
			p.fail(uy.At, "%s: hex is missing: say where the unit stands, like hex: 2717", uy.ID)
		default:
			p.hexUnit(c, u, &uy)
		}
	}
}

// boxUnit puts a unit of the case in a box, off the map. Steps, face,
// melee and captured describe a counter on the map, and the box would
// drop them: each is refused.
func (p *parser) boxUnit(c *Case, u *wind.Unit, uy *unitYAML) {
	if !knownBox(uy.Box) {
		p.fail(uy.At, "%s: box %q: want %s", uy.ID, uy.Box, strings.Join(boxes, ", "))
	}
	if keys := uy.hexOnly(); len(keys) > 0 {
		p.fail(uy.At, "%s: %s given to a unit in box %s, which would ignore it: steps, face, melee and captured are for a unit in a hex",
			uy.ID, strings.Join(keys, ", "), uy.Box)
	}
	u.Box = uy.Box
	c.placed = append(c.placed, uy.ID)
}

// hexUnit puts a unit of the case in its hex, with its steps, face, melee
// and capture.
func (p *parser) hexUnit(c *Case, u *wind.Unit, uy *unitYAML) {
	if err := p.state.Place(uy.ID, uy.Hex, ""); err != nil {
		p.fail(uy.At, "%v", err)
		return
	}
	p.hex(uy.Hex)
	c.placed = append(c.placed, uy.ID)
	if uy.Melee != nil {
		u.Melee, u.Acted = *uy.Melee, true
		p.hex(*uy.Melee)
	}
	full := u.Counter().MaxSteps()
	switch {
	case uy.Steps == nil:
		u.Steps = full
	case *uy.Steps < 1 || *uy.Steps > full:
		p.fail(uy.At, "%s: steps %d: this unit has 1 to %d steps", uy.ID, *uy.Steps, full)
	default:
		u.Steps = *uy.Steps
	}
	if uy.Captured != nil && *uy.Captured {
		if u.Side() != wind.US || u.Kind() != wind.Artillery {
			p.fail(uy.At, "%s: captured: only U.S. artillery is ever captured (rule 8.2.1.4)", uy.ID)
		}
		u.Captured = true
	}
	// Japanese units start hidden (rule 2.5); U.S. units are never
	// hidden, nor is captured U.S. artillery.
	u.FaceDown = u.Counter().Side() == wind.JP
	if uy.Face == nil {
		return
	}
	switch *uy.Face {
	case "up":
		u.FaceDown = false
	case "down":
		if u.Counter().Side() != wind.JP {
			p.fail(uy.At, "%s: face: only Japanese units are ever face down (rule 2.5)", uy.ID)
		}
	default:
		p.fail(uy.At, "%s: face %q: want up or down", uy.ID, *uy.Face)
	}
}

// unitMap reads a mapping from unit ids to values, checking each id.
func unitMap[T any](p *parser, n *yaml.Node, what string, value func(*yaml.Node) (T, error)) []idValue[T] {
	if n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.fail(nodePos(n), "%s: want unit: value pairs, like {1/17-A: %s}", what, exampleOf(what))
		return nil
	}
	var out []idValue[T]
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if _, ok := p.unit(nodePos(k), k.Value); !ok {
			continue
		}
		if seen[k.Value] {
			p.fail(nodePos(k), "%s: %q is given twice; keep one", what, k.Value)
			continue
		}
		seen[k.Value] = true
		x, err := value(v)
		if err != nil {
			p.fail(nodePos(v), "%s: %s: %v", what, k.Value, err)
			continue
		}
		out = append(out, idValue[T]{k.Value, x})
	}
	return out
}

func exampleOf(what string) string {
	if strings.HasSuffix(what, "mp") {
		return "6"
	}
	return "in"
}

func inOut(n *yaml.Node) (bool, error) {
	if n.Kind == yaml.ScalarNode {
		switch n.Value {
		case "in":
			return true, nil
		case "out":
			return false, nil
		}
	}
	return false, fmt.Errorf("want in or out")
}

func wholeNumber(n *yaml.Node) (int, error) {
	var v int
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&v) != nil {
		return 0, fmt.Errorf("want a whole number")
	}
	return v, nil
}

func (p *parser) supplyOverrides(n *yaml.Node) {
	for _, e := range unitMap(p, n, "supply", inOut) {
		if p.state.SupplyOverride == nil {
			p.state.SupplyOverride = map[string]bool{}
		}
		p.state.SupplyOverride[e.id] = e.v
	}
}

func (p *parser) dice(ns []yaml.Node) []int {
	var out []int
	for i := range ns {
		v, err := wholeNumber(&ns[i])
		if err != nil || v < 1 || v > 10 {
			p.fail(nodePos(&ns[i]), "dice[%d]: a die is 1 to 10 (write 10 for a 0, rule 1.2), got %q", i, ns[i].Value)
			continue
		}
		out = append(out, v)
	}
	return out
}

func (p *parser) rolls(ns []yaml.Node) []string {
	var out []string
	for i, n := range ns {
		if n.Kind != yaml.ScalarNode || (n.Value != RollWeather && n.Value != RollAirpower && n.Value != RollMelee) {
			p.fail(nodePos(&ns[i]), "roll[%d]: want %s, %s or %s", i, RollWeather, RollAirpower, RollMelee)
			continue
		}
		out = append(out, n.Value)
	}
	return out
}

func (p *parser) expectations(c *Case, e *expectYAML) {
	if e.Refused.Kind != 0 {
		r := &refusedExpect{Orders: 1}
		if e.Refused.Kind == yaml.SequenceNode {
			r.At = nodePos(&e.Refused)
			p.errs = append(p.errs, orders.DecodeStrict(&e.Refused, &r.Errors)...)
		} else if e.Refused.Kind == yaml.MappingNode {
			p.errs = append(p.errs, orders.DecodeStrict(&e.Refused, r)...)
		} else {
			p.fail(nodePos(&e.Refused), "expect.refused: want a list of error texts, or {orders: N, errors: [...]}")
		}
		if r.Orders < 1 || r.Orders > len(c.orders) {
			p.fail(nodePos(&e.Refused), "expect.refused: orders %d: the case has %d orders files, counted from 1", r.Orders, len(c.orders))
		}
		e.refused = r
	}
	p.turnExpectations(e)
	for _, u := range e.Units {
		if _, ok := p.unit(u.At, u.ID); !ok {
			continue
		}
		p.hex(u.Hex)
		switch u.Face {
		case "", "up", "down":
		default:
			p.fail(u.At, "expect.units: %s: face %q: want up or down", u.ID, u.Face)
		}
		switch {
		case u.Box == "":
		case u.Hex != 0:
			p.fail(u.At, "expect.units: %s: give hex or box, not both", u.ID)
		case !knownBox(u.Box):
			p.fail(u.At, "expect.units: %s: box %q: want %s", u.ID, u.Box, strings.Join(boxes, ", "))
		}
	}
	e.mp = unitMap(p, &e.MP, "expect.mp", wholeNumber)
	e.supply = unitMap(p, &e.Supply, "expect.supply", inOut)
	for _, l := range e.LOS {
		if l.From == 0 || l.To == 0 || l.Clear == nil {
			p.fail(l.At, "expect.los: give from, to and clear, like {from: 2619, to: 2717, clear: true}")
		}
		p.hex(l.From, l.To)
	}
	for _, f := range e.Fire {
		if len(f.Units) == 0 || f.Target == 0 || f.Legal == nil {
			p.fail(f.At, "expect.fire: give units, target and legal, like {units: [2/32-E], target: 2717, legal: true}")
		}
		for _, id := range append(slices.Clone(f.Units), f.Spotter, f.TargetUnit) {
			if id != "" {
				p.unit(f.At, id)
			}
		}
		p.hex(f.Target)
	}
	for _, z := range e.ZOC {
		if z.Hex == 0 || z.In == nil || (z.Side != wind.US && z.Side != wind.JP) {
			p.fail(z.At, "expect.zoc: give hex, side (us or jp) and in, like {hex: 2819, side: us, in: true}")
		}
		p.hex(z.Hex)
	}
}

var boxes = []string{wind.BoxEliminated, wind.BoxPool, wind.BoxOffMap,
	wind.BoxReinforcements, wind.BoxUnused, wind.BoxSetup, wind.BoxStagingPrefix + "ZONE"}

func knownBox(b string) bool {
	return slices.Contains(boxes[:len(boxes)-1], b) || strings.HasPrefix(b, wind.BoxStagingPrefix)
}

// solitaire poses a solitaire game (rule 13) when the case asks for one.
func (p *parser) solitaire(sy *solitaireYAML) {
	if sy == nil {
		return
	}
	s := p.state
	if err := s.SetSolitaire(sy.Fixed...); err != nil {
		p.fail(sy.At, "solitaire: %v", err)
		return
	}
	s.Solo.Placed = append(s.Solo.Placed, sy.Placed...)
	for _, id := range sy.AdHoc {
		u, ok := s.Unit(id)
		if !ok || !u.OnMap() || u.Side() != wind.JP || u.Kind() != wind.Infantry {
			p.fail(sy.At, "solitaire: ad_hoc: %s is not Japanese infantry on the map (rule 13.2.2)", id)
			continue
		}
		s.Solo.AdHoc = append(s.Solo.AdHoc, id)
	}
}
