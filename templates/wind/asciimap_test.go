package wind

import (
	"fmt"
	"github.com/attu-pbem/attu/templates"
	gf "github.com/attu-pbem/attu/templates/internal/golden"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	gf.Check(t, name, got)
}

// landingUnits is a handful of markers as a U.S. report might show them
// after a landing at Massacre Bay.
var landingUnits = map[adjudicator.Hex]string{
	2821: "U4", 2720: "U2", 2719: "J3", 2822: "U6", 3122: "U1", 2717: "J2", 2618: "?1",
}

func TestGolden(t *testing.T) {
	m := wind.BuiltinMap()
	cases := []struct {
		name string
		text string
	}{
		{"island.txt", RenderMap(m, MapOptions{})},
		{"island-units.txt", RenderMap(m, MapOptions{Markers: landingUnits, NoLegend: true})},
		{"around-2717-r3.txt", RenderAround(m, 2717, 3, MapOptions{})},
		{"around-lz-d-r2.txt", RenderAround(m, 2821, 2, MapOptions{Markers: landingUnits})},
		{"around-1806-r1.txt", RenderAround(m, 1806, 1, MapOptions{})},
		{"around-2717-r6.txt", RenderAround(m, 2717, 6, MapOptions{NoLegend: true})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { golden(t, c.name, c.text) })
	}
}

func checkWidth(t *testing.T, what, text string) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if len(l) > templates.MaxWidth {
			t.Errorf("%s: line %d is %d characters wide, more than %d:\n%s", what, i+1, len(l), templates.MaxWidth, l)
		}
		if strings.TrimRight(l, " ") != l {
			t.Errorf("%s: line %d ends in blanks", what, i+1)
		}
	}
}

func TestWidth(t *testing.T) {
	m := wind.BuiltinMap()
	checkWidth(t, "island", RenderMap(m, MapOptions{}))
	checkWidth(t, "island with units", RenderMap(m, MapOptions{Markers: landingUnits}))
	centers := []adjudicator.Hex{2717, 1001, 4130, 1013, 4114, 2501, 2530}
	for _, c := range centers {
		for r := 0; r <= 10; r++ {
			checkWidth(t, "around "+c.String(), RenderAround(m, c, r, MapOptions{Markers: landingUnits}))
		}
	}
}

