package wind

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"slices"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Palette indexes. Some colours serve twice: the grid's grey for zone
// boundaries and hidden counters, orange for landing zones and fighting,
// the level 3 brown for face-down Japanese units.
const (
	pxPaper uint8 = iota
	pxInk
	pxSea
	pxLake
	pxLevel0 // five levels, 0 to 4
	_
	_
	_
	_
	pxGrid
	pxSlope
	pxRiver
	pxUS
	pxJP
	pxVictory
	pxMark
	pxUnused
)

// Colours that share a palette entry.
const (
	pxZone   = pxGrid
	pxHidden = pxGrid
	pxWhite  = pxPaper
	pxLZ     = pxMark
	pxFight  = pxMark
	pxJPDown = pxLevel0 + 3
)

var pngPalette = color.Palette{
	pxPaper:      color.RGBA{0xf6, 0xf4, 0xec, 0xff},
	pxInk:        color.RGBA{0x10, 0x10, 0x10, 0xff},
	pxSea:        color.RGBA{0x9c, 0xc3, 0xe0, 0xff},
	pxLake:       color.RGBA{0xc4, 0xe4, 0xf6, 0xff},
	pxLevel0:     color.RGBA{0xe4, 0xec, 0xc8, 0xff},
	pxLevel0 + 1: color.RGBA{0xcf, 0xdc, 0xa4, 0xff},
	pxLevel0 + 2: color.RGBA{0xbf, 0xc2, 0x8a, 0xff},
	pxLevel0 + 3: color.RGBA{0xb0, 0x9c, 0x72, 0xff},
	pxLevel0 + 4: color.RGBA{0x96, 0x7c, 0x5e, 0xff},
	pxGrid:       color.RGBA{0x60, 0x60, 0x5c, 0xff},
	pxSlope:      color.RGBA{0x6b, 0x3e, 0x1c, 0xff},
	pxRiver:      color.RGBA{0x20, 0x5c, 0xc0, 0xff},
	pxUS:         color.RGBA{0x2f, 0x5e, 0x2c, 0xff},
	pxJP:         color.RGBA{0xec, 0xd0, 0x92, 0xff},
	pxVictory:    color.RGBA{0xc8, 0x10, 0x10, 0xff},
	pxMark:       color.RGBA{0xff, 0x8c, 0x00, 0xff},
	// Never drawn: with a seventeenth entry image/png writes a byte a
	// pixel, about three times faster than the four bits a pixel it
	// writes for sixteen colours or fewer.
	pxUnused: color.RGBA{0x00, 0x00, 0x00, 0xff},
}

// Layout of the picture, in pixels.
const (
	pngR      = 24.0 // hex centre to corner
	pngLeft   = 30.0 // room for the row numbers
	pngTop    = 46.0 // room for the title and the column numbers
	pngRight  = 12.0
	pngBottom = 64.0 // room for the legend
)

var pngFace = basicfont.Face7x13

// pngGeom places hexes on the picture: flat-topped, odd columns half a hex
// lower, as on the printed map.
type pngGeom struct {
	cols, rows [2]int
	h          float64 // height of a hex, flat side to flat side
	w, ht      int     // picture size
}

func newPNGGeom(m *wind.Map) pngGeom {
	cols, rows := islandExtent(m, MapOptions{})
	g := pngGeom{cols: cols, rows: rows, h: math.Sqrt(3) * pngR}
	g.w = int(math.Ceil(pngLeft + float64(cols[1]-cols[0])*1.5*pngR + 2*pngR + pngRight))
	g.ht = int(math.Ceil(pngTop + float64(rows[1]-rows[0]+1)*g.h + g.h/2 + pngBottom))
	return g
}

func (g pngGeom) center(h adjudicator.Hex) (x, y float64) {
	x = pngLeft + pngR + float64(h.Col()-g.cols[0])*1.5*pngR
	y = pngTop + g.h/2 + float64(h.Row()-g.rows[0])*g.h
	if h.Col()%2 != 0 {
		y += g.h / 2
	}
	return x, y
}

