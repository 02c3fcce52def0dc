package rulecase

import (
	"errors"

	"github.com/attu-pbem/attu/adjudicator"
)

// errNotAvailable marks a procedure or question the adjudicator cannot
// answer yet; a case that needs it fails rather than passing unchecked.
var errNotAvailable = errors.New("not available in this version of the adjudicator")

// The adjudicator calls the runner makes, in one place so that a case names
// plainly which part of the rules it could not exercise.

func rollWeather(s *adjudicator.State, d adjudicator.Dice) ([]adjudicator.Event, error) {
	return nil, errNotAvailable
}

func rollAirpower(s *adjudicator.State, d adjudicator.Dice) ([]adjudicator.Event, error) {
	return nil, errNotAvailable
}

func resolveActions(s *adjudicator.State, o adjudicator.Orders, d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, []adjudicator.Problem, error) {
	return nil, nil, nil, errNotAvailable
}

func lineOfSight(m *adjudicator.Map, a, b adjudicator.Hex) (bool, string, error) {
	return false, "", errNotAvailable
}

func inSupply(s *adjudicator.State, u *adjudicator.Unit) (bool, error) {
	if q, ok := any(s).(interface {
		InSupply(*adjudicator.Unit) bool
	}); ok {
		return q.InSupply(u), nil
	}
	return false, errNotAvailable
}

// checkFire returns the adjudicator's refusal of f (nil when legal), and err
// when it cannot judge fire at all.
func checkFire(s *adjudicator.State, f adjudicator.Fire) (refusal, err error) {
	if q, ok := any(s).(interface {
		CheckFire(adjudicator.Fire) error
	}); ok {
		return q.CheckFire(f), nil
	}
	return nil, errNotAvailable
}
