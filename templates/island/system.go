package island

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/attu-pbem/attu/adjudicator"
	iw "github.com/attu-pbem/attu/adjudicator/island"
	islandwar "github.com/attu-pbem/attu/examples/island-war"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/store"
)

// Name is the system's name, recorded with every game it plays.
const Name = "island-war"

// DefaultScenario is the scenario a game names none of is played with.
const DefaultScenario = "ridge-42"

// Shipped are the scenario files attu carries, by the names games are
// created with.
var Shipped = map[string][]byte{DefaultScenario: islandwar.Ridge42}

// Rules are Island War's rules as the store applies and audits them and
// as the game service plays them (store.Rules, referee.System): positions
// are *Position, orders oi.Orders or, read from a player's file, Filed.
// The zero value knows the Shipped scenarios; WithScenarios adds the
// operator's. The value is comparable, as the host may compare systems.
type Rules struct {
	files *scenarioFiles
}

// scenarioFiles are an operator's scenario files by name.
type scenarioFiles struct{ byName map[string][]byte }

// WithScenarios returns the rules with the operator's scenario files by
// name besides Shipped; a file named as a shipped one is left out.
func WithScenarios(files map[string][]byte) Rules {
	return Rules{files: &scenarioFiles{byName: maps.Clone(files)}}
}

// System returns Name.
func (Rules) System() string { return Name }

// Faces is the six-sided die of rule 2.5.
func (Rules) Faces() int { return 6 }

// catalog lists every scenario file the value knows, by name.
func (r Rules) catalog() map[string][]byte {
	out := maps.Clone(Shipped)
	if r.files == nil {
		return out
	}
	for n, b := range r.files.byName {
		if _, shipped := out[n]; !shipped {
			out[n] = b
		}
	}
	return out
}

// Scenarios names the scenarios a game can be created with.
func (r Rules) Scenarios() []string { return slices.Sorted(maps.Keys(r.catalog())) }

// ScenarioName names a scenario for players.
func (r Rules) ScenarioName(name string) string {
	if raw, ok := r.catalog()[name]; ok {
		if e, err := engineOf(raw); err == nil {
			return e.S.Name
		}
	}
	return name
}

// RuleSetups are the setups by the rules a game may choose: none, since
// every scenario places its units by its Initial Deployment Charts.
func (Rules) RuleSetups() []string { return nil }

// Allows reports whether a game of scenario may be played with an
// optional rule: the standard rules have none.
func (Rules) Allows(scenario, rule string) bool { return false }

// Option reads an optional rule as a tournament file's rules: write it.
// The standard rules have no optional rules, so every key is refused.
func (Rules) Option(key, value, scenario string) ([]string, error) {
	return nil, fmt.Errorf("%q is not an optional rule of Island War: its standard rules have none (settle is the only key)", key)
}

// LevelWords are the standings' words for a victory's level: each
// scenario's victory conditions name it, in every game (Level grades its
// word), so the scoring line tells those points whatever the file says.
func (Rules) LevelWords(optional bool) (rule, decides string) {
	return "by the scenario's victory conditions",
		"a scenario's victory conditions name a level of victory (decisive and strategic count as major, substantive and tactical as minor)"
}

// Ref names the scenario a game is played with: the name it was created
// with and the SHA-256 of its file, by which a game finds it again.
type Ref struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

func refOf(name string, raw []byte) Ref {
	sum := sha256.Sum256(raw)
	return Ref{Name: name, SHA256: hex.EncodeToString(sum[:])}
}

// engines holds every scenario parsed so far by the SHA-256 of its file:
// a scenario is parsed once however many positions are read, and the
// engine is read-only, so sharing it is safe.
var engines sync.Map // string -> *iw.Engine

// engineOf parses a scenario file into an engine, once per file.
func engineOf(raw []byte) (*iw.Engine, error) {
	sum := sha256.Sum256(raw)
	key := string(sum[:])
	if e, ok := engines.Load(key); ok {
		return e.(*iw.Engine), nil
	}
	s, ps := oi.ParseScenario(raw)
	if len(ps) > 0 {
		return nil, fmt.Errorf("the scenario does not check: %v", ps)
	}
	e := iw.New(s)
	engines.Store(key, e)
	return e, nil
}

