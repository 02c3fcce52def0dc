package island

import (
	"cmp"
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"maps"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator"
	iw "github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/adjudicator/island/standin"
	"github.com/attu-pbem/attu/orders"
	oi "github.com/attu-pbem/attu/orders/island"
)

// What the game service asks of Island War beyond the store's rules
// (store/referee.System): its words for turns and waits, its order files
// read, judged and written, and its stand-in.

// Date gives Game-Turn turn no date: the rules number their Game-Turns,
// and the host's replies then name one by its number alone ("turn 3"),
// where "turn 3 (Game-Turn 3)" said it twice.
func (Rules) Date(turn int) string { return "" }

// Waiting says what a game waiting for w waits for, as reader may read it.
func (Rules) Waiting(w adjudicator.Wait, reader adjudicator.Side) string {
	if reader != adjudicator.NoSide && reader != adjudicator.Umpire && w.Open() && w.Side == reader {
		return strings.Replace(waitWords(w), "the "+hostTitle(w.Side), "your", 1)
	}
	return waitWords(w)
}

// waitWords names a wait: "the U.S. orders of Game-Turn 3".
func waitWords(w adjudicator.Wait) string {
	who := hostTitle(w.Side)
	switch w.Kind {
	case adjudicator.WaitNone:
		return "nothing: the game has not begun"
	case adjudicator.WaitEnded:
		return fmt.Sprintf("nothing: the game ended in Game-Turn %d", w.Turn)
	case oi.WaitSetup:
		return fmt.Sprintf("the %s set-up (wait: setup)", who)
	case oi.WaitOrders:
		return fmt.Sprintf("the %s orders of Game-Turn %d (wait: orders)", who, w.Turn)
	case oi.WaitDefence:
		return fmt.Sprintf("the %s defence in Game-Turn %d (wait: defence)", who, w.Turn)
	}
	return fmt.Sprintf("%s from %s in Game-Turn %d", w.Kind, who, w.Turn)
}

// Kinds lists every kind of orders a game can wait for.
func (Rules) Kinds() []adjudicator.WaitKind { return oi.WaitKinds() }

// Empty returns orders that answer w and hold nothing.
func (Rules) Empty(w adjudicator.Wait) adjudicator.Orders {
	o := oi.Orders{Side: w.Side, Turn: w.Turn, Wait: w.Kind}
	switch w.Kind {
	case oi.WaitSetup:
		o.Setup = map[string]iw.Hex{}
	case oi.WaitOrders:
		o.Play = &iw.Orders{}
	case oi.WaitDefence:
		o.Defence = &iw.Defence{}
	}
	return o
}

// Answers reports whether orders o answer w.
func (Rules) Answers(w adjudicator.Wait, o adjudicator.Orders) bool {
	ord, _, ok := ordersOf(o)
	return ok && ord.Answering() == w
}

// Read decodes an order file once: the orders with the file they were
// read from (Filed), or its mistakes as orders.Errors.
func (Rules) Read(raw []byte) (adjudicator.Orders, error) {
	f, err := oi.ReadOrders(raw)
	if err != nil {
		return nil, err
	}
	return Filed{f}, nil
}

// ReadDoc decodes an order file already parsed (orders.Envelope.Doc).
func (Rules) ReadDoc(doc *yaml.Node) (adjudicator.Orders, error) {
	f, err := oi.ReadOrdersDoc(doc)
	if err != nil {
		return nil, err
	}
	return Filed{f}, nil
}

// Immediate reports whether the file asks to be applied at once (now:
// true) rather than held for the game's settle window.
func (Rules) Immediate(o adjudicator.Orders) bool {
	ord, _, _ := ordersOf(o)
	return ord.Now
}

// Accepted says what an accepted file held, to follow the acceptance's
// sentence (", 2 moves and 1 attack"), and whether it changed the side's
// standing instructions.
func (Rules) Accepted(o adjudicator.Orders, w adjudicator.WaitKind) (held string, standing bool) {
	ord, _, _ := ordersOf(o)
	switch w {
	case oi.WaitSetup:
		held = ", " + plural(len(ord.Setup), "unit") + " placed"
	case oi.WaitOrders:
		if ord.Play != nil {
			held = fmt.Sprintf(", %s and %s", plural(len(ord.Play.Moves), "move"), plural(len(ord.Play.Attacks), "attack"))
		}
	case oi.WaitDefence:
		if ord.Defence != nil {
			held = ", " + plural(len(ord.Defence.FPF), "final protective fire plan")
		}
	}
	return held, ord.Standing != nil
}

