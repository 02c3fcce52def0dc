// The ASCII map renderer draws from a Map and an optional list of
// per-hex markers that the caller has already filtered for the reader's side;
// it never sees a game state, so it cannot leak what fog of war hides.
//
// Both maps draw real flat-topped hex outlines in the grid of the printed
// map: odd columns sit half a hex lower than even ones. The island map uses
// the smallest outline that fits 32 columns in 100 characters; the close-up
// uses hexes large enough to carry the hex id, the terrain and a unit line.
// Hexsides show what lies on them: cliffs as '#' (rule 5.7), slopes as arrows
// pointing uphill, that is from the hex holding the slope art across the side
// (rule 5.3), river crossings as '~' (rule 5.5) and victory zone boundaries
// as dots (rule 10.0).

package wind

import (
	"bytes"
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// MapOptions tunes a rendered map.
type MapOptions struct {
	// Markers are short labels (typically 1-3 characters, e.g. "U3" or
	// "J2") for hexes holding units, already filtered for the reader's
	// side. The island map has room for two characters per hex and shows
	// a marker instead of the hex's terrain; the close-up prints it on the
	// hex's unit line, ten characters shared with a landing zone's "LZ D".
	Markers  map[adjudicator.Hex]string
	NoLegend bool // leaves out the legend printed below the map
}

// RenderMap draws the whole map: every hex, with column numbers along the
// top (even columns above odd ones) and row numbers down the side, on both
// lines of a row (its even columns', then its odd columns'), then a legend. A map wider than
// MaxWidth allows (more than 32 columns) is drawn in strips, west to east.
func RenderMap(m *wind.Map, opt MapOptions) string {
	cols, rows := islandExtent(m, opt)
	var b strings.Builder
	for c0 := cols[0]; c0 <= cols[1]; c0 += islandMaxCols {
		if c0 > cols[0] {
			b.WriteString("\n")
		}
		g := islandGrid(m, opt, [2]int{c0, min(c0+islandMaxCols-1, cols[1])}, rows)
		b.WriteString(g.draw().String())
	}
	if !opt.NoLegend {
		b.WriteString("\n")
		b.WriteString(islandLegend(m, cols, rows, opt))
	}
	return b.String()
}

// RenderAround draws a close-up of the hexes within radius of center, each
// hex outlined and labelled with its id, level and terrain, with a line for
// its unit marker. Hexes off the map are left out. When the close-up would be
// wider than MaxWidth, the columns furthest from center are dropped and a
// note says so.
func RenderAround(m *wind.Map, center adjudicator.Hex, radius int, opt MapOptions) string {
	radius = max(radius, 0)
	set := map[adjudicator.Hex]bool{}
	addWithin(set, center, radius)
	title := center.String()
	if v, ok := m.VictoryHexAt(center); ok {
		title += fmt.Sprintf(" (%s)", v.Name)
	} else if lz, ok := m.LandingZoneAt(center); ok {
		title += fmt.Sprintf(" (landing zone %s)", lz.ID)
	}
	if radius > 0 {
		title += fmt.Sprintf(" and the hexes within %d of it", radius)
	}
	g, clipped := closeUpGrid(m, set, center, opt)
	return closeUpOf(g, clipped, title, "a smaller radius", opt)
}

// RenderArea draws a close-up of the given hexes and those within margin of
// any of them: the area of a fight in a report, or the hexes a failing rules
// test involves. When the area would be wider than MaxWidth, the columns
// furthest from its middle are dropped and a note says so.
func RenderArea(m *wind.Map, hexes []adjudicator.Hex, margin int, opt MapOptions) string {
	margin = max(margin, 0)
	set := map[adjudicator.Hex]bool{}
	var ids []string
	lo, hi := 0, 0
	for _, c := range hexes {
		ids = append(ids, c.String())
		if lo == 0 || c.Col() < lo {
			lo = c.Col()
		}
		hi = max(hi, c.Col())
		addWithin(set, c, margin)
	}
	if margin > 0 {
		ids[len(ids)-1] += fmt.Sprintf(" and those within %d of them", margin)
	}
	focus := adjudicator.MakeHex((lo+hi)/2, 1)
	g, clipped := closeUpGrid(m, set, focus, opt)
	return closeUpOf(g, clipped, strings.Join(templates.ListLines("Hexes ", ids), "\n"), "fewer hexes", opt)
}

// addWithin adds to set the hexes within radius of center, on any map.
func addWithin(set map[adjudicator.Hex]bool, center adjudicator.Hex, radius int) {
	for col := center.Col() - radius; col <= center.Col()+radius; col++ {
		for row := center.Row() - radius; row <= center.Row()+radius; row++ {
			if h := adjudicator.MakeHex(col, row); col >= 1 && row >= 1 && col <= 99 && row <= 99 && h.Distance(center) <= radius {
				set[h] = true
			}
		}
	}
}

// closeUpOf renders a titled close-up laid out by closeUpGrid; smaller
// says what to ask for when it had to be clipped.
func closeUpOf(g *grid, clipped bool, title, smaller string, opt MapOptions) string {
	var b strings.Builder
	b.WriteString(title + "\n\n")
	b.WriteString(g.draw().String())
	if clipped {
		fmt.Fprintf(&b, "(only columns %02d-%02d fit in %d characters; ask for %s to see all)\n",
			g.cols[0], g.cols[1], templates.MaxWidth, smaller)
	}
	if !opt.NoLegend {
		b.WriteString("\n")
		b.WriteString(execute("close-up-legend", featureList(g.m, g.shown)))
	}
	return b.String()
}

// grid lays hexes out on a text canvas. A hex is drawn as a flat-topped
// outline whose slanted sides are slant characters high and whose top and
// bottom edges are top characters wide:
//
//	  ________          slant 2, top 8
//	 /        \
//	/          \
//	\          /
//	 \________/
//
// Neighbouring columns share their slanted sides, so columns are top+slant
// characters apart and rows 2*slant lines apart; odd columns are shifted
// down by slant lines, as on the printed map.
type grid struct {
	m           *wind.Map
	slant, top  int
	col0, row0  int // column and row placed at the canvas origin
	left, above int // room kept for labels
	shown       map[adjudicator.Hex]bool
	seaSides    bool // outline sides between two sea hexes
	label       func(g *grid, h adjudicator.Hex, c *canvas)
	header      func(g *grid, c *canvas)
	cols        [2]int // first and last column drawn
	rows        [2]int // first and last row drawn
}

type point struct{ x, y int }

// origin returns the top-left corner of h's bounding box.
func (g *grid) origin(h adjudicator.Hex) point {
	x := g.left + (h.Col()-g.col0)*(g.top+g.slant)
	y := g.above + (h.Row()-g.row0)*2*g.slant
	if h.Col()%2 != 0 {
		y += g.slant
	}
	return point{x, y}
}

// side returns the canvas cells of the hexside of h facing d, from west to
// east or north to south.
func (g *grid) side(h adjudicator.Hex, d adjudicator.Direction) []point {
	o := g.origin(h)
	s, w := g.slant, g.top
	// The first cell, how many cells and the step from one to the next.
	p, n, dx, dy := point{o.x + s, o.y}, w, 1, 0
	switch d {
	case wind.South:
		p.y += 2 * s
	case wind.NorthWest:
		p, n, dx, dy = point{o.x + s - 1, o.y + 1}, s, -1, 1
	case wind.NorthEast:
		p, n, dx, dy = point{o.x + s + w, o.y + 1}, s, 1, 1
	case wind.SouthWest:
		p, n, dx, dy = point{o.x, o.y + s + 1}, s, 1, 1
	case wind.SouthEast:
		p, n, dx, dy = point{o.x + w + 2*s - 1, o.y + s + 1}, s, -1, 1
	}
	ps := make([]point, n)
	for i := range ps {
		ps[i] = point{p.x + i*dx, p.y + i*dy}
	}
	return ps
}

// interior returns the first cell and width of h's k-th inside line
// (1 ≤ k < 2*slant), between its slanted sides.
func (g *grid) interior(h adjudicator.Hex, k int) (point, int) {
	o := g.origin(h)
	s, w := g.slant, g.top
	if k <= s {
		return point{o.x + s - k + 1, o.y + k}, w + 2*(k-1)
	}
	j := k - s // 1..s-1
	return point{o.x + j, o.y + k}, w + 2*(s-j)
}

// center writes text centred on h's k-th inside line, cut to fit.
func (g *grid) center(c *canvas, h adjudicator.Hex, k int, text string) {
	p, n := g.interior(h, k)
	if len(text) > n {
		text = text[:n]
	}
	c.put(p.x+(n-len(text))/2, p.y, text)
}

// draw paints the grid on a fresh canvas, whose cells are where origin,
// side and interior say: the header, each hexside in the style of what
// lies on it, then the labels, so that text never hides behind an edge
// drawn later.
func (g *grid) draw() *canvas {
	c := &canvas{}
	if g.header != nil {
		g.header(g, c)
	}
	g.eachShown(func(h adjudicator.Hex) {
		for d := wind.North; d <= wind.NorthWest; d++ {
			ps := g.side(h, d)
			for i, ch := range g.sideChars(h, h.Step(d), d, len(ps)) {
				c.putByte(ps[i].x, ps[i].y, ch)
			}
		}
	})
	g.eachShown(func(h adjudicator.Hex) { g.label(g, h, c) })
	return c
}

// eachShown calls f with each hex the grid shows, column by column.
func (g *grid) eachShown(f func(h adjudicator.Hex)) {
	for col := g.cols[0]; col <= g.cols[1]; col++ {
		for row := g.rows[0]; row <= g.rows[1]; row++ {
			if h := adjudicator.MakeHex(col, row); g.shown[h] {
				f(h)
			}
		}
	}
}

// sideChars returns the n characters for the side between h and its
// neighbour nb in direction d.
func (g *grid) sideChars(h, nb adjudicator.Hex, d adjudicator.Direction, n int) []byte {
	m := g.m
	// The plain side, a zone boundary and a slope uphill both ways.
	plain, zone, both := byte('_'), byte('.'), [2]byte{'^', 'v'}
	switch d {
	case wind.NorthEast, wind.SouthWest:
		plain, zone, both = '\\', ':', [2]byte{'<', '>'}
	case wind.NorthWest, wind.SouthEast:
		plain, zone, both = '/', ':', [2]byte{'<', '>'}
	}
	fill := func(b byte) []byte { return bytes.Repeat([]byte{b}, n) }
	hLand, nLand := m.Land(h), m.Land(nb)
	switch {
	case !hLand && !nLand && g.seaSides:
		return fill(plain)
	case !hLand && !nLand:
		return fill(' ')
	case m.Cliff(h, nb):
		return fill('#')
	}
	up, down := m.Slope(h, nb)
	// The arrow points uphill: from the hex holding the art (where
	// crossing is "up") towards the other.
	fwd, back := uphillArrows(d)
	var out []byte
	switch {
	case up && down:
		// The same from either hex, whichever draws it last.
		out = fill(both[0])
		for i := 1; i < n; i += 2 {
			out[i] = both[1]
		}
		if n == 1 {
			out[0] = 'x'
		}
	case up:
		out = fill(fwd)
	case down:
		out = fill(back)
	case hLand && nLand && m.Zone(h) != m.Zone(nb):
		out = fill(zone)
	default:
		out = fill(plain)
	}
	if _, ok := m.RiverBetween(h, nb); ok {
		// The river crosses the middle of the side; on a short slope side
		// it shares the side with the arrow rather than hide it.
		switch {
		case n == 1:
			if !up && !down {
				out[0] = '~'
			}
		case n == 2 && (up || down):
			out[1] = '~'
		default:
			mid := n / 2
			out[mid-1+n%2] = '~'
			if n%2 == 0 {
				out[mid] = '~'
			}
		}
	}
	return out
}

// uphillArrows returns the arrow pointing from a hex towards its neighbour
// in direction d, and the one pointing back.
func uphillArrows(d adjudicator.Direction) (fwd, back byte) {
	switch d {
	case wind.North:
		return '^', 'v'
	case wind.South:
		return 'v', '^'
	case wind.NorthEast, wind.SouthEast:
		return '>', '<'
	default:
		return '<', '>'
	}
}

// canvas is a grid of bytes that grows as it is written.
type canvas struct{ lines [][]byte }

func (c *canvas) putByte(x, y int, b byte) {
	if x < 0 || y < 0 {
		return
	}
	for len(c.lines) <= y {
		c.lines = append(c.lines, nil)
	}
	l := c.lines[y]
	for len(l) <= x {
		l = append(l, ' ')
	}
	l[x] = b
	c.lines[y] = l
}

func (c *canvas) put(x, y int, s string) {
	for i := 0; i < len(s); i++ {
		c.putByte(x+i, y, s[i])
	}
}

// String returns the canvas without trailing blanks, blank lines at the top
// or bottom, or a blank margin on the left.
func (c *canvas) String() string {
	var lines []string
	for _, l := range c.lines {
		lines = append(lines, strings.TrimRight(string(l), " "))
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return ""
	}
	// Drop the margin left by hexes off the map's west edge.
	indent := -1
	for _, l := range lines {
		if l != "" {
			n := len(l) - len(strings.TrimLeft(l, " "))
			if indent < 0 || n < indent {
				indent = n
			}
		}
	}
	for i, l := range lines {
		if l != "" {
			lines[i] = l[indent:]
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// The island map's hexes: slant 1, top 2, so columns are three characters
// apart, after a row label of three.
const (
	islandLeft    = 3
	islandMaxCols = (templates.MaxWidth - islandLeft - 1) / 3
)

// islandGrid lays out the given columns and rows with the smallest outline:
// two characters inside each hex.
func islandGrid(m *wind.Map, opt MapOptions, cols, rows [2]int) *grid {
	g := &grid{
		m: m, slant: 1, top: 2,
		col0: cols[0], row0: rows[0],
		left: islandLeft, above: 2,
		shown:  map[adjudicator.Hex]bool{},
		cols:   cols,
		rows:   rows,
		header: islandHeader,
	}
	for col := cols[0]; col <= cols[1]; col++ {
		for row := rows[0]; row <= rows[1]; row++ {
			g.shown[adjudicator.MakeHex(col, row)] = true
		}
	}
	g.label = func(g *grid, h adjudicator.Hex, c *canvas) {
		p, _ := g.interior(h, 1)
		c.put(p.x, p.y, islandCell(m, h, opt.Markers[h]))
	}
	return g
}

// islandHeader numbers the columns above and below the map on two lines,
// even columns on the upper, odd ones on the lower, as their hexes sit,
// and each row on both its lines: the line through its even columns' hexes
// and the one below it, through its odd columns' hexes. Every line that
// holds hexes so names their row, and its hexes' column stands above.
func islandHeader(g *grid, c *canvas) {
	// Below the last row of the odd columns, which reach lowest.
	bottom := g.origin(adjudicator.MakeHex(g.cols[0]|1, g.rows[1])).y + 3
	for col := g.cols[0]; col <= g.cols[1]; col++ {
		p, _ := g.interior(adjudicator.MakeHex(col, g.row0), 1)
		c.put(p.x, col%2, fmt.Sprintf("%02d", col))
		c.put(p.x, bottom+col%2, fmt.Sprintf("%02d", col))
	}
	for row := g.rows[0]; row <= g.rows[1]; row++ {
		p, _ := g.interior(adjudicator.MakeHex(g.cols[0]&^1, row), 1)
		c.put(0, p.y, fmt.Sprintf("%2d", row))
		c.put(0, p.y+1, fmt.Sprintf("%2d", row)) // the odd columns' line
	}
}

// islandExtent returns the columns and rows the island map draws: every
// hex that holds land, a staging box or a marker, and one hex of sea
// around them. The open sea beyond carries nothing a player needs.
func islandExtent(m *wind.Map, opt MapOptions) (cols, rows [2]int) {
	cols = [2]int{m.MaxCol, m.MinCol}
	rows = [2]int{m.MaxRow, m.MinRow}
	margin := 1
	add := func(h adjudicator.Hex) {
		if !m.OnMap(h) {
			return
		}
		cols = [2]int{min(cols[0], h.Col()-margin), max(cols[1], h.Col()+margin)}
		rows = [2]int{min(rows[0], h.Row()-margin), max(rows[1], h.Row()+margin)}
	}
	for _, h := range m.LandHexes() {
		add(h)
	}
	margin = 0
	if cols[0] > cols[1] {
		return [2]int{m.MinCol, m.MaxCol}, [2]int{m.MinRow, m.MaxRow}
	}
	// Staging boxes and units at sea need no margin of their own.
	for _, lz := range m.LandingZones {
		add(lz.Staging)
	}
	for h := range opt.Markers {
		add(h)
	}
	cols = [2]int{max(cols[0], m.MinCol), min(cols[1], m.MaxCol)}
	rows = [2]int{max(rows[0], m.MinRow), min(rows[1], m.MaxRow)}
	return cols, rows
}

// islandCell is the two characters inside a hex of the island map: a mark
// and the level, or the unit marker.
func islandCell(m *wind.Map, h adjudicator.Hex, marker string) string {
	if marker != "" {
		return fmt.Sprintf("%-2.2s", marker)
	}
	if !m.Land(h) {
		return " ~"
	}
	mark := " "
	if lz, ok := m.LandingZoneAt(h); ok {
		mark = lz.ID[:1]
	} else if _, ok := m.VictoryHexAt(h); ok {
		mark = "*"
	} else if m.Terrain(h) == wind.Lake {
		mark = "o"
	} else if m.OnRiver(h) {
		mark = "~"
	}
	return fmt.Sprintf("%s%d", mark, m.Level(h))
}

// islandLegend explains the island map: how to read a hex's place, with
// an example, what the map leaves out, and the marks.
func islandLegend(m *wind.Map, cols, rows [2]int, opt MapOptions) string {
	ex := adjudicator.MakeHex(cols[0]|1, (rows[0]+rows[1])/2)
	for _, v := range m.VictoryHexes {
		if v.Hex.Col()%2 == 1 && v.Hex.Row() >= rows[0] && v.Hex.Row() <= rows[1] {
			ex = v.Hex
			break
		}
	}
	even := adjudicator.MakeHex(ex.Col()-1, ex.Row())
	if even.Col() < cols[0] {
		even = adjudicator.MakeHex(ex.Col()+1, ex.Row())
	}
	d := struct {
		Odd, Even adjudicator.Hex
		Strips    int
		Rows      [2]int
		Sea       bool
		Marker    string
		Places    []string
	}{Odd: ex, Even: even, Rows: rows, Sea: rows[0] > m.MinRow || rows[1] < m.MaxRow, Places: featureList(m, nil)}
	if cols[1]-cols[0]+1 > islandMaxCols {
		d.Strips = islandMaxCols
	}
	if len(opt.Markers) > 0 {
		d.Marker = sampleMarker(opt.Markers)
	}
	return execute("island-legend", d)
}

// sampleMarker returns the marker of the lowest-numbered hex, so that the
// legend reads the same on every run.
func sampleMarker(mk map[adjudicator.Hex]string) string {
	var best adjudicator.Hex
	for h, s := range mk {
		if s != "" && (best == 0 || h < best) {
			best = h
		}
	}
	return fmt.Sprintf("%q in %s", mk[best], best)
}

// featureList lists the victory hexes and landing zones, or only those in
// the set when it is not nil.
func featureList(m *wind.Map, in map[adjudicator.Hex]bool) []string {
	var vh []string
	for _, v := range m.VictoryHexes {
		if in == nil || in[v.Hex] {
			vh = append(vh, fmt.Sprintf("%s %s (zone %s)", v.Hex, v.Name, v.Zone))
		}
	}
	var lzs []string
	for _, lz := range m.LandingZones {
		if in == nil || in[lz.Hex] || in[lz.Staging] {
			lzs = append(lzs, fmt.Sprintf("%s %s (%d steps, staging %s)", lz.ID, lz.Hex, lz.Capacity, lz.Staging))
		}
	}
	return append(templates.ListLines("Victory hexes: ", vh), templates.ListLines("Landing zones: ", lzs)...)
}

// Close-up hex size: three inside lines, the first eight characters wide.
const (
	closeSlant = 2
	closeTop   = 8
)

// closeUpGrid lays out the hexes of set that lie on the map. When they span
// more columns than fit in MaxWidth, it keeps those nearest focus and
// reports that it clipped.
func closeUpGrid(m *wind.Map, set map[adjudicator.Hex]bool, focus adjudicator.Hex, opt MapOptions) (g *grid, clipped bool) {
	g = &grid{
		m: m, slant: closeSlant, top: closeTop,
		shown:    map[adjudicator.Hex]bool{},
		seaSides: true,
		cols:     [2]int{m.MaxCol + 1, m.MinCol - 1},
		rows:     [2]int{m.MaxRow + 1, m.MinRow - 1},
	}
	for h := range set {
		if m.OnMap(h) {
			g.cols = [2]int{min(g.cols[0], h.Col()), max(g.cols[1], h.Col())}
			g.rows = [2]int{min(g.rows[0], h.Row()), max(g.rows[1], h.Row())}
		}
	}
	maxCols := (templates.MaxWidth - closeSlant) / (closeTop + closeSlant)
	if g.cols[1]-g.cols[0]+1 > maxCols {
		c0 := min(max(focus.Col()-maxCols/2, g.cols[0]), g.cols[1]-maxCols+1)
		g.cols = [2]int{c0, c0 + maxCols - 1}
		clipped = true
	}
	g.col0, g.row0 = g.cols[0], g.rows[0]-1
	for h := range set {
		if m.OnMap(h) && h.Col() >= g.cols[0] && h.Col() <= g.cols[1] {
			g.shown[h] = true
		}
	}
	g.label = func(g *grid, h adjudicator.Hex, c *canvas) {
		id := h.String()
		if _, ok := m.VictoryHexAt(h); ok {
			id = "*" + id + "*"
		}
		g.center(c, h, 1, id)
		g.center(c, h, 2, closeTerrain(m, h))
		var unit []string
		if lz, ok := m.LandingZoneAt(h); ok {
			unit = append(unit, "LZ "+lz.ID)
		}
		if mk := opt.Markers[h]; mk != "" {
			unit = append(unit, mk)
		}
		if len(unit) == 0 && !m.Land(h) {
			unit = append(unit, "~  ~  ~")
		}
		g.center(c, h, 3, strings.Join(unit, " "))
	}
	return g, clipped
}

// closeTerrain is the second inside line of a close-up hex.
func closeTerrain(m *wind.Map, h adjudicator.Hex) string {
	if !m.Land(h) {
		for _, lz := range m.LandingZones {
			if lz.Staging == h {
				return "staging " + lz.ID
			}
		}
		return "~  ~  ~"
	}
	t := fmt.Sprintf("lvl %d", m.Level(h))
	if m.Terrain(h) == wind.Lake {
		t += " lake"
	}
	if m.OnRiver(h) {
		t = "~" + t + "~"
	}
	return t
}
