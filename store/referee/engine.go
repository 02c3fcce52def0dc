// Package referee is the game service: the one place that connects the
// rules (adjudicator), the order files (orders) and the record (store). It
// holds the engine the store applies orders with and "attu audit" replays
// them with — one value, so that applying and auditing cannot disagree —
// the opening of a game, and the Service: games and players, the one
// entry point for incoming mail, the waits and their deadlines, and the
// players' and the umpire's commands. It sits under store as the store's
// one client that knows the rules: it owns what a committed step contains,
// the store how it is kept. It does no network I/O: it takes mails already
// fetched and parsed (Message) and leaves sending to the outbox worker.
//
// # Basics
//
// Create makes a game: the seed and its commitment, the units placed, a
// secret token per side stored only as a hash, the first deadline and the
// welcome mails. Handle takes one incoming Message: it routes it to its
// game (attu+GAME@host, [attu GAME] in the subject, or the file's game),
// authenticates it (the side's registered address and its token), and in
// one store transaction records it in the ledger and applies it with
// every mail it causes — or refuses it, touching only the ledger and the
// outbox. Tick(now) does what time brings: held files applied, takebacks
// lapsed, reminders, and the default orders of a missed deadline
// (waitDefaults). Both may be called again after a crash: the ledger and
// the stored deadlines make them idempotent.
//
//	svc := referee.New(db, referee.Config{Address: "attu@example.org"})
//	c, err := svc.Create(referee.NewGame{US: "a@x.org", JP: "b@x.org"}, time.Now())
//	err = svc.Handle(&referee.Message{From: ..., To: ..., MessageID: ..., Orders: yaml}, time.Now())
//	err = svc.Tick(time.Now())
//
// Each side's report is built only from its View and the events it may
// see (wind.VisibleEvents); the side awaited gets its order
// template. A side may be played by the server's stand-in
// (adjudicator/wind/standin), whose orders are applied in the same transaction
// as the step that made the game wait for it (standin.go).
//
// # Authentication and answers
//
// An orders file must come from the registered address of the side it
// names and carry that side's token; so must a command that changes the
// game or mails a report or a file, on a line of its own outside quoted
// text. Mail naming no game its sender plays in gets one generic answer
// that tells nothing about any game; mail from a player's address that
// does not authenticate is told, at that address only, which check
// failed, in words that repeat only a glimpse of its subject. Nothing one
// mail sends is large (templates.MaxReply, templates.MaxListed), and
// nothing a stream of mail sends is many: every answer is rate-limited
// (Config), the answers to players' addresses by quotas kept in the
// database (store.Quota), so that a restart forgets none; those answers go
// after the reports when the sending quota holds mail back
// (store.ClassAnswer).
//
// # The service's record
//
// What the service keeps about a game beyond the store's record — its
// name, deadlines, reminders, lateness, absences, a file held for the
// settle window, an open takeback, the notices for the next reports — is a
// JSON record in store.Game.Service, written in the game's transactions.
// How commands are recorded is said in commands.go.
//
// # Caveats
//
// A game named by its scenario is created by the rules of setup (Start)
// and the audit creates it again from its dice. Without one, Create places
// the units with a Setup from a stream derived from the seed; the audit
// then checks only the opening's dice (the Komandorski chits), and such a
// game cannot use the victory point chits (14.0). The limits on the
// answers to strangers are counted in memory: a restart forgets them.
package referee

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/attu-pbem/attu/adjudicator/wind"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/store"
)

// Engine returns the rules as the store applies and audits them.
func Engine() store.Engine {
	return store.Engine{
		Resolve: wind.Resolve,
		Locate:  locate,
		Opening: opening,
		// Each order file is decoded again, so the orders replayed are the
		// ones the player wrote, not only the ones the server recorded.
		Decode: decode,
	}
}

// Start returns the opening of a game by the rules of setup (rule 12) for
// store.NewGame.Start: wind.NewGameFrom with the game's dice.
func Start(scenario string, opt wind.Options) func(d wind.Dice) (*wind.State, []wind.Event, error) {
	return func(d wind.Dice) (*wind.State, []wind.Event, error) {
		return wind.NewGameFrom(scenario, opt, d)
	}
}

// StartPlaced returns the opening of a campaign game whose units setup
// places by hand (nil for none) for store.NewGame.Start:
// wind.NewGame with the game's dice, then setup. The game begins
// with the U.S. decision of turn 1; the audit checks the Komandorski chits
// and takes the placement as recorded (Setups).
func StartPlaced(setup func(s *wind.State) error) func(d wind.Dice) (*wind.State, []wind.Event, error) {
	return func(d wind.Dice) (*wind.State, []wind.Event, error) {
		s, events := wind.NewGame(nil, nil, d)
		if setup != nil {
			if err := setup(s); err != nil {
				return nil, nil, fmt.Errorf("setup: %w", err)
			}
		}
		return s, events, nil
	}
}

// locate places the rules' problems at their lines in the order file; a
// file that no longer parses (which does not happen) leaves them unplaced.
func locate(raw []byte, ps []wind.Problem) []store.Problem {
	f, err := windorders.Parse(raw, windorders.Options{})
	if err != nil {
		return nil
	}
	return located(f, ps)
}

// opening checks the opening position against the dice entry 1 rolled: a
// game created by the rules (Start) must come out the same again, one
// placed by hand (StartPlaced) hold the Komandorski chits its dice draw.
func opening(s *wind.State, d wind.Dice) error {
	if s.Options != nil {
		return openingFrom(s, d)
	}
	k := wind.DrawKomandorski(d)
	if s.Komandorski != k {
		return fmt.Errorf("the dice draw Komandorski chits %+v, the position holds %+v", k, s.Komandorski)
	}
	if s.Wait() != (wind.Wait{Turn: 1, Side: wind.US, Kind: wind.WaitUSDecision}) {
		return fmt.Errorf("the game does not begin with the U.S. decision of turn 1 (rule 12.2)")
	}
	return nil
}

// openingFrom creates the game again from its scenario and options with
// the dice entry 1 rolled, and requires the same position.
func openingFrom(s *wind.State, d wind.Dice) error {
	name := cmp.Or(s.Scenario, wind.ScenarioCampaign)
	again, _, err := wind.NewGameFrom(name, *s.Options, d)
	if err != nil {
		return fmt.Errorf("the game cannot be created again: %w", err)
	}
	a, err1 := json.Marshal(again)
	b, err2 := json.Marshal(s)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("the opening position cannot be compared: %v %v", err1, err2)
	}
	if !bytes.Equal(a, b) {
		return fmt.Errorf("the dice create %s otherwise than the opening position holds it (rule 12)", wind.ScenarioTitle(name))
	}
	return nil
}

func decode(raw []byte) (*wind.Orders, error) {
	f, err := windorders.Parse(raw, windorders.Options{})
	if err != nil {
		return nil, err
	}
	o := f.Orders()
	return &o, nil
}
