package store

import (
	"bytes"
	"encoding/json"
	"github.com/attu-pbem/attu/adjudicator"
	"slices"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// The first ten dice of the seed 00 01 02 ... 1f, computed independently
// (Python's hmac module); die 8 rejects the byte 250 first.
func TestDeriveVector(t *testing.T) {
	want := []struct {
		face int
		raw  []byte
	}{{6, []byte{196}}, {9, []byte{249}}, {10, []byte{150}}, {8, []byte{248}}, {9, []byte{29}},
		{3, []byte{103}}, {1, []byte{221}}, {5, []byte{250, 55}}, {10, []byte{40}}, {4, []byte{174}}}
	for i, w := range want {
		face, raw := Derive(testSeed(), uint64(i+1), D10)
		if face != w.face || !slices.Equal(raw, w.raw) {
			t.Errorf("die %d: %d %v, want %d %v", i+1, face, raw, w.face, w.raw)
		}
	}
	if c := Commitment(testSeed()); c != "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd" {
		t.Errorf("commitment %s", c)
	}
}

// The same dice of the same seed rolled as d6s, computed independently
// (Python's hmac module): the same bytes, read mod 6, 252 to 255
// rejected; die 8's byte 250 is a face now, and die 49 is the first to
// reject one (254).
func TestDeriveVectorD6(t *testing.T) {
	want := []struct {
		seq  uint64
		face int
		raw  []byte
	}{{1, 4, []byte{196}}, {2, 3, []byte{249}}, {3, 6, []byte{150}}, {4, 2, []byte{248}}, {5, 5, []byte{29}},
		{6, 1, []byte{103}}, {7, 5, []byte{221}}, {8, 4, []byte{250}}, {9, 4, []byte{40}}, {10, 6, []byte{174}},
		{49, 5, []byte{254, 101}}}
	for _, w := range want {
		face, raw := Derive(testSeed(), w.seq, 6)
		if face != w.face || !slices.Equal(raw, w.raw) {
			t.Errorf("die %d: %d %v, want %d %v", w.seq, face, raw, w.face, w.raw)
		}
	}
}

// For every die from 2 to 256 faces each byte value is rejected or maps
// to a face, and each face receives exactly as many byte values as every
// other: the derivation has no modulo bias, whatever the HMAC output. The
// d10 keeps 25 values a face and rejects 250 to 255, as it always did.
func TestDiceHaveNoModuloBias(t *testing.T) {
	for n := 2; n <= MaxFaces; n++ {
		per := make([]int, n+1)
		rejected := 0
		for b := 0; b < 256; b++ {
			if b >= 256-256%n {
				rejected++
				continue
			}
			f := b % n
			if f == 0 {
				f = n
			}
			per[f]++
		}
		for f := 1; f <= n; f++ {
			if per[f] != 256/n {
				t.Errorf("d%d: face %d has %d byte values, want %d", n, f, per[f], 256/n)
			}
		}
		if rejected != 256%n || n == D10 && rejected != 6 {
			t.Errorf("d%d: %d rejected values", n, rejected)
		}
	}
	// And Derive really rejects: a die whose first HMAC byte is at the
	// limit or above must not produce a face from it. Find such dice and
	// check them.
	for _, n := range []int{D10, 6} {
		limit := byte(256 - 256%n)
		found := 0
		for seq := uint64(1); found < 20 && seq < 100000; seq++ {
			face, raw := Derive(testSeed(), seq, n)
			if raw[0] >= limit {
				found++
				last := raw[len(raw)-1]
				want := int(last) % n
				if want == 0 {
					want = n
				}
				if last >= limit || face != want {
					t.Errorf("d%d %d: raw %v gives %d", n, seq, raw, face)
				}
			}
		}
		if found < 20 {
			t.Errorf("d%d: only %d dice with a rejected byte", n, found)
		}
	}
}

// chiSquare derives a million dice of n faces from the test seed and
// fails when their faces are not uniform at the 1 % level, critical being
// chi-square's critical value for n-1 degrees of freedom. The seed is
// fixed: with a fresh seed each run the test would fail, by design of the
// test, one run in a hundred.
func chiSquare(t *testing.T, n int, critical float64) {
	const dice = 1_000_000
	seed := testSeed()
	count := make([]int, n+1)
	for i := uint64(1); i <= dice; i++ {
		f, _ := Derive(seed, i, n)
		count[f]++
	}
	chi, expected := 0.0, float64(dice)/float64(n)
	for f := 1; f <= n; f++ {
		d := float64(count[f]) - expected
		chi += d * d / expected
	}
	t.Logf("chi-square over %d d%d: %.2f (%d d.f., 1%% critical value %.3f); faces %v", dice, n, chi, n-1, critical, count[1:])
	if chi > critical {
		t.Errorf("chi-square %.2f > %.3f: not uniform at the 1%% level (seed %x)", chi, critical, seed)
	}
}

// A million d10s pass a chi-square test of uniformity at the 1 % level.
func TestDiceChiSquare(t *testing.T) { chiSquare(t, D10, 21.666) }

// A million d6s pass it too.
func TestD6ChiSquare(t *testing.T) { chiSquare(t, 6, 15.086) }

func TestDiceSourceLogs(t *testing.T) {
	d := NewDice(testSeed(), 8, 3, 2, "actions")
	var _ wind.Dice = d
	if f := d.Roll(wind.Die{Purpose: "ranged fire", Unit: "1/17-A", Hex: 2717}); f != 5 {
		t.Fatalf("die 8 = %d", f)
	}
	r := d.Rolls()[0]
	if r.Seq != 8 || r.Entry != 3 || r.Turn != 2 || r.Wait != "actions" || !slices.Equal(r.Raw, []int{250, 55}) || r.Unit != "1/17-A" || d.Next() != 9 {
		t.Fatalf("%+v", r)
	}
	// A d10 source made so on purpose writes its rolls as every d10 was
	// written, faces absent; a d6 source records its faces.
	if r := NewDice(testSeed(), 8, 3, 2, "actions").WithFaces(D10); r.Roll(wind.Die{}) != 5 || r.Rolls()[0].Faces != 0 {
		t.Errorf("a d10 records %+v", r.Rolls()[0])
	}
	d6 := NewDice(testSeed(), 48, 3, 2, "actions").WithFaces(6)
	if a, b := d6.Roll(wind.Die{}), d6.Roll(wind.Die{}); a != 2 || b != 5 {
		t.Fatalf("d6 48 and 49 = %d %d, want 2 5 (bytes 62, then 254 rejected and 101)", a, b)
	}
	r = d6.Rolls()[1]
	if r.Seq != 49 || r.Faces != 6 || r.Sides() != 6 || !slices.Equal(r.Raw, []int{254, 101}) || r.Face != 5 {
		t.Fatalf("%+v", r)
	}
}

func BenchmarkDerive(b *testing.B) {
	seed := testSeed()
	for i := range b.N {
		Derive(seed, uint64(i), D10)
	}
}

// A game whose rules roll d6s: the store rolls every die of it, the
// opening's too, as a d6 and records so; the export carries the faces
// through its JSON, and the audit re-derives each die as a d6 from the
// seed. The same export audited against rules that roll d10s fails at
// the first die, and so does a die the record turns into a d10: the rules
// choose the die, not the record. A d10 game's record names no faces.
func TestD6Game(t *testing.T) {
	db, _ := openTestDB(t)
	defer closeChecked(t, db)
	d6 := toyEngine()
	d6.faces = 6
	_, err := db.Create(NewGame{Rules: d6,
		ID: "d6", Scenario: "campaign", Seed: testSeed(),
		Start: func(d adjudicator.Dice) (Position, json.RawMessage, error) {
			d.Roll(wind.Die{Purpose: wind.DieWeather, Seen: wind.AudienceBoth})
			return openingState(), nil, nil
		},
		Players: []NewPlayer{{Side: wind.US, Address: "us@example.org", Token: "us-token"}, {Side: wind.JP, Address: "jp@example.org", Token: "jp-token"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	drv := newDriver(db, "d6", 6)
	drv.eng = d6
	drv.play(t, 12)
	if _, err := db.end("d6", "over"); err != nil {
		t.Fatal(err)
	}
	x, err := db.Export("d6", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Dice) < 20 {
		t.Fatalf("only %d dice", len(x.Dice))
	}
	for _, r := range x.Dice {
		if r.Faces != 6 || r.Face < 1 || r.Face > 6 {
			t.Fatalf("die %d recorded as %d of %d faces", r.Seq, r.Face, r.Faces)
		}
	}
	b, err := x.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte(`"faces": 6,`)); n != len(x.Dice) {
		t.Errorf("the export names the faces of %d dice of %d", n, len(x.Dice))
	}
	read, err := ReadExport(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if rep := Audit(read, d6); !rep.OK() || !rep.SeedShown || !rep.Replayed || rep.Dice != len(x.Dice) {
		t.Fatalf("audit of the d6 game: %+v %v", rep, rep.Bad)
	}
	rep := Audit(read, toyEngine())
	if rep.OK() || rep.Bad.Die != 1 || !strings.Contains(rep.Bad.What, "a die of 6 faces, the rules roll a d10") {
		t.Errorf("audited as a d10 game: %v", rep.Bad)
	}
	// The host records die 5 as the d10 the seed gives for it.
	forged, _ := ReadExport(bytes.NewReader(b))
	r := &forged.Dice[4]
	face, raw := Derive(testSeed(), r.Seq, D10)
	r.Faces, r.Face, r.Raw = 0, face, ints(raw)
	if rep := Audit(forged, d6); rep.OK() || rep.Bad.Die != r.Seq || !strings.Contains(rep.Bad.What, "a die of 10 faces, the rules roll a d6") {
		t.Errorf("a d10 among d6s: %v", rep.Bad)
	}

	createTestGame(t, db, "d10")
	newDriver(db, "d10", 10).play(t, 6)
	x, err = db.Export("d10", true)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := x.JSON(); len(x.Dice) == 0 || bytes.Contains(b, []byte(`"faces"`)) {
		t.Errorf("a d10 game's export of %d dice names faces", len(x.Dice))
	}
	mustAudit(t, x)
}
