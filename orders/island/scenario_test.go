package island

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	iw "github.com/attu-pbem/attu/adjudicator/island"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const example = "../../examples/island-war/ridge-42-invented.yaml"

func readExample(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The shipped scenario reads with no problem, and what it says arrives in
// the scenario: a user reading the file would expect these values.
func TestScenarioExample(t *testing.T) {
	sc, ps := ParseScenario(readExample(t))
	if len(ps) > 0 {
		t.Fatalf("the example has problems:\n%v", ps)
	}
	if !sc.Invented || sc.Name != "Ridge 42" || sc.GameTurns != 8 || sc.FirstPlayer != iw.US {
		t.Errorf("header: invented %v, name %q, %d turns, first %s", sc.Invented, sc.Name, sc.GameTurns, sc.FirstPlayer)
	}
	if g := sc.Grid; g.Columns != 12 || g.Rows != 10 || g.Shifted != iw.ShiftOdd {
		t.Errorf("grid %+v", g)
	}
	for hex, want := range map[string]string{"0101": "sea", "0305": "town", "0904": "rough", "0406": "swamp", "0202": "clear", "0701": "jungle"} {
		h, _ := iw.ParseHex(hex)
		if got := sc.TerrainOf(h).Name; got != want {
			t.Errorf("hex %s is %s, want %s", hex, got, want)
		}
	}
	hex := func(s string) iw.Hex { h, _ := iw.ParseHex(s); return h }
	for _, c := range []struct {
		a, b  string
		class iw.FeatureClass
	}{{"0501", "0602", iw.ClassRiver}, {"0504", "0604", iw.ClassRiver}, {"1105", "1205", iw.ClassRoad}, {"0904", "1004", iw.ClassTrail}, {"0702", "0802", iw.ClassProhibited}, {"0908", "0907", iw.ClassProhibited}} {
		if !sc.HasClass(hex(c.a), hex(c.b), c.class) {
			t.Errorf("hexside %s-%s has no %s: %v", c.a, c.b, c.class, sc.FeaturesOf(hex(c.a), hex(c.b)))
		}
	}
	if sc.HasClass(hex("0505"), hex("0605"), iw.ClassRiver) {
		t.Error("the road crosses the river at 0505-0605")
	}
	// Every line of the CRT is used, by a terrain or a hexside feature.
	used := map[iw.Line]bool{}
	for _, tt := range sc.Key.Terrain {
		used[tt.Line] = true
	}
	for _, f := range sc.Key.Hexsides {
		used[f.Line] = true
	}
	for _, l := range []iw.Line{iw.LineClear, iw.LineRiver, iw.LineBroken, iw.LineRough} {
		if !used[l] {
			t.Errorf("no terrain uses the %s line", l)
		}
	}
	art, _ := sc.Unit("1/11")
	if art.Barrage != 6 || art.FPF != 3 || art.Range != 5 || art.Defense != 2 || art.Movement != 3 || sc.ClassOf(art) != iw.Artillery {
		t.Errorf("1/11 is %+v", art)
	}
	classes := map[iw.Side]map[iw.Class]bool{iw.US: {}, iw.Japan: {}}
	for _, u := range sc.Units {
		classes[u.Side][sc.ClassOf(u)] = true
	}
	for _, side := range []iw.Side{iw.US, iw.Japan} {
		for _, c := range []iw.Class{iw.Infantry, iw.Engineer, iw.Armor, iw.Artillery} {
			if !classes[side][c] {
				t.Errorf("%s has no %s", side, c)
			}
		}
	}
	if got := sc.SupportFor(5, iw.Japan); got != 2 {
		t.Errorf("Japanese ground support on turn 5 is %d, want 2", got)
	}
	if got := sc.SupportFor(2, iw.Japan) + sc.SupportFor(2, iw.US); got != 3 {
		t.Errorf("ground support on turn 2 (\"3\", U.S. only) is %d in all, want 3", got)
	}
	arriving := 0
	for _, r := range sc.Reinforcements {
		arriving += len(r.Units)
	}
	if len(sc.Reinforcements) != 4 || arriving != 6 || sc.Setup.First != iw.Japan || len(sc.Setup.Placements) != 14 || len(sc.Units) != 20 {
		t.Errorf("%d reinforcements of %d units, %d placements of %d units, first %s", len(sc.Reinforcements), arriving, len(sc.Setup.Placements), len(sc.Units), sc.Setup.First)
	}
	if len(sc.Areas["crest"]) != 8 || len(sc.Areas["beach"]) != 7 {
		t.Errorf("areas: crest %v, beach %v", sc.Areas["crest"], sc.Areas["beach"])
	}
	if len(sc.Victory.Outcomes) != 5 || sc.Victory.Outcomes[4].Winner != iw.Japan {
		t.Errorf("outcomes %+v", sc.Victory.Outcomes)
	}
}

// The example says it is invented, in its name and its text.
func TestScenarioExampleMarkedInvented(t *testing.T) {
	if !strings.Contains(filepath.Base(example), "invented") {
		t.Errorf("%s: the file name does not say invented", example)
	}
	if !bytes.Contains(readExample(t), []byte("AN INVENTED SCENARIO")) {
		t.Errorf("%s: the text does not say it is invented", example)
	}
}

// Each broken file gives exactly the problems of its golden file, every
// one at a line and column, and no scenario.
func TestScenarioBroken(t *testing.T) {
	files, err := filepath.Glob("testdata/broken/*.yaml")
	if err != nil || len(files) < 20 {
		t.Fatalf("%d broken files, %v", len(files), err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			sc, ps := ParseScenario(data)
			if sc != nil || len(ps) == 0 {
				t.Fatalf("no problem found (scenario %v)", sc != nil)
			}
			var got bytes.Buffer
			for _, p := range ps {
				if p.Line < 1 || p.Col < 1 || p.What == "" || p.Fix == "" {
					t.Errorf("problem without a place, a what or a fix: %+v", p)
				}
				got.WriteString(p.String() + "\n")
			}
			golden := strings.TrimSuffix(name, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./orders/island -update)", err)
			}
			if got.String() != string(want) {
				t.Errorf("problems differ from %s:\n--- got\n%s--- want\n%s", golden, got.String(), want)
			}
		})
	}
}

