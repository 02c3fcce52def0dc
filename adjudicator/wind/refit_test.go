package wind

import (
	"strconv"
	"strings"
	"testing"
)

// lossRecoveryRules is the Loss Recovery table of rule 9.1 as the rulebook
// prints it, typed again here independently of the table in refit.go: one
// line per modified roll from 2 to 20, then the steps for casualties 1 to
// 29.
const lossRecoveryRules = `
2   0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
3   0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
4   0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
5   0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
6   0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
7   0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 1 1 1 1 1 1 1 1 1 1 1
8   0 0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2 2 2 2 2
9   0 1 1 1 1 1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 2 2 3 3 3 3 3
10  1 1 1 1 1 2 2 2 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 4 4 4 4 4 4
11  1 1 1 2 2 2 3 3 3 3 3 3 3 3 3 3 4 4 4 4 4 5 5 5 5 5 6 6 6
12  1 1 2 2 2 3 3 4 4 4 4 4 4 4 4 4 5 5 5 6 6 6 6 7 7 7 8 8 8
13  1 1 2 2 3 3 4 4 4 5 5 5 5 5 5 6 6 6 7 7 8 8 8 9 9 9 10 10 10
14  1 1 2 3 3 3 4 4 5 5 6 6 6 6 7 7 8 8 9 9 9 10 10 11 11 12 12 13 13
15  1 2 2 3 3 4 4 5 5 6 6 7 7 7 8 8 9 9 10 10 11 11 12 12 13 13 14 14 15
16  1 2 2 3 4 4 5 6 6 6 7 7 7 8 8 9 9 10 10 11 12 12 13 13 14 14 15 15 16
17  1 2 3 3 4 5 6 6 6 7 8 8 8 9 10 10 11 12 12 13 13 14 15 15 16 17 17 18 19
18  1 2 3 4 4 5 6 7 7 8 9 9 10 10 11 12 13 13 14 14 15 16 17 17 18 19 19 20 21
19  1 2 3 4 5 5 6 7 8 9 9 10 10 11 12 13 13 14 15 16 17 17 18 19 20 21 21 22 23
20  1 2 3 4 5 6 7 8 8 9 10 11 11 12 13 14 14 15 16 17 18 19 20 20 21 22 23 24 25
`

// TestLossRecoveryTable checks every cell of the table (rule 9.1), rows 2
// to 20 and columns 1 to 29, against the rulebook's.
func TestLossRecoveryTable(t *testing.T) {
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(lossRecoveryRules), "\n") {
		f := strings.Fields(line)
		if len(f) != 30 {
			t.Fatalf("transcription line %q has %d fields, want 30", line, len(f))
		}
		roll, _ := strconv.Atoi(f[0])
		for c := 1; c <= 29; c++ {
			want, _ := strconv.Atoi(f[c])
			if got := LossRecovery(roll, c); got != want {
				t.Errorf("roll %d, %d casualties: %d steps, the rulebook says %d", roll, c, got, want)
			}
		}
		rows++
	}
	if rows != 19 {
		t.Fatalf("%d rows transcribed, want 19 (2 to 20)", rows)
	}
	// The reading of the table's edges (refit.go).
	for _, c := range []struct{ total, casualties, want int }{
		{1, 29, 0}, {-3, 29, 0}, // below 2 reads as 2
		{20, 0, 0}, {12, 0, 0}, // nothing lost, nothing to recover
		{12, 16, 4},  // the example of rule 9.0
		{21, 29, 25}, // cannot happen, reads as 20
	} {
		if got := LossRecovery(c.total, c.casualties); got != c.want {
			t.Errorf("LossRecovery(%d, %d) = %d, want %d", c.total, c.casualties, got, c.want)
		}
	}
}

func TestLossRecoveryModifiers(t *testing.T) {
	for _, c := range []struct {
		d1, d2   int
		w        Weather
		scenario string
		want     int
	}{
		{7, 7, Williwaw, "", 12}, // the example of rule 9.0
		{7, 7, Fog, "", 13},
		{7, 7, Rain, "", 14},
		{7, 7, Cloudy, "", 14},
		{7, 7, Cloudy, ScenarioUpTheHogsBack, 12},
		{7, 7, Williwaw, ScenarioHoltzBayToJarminPass, 9},
		{1, 1, Williwaw, ScenarioTheLinkup, -2},
	} {
		if got := LossRecoveryTotal(c.d1, c.d2, c.w, RefitModifier(c.scenario)); got != c.want {
			t.Errorf("%d+%d in %s, scenario %q: %d, want %d", c.d1, c.d2, c.w, c.scenario, got, c.want)
		}
	}
}

// scatterRules is the Landing Scatter Chart of rule 9.2.2, typed from the
// rulebook for this test: for each staging zone, what a die of 1 to 10
// does: "-" delayed, "=" landed, a letter scattered to that zone.
var scatterRules = map[string]string{
	"A": "--========",
	"B": "--========",
	"C": "-EEDD=====",
	"D": "-FFEE=====",
	"E": "-GGFF=====",
	"F": "-EEGG=====",
	"G": "---FF=====",
	"H": "--II======",
	"I": "--HH======",
}

