package wind_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// nonInterferenceTurns is how many game turns TestHiddenDoesNotReachUS plays.
const nonInterferenceTurns = 500

// TestHiddenDoesNotReachUS is the non-interference property of fog of war
// (see View): what the U.S. reads depends only on what it may see. It plays
// generated games (as TestGeneratedGames) and, before each step, builds a
// twin of the position that differs only in what is hidden from the U.S.:
//
//   - which face-down Japanese counter is which, among counters of the same
//     class with the same steps (infantry platoons, each type of gun), and
//     for infantry also among those in the pool and eliminated;
//   - which Unknown unit is which, on or off the map, so that each hex's
//     Unknown counters carry other tables;
//   - the Komandorski chits not yet revealed.
//
// The twin is the same game with its hidden counters renamed: each
// counter's situation (hex or box, steps, face, activation, declaration)
// goes to the counter it is renamed to, and the Japanese orders and
// standing instructions name the renamed counters, so that both players
// give the same orders to the same counters on the table. Played with the
// same dice, the twin must consume exactly the same dice, show the U.S. the
// same view of the new position, and give it, word for word, the same
// events (windsys.EventText of wind.Redact).
//
// A renaming may change what the U.S. is entitled to see, and is then left
// out, for these reasons:
//
//   - A counter that the step turns face up shows its id: in a melee (all
//     its units turn face up, rule 2.5), by firing in U.S. sight (2.5), by
//     claiming the win on Engineer Hill (3.8.1). So a counter that fires,
//     or stands in a hex where a melee is declared or fought, or on 2717
//     when the turn ends, keeps its name.
//   - An Unknown unit's table decides how many infantry come out when it
//     converts, and a conversion draws infantry from the pool whose ids the
//     U.S. then reads (2.5). So Unknown units and the pool are renamed only
//     in steps where no Unknown unit can convert: no melee, no Unknown unit
//     firing, no Yamasaki charge. The dice consumed then cannot differ
//     either: the table die and the pool draws are the only dice that
//     depend on hidden counters.
//   - The Komandorski chits end the game and are revealed at the turn
//     advance (12.1.3), in the step of the second player's actions or of
//     the Japanese refit (9.7); they are changed in every other step.
//
// Solitaire games (rule 13) are played too: there the pool and the Unknown
// units off the map are never renamed, since an ambush or an ad hoc
// placement may draw from them in any step, nor the units the engine fires
// for 13.2.2; the Unknown units on the map are, the fixed ones of 13.2.1
// with their mark, while some are off the map for an ambush to draw and
// no fire or air attack of the step may send one off the map to join them.
//
// Refit turns are played too: the U.S. refit, and the Japanese refit, whose
// hiding, moves and swaps (rules 9.5, 9.6) name the renamed counters; none
// of them converts an Unknown unit or draws from the pool. So are the setup
// waits of new games: the Japanese setup places the renamed counters, and a
// delayed U.S. landing may flip the Komandorski chits.
func TestHiddenDoesNotReachUS(t *testing.T) {
	target := nonInterferenceTurns
	if testing.Short() {
		target /= 10
	}
	start := time.Now()
	tally := map[string]int{}
	turns := 0
	for seed := int64(1 << 20); turns < target; seed++ {
		r := rand.New(rand.NewSource(seed))
		s, _ := startGame(seed, r)
		for played, n := 0, 1; played < turnsPerGame; n++ {
			if s.Wait().Over() {
				break
			}
			o := autoplay.Orders(s, r.Intn)
			d := &recDice{r: r}
			ns, evs, ps := wind.Resolve(s, o, d)
			if len(ps) > 0 {
				t.Fatalf("seed %d step %d: %v", seed, n, ps)
			}
			twin, names, what := hiddenTwin(s, o, r)
			checkTwin(t, fmt.Sprintf("seed %d, step %d (%s)", seed, n, s.WaitText()), twin, rename(o, names), d, evs, ns)
			tally[what]++
			for x, y := range names {
				if x != y {
					tally["counters renamed"]++
				}
			}
			for _, e := range wind.VisibleEvents(evs, wind.US) {
				for _, u := range slices.Concat(e.Units, e.Others) {
					if u.ID == "" {
						tally["U.S. events about unnamed counters"]++
					}
				}
			}
			if ns.Turn != s.Turn || ns.Wait().Over() {
				played++
				turns++
			}
			s = ns
		}
	}
	t.Logf("%d turns in %v: %v", turns, time.Since(start).Round(time.Millisecond), tally)
	for _, what := range []string{"decision, all renamed", "first actions, all renamed", "second actions, some renamed", "U.S. events about unnamed counters"} {
		if tally[what] < target/5 {
			t.Errorf("only %d of %q in %d turns: the test proves little", tally[what], what, turns)
		}
	}
	if tally["counters renamed"] < 20*target {
		t.Errorf("only %d counters renamed in %d turns", tally["counters renamed"], turns)
	}
}

