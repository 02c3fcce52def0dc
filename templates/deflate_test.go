package templates

import (
	"bytes"
	"compress/zlib"
	"hash/adler32"
	"image/png"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// inflate decodes a zlib stream with the standard library's reader, which
// checks the codes, the distances and the checksum.
func inflate(t testing.TB, z []byte) []byte {
	t.Helper()
	r, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRowDeflate compresses inputs of many shapes and reads them back:
// rows that repeat, runs, noise, a skew of frequencies deep enough to
// need codes shortened to fifteen bits, one byte, nothing.
func TestRowDeflate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	noise := func(n, k int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(k))
		}
		return b
	}
	// Symbol k appears fib(k) times: a Huffman tree over them is as deep
	// as there are symbols, 26 here, and must be folded to 15 levels.
	var skew []byte
	for k, a, b := 0, 1, 1; k < 26; k, a, b = k+1, b, a+b {
		skew = append(skew, bytes.Repeat([]byte{byte(k)}, a)...)
	}
	rng.Shuffle(len(skew), func(i, j int) { skew[i], skew[j] = skew[j], skew[i] })
	rows := func(stride, n int) []byte {
		row := noise(stride, 16)
		var b []byte
		for i := range n {
			r := bytes.Clone(row)
			r[i%stride] ^= byte(i)
			if i%7 == 0 {
				r = noise(stride, 4)
			}
			b = append(b, r...)
		}
		return b
	}
	cases := []struct {
		name   string
		raw    []byte
		stride int
	}{
		{"empty", nil, 1},
		{"one byte", []byte{7}, 1},
		{"zeros", make([]byte, 100000), 604},
		{"one run of 258", bytes.Repeat([]byte{3}, 259), 259},
		{"noise", noise(70000, 256), 1000},
		{"few colours", noise(70000, 3), 333},
		{"skew", skew, 32768},
		{"rows", rows(604, 500), 604},
		{"narrow rows", rows(2, 5000), 2},
		{"widest rows", rows(32768, 4), 32768},
		{"rows wider than the window", rows(40000, 3), 40000},
	}
	for _, c := range cases {
		var z deflateBuf
		out := z.rowDeflate(nil, c.raw, c.stride, nil)
		if got := inflate(t, out); !bytes.Equal(got, c.raw) {
			t.Errorf("%s: %d bytes back from %d", c.name, len(got), len(c.raw))
		}
		// The buffers are reused: a second run gives the same bytes.
		if again := z.rowDeflate(nil, c.raw, c.stride, nil); !bytes.Equal(again, out) {
			t.Errorf("%s: a second compression differs", c.name)
		}
		// Against a base that shares some rows, with the base's codes: the
		// same bytes back, every time, and hardly more of them.
		other := bytes.Clone(c.raw)
		for i := 0; i < len(other); i += 3*c.stride + 1 {
			other[i] ^= 0x5a
		}
		for _, base := range []struct {
			name string
			raw  []byte
		}{{"a base", other}, {"itself", c.raw}, {"a base of other bytes", noise(len(c.raw), 7)}} {
			cache := newRowCache(base.raw, c.stride)
			got := z.rowDeflate(nil, c.raw, c.stride, cache)
			if back := inflate(t, got); !bytes.Equal(back, c.raw) {
				t.Errorf("%s: compressed against %s, %d bytes back from %d", c.name, base.name, len(back), len(c.raw))
			}
			if again := z.rowDeflate(nil, c.raw, c.stride, cache); !bytes.Equal(again, got) {
				t.Errorf("%s: compressed against %s a second time, the stream differs", c.name, base.name)
			}
			if base.name == "itself" && len(got) > len(out)+len(out)/20+64 {
				t.Errorf("%s: %d bytes against itself, %d alone", c.name, len(got), len(out))
			}
		}
	}
}

