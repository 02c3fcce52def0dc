package main

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

func init() {
	registerOperator("new", "create a game: players, umpire, deadlines; queue the welcome mails with the tokens", runNew)
}

const newUsage = `Usage: attu new -db FILE -address MAILBOX -us ADDRESS -jp ADDRESS [flags]

Creates a game in the database: draws the dice seed and stores its
commitment, places the units, draws a secret token for each side (stored
only as a hash) and queues the welcome mails, one per side, each with its
token, the commitment and the opening report. The mail daemon sends them.
The tokens are printed here once, for the record: keep them safe.

The game is played through the mailbox MAILBOX: game G is addressed as
MAILBOX with +G after its local part (attu+G@example.org), or with the
tag [attu G] in the subject.

With -scenario (campaign, up-the-hogs-back, holtz-bay-to-jarmin-pass or
the-linkup) the game is set up by the rules of setup (rule 12): attu draws
what the rules draw and places the historic Japanese setup itself, then
waits for the Japanese setup (the free setup of 12.4) and the U.S.
landing (12.5, 12.6). -jp-setup and -us-setup choose historic or free
(default: historic in the campaign; the short scenarios are free only).
The optional rule vp-chits (14.0) draws the victory point chits;
vp-chits-placed lets the Japanese place the value chits.

A practice game against the server: give bot instead of an address for
one side (-us bot or -jp bot) and attu's stand-in plays it, answering
each of its waits as soon as the game comes to it; its orders are kept
and audited like anyone's. The umpire hands a side to the stand-in, and
back, with "replace" (attu umpire -h). With -late-bot the stand-in also
writes the orders of a side whose deadline passed, instead of the default
orders; the side stays its player's. With -solo (and -scenario) the game
is the solitaire game of rule 13: the player takes the U.S., and the
Japanese are played by the rules of 13.1 to 13.6 and, where those leave
the choice, by the stand-in.

Without -scenario the units are placed at once by -setup and the game
begins with the U.S. decision of turn 1: historic (the Japanese as rule
12.3 places them, the U.S. already ashore near its beaches) or random
(every unit at random).

With -system island-war the game is SPI's Island War, its standard
rules: -scenario names the scenario (default: ridge-42), which places
the units itself, so -setup, -jp-setup, -us-setup, -rules and -solo do
not apply. -scenarios DIR adds the operator's own Island War scenario
files, every file of DIR one scenario named by its file name without
the extension (a running daemon uses its configuration's scenarios key
instead). The scenarios of each system attu ships:
%s
Example:
  attu new -db attu.db -address attu@example.org -name "Attu 1943" \
      -us alice@example.org -jp bob@example.org -umpire carol@example.org \
      -deadline 72h -deadline-for us-decision=24h -settle 30m
  attu new -db attu.db -address attu@example.org -scenario the-linkup \
      -us alice@example.org -jp bob@example.org -sheet jp=off
  attu new -db attu.db -address attu@example.org -scenario up-the-hogs-back \
      -us alice@example.org -jp bot
  attu new -db attu.db -address attu@example.org -system island-war \
      -scenario ridge-42 -us alice@example.org -jp bob@example.org

Flags:
`

