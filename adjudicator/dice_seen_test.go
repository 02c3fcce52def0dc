package adjudicator

import "testing"

// Dice the Japanese roll out of the U.S. player's sight are marked so: the
// Komandorski chits (12.1), the Unknown table and the pool draws (2.5).
// Every other die here is seen by both sides.
func TestSecretDiceAreMarked(t *testing.T) {
	d := &ForcedDice{Values: []int{3, 2}}
	DrawKomandorski(d)
	s := NewState(nil, nil)
	for _, id := range []string{"U01", "U02"} {
		if err := s.Place(id, 2717, ""); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range s.Units {
		if u.Kind() == Infantry && u.Side() == JP {
			u.Box = BoxPool
		}
	}
	s.revealUnknowns(2717, d)
	RollWeather(s, d)
	secret := map[string]bool{"Komandorski effect chit": true, "Komandorski delay chit": true,
		"Unknown unit table": true, "infantry unit drawn from the pool": true}
	seen := map[string]bool{}
	for _, r := range d.Log {
		seen[r.Purpose] = true
		if want := secret[r.Purpose]; (r.Seen == JP) != want {
			t.Errorf("die %q: Seen = %s, secret from the U.S. should be %v", r.Purpose, r.Seen, want)
		}
	}
	for p := range secret {
		if !seen[p] {
			t.Errorf("no %q die was rolled; the test does not exercise it", p)
		}
	}
}
