package wind

import (
	"bytes"
	"fmt"
	"image"
	"slices"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// TestPictureSizeAndUnits decodes the picture, checks its size against the
// map's extent, and moves one unit: the picture changes around the hex it
// left and the hex it entered, and nowhere else.
func TestPictureSizeAndUnits(t *testing.T) {
	st := findStep(t, 0, func(step) bool { return true })
	rep := reportOf(t, st, adjudicator.US)
	b, err := rep.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	g := newPNGGeom(st.s.Map())
	if img.Bounds() != image.Rect(0, 0, g.w, g.ht) || g.w < 1000 || g.ht < 900 {
		t.Fatalf("picture is %v, want %dx%d (and at least 1000x900)", img.Bounds(), g.w, g.ht)
	}
	cols, rows := islandExtent(st.s.Map(), MapOptions{})
	if want := float64(cols[1]-cols[0])*1.5*pngR + 2*pngR; float64(g.w) < want {
		t.Fatalf("picture %d wide cannot hold %d columns of hexes", g.w, cols[1]-cols[0]+1)
	}
	if want := float64(rows[1]-rows[0]+1) * g.h; float64(g.ht) < want {
		t.Fatalf("picture %d high cannot hold %d rows of hexes", g.ht, rows[1]-rows[0]+1)
	}

	// Move one U.S. unit that stands alone to an empty land hex two hexes
	// away from every unit.
	moved := st.s.Clone()
	m := moved.Map()
	var u *wind.Unit
	for _, x := range moved.OnMap() {
		if x.Side() == adjudicator.US && len(moved.UnitsAt(x.Hex)) == 1 {
			u = x
			break
		}
	}
	var to adjudicator.Hex
	for _, h := range m.LandHexes() {
		if h.Distance(u.Hex) < 3 {
			continue
		}
		clear := true
		for _, x := range moved.OnMap() {
			if x.Hex.Distance(h) < 2 {
				clear = false
			}
		}
		if clear {
			to = h
			break
		}
	}
	from := u.Hex
	u.Hex = to
	rep2 := reportOf(t, step{s: moved, events: st.events}, adjudicator.US)
	b2, err := rep2.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img2 := decodePNG(t, b2)
	near := func(x, y int, h adjudicator.Hex) bool {
		cx, cy := g.center(h)
		return float64(x) > cx-2*pngR && float64(x) < cx+2*pngR && float64(y) > cy-g.h && float64(y) < cy+g.h
	}
	diffFrom, diffTo := 0, 0
	for y := 0; y < g.ht; y++ {
		for x := 0; x < g.w; x++ {
			if img.At(x, y) == img2.At(x, y) {
				continue
			}
			switch {
			case near(x, y, from):
				diffFrom++
			case near(x, y, to):
				diffTo++
			default:
				t.Fatalf("moving %s from %s to %s changes the picture at (%d, %d), far from both", u.ID, from, to, x, y)
			}
		}
	}
	if diffFrom == 0 || diffTo == 0 {
		t.Fatalf("moving %s from %s to %s changes %d pixels around %s and %d around %s", u.ID, from, to, diffFrom, from, diffTo, to)
	}
}

// TestPictureAround checks the close-up picture: twice as large as the
// hexes it shows, and different for another centre.
func TestPictureAround(t *testing.T) {
	st := findStep(t, 0, func(step) bool { return true })
	rep := reportOf(t, st, adjudicator.JP)
	a, err := rep.PNGAround(2717, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := rep.PNGAround(1425, 2)
	if err != nil {
		t.Fatal(err)
	}
	ia, ib := decodePNG(t, a), decodePNG(t, b)
	if w := float64(ia.Bounds().Dx()); w < 2*(2*(3*1.5*pngR+pngR)) {
		t.Fatalf("close-up of radius 3 is only %.0f wide", w)
	}
	if ia.Bounds() == ib.Bounds() {
		t.Fatalf("close-ups of radius 3 and 2 have the same size %v", ia.Bounds())
	}
}

// TestPictureDecodes reads each side's PNG back: the pixels are the ones
// drawn, in eight bits a pixel.
func TestPictureDecodes(t *testing.T) {
	st := findStep(t, 20, func(st step) bool { return st.s.Turn >= 4 && len(st.s.OnMap()) >= 60 })
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.Umpire} {
		rep := reportOf(t, st, side)
		b, err := rep.PNG()
		if err != nil {
			t.Fatal(err)
		}
		img, ok := decodePNG(t, b).(*image.Paletted)
		if !ok {
			t.Fatalf("%v: the picture does not decode to a paletted image", side)
		}
		want := rep.picture()
		if !slices.Equal(img.Palette, want.Palette) || img.Rect != want.Rect || !bytes.Equal(img.Pix, want.Pix) {
			t.Fatalf("%v: the picture read back differs from the one drawn", side)
		}
		if len(img.Palette) <= 16 {
			t.Fatalf("%v: %d colours; image/png writes four bits a pixel, slower", side, len(img.Palette))
		}
	}
}

// BenchmarkPicture draws and encodes the U.S. picture of a busy position
// (turn 4 or later, 60 units on the map) and reports its size.
func BenchmarkPicture(b *testing.B) {
	st := findStep(b, 20, func(st step) bool { return st.s.Turn >= 4 && len(st.s.OnMap()) >= 60 })
	rep := reportOf(b, st, adjudicator.US)
	var size int
	for b.Loop() {
		pic, err := rep.PNG()
		if err != nil {
			b.Fatal(err)
		}
		size = len(pic)
	}
	b.ReportMetric(float64(size), "bytes")
}

// TestPictureHexIDs reads each land hex's id back from a busy picture: its
// digits are in ink where the small font puts them, unless three unit
// labels fill the hex, and no two digits look alike.
func TestPictureHexIDs(t *testing.T) {
	for i := range idDigits {
		for j := range i {
			if idDigits[i] == idDigits[j] {
				t.Fatalf("digits %d and %d look alike", i, j)
			}
		}
	}
	st := findStep(t, 40, func(st step) bool {
		return st.s.Turn >= 4 && len(st.s.OnMap()) >= 60 && len(foughtHexes(st.events)) > 0
	})
	rep := reportOf(t, st, adjudicator.US)
	pic := rep.picture()
	m := st.s.Map()
	g := newPNGGeom(m)
	checked, fought := 0, 0
	isFought := map[adjudicator.Hex]bool{}
	for _, h := range foughtHexes(rep.Events) {
		isFought[h] = true
	}
	for _, h := range m.LandHexes() {
		if !g.inside(h) || len(rep.chipsAt(h)) > 2 {
			continue
		}
		want := image.NewPaletted(pic.Rect, pngPalette)
		for k := range want.Pix {
			want.Pix[k] = pxUnused
		}
		hexID(pcanvas{want}, g, m, h)
		for k, p := range want.Pix {
			if p == pxInk && pic.Pix[k] != pxInk {
				t.Fatalf("%s: the id's pixel (%d, %d) is not in ink", h, k%want.Stride, k/want.Stride)
			}
		}
		checked++
		if isFought[h] {
			fought++
		}
	}
	if checked < len(m.LandHexes())*3/4 || fought == 0 {
		t.Fatalf("only %d ids checked, %d of hexes fought over", checked, fought)
	}
}

// PNGAround returns a close-up of the report's picture: the hexes within
// radius of center, drawn twice as large, with the title of the full
// picture above them.
func (r *Report) PNGAround(center adjudicator.Hex, radius int) ([]byte, error) {
	full := r.picture()
	g := basePicture(r.gameMap()).g
	cx, cy := g.center(center)
	dx := float64(max(radius, 0))*1.5*pngR + pngR + 4
	dy := float64(max(radius, 0))*g.h + g.h/2 + 4
	crop := image.Rect(int(cx-dx), int(cy-dy), int(cx+dx), int(cy+dy)).Intersect(full.Rect)
	const scale, band = 2, 38
	img := image.NewPaletted(image.Rect(0, 0, crop.Dx()*scale, crop.Dy()*scale+band), pngPalette)
	for y := range crop.Dy() * scale {
		src := full.Pix[(crop.Min.Y+y/scale)*full.Stride:]
		dst := img.Pix[(y+band)*img.Stride:]
		for x := range crop.Dx() * scale {
			dst[x] = src[crop.Min.X+x/scale]
		}
	}
	c := pcanvas{img}
	c.text(6, 15, r.title(), pxInk)
	c.text(6, 31, fmt.Sprintf("%s and the hexes within %d of it - %s", center, radius, pictureOf(r.View.Side)), pxInk)
	return encodePNG(img)
}