// corner returns corner k of h (0 east, then clockwise on the picture),
// pulled towards the centre by inset pixels.
func (g pngGeom) corner(h adjudicator.Hex, k int, inset float64) (x, y float64) {
	cx, cy := g.center(h)
	a := float64(k) * math.Pi / 3
	r := pngR - inset
	return cx + r*math.Cos(a), cy + r*math.Sin(a)
}

// side returns the two corners of the hexside of h facing d.
func (g pngGeom) side(h adjudicator.Hex, d adjudicator.Direction, inset float64) (x0, y0, x1, y1 float64) {
	x0, y0 = g.corner(h, (int(d)+4)%6, inset)
	x1, y1 = g.corner(h, (int(d)+5)%6, inset)
	return
}

func (g pngGeom) each(f func(h adjudicator.Hex)) {
	for c := g.cols[0]; c <= g.cols[1]; c++ {
		for r := g.rows[0]; r <= g.rows[1]; r++ {
			f(adjudicator.MakeHex(c, r))
		}
	}
}

// eachSide calls f with each side of each hex drawn: the hex, its
// neighbour across the side and the side's direction.
func (g pngGeom) eachSide(f func(h, n adjudicator.Hex, d adjudicator.Direction)) {
	g.each(func(h adjudicator.Hex) {
		for d := wind.North; d <= wind.NorthWest; d++ {
			f(h, h.Step(d), d)
		}
	})
}

// pcanvas draws on a paletted image.
type pcanvas struct{ img *image.Paletted }

func (c pcanvas) set(x, y int, i uint8) {
	if image.Pt(x, y).In(c.img.Rect) {
		c.img.Pix[y*c.img.Stride+x] = i
	}
}

func (c pcanvas) rect(x0, y0, x1, y1 int, i uint8) {
	r := image.Rect(x0, y0, x1, y1).Intersect(c.img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := c.img.Pix[y*c.img.Stride:]
		for x := r.Min.X; x < r.Max.X; x++ {
			row[x] = i
		}
	}
}

// fillHex paints the pixels whose centres lie inside hex h.
func (c pcanvas) fillHex(g pngGeom, h adjudicator.Hex, i uint8) {
	cx, cy := g.center(h)
	s3 := math.Sqrt(3)
	for y := int(cy - g.h/2 - 1); y <= int(cy+g.h/2+1); y++ {
		dy := math.Abs(float64(y) + 0.5 - cy)
		if dy > g.h/2 {
			continue
		}
		for x := int(cx - pngR - 1); x <= int(cx+pngR+1); x++ {
			dx := math.Abs(float64(x) + 0.5 - cx)
			if s3*dx+dy <= s3*pngR {
				c.set(x, y, i)
			}
		}
	}
}

// line draws a segment of width w by stamping discs along it; dash, when
// positive, draws dashes of that length with gaps as long.
func (c pcanvas) line(x0, y0, x1, y1, w float64, i uint8, dash float64) {
	n := math.Hypot(x1-x0, y1-y0)
	steps := int(n*2) + 1
	r := w / 2
	for s := 0; s <= steps; s++ {
		t := float64(s) / float64(steps)
		if dash > 0 && int(t*n/dash)%2 == 1 {
			continue
		}
		disc(c, x0+(x1-x0)*t, y0+(y1-y0)*t, r+0.01, i)
	}
}

// hexEdge outlines hex h, inset pixels inside its border.
func (c pcanvas) hexEdge(g pngGeom, h adjudicator.Hex, inset, w float64, i uint8) {
	for k := range 6 {
		x0, y0 := g.corner(h, k, inset)
		x1, y1 := g.corner(h, (k+1)%6, inset)
		c.line(x0, y0, x1, y1, w, i, 0)
	}
}