// find gives the engine of the scenario ref names: any file of the
// catalog whose SHA-256 is ref's, so that a game goes on even when its
// file was renamed, and never with a file changed since it began.
func (r Rules) find(ref Ref) (*iw.Engine, error) {
	cat := r.catalog()
	names := slices.Sorted(maps.Keys(cat))
	if _, ok := cat[ref.Name]; ok {
		names = append([]string{ref.Name}, names...)
	}
	for _, n := range names {
		if refOf(n, cat[n]).SHA256 == ref.SHA256 {
			return engineOf(cat[n])
		}
	}
	return nil, fmt.Errorf("no scenario file with SHA-256 %s (the game's %q): give the file it was created with", ref.SHA256, ref.Name)
}

// Position is an Island War game between two steps: the engine's
// position, the scenario it is played with, each side's standing
// instructions (IW24) and, between the orders and defence waits, the
// phasing player's orders waiting for the defence (IW25). Standing
// instructions and the pending orders are hidden from the enemy (IW26):
// only the reports, which never show them, leave the server.
type Position struct {
	Scenario Ref                     `json:"scenario"`
	Game     iw.Position             `json:"game"`
	Standing map[iw.Side]oi.Standing `json:"standing,omitempty"`
	Pending  *iw.Orders              `json:"pending,omitempty"`

	e *iw.Engine
}

// Engine is the rules engine of the position's scenario.
func (p *Position) Engine() *iw.Engine { return p.e }

// Wait is what the game waits for (IW22): the set-up of the side placing,
// the phasing player's orders, the defender's answer while orders are
// pending, or nothing once the last Game-Turn is over.
func (p *Position) Wait() adjudicator.Wait {
	g := p.Game
	switch {
	case g.Phase == iw.PhaseOver:
		return adjudicator.Wait{Turn: g.Turn, Kind: adjudicator.WaitEnded}
	case g.Phase == iw.PhaseSetup:
		return adjudicator.Wait{Turn: 1, Side: hostSide(g.Phasing), Kind: oi.WaitSetup}
	case p.Pending != nil:
		return adjudicator.Wait{Turn: g.Turn, Side: hostSide(g.Phasing.Enemy()), Kind: oi.WaitDefence}
	}
	return adjudicator.Wait{Turn: g.Turn, Side: hostSide(g.Phasing), Kind: oi.WaitOrders}
}

// Validate reports why the rules cannot reach the position.
func (p *Position) Validate() error {
	if p.e == nil {
		return fmt.Errorf("island war position without its scenario")
	}
	g := p.Game
	switch g.Phase {
	case iw.PhaseSetup, iw.PhaseMovement, iw.PhaseOver:
		if p.Pending != nil {
			return fmt.Errorf("orders pending in the %s phase: only a Combat Phase waits for the defence", g.Phase)
		}
	case iw.PhaseCombat:
		if p.Pending == nil {
			return fmt.Errorf("a Combat Phase waiting for nothing: the phasing player's orders are resolved with his moves")
		}
	default:
		return fmt.Errorf("unknown phase %q", g.Phase)
	}
	if g.Phasing != iw.US && g.Phasing != iw.Japan {
		return fmt.Errorf("unknown phasing side %q", g.Phasing)
	}
	if g.Phase != iw.PhaseSetup && (g.Turn < 1 || g.Turn > p.e.S.GameTurns) {
		return fmt.Errorf("Game-Turn %d outside 1 to %d", g.Turn, p.e.S.GameTurns)
	}
	held := map[iw.Hex]string{}
	for _, pc := range g.Pieces {
		if pc.Where != iw.OnMap {
			continue
		}
		if other, ok := held[pc.Hex]; ok {
			return fmt.Errorf("%s and %s both in hex %s (rule 5.31)", other, pc.ID, pc.Hex)
		}
		held[pc.Hex] = pc.ID
	}
	for s, n := range g.GSP {
		if n < 0 {
			return fmt.Errorf("%s has %d ground support points", s, n)
		}
	}
	for s := range p.Standing {
		if s != iw.US && s != iw.Japan {
			return fmt.Errorf("standing instructions of unknown side %q", s)
		}
	}
	return nil
}

