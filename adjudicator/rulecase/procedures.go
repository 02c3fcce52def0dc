package rulecase

import (
	"github.com/attu-pbem/attu/adjudicator"
)

// The adjudicator calls the runner makes, in one place. Each returns an
// error too, so that a question the adjudicator cannot answer (as when a
// part of the rules is still being written) fails the case by name rather
// than passing unchecked; all of them answer now.

func rollWeather(s *adjudicator.State, d adjudicator.Dice) ([]adjudicator.Event, error) {
	return []adjudicator.Event{adjudicator.RollWeather(s, d)}, nil
}

func rollAirpower(s *adjudicator.State, d adjudicator.Dice) ([]adjudicator.Event, error) {
	return adjudicator.RollAirpower(s, d), nil
}

func resolveActions(s *adjudicator.State, o adjudicator.Orders, d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, []adjudicator.Problem, error) {
	ns, evs, ps := adjudicator.ResolveActions(s, o, d)
	return ns, evs, ps, nil
}

func checkActions(s *adjudicator.State, o adjudicator.Orders) ([]adjudicator.Problem, error) {
	return adjudicator.CheckActions(s, o), nil
}

func lineOfSight(m *adjudicator.Map, a, b adjudicator.Hex) (bool, string, error) {
	clear, why := adjudicator.LOS(m, a, b)
	return clear, why, nil
}

func inSupply(s *adjudicator.State, u *adjudicator.Unit) (bool, error) {
	return s.InSupply(u), nil
}

// checkFire returns the adjudicator's refusal of f (nil when legal), and err
// when it cannot judge fire at all.
func checkFire(s *adjudicator.State, f adjudicator.Fire) (refusal, err error) {
	return s.CheckFire(f), nil
}