func runNew(s *session) error {
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	dbPath := fs.String("db", "attu.db", "the game database (created when missing)")
	system := fs.String("system", systemNames()[0], "the game system the game is played by: "+strings.Join(systemNames(), ", "))
	mailbox := fs.String("address", "", "the mailbox the games are played through, like attu@example.org")
	id := fs.String("id", "", "the game's short id (default: drawn)")
	name := fs.String("name", "", "the game's name, for people")
	us := fs.String("us", "", "the U.S. player's address, or bot for the server's stand-in")
	jp := fs.String("jp", "", "the Japanese player's address, or bot for the server's stand-in")
	ump := fs.String("umpire", "", "the umpire's address (optional)")
	setup := fs.String("setup", "historic", "without -scenario, how the units are placed: historic or random")
	scenario := fs.String("scenario", "", "set the game up by the rules of setup: campaign, up-the-hogs-back, holtz-bay-to-jarmin-pass or the-linkup")
	jpSetup := fs.String("jp-setup", "", "with -scenario, the Japanese setup: historic or free")
	usSetup := fs.String("us-setup", "", "with -scenario, the U.S. setup: historic or free")
	deadline := fs.Duration("deadline", referee.DefaultDeadline, "time allowed for each wait")
	deadlineFor := fs.String("deadline-for", "", "other times for some waits: KIND=DURATION,... (us-decision=24h)")
	reminder := fs.Duration("reminder", referee.DefaultReminder, "how long before a deadline the player is reminded")
	settle := fs.Duration("settle", 0, "hold each orders file this long before applying it (0: at once)")
	absence := fs.Duration("absence", referee.DefaultAbsence, "the longest a player may move their deadlines with \"absent\"")
	solo := fs.Bool("solo", false, "with -scenario, the solitaire game of rule 13: the player takes the U.S., attu the Japanese (no -jp)")
	lateBot := fs.Bool("late-bot", false, "when a deadline passes, the stand-in writes the late side's orders instead of the default orders")
	rules := fs.String("rules", "", "optional rules, comma-separated (vp-chits or vp-chits-placed, with -scenario)")
	json := fs.Bool("json", false, "attach report.json, the report for programs, to every side's reports (each may mail json off)")
	sheet := fs.String("sheet", "on", "the order sheet beside each order template: on, off (for both sides) or per side, like jp=off (each may mail sheet on or sheet off)")
	copies := fs.String("copies", "", "how the umpire is mailed: digest (daily, the default), turn (one report a turn) or every (every report)")
	scenarios := scenarioFlag(fs)
	argv, err := s.parse(fs, fmt.Sprintf(newUsage, shippedOnly().scenarioLines()))
	if err != nil {
		return err
	}
	if len(argv) != 0 {
		return usageErr("unexpected %q; everything is given by flags (attu new -h)", argv[0])
	}
	h, err := s.hosted(*scenarios)
	if err != nil {
		return err
	}
	sys, err := h.named(*system)
	if err != nil {
		return usageErr("-system: %v (attu new -h)", err)
	}
	if rs, ok := sys.(interface{ RuleSetups() []string }); ok && len(rs.RuleSetups()) == 0 && !flagSet(fs, "setup") {
		*setup = "" // the scenario places the units (Island War)
	}
	if *solo && *jp == "" {
		*jp = referee.Bot
	}
	if *mailbox == "" || *us == "" || *jp == "" {
		return usageErr("give the mailbox and both players: -address attu@example.org -us ADDRESS -jp ADDRESS (attu new -h)")
	}
	if (*jpSetup != "" || *usSetup != "") && *scenario == "" {
		return usageErr("-jp-setup and -us-setup go with -scenario, like -scenario campaign -jp-setup free (attu new -h)")
	}
	ng := referee.NewGame{System: sys.System(), ID: *id, Name: *name, Setup: *setup, Scenario: *scenario, JPSetup: *jpSetup, USSetup: *usSetup, US: *us, JP: *jp, Umpire: *ump,
		Deadline: *deadline, Reminder: *reminder, Settle: *settle, Absence: *absence, LateStandIn: *lateBot,
		JSON: *json, Copies: *copies}
	if ng.NoSheet, err = noSheet(*sheet); err != nil {
		return err
	}
	if *rules != "" {
		ng.Rules = strings.Split(*rules, ",")
	}
	if *solo {
		ng.Rules = append(ng.Rules, "solitaire")
	}
	if *deadlineFor != "" {
		ng.Deadlines = map[adjudicator.WaitKind]time.Duration{}
		kinds := sys.Kinds()
		for _, kv := range strings.Split(*deadlineFor, ",") {
			k, v, ok := strings.Cut(kv, "=")
			d, err := time.ParseDuration(v)
			if !ok || err != nil || d <= 0 || !slices.Contains(kinds, adjudicator.WaitKind(k)) {
				return usageErr("-deadline-for %q: want KIND=DURATION, like us-decision=24h (kinds: %s)", kv, waitKindsOf(sys))
			}
			ng.Deadlines[adjudicator.WaitKind(k)] = d
		}
	}
	return s.withDB(*dbPath, writes, func(db *store.DB) error { return createGame(s, h, db, *dbPath, *mailbox, ng) })
}

func createGame(s *session, h hosted, db *store.DB, dbPath, mailbox string, ng referee.NewGame) error {
	svc, err := s.service(db, h.hosting(referee.Config{Address: mailbox, DB: dbPath}))
	if err != nil {
		return err
	}
	c, err := svc.Create(ng, time.Now())
	if err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "referee: "))
	}
	g, out := c.Game, s.stdout
	fmt.Fprintf(out, "created game %s in %s: %s\n", g.ID, dbPath, g.Wait)
	fmt.Fprintf(out, "  address     %s\n", referee.GameAddress(mailbox, g.ID))
	fmt.Fprintf(out, "  commitment  %s\n", g.Commitment)
	fmt.Fprintf(out, "  deadline    %s\n", g.Deadline.Format(time.RFC3339))
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.Umpire} {
		if tok, ok := c.Tokens[side]; ok {
			p, _ := g.Player(side)
			fmt.Fprintf(out, "  %-6s token %s  (%s)\n", side, tok, p.Address)
		}
	}
	fmt.Fprintln(out, "The welcome mails with the tokens are queued; the tokens are not shown again.")
	return nil
}

// flagSet reports whether the command line gave the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// waitKindsOf lists the kinds of wait of sys.
func waitKindsOf(sys referee.System) string {
	var ks []string
	for _, w := range sys.Kinds() {
		ks = append(ks, string(w))
	}
	return strings.Join(ks, ", ")
}

// noSheet reads -sheet: on or off for both sides, or SIDE=on|off,...;
// it returns the sides mailed no order sheet.
func noSheet(v string) ([]adjudicator.Side, error) {
	off := map[adjudicator.Side]bool{}
	for _, item := range strings.Split(v, ",") {
		name, how, perSide := strings.Cut(item, "=")
		sides := []adjudicator.Side{adjudicator.US, adjudicator.JP}
		if !perSide {
			how = name
		} else if side, err := adjudicator.ParseSide(name); err == nil && side != adjudicator.Umpire {
			sides = []adjudicator.Side{side}
		} else {
			return nil, usageErr("-sheet %q: a side is us or jp, like -sheet jp=off (attu new -h)", item)
		}
		if how != "on" && how != "off" {
			return nil, usageErr("-sheet %q: say on or off, for both sides or one, like -sheet off or -sheet jp=off (attu new -h)", item)
		}
		for _, s := range sides {
			off[s] = how == "off"
		}
	}
	var out []adjudicator.Side
	for _, s := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		if off[s] {
			out = append(out, s)
		}
	}
	return out, nil
}