// text writes s with its baseline at y, starting at x; only the glyphs'
// solid pixels are painted, so the palette stays exact.
func (c pcanvas) text(x, y int, s string, i uint8) {
	dot := fixed.P(x, y)
	for _, r := range s {
		dr, mask, mp, adv, ok := pngFace.Glyph(dot, r)
		if a, isAlpha := mask.(*image.Alpha); ok && isAlpha {
			for yy := dr.Min.Y; yy < dr.Max.Y; yy++ {
				for xx := dr.Min.X; xx < dr.Max.X; xx++ {
					if a.AlphaAt(mp.X+xx-dr.Min.X, mp.Y+yy-dr.Min.Y).A >= 0x80 {
						c.set(xx, yy, i)
					}
				}
			}
		}
		dot.X += adv
	}
}

func textWidth(s string) int { return font.MeasureString(pngFace, s).Ceil() }

// pngBase is the picture of a map without units.
type pngBase struct {
	g   pngGeom
	img *image.Paletted
}

// pngBases keeps each map's picture once drawn: drawing it takes tens of
// milliseconds, several times what drawing the units and encoding take,
// and every report of every game on that map starts from it.
var pngBases sync.Map // *wind.Map → *pngBase

func basePicture(m *wind.Map) *pngBase {
	if b, ok := pngBases.Load(m); ok {
		return b.(*pngBase)
	}
	actual, _ := pngBases.LoadOrStore(m, drawBase(m))
	return actual.(*pngBase)
}

func drawBase(m *wind.Map) *pngBase {
	g := newPNGGeom(m)
	img := image.NewPaletted(image.Rect(0, 0, g.w, g.ht), pngPalette)
	c := pcanvas{img}
	// Terrain and levels (rules 5.0, 5.4).
	g.each(func(h adjudicator.Hex) { c.fillHex(g, h, terrainIndex(m, h)) })
	// The grid between land hexes, then zone boundaries (10.0).
	g.eachSide(func(h, n adjudicator.Hex, d adjudicator.Direction) {
		if !m.Land(h) && !m.Land(n) {
			return
		}
		x0, y0, x1, y1 := g.side(h, d, 0)
		if m.Land(h) && m.Land(n) && m.Zone(h) != m.Zone(n) {
			c.line(x0, y0, x1, y1, 2, pxZone, 3)
		} else {
			c.line(x0, y0, x1, y1, 1, pxGrid, 0)
		}
	})
	// Slopes (5.3): a band inside the hex that holds the art, the low
	// side, where crossing is up. Cliffs (5.7) on the side itself.
	g.eachSide(func(h, n adjudicator.Hex, d adjudicator.Direction) {
		if up, _ := m.Slope(h, n); up && m.Land(h) && !m.Cliff(h, n) {
			x0, y0, x1, y1 := g.side(h, d, 3)
			c.line(x0, y0, x1, y1, 3, pxSlope, 0)
		}
	})
	g.eachSide(func(h, n adjudicator.Hex, d adjudicator.Direction) {
		if m.Land(h) && m.Cliff(h, n) {
			x0, y0, x1, y1 := g.side(h, d, 0)
			c.line(x0, y0, x1, y1, 4, pxInk, 0)
		}
	})
	// Rivers (5.5) run from centre to centre.
	for _, r := range m.Rivers {
		for i := 1; i < len(r.Hexes); i++ {
			x0, y0 := g.center(r.Hexes[i-1])
			x1, y1 := g.center(r.Hexes[i])
			c.line(x0, y0, x1, y1, 3, pxRiver, 0)
		}
	}
	// Every land hex's id, drawn before what only some hexes carry.
	for _, h := range m.LandHexes() {
		if g.inside(h) {
			hexID(c, g, m, h)
		}
	}
	// Victory hexes (3.8.1) and landing zones (7.1, 9.2) with their
	// staging boxes.
	for _, v := range m.VictoryHexes {
		c.hexEdge(g, v.Hex, 3, 3, pxVictory)
	}
	for _, lz := range m.LandingZones {
		x, y := g.center(lz.Hex)
		disc(c, x-pngR*0.55, y+g.h*0.28, 7, pxLZ)
		c.text(int(x-pngR*0.55)-3, int(y+g.h*0.28)+5, lz.ID, pxInk)
		sx, sy := g.center(lz.Staging)
		label := "box " + lz.ID
		w := textWidth(label)
		c.rect(int(sx)-w/2-3, int(sy)-8, int(sx)+w/2+3, int(sy)+8, pxWhite)
		c.text(int(sx)-w/2, int(sy)+4, label, pxInk)
	}
	// Column numbers along the top, row numbers down the side.
	for col := g.cols[0]; col <= g.cols[1]; col++ {
		x, _ := g.center(adjudicator.MakeHex(col, g.rows[0]))
		c.text(int(x)-7, int(pngTop)-4, fmt.Sprintf("%02d", col), pxInk)
	}
	for row := g.rows[0]; row <= g.rows[1]; row++ {
		_, y := g.center(adjudicator.MakeHex(g.cols[0]&^1, row))
		c.text(4, int(y)+4, fmt.Sprintf("%02d", row), pxInk)
	}
	drawLegend(c, g)
	return &pngBase{g: g, img: img}
}