// clone gives a copy of p that shares nothing p's fields can change.
func (p *Position) clone() *Position {
	q := *p
	q.Game = p.Game.Clone()
	q.Standing = maps.Clone(p.Standing)
	return &q
}

// Position reads a position from its JSON and finds its scenario again
// by the SHA-256 of its file.
func (r Rules) Position(b []byte) (adjudicator.Position, error) {
	p := new(Position)
	if err := json.Unmarshal(b, p); err != nil {
		return nil, fmt.Errorf("decoding island war position: %w", err)
	}
	e, err := r.find(p.Scenario)
	if err != nil {
		return nil, err
	}
	g, err := e.Unmarshal(mustJSON(p.Game))
	if err != nil {
		return nil, err
	}
	p.Game, p.e = g, e
	return p, nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Positions and events are plain data: this does not happen.
		panic(fmt.Sprintf("encoding: %v", err))
	}
	return b
}

// Orders reads orders from their JSON, as a log entry records them.
func (Rules) Orders(b []byte) (adjudicator.Orders, error) {
	var o oi.Orders
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("decoding island war orders: %w", err)
	}
	return o, nil
}

// Reread decodes an order file again, so that the audit replays the
// orders the player wrote.
func (Rules) Reread(raw []byte) (adjudicator.Orders, error) {
	f, err := oi.ReadOrders(raw)
	if err != nil {
		return nil, err
	}
	return f.Orders, nil
}

// Filed is a side's orders with the file they were read from, so that
// the rules' problems are placed at its lines. Its JSON is the orders'
// alone (never the token).
type Filed struct{ *oi.OrderFile }

// MarshalJSON writes the orders alone.
func (f Filed) MarshalJSON() ([]byte, error) { return json.Marshal(f.OrderFile.Orders) }

// ordersOf returns the Island War orders o holds and their file, if any.
func ordersOf(o adjudicator.Orders) (oi.Orders, *oi.OrderFile, bool) {
	switch v := o.(type) {
	case Filed:
		return v.Orders, v.OrderFile, v.OrderFile != nil
	case *Filed:
		return v.Orders, v.OrderFile, v != nil && v.OrderFile != nil
	case oi.Orders:
		return v, nil, true
	case *oi.Orders:
		return *v, nil, v != nil
	}
	return oi.Orders{}, nil, false
}

// both returns the Island War position and orders of p and o.
func both(p adjudicator.Position, o adjudicator.Orders) (*Position, oi.Orders, *oi.OrderFile, error) {
	pos, ok := p.(*Position)
	ord, file, ok2 := ordersOf(o)
	if !ok || !ok2 || pos.e == nil {
		return nil, oi.Orders{}, nil, fmt.Errorf("not Island War: %T, %T", p, o)
	}
	return pos, ord, file, nil
}

// hostSide and ruleSide translate between the host's sides and the
// engine's.
func hostSide(s iw.Side) adjudicator.Side {
	if s == iw.Japan {
		return adjudicator.JP
	}
	return adjudicator.US
}

func ruleSide(s adjudicator.Side) iw.Side {
	if s == adjudicator.JP {
		return iw.Japan
	}
	return iw.US
}

// DieCombat is the purpose of the one roll of the standard rules, the
// Combat Results Table's (rule 7.61).
const DieCombat adjudicator.DiePurpose = "combat"

// hostDice rolls the engine's dice from the host's: each attack's die is
// rolled in the open by the phasing side (rule 2.5, IW26).
type hostDice struct{ d adjudicator.Dice }

// Roll reads the host's face as a d6: 1 to 6, a 0 as the highest face
// (adjudicator.Dice), so that the table is never read off its rows.
func (h hostDice) Roll(d iw.Die) int {
	f := h.d.Roll(adjudicator.Die{Purpose: DieCombat, Side: hostSide(d.Side), Seen: adjudicator.AudienceBoth})
	return ((f-1)%6+6)%6 + 1
}

