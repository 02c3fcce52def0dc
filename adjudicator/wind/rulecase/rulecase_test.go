package rulecase

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/orders"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// TestCases runs every rules case in testdata; a failing case prints what
// differed and the units in the hexes involved.
func TestCases(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no rules cases in testdata")
	}
	for _, name := range files {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".yaml"), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Parse(data)
			if err != nil {
				t.Fatalf("%s:\n%v", name, err)
			}
			r := c.Run(windsys.EventText)
			if !r.Passed {
				t.Errorf("%s failed:\n%s\n%s", name, r.Text(),
					windsys.RenderArea(r.State.Map(), r.Hexes, 0, windsys.MapOptions{Markers: Markers(r.State)}))
			}
		})
	}
}

func mustParse(t *testing.T, src string) *Case {
	t.Helper()
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("case does not parse:\n%v", err)
	}
	return c
}

// TestWrongExpectationsFail makes sure the runner is no rubber stamp: each
// of these cases expects something false about a position, and must fail
// with the difference in words.
func TestWrongExpectationsFail(t *testing.T) {
	const position = "name: wrong on purpose\nunits:\n  - {id: J01, hex: 2717}\n  - {id: 1/17-A, hex: 2618, steps: 3}\n"
	cases := []struct {
		name, expect string
		want         []string
	}{
		{"hex", "  units: [{id: 1/17-A, hex: 2619}]\n", []string{"1/17-A: expected hex 2619, got 2618"}},
		{"steps", "  units: [{id: 1/17-A, steps: 4}]\n", []string{"1/17-A: expected 4 steps, got 3"}},
		{"face", "  units: [{id: J01, face: up}]\n", []string{"J01: expected face up, got down"}},
		{"box", "  units: [{id: J01, box: eliminated}]\n", []string{"J01: expected box eliminated, got 2717"}},
		{"several in one unit", "  units: [{id: 1/17-A, hex: 2619, steps: 4}]\n", []string{"1/17-A: expected hex 2619, got 2618; expected 4 steps, got 3"}},
		{"zoc", "  zoc: [{hex: 2817, side: jp, in: true}]\n", []string{"ZOC: expected 2817 in a jp ZOC, but it is not in one"}},
		{"casualties", "  casualties: 2\n", []string{"casualties: expected 2, got 0"}},
		{"weather", "  weather: rain\n", []string{"weather: expected rain, got cloudy"}},
		{"air", "  air: {us: 2, jp: 1}\n", []string{"U.S. airpower: expected 2, got 0", "Japanese airpower: expected 1, got 0"}},
		{"mp", "  mp: {1/17-A: 6}\n", []string{"1/17-A: expected 6 MP spent, got 0"}},
		{"events", "  events: [\"1/17-A moves\"]\n", []string{`expected an event containing "1/17-A moves"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustParse(t, position+"expect:\n"+c.expect).Run(windsys.EventText)
			wantFailures(t, r, c.want)
			if !strings.Contains(r.Text(), "✗") || !strings.Contains(r.Text(), "FAIL") {
				t.Errorf("text output hides the failure:\n%s", r.Text())
			}
		})
	}
}

// TestUnusedDiceFail: forced dice that are never rolled mean the case did
// not exercise what its author thought.
func TestUnusedDiceFail(t *testing.T) {
	r := mustParse(t, "name: spare dice\ndice: [3, 4]\n").Run(windsys.EventText)
	if r.Passed || !strings.Contains(strings.Join(r.Failures, "\n"), "2 of 2 were never rolled (3, 4)") {
		t.Fatalf("unused dice passed: %q", r.Failures)
	}
}

// TestQuestionsCannotRubberStamp asks each question of the adjudicator
// twice with opposite answers: whatever the rules code says (or if it
// cannot answer yet), one of each pair must fail.
func TestQuestionsCannotRubberStamp(t *testing.T) {
	src := `name: contradictions
units: [{id: 1/17-A, hex: 2618}, {id: J01, hex: 2717}]
expect:
  supply: {1/17-A: in}
  los: [{from: 2618, to: 2717, clear: true}, {from: 2618, to: 2717, clear: false}]
  fire: [{units: [1/17-A], target: 2717, legal: true}, {units: [1/17-A], target: 2717, legal: false}]
`
	r := mustParse(t, src).Run(windsys.EventText)
	if r.Passed {
		t.Fatalf("contradictory expectations passed:\n%s", r.Text())
	}
	if len(r.Checks) != 5 {
		t.Fatalf("checks: %+v", r.Checks)
	}
	for _, pair := range [][2]int{{1, 2}, {3, 4}} {
		if r.Checks[pair[0]].OK && r.Checks[pair[1]].OK {
			t.Errorf("both %q and %q hold", r.Checks[pair[0]].Expect, r.Checks[pair[1]].Expect)
		}
	}
	again := mustParse(t, strings.Replace(src, "{1/17-A: in}", "{1/17-A: out}", 1)).Run(windsys.EventText)
	if r.Checks[0].OK && again.Checks[0].OK {
		t.Error("1/17-A is both in and out of supply")
	}
}

// TestOrdersExpectationsFail: a refusal expected of legal orders, a legal
// file refused, a refusal for another reason: each must fail, saying what
// differed.
func TestOrdersExpectationsFail(t *testing.T) {
	const head = "name: orders\nunits: [{id: 1/17-A, hex: 2821}]\norders:\n  - side: us\n    actions:\n"
	cases := []struct {
		name, src string
		want      string // the difference
	}{
		{"legal orders expected refused", head + "      - move: {unit: 1/17-A, path: [2720]}\nexpect:\n  refused: [\"costs 4 MP\"]\n",
			`expected refusal containing "costs 4 MP", got accepted`},
		{"refused orders expected accepted", head + "      - move: {unit: 1/17-Z, path: [2720]}\n",
			"orders 1 (us, line 4): expected accepted, got refused: 6:9:"},
		{"refused for another reason", head + "      - move: {unit: 1/17-Z, path: [2720]}\nexpect:\n  refused: [\"costs 4 MP\"]\n",
			`expected refusal containing "costs 4 MP", got: 6:9:`},
		{"refusal expected with no text", head + "      - move: {unit: 1/17-A, path: [2720]}\nexpect:\n  refused: []\n",
			"orders 1: expected a refusal, got accepted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustParse(t, c.src).Run(windsys.EventText)
			if r.Passed {
				t.Fatalf("passed:\n%s", r.Text())
			}
			all := strings.Join(r.Failures, "\n")
			if !strings.Contains(all, c.want) {
				t.Errorf("failures:\n%s\nwant %q", all, c.want)
			}
		})
	}
}

func TestPassingCaseText(t *testing.T) {
	r := mustParse(t, "name: quiet\nrule: \"6.0\"\nunits: [{id: J01, hex: 2717}]\nexpect:\n  units: [{id: J01, hex: 2717}]\n").Run(windsys.EventText)
	if !r.Passed {
		t.Fatalf("failed:\n%s", r.Text())
	}
	txt := r.Text()
	for _, w := range []string{"Case: quiet (rule 6.0)", "✓ J01 in 2717", "PASS"} {
		if !strings.Contains(txt, w) {
			t.Errorf("text lacks %q:\n%s", w, txt)
		}
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js, &back); err != nil || back["passed"] != true {
		t.Fatalf("json %s: %v", js, err)
	}
}

// TestMalformed checks that mistakes in a case come back with line:col, all
// of them at once.
func TestMalformed(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"unknown key", "name: x\nunitz: []\n", []string{`2:1: unknown field "unitz" here (did you mean "units"?)`}},
		{"missing name", "rule: \"5\"\n", []string{"1:1: name is missing"}},
		{"unknown key in unit", "name: x\nunits:\n  - {id: J01, hexx: 2717}\n", []string{`3:15: unknown field "hexx" in units[0]`}},
		{"unknown expectation", "name: x\nexpect:\n  position: []\n", []string{`3:3: unknown field "position" in expect`}},
		{"semantic mistakes", `name: x
turn: 0
units:
  - {id: NOPE, hex: 2717}
  - {id: J01, hex: 0101}
  - {id: 1/17-A, hex: 2618, steps: 9, face: down}
  - {id: J02}
supply: {1/17-A: maybe}
dice: [0, 11, 3]
roll: [weather, snow]
expect:
  refused: {orders: 2, errors: [x]}
  units: [{id: J01, hex: 2717, box: pool}]
  zoc: [{hex: 2717}]
`, []string{
			"2:1: turn: turns start at 1",
			`4:5: no unit "NOPE"`,
			"5:5: J01: 0101 is not a land hex",
			"6:5: 1/17-A: steps 9: this unit has 1 to 4 steps",
			"6:5: 1/17-A: face: only Japanese units are ever face down",
			"7:5: J02: hex is missing",
			"8:18: supply: 1/17-A: want in or out",
			`9:8: dice[0]: a die is 1 to 10`,
			`9:11: dice[1]: a die is 1 to 10`,
			"10:17: roll[1]: want weather, airpower or melee",
			"12:12: expect.refused: orders 2: the case has 0 orders files",
			"13:11: expect.units: J01: give hex or box, not both",
			"14:9: expect.zoc: give hex, side (us or jp) and in",
		}},
		// Keys a unit in a box has no use for are refused, not dropped.
		{"unit in a box", `name: x
units:
  - {id: J10, box: pool, steps: 2}
  - {id: J01, box: eliminated, face: up, melee: 2717}
  - {id: 105-1, box: reinforcements, captured: true}
  - {id: 1/17-A, box: offmap, captured: false}
  - {id: 1/17-B, hex: 2618, box: pool}
`, []string{
			"3:5: J10: steps given to a unit in box pool, which would ignore it",
			"4:5: J01: face, melee given to a unit in box eliminated, which would ignore it",
			"5:5: 105-1: captured given to a unit in box reinforcements",
			"6:5: 1/17-A: captured given to a unit in box offmap",
			"7:5: 1/17-B: give hex or box, not both",
		}},
		{"orders inside the case", `name: x
orders:
  - side: us
    actions:
      - move: {unit: 1/17-A, path: [2720, 27x9]}
      - mvoe: {}
`, []string{`5:43: move.path[1]: "27x9" is not a hex`, `6:9: activation 2: unknown order "mvoe"`}},
		{"tab", "name: x\n\tunits: []\n", []string{"2:1: a tab is used for indentation"}},
		{"inline map shape", "name: x\nmap:\n  columns: 10\n", []string{"3:12: map: columns: want a list of 2 values"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.src))
			var errs orders.Errors
			if !errors.As(err, &errs) {
				t.Fatalf("error %v is not orders.Errors", err)
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(c.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(got), len(c.want), err)
			}
			for i, w := range c.want {
				pos, sub, _ := strings.Cut(w, ": ")
				if !strings.HasPrefix(got[i], pos+":") || !strings.Contains(got[i], sub) {
					t.Errorf("error %d = %q, want %q", i, got[i], w)
				}
			}
		})
	}
}

// TestExampleCaseParses keeps the commented example in examples/ in step
// with the format.
func TestExampleCaseParses(t *testing.T) {
	data, err := os.ReadFile("../../../examples/rules-case.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(data); err != nil {
		t.Fatalf("examples/rules-case.yaml:\n%v", err)
	}
}

// wantFailures checks that a case failed with exactly the differences want
// (each a substring of one failure, in order).
func wantFailures(t *testing.T, r *Result, want []string) {
	t.Helper()
	if r.Passed {
		t.Fatalf("a false expectation passed:\n%s", r.Text())
	}
	if len(r.Failures) != len(want) {
		t.Fatalf("failures %q, want %q", r.Failures, want)
	}
	for i, w := range want {
		if !strings.Contains(r.Failures[i], w) {
			t.Errorf("failure %q, want %q", r.Failures[i], w)
		}
	}
}

// A case's standing instructions are judged like an orders file's, each
// mistake at the value it is about.
func TestCaseStandingErrorsPointAtTheValue(t *testing.T) {
	src := "name: bad standing\nunits:\n  - {id: 1/17-A, hex: 2619}\nstanding:\n" +
		"  us: {retreat: sometimes, advance_at: {2618: sideways}}\n  jp: {martinez: never}\n"
	_, err := Parse([]byte(src))
	if err == nil {
		t.Fatal("bad standing instructions accepted")
	}
	for _, want := range []string{`5:17: standing: retreat "sometimes"`, `5:47: standing: advance at 2618 "sideways"`, "6:18: standing: martinez and arnold are U.S. heroes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors lack %q:\n%v", want, err)
		}
	}
}
