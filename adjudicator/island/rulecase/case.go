package rulecase

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	iw "github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/orders"
	islandorders "github.com/attu-pbem/attu/orders/island"
)

// System is the value of a case's system: key that names Island War.
const System = "island-war"

// Limits on a case, so that a stranger's case file runs in moments: the
// largest file accepted, in bytes, the most columns and rows of an inline
// map, and the largest printed value of a unit.
const (
	MaxSize    = 1 << 20
	MaxMapSide = 40
	MaxValue   = 99
)

// Loader reads the scenario file a case names, for a case that plays on a
// scenario's map and counters; the caller decides where names are looked
// up (the package does no I/O).
type Loader func(name string) ([]byte, error)

// Case is a parsed Island War rules case, ready to run any number of times.
type Case struct {
	Name        string
	Rule        string
	Description string

	eng      *iw.Engine
	start    iw.Position
	orders   iw.Orders
	defence  iw.Defence
	combat   bool // the case runs a Combat Phase
	dice     []int
	expect   expectYAML
	scenario string
}

type caseYAML struct {
	System      string         `yaml:"system"`
	Name        string         `yaml:"name"`
	Rule        string         `yaml:"rule"`
	Description string         `yaml:"description"`
	Scenario    string         `yaml:"scenario"`
	Map         *mapYAML       `yaml:"map"`
	Turn        *int           `yaml:"turn"`
	GameTurns   *int           `yaml:"game_turns"`
	FirstPlayer string         `yaml:"first_player"`
	Phasing     string         `yaml:"phasing"`
	Phase       string         `yaml:"phase"`
	GSP         map[string]int `yaml:"gsp"`
	GSPRange    *int           `yaml:"gsp_range"`
	Units       []unitYAML     `yaml:"units"`
	Orders      ordersYAML     `yaml:"orders"`
	Defence     *defenceYAML   `yaml:"defence"`
	Dice        []int          `yaml:"dice"`
	Expect      expectYAML     `yaml:"expect"`
}

// mapYAML is a small map written inline, on the case key of inlineKey.
type mapYAML struct {
	At       orders.Pos
	Columns  int       `yaml:"columns"`
	Rows     int       `yaml:"rows"`
	Shifted  string    `yaml:"shifted"`
	Default  string    `yaml:"default"`
	Terrain  yaml.Node `yaml:"terrain"`  // terrain name: [hexes]
	Hexsides yaml.Node `yaml:"hexsides"` // feature name: [hexsides]
}

type unitYAML struct {
	At       orders.Pos
	ID       string  `yaml:"id"`
	Side     string  `yaml:"side"`
	Class    string  `yaml:"class"`
	Attack   *int    `yaml:"attack"`
	Defense  *int    `yaml:"defense"`
	Movement *int    `yaml:"movement"`
	Barrage  *int    `yaml:"barrage"`
	FPF      *int    `yaml:"fpf"`
	Range    *int    `yaml:"range"`
	Hex      *iw.Hex `yaml:"hex"`
	// A reinforcement not yet entered: due in this Game-Turn, from these
	// entry hexes (an inline map's units only; a scenario's keep theirs).
	Due   *int     `yaml:"due"`
	Entry []iw.Hex `yaml:"entry"`
	// Facts of earlier in the phase, or of the phase before.
	Attacked  bool   `yaml:"attacked"`
	Defended  bool   `yaml:"defended"`
	Advanced  bool   `yaml:"advanced"`
	Displaced bool   `yaml:"displaced"`
	FiredFPF  bool   `yaml:"fired_fpf"`
	Adverse   string `yaml:"adverse"` // "this" or "last" Combat Phase
}

type ordersYAML struct {
	Moves   []moveYAML   `yaml:"moves"`
	Attacks []attackYAML `yaml:"attacks"`
	Own     instrYAML    `yaml:"own"`
}

type moveYAML struct {
	Unit string   `yaml:"unit"`
	Path []iw.Hex `yaml:"path"`
}

type attackYAML struct {
	Defenders []string      `yaml:"defenders"`
	Attackers []string      `yaml:"attackers"`
	Barrage   []string      `yaml:"barrage"`
	GSP       int           `yaml:"gsp"`
	Banzai    bool          `yaml:"banzai"`
	Advance   []advanceYAML `yaml:"advance"`
	Removals  []string      `yaml:"removals"`
}