// LuckRules judges the combat die by its mean face: the table of rule
// 7.61 gives the attacker (the phasing side, who rolls) its better
// results on the lower faces of every column.
func (Rules) LuckRules() adjudicator.LuckRules {
	return adjudicator.LuckRules{Ranked: []adjudicator.RankedKind{{Name: "combat", Purposes: []adjudicator.DiePurpose{DieCombat}, Low: true}}}
}

// Stale says why o does not answer what p waits for, at the start of its
// file; nil when it does.
func (Rules) Stale(p adjudicator.Position, o adjudicator.Orders) *adjudicator.Problem {
	pos, ord, file, err := both(p, o)
	if err != nil {
		return &adjudicator.Problem{Msg: err.Error()}
	}
	return stale(pos, ord, file)
}

func stale(pos *Position, ord oi.Orders, file *oi.OrderFile) *adjudicator.Problem {
	w, got := pos.Wait(), ord.Answering()
	if w == got {
		return nil
	}
	out := &adjudicator.Problem{Msg: fmt.Sprintf("these orders answer %s, but the game waits for %s", waitWords(got), waitWords(w))}
	if !w.Open() {
		out.Msg = fmt.Sprintf("these orders answer %s, but the game is over", waitWords(got))
	}
	if file != nil {
		key := "side"
		switch {
		case got.Kind != w.Kind:
			key = "wait"
		case got.Turn != w.Turn:
			key = "turn"
		}
		out.Line, out.Col = file.Key(key)
	}
	return out
}

// Check judges o against p as Resolve would, without resolving it.
func (Rules) Check(p adjudicator.Position, o adjudicator.Orders) []adjudicator.Problem {
	pos, ord, file, err := both(p, o)
	if err != nil {
		return []adjudicator.Problem{{Msg: err.Error()}}
	}
	if pr := stale(pos, ord, file); pr != nil {
		return []adjudicator.Problem{*pr}
	}
	_, ps := judge(pos, ord)
	return placedIn(file, ps)
}

// judge checks o against p and gives the position its moves or placements
// reach, before any die: Deploy for a set-up; Move and the attacks' check
// against the moved position (IW23) for orders; nothing for a defence but
// its own units (IW25). Standing instructions must name the side's own
// units.
func judge(pos *Position, o oi.Orders) (iw.Position, []iw.Problem) {
	e, g := pos.e, pos.Game
	side := ruleSide(o.Side)
	ps := standingProblems(e, side, o)
	switch o.Wait {
	case oi.WaitSetup:
		q, _, more := e.Deploy(g, o.Setup)
		return q, append(ps, more...)
	case oi.WaitOrders:
		play := iw.Orders{}
		if o.Play != nil {
			play = *o.Play
		}
		q, _, more := e.Move(g, play)
		if len(more) > 0 {
			return g, append(append(ps, more...), attacksBeside(e, g, play, more)...)
		}
		return q, append(ps, e.CheckAttacks(q, play.Attacks)...)
	}
	return g, ps
}

// attacksBeside finds the problems of a file's attacks when its moves are
// refused, so that a player learns of every mistake at once: each move
// refused on its own is left out, and the attacks are judged after the
// others; only problems of single attacks that name no unit whose move
// was left out are kept, since the rest may come of the refused moves.
// When a refusal concerns the moves together (rule 5.31), nothing is
// added.
func attacksBeside(e *iw.Engine, g iw.Position, play iw.Orders, refused []iw.Problem) []iw.Problem {
	bad := map[string]bool{}
	for _, p := range refused {
		if !strings.HasPrefix(p.Order, "moves[") {
			return nil
		}
		bad[p.Order] = true
	}
	var keep []iw.Move
	left := map[string]bool{}
	for k, m := range play.Moves {
		if bad[fmt.Sprintf("moves[%d]", k)] {
			left[m.Unit] = true
			continue
		}
		keep = append(keep, m)
	}
	q, _, more := e.Move(g, iw.Orders{Moves: keep})
	if len(more) > 0 {
		return nil
	}
	var out []iw.Problem
	for _, p := range e.CheckAttacks(q, play.Attacks) {
		var k int
		if _, err := fmt.Sscanf(p.Order, "attacks[%d]", &k); err != nil || k < 0 || k >= len(play.Attacks) {
			continue
		}
		a := play.Attacks[k]
		if !slices.ContainsFunc(slices.Concat(a.Attackers, a.Barrage, a.Defenders), func(id string) bool { return left[id] }) {
			out = append(out, p)
		}
	}
	return out
}

