package standin_test

import (
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// TestUnknownFiresBesideUS plays Up the Hog's Back, the baseline U.S.
// against the Japanese stand-in, in the two-player game and in the
// solitaire game of rule 13. At each Japanese day actions step before the
// last (May 18, rule 15.1) it finds the hexes whose Unknown units stand
// beside U.S. units and may fire at one they see: in the two-player game
// the stand-in's orders have one of them fire (the infantry it turns into
// hold the hex, 2.5 and 8.5); in the solitaire game none fires, as the
// stand-in plays there only what rule 13 leaves it.
func TestUnknownFiresBesideUS(t *testing.T) {
	for _, solo := range []bool{false, true} {
		hexes, fired := 0, 0
		for game := 1; game <= 10; game++ {
			playAgainstBaseline(t, solo, int64(game)*7919, func(s *wind.State, o wind.Orders, _ *wind.State) {
				if w := s.Wait(); w.Side != wind.JP || w.Kind != wind.WaitActions || s.Night || s.Turn >= wind.TurnOfMay(18) {
					return
				}
				h, f := unknownFire(s, o)
				hexes += h
				fired += f
				if !solo && f < h {
					t.Errorf("game %d, turn %d: Unknown units beside U.S. units in %d hexes could fire, %d did", game, s.Turn, h, f)
				}
			})
		}
		switch {
		case hexes == 0:
			t.Errorf("solitaire %v: no Unknown unit beside U.S. units could fire in 10 games", solo)
		case solo && fired > 0:
			t.Errorf("solitaire game: Unknown units fired from %d of %d hexes before the last day turn", fired, hexes)
		}
		t.Logf("solitaire %v: %d hexes, %d fired", solo, hexes, fired)
	}
}

// unknownFire counts the hexes holding Japanese Unknown units beside U.S.
// units that may fire at a unit they see, outside the victory hexes, and
// how many of them o has fire (or assault).
func unknownFire(s *wind.State, o wind.Orders) (hexes, fired int) {
	firing := map[string]bool{}
	for _, a := range o.Actions {
		switch {
		case a.Fire != nil:
			for _, id := range a.Fire.Units {
				firing[id] = true
			}
		case a.Melee != nil: // an assault turns it into infantry as well
			for _, id := range a.Melee.Units {
				firing[id] = true
			}
		}
	}
	can, did := map[wind.Hex]bool{}, map[wind.Hex]bool{}
	for _, opt := range s.Outlook(wind.JP).Options {
		u, ok := s.Unit(opt.Unit)
		if !ok || u.Counter().Kind() != wind.Unknown || u.Hex == wind.EngineerHill || opt.Idle != "" {
			continue
		}
		for _, f := range opt.Fire {
			if f.Sees && s.Occupied(f.Target) == wind.US && f.Target.Adjacent(u.Hex) {
				can[u.Hex] = true
			}
		}
		if firing[u.ID] {
			did[u.Hex] = true
		}
	}
	for h := range can {
		hexes++
		if did[h] {
			fired++
		}
	}
	return hexes, fired
}
