package wind

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// viewSeeds is how many generated positions each property test checks:
// fewer with -short, which the race detector's run uses.
func viewSeeds() int {
	if testing.Short() {
		return 300
	}
	return 1500
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUSViewShowsNothingHidden checks, over many positions, that the U.S.
// view names no face-down or off-map Japanese unit, no Unknown table or
// type, no Japanese box, and no Komandorski value before it is revealed,
// while it does name every face-up Japanese unit on the map.
func TestUSViewShowsNothingHidden(t *testing.T) {
	shown, anonymous := 0, 0
	for seed := range int64(viewSeeds()) {
		s := randomState(rand.New(rand.NewSource(seed)))
		v := s.View(US)
		b := mustJSON(t, v)
		fail := func(format string, a ...any) {
			t.Helper()
			t.Fatalf("seed %d: "+format+"\nview: %s", append([]any{seed}, a...)...)
		}

		enemy := map[string]UnitView{}
		for _, e := range v.Enemy {
			enemy[e.ID] = e
		}
		faceDown := map[Hex]int{}
		for _, u := range s.Units {
			if u.Side() != JP {
				continue
			}
			quoted := []byte(`"` + u.ID + `"`)
			if u.OnMap() && !u.FaceDown {
				shown++
				if !bytes.Contains(b, quoted) {
					fail("face-up %s is missing", u.ID)
				}
				e := enemy[u.ID]
				if e.Hex != u.Hex || e.Kind != u.Kind() || e.Steps != u.Steps || e.Side != JP {
					fail("face-up %s shows as %+v", u.ID, e)
				}
				continue
			}
			if u.OnMap() {
				faceDown[u.Hex]++
				anonymous++
			}
		}

		secrets := usSecrets(s)
		if found := leaks(b, secrets); len(found) > 0 {
			fail("view names %v", found)
		}
		if found := leaks(fmt.Appendf(nil, "%+v", *v), secrets); len(found) > 0 {
			fail("view printed as text names %v", found)
		}
		for _, key := range []string{`"table"`, `"face_down"`} {
			if bytes.Contains(b, []byte(key)) {
				fail("view has a %s field", key)
			}
		}
		for _, bc := range v.Boxes {
			if bc.Side != US {
				fail("view counts a %s box %q", bc.Side, bc.Box)
			}
		}

		// Anonymous counters: exactly the face-down units, by hex, with
		// nothing but a hex and a count.
		got := map[Hex]int{}
		for _, st := range v.Hidden {
			got[st.Hex] = st.Count
		}
		if !reflect.DeepEqual(got, faceDown) && !(len(got) == 0 && len(faceDown) == 0) {
			fail("anonymous counters %v, want %v", got, faceDown)
		}
		var raw struct {
			Hidden      []map[string]json.RawMessage `json:"hidden"`
			Komandorski map[string]json.RawMessage   `json:"komandorski"`
		}
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		for _, st := range raw.Hidden {
			var keys []string
			for k := range st {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if !reflect.DeepEqual(keys, []string{"count", "hex"}) {
				fail("an anonymous counter carries %v", keys)
			}
		}

		k := s.Komandorski
		if _, ok := raw.Komandorski["effect"]; ok != k.EffectRevealed {
			fail("effect chit shown=%v, revealed=%v", ok, k.EffectRevealed)
		}
		if _, ok := raw.Komandorski["delay"]; ok != k.DelayRevealed {
			fail("delay chit shown=%v, revealed=%v", ok, k.DelayRevealed)
		}
		if k.EffectRevealed && v.Komandorski.Effect != k.Effect || k.DelayRevealed && v.Komandorski.Delay != k.Delay {
			fail("revealed chits show as %+v, want %+v", v.Komandorski, k)
		}
	}
	// The generator must exercise both branches, or the test proves little.
	if shown < viewSeeds() || anonymous < viewSeeds() {
		t.Fatalf("generator too tame: %d face-up and %d face-down Japanese units in %d positions", shown, anonymous, viewSeeds())
	}
}

// usSecrets returns the words that must never appear in anything shown to
// the U.S. about s: the ids of Japanese units it cannot identify (face-down,
// Unknown, or off the map), the word unknown, and the names of the Japanese
// boxes. Use it with leaks on any U.S. report, map or template rendered from
// a generated state.
func usSecrets(s *State) []string {
	out := []string{"unknown", BoxPool, BoxOffMap}
	for _, u := range s.Units {
		if u.Side() == JP && (!u.OnMap() || u.FaceDown || u.Kind() == Unknown) {
			out = append(out, u.ID)
		}
	}
	return out
}

// leaks returns the secrets that occur in out as whole words, ignoring
// case: a secret counts only when the characters on each side of it are
// not letters or digits, so J01 is not found in J010.
func leaks(out []byte, secrets []string) []string {
	lower := bytes.ToLower(out)
	word := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
	}
	var found []string
	for _, sec := range secrets {
		w := bytes.ToLower([]byte(sec))
		for i := 0; ; {
			j := bytes.Index(lower[i:], w)
			if j < 0 {
				break
			}
			j += i
			end := j + len(w)
			if (j == 0 || !word(lower[j-1])) && (end == len(lower) || !word(lower[end])) {
				found = append(found, sec)
				break
			}
			i = j + 1
		}
	}
	return found
}

func TestLeaks(t *testing.T) {
	secrets := []string{"J01", "unknown", "pool"}
	for _, c := range []struct {
		out  string
		want []string
	}{
		{`{"id":"J01"}`, []string{"J01"}},
		{"2717: J010 J101 xJ01", nil},
		{"2717: 2 counters (Unknown)", []string{"unknown"}},
		{"spool poolside", nil},
		{"pool: 12", []string{"pool"}},
	} {
		if got := leaks([]byte(c.out), secrets); !reflect.DeepEqual(got, c.want) {
			t.Errorf("leaks(%q) = %v, want %v", c.out, got, c.want)
		}
	}
}

var tableLine = regexp.MustCompile(`(?m)^  (U\d\d): \[[0-9, ]*\]$`)

// randomTables returns the built-in counter mix with every Unknown table
// drawn at random.
func randomTables(t *testing.T, r *rand.Rand) *Counters {
	t.Helper()
	data := tableLine.ReplaceAllFunc(builtinCountersYAML, func(line []byte) []byte {
		id := tableLine.FindSubmatch(line)[1]
		var vals []string
		for range 10 {
			vals = append(vals, fmt.Sprint(1+r.Intn(3)))
		}
		return fmt.Appendf(nil, "  %s: [%s]", id, strings.Join(vals, ", "))
	})
	cs, err := ParseCounters(data)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// tableVariants caches counter mixes with random Unknown tables: parsing
// the counters file for every scramble would slow the property tests.
var tableVariants [8]*Counters

func tableVariant(t *testing.T, i int) *Counters {
	t.Helper()
	if tableVariants[i] == nil {
		tableVariants[i] = randomTables(t, rand.New(rand.NewSource(int64(i))))
	}
	return tableVariants[i]
}

// scrambleHidden changes, in place, what the U.S. may not know of s while
// keeping the position legal: which Japanese units stand face-down in each
// occupied hex (swapping Unknown, infantry and artillery between hexes and
// with units off the map), the pool, the eliminated and offmap boxes, the
// Unknown tables, Japanese activation, and the Komandorski chits not yet
// revealed. It reports whether anything changed.
func scrambleHidden(t *testing.T, s *State, r *rand.Rand) bool {
	t.Helper()
	before := mustJSON(t, s)

	if r.Intn(2) == 0 {
		if err := s.Attach(s.Map(), tableVariant(t, r.Intn(len(tableVariants)))); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Komandorski.EffectRevealed {
		s.Komandorski.Effect = []int{24, 27, 30}[r.Intn(3)]
	}
	if !s.Komandorski.DelayRevealed {
		s.Komandorski.Delay = 1 + r.Intn(4)
	}

	var jp []*Unit
	for _, u := range s.Units {
		if u.Side() == JP {
			jp = append(jp, u)
			if r.Intn(3) == 0 {
				u.Acted = !u.Acted
				u.MPSpent = r.Intn(6)
			}
		}
	}
	stack := func(h Hex) int {
		n := 0
		for _, u := range s.UnitsAt(h) {
			if u.Kind() != Unknown {
				n++
			}
		}
		return n
	}
	offBox := func(u *Unit) string {
		switch u.Kind() {
		case Unknown:
			return BoxOffMap
		case Infantry:
			return []string{BoxPool, BoxEliminated}[r.Intn(2)]
		}
		return BoxEliminated
	}
	hidden := func(u *Unit) bool { return u.OnMap() && u.FaceDown }
	for range 1 + r.Intn(40) {
		a, b := jp[r.Intn(len(jp))], jp[r.Intn(len(jp))]
		switch {
		case a == b:
		case hidden(a) && hidden(b):
			// Two face-down units trade hexes: the stacking limit holds
			// unless an Unknown trades with a non-Unknown.
			if (a.Kind() == Unknown) != (b.Kind() == Unknown) {
				ua, ub := a, b
				if ua.Kind() == Unknown {
					ua, ub = ub, ua
				}
				// ua (counted) moves to ub's hex.
				if stack(ub.Hex) >= 3 {
					continue
				}
			}
			a.Hex, b.Hex = b.Hex, a.Hex
		case hidden(a) && !b.OnMap(), hidden(b) && !a.OnMap():
			on, off := a, b
			if !hidden(a) {
				on, off = b, a
			}
			h := on.Hex
			on.Hex, on.Box, on.FaceDown = 0, offBox(on), false
			if off.Kind() != Unknown && stack(h) >= 3 {
				on.Hex, on.Box, on.FaceDown = h, "", true
				continue
			}
			off.Hex, off.Box, off.FaceDown = h, "", true
		case !a.OnMap() && !b.OnMap():
			a.Box, b.Box = offBox(a), offBox(b)
		}
	}
	s.reindex()
	return !bytes.Equal(before, mustJSON(t, s)) || s.Counters() != BuiltinCounters()
}

// TestUSViewNonInterference checks that positions differing only in what the
// U.S. may not know give byte-identical U.S. views: the view cannot leak
// what it never depends on.
func TestUSViewNonInterference(t *testing.T) {
	changed := 0
	for seed := range int64(viewSeeds()) {
		r := rand.New(rand.NewSource(seed))
		s := randomState(r)
		want := mustJSON(t, s.View(US))
		s2 := s.Clone()
		if scrambleHidden(t, s2, r) {
			changed++
		}
		checkLegal(t, s2)
		got := mustJSON(t, s2.View(US))
		if !bytes.Equal(got, want) {
			t.Fatalf("seed %d: U.S. view depends on hidden state\nbefore: %s\nafter:  %s", seed, want, got)
		}
		// The Japanese do see the difference, so the scramble is real.
		if !bytes.Equal(mustJSON(t, s.View(JP)), mustJSON(t, s2.View(JP))) {
			continue
		}
		if !bytes.Equal(mustJSON(t, s), mustJSON(t, s2)) {
			t.Fatalf("seed %d: Japanese view misses a change to Japanese units", seed)
		}
	}
	if changed < viewSeeds()*9/10 {
		t.Fatalf("only %d of %d scrambles changed anything", changed, viewSeeds())
	}
}

// TestJapaneseViewShowsOwnAndUS checks that the Japanese view holds every
// Japanese unit in full, every U.S. unit on the map, and the counts of U.S.
// units off it, and nothing anonymous.
func TestJapaneseViewShowsOwnAndUS(t *testing.T) {
	for seed := range int64(viewSeeds()) {
		s := randomState(rand.New(rand.NewSource(seed)))
		v := s.View(JP)
		fail := func(format string, a ...any) {
			t.Helper()
			t.Fatalf("seed %d: "+format, append([]any{seed}, a...)...)
		}
		if len(v.Hidden) != 0 {
			fail("Japanese view has anonymous counters %v", v.Hidden)
		}
		own := map[string]UnitView{}
		for _, u := range v.Units {
			own[u.ID] = u
		}
		enemy := map[string]UnitView{}
		for _, u := range v.Enemy {
			enemy[u.ID] = u
		}
		boxes := map[string]BoxCount{}
		for _, b := range v.Boxes {
			boxes[b.Side.String()+" "+b.Box] = b
		}
		want := map[string]BoxCount{}
		for _, u := range s.Units {
			if u.Side() == JP {
				got, ok := own[u.ID]
				if !ok || got.Hex != u.Hex || got.Box != u.Box || got.Steps != u.Steps ||
					got.FaceDown != u.FaceDown || got.Acted != u.Acted || got.Kind != u.Kind() ||
					!reflect.DeepEqual(got.Table, u.Counter().Table) {
					fail("own unit %s shows as %+v", u.ID, got)
				}
				if !u.OnMap() {
					k := "jp " + u.Box
					b := want[k]
					b.Side, b.Box, b.Units, b.Steps = JP, u.Box, b.Units+1, b.Steps+u.Steps
					want[k] = b
				}
				continue
			}
			if u.OnMap() {
				got, ok := enemy[u.ID]
				if !ok || got.Hex != u.Hex || got.Steps != u.Steps || got.Kind != u.Kind() ||
					got.Battalion != u.Counter().Battalion {
					fail("U.S. unit %s shows as %+v", u.ID, got)
				}
				continue
			}
			if _, ok := enemy[u.ID]; ok {
				fail("U.S. unit %s off the map is named", u.ID)
			}
			if u.Box != BoxUnused {
				k := "us " + u.Box
				b := want[k]
				b.Side, b.Box, b.Units, b.Steps = US, u.Box, b.Units+1, b.Steps+u.Steps
				want[k] = b
			}
		}
		if len(want) == 0 {
			want = map[string]BoxCount{}
		}
		if !reflect.DeepEqual(boxes, want) {
			fail("boxes %v, want %v", boxes, want)
		}
		if len(own)+len(enemy) != len(s.Units)-countOff(s, US) {
			fail("%d own and %d enemy units shown", len(own), len(enemy))
		}
		if k := v.Komandorski; k == nil || k.Effect != s.Komandorski.Effect || k.Delay != s.Komandorski.Delay {
			fail("Komandorski chits show as %+v, want %+v", k, s.Komandorski)
		}
	}
}

// TestJapaneseViewNonInterference checks that the Japanese view depends on
// U.S. units off the map only through the counts per box: positions that
// differ in which U.S. units wait in which box (with the same numbers of
// units and steps per box), and in U.S. activation, give identical views.
func TestJapaneseViewNonInterference(t *testing.T) {
	changed := 0
	for seed := range int64(viewSeeds()) {
		r := rand.New(rand.NewSource(seed))
		s := randomState(r)
		want := mustJSON(t, s.View(JP))
		s2 := s.Clone()
		var off []*Unit
		for _, u := range s2.Units {
			if u.Side() != US {
				continue
			}
			if !u.OnMap() {
				off = append(off, u)
			}
			if r.Intn(3) == 0 {
				u.Acted, u.MPSpent = !u.Acted, r.Intn(9)
			}
		}
		for range 1 + r.Intn(40) {
			a, b := off[r.Intn(len(off))], off[r.Intn(len(off))]
			if a.Steps == b.Steps {
				a.Box, b.Box = b.Box, a.Box
			}
		}
		if !bytes.Equal(mustJSON(t, s), mustJSON(t, s2)) {
			changed++
		}
		if got := mustJSON(t, s2.View(JP)); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: Japanese view depends on what the U.S. holds back\nbefore: %s\nafter:  %s", seed, want, got)
		}
	}
	if changed < viewSeeds()*9/10 {
		t.Fatalf("only %d of %d scrambles changed anything", changed, viewSeeds())
	}
}

func countOff(s *State, side Side) int {
	n := 0
	for _, u := range s.Units {
		if u.Side() == side && !u.OnMap() {
			n++
		}
	}
	return n
}

// TestUmpireViewShowsEverything checks that the umpire's view holds every
// unit exactly as the state has it.
func TestUmpireViewShowsEverything(t *testing.T) {
	for seed := range int64(200) {
		s := randomState(rand.New(rand.NewSource(seed)))
		v := s.View(Umpire)
		if len(v.Units) != len(s.Units) || len(v.Enemy) != 0 || len(v.Hidden) != 0 {
			t.Fatalf("seed %d: umpire sees %d units, %d enemy, %d anonymous", seed, len(v.Units), len(v.Enemy), len(v.Hidden))
		}
		pool := 0
		for i, u := range s.Units {
			got := v.Units[i]
			if got.ID != u.ID || got.Hex != u.Hex || got.Box != u.Box || got.Steps != u.Steps ||
				got.FaceDown != u.FaceDown || got.Acted != u.Acted || got.MPSpent != u.MPSpent ||
				!reflect.DeepEqual(got.Table, u.Counter().Table) {
				t.Fatalf("seed %d: %s shows as %+v", seed, u.ID, got)
			}
			if u.Box == BoxPool {
				pool++
			}
		}
		for _, b := range v.Boxes {
			if b.Side == JP && b.Box == BoxPool && b.Units != pool {
				t.Fatalf("seed %d: pool %d, want %d", seed, b.Units, pool)
			}
		}
		k := s.Komandorski
		if v.Komandorski == nil || v.Komandorski.Effect != k.Effect || v.Komandorski.Delay != k.Delay {
			t.Fatalf("seed %d: Komandorski chits show as %+v, want %+v", seed, v.Komandorski, k)
		}
	}
}

// TestViewRoundTrips checks that every side's view survives JSON, so
// reports can be built from a stored view.
func TestViewRoundTrips(t *testing.T) {
	for seed := range int64(100) {
		s := randomState(rand.New(rand.NewSource(seed)))
		for _, side := range []Side{US, JP, Umpire} {
			v := s.View(side)
			var back View
			if err := json.Unmarshal(mustJSON(t, v), &back); err != nil {
				t.Fatalf("seed %d, %s: %v", seed, side, err)
			}
			if !reflect.DeepEqual(*v, back) {
				t.Fatalf("seed %d, %s: view does not round-trip\n%+v\n%+v", seed, side, *v, back)
			}
		}
	}
}

// place puts units in a hex for hand-made positions; face "d" means
// face-down.
func place(t *testing.T, s *State, h Hex, face string, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if err := s.Place(id, h, ""); err != nil {
			t.Fatal(err)
		}
		u, _ := s.Unit(id)
		u.FaceDown = face == "d"
	}
}

// TestViewHexes checks that Hexes and At together give back every hex the
// state occupies, whoever looks, and that each side sees as many counters
// there as stand in it.
func TestViewHexes(t *testing.T) {
	for seed := range int64(200) {
		s := randomState(rand.New(rand.NewSource(seed)))
		want, by := s.Occupants()
		for _, side := range []Side{US, JP, Umpire} {
			v := s.View(side)
			got := v.Hexes()
			if !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
				t.Fatalf("seed %d, %s: hexes %v, want %v", seed, side, got, want)
			}
			for _, h := range got {
				units, hidden := v.At(h)
				if len(units)+hidden != len(by[h]) {
					t.Fatalf("seed %d, %s: %s shows %d units and %d counters, holds %d", seed, side, h, len(units), hidden, len(by[h]))
				}
			}
		}
	}
}