// disc fills a circle.
func disc(c pcanvas, x, y, r float64, i uint8) {
	for yy := int(math.Floor(y - r)); yy <= int(math.Ceil(y+r)); yy++ {
		for xx := int(math.Floor(x - r)); xx <= int(math.Ceil(x+r)); xx++ {
			if math.Hypot(float64(xx)+0.5-x, float64(yy)+0.5-y) <= r {
				c.set(xx, yy, i)
			}
		}
	}
}

// idDigits are the digits of the hex ids, three pixels by five, a row of
// three bits each from the top: the fixed font's 7x13 glyphs make a
// four-digit id wider than a hex's top, where the id must sit to leave the
// middle to the units.
var idDigits = [10][5]uint8{
	{7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 3, 1, 7}, {5, 5, 7, 1, 1},
	{7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 2, 2}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
}

// Where a hex's id sits: below the band of the slopes and victory outline
// on the hex's top side and clear of the slopes on its upper slanted sides,
// above a lone unit label.
const (
	idTop   = 15 // pixels above the hex's centre
	idWidth = 4*3 + 4
)

// stampID writes the four digits of id in the small font with its top-left
// corner at (x, y), the column's two digits apart from the row's; around
// each digit's pixels halo, when not negative, clears a pixel's ring so
// that no river or outline crosses the digits.
func stampID(c pcanvas, x, y int, id adjudicator.Hex, ink int, halo int) {
	s := id.String()
	dots := func(f func(x, y int)) {
		dx := x
		for k := range len(s) {
			for row, bits := range idDigits[s[k]-'0'] {
				for col := range 3 {
					if bits&(4>>col) != 0 {
						f(dx+col, y+row)
					}
				}
			}
			dx += 4
			if k == 1 {
				dx++
			}
		}
	}
	if halo >= 0 {
		dots(func(x, y int) { c.rect(x-1, y-1, x+2, y+2, uint8(halo)) })
	}
	dots(func(x, y int) { c.set(x, y, uint8(ink)) })
}

// hexID writes h's id at the top of the hex in ink, on the hex's own
// colour: ink reads on every level and on lakes, and a river or the
// outline of a fight keeps a gap around the digits.
func hexID(c pcanvas, g pngGeom, m *wind.Map, h adjudicator.Hex) {
	cx, cy := g.center(h)
	stampID(c, int(math.Round(cx))-idWidth/2, int(math.Round(cy))-idTop, h, int(pxInk), int(terrainIndex(m, h)))
}