// Defaults says in words what the default orders of a wait of kind k are
// (IW27).
func (Rules) Defaults(k adjudicator.WaitKind) (string, bool) {
	switch k {
	case oi.WaitSetup:
		return "each unit in the first free hex of its area, in hex id order", true
	case oi.WaitOrders:
		return "no unit moves; only the attacks rules 7.11 and 7.12 require, from adjacent hexes, without barrage, ground support, Banzai or advance", true
	case oi.WaitDefence:
		return "the standing instructions decide", true
	}
	return "", false
}

// Words are Island War's title and its default orders in brief (IW27).
func (Rules) Words() templates.Words {
	return templates.Words{Title: "Island War, the SPI standard rules of Bloody Ridge, Saipan, Leyte and Okinawa",
		Defaults:    "no unit moves and only the attacks the rules require are made (IW27), and against the enemy's attacks your standing instructions decide",
		EachDefault: "for a set-up, each unit in the first free hex of its area; for orders, no unit moves and only the attacks rules 7.11 and 7.12 require; for a defence, your standing instructions"}
}

// DefaultFile is the orders file the server writes for the side that
// missed the deadline of what p waits for (IW27), headed by why.
func (r Rules) DefaultFile(game string, p adjudicator.Position, why string) ([]byte, adjudicator.Orders, error) {
	pos, ok := p.(*Position)
	if !ok || pos.e == nil {
		return nil, nil, fmt.Errorf("not Island War: %T", p)
	}
	w := pos.Wait()
	what, ok := r.Defaults(w.Kind)
	if !ok || !w.Open() {
		return nil, nil, fmt.Errorf("no default orders for %s", w)
	}
	return serverFile(game, fmt.Sprintf("Default orders written by attu: %s (%s).", why, what), DefaultOrders(pos))
}

// DefaultOrders are the orders of IW27 for what pos waits for.
func DefaultOrders(pos *Position) oi.Orders {
	e, g, w := pos.e, pos.Game, pos.Wait()
	o := oi.Orders{Side: w.Side, Turn: w.Turn, Wait: w.Kind}
	switch w.Kind {
	case oi.WaitSetup:
		o.Setup = firstFree(e, g)
	case oi.WaitOrders:
		o.Play = &iw.Orders{Attacks: dutyAttacks(e, g)}
	case oi.WaitDefence:
		d := pos.Standing[g.Phasing.Enemy()].Defence
		o.Defence = &d
	}
	return o
}

// firstFree places each unit of the side setting up in the first free hex
// of its area, in hex id order and in the scenario's order of units.
func firstFree(e *iw.Engine, g iw.Position) map[string]iw.Hex {
	taken := map[iw.Hex]bool{}
	for _, pc := range g.Pieces {
		if pc.Where == iw.OnMap {
			taken[pc.Hex] = true
		}
	}
	out := map[string]iw.Hex{}
	for _, pl := range e.ToPlace(g, g.Phasing) {
		hs := slices.Clone(e.S.Areas[pl.Area])
		sort.Slice(hs, func(i, j int) bool { return hs[i].String() < hs[j].String() })
		for _, h := range hs {
			if !taken[h] && !e.S.TerrainOf(h).Impassable {
				taken[h], out[pl.Unit] = true, h
				break
			}
		}
	}
	return out
}

// dutyAttacks are the attacks the duty to attack requires of the phasing
// side standing where it is (rules 7.11, 7.12, 7.23; IW10, IW27): each
// phasing unit next to an enemy, in the scenario's order, attacks the
// first of its neighbours no attack has taken yet, or else joins the
// attack on its first neighbour (whose every defender it touches, since
// each attack has one defender until then); an enemy still not attacked
// then joins the attack of a lone attacker next to it, or takes one
// attacker out of a larger attack into an attack of its own.
func dutyAttacks(e *iw.Engine, g iw.Position) []iw.Attack {
	us := g.Phasing
	on := func(i int) bool { return g.Pieces[i].Where == iw.OnMap }
	next := func(i int, side iw.Side) []int {
		var out []int
		for j := range g.Pieces {
			if on(j) && e.S.Units[j].Side == side && e.S.Grid.Adjacent(g.Pieces[i].Hex, g.Pieces[j].Hex) {
				out = append(out, j)
			}
		}
		return out
	}
	var attacks []iw.Attack
	in, attacked := map[int]int{}, map[int]int{}
	for i := range g.Pieces {
		if !on(i) || e.S.Units[i].Side != us {
			continue
		}
		enemies := next(i, us.Enemy())
		if len(enemies) == 0 {
			continue
		}
		k := -1
		for _, j := range enemies {
			if _, ok := attacked[j]; !ok {
				k = len(attacks)
				attacks = append(attacks, iw.Attack{Defenders: []string{e.S.Units[j].ID}})
				attacked[j] = k
				break
			}
		}
		if k < 0 {
			k = attacked[enemies[0]]
		}
		attacks[k].Attackers = append(attacks[k].Attackers, e.S.Units[i].ID)
		in[i] = k
	}
	for j := range g.Pieces {
		if !on(j) || e.S.Units[j].Side == us {
			continue
		}
		near := next(j, us)
		if _, ok := attacked[j]; ok || len(near) == 0 {
			continue
		}
		x := near[0]
		k := in[x]
		if len(attacks[k].Attackers) == 1 {
			attacks[k].Defenders = append(attacks[k].Defenders, e.S.Units[j].ID)
			attacked[j] = k
			continue
		}
		id := e.S.Units[x].ID
		attacks[k].Attackers = slices.DeleteFunc(attacks[k].Attackers, func(a string) bool { return a == id })
		in[x], attacked[j] = len(attacks), len(attacks)
		attacks = append(attacks, iw.Attack{Defenders: []string{e.S.Units[j].ID}, Attackers: []string{id}})
	}
	return attacks
}

