package wind_test

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/adjudicator/wind/rulecase"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// The generated-game property test plays at least -gameturns turns in
// all (500 without the flag, a fifth of that under -short; .ci/run asks for
// 2,000), in games of at most turnsPerGame turns each.
var gameTurns = flag.Int("gameturns", 0, "turns of generated games TestGeneratedGames plays (0: 500, 100 with -short)")

const turnsPerGame = 10

// recDice rolls ten-sided dice from a seeded source and keeps them, so that
// a step can be played again with the same dice.
type recDice struct {
	r   *rand.Rand
	log []wind.Rolled
}

func (d *recDice) Roll(die wind.Die) int {
	v := 1 + d.r.Intn(10)
	d.log = append(d.log, wind.Rolled{Die: die, Value: v})
	return v
}

// values returns the dice rolled, in order.
func (d *recDice) values() []int {
	out := make([]int, len(d.log))
	for i, r := range d.log {
		out[i] = r.Value
	}
	return out
}

// startGame returns the position game seed starts from, and the events of
// its creation for a new game, waiting for the
// U.S. decision of its turn (the wait Resolve expects at the start of a
// turn). Even seeds start from a generated position (RandomState: its turn,
// weather and Komandorski chits kept, the casualty track most often cut to
// a third so that games last, what belongs to a turn under way cleared,
// U.S. units beyond a landing zone's capacity put back in the
// reinforcements box since the generator stacks up to 8 steps anywhere).
// Odd seeds start a new game (NewGameFrom) of each scenario and setup in
// turn, waiting for its setup orders, which the game then plays.
func startGame(seed int64, r *rand.Rand) (*wind.State, []wind.Event) {
	if seed%2 == 1 {
		c := newGames[int(seed/2)%len(newGames)]
		s, evs, err := wind.NewGameFrom(c.scenario, c.opt, &recDice{r: r})
		if err != nil {
			panic(err)
		}
		return s, evs
	}
	s := wind.RandomState(r)
	for _, u := range s.Units {
		u.Acted, u.MPSpent, u.Melee, u.Fought = false, 0, 0, false
	}
	s.AirUS, s.AirJP = 0, 0 // rolled by the decision (3.4)
	if r.Intn(4) > 0 {
		// Most games start far enough from 30 casualties (3.8.2) to last.
		s.Casualties /= 3
	}
	hexes, by := s.Occupants()
	for _, h := range hexes {
		units := by[h]
		for i := len(units) - 1; i >= 0 && s.StackingProblem(h, wind.US) != ""; i-- {
			s.Place(units[i].ID, 0, wind.BoxReinforcements)
		}
	}
	s, _ = wind.UpdateCleared(s)
	s.Awaiting, s.Waiting = wind.WaitUSDecision, wind.US
	return s, nil
}

// newGames are the games NewGameFrom creates for the generated games and
// the soak: every scenario, the campaign with each setup and the victory
// point chits, and solitaire games (rule 13).
var newGames = []struct {
	scenario string
	opt      wind.Options
}{
	{wind.ScenarioCampaign, wind.Options{}},
	{wind.ScenarioCampaign, wind.Options{JPSetup: wind.SetupFree, USSetup: wind.SetupFree}},
	{wind.ScenarioCampaign, wind.Options{JPSetup: wind.SetupFree, VPChits: wind.VPDrawn}},
	{wind.ScenarioCampaign, wind.Options{USSetup: wind.SetupFree, VPChits: wind.VPPlaced}},
	{wind.ScenarioUpTheHogsBack, wind.Options{}},
	{wind.ScenarioHoltzBayToJarminPass, wind.Options{}},
	{wind.ScenarioTheLinkup, wind.Options{}},
	// Solitaire (rule 13).
	{wind.ScenarioCampaign, wind.Options{Solitaire: true}},
	{wind.ScenarioCampaign, wind.Options{Solitaire: true, USSetup: wind.SetupFree, VPChits: wind.VPDrawn}},
	{wind.ScenarioUpTheHogsBack, wind.Options{Solitaire: true}},
	{wind.ScenarioTheLinkup, wind.Options{Solitaire: true}},
}

