package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runAttu(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

const holdingCase = `name: a platoon on Engineer Hill
rule: "6.0"
units:
  - {id: J01, hex: 2717}
  - {id: 1/17-A, hex: 2618}
expect:
  units: [{id: J01, hex: 2717, face: down}]
  zoc: [{hex: 2618, side: jp, in: true}]
`

func TestSandboxPass(t *testing.T) {
	p := writeFile(t, "case.yaml", holdingCase)
	code, out, errs := runAttu("sandbox", p)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	for _, w := range []string{"Case: a platoon on Engineer Hill (rule 6.0)", "✓ J01 in 2717, face down", "✓ 2618 in a jp ZOC", "PASS"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestSandboxFail(t *testing.T) {
	p := writeFile(t, "case.yaml", strings.Replace(holdingCase, "hex: 2717, face: down", "hex: 2718, face: up", 1))
	code, out, _ := runAttu("sandbox", p)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, w := range []string{"✗ J01 in 2718, face up", "J01: expected hex 2718, got 2717; expected face up, got down", "2717 ", "J01 (1 step, face down)", "FAIL", "Hexes 2618, 2717, 2718", "J1"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestSandboxJSON(t *testing.T) {
	p := writeFile(t, "case.yaml", strings.Replace(holdingCase, "in: true", "in: false", 1))
	code, out, _ := runAttu("sandbox", p, "--json")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var r struct {
		Name     string
		Passed   bool
		Failures []string
		Checks   []struct {
			Expect string
			OK     bool
		}
		Units []struct{ ID, Hex string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if r.Passed || len(r.Failures) != 1 || len(r.Checks) != 2 || len(r.Units) != 2 || r.Units[0].Hex == "" {
		t.Fatalf("result %+v", r)
	}
}

func TestSandboxMalformed(t *testing.T) {
	p := writeFile(t, "bad.yaml", "name: x\nunits:\n  - {id: J01, hexx: 2717}\nexpect: {colour: red}\n")
	code, out, errs := runAttu("sandbox", p)
	if code != 2 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], p+":3:15: unknown field \"hexx\"") || !strings.HasPrefix(lines[1], p+":4:10: unknown field \"colour\"") {
		t.Fatalf("stderr:\n%s", errs)
	}
}

func TestSandboxUsage(t *testing.T) {
	code, out, _ := runAttu("sandbox", "-h")
	if code != 0 || !strings.Contains(out, "Example:") || !strings.Contains(out, "attu sandbox") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if code, _, errs := runAttu("sandbox"); code != 2 || !strings.Contains(errs, "give one case file") {
		t.Fatalf("no file: exit %d, %q", code, errs)
	}
	if code, _, errs := runAttu("sandbox", "/nonexistent/case.yaml"); code != 2 || strings.Count(errs, "\n") != 1 {
		t.Fatalf("missing file: exit %d, %q", code, errs)
	}
}

// A case may start from a scenario's setup instead of units placed by
// hand: the sandbox creates the game and plays the setup orders.
func TestSandboxScenario(t *testing.T) {
	p := writeFile(t, "case.yaml", `name: the Hog's Back begins with the Japanese setup
rule: "15.1"
scenario: {name: up-the-hogs-back}
expect:
  units: [{id: U01, box: setup}, {id: 1/17-A, box: unused}]
  phase: jp-setup
`)
	code, out, errs := runAttu("sandbox", p)
	if code != 0 || errs != "" || !strings.Contains(out, "Japanese setup, turn 1 (May 11)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}
