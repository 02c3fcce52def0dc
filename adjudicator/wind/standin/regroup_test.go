package standin_test

import (
	"slices"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// TestRegroup plays Up the Hog's Back, the baseline U.S. against the
// Japanese stand-in, and checks its refit turns (rule 9.6): its orders
// pass the rules as they are, and whenever Engineer Hill is open to
// Unknown units and holds fewer than two while an Unknown unit stands
// more than two hexes from it, or one off the map may come back there by
// a swap, the hill holds more Unknown units after the refit than
// before.
func TestRegroup(t *testing.T) {
	cases := 0
	for game := 1; game <= 200 && cases < 5; game++ {
		playAgainstBaseline(t, false, int64(game)*7919, func(s *wind.State, o wind.Orders, ns *wind.State) {
			if s.Wait().Kind != wind.WaitJPRefit {
				return
			}
			if ps := wind.CheckOrders(s, o); len(ps) > 0 {
				t.Fatalf("game %d, %s: the stand-in's refit orders refused: %v", game, s.WaitText(), ps)
			}
			before, far := unknownsAt(s, wind.EngineerHill)
			if s.UnknownBan(wind.EngineerHill) != "" || before >= 2 || !far && !swappable(s, wind.EngineerHill) {
				return
			}
			cases++
			if after, _ := unknownsAt(ns, wind.EngineerHill); after <= before {
				t.Errorf("game %d, turn %d: Engineer Hill held %d Unknown units before the refit and %d after", game, s.Turn, before, after)
			}
		})
	}
	if cases == 0 {
		t.Fatal("no Japanese refit turn with Engineer Hill open and an Unknown unit that could come to it in 200 games")
	}
	t.Logf("%d Japanese refit turns checked", cases)
}

// swappable reports whether an Unknown unit off the map may come back to
// h by a swap (rule 9.6): one is off the map, and Japanese infantry stand
// outside h within reach of it.
func swappable(s *wind.State, h wind.Hex) bool {
	off := false
	for _, u := range s.Units {
		if u.Side() == wind.JP && u.Counter().Kind() == wind.Unknown && u.Box == wind.BoxOffMap {
			off = true
		}
	}
	if !off {
		return false
	}
	for _, u := range s.Units {
		if u.OnMap() && u.Hex != h && u.Side() == wind.JP && u.Counter().Kind() == wind.Infantry && slices.Contains(s.SwapHexes(u.Hex), h) {
			return true
		}
	}
	return false
}

// unknownsAt counts the Unknown units in h and says whether one stands
// more than two hexes from it.
func unknownsAt(s *wind.State, h wind.Hex) (int, bool) {
	n, far := 0, false
	for _, u := range s.Units {
		if u.OnMap() && u.Counter().Kind() == wind.Unknown {
			if u.Hex == h {
				n++
			} else if u.Hex.Distance(h) > 2 {
				far = true
			}
		}
	}
	return n, far
}