// checkTwin plays o on twin with the dice d rolled for the real step and
// compares what the U.S. learns with the real step's events and position.
func checkTwin(t *testing.T, where string, twin *wind.State, o wind.Orders, d *recDice, evs []wind.Event, after *wind.State) {
	t.Helper()
	fd := &wind.ForcedDice{Values: d.values()}
	tafter, tevs, ps := wind.Resolve(twin, o, fd)
	if len(ps) > 0 {
		t.Fatalf("%s: the twin refuses the renamed orders: %v", where, ps)
	}
	if fd.Err != nil || fd.Unused() > 0 {
		t.Fatalf("%s: the twin rolls %d dice, the game %d (%v)", where, len(fd.Log), len(d.log), fd.Err)
	}
	want, got := usTexts(evs), usTexts(tevs)
	if !slices.Equal(want, got) {
		t.Fatalf("%s: the U.S. reads differently when hidden counters are renamed:\n%s", where, lineDiff(want, got))
	}
	if a, b := string(mustMarshal(after.View(wind.US))), string(mustMarshal(tafter.View(wind.US))); a != b {
		t.Fatalf("%s: the U.S. view of the new position differs:\n%s\n%s", where, a, b)
	}
}

// lineDiff shows two lists of lines side by side from their first
// difference.
func lineDiff(want, got []string) string {
	var b strings.Builder
	for i := 0; i < max(len(want), len(got)); i++ {
		w, g := "(none)", "(none)"
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "  game: %s\n  twin: %s\n", w, g)
		}
	}
	return b.String()
}

