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
