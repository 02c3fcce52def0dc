package wind

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"testing"
)

// randomState returns a random legal-looking position on the built-in map
// with the built-in counters, for property tests. The same r gives the same
// state. What it respects:
//
//   - every unit stands on a land hex or in a box; the sides never share a
//     hex;
//   - Japanese stacking: at most three infantry or artillery units per hex,
//     any number of Unknown units (rule 4.2); Unknown units on the map are
//     face-down, and off it they are in the offmap box (2.5, 8.5);
//   - Japanese infantry is on the map (face up or down), in the pool or
//     eliminated; artillery on the map or eliminated;
//   - U.S. stacking: at most 8 steps per hex, which is within both limits of
//     rule 4.1; U.S. units are on the map, in the reinforcements box, in a
//     staging box, eliminated or (independents and depots) unused;
//   - steps between one and the counter's full strength;
//   - turn, weather, night, airpower (3.4 table ranges), casualties below 30,
//     Komandorski chits (12.1) flipped as the turn says (12.1.3).
//
// Victory hexes are favoured so that holding and clearing come up often.
func randomState(r *rand.Rand) *State {
	s := NewState(nil, nil)
	m := s.Map()
	land := m.LandHexes()

	s.Turn = 1 + r.Intn(25)
	s.Weather = Weather(r.Intn(4))
	s.Night = r.Intn(4) == 0
	s.AirUS = r.Intn(6)
	s.AirJP = r.Intn(4)
	s.Casualties = r.Intn(30)
	// Rule 12.1.3: the effect chit flips on reaching May 24 (turn 14, as
	// turn 1 is May 11), the delay chit on reaching the effect's date.
	k := Komandorski{Effect: []int{24, 27, 30}[r.Intn(3)], Delay: 1 + r.Intn(4)}
	k.EffectRevealed = s.Turn >= 24-10
	k.DelayRevealed = k.EffectRevealed && s.Turn >= k.Effect-10
	s.Komandorski = k

	// Candidate hexes for each side: a few dozen, victory hexes often among
	// them, never shared.
	taken := map[Hex]Side{}
	pick := func(side Side, n int) []Hex {
		var hs []Hex
		for _, vh := range m.VictoryHexes {
			if taken[vh.Hex] == NoSide && r.Intn(4) == 0 {
				taken[vh.Hex] = side
				hs = append(hs, vh.Hex)
			}
		}
		for tries := 0; len(hs) < n && tries < 10*n; tries++ {
			h := land[r.Intn(len(land))]
			if taken[h] == NoSide {
				taken[h] = side
				hs = append(hs, h)
			}
		}
		return hs
	}
	jpHexes := pick(JP, 3+r.Intn(30))
	usHexes := pick(US, 1+r.Intn(25))

	// Japanese.
	jpStack := map[Hex]int{} // infantry and artillery per hex (4.2)
	placeJP := func(u *Unit) bool {
		for range 4 {
			h := jpHexes[r.Intn(len(jpHexes))]
			if u.Kind() == Unknown || jpStack[h] < 3 {
				if u.Kind() != Unknown {
					jpStack[h]++
				}
				u.Hex, u.Box = h, ""
				return true
			}
		}
		return false
	}
	pOnMap := r.Float64()
	pDown := r.Float64()
	for _, u := range s.Units {
		if u.Side() != JP {
			continue
		}
		u.Steps = 1 + r.Intn(u.Counter().MaxSteps())
		switch u.Kind() {
		case Unknown:
			u.Box = BoxOffMap
			if r.Float64() < pOnMap && placeJP(u) {
				u.FaceDown = true
			}
		case Infantry:
			u.Box = []string{BoxPool, BoxPool, BoxEliminated}[r.Intn(3)]
			if r.Float64() < pOnMap && placeJP(u) {
				u.FaceDown = r.Float64() < pDown
			}
		default:
			u.Box = BoxEliminated
			if r.Intn(5) > 0 && placeJP(u) {
				u.FaceDown = r.Float64() < pDown
			}
		}
	}

	// U.S.
	usSteps := map[Hex]int{}
	var staging []string
	for _, lz := range m.LandingZones {
		staging = append(staging, BoxStagingPrefix+lz.ID)
	}
	for _, u := range s.Units {
		if u.Side() != US {
			continue
		}
		c := u.Counter()
		u.Steps = 1 + r.Intn(c.MaxSteps())
		if c.Class.Independent || u.Kind() == Depot {
			if r.Intn(2) == 0 {
				u.Box = BoxUnused
				u.Steps = c.MaxSteps()
				continue
			}
		}
		switch r.Intn(10) {
		case 0:
			u.Box = BoxReinforcements
			continue
		case 1:
			u.Box = staging[r.Intn(len(staging))]
			continue
		case 2:
			u.Box = BoxEliminated
			continue
		}
		u.Box = BoxReinforcements
		if len(usHexes) == 0 {
			continue
		}
		h := usHexes[r.Intn(len(usHexes))]
		if usSteps[h]+u.Steps <= 8 {
			usSteps[h] += u.Steps
			u.Hex, u.Box = h, ""
			u.Acted = r.Intn(3) == 0
			if u.Acted {
				u.MPSpent = r.Intn(c.Class.MP + 1)
			}
		}
	}
	s.reindex()
	return s
}