// gameStep is one Resolve of a generated game, with what the checks need.
type gameStep struct {
	seed   int64
	n      int    // the step's number in its game, from 1
	wait   string // what the game waited for
	before *wind.State
	after  *wind.State
	orders wind.Orders
	events []wind.Event
	dice   []wind.Rolled
	// casualties and infantry are the casualty track and the U.S.
	// infantry steps on the map when the game started or after its last
	// refit step: the track was last reset or moved by a landing then, and
	// no U.S. infantry joins the map but by a refit.
	casualties, infantry int
}

// refit reports whether the step is one of a refit turn's U.S. steps (rule
// 9.1 to 9.4): a refit decision, or the U.S. refit orders; or the opening
// landing, step 2 of a refit turn (12.5).
func (st *gameStep) refit() bool {
	k := st.before.Wait().Kind
	return k == wind.WaitUSRefit || k == wind.WaitUSLanding || st.orders.Decision != nil && st.orders.Decision.Refit
}

// failure is a broken invariant and the hexes it is about.
type failure struct {
	msg   string
	hexes []wind.Hex
}

// TestGeneratedGames plays many short games from generated positions, with
// random legal orders (autoplay) and random dice, and after every Resolve
// checks that the position is sound and that the U.S. learns nothing fog of
// war hides:
//
//   - the position passes State.Validate: among others, no unit is both in
//     a hex and in a box, or nowhere, and no id appears twice; none is left
//     set aside, face down off the map, or (Unknown) face up on it; a turn
//     starts with no unit marked as having acted; no hex holds both sides,
//     and every stack is legal: U.S. rule 4.1 or a landing zone's capacity
//     (9.2.1), Japanese at most three infantry and artillery units (4.2);
//     every unit has between one step and its counter's full strength;
//   - the 64 Japanese infantry units are on the map, in the pool or
//     eliminated (2.5, 8.5);
//   - the casualty track (8.4) moved by the U.S. infantry steps that left
//     the map in the step, and stands at its value when the game started
//     plus every such step lost since, counted from the positions alone;
//   - the U.S. view of the new position names no U.S. secret of it, and the
//     events the U.S. reads name no secret of the old position except what
//     the step made public.
//
// What a step makes public is found from the positions, never from the
// step's own events, which are what is being checked: every Japanese unit
// face up on the map after the step, every infantry unit that left the
// pool (placed face up); artillery that wins on Engineer Hill (3.8.1) is
// turned face up by the claim, so it is among the first. When the events
// name more, the step is played again with the same dice, the actions and
// then the melee step, which adds every unit face up on the map after the
// actions, after any one activation or after the melee, and every unit
// that fought in a melee (all are turned face up when it begins, rule
// 2.5). The replay must end where Resolve did.
//
// A failure prints the seed, the turn, the step, the orders' activations
// and a close-up of the hexes concerned; the game replays from its seed.
func TestGeneratedGames(t *testing.T) {
	target := 500
	switch {
	case *gameTurns > 0:
		target = *gameTurns
	case testing.Short():
		target = 100
	}
	start := time.Now()
	tally := map[string]int{}
	turns, steps, games := 0, 0, 0
	for seed := int64(0); turns < target; seed++ {
		games++
		r := rand.New(rand.NewSource(seed))
		s, opening := startGame(seed, r)
		casualties, infantry := s.Casualties, usInfantrySteps(s)
		if f := invariants(s, nil, nil); f != nil {
			t.Fatalf("seed %d: the starting position is unsound: %s\n%s", seed, f.msg, closeUp(s, f.hexes, nil))
		}
		// The opening: the Komandorski draw is the Japanese player's alone.
		open := &gameStep{seed: seed, before: s, after: s, events: opening}
		if found, _, words := open.leak(nil); found != nil {
			t.Fatalf("seed %d: at the opening the U.S. reads %q, which gives away %v", seed, words, found)
		}
		for played, n := 0, 1; played < turnsPerGame; n++ {
			if phase := s.Wait().Kind; phase == wind.WaitEnded {
				tally["games decided"]++
				break
			}
			o := autoplay.Orders(s, r.Intn)
			d := &recDice{r: r}
			ns, evs, ps := wind.Resolve(s, o, d)
			st := &gameStep{seed: seed, n: n, wait: s.WaitText(), before: s, after: ns, orders: o, events: evs, dice: d.log,
				casualties: casualties, infantry: infantry}
			if len(ps) > 0 {
				st.fail(t, failure{msg: fmt.Sprintf("Resolve refuses the orders: %v", ps)})
			}
			st.check(t)
			if st.refit() {
				// Restored steps and landings add infantry, and the roll
				// resets the track: count again from here.
				casualties, infantry = ns.Casualties, usInfantrySteps(ns)
			}
			countStep(tally, o, evs)
			countLosses(tally, s, ns)
			steps++
			if ns.Turn != s.Turn || ns.Awaiting == wind.WaitEnded {
				played++
				turns++
			}
			s = ns
		}
	}
	elapsed := time.Since(start)
	t.Logf("%d games, %d turns, %d steps in %v; %v", games, turns, steps, elapsed.Round(time.Millisecond), tally)
	// The games must reach what the checks are about.
	for _, what := range []string{"move", "melee", "melee fought", "revealed from the pool", "U.S. infantry step lost", "night turn", "refit turn"} {
		if tally[what] < target/20 {
			t.Errorf("only %d %s in %d turns: the test proves little", tally[what], what, turns)
		}
	}
	for _, what := range []string{"refit orders in the decision", "step restored", "unit landed", "Unknown unit moved", "swap"} {
		if tally[what] < target/100 {
			t.Errorf("only %d %s in %d turns: the refit checks prove little", tally[what], what, turns)
		}
	}
}

