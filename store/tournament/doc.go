// Package tournament runs umpired tournaments of attu games: many games
// under one umpire, every player in several of them, standings after every
// game, and a digest for the umpire once a day.
//
// It sits on the game service's entry points only (package
// store/referee): each game is created with Service.Create and played by
// mail like any other, with its own seed, tokens and welcome mails, the
// service's transactions, authentication and fog of war unchanged. The
// tournament learns of the games through the service's Hook, which a
// Director implements.
//
// # Basics
//
// A tournament is described by a file (examples/tournament.yaml explains
// every field), read strictly by Parse: unknown keys and keys given twice
// are errors at their line and column. It names the umpire and the players
// (addresses and time zones), the rounds (a scenario each), the pairing
// (round robin or Swiss), whether each pairing is played from both sides
// or the sides drawn, the deadlines and optional rules of every game, when
// the digest goes out, the scoring and the tie-breaks. Its system: line
// names the game system of every game (War in the Wind's when absent),
// one of those the director and the service host.
//
//	dir := &tournament.Director{Games: windsys.Rules{}}
//	svc := referee.New(db, referee.Config{System: windsys.Rules{}, Address: "attu@example.org", Hook: dir})
//	f, err := tournament.Parse(data, windsys.Rules{})
//	t, err := dir.New(svc, f, "attu@example.org", time.Now())
//
// New records the tournament, mails the umpire round 1's pairings and
// creates its games (ids ID-rN-K).
// When a game ends, Director.Ended records the result and queues the
// standings for every player and the umpire in the transaction that ended
// it; when that game was the round's last, it pairs the next round
// (advance: auto) and mails the umpire its games, or tells the umpire the
// round ended (advance: umpire). "standings", sent to any game of the
// tournament, is answered with the table. After each Service.Tick,
// Director.Tick creates the games of a round paired but not created yet
// and mails the umpire's digest. The umpire may begin the next round at
// any time with Next (attu tournament next), or by mailing "next" with
// the umpire's token to any game of the tournament (NextRound): the round
// is paired in that mail's transaction, the answer is its pairings, and
// the next tick creates its games.
//
// # Drawing the sides
//
// With sides: drawn, New draws a secret 32-byte seed (the record keeps
// it), committed to in the mails and revealed in the final standings.
// referee.SeedDraw(seed, "sides G", 0) even gives the U.S. of game G to
// the player whose name sorts first (the README tells a player how to
// check it). Nothing else is left to chance: Swiss pairs and breaks ties
// by the standings and the names.
//
// # Scoring
//
// A game's result is read from the game (referee.EndingOf): the rules'
// winner; when the rules name a level of victory (War in the Wind's
// victory point chits of its rule 14.0, an Island War scenario's victory
// conditions), its grade (major, minor or marginal), each scoring the
// file's [winner, loser] points, and the standings speak of levels in the
// system's words (Games.LevelWords); a concession is a win for the other
// side; a game the umpire ends with "end us", "end jp" or "end draw" is
// scored so, and with other words it is void. By default a win scores 3, a draw 1, a loss 0 and a bye 3.
//
// Players level on points are ranked by the file's tie-breaks, in order
// (default: head-to-head, wins, buchholz, lateness); TieBreaks says what
// each means, and the standings mail repeats it. Lateness counts, in the standings as in the digest, the deadlines missed
// in the games scored and not void; the digest also notes those missed so
// far in each game being played. Players level on everything share a
// place, shown with "=", and are listed by name.
//
// # Pairings
//
// A round robin pairs by the circle method in the order of the file's
// players (with an odd number, one player a round has a bye). A Swiss
// tournament pairs round 1 top half against bottom half, and every later
// round down the standings, each player meeting the nearest player below
// not met yet (backing up when the rest cannot be paired; rematches only
// when nothing else works); with an odd number the lowest-ranked player
// without a bye gets one.
//
// # The umpire's digest
//
// Once a day at the file's time in the umpire's zone the umpire gets one
// mail (templates.Digest says what it holds); attu tournament status -v
// prints the same. The umpire's mail "digest" brings it at the next tick,
// since a command's transaction holds one game and the digest reads them
// all.
//
// # Storage
//
// A tournament is kept on the store's shelf "tournaments" (store.Shelf):
// "t/ID" holds the record (the file as read, the rounds with their
// pairings and results, when the last digest was due), "g/GAME" the
// tournament of each game. Results are written with the standings mails in
// the transaction that ends the game; the digest with when it was due, so
// a restart sends none twice. A round is written down before its games are
// created, so a crash midway leaves games that the next Tick creates.
//
// # Caveats
//
// The standings say of each game only who played it, with which side, and
// how it ended; the digest goes to the umpire alone. A Director keeps
// nothing in memory, but the daemon must run with it as the service's hook
// (attu serve does) for the standings to go out as games end; a game ended
// without it is scored at the next tick.
package tournament