// checkLegal fails t when s breaks what randomState promises.
func checkLegal(t *testing.T, s *State) {
	t.Helper()
	m := s.Map()
	hexes, by := s.Occupants()
	for _, h := range hexes {
		if !m.Land(h) {
			t.Fatalf("%s is not land", h)
		}
		side := by[h][0].Side()
		jp, us := 0, 0
		for _, u := range by[h] {
			if u.Side() != side {
				t.Fatalf("%s holds both sides", h)
			}
			if u.Side() == JP && u.Kind() != Unknown {
				jp++
			}
			if u.Side() == US {
				us += u.Steps
			}
			if u.Box != "" {
				t.Fatalf("%s is in %s and in box %q", u.ID, h, u.Box)
			}
		}
		if jp > 3 || us > 8 {
			t.Fatalf("%s overstacked: %d Japanese units, %d U.S. steps", h, jp, us)
		}
	}
	for _, u := range s.Units {
		if u.Steps < 1 || u.Steps > u.Counter().MaxSteps() {
			t.Fatalf("%s has %d steps", u.ID, u.Steps)
		}
		if !u.OnMap() && u.Box == "" {
			t.Fatalf("%s is nowhere", u.ID)
		}
		if u.Kind() == Unknown && u.OnMap() && !u.FaceDown {
			t.Fatalf("Unknown unit %s is face up on the map", u.ID)
		}
	}
}

func TestRandomStateIsLegalAndDeterministic(t *testing.T) {
	chits := map[[2]bool]int{}
	for seed := range int64(200) {
		a := randomState(rand.New(rand.NewSource(seed)))
		checkLegal(t, a)
		chits[[2]bool{a.Komandorski.EffectRevealed, a.Komandorski.DelayRevealed}]++
		b := randomState(rand.New(rand.NewSource(seed)))
		for i := range a.Units {
			if *a.Units[i] != *b.Units[i] {
				t.Fatalf("seed %d: unit %s differs between two runs", seed, a.Units[i].ID)
			}
		}
	}
	// Hidden, effect only, and both chits shown must all come up.
	if len(chits) != 3 {
		t.Fatalf("Komandorski reveal states seen: %v", chits)
	}
}

// TestRandomStateRoundTrips checks that generated positions survive JSON and
// Attach, so tests of stored games can use them too.
func TestRandomStateRoundTrips(t *testing.T) {
	for seed := range int64(50) {
		s := randomState(rand.New(rand.NewSource(seed)))
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back State
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := back.Attach(nil, nil); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkLegal(t, &back)
		b2, _ := json.Marshal(&back)
		if !bytes.Equal(b, b2) {
			t.Fatalf("seed %d: state does not round-trip", seed)
		}
	}
}