// TestLandingScatterChart lands a unit at every zone with every die in
// every weather and checks where it comes ashore (rule 9.2.2): the die
// less 1 in fog and 2 in a williwaw, a result below 1 read as 1.
func TestLandingScatterChart(t *testing.T) {
	for zone, row := range scatterRules {
		for _, w := range []Weather{Cloudy, Rain, Fog, Williwaw} {
			for die := 1; die <= 10; die++ {
				s := game(t, nil)
				s.Weather, s.Turn = w, 3
				s.await(WaitUSRefit, US)
				if err := s.Place("1/32-A", 0, BoxReinforcements); err != nil {
					t.Fatal(err)
				}
				out, evs := resolve(t, s, Orders{Side: US, Wait: WaitUSRefit, Refit: &Refit{Land: []Landing{{Unit: "1/32-A", Zone: zone}}}}, die)
				face := max(die+WeatherRefitModifier(w), 1)
				u, _ := out.Unit("1/32-A")
				switch want := row[face-1]; want {
				case '-':
					if u.OnMap() || u.Box != BoxReinforcements {
						t.Errorf("zone %s, die %d in %s: want delayed, got %s/%q: %s", zone, die, w, u.Hex, u.Box, texts(evs))
					}
				default:
					to := zone
					if want != '=' {
						to = string(want)
					}
					lz, _ := out.Map().LandingZone(to)
					if u.Hex != lz.Hex || u.Steps != 4 {
						t.Errorf("zone %s, die %d in %s (%d): want zone %s (%s), got %s/%q with %d steps: %s",
							zone, die, w, face, to, lz.Hex, u.Hex, u.Box, u.Steps, texts(evs))
					}
				}
			}
		}
	}
}

func texts(evs []Event) string {
	var out []string
	for _, e := range evs {
		out = append(out, eventText(e))
	}
	return strings.Join(out, " | ")
}

// A whole refit turn through Resolve: the decision, the U.S. refit orders,
// the Japanese refit orders, and the next turn's decision (rules 9.0-9.7).
func TestRefitTurn(t *testing.T) {
	s := game(t, map[string]Hex{"1/17-A": 2720, "J01": 2414, "J02": 2414})
	s.Turn, s.Weather, s.Casualties = 4, Cloudy, 9
	u, _ := s.Unit("1/17-A")
	u.Steps = 1
	s.Place("1/32-A", 0, BoxReinforcements)
	s.Place("U05", 0, BoxOffMap)
	for _, id := range []string{"J01", "J02"} {
		j, _ := s.Unit(id)
		j.FaceDown = false
	}

	// Cloudy line, die 1: cloudy; dice 6+6=12 against 9 casualties: 4.
	s, evs := resolve(t, s, Orders{Side: US, Wait: WaitUSDecision, Decision: &Decision{Refit: true}}, 1, 6, 6)
	wantWait(t, s, US, WaitUSRefit, 4)
	if s.RefitSteps != 4 || s.Casualties != 0 || s.Weather != Cloudy || s.Night {
		t.Fatalf("refit steps %d, casualties %d, weather %s: %v", s.RefitSteps, s.Casualties, s.Weather, texts(evs))
	}
	wantText(t, s.WaitText(), "U.S. refit orders, turn 4 (May 14), refit turn: 4 steps to restore")
	if v := s.View(JP); v.RefitSteps != 4 {
		t.Errorf("the Japanese view shows %d refit steps", v.RefitSteps)
	}
	// Default orders at this wait are legal and land nothing.
	def := s.DefaultOrders()
	if def.Refit == nil || len(def.Refit.Land) != 0 || len(def.Refit.Restore) != 1 || def.Refit.Restore[0].Unit != "1/17-A" {
		t.Fatalf("default U.S. refit orders %+v", def.Refit)
	}
	if ps := CheckOrders(s, def); len(ps) > 0 {
		t.Fatalf("the default orders are refused: %v", ps)
	}
	wantText(t, refuse(t, s, Orders{Side: US, Wait: WaitUSRefit}), "the U.S. refit orders need refit:")

	// Restore 3 (all 1/17-A lacks), land 1/32-A at D: die 7 lands.
	s, evs = resolve(t, s, Orders{Side: US, Wait: WaitUSRefit, Refit: &Refit{
		Restore: []Restore{{Unit: "1/17-A"}},
		Land:    []Landing{{Unit: "1/32-A", Zone: "D"}},
	}}, 7)
	wantWait(t, s, JP, WaitJPRefit, 4)
	wantText(t, texts(evs), "1 step of the refit not used is lost")
	if u, _ := s.Unit("1/17-A"); u.Steps != 4 {
		t.Errorf("1/17-A has %d steps", u.Steps)
	}
	if u, _ := s.Unit("1/32-A"); u.Hex != 2821 {
		t.Errorf("1/32-A is in %s", u.Hex)
	}
	if s.RefitSteps != 0 {
		t.Errorf("%d refit steps left over", s.RefitSteps)
	}

	// The Japanese default hides both platoons; swap them instead.
	def = s.DefaultOrders()
	if def.Rearrange == nil || strings.Join(def.Rearrange.Hide, ",") != "J01,J02" || len(def.Rearrange.Moves)+len(def.Rearrange.Swaps) != 0 {
		t.Fatalf("default Japanese refit orders %+v", def.Rearrange)
	}
	if ps := CheckOrders(s, def); len(ps) > 0 {
		t.Fatalf("the default orders are refused: %v", ps)
	}
	s, evs = resolve(t, s, Orders{Side: JP, Wait: WaitJPRefit, Rearrange: &Rearrange{
		Swaps: []Swap{{Hex: 2414, Place: []UnknownMove{{Unit: "U05", To: 2415}}}},
	}})
	wantWait(t, s, US, WaitUSDecision, 5)
	if u, _ := s.Unit("U05"); u.Hex != 2415 || !u.FaceDown {
		t.Errorf("U05 in %s, face down %v", u.Hex, u.FaceDown)
	}
	for _, id := range []string{"J01", "J02"} {
		if u, _ := s.Unit(id); u.OnMap() || u.Box != BoxPool {
			t.Errorf("%s in %s/%q, want the pool", id, u.Hex, u.Box)
		}
	}
	us := texts(VisibleEvents(evs, US))
	wantText(t, us, "After the Japanese refit the map shows: 2414 no Japanese counter and 2415 1 Japanese counter")
	if strings.Contains(us, "J01") {
		t.Errorf("the U.S. reads what became of J01: %s", us)
	}
	if strings.Contains(us, "U05") || strings.Contains(strings.ToLower(us), "unknown") || strings.Contains(us, "pool") {
		t.Errorf("the U.S. reads the Japanese secret: %s", us)
	}
	wantText(t, texts(VisibleEvents(evs, JP)), "J01 and J02 go back to the pool from 2414 for U05 in 2415")
	wantText(t, texts(evs), "Turn 5 (May 15) begins (rule 9.7)")
}

