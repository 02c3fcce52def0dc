package wind

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// corridorMap is a strip of level-0 clear hexes, column 10 rows 1 to 12, with
// one side hex, 1105, that touches 1005 and (across a cliff) 1006. The
// landing zone is 1003, so moving down the strip a U.S. unit pays 2 MP a
// hex: 1004 is 2 MP away, 1005 4, 1006 6, 1007 8. change edits the file
// before it is built.
func corridorMap(t *testing.T, change func(f *MapFile)) *Map {
	t.Helper()
	var lv, zn strings.Builder
	for r := 1; r <= 12; r++ {
		if r == 5 {
			lv.WriteString("00~\n")
			zn.WriteString("AA~\n")
		} else {
			lv.WriteString("0~~\n")
			zn.WriteString("A~~\n")
		}
	}
	f := &MapFile{
		Name:      "corridor",
		Columns:   [2]int{10, 12},
		Rows:      [2]int{1, 12},
		Levels:    lv.String(),
		Zones:     zn.String(),
		ZoneNames: map[string]string{"A": "Strip"},
		Cliffs:    []string{"1105-1006"},
		LandingZones: []LandingZoneFile{{
			ID: "D", Hex: 1003, Capacity: 12, Staging: 1102,
			Scatter: []ScatterFile{{Dice: "1-10", Result: "landed"}},
		}},
	}
	if change != nil {
		change(f)
	}
	m, err := buildMap(f)
	if err != nil {
		t.Fatalf("corridor map: %v", err)
	}
	return m
}

