// Package referee connects the rules (adjudicator), the order files
// (orders) and the record (store). It holds the engine that the game
// service applies orders with and that "attu audit" replays them with: one
// mapping, so that applying and auditing cannot disagree (DESIGN 2, 5).
//
// # Basics
//
// A game starts from Start (adjudicator.NewGame, whose Komandorski draw uses
// the game's committed dice, then the setup). Each accepted order file is
// redacted (orders.Redact) and applied with Engine().Resolve, which is
// adjudicator.Resolve: it carries out the orders and every step the server
// resolves by itself after them (weather and airpower after the U.S.
// decision, melee, victory and turn advance after the second player's
// actions). Wait says what the game then waits for.
//
//	eng := referee.Engine()
//	_, err := db.Apply(store.Step{Game: id, Orders: &o, Raw: orders.Redact(raw)},
//		func(s *adjudicator.State, d adjudicator.Dice) (store.Result, error) {
//			next, events, err := eng.Resolve(s, o, d)
//			...
//			return store.Result{State: next, Events: events, Next: referee.Wait(next)}, nil
//		})
//
// # Caveats
//
// The setup waits of rule 12 are not played yet: the caller places the
// units inside Start, and the audit checks the opening's dice (the
// Komandorski chits) but takes the placement as recorded.
package referee

import (
	"errors"
	"fmt"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
	"github.com/attu-pbem/attu/store"
)

// Engine returns the rules as the store applies and audits them.
func Engine() store.Engine {
	return store.Engine{
		Resolve: resolve,
		Next:    Wait,
		Opening: opening,
		// Each order file is decoded again, so the orders replayed are the
		// ones the player wrote, not only the ones the server recorded.
		Decode: decode,
	}
}

// Start returns the opening of a campaign game for store.NewGame.Start:
// adjudicator.NewGame with the game's dice, then setup (nil for none)
// placing the units.
func Start(setup func(s *adjudicator.State) error) func(d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, error) {
	return func(d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, error) {
		s, events := adjudicator.NewGame(nil, nil, d)
		if setup != nil {
			if err := setup(s); err != nil {
				return nil, nil, fmt.Errorf("setup: %w", err)
			}
		}
		return s, events, nil
	}
}

// Wait returns what a game in position s waits for, as the store records
// it: a side's orders of one kind, or nothing (an empty Kind) once the game
// is over.
func Wait(s *adjudicator.State) store.Wait {
	side, phase := s.WaitingFor()
	if phase == adjudicator.PhaseEnded || phase == "" {
		return store.Wait{Turn: s.Turn}
	}
	return store.Wait{Turn: s.Turn, Kind: phase, Side: side}
}

func resolve(s *adjudicator.State, o adjudicator.Orders, d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, error) {
	out, events, problems := adjudicator.Resolve(s, o, d)
	if len(problems) > 0 {
		errs := make([]error, len(problems))
		for i, p := range problems {
			errs[i] = p
		}
		return nil, nil, errors.Join(errs...)
	}
	return out, events, nil
}

// opening draws the Komandorski chits again with the dice entry 1 rolled
// and requires the opening position to hold them, at the start of turn 1.
func opening(s *adjudicator.State, d adjudicator.Dice) error {
	k := adjudicator.DrawKomandorski(d)
	if s.Komandorski != k {
		return fmt.Errorf("the dice draw Komandorski chits %+v, the position holds %+v", k, s.Komandorski)
	}
	if side, phase := s.WaitingFor(); s.Turn != 1 || side != adjudicator.US || phase != adjudicator.PhaseUSDecision {
		return fmt.Errorf("the game does not begin with the U.S. decision of turn 1 (rule 12.2)")
	}
	return nil
}

func decode(raw []byte) (*adjudicator.Orders, error) {
	f, err := orders.Parse(raw, orders.Options{})
	if err != nil {
		return nil, err
	}
	o := f.Orders()
	return &o, nil
}
