package standin_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/adjudicator/wind/standin"
)

var fogTurns = flag.Int("fogturns", 500, "game turns TestStandinIgnoresHidden plays (50 under -short)")

// TestStandinIgnoresHidden is the non-interference property for the
// stand-in: its orders depend only on what its side may see. Over
// generated games of every scenario (the stand-in against the
// legal-random player, each side in turn), before each step it builds a
// twin of the position that differs only in what the side awaited may not
// see, and requires the stand-in to give, byte for byte, the same orders
// in both, before and after Trim judges them on each position.
//
// What is swapped: for the U.S., which Japanese counter is which among
// those it cannot identify — face-down or Unknown on the map, anything off
// the map — of the same class and steps (their places, faces and
// activations trade ids), and the Komandorski chits not yet revealed; for
// the Japanese, which U.S. units of the same class and steps stand in
// which off-map box (the Japanese count each box's units and steps, no
// more).
//
// Decide takes only a View and an Outlook, so this holds by construction
// as long as they hold nothing hidden; the test checks that, the
// determinism of the choices, and that Trim's check answers alike.
func TestStandinIgnoresHidden(t *testing.T) {
	target := *fogTurns
	if testing.Short() {
		target = min(target, 50)
	}
	turns, swapped, steps := 0, 0, 0
	sides := map[wind.Side]int{}
	names := wind.ScenarioNames()
	for g := 0; turns < target; g++ {
		r := rand.New(rand.NewSource(int64(g) + 1))
		d := randDice{r}
		s, _, err := wind.NewGameFrom(names[g%len(names)], wind.Options{}, d)
		if err != nil {
			t.Fatal(err)
		}
		standinSide := []wind.Side{wind.US, wind.JP}[g%2]
		for n := 0; !s.Over() && turns < target && n < 400; n++ {
			side := s.Wait().Side
			seed := r.Uint64()
			twin, k := hiddenTwin(s, side, r)
			swapped += k
			where := fmt.Sprintf("game %d (%s), step %d, %s", g, names[g%len(names)], n, s.WaitText())
			compareDecisions(t, where, s, twin, side, seed)
			sides[side]++
			steps++
			var o wind.Orders
			if side == standinSide {
				o = standinOrders(s, side, seed)
			} else {
				o = autoplay.Orders(s, r.Intn)
			}
			ns, _, ps := wind.Resolve(s, o, d)
			if len(ps) > 0 {
				t.Fatalf("%s: %v", where, ps)
			}
			if ns.Turn != s.Turn || ns.Over() {
				turns++
			}
			s = ns
		}
	}
	t.Logf("%d turns, %d steps (U.S. %d, Japanese %d), %d counters swapped", turns, steps, sides[wind.US], sides[wind.JP], swapped)
	if swapped < steps {
		t.Errorf("only %d counters swapped in %d steps: the test proves little", swapped, steps)
	}
	if sides[wind.US] < target || sides[wind.JP] < target {
		t.Errorf("too few decisions of one side: %v", sides)
	}
}

// compareDecisions requires the stand-in to decide alike on s and its
// twin for side.
func compareDecisions(t *testing.T, where string, s, twin *wind.State, side wind.Side, seed uint64) {
	t.Helper()
	v1, v2 := mustJSON(t, s.View(side)), mustJSON(t, twin.View(side))
	if !bytes.Equal(v1, v2) {
		t.Fatalf("%s: the twin shows %s another view: the swap is wrong\n%s\n%s", where, side, v1, v2)
	}
	a := standin.Decide(s.View(side), s.Outlook(side), seed)
	b := standin.Decide(twin.View(side), twin.Outlook(side), seed)
	if ja, jb := mustJSON(t, a), mustJSON(t, b); !bytes.Equal(ja, jb) {
		t.Fatalf("%s: the stand-in decides otherwise when what %s may not see changes:\n%s\n%s", where, side, ja, jb)
	}
	ta, tb := standinOrders(s, side, seed), standinOrders(twin, side, seed)
	if ja, jb := mustJSON(t, ta), mustJSON(t, tb); !bytes.Equal(ja, jb) {
		t.Fatalf("%s: the trimmed orders differ:\n%s\n%s", where, ja, jb)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hiddenTwin returns s with what side may not see shuffled (see
// TestStandinIgnoresHidden) and how many units changed place.
func hiddenTwin(s *wind.State, side wind.Side, r *rand.Rand) (*wind.State, int) {
	c := s.Clone()
	groups := map[string][]*wind.Unit{}
	var keys []string
	for _, u := range c.Units {
		if !hiddenFrom(u, side) {
			continue
		}
		k := fmt.Sprintf("%s/%d", u.Counter().Class.ID, u.Steps)
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], u)
	}
	moved := 0
	for _, k := range keys {
		us := groups[k]
		type place struct {
			hex                 wind.Hex
			box                 string
			down, acted, fought bool
			mp                  int
			melee               wind.Hex
		}
		ps := make([]place, len(us))
		for i, u := range us {
			ps[i] = place{u.Hex, u.Box, u.FaceDown, u.Acted, u.Fought, u.MPSpent, u.Melee}
		}
		r.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		for i, u := range us {
			p := ps[i]
			if u.Hex != p.hex || u.Box != p.box {
				moved++
			}
			u.Hex, u.Box, u.FaceDown, u.Acted, u.Fought, u.MPSpent, u.Melee = p.hex, p.box, p.down, p.acted, p.fought, p.mp, p.melee
		}
	}
	if side == wind.US {
		if !c.Komandorski.EffectRevealed {
			c.Komandorski.Effect = []int{24, 27, 30}[r.Intn(3)]
		}
		if !c.Komandorski.DelayRevealed {
			c.Komandorski.Delay = 1 + r.Intn(4)
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	twin := new(wind.State)
	if err := json.Unmarshal(b, twin); err != nil {
		panic(err)
	}
	if err := twin.Attach(wind.BuiltinMap(), wind.BuiltinCounters()); err != nil {
		panic(err)
	}
	return twin, moved
}

// hiddenFrom reports whether side may not tell u from another unit of
// its class and steps: for the U.S., a Japanese unit face down or
// Unknown on the map, or any Japanese unit off it; for the Japanese, a
// U.S. unit off the map in a box they only count (not the unused ones).
func hiddenFrom(u *wind.Unit, side wind.Side) bool {
	if u.Captured {
		return false
	}
	switch side {
	case wind.US:
		if u.Side() != wind.JP {
			return false
		}
		return !u.OnMap() || u.FaceDown || u.Kind() == wind.Unknown
	case wind.JP:
		return u.Side() == wind.US && !u.OnMap() && u.Box != wind.BoxUnused
	}
	return false
}
