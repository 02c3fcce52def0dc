// Package tournament runs umpired tournaments of attu games: many games
// under one umpire, every player in several of them, standings after every
// game, and a digest for the umpire once a day.
//
// It sits on the game service's entry points only (package
// store/referee): each game is created with Service.Create, so it keeps
// its own seed, dice commitment, tokens and welcome mails, and is played
// by mail like any other game — the service's transactions,
// authentication and fog of war apply unchanged. The tournament learns
// of the games through the service's Hook, which a Director implements.
//
// # Basics
//
// A tournament is described by a file (examples/tournament.yaml explains
// every field), read strictly by Parse: unknown keys and keys given twice
// are errors, each at its line and column like the order files. It names
// the umpire and the players (addresses and time zones), the rounds (a
// scenario each), the pairing (round robin or Swiss), whether each
// pairing is played from both sides or the sides are drawn, the deadline
// policy and optional rules of every game, when the umpire's digest goes
// out, the scoring and the tie-breaks.
//
//	dir := &tournament.Director{}
//	svc := referee.New(db, referee.Config{Address: "attu@example.org", Hook: dir})
//	f, err := tournament.Parse(data)
//	t, err := dir.New(svc, f, "attu@example.org", time.Now())
//
// New records the tournament and creates round 1's games (ids ID-rN-K).
// From then on the service drives it: when a game ends, Director.Ended
// records the result and queues the standings for every player and the
// umpire in the transaction that ended the game; when that game was the
// last of the round in play, it also pairs the next round (advance: auto)
// and mails the umpire its games with their sides and the bye, or tells
// the umpire the round ended (advance: umpire). The mail command
// "standings", sent to any game of the tournament, is answered with the
// table, and the umpire's "digest" with the digest; after each
// Service.Tick, Director.Tick creates the games of a round paired but not
// created yet and mails the umpire's digest once a day and in answer to
// "digest". The umpire may begin the next round at any time with Next
// (attu tournament next), which mails its pairings too.
//
// # Scoring
//
// A game's result is read from the game (referee.EndingOf): the rules'
// winner; with the victory point chits of rule 14.0 the level of the
// Victory Level Table (major, minor or marginal victory), each scoring
// the file's [winner, loser] points; a concession is a win for the other
// side; a game the umpire ends with "end us", "end jp" or "end draw" is
// scored so, and with any other words it is void and scores nothing. By
// default a win scores 3, a draw 1, a loss 0 and a bye 3.
//
// Players level on points are ranked by the file's tie-breaks, in order
// (default: head-to-head, wins, buchholz, lateness):
//
//   - head-to-head: the points a player scored in the games against the
//     players level with them on points;
//   - wins: games won;
//   - buchholz: the sum of the points of every opponent met, once per
//     game;
//   - sonneborn-berger: the points of every opponent beaten, and half
//     those of every opponent drawn with;
//   - lateness: fewer deadlines missed ranks higher.
//
// Lateness is counted one way everywhere, in the standings' LATE column
// as in the digest: the deadlines a player missed in the games that count
// (scored and not void), each counted once its game is scored. The digest
// notes besides, for each game being played, the deadlines missed in it
// so far.
//
// Players level on points and every tie-break share a place, shown with
// "=", and are listed by name.
//
// # Pairings
//
// A round robin pairs by the circle method in the order of the file's
// players: everyone meets everyone once over players-1 rounds (with an
// odd number of players one player a round has a bye). A Swiss
// tournament pairs round 1 top half against bottom half of the list,
// and every later round down the standings, each player meeting the
// nearest player below them they have not met (backing up when the rest
// cannot be paired; rematches only when nothing else works); with an odd
// number the lowest-ranked player who has had no bye gets one. Sides are
// drawn at random for each pairing, or the pairing plays two games, one
// with each side.
//
// # The umpire's digest
//
// Once a day at the file's time in the umpire's time zone the umpire
// gets one mail: every game being played with what it waits for, from
// whom and until when, held files and absences; every player who missed
// deadlines, with the games; what waits for the umpire (takeback
// requests, deadlines passed at a wait without default orders, paused
// games); the games ended since the last digest, in the order they
// ended, with their results in full; the standings; and what comes next
// (the next round, the last round, or the end). Every time is written in
// UTC and in the umpire's zone, a deadline also in its player's. attu
// tournament status -v prints the same as of now, and the umpire's mail
// "digest" to any game of the tournament brings it at the next tick, in
// reply to that mail: a command's transaction holds one game, and the
// digest reads them all.
//
// # Storage
//
// A tournament's record is kept on the store's shelf "tournaments"
// (store.Shelf) in the games' bbolt file: "t/ID" holds the record (the
// file as read, the rounds with their pairings and results, when the last
// digest was due), "g/GAME" the tournament each game belongs to. Results
// are written in the transaction that ends the game, with the standings
// mails; the digest is written with the record of when it was due, so a
// restart sends none twice and a day the server was down is made up by
// one digest. A round is written down before its games are created, so a
// crash midway leaves games that the next Tick creates.
//
// # Caveats
//
// The standings say of each game only who played it, with which side,
// and how it ended; the digest, which tells what every game waits for,
// goes to the umpire alone. Lateness counts scored games only, since a
// standings mail is made inside one game's transaction. A
// Director keeps nothing in memory, but the daemon must run with it as
// the service's hook (attu serve does) for the standings to go out as
// games end; a game ended without it is scored at the next tick.
package tournament
