package templates

import (
	"bytes"
	"compress/zlib"
	"io"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
)

func TestDeflateExperiment(t *testing.T) {
	st := findStep(t, 20, func(st step) bool {
		return st.s.Turn >= 4 && len(st.s.OnMap()) >= 60
	})
	rep := &Report{Game: testGame(t), Map: st.s.Map(), View: st.s.View(adjudicator.US), Outlook: st.s.Outlook(adjudicator.US), Events: adjudicator.VisibleEvents(st.events, adjudicator.US)}
	img := rep.picture()
	raw := pack(img, nil)
	stride := 1 + (img.Rect.Dx()+1)/2
	t0 := time.Now()
	var z []byte
	for range 20 {
		z = rowDeflate(z[:0], raw, stride)
	}
	d1 := time.Since(t0) / 20
	t0 = time.Now()
	var old []byte
	for range 20 {
		old, _ = encodePNG(img)
	}
	d2 := time.Since(t0) / 20
	r, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, raw) {
		t.Fatal("differs")
	}
	t.Logf("raw %d: rowDeflate %d bytes in %v; encodePNG %d bytes in %v", len(raw), len(z), d1, len(old), d2)
}
