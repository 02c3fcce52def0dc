package standin_test

import (
	"math/rand"

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
