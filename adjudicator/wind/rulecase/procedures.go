package rulecase

import (
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// The adjudicator calls the runner makes, in one place. Each returns an
// error too, so that a question the adjudicator cannot answer (as when a
// part of the rules is still being written) fails the case by name rather
// than passing unchecked; all of them answer now.

func rollWeather(s *wind.State, d wind.Dice) ([]wind.Event, error) {
	return []wind.Event{wind.RollWeather(s, d)}, nil
}

func rollAirpower(s *wind.State, d wind.Dice) ([]wind.Event, error) {
	return wind.RollAirpower(s, d), nil
}

func resolveActions(s *wind.State, o wind.Orders, d wind.Dice) (*wind.State, []wind.Event, []wind.Problem, error) {
	ns, evs, ps := wind.ResolveActions(s, o, d)
	return ns, evs, ps, nil
}

func checkActions(s *wind.State, o wind.Orders) ([]wind.Problem, error) {
	return wind.CheckActions(s, o), nil
}

func lineOfSight(m *wind.Map, a, b wind.Hex) (bool, string, error) {
	clear, why := wind.LOS(m, a, b)
	return clear, why, nil
}

func inSupply(s *wind.State, u *wind.Unit) (bool, error) {
	return s.InSupply(u), nil
}

// checkFire returns the adjudicator's refusal of f (nil when legal), and err
// when it cannot judge fire at all.
func checkFire(s *wind.State, f wind.Fire) (refusal, err error) {
	return s.CheckFire(f), nil
}