type advanceYAML struct {
	Unit string `yaml:"unit"`
	To   iw.Hex `yaml:"to"`
}

type instrYAML struct {
	Retreats map[string]planYAML `yaml:"retreats"`
	Order    []string            `yaml:"order"`
	Displace map[string][]iw.Hex `yaml:"displace"`
}

type planYAML struct {
	Paths  [][]iw.Hex `yaml:"paths"`
	Toward *iw.Hex    `yaml:"toward"`
}

type defenceYAML struct {
	FPF     []fpfYAML `yaml:"fpf"`
	Own     instrYAML `yaml:"own"`
	Advance bool      `yaml:"advance"`
}

type fpfYAML struct {
	Protect         string   `yaml:"protect"`
	Artillery       []string `yaml:"artillery"`
	GSP             int      `yaml:"gsp"`
	MinDifferential *int     `yaml:"min_differential"`
	OnlyBanzai      bool     `yaml:"only_banzai"`
}

type expectYAML struct {
	At         orders.Pos
	Refused    []refusedYAML  `yaml:"refused"`
	Attacks    []attackExpect `yaml:"attacks"`
	Units      []unitExpect   `yaml:"units"`
	Eliminated *[]string      `yaml:"eliminated"`
	Phase      string         `yaml:"phase"`
	Phasing    string         `yaml:"phasing"`
	Turn       *int           `yaml:"turn"`
	GSP        map[string]int `yaml:"gsp"`
	Reach      []reachExpect  `yaml:"reach"`
	Column     []columnExpect `yaml:"column"`
	Verdict    *verdictExpect `yaml:"verdict"`
	Facts      []factExpect   `yaml:"facts"`
}

type refusedYAML struct {
	At     orders.Pos
	Rule   string `yaml:"rule"`
	Unit   string `yaml:"unit"`
	Reason string `yaml:"reason"`
}

type attackExpect struct {
	At            orders.Pos
	Skipped       *bool          `yaml:"skipped"`
	Attack        *int           `yaml:"attack"`
	Defense       *int           `yaml:"defense"`
	Differential  *int           `yaml:"differential"`
	Line          string         `yaml:"line"`
	Column        *int           `yaml:"column"`
	Die           *int           `yaml:"die"`
	Result        string         `yaml:"result"`
	ArtilleryOnly *bool          `yaml:"artillery_only"`
	Void          *bool          `yaml:"void"`
	FPF           *[]string      `yaml:"fpf"`
	FPFGSP        *int           `yaml:"fpf_gsp"`
	Barrage       *[]string      `yaml:"barrage"`
	Dropped       *[]string      `yaml:"dropped"`
	Eliminated    *[]string      `yaml:"eliminated"`
	Removals      *[]string      `yaml:"removals"`
	Advances      *[]advanceYAML `yaml:"advances"`
	Unmade        *[]advanceYAML `yaml:"unmade"`
	Retreats      []retreatYAML  `yaml:"retreats"`
}

type retreatYAML struct {
	At         orders.Pos
	Unit       string           `yaml:"unit"`
	Path       *[]iw.Hex        `yaml:"path"`
	Eliminated *bool            `yaml:"eliminated"`
	Displaced  *[]displacedYAML `yaml:"displaced"`
}

type displacedYAML struct {
	Unit string `yaml:"unit"`
	From iw.Hex `yaml:"from"`
	To   iw.Hex `yaml:"to"`
}

type unitExpect struct {
	At         orders.Pos
	ID         string  `yaml:"id"`
	Hex        *iw.Hex `yaml:"hex"`
	Eliminated *bool   `yaml:"eliminated"`
	Waiting    *bool   `yaml:"waiting"`
}

// reachExpect is what Reach gives a unit in the case's Movement Phase,
// before the orders.
type reachExpect struct {
	At       orders.Pos
	Unit     string   `yaml:"unit"`
	Includes []iw.Hex `yaml:"includes"`
	Excludes []iw.Hex `yaml:"excludes"`
}

// columnExpect reads the table without a combat (rule 7.61).
type columnExpect struct {
	At           orders.Pos
	Line         string `yaml:"line"`
	Differential int    `yaml:"differential"`
	Column       int    `yaml:"column"`
}

type verdictExpect struct {
	At     orders.Pos
	Winner string `yaml:"winner"`
}

