package tournament

import (
	"errors"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// A round robin meets everyone once: with six players in five rounds,
// with five players in five rounds with a bye each.
func TestRoundRobinMeetsEveryoneOnce(t *testing.T) {
	for _, n := range []int{2, 5, 6, 7} {
		var names []string
		for i := range n {
			names = append(names, fmt.Sprintf("p%d", i))
		}
		rounds := n - 1
		if n%2 == 1 {
			rounds = n
		}
		met := map[[2]string]int{}
		byes := map[string]int{}
		for r := 1; r <= rounds; r++ {
			seen := map[string]bool{}
			for _, p := range roundRobin(names, r) {
				if seen[p.a] || seen[p.b] && p.b != "" {
					t.Fatalf("%d players, round %d: %v plays twice", n, r, p)
				}
				seen[p.a], seen[p.b] = true, true
				if p.b == "" {
					byes[p.a]++
					continue
				}
				a, b := min(p.a, p.b), max(p.a, p.b)
				met[[2]string{a, b}]++
			}
		}
		if len(met) != n*(n-1)/2 {
			t.Fatalf("%d players: %d pairings of %d", n, len(met), n*(n-1)/2)
		}
		for k, c := range met {
			if c != 1 {
				t.Fatalf("%d players: %v meet %d times", n, k, c)
			}
		}
		for _, name := range names {
			if n%2 == 1 && byes[name] != 1 {
				t.Fatalf("%d players: %s has %d byes", n, name, byes[name])
			}
		}
	}
}

// Round 1 of the six players of the acceptance test, by hand: the first
// stays, the others turn; across the circle meet.
func TestRoundRobinByHand(t *testing.T) {
	names := []string{"A", "B", "C", "D", "E", "F"}
	want := map[int]string{1: "[{A F} {B E} {C D}]", 2: "[{A E} {F D} {B C}]", 3: "[{A D} {E C} {F B}]"}
	for r, w := range want {
		if got := fmt.Sprint(roundRobin(names, r)); got != w {
			t.Errorf("round %d: %s, want %s", r, got, w)
		}
	}
}

// A Swiss round pairs down the standings, avoiding rematches, backing up
// when needed; the bye goes to the lowest-ranked player without one.
func TestSwiss(t *testing.T) {
	ranked := []string{"A", "B", "C", "D", "E"}
	met := map[[2]string]bool{{"A", "B"}: true, {"D", "C"}: true, {"C", "E"}: true}
	byes := map[string]bool{"E": true}
	// D has the bye (E had one). A-B met: A meets C; then B meets E.
	if got := fmt.Sprint(swiss(ranked, met, byes)); got != "[{A C} {B E} {D }]" {
		t.Fatalf("got %s", got)
	}
	// Backing up: A-B and C-D are the only pairs left without rematch
	// once A cannot meet C.
	met = map[[2]string]bool{{"A", "C"}: true, {"A", "D"}: true, {"B", "D"}: true}
	if got := fmt.Sprint(swiss([]string{"A", "B", "C", "D"}, met, nil)); got != "[{A B} {C D}]" {
		t.Fatalf("got %s", got)
	}
	// Everyone has met: rematches, down the standings.
	met = map[[2]string]bool{{"A", "B"}: true, {"C", "D"}: true, {"A", "C"}: true, {"B", "D"}: true, {"A", "D"}: true, {"B", "C"}: true}
	if got := fmt.Sprint(swiss([]string{"A", "B", "C", "D"}, met, nil)); got != "[{A B} {C D}]" {
		t.Fatalf("got %s", got)
	}
}

// Standings computed by hand: points from the Victory Level Table of
// 14.0, a bye, a void game, a draw, and every tie-break.
func TestStandingsByHand(t *testing.T) {
	f, err := Parse([]byte(`id: vp
name: Chits
umpire: {name: U, address: u@x.org}
players: [{name: A, address: a@x.org}, {name: B, address: b@x.org}, {name: C, address: c@x.org}, {name: D, address: d@x.org}]
pairing: swiss
rounds: [{scenario: campaign}, {scenario: campaign}, {scenario: campaign}]
rules: {vp-chits: drawn}
tie-breaks: [head-to-head, sonneborn-berger, buchholz, wins, lateness]
`), windsys.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	res := func(w adjudicator.Side, level string, late int) *Result {
		return &Result{Winner: w, Level: level, Late: map[adjudicator.Side]int{adjudicator.JP: late}}
	}
	tm := &Tournament{File: *f, Rounds: []Round{
		{Number: 1, Games: []Game{
			{ID: "g1", US: "A", JP: "B", Result: res(adjudicator.US, "U.S. major victory", 0)},     // A 3, B 0
			{ID: "g2", US: "C", JP: "D", Result: res(adjudicator.JP, "Japanese minor victory", 2)}, // D 3, C 1; D late 2
		}},
		{Number: 2, Games: []Game{
			{ID: "g3", US: "B", JP: "D", Result: res(adjudicator.US, "U.S. marginal victory", 0)}, // B 2, D 1
			{ID: "g4", US: "C", JP: "A", Result: &Result{Void: true}},                             // nothing
		}},
		{Number: 3, Games: []Game{
			{ID: "g5", US: "A", JP: "D", Result: res(adjudicator.NoSide, "", 1)}, // draw: 1 each; D late 1
		}, Bye: "C"}, // C 3
	}}
	// Points: A 3+1=4, B 0+2=2, C 1+3(bye)=4, D 3+1+1=5.
	// D first. Sonneborn-Berger: D beat C (4) and drew A (4/2) = 6; B
	// beat D (5) = 5. A and C level on 4: they met only in the void game, so
	// head-to-head 0 each; Sonneborn-Berger: A beat B (2) and drew D
	// (5/2) = 4.5; C beat nobody = 0. A second, C third.
	// Buchholz: A: B 2 + D 5 = 7; C: D 5 = 5; B: A 4 + D 5 = 9; D: C 4 + B 2 + A 4 = 10.
	want := []string{
		"1 D p3 w1 d1 l1 pts5 [0 6 10 1 -3] late3",
		"2 A p2 w1 d1 l0 pts4 [0 4.5 7 1 -0] late0",
		"3 C p1 w0 d0 l1 pts4 [0 0 5 0 -0] late0",
		"4 B p2 w1 d0 l1 pts2 [0 5 9 1 -0] late0",
	}
	for i, row := range tm.Table() {
		got := fmt.Sprintf("%d %s p%d w%d d%d l%d pts%d %v late%d", row.Place, row.Player, row.Played, row.Won, row.Drawn, row.Lost, row.Points, row.Breaks, row.Late)
		if got != want[i] {
			t.Errorf("row %d: %s, want %s", i+1, got, want[i])
		}
	}
	// Every round has begun: there is no fourth.
	if err := (&Director{Games: windsys.Rules{}}).plan(tm, start); !errors.Is(err, ErrNoRound) {
		t.Fatalf("a fourth round of three: %v", err)
	}
}
