package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/attu-pbem/attu/store"
)

func init() {
	registerFunc("audit", "check an exported game: the seed, every die, every order and event, the chain", runAudit)
}

const auditUsage = `Usage: attu audit [-q] FILE

Checks a game exported by "attu export": the seed against the commitment
mailed at creation, every die against the seed, every order file against the
log, and the hash chain up to its head (compare it with the head printed in
your last report). It checks the opening's dice (the Komandorski chits) and
replays every accepted order file, decoded again, through the rules from the
opening position: the U.S. decision with the weather and airpower it leads
to, each side's actions, the melee step, victory and the turn advance. Every
event, die and position must match. It prints a verdict
and each side's dice luck, and exits 1 naming the first bad entry when
anything does not match. FILE - reads standard input.

Examples:
  attu audit g1.json
  attu export -db attu.db -o - g1 | attu audit -

Flags:
`

func runAudit(s *session) error {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	quiet := fs.Bool("q", false, "print only the verdict, not the dice luck")
	scenarios := scenarioFlag(fs)
	argv, err := s.parse(fs, auditUsage)
	if err != nil {
		return err
	}
	if len(argv) != 1 {
		return usageErr("name one export file, e.g. attu audit g1.json")
	}
	x, err := readExport(argv[0])
	if err != nil {
		return err
	}
	h, err := s.hosted(*scenarios)
	if err != nil {
		return err
	}
	sys, err := h.forExport(x)
	if err != nil {
		return fmt.Errorf("cannot audit %s: %w", argv[0], err)
	}
	rep := store.Audit(x, sys)
	if *quiet {
		rep.Luck = nil
	}
	rep.WriteText(s.stdout)
	if x.ScenarioFile != "" {
		fmt.Fprintf(s.stdout, "  scenario file carried: %s, its SHA-256 the game's\n", x.Scenario)
	}
	if !rep.OK() {
		return errFailed
	}
	return nil
}

// readExport reads the export file name, standard input for "-".
func readExport(name string) (*store.Export, error) {
	if name == "-" {
		return store.ReadExport(os.Stdin)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return store.ReadExport(f)
}