// countStep tallies what a step did, to show the games reach the cases
// the checks are about.
func countStep(tally map[string]int, o wind.Orders, evs []wind.Event) {
	if o.Decision != nil && o.Decision.Night {
		tally["night turn"]++
	}
	if o.Decision != nil && o.Decision.Refit {
		tally["refit turn"]++
		if o.Refit != nil {
			tally["refit orders in the decision"]++
		}
	}
	if o.Rearrange != nil {
		tally["Unknown unit moved"] += len(o.Rearrange.Moves)
		tally["swap"] += len(o.Rearrange.Swaps)
	}
	for _, a := range o.Actions {
		tally[a.Kind()]++
	}
	for _, e := range evs {
		switch e.Kind {
		case wind.EventMeleePicked:
			tally["melee fought"]++
		case wind.EventActivationSkipped, wind.EventActionsCutShort:
			tally["skipped"]++
		case wind.EventStepsRestored:
			tally["step restored"]++
		case wind.EventLandingRoll:
			if e.Reason == wind.ReasonLanded || e.Reason == wind.ReasonScattered {
				tally["unit landed"]++
			}
		case wind.EventVictory:
			tally["victory "+ruleOf(windsys.EventText(e))]++
		}
	}
}

// ruleOf returns the first rule a victory's reason cites, like "(rule
// 3.8.2)".
func ruleOf(text string) string {
	i := strings.Index(text, "(rule")
	if i < 0 {
		return text
	}
	j := strings.Index(text[i:], ")")
	if j < 0 {
		return text[i:]
	}
	return text[i : i+j+1]
}

// countLosses tallies the U.S. infantry steps lost and the Japanese
// infantry units that left the pool in a step.
func countLosses(tally map[string]int, before, after *wind.State) {
	for _, u := range before.Units {
		if !u.OnMap() || u.Side() != wind.US || u.Kind() != wind.Infantry {
			continue
		}
		now, _ := after.Unit(u.ID)
		left := 0
		if now.OnMap() {
			left = now.Steps
		}
		tally["U.S. infantry step lost"] += max(u.Steps-left, 0)
	}
	for _, u := range before.Units {
		if now, _ := after.Unit(u.ID); u.Box == wind.BoxPool && now.Box != wind.BoxPool {
			tally["revealed from the pool"]++
		}
	}
}

// check runs every check of TestGeneratedGames on one step.
func (st *gameStep) check(t *testing.T) {
	t.Helper()
	if f := invariants(st.after, st.before, st); f != nil {
		st.fail(t, *f)
	}
	if f := st.fog(); f != nil {
		st.fail(t, *f)
	}
}

