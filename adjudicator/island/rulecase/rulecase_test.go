package rulecase

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/orders"
)

// load reads a scenario named by its path from the module's root, as the
// cases in testdata name examples/island-war/ridge-42-invented.yaml.
func load(name string) ([]byte, error) { return os.ReadFile(filepath.Join("../../..", name)) }

func caseFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 150 {
		t.Fatalf("%d rules cases in testdata; the coverage promised is 150 or more", len(files))
	}
	return files
}

// TestCases runs every rules case in testdata; a failing case prints what
// differed and the position at the end.
func TestCases(t *testing.T) {
	for _, name := range caseFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".yaml"), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Parse(data, load)
			if err != nil {
				t.Fatalf("%s:\n%v", name, err)
			}
			if r := c.Run(); !r.Passed {
				t.Errorf("%s failed:\n%s", name, r.Text())
			}
		})
	}
}

// caseNumbers gives the case numbers of rules 5.0 to 10.13, as the rules
// digest lists them: every bracketed number of its sections on movement,
// zones of control, combat, artillery, ground support and Banzai.
func caseNumbers(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("testdata/rules-digest-cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, strings.Fields(l)...)
		}
	}
	return out
}

var citation = regexp.MustCompile(`\b(IW\d+|\d+\.\d+)\b`)

// TestCoverage: every case number of 5.0 to 10.13 and every ruling IW1 to
// IW21 is cited by the rule: key of at least one case, and every file is
// named by a rule it cites.
func TestCoverage(t *testing.T) {
	cited := map[string][]string{}
	for _, name := range caseFiles(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Parse(data, load)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		base := filepath.Base(name)
		first := ""
		for _, m := range citation.FindAllString(c.Rule, -1) {
			cited[m] = append(cited[m], base)
			if first == "" {
				first = m
			}
		}
		if first == "" || !strings.HasPrefix(strings.ToLower(base), strings.ToLower(first)+"-") {
			t.Errorf("%s: the file is named by its first rule, %q (its rule: is %q)", base, first, c.Rule)
		}
	}
	want := caseNumbers(t)
	if len(want) < 80 {
		t.Fatalf("only %d case numbers listed; the digest has 80 and more", len(want))
	}
	for i := 1; i <= 21; i++ {
		want = append(want, "IW"+itoa(i))
	}
	var missing []string
	for _, n := range want {
		if len(cited[n]) == 0 {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no case cites %s", strings.Join(missing, ", "))
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func mustParse(t *testing.T, src string) *Case {
	t.Helper()
	c, err := Parse([]byte(src), load)
	if err != nil {
		t.Fatalf("case does not parse:\n%v", err)
	}
	return c
}

const duel = `system: island-war
name: one attack
rule: "7.0"
map: {columns: 6, rows: 6}
phasing: us
phase: combat
units:
  - {id: U1, side: us, class: infantry, attack: 8, defense: 4, movement: 4, hex: "0302"}
  - {id: J1, side: japan, class: infantry, attack: 4, defense: 4, movement: 4, hex: "0303"}
orders:
  attacks: [{defenders: [J1], attackers: [U1]}]
dice: [1]
`

// TestWrongExpectationsFail: the runner is no rubber stamp; a false
// expectation fails with the difference in words.
func TestWrongExpectationsFail(t *testing.T) {
	cases := []struct{ name, expect, want string }{
		{"result", "  attacks: [{result: D1}]\n", "attack 1: expected result D1, got D2"},
		{"column", "  attacks: [{column: 8}]\n", "attack 1: expected column 8, got 9"},
		{"differential", "  attacks: [{differential: 3}]\n", "attack 1: expected differential 3, got 4"},
		{"line", "  attacks: [{line: rough}]\n", "attack 1: expected the rough line, got clear"},
		{"hex", "  units: [{id: U1, hex: \"0301\"}]\n", "U1: expected in 0301, got 0302"},
		{"eliminated", "  eliminated: [J1]\n", "eliminated: expected J1, got none"},
		{"refused", "  refused: [{rule: \"5.12\", reason: enemy}]\n", "expected a refusal by rule 5.12"},
		{"missing attack", "  attacks: [{}, {result: NE}]\n", "attack 2: expected, but the phase made 1 attack(s)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustParse(t, duel+"expect:\n"+c.expect).Run()
			if r.Passed {
				t.Fatalf("a false expectation passed:\n%s", r.Text())
			}
			if !strings.Contains(strings.Join(r.Failures, "\n"), c.want) {
				t.Errorf("failures %q lack %q", r.Failures, c.want)
			}
			if !strings.Contains(r.Text(), "✗") || !strings.Contains(r.Text(), "FAIL") {
				t.Errorf("text output hides the failure:\n%s", r.Text())
			}
		})
	}
	r := mustParse(t, duel+"expect:\n  attacks: [{attack: 8, defense: 4, differential: 4, line: clear, column: 9, die: 1, result: D2}]\n").Run()
	if !r.Passed {
		t.Errorf("+4 on the clear line is column 9, and die 1 there is D2:\n%s", r.Text())
	}
}

// TestDiceMustAllBeRolled: forced dice that run out or are left over fail
// the case.
func TestDiceMustAllBeRolled(t *testing.T) {
	for _, dice := range []string{"dice: []\n", "dice: [1, 2]\n"} {
		src := strings.Replace(duel, "dice: [1]\n", dice, 1)
		if r := mustParse(t, src).Run(); r.Passed || len(r.Errors) == 0 {
			t.Errorf("%q: the case passed without its dice:\n%s", dice, r.Text())
		}
	}
}

// TestMistakesAtLineCol: bad keys and values are refused at their place.
func TestMistakesAtLineCol(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"unknown key", strings.Replace(duel, "phase: combat", "phase: combat\nweather: rain", 1), "7:1: unknown field"},
		{"system", strings.Replace(duel, "system: island-war", "system: chess", 1), "1:1: system: want island-war"},
		{"die", strings.Replace(duel, "dice: [1]", "dice: [7]", 1), "12:8: dice: 7 is no roll"},
		{"stacking", strings.Replace(duel, `hex: "0303"`, `hex: "0302"`, 1), "units: J1: hex 0302 already holds U1"},
		{"class", strings.Replace(duel, "class: infantry, attack: 8", "class: marine, attack: 8", 1), "8:5: units: U1: class"},
		{"terrain", strings.Replace(duel, "map: {columns: 6, rows: 6}", "map: {columns: 6, rows: 6, terrain: {swamp: [\"0101\"]}}", 1), "map: terrain: no terrain \"swamp\""},
		{"result", duel + "expect: {attacks: [{result: D4}]}\n", "expect: attacks: result \"D4\""},
		{"value", strings.Replace(duel, "attack: 8,", "attack: 500,", 1), "8:5: units: U1: attack: 500: want 0 to 99"},
		{"big map", strings.Replace(duel, "columns: 6", "columns: 41", 1), "map: columns and rows must each be 1 to 40"},
		{"no map", strings.Replace(duel, "map: {columns: 6, rows: 6}\n", "", 1), "the case needs a map"},
		{"scenario unit", "system: island-war\nname: x\nrule: \"3.0\"\nscenario: examples/island-war/ridge-42-invented.yaml\nunits: [{id: NOPE, hex: \"0303\"}]\n", "5:9: units: the scenario has no unit \"NOPE\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.src), load)
			if err == nil {
				t.Fatalf("accepted")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("got\n%v\nwant %q", err, c.want)
			}
		})
	}
}

