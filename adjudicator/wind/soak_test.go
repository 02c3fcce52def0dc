package wind_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// soakGames replaces the soak's numbers of games: this many of each short
// scenario and three times as many campaigns, and solitaire games besides
// (rule 13): a third as many campaigns and three tenths as many of each
// short scenario. Without it a plain run plays 60 campaigns and 20 of each
// short scenario (20 and 6 solitaire), so that `go test ./...` stays quick;
// .ci/run plays the full soak (-soak 100: 100 solitaire campaigns and 30 of
// each short scenario), and the figures of a long run go to BENCHMARKS.md:
//
//	go test ./adjudicator -run TestSoak -soak 1000 -v -timeout 60m
var soakGames = flag.Int("soak", 0, "TestSoak: games of each short scenario (three times as many campaigns; 0: 20, 10 with -short)")

// soakLimit is the most steps a game may take before the soak calls it
// stuck: a campaign is over by June 4, in at most a few hundred steps.
const soakLimit = 2000

// TestSoak plays whole games from their creation (NewGameFrom) to their
// end with the random legal player (autoplay) for both sides and random
// dice: 60 campaigns (every setup, with and without the victory point
// chits) and 20 of each short scenario, and solitaire games of each (rule
// 13: 20 campaigns and 6 of each short scenario), fewer under -short, as
// many as -soak asks for in .ci/run. After every
// step it checks what the generated-game test checks (invariants: the
// units' places and steps, stacking, the infantry accounted for, the
// casualty track against the infantry steps lost since the last refit or
// landing, the refit and rearrangement rules) and what whole games add
// (soakInvariants): the counter mix, depots, cleared zones, the play area,
// the last turn, the chits. Every game must end, with a winner.
func TestSoak(t *testing.T) {
	campaigns, short := 60, 20
	if testing.Short() {
		campaigns, short = 30, 10
	}
	if *soakGames > 0 {
		campaigns, short = 3**soakGames, *soakGames
	}
	type job struct {
		game soakGame
		seed int64
	}
	var jobs []job
	add := func(games []soakGame, campaigns, short int) {
		var campaignKinds, shortKinds []soakGame
		for _, c := range games {
			if c.scenario == wind.ScenarioCampaign {
				campaignKinds = append(campaignKinds, c)
			} else {
				shortKinds = append(shortKinds, c)
			}
		}
		for n := range campaigns {
			jobs = append(jobs, job{campaignKinds[n%len(campaignKinds)], int64(n)})
		}
		for _, k := range shortKinds {
			for n := range short {
				jobs = append(jobs, job{k, int64(n)})
			}
		}
	}
	var twoPlayer []soakGame
	for _, c := range newGames {
		if !c.opt.Solitaire {
			twoPlayer = append(twoPlayer, soakGame{c.scenario, c.opt})
		}
	}
	add(twoPlayer, campaigns, short)
	// Solitaire (rule 13): a third of the campaigns, and three tenths of
	// each short scenario's games: 100 and 30 in .ci/run (-soak 100).
	add(soloGames, campaigns/3, max(short*3/10, 1))

	start := time.Now()
	results := make([]soakResult, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = playSoak(jobs[i].game.scenario, jobs[i].game.opt, jobs[i].seed)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start)

	type tally struct {
		games, steps, turns int
		ends                map[string]int
	}
	byScenario := map[string]*tally{}
	failures := 0
	for i, r := range results {
		c := jobs[i].game
		if r.failure != "" {
			failures++
			if failures <= 3 {
				t.Errorf("%s %+v, seed %d: %s", c.scenario, c.opt, jobs[i].seed, r.failure)
			}
			continue
		}
		name := c.scenario
		if c.opt.Solitaire {
			name += " (solitaire)"
		}
		tl := byScenario[name]
		if tl == nil {
			tl = &tally{ends: map[string]int{}}
			byScenario[name] = tl
		}
		tl.games++
		tl.steps += r.steps
		tl.turns += r.turns
		tl.ends[r.end]++
	}
	if failures > 0 {
		t.Fatalf("%d of %d games failed", failures, len(jobs))
	}
	// The solitaire games must meet the rules of 13 they are about.
	solo := map[wind.EventKind]int{}
	soloGames := 0
	for i, r := range results {
		if jobs[i].game.opt.Solitaire {
			soloGames++
			for k, n := range r.solo {
				solo[k] += n
			}
		}
	}
	t.Logf("%d solitaire games: %v", soloGames, solo)
	for _, k := range []wind.EventKind{wind.EventAmbush, wind.EventAdHoc, wind.EventInfiltration} {
		if soloGames >= 10 && solo[k] == 0 {
			t.Errorf("no %s event in %d solitaire games: the soak proves little of rule 13", k, soloGames)
		}
	}
	var steps int
	names := make([]string, 0, len(byScenario))
	for name, tl := range byScenario {
		names = append(names, name)
		steps += tl.steps
	}
	sort.Strings(names)
	t.Logf("%d games, %d steps in %v: %.1f games/s, %.0f steps/s, on %d workers", len(jobs), steps, elapsed.Round(time.Millisecond),
		float64(len(jobs))/elapsed.Seconds(), float64(steps)/elapsed.Seconds(), runtime.GOMAXPROCS(0))
	for _, name := range names {
		tl := byScenario[name]
		var ends []string
		for why, n := range tl.ends {
			ends = append(ends, fmt.Sprintf("%s %d", why, n))
		}
		sort.Strings(ends)
		t.Logf("  %s: %d games, %.1f steps and %.1f turns a game; ends: %s", name, tl.games,
			float64(tl.steps)/float64(tl.games), float64(tl.turns)/float64(tl.games), strings.Join(ends, ", "))
	}
}

