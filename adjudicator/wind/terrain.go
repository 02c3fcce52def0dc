package wind

// Terrain is what fills a hex.
type Terrain uint8

// Terrain kinds. Rivers, slopes and cliffs are not hex terrain: they lie on
// or between hexes (see Map).
const (
	Sea Terrain = iota
	Clear
	Lake
)

func (t Terrain) String() string {
	switch t {
	case Clear:
		return "clear"
	case Lake:
		return "lake"
	default:
		return "sea"
	}
}

// side flags, per cell and direction.
const (
	sideSlopeUp   uint8 = 1 << iota // slope art in this hex on this side: leaving is up
	sideSlopeDown                   // slope art in the neighbour: leaving is down
	sideCliff
)

type cell struct {
	terrain Terrain
	level   int8
	zone    byte
	sides   [6]uint8
	river   [6]uint8 // 1-based index into Map.Rivers of the river running to that neighbour
}

// Map is the island: hexes with terrain, level and victory zone, hexsides
// with slopes and cliffs, rivers, landing zones and the setup hexes. A Map is
// read-only once built; one value serves every game that uses it.
type Map struct {
	Name                           string
	MinCol, MaxCol, MinRow, MaxRow int
	Rivers                         []River
	LandingZones                   []LandingZone
	VictoryHexes                   []VictoryHex
	Setup                          Setup

	nrows     int
	cells     []cell
	land      []Hex
	zoneNames map[string]string
	areas     map[string]ScenarioArea
}

// River is a dry river bed (rule 5.5), a line through the centres of Hexes in
// order.
type River struct {
	Name  string
	Hexes []Hex
}

// LandingZone is a U.S. landing zone (rules 7.1, 9.2).
type LandingZone struct {
	ID       string
	Hex      Hex
	Capacity int // steps, rule 9.2.1
	Staging  Hex // sea hex where its staging box is drawn
	Scatter  []ScatterResult
}

// ScatterKind is what happens to a landing unit (rule 9.2.2).
type ScatterKind uint8

// Scatter outcomes.
const (
	Landed ScatterKind = iota
	Delayed
	Scattered
)

// ScatterResult is one row of a landing zone's scatter chart.
type ScatterResult struct {
	Lo, Hi int
	Kind   ScatterKind
	To     string // landing zone id when Kind is Scattered
}

// ScatterFor returns the chart row for a (modified) die, treating a result
// below 1 as 1 (rule 9.2.2).
func (lz LandingZone) ScatterFor(die int) ScatterResult {
	die = min(max(die, 1), 10)
	for _, s := range lz.Scatter {
		if die >= s.Lo && die <= s.Hi {
			return s
		}
	}
	return ScatterResult{Kind: Landed}
}

func (m *Map) index(h Hex) int {
	return (h.Col()-m.MinCol)*m.nrows + (h.Row() - m.MinRow)
}

// OnMap reports whether h lies within the map's columns and rows (sea or
// land).
func (m *Map) OnMap(h Hex) bool {
	c, r := h.Col(), h.Row()
	return c >= m.MinCol && c <= m.MaxCol && r >= m.MinRow && r <= m.MaxRow
}

func (m *Map) cell(h Hex) *cell {
	if !m.OnMap(h) {
		return &cell{}
	}
	return &m.cells[m.index(h)]
}

// Land reports whether units may stand in h: on the map and not sea.
func (m *Map) Land(h Hex) bool { return m.OnMap(h) && m.cells[m.index(h)].terrain != Sea }

// Terrain returns the terrain of h; off the map is Sea.
func (m *Map) Terrain(h Hex) Terrain { return m.cell(h).terrain }

// Level returns the level (0-4) of h, rule 5.4.
func (m *Map) Level(h Hex) int { return int(m.cell(h).level) }

// Zone returns the victory zone letter of a land hex, "" at sea.
func (m *Map) Zone(h Hex) string {
	z := m.cell(h).zone
	if z == 0 {
		return ""
	}
	return string(z)
}

// ZoneName returns the name of a victory zone letter.
func (m *Map) ZoneName(z string) string { return m.zoneNames[z] }

// ZoneIDs returns the victory zone letters in the order of VictoryHexes.
func (m *Map) ZoneIDs() []string {
	var ids []string
	for _, v := range m.VictoryHexes {
		ids = append(ids, v.Zone)
	}
	return ids
}

// LandHexes returns every land hex in ascending order. The slice is shared.
func (m *Map) LandHexes() []Hex { return m.land }

// Slope tells how moving from a to the adjacent hex b crosses a slope: up when
// the art lies in a, down when it lies in b; both on the few sides drawn both
// ways (rule 5.3).
func (m *Map) Slope(a, b Hex) (up, down bool) {
	d, ok := a.DirectionTo(b)
	if !ok {
		return false, false
	}
	f := m.cell(a).sides[d]
	return f&sideSlopeUp != 0, f&sideSlopeDown != 0
}

// Cliff reports whether a cliff lies between adjacent hexes a and b (rule 5.7).
func (m *Map) Cliff(a, b Hex) bool {
	d, ok := a.DirectionTo(b)
	return ok && m.cell(a).sides[d]&sideCliff != 0
}

// RiverBetween returns the river that runs from a to the adjacent b, if one
// does.
func (m *Map) RiverBetween(a, b Hex) (River, bool) {
	d, ok := a.DirectionTo(b)
	if !ok {
		return River{}, false
	}
	i := m.cell(a).river[d]
	if i == 0 {
		return River{}, false
	}
	return m.Rivers[i-1], true
}

// OnRiver reports whether any river runs through h.
func (m *Map) OnRiver(h Hex) bool {
	for _, r := range m.cell(h).river {
		if r != 0 {
			return true
		}
	}
	return false
}

// Neighbours returns the land hexes adjacent to h, clockwise from north.
func (m *Map) Neighbours(h Hex) []Hex {
	out := make([]Hex, 0, 6)
	for _, n := range h.Neighbours() {
		if m.Land(n) {
			out = append(out, n)
		}
	}
	return out
}

// LandingZone returns the landing zone with the given id.
func (m *Map) LandingZone(id string) (LandingZone, bool) {
	for _, lz := range m.LandingZones {
		if lz.ID == id {
			return lz, true
		}
	}
	return LandingZone{}, false
}

// LandingZoneAt returns the landing zone in hex h, if any.
func (m *Map) LandingZoneAt(h Hex) (LandingZone, bool) {
	for _, lz := range m.LandingZones {
		if lz.Hex == h {
			return lz, true
		}
	}
	return LandingZone{}, false
}

// VictoryHexAt returns the victory hex at h, if h is one.
func (m *Map) VictoryHexAt(h Hex) (VictoryHex, bool) {
	for _, v := range m.VictoryHexes {
		if v.Hex == h {
			return v, true
		}
	}
	return VictoryHex{}, false
}
