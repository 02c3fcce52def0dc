package standin_test

import (
	"math/rand"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/standin"
	"github.com/attu-pbem/attu/adjudicator/wind/standin/internal/baseline"
)

// randDice rolls random dice.
type randDice struct{ r *rand.Rand }

func (d randDice) Roll(wind.Die) int { return 1 + d.r.Intn(10) }

// standinOrders is the stand-in's orders for s as the server gets them:
// decided from side's view and outlook, trimmed by the rules' check.
func standinOrders(s *wind.State, side wind.Side, seed uint64) wind.Orders {
	ord := standin.Decide(s.View(side), s.Outlook(side), seed)
	return standin.Trim(ord, s.DefaultOrders(), func(o wind.Orders) []wind.Problem {
		return wind.CheckOrders(s, o)
	})
}

// baselineOrders is what the baseline stand-in (package
// internal/baseline) orders for s, as standinOrders.
func baselineOrders(s *wind.State, side wind.Side, seed uint64) wind.Orders {
	ord := baseline.Decide(s.View(side), s.Outlook(side), seed)
	return baseline.Trim(ord, s.DefaultOrders(), func(o wind.Orders) []wind.Problem {
		return wind.CheckOrders(s, o)
	})
}

// playAgainstBaseline plays Up the Hog's Back from its creation to its
// end, the baseline U.S. against the Japanese stand-in (in the solitaire
// game of rule 13 with solo), with random dice from seed, as TestStrength
// plays it; watch sees each position, the orders given there and the
// position they lead to. Orders the rules refuse fail the test.
func playAgainstBaseline(t *testing.T, solo bool, seed int64, watch func(s *wind.State, o wind.Orders, next *wind.State)) {
	t.Helper()
	if out := playGame(wind.ScenarioUpTheHogsBack, base, stand, solo, seed, watch); out.err != nil {
		t.Fatalf("seed %d: %v", seed, out.err)
	}
}
