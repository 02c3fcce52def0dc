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
	register("tournament", command{
		summary: "run a tournament: new, status, next",
		run:     runTournament,
	})
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
is over (or when the umpire runs next), mails the umpire the pairings of
each round that begins, and a digest once a day and whenever the umpire
mails "digest" to a game of the tournament.

status prints the standings; with -v the umpire's digest as of now: every
game with what it waits for, from whom and until when, the late players,
takebacks and stuck games, and the games ended since the last digest.

next begins the next round now, even before the current one is over (a
Swiss round is then paired on the standings so far).

ID names the tournament; it may be left out when the file holds one. The
daemon holds the database while it runs: stop it first.

Examples:
  attu tournament new -db attu.db -address attu@example.org examples/tournament.yaml
  attu tournament status -db attu.db
  attu tournament status -db attu.db -v spring43
  attu tournament next -db attu.db spring43

Flags:
`

func runTournament(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, strings.SplitN(tournamentUsage, "\nFlags:", 2)[0])
		return 0
	}
	sub := args[0]
	fs := flag.NewFlagSet("tournament", flag.ContinueOnError)
	dbPath := fs.String("db", "attu.db", "the game database")
	address := fs.String("address", "", "new: the mailbox the games are played through, like attu@example.org")
	verbose := fs.Bool("v", false, "status: the umpire's digest rather than the standings")
	argv, code, ok := parseFlags(fs, tournamentUsage, args[1:], stdout, stderr)
	if !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "attu tournament %s: %s\n", sub, fmt.Sprintf(format, a...))
		return 1
	}
	switch sub {
	case "new", "status", "next":
	default:
		fmt.Fprintf(stderr, "attu tournament: %q is not new, status or next (attu tournament -h)\n", sub)
		return 2
	}
	if sub != "new" {
		if _, err := os.Stat(*dbPath); err != nil {
			return fail("%v; give the game database with -db FILE", err)
		}
	}
	if sub == "new" && (len(argv) != 1 || !strings.Contains(*address, "@")) {
		fmt.Fprintln(stderr, "attu tournament new: give the mailbox and the file: -address attu@example.org TOURNAMENT.yaml (attu tournament -h)")
		return 2
	}
	if sub != "new" && len(argv) > 1 {
		fmt.Fprintf(stderr, "attu tournament %s: unexpected %q (attu tournament -h)\n", sub, argv[1])
		return 2
	}
	var f *tournament.File
	if sub == "new" {
		data, err := os.ReadFile(argv[0])
		if err != nil {
			return fail("%v", err)
		}
		if f, err = tournament.Parse(data); err != nil {
			var b strings.Builder
			for _, line := range strings.Split(err.Error(), "\n") {
				fmt.Fprintf(&b, "%s:%s\n", argv[0], line)
			}
			fmt.Fprint(stderr, b.String())
			return 1
		}
	}
	db, err := store.Open(*dbPath, nil)
	if err != nil {
		return fail("%v", err)
	}
	defer db.Close()
	dir := &tournament.Director{}
	id := ""
	if sub != "new" {
		ids, err := tournament.List(db)
		if err != nil {
			return fail("%v", err)
		}
		switch {
		case len(argv) == 1:
			id = argv[0]
		case len(ids) == 1:
			id = ids[0]
		case len(ids) == 0:
			return fail("no tournament in %s; create one with attu tournament new", *dbPath)
		default:
			return fail("name the tournament: %s", strings.Join(ids, ", "))
		}
	}
	mailbox := *address
	if id != "" {
		t, err := tournament.Load(db, id)
		if errors.Is(err, tournament.ErrNoTournament) {
			ids, _ := tournament.List(db)
			return fail("no tournament %q in %s (tournaments: %s)", id, *dbPath, strings.Join(ids, ", "))
		}
		if err != nil {
			return fail("%v", err)
		}
		mailbox = t.Mailbox
	}
	svc := referee.New(db, referee.Config{Address: mailbox, DB: *dbPath, Hook: dir})
	now := time.Now()
	switch sub {
	case "new":
		t, err := dir.New(svc, f, mailbox, now)
		if err != nil {
			return fail("%v", strings.TrimPrefix(err.Error(), "tournament: "))
		}
		r := t.Rounds[0]
		fmt.Fprintf(stdout, "created tournament %s (%s) in %s: %s, %s\n", t.ID(), t.File.Name, *dbPath,
			templates.Plural(len(t.File.Players), "player"), templates.Plural(len(t.File.Rounds), "round"))
		printRound(stdout, &r)
		fmt.Fprintln(stdout, "The welcome mails with the tokens are queued for the mail daemon (attu serve).")
	case "status":
		text, err := dir.Status(svc, id, *verbose, now)
		if err != nil {
			return fail("%v", err)
		}
		fmt.Fprint(stdout, text)
	case "next":
		r, err := dir.Next(svc, id, now)
		if errors.Is(err, tournament.ErrNoRound) {
			return fail("every round of %s has begun", id)
		}
		if err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(stdout, "began round %d of %s\n", r.Number, id)
		printRound(stdout, r)
	}
	return 0
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
