package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

func init() {
	register("audit", command{
		summary: "check an exported game: the seed, every die, every order and event, the chain",
		run:     runAudit,
	})
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

func runAudit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	quiet := fs.Bool("q", false, "print only the verdict, not the dice luck")
	argv, code, ok := parseFlags(fs, auditUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(argv) != 1 {
		fmt.Fprintln(stderr, "attu audit: name one export file, e.g. attu audit g1.json")
		return 2
	}
	var r io.Reader = os.Stdin
	if name := argv[0]; name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "attu audit: %v\n", err)
			return 1
		}
		defer f.Close()
		r = f
	}
	x, err := store.ReadExport(r)
	if err != nil {
		fmt.Fprintf(stderr, "attu audit: %v\n", err)
		return 1
	}
	rep := store.Audit(x, referee.Engine())
	if *quiet {
		rep.Luck = nil
	}
	rep.WriteText(stdout)
	if !rep.OK() {
		return 1
	}
	return 0
}