// fail stops the test with everything needed to see and replay the
// failure.
func (st *gameStep) fail(t *testing.T, f failure) {
	t.Helper()
	t.Fatal(st.report(f))
}

// report says what failed in the step, with the orders, a close-up of the
// hexes concerned before and after, and the events.
func (st *gameStep) report(f failure) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, turn %d, step %d (%s): %s\n", st.seed, st.before.Turn, st.n, st.wait, f.msg)
	for i, a := range st.orders.Actions {
		fmt.Fprintf(&b, "  activation %d: %s\n", i+1, actionText(a))
	}
	hexes := f.hexes
	if len(hexes) == 0 {
		for _, e := range st.events {
			for _, h := range e.Hexes {
				if !slices.Contains(hexes, h) && len(hexes) < 4 {
					hexes = append(hexes, h)
				}
			}
		}
	}
	after := st.after
	if after == nil {
		after = st.before
	}
	b.WriteString("before:\n" + closeUp(st.before, hexes, nil))
	b.WriteString("after:\n" + closeUp(after, hexes, nil))
	b.WriteString("events:\n")
	for _, e := range st.events {
		fmt.Fprintf(&b, "  [%s, seen by U.S. %s, Japanese %s] %s\n", e.Kind, e.Seen.US, e.Seen.JP, windsys.EventText(e))
	}
	return b.String()
}

// actionText writes an activation in one line.
func actionText(a wind.Action) string {
	switch {
	case a.Move != nil:
		return fmt.Sprintf("move %s %v", a.Move.Unit, a.Move.Path)
	case a.Fire != nil:
		return fmt.Sprintf("fire %v at %s (spotter %q, target unit %q)", a.Fire.Units, a.Fire.Target, a.Fire.Spotter, a.Fire.TargetUnit)
	case a.Melee != nil:
		return fmt.Sprintf("melee %v against %s", a.Melee.Units, a.Melee.Target)
	case a.Air != nil:
		return fmt.Sprintf("air %+v", a.Air.Attacks)
	case a.Yamasaki != nil:
		return fmt.Sprintf("yamasaki from %s %+v", a.Yamasaki.Hex, a.Yamasaki.Moves)
	}
	return "?"
}

// closeUp draws the hexes concerned and those next to them, and lists their
// units.
func closeUp(s *wind.State, hexes []wind.Hex, _ any) string {
	if len(hexes) == 0 {
		return "  (no hex concerned)\n"
	}
	m := s.Map()
	var area []wind.Hex
	for _, h := range hexes {
		for _, n := range append([]wind.Hex{h}, m.Neighbours(h)...) {
			if !slices.Contains(area, n) {
				area = append(area, n)
			}
		}
	}
	slices.Sort(area)
	return windsys.RenderArea(m, hexes, 1, windsys.MapOptions{Markers: rulecase.Markers(s), NoLegend: true}) +
		rulecase.Closeup(s, area)
}

// usInfantrySteps is the steps of U.S. infantry on the map, the units the
// casualty track counts (8.4).
func usInfantrySteps(s *wind.State) int {
	n := 0
	for _, u := range s.Units {
		if u.OnMap() && u.Side() == wind.US && u.Kind() == wind.Infantry {
			n += u.Steps
		}
	}
	return n
}