// standingProblems checks the unit ids of the file's defence and standing
// instructions: each names one of the side's own units, its guns
// artillery (rules 8.4, 7.7).
func standingProblems(e *iw.Engine, side iw.Side, o oi.Orders) []iw.Problem {
	var ps []iw.Problem
	check := func(where string, d *iw.Defence) {
		if d == nil {
			return
		}
		own := func(at, id, what string) {
			u, ok := e.S.Unit(id)
			switch {
			case !ok:
				ps = append(ps, iw.Problem{Rule: "IW24", Order: at, Msg: fmt.Sprintf("%s %q is no unit of this scenario", what, id)})
			case u.Side != side:
				ps = append(ps, iw.Problem{Rule: "IW24", Order: at, Unit: id, Msg: fmt.Sprintf("%s is a unit of %s, not yours", what, u.Side)})
			}
		}
		for i, f := range d.FPF {
			at := fmt.Sprintf("%s.fpf[%d]", where, i)
			own(at, f.Protect, "protect:")
			for _, a := range f.Artillery {
				own(at, a, "artillery:")
				if u, ok := e.S.Unit(a); ok && e.S.ClassOf(u) != iw.Artillery {
					ps = append(ps, iw.Problem{Rule: "8.4", Order: at, Unit: a, Msg: "is not artillery and gives no final protective fire"})
				}
			}
		}
		for _, id := range slices.Sorted(maps.Keys(d.Own.Retreats)) {
			own(where, id, "retreats:")
		}
		for _, id := range d.Own.Order {
			own(where, id, "order:")
		}
		for _, id := range slices.Sorted(maps.Keys(d.Own.Displace)) {
			own(where, id, "displace:")
		}
	}
	check("defence", o.Defence)
	if o.Standing != nil {
		check("standing", &o.Standing.Defence)
	}
	return ps
}

// Resolve checks that the orders answer what the game waits for, then
// plays them (IW22): a set-up is deployed; a Player-Turn's moves are made
// and its attacks, when the defender asked to see them (IW25), wait for
// his answer, else are resolved at once with his standing instructions
// (IW24); a defence resolves the pending attacks. The file's standing
// instructions replace the side's.
func (Rules) Resolve(p adjudicator.Position, o adjudicator.Orders, d adjudicator.Dice) (adjudicator.Position, json.RawMessage, *adjudicator.Refusal) {
	pos, ord, file, err := both(p, o)
	if err != nil {
		return nil, nil, &adjudicator.Refusal{Problems: []adjudicator.Problem{{Msg: err.Error()}}}
	}
	if pr := stale(pos, ord, file); pr != nil {
		return nil, nil, &adjudicator.Refusal{Stale: true, Problems: []adjudicator.Problem{*pr}}
	}
	if _, ps := judge(pos, ord); len(ps) > 0 {
		return nil, nil, &adjudicator.Refusal{Problems: placedIn(file, ps)}
	}
	next, evs := play(pos, ord, d)
	var b json.RawMessage
	if len(evs) > 0 {
		b = mustJSON(evs)
	}
	return next, b, nil
}