// hiddenTwin returns a copy of s with hidden counters renamed (see
// TestHiddenDoesNotReachUS), the renaming (old id to new id) and which
// kind of step it was.
func hiddenTwin(s *wind.State, o wind.Orders, r *rand.Rand) (*wind.State, map[string]string, string) {
	phase := s.Wait().Kind
	keep := map[string]bool{} // counters that keep their names
	tables, komandorski := true, true
	what := "decision, all renamed"
	switch phase {
	case wind.WaitUSRefit:
		what = "U.S. refit, all renamed"
	case wind.WaitJPRefit:
		what, komandorski = "Japanese refit, all but the chits renamed", false
	case wind.WaitJPSetup:
		what = "Japanese setup, all renamed"
	case wind.WaitUSLanding:
		// A landing delayed into May 24 flips the Komandorski chits
		// (12.1.3).
		what, komandorski = "U.S. landing, all but the chits renamed", false
	}
	if phase == wind.WaitActions {
		what = "first actions, all renamed"
		second := o.Side != wind.FirstPlayer(s.Night)
		if second {
			what, komandorski = "second actions, some renamed", false
		}
		// The melee step ends the second player's actions: its hexes keep
		// their counters, and so do Engineer Hill's (rule 3.8.1). A
		// Yamasaki charge is a melee at once.
		melee := map[wind.Hex]bool{}
		if second {
			melee[wind.EngineerHill] = true
			for _, u := range s.Units {
				if u.Melee != 0 {
					melee[u.Melee], melee[u.Hex] = true, true
				}
			}
		}
		for _, a := range o.Actions {
			switch {
			case a.Fire != nil:
				for _, id := range a.Fire.Units {
					keep[id] = true
					if u, ok := s.Unit(id); ok && u.Kind() == wind.Unknown {
						tables = false
					}
				}
			case a.Yamasaki != nil:
				melee[a.Yamasaki.Hex] = true
			case a.Melee != nil && second:
				melee[a.Melee.Target] = true
				for _, id := range a.Melee.Units {
					if u, ok := s.Unit(id); ok {
						melee[u.Hex] = true
					}
				}
			case a.Move != nil && second:
				keep[a.Move.Unit] = true // it may move into a melee
			}
		}
		if len(melee) > 1 || !second && len(melee) > 0 {
			tables = false
		}
		// In solitaire a fire or an air attack may send an Unknown unit of
		// the map off it, where an ambush of the same step draws from
		// them (13.3): they keep their names then.
		for _, a := range o.Actions {
			if s.IsSolitaire() && (a.Fire != nil || a.Air != nil) {
				tables = false
			}
		}
		for _, u := range s.Units {
			if melee[u.Hex] {
				keep[u.ID] = true
			}
		}
	}

	// In a solitaire game any step may draw from the pool and the Unknown
	// units off the map (an ambush, 13.3; an ad hoc placement, 13.2.2),
	// and the engine fires the units of the ad hoc placements, turning
	// them face up (13.2.2): those keep their names.
	solo, container := s.IsSolitaire(), false
	if solo {
		for _, u := range s.Units {
			container = container || u.Kind() == wind.Unknown && u.Box == wind.BoxOffMap
		}
		if s.Solo != nil {
			for _, id := range s.Solo.AdHoc {
				keep[id] = true
			}
		}
	}

	// A hex keeps the counter order of its counters (see keepOrder): where
	// a counter keeps its name, so do those of its class beside it.
	for _, u := range s.Units {
		if keep[u.ID] && u.OnMap() {
			for _, v := range s.UnitsAt(u.Hex) {
				if v.Counter().Class == u.Counter().Class {
					keep[v.ID] = true
				}
			}
		}
	}

	// Groups of counters that may trade names.
	groups := map[string][]*wind.Unit{}
	for _, u := range s.Units {
		if u.Counter().Side() != wind.JP || u.Captured || keep[u.ID] {
			continue
		}
		switch {
		case u.Kind() == wind.Unknown:
			// In solitaire only those on the map, while an ambush draws
			// from the others (13.3).
			if tables && (!solo || u.OnMap() && container) {
				groups["unknown"] = append(groups["unknown"], u)
			}
		case u.OnMap() && u.FaceDown:
			k := fmt.Sprintf("%s/%d", u.Counter().Class.ID, u.Steps)
			groups[k] = append(groups[k], u)
		case !u.OnMap() && u.Kind() == wind.Infantry && tables && !solo && (u.Box == wind.BoxPool || u.Box == wind.BoxEliminated):
			k := fmt.Sprintf("%s/%d", u.Counter().Class.ID, u.Steps)
			groups[k] = append(groups[k], u)
		}
	}
	names := map[string]string{}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the renaming replays from the seed
	for _, k := range keys {
		g := groups[k]
		for i, j := range r.Perm(len(g)) {
			names[g[i].ID] = g[j].ID
		}
	}
	keepOrder(s, names)

	twin := s.Clone()
	for x, y := range names {
		from, _ := s.Unit(x)
		to, _ := twin.Unit(y)
		to.Hex, to.Box, to.Steps, to.FaceDown = from.Hex, from.Box, from.Steps, from.FaceDown
		to.Acted, to.MPSpent, to.Melee, to.Fought = from.Acted, from.MPSpent, from.Melee, from.Fought
	}
	twin.StandingJP = renameStanding(s.StandingJP, names)
	if s.Solo != nil {
		twin.Solo.Fixed = map[string]wind.Hex{}
		for id, h := range s.Solo.Fixed {
			if y, ok := names[id]; ok {
				id = y
			}
			twin.Solo.Fixed[id] = h
		}
	}
	if k := &twin.Komandorski; komandorski && k.Effect != 0 {
		if !k.EffectRevealed {
			k.Effect = []int{24, 27, 30}[r.Intn(3)]
		}
		if !k.DelayRevealed {
			k.Delay = 1 + r.Intn(4)
		}
	}
	return twin, names, what
}