// invariants checks that s is a sound position (State.Validate, and every
// Japanese infantry unit in play) and, with before and st, that the step
// from before to s kept the casualty track right. It returns every
// violation Validate finds, or else the first other problem.
func invariants(s, before *wind.State, st *gameStep) *failure {
	bad := func(hexes []wind.Hex, format string, a ...any) *failure {
		return &failure{msg: fmt.Sprintf(format, a...), hexes: hexes}
	}
	if err := s.Validate(); err != nil {
		f := &failure{msg: "the position is unsound:\n" + err.Error()}
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			var v *wind.Violation
			if errors.As(e, &v) {
				for _, h := range v.Hexes {
					if !slices.Contains(f.hexes, h) {
						f.hexes = append(f.hexes, h)
					}
				}
			}
		}
		return f
	}
	// Every game here starts with the whole Japanese infantry in play
	// (startGame), which a scenario need not do, so this is the test's
	// check rather than Validate's.
	if onMap, pool, elim := s.PoolCounts(); onMap+pool+elim != 64 {
		return bad(nil, "Japanese infantry: %d on the map, %d in the pool, %d eliminated: %d, not 64", onMap, pool, elim, onMap+pool+elim)
	}
	if before == nil {
		return nil
	}
	for _, u := range before.Units {
		now, _ := s.Unit(u.ID)
		if _, vh := s.Map().VictoryHexAt(now.Hex); s.IsSolitaire() && vh && now.Kind() == wind.Infantry {
			continue // rule 13.2: a victory hex's defence may draw from the eliminated
		}
		if u.Box == wind.BoxEliminated && now.Box != wind.BoxEliminated {
			return bad(nil, "%s, eliminated, is back in %s/%q", u.ID, now.Hex, now.Box)
		}
	}
	if st.refit() {
		return st.refitInvariants(s)
	}
	if before.Wait().Kind == wind.WaitJPRefit {
		if f := st.rearrangeInvariants(s); f != nil {
			return f
		}
	}
	// rule 8.4: one box of the track for each U.S. infantry step lost.
	lost := 0
	var where []wind.Hex
	for _, u := range before.Units {
		if !u.OnMap() || u.Side() != wind.US || u.Kind() != wind.Infantry {
			continue
		}
		now, _ := s.Unit(u.ID)
		left := 0
		if now.OnMap() {
			left = now.Steps
		}
		if left != u.Steps {
			where = append(where, u.Hex)
		}
		lost += u.Steps - left
	}
	if s.Casualties-before.Casualties != lost {
		return bad(where, "the casualty track went from %d to %d, but the U.S. lost %d infantry steps", before.Casualties, s.Casualties, lost)
	}
	if since := st.infantry - usInfantrySteps(s); s.Casualties != st.casualties+since {
		return bad(nil, "the casualty track is at %d; it was %d when the game started and the U.S. has lost %d infantry steps since", s.Casualties, st.casualties, since)
	}
	return nil
}

// fog checks what the U.S. may read after the step: its view of the new
// position, and the events of the step.
func (st *gameStep) fog() *failure {
	s := st.after
	if found := wind.Leaks(mustMarshal(s.View(wind.US)), wind.USSecrets(s)); len(found) > 0 {
		return &failure{msg: fmt.Sprintf("the U.S. view names %v", found)}
	}
	// Most steps name no secret of the old position at all, or only what
	// the new one shows; the step is played again only when it does.
	public := st.shown()
	found, _, _ := st.leak(public)
	if found == nil {
		return nil
	}
	public, f := st.public(public)
	if f != nil {
		return f
	}
	if found, e, words := st.leak(public); found != nil {
		return &failure{msg: fmt.Sprintf("the U.S. reads %q, which gives away %v\n(as data: %s)", words, found, mustMarshal(e)), hexes: e.Hexes}
	}
	return nil
}

// leak returns the secrets of the old position that an event the U.S.
// reads names, leaving out those in public, with that event (as the U.S.
// receives it, wind.Redact) and its words (windsys.EventText).
// It reads both: the words are what the player reads, the event what a
// report or a richer attachment could be built from. The Komandorski
// chits count as secrets until the new position shows them revealed
// (rule 12.1.3), and the U.S. never reads the Japanese draw of them.
func (st *gameStep) leak(public map[string]bool) ([]string, wind.Event, string) {
	var keep []string
	for _, sec := range wind.USSecrets(st.before) {
		if !public[sec] {
			keep = append(keep, sec)
		}
	}
	k := st.after.Komandorski
	for _, e := range wind.VisibleEvents(st.events, wind.US) {
		words := windsys.EventText(e)
		if found := wind.Leaks([]byte(words), keep); len(found) > 0 {
			return found, e, words
		}
		if found := wind.Leaks(mustMarshal(e), keep); len(found) > 0 {
			return found, e, words
		}
		switch {
		case e.Kind == wind.EventKomandorskiDrawn:
			return []string{"the Komandorski chits drawn"}, e, words
		case e.Kind == wind.EventKomandorskiEffect && (!k.EffectRevealed || e.Effect != k.Effect):
			return []string{"the Komandorski effect chit"}, e, words
		case e.Kind == wind.EventKomandorskiDelay && (!k.DelayRevealed || e.Delay != k.Delay):
			return []string{"the Komandorski delay chit"}, e, words
		case strings.Contains(words, "Komandorski") && e.Kind != wind.EventKomandorskiEffect && e.Kind != wind.EventKomandorskiDelay:
			return []string{"the Komandorski chits"}, e, words
		case e.Private != nil && e.Seen.US != wind.SightFull:
			return []string{"a private part"}, e, words
		}
	}
	return nil, wind.Event{}, ""
}

