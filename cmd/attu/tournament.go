package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/store/tournament"
	"github.com/attu-pbem/attu/templates"
)

func init() {
	registerOperator("tournament", "run a tournament: new, status, next", runTournament)
}

const tournamentUsage = `Usage:
  attu tournament new    -db FILE -address MAILBOX TOURNAMENT.yaml
  attu tournament status -db FILE [-v] [ID]
  attu tournament next   -db FILE [ID]

new reads a tournament file (examples/tournament.yaml explains every
field), records the tournament and creates its first round's games through
the game service: each game has its own seed, commitment, tokens and
welcome mails, queued for the mail daemon. The daemon (attu serve) then
runs the tournament: it mails the standings after every finished game,
answers "standings" by mail, creates the next round's games when a round
is over (or when the umpire runs next, or mails "next" with the umpire's
token to a game of the tournament), mails the umpire the pairings of each
round that begins, and a digest once a day and whenever the umpire mails
"digest" to a game of the tournament. With sides drawn, the sides come
from a secret seed drawn by new: the first mail and the standings give its
SHA-256, the final standings the seed, so anyone can check the draw.

status prints the standings; with -v the umpire's digest as of now: every
game with what it waits for, from whom and until when, the late players,
takebacks and stuck games, and the games ended since the last digest.

next begins the next round now, even before the current one is over (a
Swiss round is then paired on the standings so far).

ID names the tournament; it may be left out when the file holds one. While
attu serve holds the database, the daemon carries the command out.

Examples:
  attu tournament new -db attu.db -address attu@example.org examples/tournament.yaml
  attu tournament status -db attu.db
  attu tournament status -db attu.db -v spring43
  attu tournament next -db attu.db spring43

Flags:
`

func runTournament(s *session) error {
	if len(s.args) == 0 || s.args[0] == "-h" || s.args[0] == "--help" || s.args[0] == "help" {
		fmt.Fprint(s.stdout, strings.SplitN(tournamentUsage, "\nFlags:", 2)[0])
		return nil
	}
	sub := s.args[0]
	switch sub {
	case "new", "status", "next":
	default:
		return usageErr("%q is not new, status or next (attu tournament -h)", sub)
	}
	fs := flag.NewFlagSet("tournament", flag.ContinueOnError)
	dbPath := fs.String("db", "attu.db", "the game database")
	address := fs.String("address", "", "new: the mailbox the games are played through, like attu@example.org")
	verbose := fs.Bool("v", false, "status: the umpire's digest rather than the standings")
	scenarios := scenarioFlag(fs)
	all := s.args
	s.args = s.args[1:]
	argv, err := s.parse(fs, tournamentUsage)
	if err != nil {
		return err
	}
	s.name = "tournament " + sub
	h, err := s.hosted(*scenarios)
	if err != nil {
		return err
	}
	var f *tournament.File
	if sub == "new" {
		if len(argv) != 1 || !strings.Contains(*address, "@") {
			return usageErr("give the mailbox and the file: -address attu@example.org TOURNAMENT.yaml (attu tournament -h)")
		}
		data, err := s.readFile(argv[0])
		if err != nil {
			return err
		}
		if f, err = tournament.Parse(data, h.tournamentGames()...); err != nil {
			printErrors(s.stderr, argv[0], err)
			return errFailed
		}
	} else {
		if _, err := os.Stat(*dbPath); err != nil && s.host == nil {
			return fmt.Errorf("%v; give the game database with -db FILE", err)
		}
		if len(argv) > 1 {
			return usageErr("unexpected %q (attu tournament -h)", argv[1])
		}
	}
	a := writes
	if sub == "status" {
		a = reads
	}
	s.args = all // as the daemon is asked, when it runs the command
	return s.withDB(*dbPath, a, func(db *store.DB) error { return tournamentOn(s, h, db, *dbPath, sub, argv, *address, f, *verbose) })
}

// tournamentOn runs the sub-command sub of attu tournament on db; f is
// the file of a new tournament.
func tournamentOn(s *session, h hosted, db *store.DB, dbPath, sub string, argv []string, mailbox string, f *tournament.File, verbose bool) error {
	id := ""
	if sub != "new" {
		ids, err := tournament.List(db)
		if err != nil {
			return err
		}
		switch {
		case len(argv) == 1:
			id = argv[0]
		case len(ids) == 1:
			id = ids[0]
		case len(ids) == 0:
			return fmt.Errorf("no tournament in %s; create one with attu tournament new", dbPath)
		default:
			return fmt.Errorf("name the tournament: %s", strings.Join(ids, ", "))
		}
		t, err := tournament.Load(db, id)
		if errors.Is(err, tournament.ErrNoTournament) {
			return fmt.Errorf("no tournament %q in %s (tournaments: %s)", id, dbPath, strings.Join(ids, ", "))
		}
		if err != nil {
			return err
		}
		mailbox = t.Mailbox
	}
	dir := h.director()
	svc, err := s.service(db, h.hosting(referee.Config{Address: mailbox, DB: dbPath, Hook: dir}))
	if err != nil {
		return err
	}
	now := time.Now()
	switch sub {
	case "new":
		t, err := dir.New(svc, f, mailbox, now)
		if err != nil {
			return errors.New(strings.TrimPrefix(err.Error(), "tournament: "))
		}
		r := t.Rounds[0]
		fmt.Fprintf(s.stdout, "created tournament %s (%s) in %s: %s, %s\n", t.ID(), t.File.Name, dbPath,
			templates.Plural(len(t.File.Players), "player"), templates.Plural(len(t.File.Rounds), "round"))
		printRound(s.stdout, &r)
		fmt.Fprintln(s.stdout, "The welcome mails with the tokens are queued for the mail daemon (attu serve).")
	case "status":
		text, err := dir.Status(svc, id, verbose, now)
		if err != nil {
			return err
		}
		fmt.Fprint(s.stdout, text)
	case "next":
		r, err := dir.Next(svc, id, now)
		if errors.Is(err, tournament.ErrNoRound) {
			return fmt.Errorf("every round of %s has begun", id)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(s.stdout, "began round %d of %s\n", r.Number, id)
		printRound(s.stdout, r)
	}
	return nil
}

// printRound lists a round's games.
func printRound(w io.Writer, r *tournament.Round) {
	fmt.Fprintf(w, "round %d (%s):\n", r.Number, r.Scenario)
	for _, g := range r.Games {
		fmt.Fprintf(w, "  %-16s %s (U.S.) v %s (Japanese)\n", g.ID, g.US, g.JP)
	}
	if r.Bye != "" {
		fmt.Fprintf(w, "  bye: %s\n", r.Bye)
	}
}