// terrainIndex is the colour that fills h.
func terrainIndex(m *wind.Map, h adjudicator.Hex) uint8 {
	switch {
	case !m.Land(h):
		return pxSea
	case m.Terrain(h) == wind.Lake:
		return pxLake
	}
	return pxLevel0 + uint8(min(max(m.Level(h), 0), 4))
}

// drawLegend explains the picture below the map, in two lines.
func drawLegend(c pcanvas, g pngGeom) {
	y := g.ht - int(pngBottom) + 20
	x := 8
	swatch := func(i uint8, label string) {
		c.rect(x, y-10, x+14, y+2, i)
		c.text(x+18, y, label, pxInk)
		x += 18 + textWidth(label) + 14
	}
	mark := func(draw func(x, y int), label string) {
		draw(x, y)
		c.text(x+26, y, label, pxInk)
		x += 26 + textWidth(label) + 14
	}
	for lvl := range 5 {
		swatch(pxLevel0+uint8(lvl), fmt.Sprintf("level %d", lvl))
	}
	swatch(pxLake, "lake")
	swatch(pxSea, "sea")
	mark(func(x, y int) { c.line(float64(x), float64(y-4), float64(x+20), float64(y-4), 3, pxSlope, 0) }, "slope, on its low side")
	mark(func(x, y int) { c.line(float64(x), float64(y-4), float64(x+20), float64(y-4), 4, pxInk, 0) }, "cliff")
	y += 22
	x = 8
	mark(func(x, y int) { c.line(float64(x), float64(y-4), float64(x+20), float64(y-4), 3, pxRiver, 0) }, "river")
	mark(func(x, y int) { c.line(float64(x), float64(y-4), float64(x+20), float64(y-4), 2, pxZone, 3) }, "zone boundary")
	mark(func(x, y int) { c.line(float64(x), float64(y-4), float64(x+20), float64(y-4), 3, pxVictory, 0) }, "victory hex")
	mark(func(x, y int) { disc(c, float64(x+10), float64(y-4), 7, pxLZ) }, "landing zone")
	mark(func(x, y int) { c.line(float64(x), float64(y-4), float64(x+20), float64(y-4), 3, pxFight, 0) }, "fighting")
	// The samples name no unit: an id in the legend would be read as one
	// on the map, and a Japanese id may be a counter the U.S. may not
	// identify.
	sample := func(i, ink uint8, s, label string) {
		w := textWidth(s)
		c.rect(x, y-11, x+w+4, y+2, i)
		c.text(x+2, y, s, ink)
		c.text(x+w+8, y, label, pxInk)
		x += w + 8 + textWidth(label) + 14
	}
	sample(pxUS, pxWhite, "U.S.", "U.S. unit")
	sample(pxJP, pxInk, "Jnn", "Japanese")
	sample(pxJPDown, pxInk, "Jnn", "face down")
	sample(pxHidden, pxWhite, "?", "hidden counter")
	c.rect(x, y-9, x+idWidth+3, y, pxLevel0)
	stampID(c, x+2, y-7, 1425, int(pxInk), -1)
	c.text(x+idWidth+8, y, "hex id: column 14, row 25", pxInk)
}

// PNG returns the picture of the map as the report's reader sees it.
func (r *Report) PNG() ([]byte, error) {
	return encodePNG(r.picture())
}

// pngBuffers lends the PNG encoder its buffers and compressor, about a
// megabyte that every report would otherwise allocate anew.
type pngBuffers struct{ pool sync.Pool }

// Get returns a kept buffer, or nil for the encoder to make one.
func (b *pngBuffers) Get() *png.EncoderBuffer {
	e, _ := b.pool.Get().(*png.EncoderBuffer)
	return e
}

// Put keeps e for the next picture.
func (b *pngBuffers) Put(e *png.EncoderBuffer) { b.pool.Put(e) }

