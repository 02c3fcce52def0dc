package wind

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

//go:embed data/attu-map.yaml
var builtinMapYAML []byte

// MapFile is the YAML form of a map. The built-in file
// (adjudicator/wind/data/attu-map.yaml) is a representative Attu drawn for attu; a
// transcription of the published map in this format replaces it (RULINGS.md
// R1).
//
//   - columns, rows: the first and last column and row, inclusive.
//   - levels: one line per row, one character per column: "~" for sea, "0"
//     to "4" for the level of a land hex (rule 5.4).
//   - zones: the same grid, giving each land hex's victory zone letter
//     (rule 10.0); zone_names names the letters.
//   - lakes: land hexes that are lake (rule 5.6).
//   - slopes: "ART-OTHER" hexsides; the slope art lies in ART on its side
//     towards OTHER, so ART→OTHER is up and OTHER→ART is down (rule 5.3). A
//     side listed both ways is both up and down.
//   - cliffs: "A-B" hexsides (rule 5.7).
//   - rivers: named lines from hex centre to hex centre (rule 5.5).
//   - victory_hexes, landing_zones (with capacity, the sea hex holding the
//     staging box and the scatter chart of rule 9.2.2) and setup hexes.
//   - scenario_areas: for each short scenario (rule 15) the victory zones
//     its play is limited to and any hexes outside them that belong to it.
type MapFile struct {
	Name         string            `yaml:"name"`
	Columns      [2]int            `yaml:"columns"`
	Rows         [2]int            `yaml:"rows"`
	Levels       string            `yaml:"levels"`
	Zones        string            `yaml:"zones"`
	Lakes        []Hex             `yaml:"lakes"`
	Slopes       []string          `yaml:"slopes"`
	Cliffs       []string          `yaml:"cliffs"`
	Rivers       []RiverFile       `yaml:"rivers"`
	ZoneNames    map[string]string `yaml:"zone_names"`
	VictoryHexes []VictoryHex      `yaml:"victory_hexes"`
	LandingZones []LandingZoneFile `yaml:"landing_zones"`
	Setup        Setup             `yaml:"setup"`
	// ScenarioAreas are the play areas of the short scenarios (rule 15).
	ScenarioAreas []ScenarioArea `yaml:"scenario_areas"`
}

// RiverFile is one river of a MapFile.
type RiverFile struct {
	Name  string `yaml:"name"`
	Hexes []Hex  `yaml:"hexes"`
}

// LandingZoneFile is one landing zone of a MapFile.
type LandingZoneFile struct {
	ID       string        `yaml:"id"`
	Hex      Hex           `yaml:"hex"`
	Capacity int           `yaml:"capacity"`
	Staging  Hex           `yaml:"staging"`
	Scatter  []ScatterFile `yaml:"scatter"`
}

// ScatterFile is one row of a scatter chart: "dice: 2-3, result: E".
type ScatterFile struct {
	Dice   string `yaml:"dice"`
	Result string `yaml:"result"`
}

// VictoryHex is one of the six hexes of rule 3.8.1.
type VictoryHex struct {
	Hex  Hex    `yaml:"hex" json:"hex"`
	Name string `yaml:"name" json:"name"`
	Zone string `yaml:"zone" json:"zone"`
}

// Setup lists the hexes named by the setup rules (12.3, 12.4).
type Setup struct {
	HistoricUnknown     []Hex `yaml:"historic_unknown"`
	Historic20mm        []Hex `yaml:"historic_20mm"`
	Historic75mm        []Hex `yaml:"historic_75mm"`
	FreeArtilleryCentre Hex   `yaml:"free_artillery_centre"`
	Free75mm            []Hex `yaml:"free_75mm"`
}

var builtinMap = parseEmbedded(builtinMapYAML, ParseMap)

// BuiltinMap returns the representative Attu map embedded in attu. It is
// shared and must not be modified.
func BuiltinMap() *Map { return builtinMap.get("map") }

// embedded is data compiled into attu, parsed once at start-up. The tests
// check that it parses; get panics otherwise, since attu cannot run without
// it.
type embedded[T any] struct {
	v   T
	err error
}

func parseEmbedded[T any](data []byte, parse func([]byte) (T, error)) embedded[T] {
	v, err := parse(data)
	return embedded[T]{v, err}
}

func (e embedded[T]) get(what string) T {
	if e.err != nil {
		panic("adjudicator: built-in " + what + " is invalid: " + e.err.Error())
	}
	return e.v
}

// decodeKnown decodes a whole YAML document into v, refusing unknown fields.
func decodeKnown(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	return dec.Decode(v)
}

