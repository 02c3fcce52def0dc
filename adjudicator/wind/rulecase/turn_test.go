package rulecase

import (
	"strings"
	"testing"

	windorders "github.com/attu-pbem/attu/orders/wind"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// TestTurnExpectationsFail: each expectation about the wait, the turn, the
// winner, the cleared zones and the Komandorski chits must fail, saying
// what differed, when the position says otherwise.
func TestTurnExpectationsFail(t *testing.T) {
	const position = "name: wrong on purpose\nturn: 13\nphase: actions\nwaiting: jp\n" +
		"komandorski: {effect: 27, delay: 2}\nunits:\n  - {id: 1/17-A, hex: 2821}\n  - {id: J01, hex: 2717}\n" +
		"orders:\n  - side: jp\n    actions: []\n"
	cases := []struct {
		name, expect string
		want         []string
	}{
		{"winner", "  winner: us\n", []string{"winner: expected us, got none"}},
		{"victory", "  victory: \"3.8.3\"\n", []string{`victory: expected a reason containing "3.8.3", got ""`}},
		{"phase", "  phase: actions\n", []string{"wait: expected actions, got U.S. decision, turn 14 (May 24)"}},
		{"waiting", "  waiting: jp\n", []string{"wait: expected jp, got U.S. decision"}},
		{"turn", "  turn: 13\n", []string{"turn: expected 13, got 14"}},
		{"cleared", "  cleared: [E]\n", []string{"cleared: expected [E], got []"}},
		{"komandorski", "  komandorski: {effect_revealed: false, delay_revealed: true}\n", []string{
			"komandorski: expected effect revealed false, got true",
			"komandorski: expected delay revealed true, got false",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFailures(t, mustParse(t, position+"expect:\n"+c.expect).Run(windsys.EventText), c.want)
		})
	}
}

// TestTurnKeysMalformed: mistakes in the turn keys come back with line:col.
func TestTurnKeysMalformed(t *testing.T) {
	src := `name: x
phase: refit
casualties: 31
komandorski: {effect: 25, delay: 5}
cleared: [Q]
units:
  - {id: J01, hex: 2717}
  - {id: 1/17-B, hex: 2821, captured: true}
expect:
  winner: both
`
	_, err := Parse([]byte(src))
	if err == nil {
		t.Fatal("parsed")
	}
	for _, w := range []string{
		"2:1: phase \"refit\": want jp-setup, us-landing, us-decision, us-refit, jp-refit or actions",
		"3:1: casualties: the U.S. casualty track runs from 0 to 30",
		"4:14: komandorski: effect 25",
		"4:14: komandorski: delay 5",
		"5:1: cleared: \"Q\" is not a victory zone",
		"8:5: 1/17-B: captured: only U.S. artillery",
		"10:3: expect.winner \"both\"",
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("errors lack %q:\n%v", w, err)
		}
	}
}

// A case without phase keeps calling ResolveActions: no wait is checked and
// the turn does not advance.
func TestCaseWithoutPhase(t *testing.T) {
	r := mustParse(t, "name: old style\nunits: [{id: IND1, hex: 2319}]\norders:\n  - side: us\n    actions: []\n  - side: us\n    actions: []\nexpect:\n  turn: 1\n").Run(windsys.EventText)
	if !r.Passed {
		t.Fatalf("failed:\n%s", r.Text())
	}
}

// attu check judges a file against a turn case as Resolve would: the wait
// first.
func TestCheckTurnCase(t *testing.T) {
	c := mustParse(t, "name: night\nturn: 3\nnight: true\nphase: actions\nunits: [{id: IND1, hex: 2319}, {id: J01, hex: 2717}]\n")
	f, err := windorders.Parse([]byte("side: us\nactions:\n  - move: {unit: IND1, path: [2320]}\n"), windorders.Options{Case: true})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := c.Check(f)
	if err != nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), "the game waits for the Japanese actions of turn 3") {
		t.Fatalf("check: %v %v", errs, err)
	}
	f, err = windorders.Parse([]byte("side: jp\nactions: []\n"), windorders.Options{Case: true})
	if err != nil {
		t.Fatal(err)
	}
	if errs, err := c.Check(f); err != nil || len(errs) > 0 {
		t.Fatalf("the awaited orders: %v %v", errs, err)
	}
}
