package main

import (
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

func init() {
	registerOperator("status", "list the games: what each waits for and until when", runStatus)
}

const statusUsage = `Usage: attu status -db FILE

Lists every game in the database: its status, what it waits for, the
deadline, and how many deadlines each side has missed; then every mail
the daemon gave up on after failing to handle it three times (moved to
the failed folder), so that its sender can be answered by hand.

Example:
  attu status -db attu.db

Flags:
`

func runStatus(s *session) int {
	stdout, stderr := s.stdout, s.stderr
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	dbPath := fs.String("db", "attu.db", "the game database")
	argv, code, ok := parseFlags(fs, statusUsage, s.args, stdout, stderr)
	if !ok {
		return code
	}
	if len(argv) != 0 {
		fmt.Fprintf(stderr, "attu status: unexpected %q (attu status -h)\n", argv[0])
		return 2
	}
	return s.withDB(*dbPath, reads, func(db *store.DB) int { return printStatus(s, db, *dbPath) })
}

func printStatus(s *session, db *store.DB, dbPath string) int {
	stdout, stderr := s.stdout, s.stderr
	games, err := referee.New(db, referee.Config{}).Games()
	if err != nil {
		fmt.Fprintf(stderr, "attu status: %v\n", err)
		return 1
	}
	if len(games) == 0 {
		fmt.Fprintf(stdout, "no games in %s\n", dbPath)
		return printFailed(s, db)
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "GAME\tNAME\tSTATUS\tWAITS FOR\tDEADLINE\tMISSED (US/JP)")
	for _, g := range games {
		deadline := "-"
		if !g.Deadline.IsZero() {
			deadline = g.Deadline.Format(time.RFC3339)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d/%d\n", g.ID, g.Name, g.Status, g.Waiting, deadline,
			g.Late[adjudicator.US], g.Late[adjudicator.JP])
	}
	w.Flush()
	return printFailed(s, db)
}

// printFailed lists the mails the daemon gave up on, if any.
func printFailed(s *session, db *store.DB) int {
	failed, err := db.FailedMail(time.Time{})
	if err != nil {
		fmt.Fprintf(s.stderr, "attu status: %v\n", err)
		return 1
	}
	if len(failed) == 0 {
		return 0
	}
	fmt.Fprintf(s.stdout, "\n%d mail(s) failed every time they were handled and were set aside:\n", len(failed))
	w := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "WHEN\tFROM\tSUBJECT\tMAILBOX/UID\tERROR")
	for _, f := range failed {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s/%d\t%s\n", f.Time.Format(time.RFC3339), f.From, f.Subject, f.Mailbox, f.UID, f.Error)
	}
	w.Flush()
	return 0
}