// play applies orders judge has passed.
func play(pos *Position, o oi.Orders, d adjudicator.Dice) (*Position, []iw.Event) {
	e := pos.e
	q := pos.clone()
	side := ruleSide(o.Side)
	var evs []iw.Event
	var ps []iw.Problem
	dice := hostDice{d: d}
	switch o.Wait {
	case oi.WaitSetup:
		q.Game, evs, ps = e.Deploy(pos.Game, o.Setup)
	case oi.WaitOrders:
		orders := iw.Orders{}
		if o.Play != nil {
			orders = *o.Play
		}
		var moved iw.Position
		moved, evs, ps = e.Move(pos.Game, orders)
		enemy := side.Enemy()
		if len(orders.Attacks) > 0 && pos.Standing[enemy].Ask {
			orders.Own = oi.Tidy(orders.Own)
			q.Game, q.Pending = moved, &orders
			for k, a := range orders.Attacks {
				evs = append(evs, iw.Event{Kind: EvDeclared, Turn: moved.Turn, Side: side, Combat: &iw.CombatReport{
					Index: k, Attackers: a.Attackers, Barrage: a.Barrage, Defenders: a.Defenders, GSP: a.GSP, Banzai: a.Banzai}})
			}
			break
		}
		var more []iw.Event
		q.Game, more, ps = e.Combat(moved, orders, pos.Standing[enemy].Defence, dice)
		evs = append(evs, more...)
	case oi.WaitDefence:
		def := iw.Defence{}
		if o.Defence != nil {
			def = *o.Defence
		}
		q.Game, evs, ps = e.Combat(pos.Game, *pos.Pending, def, dice)
		q.Pending = nil
	}
	if len(ps) > 0 {
		// judge passed the same orders against the same position.
		panic(fmt.Sprintf("island war: orders judged legal refused: %v", ps))
	}
	if o.Standing != nil {
		if q.Standing == nil {
			q.Standing = map[iw.Side]oi.Standing{}
		}
		st := *o.Standing
		st.Defence.Own = oi.Tidy(st.Defence.Own)
		q.Standing[side] = st
	}
	return q, evs
}

// EvDeclared is the event of an attack declared and waiting for the
// defender's answer (IW25): its units and support, before any die.
const EvDeclared = "declared"

// placedIn words the rules' problems, at their lines in file when there
// is one.
func placedIn(file *oi.OrderFile, ps []iw.Problem) []adjudicator.Problem {
	out := make([]adjudicator.Problem, len(ps))
	for i, p := range ps {
		out[i] = adjudicator.Problem{Msg: p.Error()}
		if file != nil {
			out[i].Line, out[i].Col = file.Locate(p)
		}
	}
	return out
}

// Opening checks that an opening position is the scenario's start: Island
// War's standard rules roll no die before the first Game-Turn.
func (Rules) Opening(p adjudicator.Position, _ adjudicator.Dice) error {
	pos, ok := p.(*Position)
	if !ok || pos.e == nil {
		return fmt.Errorf("not Island War: %T", p)
	}
	start, _ := pos.e.Start()
	want := &Position{Scenario: pos.Scenario, Game: start}
	if !bytes.Equal(mustJSON(want), mustJSON(pos)) {
		return fmt.Errorf("the opening position is not the start of %s (rule 3.0)", pos.e.S.Name)
	}
	return nil
}

// Open checks the choices a game is created with: a scenario of the
// catalog, no setups by the rules, no placement by hand, no optional rule
// (the standard rules have none). The opening rolls no die.
func (r Rules) Open(c adjudicator.Choices, _ func() func(n int) int) (*adjudicator.Creation, error) {
	name := c.Scenario
	if name == "" {
		name = DefaultScenario
	}
	cat := r.catalog()
	raw, ok := cat[name]
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q (%s)", name, strings.Join(slices.Sorted(maps.Keys(cat)), ", "))
	}
	if len(c.Rules) > 0 {
		return nil, fmt.Errorf("the standard rules of Island War have no optional rule (%q)", c.Rules[0])
	}
	if c.Place != "" || c.Setups[adjudicator.US] != "" || c.Setups[adjudicator.JP] != "" {
		return nil, fmt.Errorf("an Island War scenario sets its units up itself (rule 3.0): name no setup")
	}
	if _, err := engineOf(raw); err != nil {
		return nil, fmt.Errorf("scenario %q: %w", name, err)
	}
	ref := refOf(name, raw)
	return &adjudicator.Creation{Scenario: name, Start: func(adjudicator.Dice) (adjudicator.Position, json.RawMessage, error) {
		e, err := engineOf(raw)
		if err != nil {
			return nil, nil, err
		}
		g, evs := e.Start()
		var b json.RawMessage
		if len(evs) > 0 {
			b = mustJSON(evs)
		}
		return &Position{Scenario: ref, Game: g, e: e}, b, nil
	}}, nil
}

// Setups names each side's setup: the scenario's Initial Deployment
// Charts (rule 3.0).
func (Rules) Setups(p adjudicator.Position, c *adjudicator.Creation) map[adjudicator.Side]string {
	return map[adjudicator.Side]string{adjudicator.US: "scenario", adjudicator.JP: "scenario"}
}