// shown returns the Japanese units the new position shows the U.S. (face
// up on the map) and the infantry units that left the pool in the step.
func (st *gameStep) shown() map[string]bool {
	public := map[string]bool{}
	for _, u := range st.after.Units {
		if u.Side() == wind.JP && u.Kind() != wind.Unknown && u.OnMap() && !u.FaceDown {
			public[u.ID] = true
		}
	}
	for _, u := range st.before.Units {
		if now, _ := st.after.Unit(u.ID); u.Box == wind.BoxPool && now.Box != wind.BoxPool {
			public[u.ID] = true
		}
	}
	return public
}

// public adds to shown the Japanese units the step made public to the U.S.
// on the way (see TestGeneratedGames), playing an actions step again with
// the step's dice: the actions, then the melee step. When that still
// leaves a secret named, it plays the actions again up to each activation
// in turn, for a unit turned face up and gone again within the actions.
func (st *gameStep) public(public map[string]bool) (map[string]bool, *failure) {
	mark := func(s *wind.State, fought bool) {
		for _, u := range s.Units {
			if u.Side() == wind.JP && u.Kind() != wind.Unknown && (u.OnMap() && !u.FaceDown || fought && u.Fought) {
				public[u.ID] = true
			}
		}
	}
	if st.before.Awaiting != wind.WaitActions {
		return public, nil
	}

	cur, d, f := st.replayActions(len(st.orders.Actions))
	if f != nil {
		return nil, f
	}
	mark(cur, false)
	cur, _ = wind.UpdateCleared(cur)
	wind.CheckSuddenVictory(cur)
	second := st.orders.Side != wind.FirstPlayer(st.before.Night)
	if cur.Wait().Kind != wind.WaitEnded && !second && st.orders.Side == wind.US {
		wind.SoloAdHocFire(cur, d) // rule 13.2.2, as the Japanese actions begin
		mark(cur, false)
	}
	if cur.Wait().Kind != wind.WaitEnded && second {
		wind.SoloAir(cur, d) // rule 13.2
	}
	if phase := cur.Wait().Kind; phase != wind.WaitEnded && second {
		cur, _ = wind.ResolveMelee(cur, d)
		wind.SoloAfterMelee(cur)
		mark(cur, true)
		cur, _ = wind.UpdateCleared(cur)
	}
	wind.SoloAdHoc(cur, d) // rule 13.2.2, after the step

	// The replay must have ended where Resolve did.
	for i, r := range d.Log {
		if i >= len(st.dice) || r != st.dice[i] {
			return nil, &failure{msg: fmt.Sprintf("replaying the step rolls die %d for %+v; Resolve rolled %d dice, that one for %+v",
				i+1, r, len(st.dice), st.dice[min(i, len(st.dice)-1)])}
		}
	}
	if d.Unused() > 0 {
		return nil, &failure{msg: fmt.Sprintf("replaying the step used %d of its %d dice", len(d.Log), len(st.dice))}
	}
	if cur.Casualties != st.after.Casualties {
		return nil, &failure{msg: fmt.Sprintf("replaying the step leaves the casualty track at %d, Resolve at %d", cur.Casualties, st.after.Casualties)}
	}
	for _, u := range cur.Units {
		w, _ := st.after.Unit(u.ID)
		if u.Hex != w.Hex || u.Box != w.Box || u.Steps != w.Steps || u.Captured != w.Captured {
			return nil, &failure{msg: fmt.Sprintf("replaying the step leaves %s in %s/%q with %d steps, Resolve in %s/%q with %d",
				u.ID, u.Hex, u.Box, u.Steps, w.Hex, w.Box, w.Steps), hexes: []wind.Hex{u.Hex, w.Hex}}
		}
	}

	if found, _, _ := st.leak(public); found != nil {
		for k := 1; k < len(st.orders.Actions); k++ {
			cur, _, f := st.replayActions(k)
			if f != nil {
				return nil, f
			}
			mark(cur, false)
		}
	}
	return public, nil
}