// factExpect is what the case's play recorded of a unit (rules 7.14,
// 7.96, 8.41, IW19): whether it attacked, was attacked, advanced, was
// displaced, gave FPF or carried out a result in the phase played.
type factExpect struct {
	At        orders.Pos
	Unit      string `yaml:"unit"`
	Attacked  *bool  `yaml:"attacked"`
	Defended  *bool  `yaml:"defended"`
	Advanced  *bool  `yaml:"advanced"`
	Displaced *bool  `yaml:"displaced"`
	FiredFPF  *bool  `yaml:"fired_fpf"`
	Adverse   *bool  `yaml:"adverse"`
}

// parser collects every mistake of one file.
type parser struct {
	errs orders.Errors
}

func (p *parser) fail(at orders.Pos, format string, args ...any) {
	p.errs = append(p.errs, orders.ErrAt(at.Line, at.Col, format, args...))
}

func nodePos(n *yaml.Node) orders.Pos { return orders.Pos{Line: n.Line, Col: n.Column} }

// keyPos gives where key is written in mapping n, or where n is.
func keyPos(n *yaml.Node, key string) orders.Pos {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return nodePos(n.Content[i])
		}
	}
	return nodePos(n)
}

// Parse reads an Island War rules case. A case that names a scenario has
// it read by load (nil: such a case is refused). The error, when not nil,
// is an orders.Errors listing every mistake with its line and column.
func Parse(data []byte, load Loader) (*Case, error) {
	root, errs := orders.ParseDocument(data, MaxSize)
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	var y caseYAML
	if errs := orders.DecodeStrict(root, &y); len(errs) > 0 {
		return nil, errs.Err()
	}
	p := &parser{}
	c := &Case{Name: y.Name, Rule: y.Rule, Description: y.Description, dice: y.Dice, expect: y.Expect}
	if y.System != System {
		p.fail(keyPos(root, "system"), "system: want %s for an Island War case (a War in the Wind case has no system: key)", System)
	}
	if strings.TrimSpace(y.Name) == "" {
		p.fail(keyPos(root, "name"), "name is missing: say in a line what the case shows")
	}
	if strings.TrimSpace(y.Rule) == "" {
		p.fail(keyPos(root, "rule"), "rule is missing: give the case numbers and rulings it shows, e.g. rule: \"7.74, IW9\"")
	}
	for i, d := range y.Dice {
		if d < 1 || d > 6 {
			p.fail(seqItemPos(root, "dice", i), "dice: %d is no roll of a six-sided die: want 1 to 6", d)
		}
	}
	s := p.scenario(c, root, &y, load)
	if s == nil {
		return nil, p.errs.Err()
	}
	c.eng = iw.New(s)
	p.position(c, root, &y)
	c.orders = y.Orders.typed()
	if y.Defence != nil {
		c.defence = iw.Defence{Own: y.Defence.Own.typed(), Advance: y.Defence.Advance}
		for _, f := range y.Defence.FPF {
			c.defence.FPF = append(c.defence.FPF, iw.FPFPlan{Protect: f.Protect, Artillery: f.Artillery, GSP: f.GSP, MinDifferential: f.MinDifferential, OnlyBanzai: f.OnlyBanzai})
		}
	}
	c.combat = c.start.Phase == iw.PhaseCombat || len(y.Orders.Attacks) > 0 || y.Defence != nil
	p.expectations(c, &y.Expect)
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// seqItemPos gives where item i of the list under key is written.
func seqItemPos(root *yaml.Node, key string, i int) orders.Pos {
	for k := 0; k+1 < len(root.Content); k += 2 {
		if root.Content[k].Value == key {
			v := root.Content[k+1]
			if v.Kind == yaml.SequenceNode && i < len(v.Content) {
				return nodePos(v.Content[i])
			}
			return nodePos(v)
		}
	}
	return nodePos(root)
}

func valueOf(root *yaml.Node, key string) *yaml.Node {
	for k := 0; k+1 < len(root.Content); k += 2 {
		if root.Content[k].Value == key {
			return root.Content[k+1]
		}
	}
	return nil
}

// The key of an inline map: what a small synthetic map needs. Town is on
// the Broken/Town line and open to armor (rule 5.25); a cliff is a
// prohibited hexside; sea is impassable.
var inlineKey = iw.Key{
	Terrain: []iw.TerrainType{
		{Name: "clear", MP: 1, Line: iw.LineClear, Armor: true},
		{Name: "town", MP: 2, Line: iw.LineBroken, Armor: true},
		{Name: "broken", MP: 2, Line: iw.LineBroken},
		{Name: "rough", MP: 3, Line: iw.LineRough},
		{Name: "jungle", MP: 2, Line: iw.LineBroken},
		{Name: "sea", MP: 9, Line: iw.LineClear, Impassable: true},
	},
	Hexsides: []iw.Feature{
		{Name: "river", Class: iw.ClassRiver, MP: 1},
		{Name: "road", Class: iw.ClassRoad},
		{Name: "trail", Class: iw.ClassTrail},
		{Name: "cliff", Class: iw.ClassProhibited},
		{Name: "gully", Class: iw.ClassOther, MP: 1, Line: iw.LineRough},
	},
}

func names[T any](xs []T, name func(T) string) string {
	var out []string
	for _, x := range xs {
		out = append(out, name(x))
	}
	return strings.Join(out, ", ")
}

var classes = []iw.Class{iw.Infantry, iw.Engineer, iw.Armor, iw.Artillery, iw.Other}

// scenario gives the case's scenario: the named file's, or one built from
// the inline map and units.
func (p *parser) scenario(c *Case, root *yaml.Node, y *caseYAML, load Loader) *iw.Scenario {
	switch {
	case y.Scenario != "" && y.Map != nil:
		p.fail(keyPos(root, "map"), "a case names a scenario or gives a map, not both")
		return nil
	case y.Scenario != "":
		at := nodePos(valueOf(root, "scenario"))
		if load == nil {
			p.fail(at, "scenario: this reader cannot open files; give the case a map: instead")
			return nil
		}
		data, err := load(y.Scenario)
		if err != nil {
			p.fail(at, "scenario: %v", err)
			return nil
		}
		s, ps := islandorders.ParseScenario(data)
		if len(ps) > 0 {
			p.fail(at, "scenario %s is not a sound scenario (check it with attu scenario check): %v", y.Scenario, ps[0])
			return nil
		}
		c.scenario = y.Scenario
		p.overrides(s, y.Units)
		p.rules(s, root, y)
		return s
	case y.Map == nil:
		p.fail(nodePos(root), "the case needs a map: (a small map inline) or a scenario: (a scenario file)")
		return nil
	}
	m := y.Map
	s := &iw.Scenario{Name: y.Name, Invented: true, Key: inlineKey, DefaultTerrain: "clear",
		Grid: iw.Grid{Columns: m.Columns, Rows: m.Rows, Shifted: iw.ShiftEven}, GameTurns: 10}
	if m.Columns < 1 || m.Rows < 1 || m.Columns > MaxMapSide || m.Rows > MaxMapSide {
		p.fail(m.At, "map: columns and rows must each be 1 to %d: a case's map is a small one", MaxMapSide)
		return nil
	}
	switch m.Shifted {
	case "", iw.ShiftEven:
	case iw.ShiftOdd:
		s.Grid.Shifted = iw.ShiftOdd
	default:
		p.fail(keyPos(mapNode(root), "shifted"), "map: shifted: want even or odd")
	}
	terrains := names(inlineKey.Terrain, func(t iw.TerrainType) string { return t.Name })
	known := func(name string) bool {
		return slices.ContainsFunc(inlineKey.Terrain, func(t iw.TerrainType) bool { return t.Name == name })
	}
	if m.Default != "" {
		if known(m.Default) {
			s.DefaultTerrain = m.Default
		} else {
			p.fail(keyPos(mapNode(root), "default"), "map: default: no terrain %q; the terrains are %s", m.Default, terrains)
		}
	}
	if m.Terrain.Kind != 0 {
		s.Terrain = map[iw.Hex]string{}
		for _, kv := range p.pairs(&m.Terrain, "map: terrain") {
			if !known(kv[0].Value) {
				p.fail(nodePos(kv[0]), "map: terrain: no terrain %q; the terrains are %s", kv[0].Value, terrains)
				continue
			}
			var hs []iw.Hex
			p.errs = append(p.errs, orders.DecodeStrictIn(kv[1], &hs, "map: terrain: "+kv[0].Value)...)
			for i, h := range hs {
				if !s.Grid.On(h) {
					p.fail(nodePos(kv[1].Content[i]), "map: terrain: %s is off the map", h)
				}
				s.Terrain[h] = kv[0].Value
			}
		}
	}
	features := names(inlineKey.Hexsides, func(f iw.Feature) string { return f.Name })
	if m.Hexsides.Kind != 0 {
		s.Hexsides = map[iw.Pair][]string{}
		for _, kv := range p.pairs(&m.Hexsides, "map: hexsides") {
			if !slices.ContainsFunc(inlineKey.Hexsides, func(f iw.Feature) bool { return f.Name == kv[0].Value }) {
				p.fail(nodePos(kv[0]), "map: hexsides: no feature %q; the features are %s", kv[0].Value, features)
				continue
			}
			var prs []iw.Pair
			p.errs = append(p.errs, orders.DecodeStrictIn(kv[1], &prs, "map: hexsides: "+kv[0].Value)...)
			for i, pr := range prs {
				if !s.Grid.On(pr.A) || !s.Grid.On(pr.B) || !s.Grid.Adjacent(pr.A, pr.B) {
					p.fail(nodePos(kv[1].Content[i]), "map: hexsides: %s does not join two neighbouring hexes of the map", pr)
					continue
				}
				s.Hexsides[pr] = append(s.Hexsides[pr], kv[0].Value)
			}
		}
	}
	for _, k := range classes {
		s.Kinds = append(s.Kinds, iw.Kind{Name: string(k), Class: k})
	}
	seen := map[string]bool{}
	for _, u := range y.Units {
		if u.ID == "" {
			p.fail(u.At, "units: a unit needs an id")
			continue
		}
		if seen[u.ID] {
			p.fail(u.At, "units: %s is listed twice", u.ID)
			continue
		}
		seen[u.ID] = true
		side, ok := sideOf(u.Side)
		if !ok {
			p.fail(u.At, "units: %s: side: want us or japan", u.ID)
		}
		if !slices.Contains(classes, iw.Class(u.Class)) {
			p.fail(u.At, "units: %s: class: want infantry, engineer, armor, artillery or other", u.ID)
		}
		nu := iw.Unit{ID: u.ID, Side: side, Kind: u.Class}
		p.setValues(&nu, u)
		if iw.Class(u.Class) == iw.Artillery && (nu.Barrage == 0 && nu.Range == 0) {
			p.fail(u.At, "units: %s: artillery needs barrage and range", u.ID)
		}
		s.Units = append(s.Units, nu)
		if u.Due != nil {
			if len(u.Entry) == 0 {
				p.fail(u.At, "units: %s: a reinforcement (due:) needs entry: hexes", u.ID)
			}
			for _, h := range u.Entry {
				if !s.Grid.On(h) {
					p.fail(u.At, "units: %s: entry %s is off the map", u.ID, h)
				}
			}
			s.Reinforcements = append(s.Reinforcements, iw.Reinforcement{Turn: *u.Due, Side: side, Units: []string{u.ID}, Entry: u.Entry})
		}
	}
	s.FirstPlayer = iw.US
	p.rules(s, root, y)
	return s
}

func mapNode(root *yaml.Node) *yaml.Node {
	if n := valueOf(root, "map"); n != nil {
		return n
	}
	return root
}

// rules sets what the case says of the game around the position.
func (p *parser) rules(s *iw.Scenario, root *yaml.Node, y *caseYAML) {
	if y.FirstPlayer != "" {
		side, ok := sideOf(y.FirstPlayer)
		if !ok {
			p.fail(keyPos(root, "first_player"), "first_player: want us or japan")
		}
		s.FirstPlayer = side
	} else if y.Map != nil && y.Phasing != "" {
		s.FirstPlayer, _ = sideOf(y.Phasing)
	}
	if y.GameTurns != nil {
		if *y.GameTurns < 1 {
			p.fail(keyPos(root, "game_turns"), "game_turns: want 1 or more")
		}
		s.GameTurns = *y.GameTurns
	}
	if y.GSPRange != nil {
		s.Rules.GSPRange = *y.GSPRange
	}
}

func sideOf(s string) (iw.Side, bool) {
	switch s {
	case "us":
		return iw.US, true
	case "japan":
		return iw.Japan, true
	}
	return "", false
}

// setValues puts the values the case gives over a unit's.
func (p *parser) setValues(nu *iw.Unit, u unitYAML) {
	for _, v := range []struct {
		name string
		to   *int
		from *int
	}{{"attack", &nu.Attack, u.Attack}, {"defense", &nu.Defense, u.Defense}, {"movement", &nu.Movement, u.Movement},
		{"barrage", &nu.Barrage, u.Barrage}, {"fpf", &nu.FPF, u.FPF}, {"range", &nu.Range, u.Range}} {
		if v.from == nil {
			continue
		}
		if *v.from < 0 || *v.from > MaxValue {
			p.fail(u.At, "units: %s: %s: %d: want 0 to %d", u.ID, v.name, *v.from, MaxValue)
			continue
		}
		*v.to = *v.from
	}
}

// overrides puts the case's printed values over a scenario's units.
func (p *parser) overrides(s *iw.Scenario, units []unitYAML) {
	for _, u := range units {
		k := slices.IndexFunc(s.Units, func(x iw.Unit) bool { return x.ID == u.ID })
		if k < 0 {
			p.fail(u.At, "units: the scenario has no unit %q", u.ID)
			continue
		}
		if u.Side != "" || u.Class != "" || u.Due != nil || len(u.Entry) > 0 {
			p.fail(u.At, "units: %s: side, class, due and entry are the scenario's; give only its hex, values and facts", u.ID)
		}
		p.setValues(&s.Units[k], u)
	}
}

// pairs gives the key and value nodes of a mapping.
func (p *parser) pairs(n *yaml.Node, what string) [][2]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		p.fail(nodePos(n), "%s: want name: [list] lines, got %s", what, orders.Describe(n))
		return nil
	}
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
	}
	return out
}