// cells returns the characters of the canvas at ps, blanks off its edges.
func cells(c *canvas, ps []point) string {
	var b strings.Builder
	for _, p := range ps {
		if p.y >= 0 && p.y < len(c.lines) && p.x >= 0 && p.x < len(c.lines[p.y]) {
			b.WriteByte(c.lines[p.y][p.x])
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// insideLine returns the k-th inside line of h, trimmed.
func insideLine(g *grid, c *canvas, h adjudicator.Hex, k int) string {
	p, n := g.interior(h, k)
	var ps []point
	for i := range n {
		ps = append(ps, point{p.x + i, p.y})
	}
	return strings.TrimSpace(cells(c, ps))
}

// wholeIsland is the island grid RenderMap draws for a map that fits in one
// strip.
func wholeIsland(m *wind.Map, opt MapOptions) *grid {
	cols, rows := islandExtent(m, opt)
	return islandGrid(m, opt, cols, rows)
}

func TestIslandShowsEveryFeature(t *testing.T) {
	m := wind.BuiltinMap()
	g := wholeIsland(m, MapOptions{})
	c := g.draw()
	for _, v := range m.VictoryHexes {
		if got, want := insideLine(g, c, v.Hex, 1), "*"+string(rune('0'+m.Level(v.Hex))); got != want {
			t.Errorf("victory hex %s (%s) shows %q, want %q", v.Hex, v.Name, got, want)
		}
	}
	for _, lz := range m.LandingZones {
		if got := insideLine(g, c, lz.Hex, 1); !strings.HasPrefix(got, lz.ID) {
			t.Errorf("landing zone %s at %s shows %q", lz.ID, lz.Hex, got)
		}
	}
	for _, h := range m.LandHexes() {
		if !g.shown[h] {
			t.Errorf("land hex %s is not drawn", h)
		}
	}
	text := RenderMap(m, MapOptions{})
	for _, v := range m.VictoryHexes {
		if !strings.Contains(text, v.Hex.String()+" "+v.Name) {
			t.Errorf("legend does not list victory hex %s %s", v.Hex, v.Name)
		}
	}
	// The cliff of rule 5.7 between 2717 and 2817 shows on the island too.
	if got := cells(c, g.side(2717, wind.NorthEast)); got != "#" {
		t.Errorf("2717/2817 side is %q on the island map, want #", got)
	}
}

func TestIslandMarkers(t *testing.T) {
	m := wind.BuiltinMap()
	g := wholeIsland(m, MapOptions{Markers: landingUnits})
	c := g.draw()
	for h, mk := range landingUnits {
		if got := insideLine(g, c, h, 1); got != mk {
			t.Errorf("%s shows %q, want marker %q", h, got, mk)
		}
	}
}

func within(center adjudicator.Hex, radius int) map[adjudicator.Hex]bool {
	set := map[adjudicator.Hex]bool{}
	addWithin(set, center, radius)
	return set
}

func TestCloseUpAround2717(t *testing.T) {
	m := wind.BuiltinMap()
	g, clipped := closeUpGrid(m, within(2717, 3), 2717, MapOptions{Markers: landingUnits})
	if clipped {
		t.Errorf("radius 3 should fit without clipping")
	}
	c := g.draw()
	if got := cells(c, g.side(2717, wind.NorthEast)); strings.Trim(got, "#") != "" {
		t.Errorf("cliff between 2717 and 2817 drawn as %q, want all #", got)
	}
	if got := insideLine(g, c, 2717, 1); got != "*2717*" {
		t.Errorf("2717 is labelled %q, want *2717*", got)
	}
	if got := insideLine(g, c, 2717, 3); got != "J2" {
		t.Errorf("2717 unit line is %q, want J2", got)
	}
	for h := range g.shown {
		if h.Distance(2717) > 3 {
			t.Errorf("%s is drawn but lies %d hexes from 2717", h, h.Distance(2717))
		}
		if got := insideLine(g, c, h, 1); !strings.Contains(got, h.String()) {
			t.Errorf("%s is labelled %q", h, got)
		}
	}
	if len(g.shown) != 37 {
		t.Errorf("%d hexes drawn, want the 37 within 3 of 2717", len(g.shown))
	}
	// Hogback Creek runs 2720-2719-2619-2618: its crossings carry '~'.
	for _, s := range [][2]adjudicator.Hex{{2720, 2719}, {2719, 2619}, {2619, 2618}} {
		d, _ := s[0].DirectionTo(s[1])
		if got := cells(c, g.side(s[0], d)); !strings.Contains(got, "~") {
			t.Errorf("river crossing %s/%s drawn as %q", s[0], s[1], got)
		}
	}
}

func TestSlopeArrowsPointUphill(t *testing.T) {
	m := wind.BuiltinMap()
	for _, tc := range []struct {
		from, to adjudicator.Hex
		want     string
	}{
		{1717, 1817, ">>"},       // art in 1717: 1717 to 1817 is up
		{1817, 1717, ">>"},       // the same side seen from the other hex
		{1806, 1807, "^v^v^v^v"}, // drawn both ways (rule 5.3 example)
	} {
		up, down := m.Slope(tc.from, tc.to)
		if !up && !down {
			t.Fatalf("%s/%s is not a slope in the built-in map", tc.from, tc.to)
		}
		g, _ := closeUpGrid(m, within(tc.from, 1), tc.from, MapOptions{})
		c := g.draw()
		d, _ := tc.from.DirectionTo(tc.to)
		if got := cells(c, g.side(tc.from, d)); got != tc.want {
			t.Errorf("%s/%s drawn as %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
}

// A river crossing a slope shows both: the creek climbs from 2720 into
// 2719 across a slope (the movement example of rule 5.4).
func TestRiverOverSlope(t *testing.T) {
	m := wind.BuiltinMap()
	g, _ := closeUpGrid(m, within(2719, 1), 2719, MapOptions{})
	c := g.draw()
	if got := cells(c, g.side(2719, wind.South)); got != "^^^~~^^^" {
		t.Errorf("2719/2720 drawn as %q, want the creek across an uphill slope", got)
	}
	// Temnac Creek runs 1424-1423 across a slope on a slanted side.
	g, _ = closeUpGrid(m, within(1424, 1), 1424, MapOptions{})
	c = g.draw()
	d, _ := adjudicator.Hex(1424).DirectionTo(1423)
	if got := cells(c, g.side(1424, d)); !strings.Contains(got, "~") || strings.Trim(got, "<>^v") == got {
		t.Errorf("1424/1423 drawn as %q, want a slope arrow and ~", got)
	}
}

func TestCloseUpLandingZone(t *testing.T) {
	m := wind.BuiltinMap()
	lz, _ := m.LandingZone("D")
	text := RenderAround(m, lz.Hex, 2, MapOptions{Markers: landingUnits})
	for _, want := range []string{"LZ D U4", "staging D", "U6", "landing zone D", "D 2821 (12 steps, staging 2822)"} {
		if !strings.Contains(text, want) {
			t.Errorf("close-up of landing zone D lacks %q:\n%s", want, text)
		}
	}
}

func TestCloseUpClipsWideRadius(t *testing.T) {
	m := wind.BuiltinMap()
	text := RenderAround(m, 2717, 8, MapOptions{})
	if !strings.Contains(text, "only columns 23-31") {
		t.Errorf("a radius-8 close-up should say it was clipped:\n%s", text)
	}
	checkWidth(t, "radius 8", text)
}

func TestCloseUpAtTheEdge(t *testing.T) {
	m := wind.BuiltinMap()
	g, _ := closeUpGrid(m, within(1001, 2), 1001, MapOptions{})
	for h := range g.shown {
		if !m.OnMap(h) {
			t.Errorf("%s is off the map but drawn", h)
		}
	}
	if !g.shown[1001] || len(g.shown) == 0 {
		t.Errorf("the corner hex 1001 is not drawn")
	}
}

// TestWideMapInStrips draws a made-up map of 70 columns: it must come out in
// strips that each fit, and still show every column.
func TestWideMapInStrips(t *testing.T) {
	const ncols = 70
	var levels, zones strings.Builder
	for r := 1; r <= 4; r++ {
		for c := 1; c <= ncols; c++ {
			if r == 2 || r == 3 {
				levels.WriteByte(byte('0' + c%5))
				zones.WriteByte('A')
			} else {
				levels.WriteByte('~')
				zones.WriteByte('~')
			}
		}
		levels.WriteString("\n  ")
		zones.WriteString("\n  ")
	}
	yaml := fmt.Sprintf("name: wide\ncolumns: [1, %d]\nrows: [1, 4]\nlevels: |\n  %s\nzones: |\n  %s\nzone_names: {A: All}\n",
		ncols, strings.TrimSpace(levels.String()), strings.TrimSpace(zones.String()))
	m, err := wind.ParseMap([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	text := RenderMap(m, MapOptions{})
	checkWidth(t, "wide map", text)
	for c := 1; c <= ncols; c++ {
		if !strings.Contains(text, fmt.Sprintf(" %02d", c)) {
			t.Errorf("column %02d is not numbered", c)
		}
	}
	if !strings.Contains(text, "strips") {
		t.Errorf("the legend does not say the map is in strips")
	}
}

func TestRenderArea(t *testing.T) {
	m := wind.BuiltinMap()
	text := RenderArea(m, []adjudicator.Hex{2717, 2719}, 1, MapOptions{Markers: landingUnits})
	golden(t, "area-2717-2719.txt", text)
	checkWidth(t, "area", text)
	for _, want := range []string{"Hexes 2717, 2719 and those within 1 of them", "*2717*", "2620", "J3"} {
		if !strings.Contains(text, want) {
			t.Errorf("area lacks %q:\n%s", want, text)
		}
	}
	// Two hexes far apart: clipped around the middle, within the width.
	text = RenderArea(m, []adjudicator.Hex{1425, 3622}, 0, MapOptions{NoLegend: true})
	checkWidth(t, "wide area", text)
	if !strings.Contains(text, "only columns 21-29") {
		t.Errorf("a wide area should say which columns it shows:\n%s", text)
	}
}

// TestIslandRowLabels reads the island map as a player would: each row is
// numbered on two lines, one after the other; an even column's hex lies on
// the first under the column's number on the upper header line, an odd
// column's on the second under the number on the lower header line.
func TestIslandRowLabels(t *testing.T) {
	m := wind.BuiltinMap()
	markers := map[adjudicator.Hex]string{2117: "AB", 2017: "CD", 1425: "EF", 3622: "GH"}
	lines := strings.Split(RenderMap(m, MapOptions{Markers: markers, NoLegend: true}), "\n")
	_, rows := islandExtent(m, MapOptions{})
	rowLine, numbered := map[int]int{}, map[int][]int{}
	for i, l := range lines {
		var r int
		if len(l) >= 3 && l[2] == ' ' {
			if _, err := fmt.Sscanf(l[:2], "%d", &r); err == nil {
				if _, seen := rowLine[r]; !seen {
					rowLine[r] = i
				}
				numbered[r] = append(numbered[r], i)
			}
		}
	}
	for r, at := range numbered {
		if len(at) != 2 || at[1] != at[0]+1 {
			t.Errorf("row %d numbered on lines %v, want two lines one after the other", r, at)
		}
	}
	if len(rowLine) != rows[1]-rows[0]+1 {
		t.Fatalf("%d rows numbered, want %d", len(rowLine), rows[1]-rows[0]+1)
	}
	for h, mark := range markers {
		header := lines[h.Col()%2]
		x := strings.Index(header, fmt.Sprintf(" %02d", h.Col())) + 1
		y := rowLine[h.Row()] + h.Col()%2
		if x <= 0 || len(lines[y]) < x+2 || lines[y][x:x+2] != mark {
			t.Errorf("%s: not under its column on the line of its row:\n%s\n%s", h, header, lines[y])
		}
	}
}