// ParseMap reads a MapFile and checks it: unknown fields, malformed grids,
// hexsides between hexes that do not touch, rivers that jump, landing zones at
// sea. Every problem found is reported.
func ParseMap(data []byte) (*Map, error) {
	var f MapFile
	if err := decodeKnown(data, &f); err != nil {
		return nil, fmt.Errorf("map: %w", err)
	}
	return buildMap(&f)
}

func buildMap(f *MapFile) (*Map, error) {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("map: "+format, a...)) }

	m := &Map{
		Name:   f.Name,
		MinCol: f.Columns[0], MaxCol: f.Columns[1],
		MinRow: f.Rows[0], MaxRow: f.Rows[1],
		zoneNames:    f.ZoneNames,
		VictoryHexes: f.VictoryHexes,
		Setup:        f.Setup,
		areas:        map[string]ScenarioArea{},
	}
	if m.MinCol < 1 || m.MaxCol > 99 || m.MinCol > m.MaxCol || m.MinRow < 1 || m.MaxRow > 99 || m.MinRow > m.MaxRow {
		return nil, errors.New("map: columns and rows must be [first, last] between 1 and 99")
	}
	m.nrows = m.MaxRow - m.MinRow + 1
	m.cells = make([]cell, (m.MaxCol-m.MinCol+1)*m.nrows)

	levels := gridLines(f.Levels)
	zones := gridLines(f.Zones)
	ncols := m.MaxCol - m.MinCol + 1
	if len(levels) != m.nrows {
		bad("levels has %d lines, want one per row (%d)", len(levels), m.nrows)
	}
	if len(zones) != m.nrows {
		bad("zones has %d lines, want one per row (%d)", len(zones), m.nrows)
	}
	for i := 0; i < m.nrows && i < len(levels); i++ {
		line := levels[i]
		if len(line) != ncols {
			bad("levels line %d has %d characters, want %d", i+1, len(line), ncols)
			continue
		}
		for j := range ncols {
			h := MakeHex(m.MinCol+j, m.MinRow+i)
			c := &m.cells[m.index(h)]
			switch ch := line[j]; {
			case ch == '~':
				c.terrain = Sea
			case ch >= '0' && ch <= '4':
				c.terrain = Clear
				c.level = int8(ch - '0')
			default:
				bad("levels: %s has %q, want ~ or 0-4", h, ch)
			}
		}
	}
	for i := 0; i < m.nrows && i < len(zones); i++ {
		line := zones[i]
		if len(line) != ncols {
			bad("zones line %d has %d characters, want %d", i+1, len(line), ncols)
			continue
		}
		for j := range ncols {
			h := MakeHex(m.MinCol+j, m.MinRow+i)
			c := &m.cells[m.index(h)]
			z := line[j]
			if z == '~' {
				if c.terrain != Sea {
					bad("zones: land hex %s has no zone", h)
				}
				continue
			}
			if c.terrain == Sea {
				bad("zones: sea hex %s has zone %q", h, z)
				continue
			}
			if _, ok := f.ZoneNames[string(z)]; !ok {
				bad("zones: %s is in zone %q, which zone_names does not name", h, z)
			}
			c.zone = z
		}
	}
	for _, h := range f.Lakes {
		if !m.Land(h) {
			bad("lake %s is not a land hex", h)
			continue
		}
		m.cells[m.index(h)].terrain = Lake
	}
	side := func(what, s string) (Hex, Hex, bool) {
		a, b, ok := strings.Cut(s, "-")
		ha, err1 := ParseHex(strings.TrimSpace(a))
		hb, err2 := ParseHex(strings.TrimSpace(b))
		if !ok || err1 != nil || err2 != nil {
			bad("%s %q: want two hexes like 2717-2817", what, s)
			return 0, 0, false
		}
		if !ha.Adjacent(hb) {
			bad("%s %s: the hexes do not touch", what, s)
			return 0, 0, false
		}
		if !m.Land(ha) || !m.Land(hb) {
			bad("%s %s: both hexes must be land", what, s)
			return 0, 0, false
		}
		return ha, hb, true
	}
	for _, s := range f.Slopes {
		art, other, ok := side("slope", s)
		if !ok {
			continue
		}
		d, _ := art.DirectionTo(other)
		m.cells[m.index(art)].sides[d] |= sideSlopeUp
		m.cells[m.index(other)].sides[d.Opposite()] |= sideSlopeDown
	}
	for _, s := range f.Cliffs {
		a, b, ok := side("cliff", s)
		if !ok {
			continue
		}
		d, _ := a.DirectionTo(b)
		m.cells[m.index(a)].sides[d] |= sideCliff
		m.cells[m.index(b)].sides[d.Opposite()] |= sideCliff
	}
	for i, r := range f.Rivers {
		if r.Name == "" || len(r.Hexes) < 2 {
			bad("river %d needs a name and at least two hexes", i+1)
			continue
		}
		m.Rivers = append(m.Rivers, River(r))
		for k := 1; k < len(r.Hexes); k++ {
			a, b := r.Hexes[k-1], r.Hexes[k]
			if !a.Adjacent(b) || !m.Land(a) || !m.Land(b) {
				bad("river %s jumps from %s to %s", r.Name, a, b)
				continue
			}
			d, _ := a.DirectionTo(b)
			ca, cb := &m.cells[m.index(a)], &m.cells[m.index(b)]
			if ca.river[d] != 0 {
				bad("river %s runs %s-%s, already part of river %s", r.Name, a, b, m.Rivers[ca.river[d]-1].Name)
			}
			ca.river[d] = uint8(len(m.Rivers))
			cb.river[d.Opposite()] = uint8(len(m.Rivers))
		}
	}
	seenLZ := map[string]bool{}
	for _, z := range f.LandingZones {
		lz := LandingZone{ID: z.ID, Hex: z.Hex, Capacity: z.Capacity, Staging: z.Staging}
		if z.ID == "" || seenLZ[z.ID] {
			bad("landing zone %q: ids must be unique letters", z.ID)
		}
		seenLZ[z.ID] = true
		if !m.Land(z.Hex) {
			bad("landing zone %s: %s is not land", z.ID, z.Hex)
		}
		if z.Capacity <= 0 {
			bad("landing zone %s: capacity must be positive", z.ID)
		}
		if m.OnMap(z.Staging) && m.Land(z.Staging) {
			bad("landing zone %s: staging box %s must be drawn at sea", z.ID, z.Staging)
		}
		covered := [11]bool{}
		for _, row := range z.Scatter {
			lo, hi, ok := parseDiceRange(row.Dice)
			if !ok {
				bad("landing zone %s: scatter dice %q, want N or N-M between 1 and 10", z.ID, row.Dice)
				continue
			}
			res := ScatterResult{Lo: lo, Hi: hi}
			switch row.Result {
			case "landed":
				res.Kind = Landed
			case "delayed":
				res.Kind = Delayed
			default:
				res.Kind = Scattered
				res.To = row.Result
			}
			for d := lo; d <= hi; d++ {
				if covered[d] {
					bad("landing zone %s: scatter die %d listed twice", z.ID, d)
				}
				covered[d] = true
			}
			lz.Scatter = append(lz.Scatter, res)
		}
		for d := 1; d <= 10; d++ {
			if !covered[d] {
				bad("landing zone %s: scatter chart has no row for die %d", z.ID, d)
				break
			}
		}
		m.LandingZones = append(m.LandingZones, lz)
	}
	for _, lz := range m.LandingZones {
		for _, s := range lz.Scatter {
			if s.Kind == Scattered && !seenLZ[s.To] {
				bad("landing zone %s scatters to %q, which is not a landing zone", lz.ID, s.To)
			}
		}
	}
	for _, v := range m.VictoryHexes {
		if !m.Land(v.Hex) {
			bad("victory hex %s (%s) is not land", v.Hex, v.Name)
		} else if string(m.cells[m.index(v.Hex)].zone) != v.Zone {
			bad("victory hex %s (%s) lies outside its zone %s", v.Hex, v.Name, v.Zone)
		}
	}
	for _, a := range f.ScenarioAreas {
		if a.Scenario == "" || m.areas[a.Scenario].Scenario != "" {
			bad("scenario area %q: each scenario needs a name and one area", a.Scenario)
		}
		for _, z := range a.Zones {
			if _, ok := f.ZoneNames[z]; !ok {
				bad("scenario area %s: zone %q is not a victory zone", a.Scenario, z)
			}
		}
		for _, h := range a.Hexes {
			if !m.Land(h) {
				bad("scenario area %s: %s is not a land hex", a.Scenario, h)
			}
		}
		m.areas[a.Scenario] = a
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	m.land = m.land[:0]
	for c := m.MinCol; c <= m.MaxCol; c++ {
		for r := m.MinRow; r <= m.MaxRow; r++ {
			if h := MakeHex(c, r); m.Land(h) {
				m.land = append(m.land, h)
			}
		}
	}
	sort.Slice(m.land, func(i, j int) bool { return m.land[i] < m.land[j] })
	return m, nil
}

func gridLines(s string) []string {
	var out []string
	for line := range strings.SplitSeq(strings.TrimRight(s, "\n"), "\n") {
		out = append(out, strings.TrimSpace(line))
	}
	return out
}

func parseDiceRange(s string) (lo, hi int, ok bool) {
	a, b, found := strings.Cut(s, "-")
	lo, err := strconv.Atoi(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, false
	}
	hi = lo
	if found {
		if hi, err = strconv.Atoi(strings.TrimSpace(b)); err != nil {
			return 0, 0, false
		}
	}
	return lo, hi, lo >= 1 && hi <= 10 && lo <= hi
}