// position builds the position the case poses.
func (p *parser) position(c *Case, root *yaml.Node, y *caseYAML) {
	e := c.eng
	s := e.S
	pos := iw.Position{Turn: 1, Phasing: s.FirstPlayer, Phase: iw.PhaseMovement, Combats: 1, GSP: map[iw.Side]int{}}
	if y.Turn != nil {
		if *y.Turn < 1 || *y.Turn > s.GameTurns {
			p.fail(keyPos(root, "turn"), "turn: want 1 to %d, the game's Game-Turns", s.GameTurns)
		}
		pos.Turn = *y.Turn
	}
	if y.Phasing != "" {
		side, ok := sideOf(y.Phasing)
		if !ok {
			p.fail(keyPos(root, "phasing"), "phasing: want us or japan")
		}
		pos.Phasing = side
	}
	switch y.Phase {
	case "", "movement":
	case "combat":
		pos.Phase, pos.Combats = iw.PhaseCombat, 2
	default:
		p.fail(keyPos(root, "phase"), "phase: want movement or combat")
	}
	this := pos.Combats
	if pos.Phase == iw.PhaseMovement {
		this++ // the Combat Phase that follows
	}
	for _, side := range []iw.Side{iw.US, iw.Japan} {
		pos.GSP[side] = s.SupportFor(pos.Turn, side)
	}
	for k, v := range y.GSP {
		side, ok := sideOf(k)
		if !ok || v < 0 {
			p.fail(keyPos(valueOf(root, "gsp"), k), "gsp: want us: N and japan: N, points left this Game-Turn")
			continue
		}
		pos.GSP[side] = v
	}
	pos.Pieces = make([]iw.Piece, len(s.Units))
	for i, u := range s.Units {
		pos.Pieces[i] = iw.Piece{ID: u.ID, Where: iw.Waiting}
	}
	held := map[iw.Hex]string{}
	for _, u := range y.Units {
		pc, ok := e.Piece(pos, u.ID)
		if !ok {
			continue
		}
		i := slices.IndexFunc(s.Units, func(x iw.Unit) bool { return x.ID == u.ID })
		switch {
		case u.Hex != nil:
			h := *u.Hex
			if !s.Grid.On(h) {
				p.fail(u.At, "units: %s: hex %s is off the map", u.ID, h)
				continue
			}
			if s.TerrainOf(h).Impassable {
				p.fail(u.At, "units: %s: hex %s is impassable", u.ID, h)
			}
			if other, ok := held[h]; ok {
				p.fail(u.At, "units: %s: hex %s already holds %s; no stacking (rule 5.31)", u.ID, h, other)
			}
			held[h] = u.ID
			pc.Where, pc.Hex = iw.OnMap, h
		case u.Due != nil:
			pc.Due = *u.Due
		default:
			due := 0
			for _, r := range s.Reinforcements {
				if slices.Contains(r.Units, u.ID) {
					due = r.Turn
				}
			}
			if due == 0 {
				p.fail(u.At, "units: %s needs a hex (or due: and entry: for a reinforcement)", u.ID)
			}
			pc.Due = due
		}
		if u.Attacked {
			pc.Attacked = this
		}
		if u.Defended {
			pc.Defended = this
		}
		if u.Advanced {
			pc.Advanced = this
		}
		if u.Displaced {
			pc.Displaced, pc.Adverse = this, this
		}
		if u.FiredFPF {
			pc.FPF = this
		}
		switch u.Adverse {
		case "":
		case "this":
			pc.Adverse = this
		case "last":
			pc.Adverse = this - 1
		default:
			p.fail(u.At, "units: %s: adverse: want this or last (the Combat Phase it carried out a combat result in)", u.ID)
		}
		pos.Pieces[i] = pc
	}
	c.start = pos
}

