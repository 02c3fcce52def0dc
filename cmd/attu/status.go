package main

import (
	"flag"
	"fmt"
	"io"
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

func runStatus(s *session) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	dbPath := fs.String("db", "attu.db", "the game database")
	scenarios := scenarioFlag(fs)
	argv, err := s.parse(fs, statusUsage)
	if err != nil {
		return err
	}
	if len(argv) != 0 {
		return usageErr("unexpected %q (attu status -h)", argv[0])
	}
	h, err := s.hosted(*scenarios)
	if err != nil {
		return err
	}
	return s.withDB(*dbPath, reads, func(db *store.DB) error { return printStatus(s.stdout, db, *dbPath, h) })
}

// printStatus lists the games, then the mails the daemon gave up on.
func printStatus(out io.Writer, db *store.DB, dbPath string, h hosted) error {
	games, err := referee.New(db, h.hosting(referee.Config{})).Games()
	if err != nil {
		return err
	}
	if len(games) == 0 {
		fmt.Fprintf(out, "no games in %s\n", dbPath)
	} else {
		w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
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
	}
	failed, err := db.FailedMail(time.Time{})
	if err != nil || len(failed) == 0 {
		return err
	}
	fmt.Fprintf(out, "\n%d mail(s) failed every time they were handled and were set aside:\n", len(failed))
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "WHEN\tFROM\tSUBJECT\tMAILBOX/UID\tERROR")
	for _, f := range failed {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s/%d\t%s\n", f.Time.Format(time.RFC3339), f.From, f.Subject, f.Mailbox, f.UID, f.Error)
	}
	return w.Flush()
}
