package wind

import (
	"encoding/json"
	"errors"
	"math/rand"
	"reflect"
	"slices"
	"testing"
)

// A solitaire game is created set up by rule 13.2.1 for every scenario:
// sound, waiting for the U.S. landing, one fixed Unknown unit on each
// victory hex of the play area and between 2 and 11 more on the map (as
// many as are left), the U.S. view naming none of them, and the position
// round-tripping through JSON.
func TestSolitaireCreation(t *testing.T) {
	for _, name := range ScenarioNames() {
		for seed := range int64(20) {
			s, evs, err := NewGameFrom(name, Options{Solitaire: true}, randDice{rand.New(rand.NewSource(seed))})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := s.Validate(); err != nil {
				t.Fatalf("%s seed %d: %v", name, seed, err)
			}
			if w := s.Wait(); w.Kind != WaitUSLanding {
				t.Fatalf("%s: waits for %v, want the U.S. landing (no Japanese setup in solitaire)", name, w)
			}
			vhs := s.soloHexes()
			if len(s.Solo.Fixed) != len(vhs) {
				t.Errorf("%s: %d fixed Unknown units for %d victory hexes", name, len(s.Solo.Fixed), len(vhs))
			}
			for id, h := range s.Solo.Fixed {
				u, _ := s.Unit(id)
				if u.Hex != h || !slices.Contains(vhs, h) || u.Kind() != Unknown || !u.FaceDown {
					t.Errorf("%s: fixed %s stands in %s, face down %v", name, id, u.Hex, u.FaceDown)
				}
			}
			onMap, off := 0, 0
			for _, u := range s.Units {
				switch {
				case u.Kind() == Unknown && u.OnMap():
					onMap++
				case u.Kind() == Unknown && u.Box == BoxOffMap:
					off++
				}
			}
			if extra := onMap - len(vhs); extra < 2 && off > 0 || extra > 11 {
				t.Errorf("%s seed %d: %d Unknown units beyond the victory hexes, %d off the map", name, seed, extra, off)
			}
			secrets := usSecrets(s)
			view, _ := json.Marshal(s.View(US))
			if found := leaks(view, secrets[1:]); len(found) > 0 {
				t.Errorf("%s: the U.S. view names %v", name, found)
			}
			for _, e := range VisibleEvents(evs, US) {
				b, _ := json.Marshal(e)
				if found := leaks(b, secrets[1:]); len(found) > 0 {
					t.Errorf("%s: a U.S. event names %v: %s", name, found, b)
				}
			}
			for _, u := range s.View(JP).Units {
				if u.Table != nil {
					t.Fatalf("%s: the Japanese view shows %s's table (rule 13.1)", name, u.ID)
				}
			}
			roundTrip(t, s)
		}
	}
}

// roundTrip checks that s survives JSON, as the store keeps it.
func roundTrip(t *testing.T, s *State) {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Attach(nil, nil); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(&back)
	if string(b) != string(b2) || !reflect.DeepEqual(back.Solo, s.Solo) || back.IsSolitaire() != s.IsSolitaire() {
		t.Fatalf("the solitaire state does not round-trip:\n%s\n%s", b, b2)
	}
}

// The options that would hand the Japanese a choice are refused with the
// solitaire option (RULINGS.md R71); the others are taken.
func TestSolitaireOptions(t *testing.T) {
	for _, opt := range []Options{
		{Solitaire: true, JPSetup: SetupFree},
		{Solitaire: true, VPChits: VPPlaced},
	} {
		if _, _, err := NewGameFrom(ScenarioCampaign, opt, randDice{rand.New(rand.NewSource(1))}); !errors.Is(err, ErrOptions) {
			t.Errorf("%+v: %v, want ErrOptions", opt, err)
		}
	}
	for _, opt := range []Options{
		{Solitaire: true, JPSetup: SetupHistoric, USSetup: SetupFree},
		{Solitaire: true, VPChits: VPDrawn},
	} {
		s, _, err := NewGameFrom(ScenarioCampaign, opt, randDice{rand.New(rand.NewSource(1))})
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		if !s.IsSolitaire() || s.Solo == nil {
			t.Errorf("%+v: not a solitaire game", opt)
		}
	}
}

// Validate refuses a solitaire state that names the wrong units or hexes,
// or stands in a game that is not solitaire.
func TestSolitaireValidate(t *testing.T) {
	s, _, err := NewGameFrom(ScenarioCampaign, Options{Solitaire: true}, randDice{rand.New(rand.NewSource(3))})
	if err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(*State){
		"fixed infantry":     func(s *State) { s.Solo.Fixed["J01"] = 2717 },
		"ad hoc Unknown":     func(s *State) { s.Solo.AdHoc = append(s.Solo.AdHoc, "U01") },
		"placed twice":       func(s *State) { s.Solo.Placed = []Hex{2717, 2717} },
		"placed not victory": func(s *State) { s.Solo.Placed = []Hex{2618} },
		"not solitaire":      func(s *State) { s.Options.Solitaire = false },
	} {
		c := s.Clone()
		spoil(c)
		if c.Validate() == nil {
			t.Errorf("%s: Validate accepts it", name)
		}
	}
	if err := s.Clone().Validate(); err != nil {
		t.Fatal(err)
	}
}

// The secret dice of the solitaire rules are the Japanese player's: the
// draws and the ambush table die; the counts and the infiltration die are
// rolled in the open (RULINGS.md R69).
func TestSolitaireDiceAudience(t *testing.T) {
	d := &ForcedDice{Values: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6}}
	s := NewState(nil, nil)
	s.SetSolitaire()
	s.Place("1/17-A", 2320, "")
	s.Place("U01", 0, BoxOffMap)
	s.Place("U02", 0, BoxOffMap)
	s.Place("J10", 0, BoxPool)
	s.Place("J11", 0, BoxEliminated)
	s.Place("J12", 0, BoxEliminated)
	u, _ := s.Unit("1/17-A")
	s.soloAmbush(u, 2319, d)
	s.soloInfiltrate(u, d)
	soloCount(d, 2717)
	s.soloReinforce(2717, d)
	want := map[DiePurpose]Audience{DieAmbush: AudienceJP, DieSoloDraw: AudienceJP, DieSoloCount: AudienceBoth, DieInfiltration: AudienceBoth}
	seen := map[DiePurpose]bool{}
	for _, r := range d.Log {
		if a, ok := want[r.Purpose]; ok && r.Seen != a {
			t.Errorf("die %s: seen by %s, want %s", r.Purpose, r.Seen, a)
		}
		seen[r.Purpose] = true
	}
	for p := range want {
		if !seen[p] {
			t.Errorf("no %s die rolled: the test does not exercise it", p)
		}
	}
}
