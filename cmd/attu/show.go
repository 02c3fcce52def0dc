package main

import (
	"flag"
	"fmt"
	"time"
	_ "time/tzdata" // -tz works on machines without a zone database

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

func init() {
	registerOperator("show", "print a stored game's current report as one side sees it", runShow)
}

const showUsage = `Usage: attu show -db FILE [-side us|jp|umpire] [-json] [-png FILE] [-tz ZONE] [-from ENTRY] GAME

Prints the report of game GAME as a side would get it now: what happened in
the last step of the game (or since log entry ENTRY), the island map with the
units that side may see, close-ups of the fighting, its units, the state of
the game, its standing instructions and, when the game waits for that side,
its order template. The report is built from that side's view only: the U.S.
sees face-down Japanese units as anonymous counters. The umpire sees all.

With -json the report is printed as its JSON document instead (report.json;
its schema is in the templates package documentation). With -png the picture
of the map is written to FILE as well, mode 0600 like every file attu writes
that holds a side's view of a game.

Examples:
  attu show -db attu.db -side us g1
  attu show -db attu.db -side jp -tz Asia/Tokyo -png jp.png g1
  attu show -db attu.db -side umpire -json g1 > report.json

Flags:
`

func runShow(s *session) error {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	dbPath := fs.String("db", "attu.db", "the game database")
	sideName := fs.String("side", "umpire", "whose report: us, jp or umpire")
	asJSON := fs.Bool("json", false, "print the report as JSON instead of text")
	pngFile := fs.String("png", "", "also write the picture of the map to this file")
	tz := fs.String("tz", "", "also give the deadline in this time zone (e.g. America/Anchorage)")
	from := fs.Uint64("from", 0, "tell what happened since this log entry (default: the last step)")
	scenarios := scenarioFlag(fs)
	argv, err := s.parse(fs, showUsage)
	if err != nil {
		return err
	}
	h, err := s.hosted(*scenarios)
	if err != nil {
		return err
	}
	if len(argv) != 1 {
		return usageErr("name one game, e.g. attu show -db attu.db -side us g1")
	}
	side, err := adjudicator.ParseSide(*sideName)
	if err != nil || (side != adjudicator.US && side != adjudicator.JP && side != adjudicator.Umpire) {
		return usageErr("-side %q: give us, jp or umpire", *sideName)
	}
	var zone *time.Location
	if *tz != "" {
		if zone, err = time.LoadLocation(*tz); err != nil {
			return usageErr("-tz %q: not a time zone; give one like Europe/Paris or America/Anchorage", *tz)
		}
	}
	if *pngFile != "" {
		s.expect(*pngFile, 0o600)
	}
	var rep *windsys.Report
	var other *systemShow
	err = s.withDB(*dbPath, reads, func(db *store.DB) (err error) {
		g, err := db.Game(argv[0])
		if err != nil {
			return err
		}
		if sys, err := h.named(g.System); err != nil {
			return err
		} else if sys.System() != windsys.Name {
			other, err = systemReport(db, g, sys, side, *from, *pngFile != "")
			return err
		}
		rep, err = storedReport(db, argv[0], side, zone, *from)
		return err
	})
	if err != nil {
		return err
	}
	if other != nil {
		return s.showSystem(other, *pngFile, *asJSON)
	}
	if rep == nil {
		return nil
	}
	if *pngFile != "" {
		b, err := rep.PNG()
		if err == nil {
			err = s.writeFile(*pngFile, b, 0o600)
		}
		if err != nil {
			return err
		}
	}
	if !*asJSON {
		fmt.Fprint(s.stdout, rep.Text())
		// The mail attaches the template; the terminal shows it after.
		if name, body, ok := rep.OrderTemplate(); ok {
			fmt.Fprintf(s.stdout, "\n---- %s, attached to the report ----\n%s", name, body)
		}
		return nil
	}
	b, err := rep.JSON()
	if err == nil {
		_, err = s.stdout.Write(b)
	}
	return err
}

// storedReport builds side's report of a stored game: its position in
// force, the events of its live log entries from entry from (the last
// entry when from is 0) that side may read, the chain head and the dice
// commitment.
func storedReport(db *store.DB, game string, side adjudicator.Side, zone *time.Location, from uint64) (*windsys.Report, error) {
	g, err := db.Game(game)
	if err != nil {
		return nil, err
	}
	s, err := windsys.State(db.Position(game))
	if err != nil {
		return nil, err
	}
	if from == 0 {
		from = g.Entries
	}
	entries, err := db.Log(game, from)
	if err != nil {
		return nil, err
	}
	var events []wind.Event
	for _, e := range entries {
		if e.RolledBackBy == 0 {
			events = append(events, windsys.EventsOf(e.Events)...)
		}
	}
	return &windsys.Report{
		Game: windsys.Game{
			ID: g.ID, Name: referee.GameName(*g), Deadline: g.Deadline, Zone: zone,
			Head: g.Head, Commitment: g.Commitment,
		},
		Map:     s.Map(),
		View:    s.View(side),
		Outlook: s.Outlook(side),
		Events:  wind.VisibleEvents(events, side),
	}, nil
}

// showSystem prints a report of systemReport, and writes its picture.
func (s *session) showSystem(r *systemShow, pngFile string, asJSON bool) error {
	if pngFile != "" {
		if err := s.writeFile(pngFile, r.png, 0o600); err != nil {
			return err
		}
	}
	if asJSON {
		_, err := s.stdout.Write(r.report.JSON)
		return err
	}
	fmt.Fprint(s.stdout, r.report.Text)
	return nil
}
