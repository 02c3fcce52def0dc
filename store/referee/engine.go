// Package referee is the game service: the one place that connects a game
// system (System: its rules, order files and words), the record (store) and
// the mail. It holds the Service: games and players, the one entry point
// for incoming mail, the waits and their deadlines, and the players' and
// the umpire's commands. It sits under store as the store's one client: it
// owns what a committed step contains, the store how it is kept. It names
// no system: the systems come in through Config, as cmd/attu passes them
// (War in the Wind's is templates/wind.Rules): System, the default of new
// games, and Others besides. Each game records its system's name
// (store.Game.SystemName), and the service plays it by the hosted system
// of that name only; a game of a system not hosted is left as it is, its
// players' mail answered that it cannot be played here (ErrUnhosted). The
// service asks a game's system for everything only a system knows — how a game opens, what an
// order file says and whether the rules take it, the default and the
// stand-in's orders, each side's report, the log as a side reads it, the
// replay page. The same value is the store's Rules, with which the store
// applies orders and "attu audit" replays them, so that applying and
// auditing cannot disagree. It does no network I/O: it takes mails already
// fetched and parsed (Message) and leaves sending to the outbox worker.
//
// # Where to start for a new system
//
// Implement System over the system's packages (adjudicator/NAME,
// orders/NAME, templates/NAME), the way templates/wind does for War in the
// Wind, and pass it in Config.Others (or Config.System, to make it the
// default of new games).
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
// Each side's report is built by the system only from what the side may
// see; the side awaited gets its order template. A side may be played by
// the server's stand-in (System.StandIn), whose orders are applied in the
// same transaction as the step that made the game wait for it
// (standin.go).
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
// A War in the Wind game named by its scenario is created by the rules of
// setup and the audit creates it again from its dice. Without one, Create
// has the system place the units from a stream derived from the seed
// (setupPick); the audit then checks only the opening's dice (the
// Komandorski chits), and such a game cannot use the victory point chits
// (14.0). The service plays one system at a time (Config.System). The
// limits on the answers to strangers are counted in memory: a restart
// forgets them.
package referee