// soakGame is a kind of game the soak plays: a scenario and its options.
type soakGame struct {
	scenario string
	opt      wind.Options
}

// soloGames are the solitaire games the soak plays (rule 13): the campaign
// with each U.S. setup and with the victory point chits of 14.0, and each
// short scenario. The random legal player plays both sides: the Japanese
// orders are whatever rule 13 leaves to them.
var soloGames = []soakGame{
	{wind.ScenarioCampaign, wind.Options{Solitaire: true}},
	{wind.ScenarioCampaign, wind.Options{Solitaire: true, USSetup: wind.SetupFree}},
	{wind.ScenarioCampaign, wind.Options{Solitaire: true, VPChits: wind.VPDrawn}},
	{wind.ScenarioUpTheHogsBack, wind.Options{Solitaire: true}},
	{wind.ScenarioHoltzBayToJarminPass, wind.Options{Solitaire: true}},
	{wind.ScenarioTheLinkup, wind.Options{Solitaire: true}},
}

// soakResult is one soak game: how long it took and how it ended, or what
// went wrong.
type soakResult struct {
	steps, turns int
	end          string
	failure      string
	// solo counts the events of the solitaire rules (rule 13) by kind.
	solo map[wind.EventKind]int
}

// playSoak plays one game to its end, checking every step.
func playSoak(scenario string, opt wind.Options, seed int64) (res soakResult) {
	r := rand.New(rand.NewSource(seed))
	var st *gameStep
	defer func() {
		if p := recover(); p != nil {
			res.failure = fmt.Sprintf("panic: %v", p)
			if st != nil {
				res.failure += "\n" + st.report(failure{msg: "the step panicked"})
			}
		}
	}()
	s, _, err := wind.NewGameFrom(scenario, opt, &recDice{r: r})
	if err != nil {
		return soakResult{failure: err.Error()}
	}
	created := s
	if f := invariants(s, nil, nil); f != nil {
		return soakResult{failure: "the created game is unsound: " + f.msg}
	}
	casualties, infantry := s.Casualties, usInfantrySteps(s)
	for n := 1; !s.Over(); n++ {
		if n > soakLimit {
			return soakResult{failure: fmt.Sprintf("no end after %d steps: %s", soakLimit, s.WaitText())}
		}
		o := autoplay.Orders(s, r.Intn)
		d := &recDice{r: r}
		st = &gameStep{seed: seed, n: n, wait: s.WaitText(), before: s, orders: o, casualties: casualties, infantry: infantry}
		ns, evs, ps := wind.Resolve(s, o, d)
		st.after, st.events, st.dice = ns, evs, d.log
		if len(ps) > 0 {
			return soakResult{failure: st.report(failure{msg: fmt.Sprintf("Resolve refuses the orders: %v", ps)})}
		}
		if f := invariants(ns, s, st); f != nil {
			return soakResult{failure: st.report(*f)}
		}
		if f := soakInvariants(ns, s, created); f != nil {
			return soakResult{failure: st.report(*f)}
		}
		if st.refit() {
			casualties, infantry = ns.Casualties, usInfantrySteps(ns)
		}
		for _, e := range evs {
			switch e.Kind {
			case wind.EventAmbush, wind.EventAdHoc, wind.EventInfiltration,
				wind.EventLastStand, wind.EventAmbushWithdraw:
				if res.solo == nil {
					res.solo = map[wind.EventKind]int{}
				}
				res.solo[e.Kind]++
			}
		}
		res.steps++
		s = ns
	}
	if s.Winner == wind.NoSide {
		return soakResult{failure: "the game ended without a winner: " + s.WaitText()}
	}
	res.turns, res.end = s.Turn, s.Winner.String()+" "+ruleOf(s.Victory)
	return res
}