// pngEncoder compresses at the fastest level: a map picture is mostly
// large fields of one colour, which every level compresses well.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: new(pngBuffers)}

func encodePNG(img *image.Paletted) ([]byte, error) {
	var out bytes.Buffer
	if err := pngEncoder.Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// chip is a label drawn on a hex of the picture: a unit's id, question
// marks for hidden counters, "+2" for the counters left out.
type chip struct {
	s       string
	bg, ink uint8
}

// chipsAt returns the labels drawn in hex h of the picture, top to bottom:
// every unit the reader sees by its id, the counters hidden from it as
// question marks (rule 2.5), at most three labels.
func (r *Report) chipsAt(h adjudicator.Hex) []chip {
	units, hidden := r.View.At(h)
	var chips []chip
	for _, u := range units {
		switch {
		case u.Side == adjudicator.US:
			chips = append(chips, chip{u.ID, pxUS, pxWhite})
		case u.FaceDown:
			chips = append(chips, chip{u.ID, pxJPDown, pxInk})
		default:
			chips = append(chips, chip{u.ID, pxJP, pxInk})
		}
	}
	if hidden > 0 {
		s := strings.Repeat("?", hidden)
		if hidden > 5 {
			s = fmt.Sprintf("?x%d", hidden)
		}
		chips = append(chips, chip{s, pxHidden, pxWhite})
	}
	if len(chips) > 3 {
		more := len(chips) - 2
		chips = append(chips[:2], chip{fmt.Sprintf("+%d", more), chips[2].bg, chips[2].ink})
	}
	return chips
}

// title names the game and the turn, across the top of a picture.
func (r *Report) title() string {
	v := r.View
	return fmt.Sprintf("attu game %s - turn %d, %s, %s, %s", r.Game.ID, v.Turn, wind.TurnDate(v.Turn), dayNight(v.Night), v.Weather)
}

// picture draws the reader's picture: the map, the title, the hexes fought
// over and the units it sees.
func (r *Report) picture() *image.Paletted {
	base := basePicture(r.gameMap())
	g := base.g
	img := &image.Paletted{Pix: slices.Clone(base.img.Pix), Stride: base.img.Stride, Rect: base.img.Rect, Palette: pngPalette}
	c := pcanvas{img}
	v := r.View

	c.text(8, 16, r.title()+" - "+pictureOf(v.Side), pxInk)

	for _, h := range foughtHexes(r.Events) {
		if g.inside(h) {
			c.hexEdge(g, h, 7, 3, pxFight)
			if m := r.gameMap(); m.Land(h) {
				hexID(c, g, m, h)
			}
		}
	}
	for _, h := range v.Hexes() {
		if !g.inside(h) {
			continue
		}
		chips := r.chipsAt(h)
		cx, cy := g.center(h)
		const lh = 13
		top := int(cy) - len(chips)*lh/2
		if len(chips) == 2 {
			// Below the hex's id; three labels fill the hex and cover it.
			top = int(cy) - idTop + 6
		}
		for k, ch := range chips {
			w := textWidth(ch.s)
			x0 := int(cx) - w/2 - 2
			y0 := top + k*lh
			c.rect(x0, y0, x0+w+4, y0+lh-1, ch.bg)
			c.text(x0+2, y0+lh-3, ch.s, ch.ink)
		}
	}
	return img
}

func (g pngGeom) inside(h adjudicator.Hex) bool {
	return h.Col() >= g.cols[0] && h.Col() <= g.cols[1] && h.Row() >= g.rows[0] && h.Row() <= g.rows[1]
}

// pictureOf names whose picture it is.
func pictureOf(s adjudicator.Side) string {
	switch s {
	case adjudicator.US:
		return "as the U.S. sees it"
	case adjudicator.JP:
		return "as the Japanese see it"
	case adjudicator.Umpire:
		return "the umpire's view"
	}
	return "public view"
}
