package island

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	iw "github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/templates"
)

// Picture draws the scenario's map as the position stands: every hex in
// its terrain's colour with its id, every unit on the map as a counter
// with its id, the hexes the events moved units through outlined. The
// picture shows only what is open at the table.
func (Rules) Picture(in templates.ReportFor) ([]byte, error) {
	v, err := viewOf(in)
	if err != nil {
		return nil, err
	}
	return v.png()
}

// radius is the distance in pixels from a hex's centre to its corners.
const radius = 30

func (v *view) centre(h iw.Hex) (float64, float64) {
	x := radius + 8 + 1.5*radius*float64(h.Col-1)
	y := radius*math.Sqrt(3)/2 + 8 + radius*math.Sqrt(3)*float64(h.Row-1)
	if lowered(v.e.S.Grid, h.Col) {
		y += radius * math.Sqrt(3) / 2
	}
	return x, y
}

func lowered(g iw.Grid, c int) bool {
	if g.Shifted == iw.ShiftOdd {
		return c%2 == 1
	}
	return c%2 == 0
}

// inside reports whether (x, y), relative to a flat-topped hex's centre,
// lies in it, and how near its edge (0 on the edge).
func inside(x, y float64) (bool, float64) {
	x, y = math.Abs(x), math.Abs(y)
	h := radius * math.Sqrt(3) / 2
	d := math.Min(h-y, (h*radius-h*x-radius/2*y)/radius)
	return d >= 0, d
}

func (v *view) png() ([]byte, error) {
	g := v.e.S.Grid
	w := int(radius*2 + 16 + 1.5*radius*float64(g.Columns-1))
	hgt := int(radius*math.Sqrt(3)*float64(g.Rows) + radius*math.Sqrt(3)/2 + 16)
	img := image.NewRGBA(image.Rect(0, 0, w, hgt))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	moved := map[iw.Hex]bool{}
	for _, ev := range v.events {
		for _, h := range ev.Path {
			moved[h] = true
		}
	}
	for c := 1; c <= g.Columns; c++ {
		for r := 1; r <= g.Rows; r++ {
			h := iw.Hex{Col: c, Row: r}
			v.drawHex(img, h, terrainColour(v.e.S.TerrainOf(h)), moved[h])
		}
	}
	for i, pc := range v.g.Pieces {
		if pc.Where == iw.OnMap {
			v.drawUnit(img, pc.Hex, v.e.S.Units[i])
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("encoding the map: %w", err)
	}
	return b.Bytes(), nil
}

func (v *view) drawHex(img *image.RGBA, h iw.Hex, fill color.RGBA, outline bool) {
	cx, cy := v.centre(h)
	edge := color.RGBA{0x55, 0x55, 0x55, 0xff}
	if outline {
		edge = color.RGBA{0xd0, 0x20, 0x20, 0xff}
	}
	width := 1.0
	if outline {
		width = 2.5
	}
	for y := int(cy - radius); y <= int(cy+radius); y++ {
		for x := int(cx - radius); x <= int(cx+radius); x++ {
			in, d := inside(float64(x)-cx, float64(y)-cy)
			if !in {
				continue
			}
			if d < width {
				img.SetRGBA(x, y, edge)
			} else {
				img.SetRGBA(x, y, fill)
			}
		}
	}
	label(img, int(cx)-14, int(cy-radius*0.45), h.String(), color.RGBA{0x20, 0x20, 0x20, 0xff})
}

func (v *view) drawUnit(img *image.RGBA, h iw.Hex, u iw.Unit) {
	cx, cy := v.centre(h)
	bg := color.RGBA{0x3a, 0x6e, 0xa5, 0xff} // U.S.
	if u.Side == iw.Japan {
		bg = color.RGBA{0xc8, 0x9b, 0x3c, 0xff}
	}
	x0, y0, x1, y1 := int(cx)-radius*3/4, int(cy)-4, int(cx)+radius*3/4, int(cy)+radius/2+2
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			img.SetRGBA(x, y, bg)
		}
	}
	label(img, int(cx)-len(u.ID)*7/2, int(cy)+9, u.ID, color.RGBA{0xff, 0xff, 0xff, 0xff})
}

func label(img *image.RGBA, x, y int, s string, c color.RGBA) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// terrainColour gives a terrain its colour: the CRT line picks the hue
// family, the name a shade, so two terrains of one line stay apart.
func terrainColour(t iw.TerrainType) color.RGBA {
	if t.Impassable {
		return color.RGBA{0x9c, 0xc3, 0xe6, 0xff}
	}
	f := fnv.New32a()
	f.Write([]byte(t.Name))
	k := uint8(f.Sum32() % 40)
	switch t.Line {
	case iw.LineRough:
		return color.RGBA{0xb0 + k/2, 0x90 + k/2, 0x70, 0xff}
	case iw.LineBroken:
		return color.RGBA{0x80 + k, 0xb0 + k/2, 0x70, 0xff}
	case iw.LineRiver:
		return color.RGBA{0xa0, 0xc8, 0xd8 + k/4, 0xff}
	}
	return color.RGBA{0xe8, 0xe4 - k/2, 0xc0 + k, 0xff}
}