func (o ordersYAML) typed() iw.Orders {
	var out iw.Orders
	for _, m := range o.Moves {
		out.Moves = append(out.Moves, iw.Move{Unit: m.Unit, Path: m.Path})
	}
	for _, a := range o.Attacks {
		ta := iw.Attack{Defenders: a.Defenders, Attackers: a.Attackers, Barrage: a.Barrage, GSP: a.GSP, Banzai: a.Banzai, Removals: a.Removals}
		for _, adv := range a.Advance {
			ta.Advance = append(ta.Advance, iw.Advance{Unit: adv.Unit, To: adv.To})
		}
		out.Attacks = append(out.Attacks, ta)
	}
	out.Own = o.Own.typed()
	return out
}

func (in instrYAML) typed() iw.Instructions {
	out := iw.Instructions{Order: in.Order, Displace: in.Displace}
	if len(in.Retreats) > 0 {
		out.Retreats = map[string]iw.RetreatPlan{}
		for id, pl := range in.Retreats {
			out.Retreats[id] = iw.RetreatPlan{Paths: pl.Paths, Toward: pl.Toward}
		}
	}
	return out
}

var results = []string{"NE", "A1", "A2", "A3", "Ae", "D1", "D2", "D3", "De"}
var lines = []string{"clear", "river", "broken", "rough"}

