package wind

import (
	"sort"
	"strings"
	"testing"
)

func TestBuiltinDataLoads(t *testing.T) {
	if builtinMap.err != nil {
		t.Fatalf("built-in map: %v", builtinMap.err)
	}
	if builtinCounters.err != nil {
		t.Fatalf("built-in counters: %v", builtinCounters.err)
	}
}

func sortedHexes(hs []Hex) []Hex {
	out := append([]Hex(nil), hs...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Hex numbering and adjacency of the built-in map.
func TestMapHexNumberingAndAdjacency(t *testing.T) {
	n := Hex(2717).Neighbours()
	got := sortedHexes(n[:])
	want := []Hex{2617, 2618, 2716, 2718, 2817, 2818}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("neighbours of 2717 = %v, want %v", got, want)
		}
	}
	if !Hex(1406).Adjacent(1505) || !Hex(1505).Adjacent(1406) {
		t.Error("1406 and 1505 must be adjacent")
	}
	for _, h := range BuiltinMap().LandHexes() {
		for _, nb := range h.Neighbours() {
			if !nb.Adjacent(h) || h.Distance(nb) != 1 {
				t.Fatalf("adjacency is not symmetric between %s and %s", h, nb)
			}
		}
	}
	if d := Hex(2717).Distance(3622); d < 5 {
		t.Errorf("distance 2717-3622 = %d, implausibly short", d)
	}
}

// Rules 3.8.1 and 10.0: six victory hexes, each in its own zone, zones
// partitioning the land.
func TestMapVictoryHexesAndZones(t *testing.T) {
	m := BuiltinMap()
	want := map[Hex]string{1425: "Temnac Bay", 2011: "Holtz Bay", 2117: "Jarmin Pass", 2717: "Engineer Hill", 3409: "Attu Village", 3622: "Alexei Point"}
	if len(m.VictoryHexes) != 6 {
		t.Fatalf("%d victory hexes, want 6", len(m.VictoryHexes))
	}
	zones := map[string]Hex{}
	for _, v := range m.VictoryHexes {
		if want[v.Hex] != v.Name {
			t.Errorf("victory hex %s is %q, want %q", v.Hex, v.Name, want[v.Hex])
		}
		if !m.Land(v.Hex) {
			t.Errorf("victory hex %s is not land", v.Hex)
		}
		if _, dup := zones[v.Zone]; dup {
			t.Errorf("zone %s holds two victory hexes", v.Zone)
		}
		zones[v.Zone] = v.Hex
	}
	count := map[string]int{}
	for _, h := range m.LandHexes() {
		z := m.Zone(h)
		if _, ok := zones[z]; !ok {
			t.Fatalf("land hex %s is in no victory zone (%q)", h, z)
		}
		count[z]++
	}
	if len(count) != 6 {
		t.Fatalf("land is split into %d zones, want 6", len(count))
	}
	// Each zone is one connected piece of land holding its victory hex.
	for z, vh := range zones {
		seen := map[Hex]bool{vh: true}
		stack := []Hex{vh}
		for len(stack) > 0 {
			h := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, n := range m.Neighbours(h) {
				if !seen[n] && m.Zone(n) == z {
					seen[n] = true
					stack = append(stack, n)
				}
			}
		}
		if len(seen) != count[z] {
			t.Errorf("zone %s (%s): %d hexes connected to its victory hex, %d in the zone", z, m.ZoneName(z), len(seen), count[z])
		}
	}
}

// Rules 12.3 and 12.4: setup hexes are land; 3311 and 2409 hold artillery.
func TestMapSetupHexes(t *testing.T) {
	m := BuiltinMap()
	s := m.Setup
	wantUnknown := []Hex{1216, 1509, 1822, 1919, 2108, 2112, 2117, 2307, 2717, 2915, 3116, 3409, 3610, 3717, 3812, 3915}
	if len(s.HistoricUnknown) != 16 {
		t.Fatalf("%d historic Unknown hexes, want 16", len(s.HistoricUnknown))
	}
	for i, h := range wantUnknown {
		if s.HistoricUnknown[i] != h {
			t.Errorf("historic Unknown hex %d = %s, want %s", i, s.HistoricUnknown[i], h)
		}
	}
	all := append(append(append([]Hex{}, s.HistoricUnknown...), s.Historic20mm...), s.Historic75mm...)
	all = append(all, s.Free75mm...)
	all = append(all, s.FreeArtilleryCentre)
	for _, h := range all {
		if !m.Land(h) || m.Terrain(h) == Lake {
			t.Errorf("setup hex %s must be dry land", h)
		}
	}
	if s.FreeArtilleryCentre != 3311 {
		t.Errorf("free 20mm setup centres on %s, want 3311", s.FreeArtilleryCentre)
	}
	if len(s.Free75mm) != 2 || s.Free75mm[0] != 3311 || s.Free75mm[1] != 2409 {
		t.Errorf("free 75mm hexes = %v, want [3311 2409]", s.Free75mm)
	}
	if got := sortedHexes(s.Historic20mm); len(got) != 4 || got[0] != 1812 || got[1] != 2314 || got[2] != 3210 || got[3] != 3210 {
		t.Errorf("historic 20mm hexes = %v, want 1812, 2314, 3210 twice", got)
	}
	if got := sortedHexes(s.Historic75mm); len(got) != 3 || got[0] != 1809 || got[1] != 1917 || got[2] != 3409 {
		t.Errorf("historic 75mm hexes = %v, want 1809, 1917, 3409", got)
	}
}