// A file of many mistakes costs no more than MaxProblems lines.
func TestScenarioProblemsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: x\n")
	for i := range 500 {
		b.WriteString("k" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ": 1\n")
	}
	_, ps := ParseScenario([]byte(b.String()))
	if len(ps) != MaxProblems {
		t.Errorf("%d problems, want %d", len(ps), MaxProblems)
	}
}

// FuzzParseScenario feeds arbitrary bytes to ParseScenario: it must never
// panic, every problem must point into the file, and a file it accepts
// must hold what the engine trusts and begin a game in it.
func FuzzParseScenario(f *testing.F) {
	f.Add(readExample(f))
	files, _ := filepath.Glob("testdata/broken/*.yaml")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("a: &a [x, x]\nb: [*a, *a]\n"))
	f.Add([]byte("map: {columns: 99, rows: 99, shifted: odd, terrain: {default: clear}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, ps := ParseScenario(data)
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, p := range ps {
			if p.Line < 1 || p.Line > lines || p.Col < 1 {
				t.Fatalf("problem outside the file (%d lines): %v", lines, p)
			}
		}
		if (sc == nil) == (len(ps) == 0) {
			t.Fatalf("scenario %v with %d problems", sc != nil, len(ps))
		}
		if sc != nil {
			trusted(t, sc)
			iw.New(sc).Start() // the engine trusts what the checker passed: no panic
		}
	})
}

// trusted checks what iw.Scenario's doc says the engine may rely on.
func trusted(t *testing.T, sc *iw.Scenario) {
	t.Helper()
	if sc.GameTurns < 1 {
		t.Fatalf("%d game turns", sc.GameTurns)
	}
	for p, fs := range sc.Hexsides {
		if !sc.Grid.On(p.A) || !sc.Grid.On(p.B) || !sc.Grid.Adjacent(p.A, p.B) {
			t.Fatalf("hexside %s", p)
		}
		for _, f := range fs {
			if sc.Feature(f).Class == iw.ClassOther && sc.Feature(f).Name != f {
				t.Fatalf("feature %s not in the key", f)
			}
		}
	}
	ids := map[string]int{}
	for _, u := range sc.Units {
		ids[u.ID]++
		if sc.ClassOf(u) == iw.Artillery && (u.Barrage < 1 || u.Range < 1) {
			t.Fatalf("artillery %+v", u)
		}
	}
	for _, p := range sc.Setup.Placements {
		ids[p.Unit] += 10
	}
	for _, r := range sc.Reinforcements {
		if r.Turn < 1 || r.Turn > sc.GameTurns {
			t.Fatalf("reinforcement on turn %d", r.Turn)
		}
		for _, u := range r.Units {
			ids[u] += 10
		}
	}
	for id, n := range ids {
		if n != 11 {
			t.Fatalf("unit %s listed/entering %d", id, n)
		}
	}
}

// BenchmarkParseScenario reads the shipped example.
func BenchmarkParseScenario(b *testing.B) {
	data := readExample(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, ps := ParseScenario(data); len(ps) > 0 {
			b.Fatal(ps)
		}
	}
}

// The example is a game the engine can begin: fixed units on their hexes,
// the Japanese placing first (setup.first), then the U.S. player, then
// Game-Turn 1 with the track's ground support.
func TestScenarioExampleStartsAGame(t *testing.T) {
	sc, ps := ParseScenario(readExample(t))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	e := iw.New(sc)
	p, _ := e.Start()
	for _, side := range []iw.Side{iw.Japan, iw.US} {
		if p.Phase != iw.PhaseSetup || p.Phasing != side {
			t.Fatalf("phase %s, %s placing; want set-up by %s", p.Phase, p.Phasing, side)
		}
		taken := map[iw.Hex]bool{}
		for _, pc := range p.Pieces {
			if pc.Where == iw.OnMap {
				taken[pc.Hex] = true
			}
		}
		hexes := map[string]iw.Hex{}
		for _, pl := range sc.Setup.Placements {
			if u, _ := sc.Unit(pl.Unit); pl.Area == "" || u.Side != side {
				continue
			}
			for _, h := range sc.Areas[pl.Area] {
				if !taken[h] {
					hexes[pl.Unit], taken[h] = h, true
					break
				}
			}
		}
		var problems []iw.Problem
		p, _, problems = e.Deploy(p, hexes)
		if len(problems) > 0 {
			t.Fatalf("%s's set-up: %v", side, problems)
		}
	}
	if p.Turn != 1 || p.Phase != iw.PhaseMovement || p.Phasing != iw.US || p.GSP[iw.US] != 4 || p.GSP[iw.Japan] != 1 {
		t.Errorf("turn %d, %s phase of %s, support %v; want turn 1, the U.S. Movement Phase, 4/1", p.Turn, p.Phase, p.Phasing, p.GSP)
	}
}