// Decided reports whether the last Game-Turn is over (rule 3.0: victory
// is judged at the end of the game).
func (Rules) Decided(p adjudicator.Position) bool {
	pos, ok := p.(*Position)
	return ok && pos.Game.Phase == iw.PhaseOver
}

// Level names the victory's level from the scenario's outcomes, with the
// grade its word gives ("marginal", "decisive"), empty when undecided.
func (Rules) Level(p adjudicator.Position) (string, adjudicator.Grade) {
	pos, ok := p.(*Position)
	if !ok || pos.Game.Phase != iw.PhaseOver {
		return "", adjudicator.GradeNone
	}
	v := pos.e.Verdict(pos.Game)
	if v.Winner == "" || v.Level == "" {
		return "", adjudicator.GradeNone
	}
	g := adjudicator.GradeNone
	switch v.Level {
	case "marginal":
		g = adjudicator.GradeMarginal
	case "minor", "substantive", "tactical":
		g = adjudicator.GradeMinor
	case "decisive", "major", "strategic":
		g = adjudicator.GradeMajor
	}
	return fmt.Sprintf("%s %s victory", sideTitle(v.Winner), v.Level), g
}

// Result is who won the game over in p and why.
func (Rules) Result(p adjudicator.Position) (adjudicator.Side, string) {
	pos, ok := p.(*Position)
	if !ok || pos.Game.Phase != iw.PhaseOver {
		return adjudicator.NoSide, ""
	}
	v := pos.e.Verdict(pos.Game)
	if v.Winner == "" {
		return adjudicator.NoSide, verdictWords(v)
	}
	return hostSide(v.Winner), levelWords(v)
}

// Carry puts into x the scenario file of its game when it is not a
// shipped one, so that the export audits and replays anywhere without
// the operator's directory. Games of a shipped scenario carry nothing,
// their exports as they were.
func (r Rules) Carry(x *store.Export) error {
	ref, err := exportRef(x)
	if err != nil {
		return err
	}
	for n, raw := range Shipped {
		if refOf(n, raw).SHA256 == ref.SHA256 {
			return nil
		}
	}
	for n, raw := range r.catalog() {
		if refOf(n, raw).SHA256 == ref.SHA256 {
			x.ScenarioFile = string(raw)
			return nil
		}
	}
	return fmt.Errorf("no scenario file with SHA-256 %s (the game's %q) to carry in the export: give the file it was created with", ref.SHA256, ref.Name)
}

// Carried is the rules that audit and replay x: r, knowing the scenario
// file x carries, once its SHA-256 is checked to be the game's.
func (r Rules) Carried(x *store.Export) (Rules, error) {
	if x.ScenarioFile == "" {
		return r, nil
	}
	ref, err := exportRef(x)
	if err != nil {
		return Rules{}, err
	}
	raw := []byte(x.ScenarioFile)
	if got := refOf(ref.Name, raw).SHA256; got != ref.SHA256 {
		return Rules{}, fmt.Errorf("the scenario file the export carries has SHA-256 %s, but the game was played with %q of SHA-256 %s: the file was changed", got, ref.Name, ref.SHA256)
	}
	if _, err := engineOf(raw); err != nil {
		return Rules{}, fmt.Errorf("the scenario file the export carries: %w", err)
	}
	files := map[string][]byte{}
	if r.files != nil {
		files = maps.Clone(r.files.byName)
	}
	name := ref.Name
	if _, taken := r.catalog()[name]; taken {
		name = ref.Name + "@" + ref.SHA256[:12]
	}
	files[name] = raw
	return WithScenarios(files), nil
}

// exportRef is the scenario x's game was created with, as its opening
// position records it.
func exportRef(x *store.Export) (Ref, error) {
	var p struct {
		Scenario Ref `json:"scenario"`
	}
	if err := json.Unmarshal(x.InitialState, &p); err != nil || p.Scenario.SHA256 == "" {
		return Ref{}, fmt.Errorf("the export's opening position names no scenario file")
	}
	return p.Scenario, nil
}