func TestUnknownFaceUpStaysAnonymous(t *testing.T) {
	s := NewState(nil, nil)
	place(t, s, 2717, "up", "U01", "J01")
	v := s.View(US)
	units, hidden := v.At(2717)
	if hidden != 1 || len(units) != 1 || units[0].ID != "J01" {
		t.Fatalf("2717 shows %+v and %d anonymous counters; want J01 and 1", units, hidden)
	}
}

func TestClearedZones(t *testing.T) {
	s := NewState(nil, nil)
	zone := s.Map().Zone(2717)
	place(t, s, 2717, "up", "1/17-A")
	place(t, s, 3409, "up", "1/17-B") // Attu Village: never cleared
	s.updateCleared()
	for _, side := range []Side{US, JP, Umpire} {
		if got := s.View(side).ClearedZones; !reflect.DeepEqual(got, []string{zone}) {
			t.Fatalf("%s view: cleared %v, want [%s]", side, got, zone)
		}
	}
	// The markers are the state's (rule 10.0): face-down infantry in the
	// zone keeps it uncleared; Unknown units alone do not, and leave the
	// map when it clears, as on the table.
	var other Hex
	for _, h := range s.Map().LandHexes() {
		if s.Map().Zone(h) == zone && h != 2717 {
			other = h
			break
		}
	}
	for id, cleared := range map[string]bool{"U01": true, "J01": false} {
		c := NewState(nil, nil)
		place(t, c, 2717, "up", "1/17-A")
		place(t, c, other, "d", id)
		c.updateCleared()
		if got := len(c.View(US).ClearedZones) == 1; got != cleared {
			t.Errorf("with %s face-down in %s: cleared %v, want %v", id, other, got, cleared)
		}
	}
}