// supplyState returns a position on m (nil: the built-in map) with the units
// placed as "ID@HEX".
func supplyState(t *testing.T, m *Map, placed ...string) *State {
	t.Helper()
	s := NewState(m, nil)
	s.Weather = Cloudy
	for _, p := range placed {
		id, hs, _ := strings.Cut(p, "@")
		h, err := ParseHex(hs)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Place(id, h, ""); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// checkSupply compares every listed unit's InSupply and its SupplyReport
// entry with want, printing the whole report on a difference.
func checkSupply(t *testing.T, s *State, want map[string]bool) {
	t.Helper()
	rep := s.SupplyReport()
	for _, id := range slices.Sorted(maps.Keys(want)) {
		u, ok := s.Unit(id)
		if !ok {
			t.Fatalf("no unit %s", id)
		}
		if got := s.InSupply(u); got != want[id] {
			t.Errorf("InSupply(%s at %s) = %v, want %v (weather %s, night %v)", id, u.Hex, got, want[id], s.Weather, s.Night)
		}
		if got, ok := rep[id]; (ok || u.Side() == US && u.OnMap()) && got != want[id] {
			t.Errorf("SupplyReport()[%s] = %v, want %v", id, got, want[id])
		}
	}
	if t.Failed() {
		t.Logf("report: %v", rep)
	}
}

func TestSupplyStandardMoveFromLandingZone(t *testing.T) {
	m := corridorMap(t, nil)
	// 1/17-A (6 MP) 6 MP away, 1/17-B 8 MP away; IND1 (8 MP) 8 MP away.
	s := supplyState(t, m, "1/17-A@1006", "1/17-B@1007", "IND1@1007", "1/17-C@1003")
	checkSupply(t, s, map[string]bool{"1/17-A": true, "1/17-B": false, "IND1": true, "1/17-C": true})
}

func TestSupplyRainAndNight(t *testing.T) {
	m := corridorMap(t, nil)
	tests := []struct {
		weather Weather
		night   bool
		want    map[string]bool
	}{
		// Rain: rifle 5, independent 7 (rule 5.1).
		{Rain, false, map[string]bool{"1/17-A": false, "1/17-B": true, "IND1": false, "IND2": true}},
		// Night: rifle 3, independent 4 (5.2).
		{Cloudy, true, map[string]bool{"1/17-A": false, "1/17-B": false, "IND1": false, "IND2": true}},
		// Night and rain: rifle 2, independent 3 (halve, then rain).
		{Rain, true, map[string]bool{"1/17-A": false, "1/17-B": false, "IND1": false, "IND2": false, "1/17-C": true}},
		// Fog and williwaw do not slow movement.
		{Fog, false, map[string]bool{"1/17-A": true, "1/17-B": true, "IND1": true, "IND2": true}},
		{Williwaw, false, map[string]bool{"1/17-A": true, "1/17-B": true, "IND1": true, "IND2": true}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s night=%v", tt.weather, tt.night), func(t *testing.T) {
			s := supplyState(t, m, "1/17-A@1006", "1/17-B@1005", "IND1@1007", "IND2@1005", "1/17-C@1004")
			s.Weather, s.Night = tt.weather, tt.night
			checkSupply(t, s, tt.want)
		})
	}
}

func TestSupplyDepotChain(t *testing.T) {
	m := corridorMap(t, nil)
	// SD13A is 6 MP from the landing zone, SD13B 6 MP from SD13A, and the
	// company 6 MP from SD13B: 18 MP from the landing zone.
	s := supplyState(t, m, "SD13A@1006", "SD13B@1009", "1/17-A@1012", "1/17-B@1011")
	checkSupply(t, s, map[string]bool{"SD13A": true, "SD13B": true, "1/17-A": true, "1/17-B": true})

	t.Run("without the middle depot", func(t *testing.T) {
		s := supplyState(t, m, "SD13B@1009", "1/17-A@1012")
		checkSupply(t, s, map[string]bool{"SD13B": false, "1/17-A": false})
	})
	t.Run("chain too long in rain", func(t *testing.T) {
		// The engineer move is 5 in rain: SD13A, 6 MP out, drops off
		// and takes SD13B with it.
		s := supplyState(t, m, "SD13A@1006", "SD13B@1009", "1/17-A@1012")
		s.Weather = Rain
		checkSupply(t, s, map[string]bool{"SD13A": false, "SD13B": false, "1/17-A": false})
	})
	t.Run("depot forced out breaks the chain", func(t *testing.T) {
		s := supplyState(t, m, "SD13A@1006", "SD13B@1009", "1/17-A@1012")
		s.SupplyOverride = map[string]bool{"SD13A": false}
		checkSupply(t, s, map[string]bool{"SD13A": false, "SD13B": false, "1/17-A": false})
	})
	t.Run("depot forced in supplies", func(t *testing.T) {
		s := supplyState(t, m, "SD13B@1009", "1/17-A@1012")
		s.SupplyOverride = map[string]bool{"SD13B": true}
		checkSupply(t, s, map[string]bool{"SD13B": true, "1/17-A": true})
	})
	t.Run("chain found in any order", func(t *testing.T) {
		// SD50C comes after SD13A in the counter mix but links it to
		// the landing zone.
		s := supplyState(t, m, "SD50C@1006", "SD13A@1009", "1/17-A@1012")
		checkSupply(t, s, map[string]bool{"SD50C": true, "SD13A": true, "1/17-A": true})
	})
}

func TestSupplyBlockedByJapaneseUnit(t *testing.T) {
	m := corridorMap(t, nil)
	// The U.S. units at 1004 and 1006 cover the platoon's zone of control;
	// the line still cannot cross the platoon's own hex.
	s := supplyState(t, m, "1/17-A@1004", "1/17-B@1006", "J01@1005")
	checkSupply(t, s, map[string]bool{"1/17-A": true, "1/17-B": false, "J01": true})
}

func TestSupplyBlockedByJapaneseZOC(t *testing.T) {
	m := corridorMap(t, nil)
	// J01 in 1105 has a zone of control in 1005 but not, across the cliff,
	// in 1006.
	t.Run("uncovered", func(t *testing.T) {
		s := supplyState(t, m, "1/17-A@1006", "U01@1105")
		checkSupply(t, s, map[string]bool{"1/17-A": false})
	})
	t.Run("face-up platoon", func(t *testing.T) {
		s := supplyState(t, m, "1/17-A@1006", "J01@1105")
		checkSupply(t, s, map[string]bool{"1/17-A": false})
	})
	t.Run("a U.S. unit occupies the zone hex", func(t *testing.T) {
		s := supplyState(t, m, "1/17-A@1006", "U01@1105", "IND1@1005")
		checkSupply(t, s, map[string]bool{"1/17-A": true, "IND1": true})
	})
	t.Run("a unit in the zone itself", func(t *testing.T) {
		s := supplyState(t, m, "1/17-B@1005", "U01@1105")
		checkSupply(t, s, map[string]bool{"1/17-B": true})
	})
}

func TestSupplyLandingZoneHeldOrWatched(t *testing.T) {
	m := corridorMap(t, func(f *MapFile) {
		f.LandingZones[0].Hex = 1004
		f.Levels = strings.Replace(f.Levels, "0~~\n", "00~\n", 1) // 1101 land
		f.Zones = strings.Replace(f.Zones, "A~~\n", "AA~\n", 1)
		f.LandingZones[0].Staging = 1103
	})
	t.Run("Japanese unit in the landing zone", func(t *testing.T) {
		s := supplyState(t, m, "1/17-A@1005", "J01@1004")
		checkSupply(t, s, map[string]bool{"1/17-A": false})
	})
	t.Run("landing zone in an uncovered zone of control", func(t *testing.T) {
		// 1105 touches 1005 only; put the platoon in 1101, which
		// touches 1001 and 1002, and move the zone to 1002.
		m := corridorMap(t, func(f *MapFile) {
			f.LandingZones[0].Hex = 1002
			f.Levels = strings.Replace(f.Levels, "0~~\n", "00~\n", 1)
			f.Zones = strings.Replace(f.Zones, "A~~\n", "AA~\n", 1)
			f.LandingZones[0].Staging = 1103
		})
		s := supplyState(t, m, "1/17-A@1003", "J01@1101")
		checkSupply(t, s, map[string]bool{"1/17-A": false})
		s = supplyState(t, m, "1/17-A@1003", "J01@1101", "1/17-B@1002")
		checkSupply(t, s, map[string]bool{"1/17-A": true, "1/17-B": true})
	})
}

func TestSupplyTracedFromTheLandingZone(t *testing.T) {
	// 1004 is a level up with the slope art in 1003: from the landing zone
	// the company climbs (2 clear, +1 slope, +1 level) and 1005 is 6 MP
	// away; traced the other way it would be 5 MP. In rain the company
	// moves 5, so only the direction of rule 7.2 puts it out of supply.
	m := corridorMap(t, func(f *MapFile) {
		lines := strings.Split(f.Levels, "\n")
		for r := 4; r <= 12; r++ {
			lines[r-1] = "1" + lines[r-1][1:]
		}
		f.Levels = strings.Join(lines, "\n")
		f.Slopes = []string{"1003-1004"}
	})
	if c, _ := StepCost(m, US, 1003, 1004); c.MP != 4 {
		t.Fatalf("climb costs %d, want 4", c.MP)
	}
	s := supplyState(t, m, "1/17-A@1005")
	checkSupply(t, s, map[string]bool{"1/17-A": true})
	s.Weather = Rain
	checkSupply(t, s, map[string]bool{"1/17-A": false})
}

func TestSupplyMinimumMove(t *testing.T) {
	// 1004 is a lake: 3 MP, more than a company's 2 MP at night in rain,
	// but a unit may always move one hex (rule 5.8).
	m := corridorMap(t, func(f *MapFile) { f.Lakes = []Hex{1004} })
	s := supplyState(t, m, "1/17-A@1004", "1/17-B@1005", "75PH@1002")
	s.Weather, s.Night = Rain, true
	checkSupply(t, s, map[string]bool{"1/17-A": true, "1/17-B": false, "75PH": true})

	t.Run("not across a cliff", func(t *testing.T) {
		m := corridorMap(t, func(f *MapFile) { f.Cliffs = append(f.Cliffs, "1003-1004") })
		s := supplyState(t, m, "1/17-A@1004")
		checkSupply(t, s, map[string]bool{"1/17-A": false})
	})
}

func TestSupplyUnitsThatCannotMove(t *testing.T) {
	m := corridorMap(t, nil)
	// A 105mm battery is in supply only in a source hex: a landing zone
	// or a connected depot's hex, never next to one.
	s := supplyState(t, m, "105-1@1003", "105-2@1004", "SD13A@1006", "105-3@1006", "105-4@1007")
	checkSupply(t, s, map[string]bool{"105-1": true, "105-2": false, "SD13A": true, "105-3": true, "105-4": false})
}

func TestSupplyNotForJapaneseOrOffMap(t *testing.T) {
	s := supplyState(t, corridorMap(t, nil), "J01@1010", "U01@1011")
	for _, id := range []string{"J01", "U01", "J02"} {
		u, _ := s.Unit(id)
		if !s.InSupply(u) {
			t.Errorf("InSupply(%s) = false: Japanese units are never out of supply", id)
		}
	}
	u, _ := s.Unit("1/17-A")
	if s.InSupply(u) {
		t.Errorf("InSupply(1/17-A off the map) = true")
	}
	if rep := s.SupplyReport(); len(rep) != 0 {
		t.Errorf("SupplyReport() = %v, want no entries without U.S. units on the map", rep)
	}
}

func TestSupplyOverride(t *testing.T) {
	s := supplyState(t, corridorMap(t, nil), "1/17-A@1004", "1/17-B@1012")
	s.SupplyOverride = map[string]bool{"1/17-A": false, "1/17-B": true, "1/17-C": true}
	checkSupply(t, s, map[string]bool{"1/17-A": false, "1/17-B": true})
	if u, _ := s.Unit("1/17-C"); !s.InSupply(u) {
		t.Errorf("override ignored for a unit off the map")
	}
	if _, ok := s.SupplyReport()["1/17-C"]; ok {
		t.Errorf("SupplyReport lists a unit off the map")
	}
}

// The supply example of rule 7.0 on the built-in map: the units are placed
// so that the example's numbers hold (see example-7.0-supply.yaml).
func TestSupplyExample70(t *testing.T) {
	m := BuiltinMap()
	lz := []Hex{}
	for _, z := range m.LandingZones {
		lz = append(lz, z.Hex)
	}
	fromLZ := Reach(m, US, lz, 40, ReachOptions{})
	fromDepot := Reach(m, US, []Hex{2819}, 40, ReachOptions{})
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"depot SD13A 2819 from a landing zone", fromLZ[2819], 6},
		{"1/17-A 3120 from a landing zone", fromLZ[3120], 6},
		{"13E-A 3018 from the depot", fromDepot[3018], 6},
		{"13E-A 3018 from a landing zone", fromLZ[3018], 11},
		{"IND1 3219 from a landing zone", fromLZ[3219], 9},
		{"IND1 3219 from the depot", fromDepot[3219], 11},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d MP, want %d", c.what, c.got, c.want)
		}
	}
	placed := []string{"SD13A@2819", "1/17-A@3120", "13E-A@3018", "IND1@3219"}
	s := supplyState(t, nil, placed...)
	checkSupply(t, s, map[string]bool{"SD13A": true, "1/17-A": true, "13E-A": true, "IND1": false})
	s.Weather = Rain
	checkSupply(t, s, map[string]bool{"SD13A": false, "1/17-A": false, "13E-A": false, "IND1": false})
}

