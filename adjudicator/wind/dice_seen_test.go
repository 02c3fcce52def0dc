package wind

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
	secret := map[DiePurpose]bool{DieKomandorskiEffect: true, DieKomandorskiDelay: true,
		DieUnknownTable: true, DiePoolDraw: true}
	seen := map[DiePurpose]bool{}
	for _, r := range d.Log {
		seen[r.Purpose] = true
		want := AudienceBoth
		if secret[r.Purpose] {
			want = AudienceJP
		}
		if r.Seen != want {
			t.Errorf("die %s: Seen = %s, secret from the U.S. should be %v", r.Purpose, r.Seen, secret[r.Purpose])
		}
		if secret[r.Purpose] && r.Side != JP {
			t.Errorf("die %s: rolled by %s, want the Japanese", r.Purpose, r.Side)
		}
	}
	for p := range secret {
		if !seen[p] {
			t.Errorf("no %s die was rolled; the test does not exercise it", p)
		}
	}
}

// A die that does not say who sees it is the umpire's alone (fail closed),
// and the audiences read and write their names.
func TestAudience(t *testing.T) {
	var zero Die
	if zero.Seen != AudienceUmpire {
		t.Errorf("a die without an audience is seen by %s, want the umpire alone", zero.Seen)
	}
	for _, a := range []Audience{AudienceUmpire, AudienceUS, AudienceJP, AudienceBoth} {
		b, err := a.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Audience
		if err := back.UnmarshalText(b); err != nil || back != a {
			t.Errorf("%s: read back as %s (%v)", b, back, err)
		}
	}
	var a Audience
	if err := a.UnmarshalText([]byte("everyone")); err == nil {
		t.Error("an unknown audience is read")
	}
}