// Refit orders carried by the decision run at once; one the new weather
// makes impossible is skipped.
func TestRefitInDecision(t *testing.T) {
	s := game(t, map[string]Hex{"1/17-A": 2720})
	s.Turn, s.Weather, s.Casualties = 6, Cloudy, 20
	u, _ := s.Unit("1/17-A")
	u.Steps = 2
	o := Orders{Side: US, Wait: WaitUSDecision, Decision: &Decision{Refit: true}, Refit: &Refit{
		Restore: []Restore{{Unit: "1/17-A", Steps: 2}},
	}}
	if ps := CheckOrders(s, o); len(ps) > 0 {
		t.Fatal(ps)
	}
	// Cloudy line 1: cloudy; 10+10 = 20 against 20: 17 steps; 2 used.
	out, evs := resolve(t, s, o, 1, 10, 10)
	wantWait(t, out, JP, WaitJPRefit, 6)
	if u, _ := out.Unit("1/17-A"); u.Steps != 4 {
		t.Errorf("1/17-A has %d steps: %s", u.Steps, texts(evs))
	}
	wantText(t, texts(evs), "15 steps of the refit not used are lost")

	// Forced out of supply, the entry is refused when judged...
	s.SupplyOverride = map[string]bool{"1/17-A": false}
	wantText(t, refuse(t, s, o), "1/17-A in 2720 is out of supply")
	// ...and skipped when it is out of supply only once the weather is
	// rolled (here: the state forced out after judging).
	run := &refitRun{s: s.Clone(), d: &ForcedDice{}, budget: 4}
	run.refit(*o.Refit)
	wantText(t, texts(run.events), "restore 1 is skipped: 1/17-A in 2720 is out of supply")
}

// The default U.S. refit orders serve the units that lack most first and
// never list a unit its hex has no room for.
func TestDefaultRefit(t *testing.T) {
	s := game(t, map[string]Hex{
		"1/17-A": 2720, "1/17-B": 2720, "1/17-C": 2720, // 12 steps of one battalion at most
		"2/17-E": 2721, "3/17-I": 2722,
		"7RCN": 2920,
	})
	set := func(id string, steps int) {
		u, _ := s.Unit(id)
		u.Steps = steps
	}
	set("1/17-A", 3)
	set("1/17-B", 2)
	set("1/17-C", 4)
	set("2/17-E", 1)
	set("3/17-I", 3)
	set("7RCN", 1)
	r := s.DefaultRefit()
	var got []string
	for _, e := range r.Restore {
		got = append(got, e.Unit)
	}
	// 2/17-E lacks 3, 1/17-B 2, then 1/17-A and 3/17-I 1 each; after 1/17-B
	// is full 2720 holds 11 steps: 1/17-A still fits one.
	if want := "2/17-E,1/17-B,1/17-A,3/17-I"; strings.Join(got, ",") != want {
		t.Errorf("default priority %s, want %s", strings.Join(got, ","), want)
	}
	if len(r.Land)+len(r.Independents)+len(r.Depots) != 0 {
		t.Errorf("the default lands or creates something: %+v", r)
	}
}