// FuzzParse: no case file, however broken, makes Parse or Run panic, and
// every refusal points at a line and column.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, name := range files[:min(len(files), 40)] {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	if data, err := os.ReadFile("../../../examples/island-war/rules-case.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(duel))
	f.Add([]byte("system: island-war\nname: x\nrule: x\nmap: {columns: 0, rows: 2}\n"))
	f.Add([]byte("system: island-war\nname: x\nrule: x\nmap: {columns: 2, rows: 2, hexsides: {river: [0101-0202]}}\nunits: [{id: A, side: us, class: artillery, hex: \"0101\"}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, func(string) ([]byte, error) { return nil, errors.New("no files in the fuzz test") })
		if err != nil {
			var errs orders.Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("error is not a non-empty orders.Errors: %v", err)
			}
			for _, e := range errs {
				if e.Line < 1 || e.Col < 1 {
					t.Fatalf("error without a position: %+v", e)
				}
			}
			return
		}
		r := c.Run()
		if r.Passed != (len(r.Failures) == 0) {
			t.Fatalf("passed %v with failures %q", r.Passed, r.Failures)
		}
		_ = r.Text()
	})
}

// TestRulingsNameTheirCases: the Island War section of RULINGS.md names,
// under each ruling, every case whose rule: cites it (the table cases by
// their pattern), and only files that exist.
func TestRulingsNameTheirCases(t *testing.T) {
	data, err := os.ReadFile("../../../RULINGS.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i := strings.Index(text, "\n# Island War")
	if i < 0 {
		t.Fatal("RULINGS.md has no Island War section")
	}
	named := map[string]string{} // ruling -> its Cases paragraph
	for _, sec := range regexp.MustCompile(`(?m)^### `).Split(text[i:], -1)[1:] {
		id := strings.TrimSuffix(strings.Fields(sec)[0], ".")
		k := strings.Index(sec, "**Cases:**")
		if k < 0 {
			t.Errorf("%s names no cases", id)
			continue
		}
		named[id] = sec[k:]
	}
	for _, name := range caseFiles(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(name)
		m := regexp.MustCompile(`(?m)^rule: "(.*)"`).FindStringSubmatch(string(data))
		if m == nil {
			t.Fatalf("%s: no rule: line", base)
		}
		for _, id := range regexp.MustCompile(`\bIW\d+\b`).FindAllString(m[1], -1) {
			cases := named[id]
			ok := strings.Contains(cases, "`"+base+"`")
			if strings.HasPrefix(base, "7.61-crt-") {
				ok = strings.Contains(cases, "`7.61-crt-*.yaml`") || (strings.Contains(base, "-river-") && strings.Contains(cases, "`7.61-crt-river-*.yaml`"))
			}
			if !ok {
				t.Errorf("%s cites %s, but RULINGS.md does not name it under %s", base, id, id)
			}
		}
	}
	for id, cases := range named {
		for _, m := range regexp.MustCompile("`([^`*]+\\.yaml)`").FindAllStringSubmatch(cases, -1) {
			if _, err := os.Stat(filepath.Join("testdata", m[1])); err != nil {
				t.Errorf("RULINGS.md names %s under %s, which is no case", m[1], id)
			}
		}
	}
}