func TestVisibleEvents(t *testing.T) {
	evs := []Event{
		{Kind: EventWeather, Seen: Public},
		{Kind: EventKomandorskiDrawn, Seen: OnlyTo(JP)},
		{Kind: EventStandingChanged, Seen: OnlyTo(US)},
		{Kind: EventMoved, Seen: Visibility{US: SightAnonymous, JP: SightFull}},
	}
	for _, c := range []struct {
		side Side
		want []EventKind
	}{
		{US, []EventKind{EventWeather, EventStandingChanged, EventMoved}},
		{JP, []EventKind{EventWeather, EventKomandorskiDrawn, EventMoved}},
		{Umpire, []EventKind{EventWeather, EventKomandorskiDrawn, EventStandingChanged, EventMoved}},
		{NoSide, []EventKind{EventWeather}},
	} {
		var got []EventKind
		for _, e := range VisibleEvents(evs, c.side) {
			got = append(got, e.Kind)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s reads %v, want %v", c.side, got, c.want)
		}
	}
}

// A U.S. unit on Engineer Hill faces a stack of three Japanese counters
// next door, one of them revealed in melee. The U.S. sees the revealed
// platoon and two anonymous counters; it cannot tell that one of them is
// an Unknown unit.
func ExampleState_View() {
	s := NewState(nil, nil)
	s.Turn, s.Weather = 3, Cloudy
	s.AirUS, s.AirJP = 2, 1
	s.Komandorski = Komandorski{Effect: 27, Delay: 2}
	for _, p := range []struct {
		id   string
		hex  Hex
		down bool
	}{{"1/17-A", 2717, false}, {"U05", 2818, true}, {"J07", 2818, true}, {"J08", 2818, false}} {
		_ = s.Place(p.id, p.hex, "")
		u, _ := s.Unit(p.id)
		u.FaceDown = p.down
	}
	_ = s.Place("J09", 0, BoxPool)

	v := s.View(US)
	v.Units = v.Units[:0:0] // keep the example short: only units on the map
	for _, u := range s.View(US).Units {
		if u.Hex != 0 {
			v.Units = append(v.Units, u)
		}
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "side": "us",
	//   "turn": 3,
	//   "weather": "cloudy",
	//   "air": {
	//     "us": 2,
	//     "jp": 1
	//   },
	//   "casualties": 0,
	//   "units": [
	//     {
	//       "id": "1/17-A",
	//       "side": "us",
	//       "kind": "infantry",
	//       "battalion": "1/17",
	//       "hex": "2717",
	//       "steps": 4
	//     }
	//   ],
	//   "enemy": [
	//     {
	//       "id": "J08",
	//       "side": "jp",
	//       "kind": "infantry",
	//       "hex": "2818",
	//       "steps": 1
	//     }
	//   ],
	//   "hidden": [
	//     {
	//       "hex": "2818",
	//       "count": 2
	//     }
	//   ],
	//   "boxes": [
	//     {
	//       "side": "us",
	//       "box": "unused",
	//       "units": 61,
	//       "steps": 159
	//     }
	//   ],
	//   "victory_hexes": [
	//     {
	//       "hex": "1425",
	//       "name": "Temnac Bay",
	//       "zone": "T"
	//     },
	//     {
	//       "hex": "2011",
	//       "name": "Holtz Bay",
	//       "zone": "H"
	//     },
	//     {
	//       "hex": "2117",
	//       "name": "Jarmin Pass",
	//       "zone": "J"
	//     },
	//     {
	//       "hex": "2717",
	//       "name": "Engineer Hill",
	//       "zone": "E",
	//       "held": "us"
	//     },
	//     {
	//       "hex": "3409",
	//       "name": "Attu Village",
	//       "zone": "V"
	//     },
	//     {
	//       "hex": "3622",
	//       "name": "Alexei Point",
	//       "zone": "A"
	//     }
	//   ]
	// }
}