// The report agrees with InSupply unit by unit on a crowded map.
func TestSupplyReportAgreesWithInSupply(t *testing.T) {
	for _, night := range []bool{false, true} {
		for _, w := range []Weather{Cloudy, Rain} {
			s := benchSupplyState(t)
			s.Night, s.Weather = night, w
			rep := s.SupplyReport()
			in := 0
			for _, u := range s.OnMap() {
				if u.Side() != US {
					continue
				}
				if rep[u.ID] != s.InSupply(u) {
					t.Errorf("%s at %s: report %v, InSupply %v", u.ID, u.Hex, rep[u.ID], s.InSupply(u))
				}
				if rep[u.ID] {
					in++
				}
			}
			if in == 0 || in == len(rep) {
				t.Errorf("night %v %s: %d of %d in supply; the position should mix both", night, w, in, len(rep))
			}
		}
	}
}

// benchSupplyState spreads about 40 U.S. units (companies, independents,
// engineers, depots, artillery) over the south-east of the built-in map
// with Japanese units among them.
func benchSupplyState(tb testing.TB) *State {
	tb.Helper()
	m := BuiltinMap()
	s := NewState(m, nil)
	s.Weather = Cloudy
	var land []Hex
	for _, h := range m.LandHexes() {
		if h.Col() >= 22 && h.Row() >= 12 {
			land = append(land, h)
		}
	}
	us := append(s.Counters().Of(US, Infantry)[:30], "13E-A", "13E-B", "50E-A", "SD13A", "SD13C", "SD50A", "105-1", "105-2", "75PH", "7SCT")
	i := 0
	for _, id := range us {
		h := land[(i*7)%len(land)]
		i++
		if err := s.Place(id, h, ""); err != nil {
			tb.Fatal(err)
		}
	}
	for k, id := range s.Counters().Of(JP, Infantry)[:12] {
		h := land[(k*11+5)%len(land)]
		if s.Occupied(h) == US {
			continue
		}
		if err := s.Place(id, h, ""); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

func BenchmarkSupplyAll(b *testing.B) {
	s := benchSupplyState(b)
	n := 0
	for _, u := range s.OnMap() {
		if u.Side() == US {
			n++
		}
	}
	if n < 40 {
		b.Fatalf("%d U.S. units on the map, want about 40", n)
	}
	b.ResetTimer()
	for b.Loop() {
		s.SupplyReport()
	}
}

// supplyOracle decides supply the slow way, straight from rule 7.2: a
// search from each source on its own, for each unit on its own, the depot
// chain grown one link at a time.
func supplyOracle(s *State) map[string]bool {
	m := s.Map()
	blocked := func(h Hex) bool {
		if s.Occupied(h) == JP {
			return true
		}
		return s.Occupied(h) != US && s.InEnemyZOC(h, JP)
	}
	reaches := func(from, to Hex, mp int, minMove bool) bool {
		_, ok := Reach(m, US, []Hex{from}, mp, ReachOptions{Block: blocked, MinMove: minMove})[to]
		return ok
	}
	var sources []Hex
	for _, lz := range m.LandingZones {
		if !blocked(lz.Hex) {
			sources = append(sources, lz.Hex)
		}
	}
	connected := map[string]bool{}
	for grown := true; grown; {
		grown = false
		for _, d := range s.OnMap() {
			if d.Kind() != Depot || connected[d.ID] {
				continue
			}
			for _, src := range sources {
				if reaches(src, d.Hex, adjustMP(6, s.Night, s.Weather), true) {
					connected[d.ID] = true
					sources = append(sources, d.Hex)
					grown = true
					break
				}
			}
		}
	}
	out := map[string]bool{}
	for _, u := range s.OnMap() {
		if u.Side() != US {
			continue
		}
		if u.Kind() == Depot {
			out[u.ID] = connected[u.ID]
			continue
		}
		cl := u.Counter().Class
		for _, src := range sources {
			if cl.MP == 0 || cl.Fixed {
				if src == u.Hex {
					out[u.ID] = true
				}
				continue
			}
			if reaches(src, u.Hex, s.Allowance(u), true) {
				out[u.ID] = true
				break
			}
		}
		if _, ok := out[u.ID]; !ok {
			out[u.ID] = false // every U.S. unit on the map has an entry
		}
	}
	return out
}

// randomSupplyState places U.S. and Japanese units at random within 7 hexes
// of the Massacre Bay landing zones of the built-in map, one side per hex.
func randomSupplyState(r *rand.Rand) *State {
	m := BuiltinMap()
	s := NewState(m, nil)
	s.Weather = Weather(r.IntN(4))
	s.Night = r.IntN(3) == 0
	var land []Hex
	for _, h := range m.LandHexes() {
		for _, lz := range []Hex{2821, 3022, 3122, 3323} {
			if h.Distance(lz) <= 7 {
				land = append(land, h)
				break
			}
		}
	}
	cs := s.Counters()
	us := slices.Concat(cs.Of(US, Infantry)[:20], cs.Of(US, Engineer), cs.Of(US, Depot), cs.Of(US, Artillery), cs.Of(US, Recon))
	jp := slices.Concat(cs.Of(JP, Infantry)[:10], cs.Of(JP, Unknown)[:6])
	place := func(ids []string, n int, side Side) {
		r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		for _, id := range ids[:min(n, len(ids))] {
			h := land[r.IntN(len(land))]
			if o := s.Occupied(h); o != NoSide && o != side {
				continue
			}
			_ = s.Place(id, h, "")
		}
	}
	place(us, 10+r.IntN(25), US)
	place(jp, r.IntN(12), JP)
	return s
}

func TestSupplyAgreesWithOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 43))
	n := 200
	if testing.Short() {
		n = 20
	}
	for i := range n {
		s := randomSupplyState(r)
		want := supplyOracle(s)
		got := s.SupplyReport()
		if !maps.Equal(got, want) {
			for id := range want {
				if got[id] != want[id] {
					u, _ := s.Unit(id)
					t.Errorf("position %d (%s, night %v): %s at %s: report %v, oracle %v", i, s.Weather, s.Night, id, u.Hex, got[id], want[id])
				}
			}
			t.FailNow()
		}
	}
}

// Supply only shrinks when the turn gets harder or the enemy stronger.
func TestSupplyMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 5))
	subset := func(a, b map[string]bool) string {
		for id, in := range a {
			if in && !b[id] {
				return id
			}
		}
		return ""
	}
	for i := range 200 {
		s := randomSupplyState(r)
		s.Weather, s.Night = Cloudy, false
		day := s.SupplyReport()
		s.Weather = Rain
		if id := subset(s.SupplyReport(), day); id != "" {
			t.Fatalf("position %d: %s in supply in rain but not in cloudy weather", i, id)
		}
		s.Weather, s.Night = Cloudy, true
		if id := subset(s.SupplyReport(), day); id != "" {
			t.Fatalf("position %d: %s in supply at night but not by day", i, id)
		}
		s.Night = false
		for _, u := range s.OnMap() {
			if u.Side() == JP {
				u.Hex, u.Box = 0, BoxPool
			}
		}
		if id := subset(day, s.SupplyReport()); id != "" {
			t.Fatalf("position %d: %s loses supply when the Japanese leave", i, id)
		}
	}
}