// Rules 9.2, 9.2.1, 9.2.2: landing zones A-I, capacities, staging boxes and
// the scatter chart.
func TestMapLandingZones(t *testing.T) {
	m := BuiltinMap()
	var ids []string
	for _, lz := range m.LandingZones {
		ids = append(ids, lz.ID)
		if !m.Land(lz.Hex) {
			t.Errorf("landing zone %s at %s is not land", lz.ID, lz.Hex)
		}
		coast := false
		for _, n := range lz.Hex.Neighbours() {
			if !m.Land(n) {
				coast = true
			}
		}
		if !coast {
			t.Errorf("landing zone %s at %s is not on the coast", lz.ID, lz.Hex)
		}
		if m.Land(lz.Staging) || !lz.Staging.Adjacent(lz.Hex) {
			t.Errorf("landing zone %s: staging box %s must be the sea hex next to it", lz.ID, lz.Staging)
		}
	}
	if strings.Join(ids, "") != "ABCDEFGHI" {
		t.Fatalf("landing zones %v, want A to I", ids)
	}
	f, _ := m.LandingZone("F")
	if f.Capacity != 15 {
		t.Errorf("zone F holds %d steps, want 15 (rule 9.2 example)", f.Capacity)
	}
	// D-G on Massacre Bay in the south-east, A/B at Holtz Bay in the north.
	for _, id := range []string{"D", "E", "F", "G"} {
		lz, _ := m.LandingZone(id)
		if lz.Hex.Col() < 26 || lz.Hex.Row() < 20 {
			t.Errorf("zone %s at %s is not in the south-east", id, lz.Hex)
		}
		d, _ := m.LandingZone("D")
		if lz.Hex.Distance(d.Hex) > 6 {
			t.Errorf("zone %s at %s is not on Massacre Bay with zone D", id, lz.Hex)
		}
	}
	for _, id := range []string{"A", "B"} {
		lz, _ := m.LandingZone(id)
		if lz.Hex.Row() > 10 || lz.Hex.Distance(2011) > 6 {
			t.Errorf("zone %s at %s is not at Holtz Bay", id, lz.Hex)
		}
	}
	// The scatter chart of rule 9.2.2, die by die.
	chart := map[string]string{
		"A": "DDLLLLLLLL", "B": "DDLLLLLLLL",
		"C": "DEEDDLLLLL", "D": "DFFEELLLLL", "E": "DGGFFLLLLL",
		"F": "DEEGGLLLLL", "G": "DDDFFLLLLL", "H": "DDIILLLLLL", "I": "DDHHLLLLLL",
	}
	for id, want := range chart {
		lz, _ := m.LandingZone(id)
		var got []byte
		for die := 1; die <= 10; die++ {
			switch r := lz.ScatterFor(die); r.Kind {
			case Landed:
				got = append(got, 'L')
			case Delayed:
				got = append(got, 'D')
			default:
				got = append(got, r.To[0])
			}
		}
		// The first D of C..G means delayed; later letters are zones.
		if string(got) != want {
			t.Errorf("zone %s scatter by die 1-10 = %s, want %s", id, got, want)
		}
	}
	if r := f.ScatterFor(-3); r.Kind != Delayed {
		t.Errorf("a modified die below 1 reads as 1: got %+v", r)
	}
}

// Rules 5.3-5.7: levels 0-4, lakes, slopes with the art on one side and a
// pair that is both, cliffs, rivers, sea.
func TestMapTerrain(t *testing.T) {
	m := BuiltinMap()
	levels := map[int]int{}
	lakes := 0
	for _, h := range m.LandHexes() {
		levels[m.Level(h)]++
		if m.Terrain(h) == Lake {
			lakes++
		}
	}
	for l := 0; l <= 4; l++ {
		if levels[l] == 0 {
			t.Errorf("no hex at level %d", l)
		}
	}
	if lakes == 0 {
		t.Error("no lakes")
	}
	if m.Land(2822) || m.Terrain(2822) != Sea {
		t.Error("2822, in Massacre Bay, should be sea")
	}
	oneSided, bothWays := 0, 0
	for _, h := range m.LandHexes() {
		for _, n := range m.Neighbours(h) {
			up, down := m.Slope(h, n)
			if up && down {
				bothWays++
			} else if up {
				oneSided++
				if u2, d2 := m.Slope(n, h); u2 || !d2 {
					t.Errorf("slope %s->%s is up, but the way back is not down", h, n)
				}
			}
		}
	}
	if oneSided == 0 {
		t.Error("no one-sided slopes")
	}
	if up, down := m.Slope(1806, 1807); !up || !down {
		t.Errorf("1806->1807 must be both up and down a slope (rule 5.3), got up=%v down=%v", up, down)
	}
	if bothWays < 2 {
		t.Error("want at least one hex pair that is both up and down")
	}
	if !m.Cliff(2717, 2817) || !m.Cliff(2817, 2717) {
		t.Error("cliff between 2717 and 2817 missing (rule 8.2 example)")
	}
	if slopeBetween(m, 2618, 2717) || slopeBetween(m, 2617, 2717) {
		t.Error("2617/2618 attack 2717 uphill but not across a slope (rule 8.2 example)")
	}
}