// replayActions plays the first n activations of the step's actions on
// its old position with the step's dice, as Resolve does, and returns the
// position they leave and the dice, ready for what follows.
func (st *gameStep) replayActions(n int) (*wind.State, *wind.ForcedDice, *failure) {
	s := st.before.Clone()
	o := st.orders
	if o.Standing != nil {
		if o.Side == wind.US {
			s.StandingUS = s.StandingUS.Merge(*o.Standing)
		} else {
			s.StandingJP = s.StandingJP.Merge(*o.Standing)
		}
		o.Standing = nil
	}
	o.Actions = o.Actions[:n]
	values := make([]int, len(st.dice))
	for i, r := range st.dice {
		values[i] = r.Value
	}
	d := &wind.ForcedDice{Values: values}
	out, _, ps := wind.ResolveActions(s, o, d)
	if len(ps) > 0 {
		return nil, nil, &failure{msg: fmt.Sprintf("replaying the step, ResolveActions refuses its first %d activations: %v", n, ps)}
	}
	return out, d, nil
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// refitInvariants checks a U.S. step of a refit turn (rules 9.1 to 9.4)
// from the positions and the dice: the track reset by the roll (when the
// step rolled it) and moved by the infantry steps lost landing; no more
// steps restored than the roll gave, to infantry only; reinforcements
// ashore only in landing zones; independent units and depots only where
// the unit that made them stands.
func (st *gameStep) refitInvariants(s *wind.State) *failure {
	before := st.before
	bad := func(hexes []wind.Hex, format string, a ...any) *failure {
		return &failure{msg: fmt.Sprintf(format, a...), hexes: hexes}
	}
	track, budget := before.Casualties, before.RefitSteps
	if st.orders.Decision != nil {
		var dice []int
		for _, r := range st.dice {
			if r.Purpose == wind.DieLossRecovery {
				dice = append(dice, r.Value)
			}
		}
		if len(dice) != 2 {
			return bad(nil, "a refit decision rolled %d loss recovery dice, not 2", len(dice))
		}
		weather := s.Weather
		total := wind.LossRecoveryTotal(dice[0], dice[1], weather, wind.RefitModifier(before.Scenario))
		track, budget = 0, wind.LossRecovery(total, before.Casualties)
		if s.Wait().Kind == wind.WaitUSRefit && s.RefitSteps != budget {
			return bad(nil, "the roll %d+%d in %s under %d casualties gives %d steps; the game keeps %d", dice[0], dice[1], weather, before.Casualties, budget, s.RefitSteps)
		}
	}
	landedLost, restored := 0, 0
	m := s.Map()
	for _, u := range before.Units {
		now, _ := s.Unit(u.ID)
		if u.Counter().Side() != wind.US || u.Captured {
			continue
		}
		switch {
		case u.Box == wind.BoxReinforcements && now.OnMap():
			if _, ok := m.LandingZoneAt(now.Hex); !ok {
				return bad([]wind.Hex{now.Hex}, "%s came ashore in %s, which is no landing zone", u.ID, now.Hex)
			}
			if u.Kind() == wind.Infantry {
				landedLost += u.Steps - now.Steps
			}
		case u.Box == wind.BoxReinforcements && now.Box == wind.BoxEliminated:
			if u.Kind() == wind.Infantry {
				landedLost += u.Steps
			}
		case u.Box == wind.BoxReinforcements && now.Box != wind.BoxReinforcements:
			return bad(nil, "%s left the reinforcements box for %q", u.ID, now.Box)
		case u.Box == wind.BoxUnused && now.OnMap():
			// An independent unit (9.3) or a depot (9.4) is created, where
			// the company or the engineer making it stands (or stood, for
			// an engineer giving its last step).
			ok := false
			if u.Kind() == wind.Depot {
				e0, _ := before.Unit(u.Counter().Engineer)
				e1, _ := s.Unit(u.Counter().Engineer)
				ok = e1.Hex == now.Hex || e1.Box == wind.BoxEliminated && (e0.Hex == now.Hex || e0.Box == wind.BoxReinforcements)
			} else {
				for _, o := range s.UnitsAt(now.Hex) {
					ok = ok || o.Side() == wind.US && o.Kind() == wind.Infantry && !o.Counter().Class.Independent
				}
			}
			if !ok || now.Steps != u.Counter().MaxSteps() {
				return bad([]wind.Hex{now.Hex}, "%s appears in %s with %d steps, where no unit could create it", u.ID, now.Hex, now.Steps)
			}
		case u.OnMap() && now.OnMap() && now.Steps > u.Steps:
			if u.Kind() != wind.Infantry {
				return bad([]wind.Hex{u.Hex}, "%s, %s, was refit from %d to %d steps", u.ID, u.Kind(), u.Steps, now.Steps)
			}
			restored += now.Steps - u.Steps
		case u.OnMap() && now.Hex != u.Hex:
			if now.OnMap() || now.Box != wind.BoxEliminated || u.Kind() != wind.Engineer {
				return bad([]wind.Hex{u.Hex}, "%s left %s for %s/%q in a refit", u.ID, u.Hex, now.Hex, now.Box)
			}
		}
	}
	if restored > budget {
		return bad(nil, "%d steps restored; the roll gave %d", restored, budget)
	}
	if want := track + landedLost; s.Casualties != want {
		return bad(nil, "the casualty track is at %d; it stood at %d after the roll and the landing cost %d infantry steps", s.Casualties, track, landedLost)
	}
	return nil
}

// rearrangeInvariants checks the Japanese step of a refit turn (rules 9.5,
// 9.6): the U.S. untouched; units turned face down only where they may
// hide; Unknown units moved or placed only where they may stand, and no
// more of them on the map than infantry left when any came back.
func (st *gameStep) rearrangeInvariants(s *wind.State) *failure {
	before := st.before
	bad := func(hexes []wind.Hex, format string, a ...any) *failure {
		return &failure{msg: fmt.Sprintf(format, a...), hexes: hexes}
	}
	placed := false
	for _, u := range before.Units {
		now, _ := s.Unit(u.ID)
		switch {
		case u.Side() == wind.US:
			if now.Hex != u.Hex || now.Box != u.Box || now.Steps != u.Steps {
				return bad([]wind.Hex{u.Hex}, "%s changed in the Japanese refit", u.ID)
			}
		case u.OnMap() && !u.FaceDown && now.OnMap() && now.FaceDown:
			if why := before.HideBan(u); why != "" {
				return bad([]wind.Hex{u.Hex}, "%s turned face down: %s", u.ID, why)
			}
		case u.Kind() == wind.Unknown && now.OnMap() && now.Hex != u.Hex:
			if why := s.UnknownBan(now.Hex); why != "" {
				return bad([]wind.Hex{now.Hex}, "%s moved or placed in %s: %s", u.ID, now.Hex, why)
			}
			placed = placed || !u.OnMap()
		case u.Kind() == wind.Infantry && u.OnMap() && !now.OnMap() && now.Box != wind.BoxPool:
			return bad([]wind.Hex{u.Hex}, "%s left the map for %q in the Japanese refit", u.ID, now.Box)
		}
	}
	if placed {
		unknowns := 0
		for _, u := range s.Units {
			if u.OnMap() && u.Kind() == wind.Unknown {
				unknowns++
			}
		}
		if onMap, pool, _ := s.PoolCounts(); unknowns > onMap+pool {
			return bad(nil, "%d Unknown units on the map with %d infantry units left", unknowns, onMap+pool)
		}
	}
	return nil
}
