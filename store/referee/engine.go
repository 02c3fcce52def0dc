// Package referee is the game service: the one place that connects the
// rules (adjudicator), the order files (orders) and the record (store), as
// DESIGN 2 asks. Today it holds the engine that the store applies orders
// with and that "attu audit" replays them with — one value, so that
// applying and auditing cannot disagree (DESIGN 5) — and the opening of a
// game. It is also where the rest of the service is to be built next:
// routing a parsed mail to its game, authenticating its sender and token,
// the waits and their deadlines, reminders and the default orders of a
// missed deadline (DESIGN 3.3), the mail commands of players and umpire,
// and the reports, one per side built from each step's Outcome and queued
// in the step's own transaction (store.Step.Reply).
//
// It sits under store because it is the store's one client that knows the
// rules: it owns what each committed step contains, while the store owns
// how it is kept. So the top level stays the design's (cmd, adjudicator,
// mail, orders, store, templates, examples), and network code stays in
// mail and cmd: the service takes mails already fetched and parsed, and
// leaves sending to the outbox worker.
//
// # Basics
//
// A game starts from Start (adjudicator.NewGame, whose Komandorski draw uses
// the game's committed dice, then the setup). Each accepted order file is
// redacted (orders.Redact) and applied with Engine, whose Resolve is
// adjudicator.Resolve: it carries out the orders and every step the server
// resolves by itself after them (weather and airpower after the U.S.
// decision, melee, victory and turn advance after the second player's
// actions). The store records the new position's Wait as what the game
// then waits for. A refusal comes back as a *store.RefusedError whose
// problems are at their line:col in the file (Engine's Locate).
//
//	_, err := db.Apply(store.Step{Game: id, Orders: &o, Raw: orders.Redact(raw), Received: t, Mail: &ref,
//		Reply: func(out *store.Outcome) (store.Reply, error) {
//			... // one report per side from out.State, out.Entry.Events, out.Dice
//		}}, referee.Engine())
//
// # Caveats
//
// The setup waits of rule 12 are not played yet: the caller places the
// units inside Start, and the audit checks the opening's dice (the
// Komandorski chits) but takes the placement as recorded.
package referee

import (
	"fmt"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
	"github.com/attu-pbem/attu/store"
)

// Engine returns the rules as the store applies and audits them.
func Engine() store.Engine {
	return store.Engine{
		Resolve: adjudicator.Resolve,
		Locate:  locate,
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

// locate places the rules' problems at their lines in the order file, as
// the orders package does for "attu check". A file that no longer parses
// (it was parsed before it was applied, so it does not happen) leaves the
// problems without places.
func locate(raw []byte, ps []adjudicator.Problem) []store.Problem {
	f, err := orders.Parse(raw, orders.Options{})
	if err != nil {
		return nil
	}
	out := make([]store.Problem, len(ps))
	for i, p := range ps {
		line, col := f.Locate(p)
		out[i] = store.Problem{Line: line, Col: col, Msg: p.Msg}
	}
	return out
}

// opening draws the Komandorski chits again with the dice entry 1 rolled
// and requires the opening position to hold them, at the start of turn 1.
func opening(s *adjudicator.State, d adjudicator.Dice) error {
	k := adjudicator.DrawKomandorski(d)
	if s.Komandorski != k {
		return fmt.Errorf("the dice draw Komandorski chits %+v, the position holds %+v", k, s.Komandorski)
	}
	if s.Wait() != (adjudicator.Wait{Turn: 1, Side: adjudicator.US, Kind: adjudicator.WaitUSDecision}) {
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
