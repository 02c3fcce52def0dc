package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const islandCase = `system: island-war
name: the worked example of 7.0
rule: "7.0, IW1"
map:
  columns: 8
  rows: 8
  hexsides: {river: ["0404-0405"]}
phasing: us
phase: combat
units:
  - {id: U1, side: us, class: infantry, attack: 13, defense: 4, movement: 4, hex: "0404"}
  - {id: J1, side: japan, class: infantry, attack: 4, defense: 4, movement: 4, hex: "0405"}
orders:
  attacks: [{defenders: [J1], attackers: [U1]}]
dice: [1]
expect:
  attacks: [{differential: 9, line: river, column: 10, die: 1, result: D3}]
`

func TestSandboxIslandPass(t *testing.T) {
	p := writeFile(t, "case.yaml", islandCase)
	code, out, errs := runAttu("sandbox", p)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	for _, w := range []string{"Case: the worked example of 7.0 (rule 7.0, IW1)", "attack 1: U1 on J1: 13 to 4, +9, river line column 10, die 1: D3", "✓ attack 1: result D3", "PASS: 5 of 5"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestSandboxIslandFail(t *testing.T) {
	p := writeFile(t, "case.yaml", strings.Replace(islandCase, "result: D3", "result: D2", 1))
	code, out, _ := runAttu("sandbox", p)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, w := range []string{"✗ attack 1: result D2", "attack 1: expected result D2, got D3", "The position at the end:", "FAIL: 1 problem(s)"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestSandboxIslandJSON(t *testing.T) {
	p := writeFile(t, "case.yaml", strings.Replace(islandCase, "column: 10", "column: 9", 1))
	code, out, _ := runAttu("sandbox", "--json", p)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	var r struct {
		Name     string
		Passed   bool
		Failures []string
		Events   []struct {
			Kind   string
			Combat *struct{ Column, Die int }
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if r.Passed || len(r.Failures) != 1 || !strings.Contains(r.Failures[0], "expected column 9, got 10") {
		t.Errorf("passed %v, failures %q", r.Passed, r.Failures)
	}
	if len(r.Events) == 0 || r.Events[0].Combat == nil || r.Events[0].Combat.Column != 10 {
		t.Errorf("events %+v", r.Events)
	}
}

func TestSandboxIslandMalformed(t *testing.T) {
	p := writeFile(t, "case.yaml", strings.Replace(islandCase, "phase: combat", "phase: combat\nweather: rain", 1))
	code, out, errs := runAttu("sandbox", p)
	if code != 2 || out != "" {
		t.Fatalf("exit %d, want 2; stdout %q", code, out)
	}
	if !strings.Contains(errs, "case.yaml:10:1: ") || !strings.Contains(errs, "weather") {
		t.Errorf("stderr %q", errs)
	}
}

func TestSandboxUnknownSystem(t *testing.T) {
	p := writeFile(t, "case.yaml", strings.Replace(islandCase, "system: island-war", "system: chess", 1))
	code, _, errs := runAttu("sandbox", p)
	if code != 2 || !strings.Contains(errs, "case.yaml:1:9: system: \"chess\" is no game system") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// TestSandboxIslandScenario runs a project case that names the shipped
// scenario by its path from the module's root: it is found from the
// case's own directory upwards.
func TestSandboxIslandScenario(t *testing.T) {
	code, out, errs := runAttu("sandbox", "../../adjudicator/island/rulecase/testdata/9.14-ground-support-lost-at-turn-end.yaml")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	if !strings.Contains(out, "✓ us has 3 Ground Support Points left") {
		t.Errorf("output:\n%s", out)
	}
}

// TestSandboxIslandExample: the commented example case passes.
func TestSandboxIslandExample(t *testing.T) {
	code, out, errs := runAttu("sandbox", "../../examples/island-war/rules-case.yaml")
	if code != 0 || errs != "" || !strings.Contains(out, "PASS: 12 of 12") {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
}