// StandIn is the order file the stand-in writes for what p waits for,
// its choices drawn from seed: adjudicator/island/standin's, which decides
// from the side's view only (never the enemy's pending orders or standing
// instructions, which p holds apart from the engine's position g). With
// its Player-Turn's orders it leaves standing instructions for the enemy's
// next one, so that a missed defence never falls to the bare defaults.
func (Rules) StandIn(game string, p adjudicator.Position, seed uint64) ([]byte, adjudicator.Orders, error) {
	pos, ok := p.(*Position)
	if !ok || pos.e == nil {
		return nil, nil, fmt.Errorf("not Island War: %T", p)
	}
	e, g, w := pos.e, pos.Game, pos.Wait()
	o := oi.Orders{Side: w.Side, Turn: w.Turn, Wait: w.Kind}
	switch w.Kind {
	case oi.WaitSetup:
		o.Setup = standin.Deploy(e, g, ruleSide(w.Side), seed)
	case oi.WaitOrders:
		play := standin.Orders(e, g, ruleSide(w.Side), seed)
		o.Play = &play
		o.Standing = &oi.Standing{Defence: standin.Defence(e, g, ruleSide(w.Side), seed)}
	case oi.WaitDefence:
		d := standin.Defence(e, g, ruleSide(w.Side), seed)
		o.Defence = &d
	default:
		return nil, nil, fmt.Errorf("no stand-in for %s", w)
	}
	return serverFile(game, "Orders written by attu's stand-in.", o)
}

// serverFile is the orders file the server writes for o, headed by the
// comment line head, its token redacted, and the orders as read back.
func serverFile(game, head string, o oi.Orders) ([]byte, adjudicator.Orders, error) {
	body, err := oi.WriteOrders(game, orders.RedactedToken, o)
	if err != nil {
		return nil, nil, fmt.Errorf("writing %s: %w", head, err)
	}
	raw := append([]byte("# "+head+"\n"), body...)
	f, err := oi.ReadOrders(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("%s for %s %s: %w", head, o.Side, o.Wait, err)
	}
	return raw, Filed{f}, nil
}

// Summary says in one line what a game in position p waits for, or how it
// ended.
func (Rules) Summary(p adjudicator.Position) string {
	pos, ok := p.(*Position)
	if !ok || pos.e == nil {
		return ""
	}
	if pos.Game.Phase == iw.PhaseOver {
		return fmt.Sprintf("game over, Game-Turn %d: %s", pos.Game.Turn, verdictWords(pos.e.Verdict(pos.Game)))
	}
	return "Waiting for " + waitWords(pos.Wait())
}

// verdictWords words a verdict: "U.S. decisive victory, 9 points to 1".
func verdictWords(v iw.Verdict) string {
	pts := fmt.Sprintf("U.S. %s, Japanese %d", plural(v.Points[iw.US], "point"), v.Points[iw.Japan])
	if v.Winner == "" {
		return "a draw, " + pts
	}
	level := v.Level
	if level != "" {
		level += " "
	}
	return fmt.Sprintf("%s %svictory, %s", sideTitle(v.Winner), level, pts)
}

// levelWords words a won game's verdict after its winner's name ("U.S.
// victory: decisive, 9 victory points to 1").
func levelWords(v iw.Verdict) string {
	won, lost := v.Points[iw.US], v.Points[iw.Japan]
	if v.Winner == iw.Japan {
		won, lost = lost, won
	}
	return fmt.Sprintf("%s, %s to %d", cmp.Or(v.Level, "by the victory conditions"), plural(won, "victory point"), lost)
}

func sideTitle(s iw.Side) string {
	if s == iw.Japan {
		return "Japanese"
	}
	return "U.S."
}

func hostTitle(s adjudicator.Side) string {
	switch s {
	case adjudicator.JP:
		return "Japanese"
	case adjudicator.US:
		return "U.S."
	}
	return "umpire's"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// sortedIDs gives a map's keys in order.
func sortedIDs[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
