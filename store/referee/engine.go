// Package referee is the game service: the one place that connects the
// rules (adjudicator), the order files (orders) and the record (store). It
// holds the engine that the store applies orders with and that "attu
// audit" replays them with — one value, so that applying and auditing
// cannot disagree — the opening of a game, and the Service: games and
// players, the one entry point for incoming mail, the waits and their
// deadlines, and the players' and the umpire's commands.
//
// It sits under store because it is the store's one client that knows the
// rules: it owns what each committed step contains, while the store owns
// how it is kept. So the top level stays the design's (cmd, adjudicator,
// mail, orders, store, templates, examples), and network code stays in
// mail and cmd: the service takes mails already fetched and parsed
// (Message), and leaves sending to the outbox worker.
//
// # Basics
//
// Create makes a game: the seed and its commitment, the units placed
// (Setups), a secret token per side stored only as a hash, the first
// deadline, and the welcome mails in the outbox. Handle takes one
// incoming Message and the time: it routes it to its game (attu+GAME@host,
// [attu GAME] in the subject, or the file's game), authenticates it (the
// side's registered address and its token), and then, in one store
// transaction (store.DB.Transact), records it in the ledger and applies it
// with its dice, events, snapshot and every mail it causes — or refuses
// it, touching only the ledger and the outbox. Tick(now) does what time
// brings: held files applied, takebacks lapsed, reminders, and the default
// orders of a missed deadline (waitDefaults). Both can be called again
// after a crash: the ledger and the stored deadlines make them idempotent.
//
//	svc := referee.New(db, referee.Config{Address: "attu@example.org"})
//	c, err := svc.Create(referee.NewGame{US: "a@x.org", JP: "b@x.org"}, time.Now())
//	err = svc.Handle(&referee.Message{From: ..., To: ..., MessageID: ..., Orders: yaml}, time.Now())
//	err = svc.Tick(time.Now())
//
// Each accepted orders file is redacted (orders.Redact) and applied with
// Engine, whose Resolve is adjudicator.Resolve: it carries out the orders
// and every step the server resolves by itself after them. Each side then
// gets a report built only from its View and the events it may see
// (adjudicator.VisibleEvents); the side awaited gets its order template.
// The words of every mail are in mails.go.
//
// A side may be played by the server's stand-in (package
// adjudicator/standin): after each step, while the game waits for that
// side, the service writes the stand-in's orders as an order file and
// applies it in the same transaction (standin.go).
//
// # Authentication and answers
//
// An orders file must come from the registered address of the side it
// names and carry that side's token; a command that changes the game must
// carry the sender's token on a line of its own, outside quoted text.
// Mail that names no game its sender plays in gets one generic answer, at
// most once per Config.AnswerEvery for each sender and Config.Strangers
// times an hour for all of them; it tells nothing about any game, not
// even whether it exists. Mail from a player's registered address that
// does not authenticate is told which check failed (no token, an empty
// one, the template's placeholder, a wrong one, another side's, a file
// for another side) and where the token is, a few times an hour
// (Config.TokenAnswers): that answer goes to the registered address
// only, where a forger cannot read it. A message already in the ledger,
// by its Message-ID, is ignored; the same file under a new Message-ID is
// answered "already applied".
//
// # Budgets
//
// Nothing one mail sends is large, and nothing a stream of mail sends is
// many: a refusal lists the first templates.MaxListed mistakes (the
// orders package stops collecting at orders.MaxErrors) and says how many
// more; every answer but a report stays within templates.MaxReply; each
// side of a game gets Config.Replies answers an hour to its commands and
// refused files, then one note to slow down, and its mails go unanswered
// and not carried out until the pace drops.
//
// # The service's record
//
// What the service keeps about a game beyond the store's record — its
// name, per-wait deadlines, whether the reminder went, lateness, absences,
// a file held for the settle window, an open takeback, the notices for the
// next reports — is a JSON record in store.Game.Service, written in the
// same transactions as the game. Every command that needs the token is
// in the log: one that changes the game as a note, a rollback or the end
// entry, which every side reads in its next report; one that changes
// nothing as a private note (store.Entry.Private) only its sender and the
// umpire read. A command anybody may send from a player's address (help,
// status, resend, template, log) is in the ledger only, like a command
// refused: the chained log keeps nothing a forger can repeat at will. The
// log answer numbers the entries its reader may read, without gaps where
// the other side's private notes are.
//
// # Caveats
//
// A game named by its scenario (NewGame.Scenario) is created by the rules
// of setup (Start, adjudicator.NewGameFrom) and waits for the Japanese
// setup or the U.S. landing; the audit creates it again from its dice.
// Without a scenario Create places the units itself with a Setup (the
// historic Japanese setup of 12.3 with the U.S. already ashore near its
// beaches, or a random one), drawing from a stream derived from the seed;
// the audit then checks the opening's dice (the Komandorski chits) but
// takes the placement as recorded, and such a game cannot use the victory
// point chits (14.0). The rate limits of the answers are counted in
// memory: a restart forgets them.
package referee

import (
	"bytes"
	"encoding/json"
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

// Start returns the opening of a game for store.NewGame.Start:
// adjudicator.NewGameFrom with the scenario ("campaign" or a short one),
// the options and the game's dice. The game then waits for its setup
// orders (rule 12). The audit replays the same creation (opening).
func Start(scenario string, opt adjudicator.Options) func(d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, error) {
	return func(d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, error) {
		return adjudicator.NewGameFrom(scenario, opt, d)
	}
}

// StartPlaced returns the opening of a campaign game whose units setup
// places by hand (nil for none) for store.NewGame.Start:
// adjudicator.NewGame with the game's dice, then setup. The game begins
// with the U.S. decision of turn 1; the audit checks the Komandorski chits
// and takes the placement as recorded. Tests and the stand-in setups of
// Setups use it.
func StartPlaced(setup func(s *adjudicator.State) error) func(d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, error) {
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
	return located(f, ps)
}

// opening checks the opening position against the dice entry 1 rolled: a
// game created by the rules (Start) is created again and must come out
// the same; a game placed by hand (StartPlaced) must hold the Komandorski
// chits its dice draw, at the start of turn 1.
func opening(s *adjudicator.State, d adjudicator.Dice) error {
	if s.Options != nil {
		return openingFrom(s, d)
	}
	k := adjudicator.DrawKomandorski(d)
	if s.Komandorski != k {
		return fmt.Errorf("the dice draw Komandorski chits %+v, the position holds %+v", k, s.Komandorski)
	}
	if s.Wait() != (adjudicator.Wait{Turn: 1, Side: adjudicator.US, Kind: adjudicator.WaitUSDecision}) {
		return fmt.Errorf("the game does not begin with the U.S. decision of turn 1 (rule 12.2)")
	}
	return nil
}

// openingFrom creates the game again from its scenario and options with
// the dice entry 1 rolled, and requires the same position.
func openingFrom(s *adjudicator.State, d adjudicator.Dice) error {
	name := s.Scenario
	if name == "" {
		name = adjudicator.ScenarioCampaign
	}
	again, _, err := adjudicator.NewGameFrom(name, *s.Options, d)
	if err != nil {
		return fmt.Errorf("the game cannot be created again: %w", err)
	}
	a, err1 := json.Marshal(again)
	b, err2 := json.Marshal(s)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("the opening position cannot be compared: %v %v", err1, err2)
	}
	if !bytes.Equal(a, b) {
		return fmt.Errorf("the dice create %s otherwise than the opening position holds it (rule 12)", adjudicator.ScenarioTitle(name))
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