// expectations checks what can be checked before the case runs.
func (p *parser) expectations(c *Case, e *expectYAML) {
	unitKnown := func(at orders.Pos, id string) {
		if _, ok := c.eng.S.Unit(id); !ok {
			p.fail(at, "expect: no unit %q in the case", id)
		}
	}
	for _, a := range e.Attacks {
		if a.Result != "" && !slices.Contains(results, a.Result) {
			p.fail(a.At, "expect: attacks: result %q: want one of %s", a.Result, strings.Join(results, ", "))
		}
		if a.Line != "" && !slices.Contains(lines, a.Line) {
			p.fail(a.At, "expect: attacks: line %q: want one of %s", a.Line, strings.Join(lines, ", "))
		}
	}
	for _, u := range e.Units {
		unitKnown(u.At, u.ID)
	}
	for _, f := range e.Facts {
		unitKnown(f.At, f.Unit)
	}
	for _, r := range e.Reach {
		unitKnown(r.At, r.Unit)
	}
	for _, col := range e.Column {
		if !slices.Contains(lines, col.Line) {
			p.fail(col.At, "expect: column: line %q: want one of %s", col.Line, strings.Join(lines, ", "))
		}
	}
	if e.Phase != "" && !slices.Contains([]string{"movement", "combat", "over"}, e.Phase) {
		p.fail(e.At, "expect: phase: want movement, combat or over")
	}
	if e.Phasing != "" {
		if _, ok := sideOf(e.Phasing); !ok {
			p.fail(e.At, "expect: phasing: want us or japan")
		}
	}
	if e.Verdict != nil && e.Verdict.Winner != "" && e.Verdict.Winner != "draw" {
		if _, ok := sideOf(e.Verdict.Winner); !ok {
			p.fail(e.Verdict.At, "expect: verdict: winner: want us, japan or draw")
		}
	}
}
