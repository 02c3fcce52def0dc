package island

import (
	"fmt"
	"strings"
	"testing"

	oi "github.com/attu-pbem/attu/orders/island"
)

// TestCheckGolden judges files that break the rules in the first U.S.
// Player-Turn of Ridge 42 (both set-ups by default) and holds the
// problems, each at its line and column, to a golden file.
func TestCheckGolden(t *testing.T) {
	p := opening(t)
	for p.Wait().Kind == oi.WaitSetup {
		_, o, err := Rules{}.DefaultFile("g1", p, "test")
		if err != nil {
			t.Fatal(err)
		}
		p, _ = step(t, p, o, &rolls{faces: []int{1}})
	}
	head := "game: g1\nside: us\nturn: 1\nwait: orders\ntoken: t\n"
	files := map[string]string{
		"unknown-unit":    "moves:\n  - {unit: 9/9, path: [\"0303\"]}\n",
		"enemy-unit":      "moves:\n  - {unit: I/124, path: [\"0604\"]}\n",
		"stacked":         "moves:\n  - {unit: 1/5, path: [\"0203\"]}\n",
		"out-of-range":    "attacks:\n  - {defenders: [T/2], barrage: [1/11]}\n",
		"own-defender":    "attacks:\n  - {defenders: [2/5], barrage: [1/11]}\n",
		"too-much-gsp":    "attacks:\n  - {defenders: [I/124], barrage: [1/11], gsp: 9}\n",
		"standing-enemy":  "standing:\n  fpf:\n    - {protect: I/124, artillery: [M/28]}\n",
		"standing-no-gun": "standing:\n  fpf:\n    - {protect: 1/5, artillery: [2/5]}\n",
	}
	var b strings.Builder
	for _, name := range []string{"unknown-unit", "enemy-unit", "stacked", "out-of-range", "own-defender", "too-much-gsp", "standing-enemy", "standing-no-gun"} {
		raw := head + files[name]
		o := read(t, raw)
		ps := (Rules{}).Check(p, o)
		if len(ps) == 0 {
			t.Errorf("%s: no problem found in\n%s", name, raw)
		}
		fmt.Fprintf(&b, "== %s\n%s", name, raw)
		for _, pr := range ps {
			fmt.Fprintf(&b, "  %s\n", pr)
		}
	}
	stale := strings.Replace(head, "turn: 1", "turn: 3", 1)
	pr := (Rules{}).Stale(p, read(t, stale))
	if pr == nil {
		t.Fatal("a file for Game-Turn 3 is not stale in Game-Turn 1")
	}
	fmt.Fprintf(&b, "== stale\n%s  %s\n", stale, pr)
	golden(t, "testdata/check.txt", []byte(b.String()))
}

// TestCheckCollectsAttacksBesideMoves: a file with a refused move still
// hears of a mistake in an attack that does not depend on it.
func TestCheckCollectsAttacksBesideMoves(t *testing.T) {
	p := opening(t)
	for p.Wait().Kind == oi.WaitSetup {
		_, o, _ := Rules{}.DefaultFile("g1", p, "test")
		p, _ = step(t, p, o, &rolls{faces: []int{1}})
	}
	raw := "game: g1\nside: us\nturn: 1\nwait: orders\ntoken: t\nmoves:\n  - {unit: 1/5, path: [\"0902\"]}\nattacks:\n  - {defenders: [T/2], barrage: [1/11]}\n  - {defenders: [I/124], attackers: [1/5]}\n"
	ps := (Rules{}).Check(p, read(t, raw))
	var lines []string
	for _, pr := range ps {
		lines = append(lines, pr.String())
	}
	got := strings.Join(lines, "\n")
	if !strings.Contains(got, "7:5: rule 5.0") || !strings.Contains(got, "9:5: rule 8.11") || strings.Contains(got, "10:5:") {
		t.Errorf("problems:\n%s\nwant the move at line 7 and the barrage at line 9, not the attack of the refused 1/5", got)
	}
}