// Rules 5.4, 5.5: a river runs from the Massacre Bay landing zones up towards
// Engineer Hill, and moving along it costs 1 plus elevation.
func TestMapHogbackRiver(t *testing.T) {
	m := BuiltinMap()
	var found *River
	for i, r := range m.Rivers {
		start, end := r.Hexes[0], r.Hexes[len(r.Hexes)-1]
		lz, ok := m.LandingZoneAt(start)
		if ok && strings.Contains("DEFG", lz.ID) && end.Adjacent(2717) {
			found = &m.Rivers[i]
		}
	}
	if found == nil {
		t.Fatal("no river runs from a Massacre Bay landing zone to a hex next to Engineer Hill")
	}
	climbs := 0
	for i := 1; i < len(found.Hexes); i++ {
		a, b := found.Hexes[i-1], found.Hexes[i]
		if _, ok := m.RiverBetween(a, b); !ok {
			t.Fatalf("river %s: %s-%s is not a river step", found.Name, a, b)
		}
		if m.Level(b) > m.Level(a) {
			climbs++
		}
		if m.Level(b) < m.Level(a) {
			t.Errorf("river %s falls from %s to %s going up towards Engineer Hill", found.Name, a, b)
		}
	}
	if climbs == 0 {
		t.Errorf("river %s never climbs", found.Name)
	}
	if _, ok := m.RiverBetween(2821, 2820); ok {
		t.Error("2821-2820 is not along a river")
	}
}

func TestParseMapRejectsBadFiles(t *testing.T) {
	cases := map[string]string{
		"unknown field":  "name: x\ncolumns: [1, 2]\nrows: [1, 1]\nlevels: \"00\"\nzones: \"AA\"\nzone_names: {A: a}\ncolour: red\n",
		"short line":     "name: x\ncolumns: [1, 3]\nrows: [1, 1]\nlevels: \"00\"\nzones: \"AAA\"\nzone_names: {A: a}\n",
		"cliff far":      "name: x\ncolumns: [1, 3]\nrows: [1, 1]\nlevels: \"000\"\nzones: \"AAA\"\nzone_names: {A: a}\ncliffs: [0101-0301]\n",
		"river at sea":   "name: x\ncolumns: [1, 2]\nrows: [1, 1]\nlevels: \"0~\"\nzones: \"A~\"\nzone_names: {A: a}\nrivers: [{name: r, hexes: [0101, 0201]}]\n",
		"unnamed zone":   "name: x\ncolumns: [1, 2]\nrows: [1, 1]\nlevels: \"00\"\nzones: \"AB\"\nzone_names: {A: a}\n",
		"bad hex":        "name: x\ncolumns: [1, 2]\nrows: [1, 1]\nlevels: \"00\"\nzones: \"AA\"\nzone_names: {A: a}\nlakes: [12]\n",
		"scatter gap":    "name: x\ncolumns: [1, 2]\nrows: [1, 1]\nlevels: \"0~\"\nzones: \"A~\"\nzone_names: {A: a}\nlanding_zones: [{id: A, hex: 0101, capacity: 3, staging: 0201, scatter: [{dice: 1-9, result: landed}]}]\n",
		"lz in the sea":  "name: x\ncolumns: [1, 2]\nrows: [1, 1]\nlevels: \"0~\"\nzones: \"A~\"\nzone_names: {A: a}\nlanding_zones: [{id: A, hex: 0201, capacity: 3, staging: 0201, scatter: [{dice: 1-10, result: landed}]}]\n",
		"victory abroad": "name: x\ncolumns: [1, 2]\nrows: [1, 1]\nlevels: \"00\"\nzones: \"AA\"\nzone_names: {A: a, B: b}\nvictory_hexes: [{hex: 0101, name: v, zone: B}]\n",
	}
	for name, src := range cases {
		if _, err := ParseMap([]byte(src)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	ok := "name: x\ncolumns: [1, 2]\nrows: [1, 1]\nlevels: \"01\"\nzones: \"AA\"\nzone_names: {A: a}\nslopes: [0101-0201]\n"
	m, err := ParseMap([]byte(ok))
	if err != nil {
		t.Fatalf("tiny valid map refused: %v", err)
	}
	if up, _ := m.Slope(101, 201); !up {
		t.Error("tiny map slope 0101-0201 not up")
	}
}

// slopeBetween reports whether any slope art lies on the side between a and b.
func slopeBetween(m *Map, a, b Hex) bool {
	up, down := m.Slope(a, b)
	return up || down
}