// TestRowDeflateCodeLengths checks the codes built for skewed counts:
// none longer than allowed, and complete (Kraft's sum exactly one).
func TestRowDeflateCodeLengths(t *testing.T) {
	for _, limit := range []int{maxCodeLen, maxCLCLen} {
		freq := make([]uint32, 40)
		f := uint32(1)
		for i := range freq {
			freq[i] = f
			f += f / 2
			if f > 1<<30 {
				f = 1 << 30
			}
		}
		n := len(freq)
		if limit == maxCLCLen {
			n = 19 // the code-length alphabet
		}
		h := newHuffCode(freq[:n], limit)
		var kraft float64
		for _, l := range h.len {
			if int(l) > limit || l == 0 {
				t.Fatalf("limit %d: code length %d", limit, l)
			}
			kraft += 1 / float64(uint64(1)<<l)
		}
		if kraft != 1 {
			t.Errorf("limit %d: Kraft sum %v", limit, kraft)
		}
	}
}

// TestPNGOfReports decodes the pictures of busy positions, as each side
// sees them, to the very pixels drawn.
func TestPNGOfReports(t *testing.T) {
	st := findStep(t, 20, func(st step) bool { return st.s.Turn >= 4 && len(st.s.OnMap()) >= 60 })
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.Umpire} {
		rep := &Report{Game: testGame(t), Map: st.s.Map(), View: st.s.View(side), Outlook: st.s.Outlook(side),
			Events: adjudicator.VisibleEvents(st.events, side)}
		b, err := rep.PNG()
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		want := rep.picture()
		// Written with the map picture's codes, hardly larger than with
		// codes of its own.
		alone, err := encodePNG(want, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > len(alone)+len(alone)/10 {
			t.Errorf("%v: %d bytes over the map's picture, %d alone", side, len(b), len(alone))
		}
		if img.Bounds() != want.Rect {
			t.Fatalf("%v: %v, drawn %v", side, img.Bounds(), want.Rect)
		}
		for y := range want.Rect.Dy() {
			for x := range want.Rect.Dx() {
				if img.At(x, y) != want.Palette[want.ColorIndexAt(x, y)] {
					t.Fatalf("%v: pixel (%d, %d) differs", side, x, y)
				}
			}
		}
		t.Logf("%v: %d bytes (%d alone)", side, len(b), len(alone))
	}
}

// TestAdler32Combine: the checksum of two pieces, combined, is the
// checksum of the whole.
func TestAdler32Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		b := make([]byte, rng.IntN(200000))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		cut := rng.IntN(len(b) + 1)
		if got, want := adler32Combine(adler32.Checksum(b[:cut]), adler32.Checksum(b[cut:]), len(b)-cut), adler32.Checksum(b); got != want {
			t.Fatalf("%d bytes cut at %d: %08x, want %08x", len(b), cut, got, want)
		}
	}
}

// FuzzRowDeflate: whatever the bytes and the row length, the stream reads
// back to them.
func FuzzRowDeflate(f *testing.F) {
	f.Add([]byte("aaaaaaaaaabbbbbbbbbbaaaaaaaaaabbbbbbbbbb"), uint16(10))
	f.Add(bytes.Repeat([]byte{1, 2, 3}, 200), uint16(3))
	f.Add([]byte{}, uint16(1))
	f.Fuzz(func(t *testing.T, raw []byte, stride uint16) {
		s := max(int(stride), 1)
		var z deflateBuf
		if got := inflate(t, z.rowDeflate(nil, raw, s, nil)); !bytes.Equal(got, raw) {
			t.Fatalf("%d bytes back from %d", len(got), len(raw))
		}
		// Against a base: the bytes reversed share a few rows with them.
		base := slices.Clone(raw)
		slices.Reverse(base)
		if got := inflate(t, z.rowDeflate(nil, raw, s, newRowCache(base, s))); !bytes.Equal(got, raw) {
			t.Fatalf("against a base, %d bytes back from %d", len(got), len(raw))
		}
	})
}

// BenchmarkPNG draws and encodes one side's picture of a busy position.
func BenchmarkPNG(b *testing.B) {
	st := findStep(b, 20, func(st step) bool { return st.s.Turn >= 4 && len(st.s.OnMap()) >= 60 })
	rep := &Report{Game: testGame(b), Map: st.s.Map(), View: st.s.View(adjudicator.US), Outlook: st.s.Outlook(adjudicator.US),
		Events: adjudicator.VisibleEvents(st.events, adjudicator.US)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rep.PNG(); err != nil {
			b.Fatal(err)
		}
	}
}
