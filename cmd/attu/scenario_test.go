package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const scenarioExample = "../../examples/island-war/ridge-42-invented.yaml"

// attu scenario check answers a sound file with one line and exit 0.
func TestScenarioCheckSound(t *testing.T) {
	code, out, errs := runAttu("scenario", "check", scenarioExample)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	want := scenarioExample + ": Ridge 42 (invented) is sound: 12x10 hexes, 8 game-turns, U.S. player first; 10 U.S. and 10 Japanese units, 6 of them arriving later; 7 ways to score, 5 outcomes\n"
	if out != want {
		t.Errorf("got  %q\nwant %q", out, want)
	}
}

// A broken file gets every problem as FILE:line:col: what; what to change,
// the same ones the scenario reader's golden file holds, and exit 1.
func TestScenarioCheckBroken(t *testing.T) {
	name := "../../orders/island/testdata/broken/many-mistakes.yaml"
	golden, err := os.ReadFile(strings.TrimSuffix(name, ".yaml") + ".golden")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runAttu("scenario", "check", name)
	if code != 1 || errs != "" {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	var want strings.Builder
	for _, line := range strings.SplitAfter(strings.TrimSuffix(string(golden), "\n"), "\n") {
		want.WriteString(name + ":" + line)
	}
	if out != want.String()+"\n" {
		t.Errorf("got\n%swant\n%s", out, want.String())
	}
	lineRE := regexp.MustCompile(`^` + regexp.QuoteMeta(name) + `:\d+:\d+: [^;]+; .+$`)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !lineRE.MatchString(line) {
			t.Errorf("not FILE:line:col: what; fix: %q", line)
		}
	}
	if n := strings.Count(out, "\n"); n != 5 {
		t.Errorf("%d problems, want the file's 5", n)
	}
}

// Usage mistakes and unreadable files exit 2; -h shows an example that
// works.
func TestScenarioCheckUsage(t *testing.T) {
	for _, args := range [][]string{{"scenario"}, {"scenario", "check"}, {"scenario", "verify", scenarioExample}, {"scenario", "check", filepath.Join(t.TempDir(), "none.yaml")}, {"scenario", "check", "-x", scenarioExample}} {
		if code, out, errs := runAttu(args...); code != 2 || errs == "" {
			t.Errorf("attu %s: exit %d, want 2\n%s%s", strings.Join(args, " "), code, out, errs)
		}
	}
	code, out, _ := runAttu("scenario", "-h")
	if code != 0 || !strings.Contains(out, "Example:\n  attu scenario check examples/island-war/ridge-42-invented.yaml\n") {
		t.Fatalf("attu scenario -h: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join("../..", "examples/island-war/ridge-42-invented.yaml")); err != nil {
		t.Errorf("the help's example file: %v", err)
	}
}