// keepOrder makes the renaming keep the counter order of the counters of
// each hex and box: the counters that stand together get the same names as
// before between them, in the same order. Where the rules break a tie by
// counter order between counters the U.S. cannot tell apart (which of a
// hex's face-down counters the Japanese lose a hit on), the twin then
// breaks it on the same counter on the table, so that the orders that name
// it later still find it. Which counter the tie falls on is the Japanese
// player's choice among counters the U.S. sees as one; what the test
// checks is that the U.S. does not learn which names they bear.
func keepOrder(s *wind.State, names map[string]string) {
	rank := map[string]int{}
	for i, u := range s.Units {
		rank[u.ID] = i
	}
	at := map[string][]string{}
	for x := range names {
		u, _ := s.Unit(x)
		where := u.Box
		if u.OnMap() {
			where = u.Hex.String()
		}
		at[where] = append(at[where], x)
	}
	byRank := func(ids []string) {
		slices.SortFunc(ids, func(a, b string) int { return rank[a] - rank[b] })
	}
	for _, xs := range at {
		ys := make([]string, len(xs))
		for i, x := range xs {
			ys[i] = names[x]
		}
		byRank(xs)
		byRank(ys)
		for i, x := range xs {
			names[x] = ys[i]
		}
	}
}

// rename returns the orders as they read after the renaming: Japanese
// orders name the renamed counters. U.S. orders name no hidden counter.
func rename(o wind.Orders, names map[string]string) wind.Orders {
	if o.Side != wind.JP {
		return o
	}
	id := func(x string) string {
		if y, ok := names[x]; ok {
			return y
		}
		return x
	}
	ids := func(xs []string) []string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = id(x)
		}
		return out
	}
	out := o
	out.Actions = make([]wind.Action, len(o.Actions))
	for i, a := range o.Actions {
		switch {
		case a.Move != nil:
			m := *a.Move
			m.Unit = id(m.Unit)
			a.Move = &m
		case a.Fire != nil:
			f := *a.Fire
			f.Units, f.Spotter, f.TargetUnit = ids(f.Units), id(f.Spotter), id(f.TargetUnit)
			a.Fire = &f
		case a.Melee != nil:
			m := *a.Melee
			m.Units = ids(m.Units)
			a.Melee = &m
		case a.Yamasaki != nil:
			y := *a.Yamasaki
			y.Moves = slices.Clone(y.Moves)
			for k := range y.Moves {
				y.Moves[k].Unit = id(y.Moves[k].Unit)
			}
			a.Yamasaki = &y
		}
		out.Actions[i] = a
	}
	if o.Standing != nil {
		st := renameStanding(*o.Standing, names)
		out.Standing = &st
	}
	if js := o.JPSetup; js != nil {
		nj := wind.JPSetup{VP: js.VP}
		for _, p := range js.Place {
			nj.Place = append(nj.Place, wind.Placement{Unit: id(p.Unit), Hex: p.Hex})
		}
		out.JPSetup = &nj
	}
	if r := o.Rearrange; r != nil {
		moves := func(ms []wind.UnknownMove) []wind.UnknownMove {
			out := slices.Clone(ms)
			for k := range out {
				out[k].Unit = id(out[k].Unit)
			}
			return out
		}
		nr := wind.Rearrange{Hide: ids(r.Hide), Moves: moves(r.Moves)}
		for _, sw := range r.Swaps {
			nr.Swaps = append(nr.Swaps, wind.Swap{Hex: sw.Hex, Place: moves(sw.Place)})
		}
		out.Rearrange = &nr
	}
	return out
}

// renameStanding returns Japanese standing instructions naming the renamed
// counters.
func renameStanding(st wind.Standing, names map[string]string) wind.Standing {
	id := func(x string) string {
		if y, ok := names[x]; ok {
			return y
		}
		return x
	}
	if st.LossOrder != nil {
		order := make([]string, len(st.LossOrder))
		for i, x := range st.LossOrder {
			order[i] = id(x)
		}
		st.LossOrder = order
	}
	if st.UnknownTableAt != nil {
		at := make(map[wind.Hex]string, len(st.UnknownTableAt))
		for h, x := range st.UnknownTableAt {
			at[h] = id(x)
		}
		st.UnknownTableAt = at
	}
	return st
}

// usTexts words the events the U.S. reads, in order: each redacted for it
// (wind.Redact), then worded as its reports word it.
func usTexts(evs []wind.Event) []string {
	var out []string
	for _, e := range evs {
		if r, ok := wind.Redact(e, wind.US); ok {
			out = append(out, windsys.EventText(r))
		}
	}
	return out
}