// soakInvariants checks what whole games add to the invariants of one
// position: before is the position before the step, created the game as
// it was created.
//
//   - The counter mix is never exceeded: a counter out of play at the
//     creation (a short scenario's other units) never enters it, but for
//     the independent units and depots the refit creates (9.3, 9.4), and
//     a created one never goes back to unused.
//   - One depot per engineer: a depot in play belongs to an engineer in
//     play (9.4).
//   - Cleared-zone markers are consistent (10.0): valid zones, never Attu
//     Village, no Unknown unit in a cleared zone, and the position is
//     settled: clearing again changes nothing.
//   - In a short scenario every unit on the map stands in its play area
//     (15.x), and no hero is ever spent anew (they start spent).
//   - The game never runs past its last turn; the chits of 14.0 are
//     revealed exactly when the game is over.
func soakInvariants(s, before, created *wind.State) *failure {
	bad := func(hexes []wind.Hex, format string, a ...any) *failure {
		return &failure{msg: fmt.Sprintf(format, a...), hexes: hexes}
	}
	if err := s.Validate(); err != nil {
		return bad(nil, "%v", err)
	}
	if s.IsSolitaire() {
		// The store keeps every position as JSON: the solitaire state
		// must come back the same.
		b, _ := json.Marshal(s)
		var back wind.State
		if err := json.Unmarshal(b, &back); err != nil || back.Attach(nil, nil) != nil {
			return bad(nil, "the position does not decode: %v", err)
		}
		if b2, _ := json.Marshal(&back); string(b2) != string(b) {
			return bad(nil, "the position does not round-trip through JSON")
		}
	}
	m := s.Map()
	for _, u := range s.Units {
		c0, _ := created.Unit(u.ID)
		b, _ := before.Unit(u.ID)
		made := u.Kind() == wind.Depot || u.Counter().Class.Independent && u.Side() == wind.US
		switch {
		case c0.Box == wind.BoxUnused && u.Box != wind.BoxUnused && !made:
			return bad(nil, "%s, out of the game at its creation, is in %s/%q", u.ID, u.Hex, u.Box)
		case b.Box != wind.BoxUnused && u.Box == wind.BoxUnused:
			return bad(nil, "%s went back to the unused box", u.ID)
		}
		if u.Kind() == wind.Depot && u.Box != wind.BoxUnused {
			e, _ := created.Unit(u.Counter().Engineer)
			if e.Box == wind.BoxUnused {
				return bad(nil, "depot %s is in play though its engineer %s is not", u.ID, e.ID)
			}
		}
		if u.OnMap() && !s.InPlayArea(u.Hex) {
			return bad([]wind.Hex{u.Hex}, "%s stands in %s, outside the play area", u.ID, u.Hex)
		}
	}
	if !slices.IsSorted(s.Cleared) || len(slices.Compact(slices.Clone(s.Cleared))) != len(s.Cleared) {
		return bad(nil, "cleared zones %v are not a sorted set", s.Cleared)
	}
	for _, z := range s.Cleared {
		if m.ZoneName(z) == "" || m.ZoneName(z) == "Attu Village" {
			return bad(nil, "zone %q carries a Zone Cleared marker", z)
		}
	}
	for _, u := range s.Units {
		if u.OnMap() && u.Kind() == wind.Unknown && s.ClearedAt(u.Hex) {
			return bad([]wind.Hex{u.Hex}, "Unknown unit %s stands in the cleared zone %s", u.ID, m.Zone(u.Hex))
		}
	}
	if !s.Over() && s.Awaiting != wind.WaitJPSetup {
		if _, evs := wind.UpdateCleared(s); len(evs) > 0 {
			return bad(nil, "the zones are not settled: %s", windsys.EventText(evs[0]))
		}
	}
	if s.Scenario != "" && s.Heroes != (wind.Heroes{Martinez: true, Arnold: true, Yamasaki: true}) {
		return bad(nil, "a short scenario's heroes are %+v", s.Heroes)
	}
	if last := lastTurnOf(s); last > 0 && s.Turn > last {
		return bad(nil, "turn %d is past the last turn, %d", s.Turn, last)
	}
	if s.VP != nil {
		if s.VP.Revealed != s.Over() {
			return bad(nil, "the chits are revealed %v while the game is over %v", s.VP.Revealed, s.Over())
		}
		if len(s.VP.Hexes) != len(m.VictoryHexes) {
			return bad(nil, "%d victory hexes carry chits, of %d", len(s.VP.Hexes), len(m.VictoryHexes))
		}
	}
	return nil
}

// lastTurnOf is the game's last turn: the scenario's last day (15.x) or
// what the Komandorski chits say (12.1.3).
func lastTurnOf(s *wind.State) int {
	switch s.Scenario {
	case wind.ScenarioUpTheHogsBack:
		return wind.TurnOfMay(18)
	case wind.ScenarioHoltzBayToJarminPass, wind.ScenarioTheLinkup:
		return wind.TurnOfMay(22)
	}
	return s.Komandorski.LastTurn()
}
