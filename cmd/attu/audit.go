package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
	"github.com/attu-pbem/attu/store"
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
your last report). It replays every accepted order through the rules from the
opening position and compares every event and position. It prints a verdict
and each side's dice luck, and exits 1 naming the first bad entry when
anything does not match. FILE - reads standard input.

Examples:
  attu audit g1.json
  attu export -db attu.db -o - g1 | attu audit -

Flags:
`

// engine is the rules the audit replays with: the same functions the server
// resolves steps with.
func engine() store.Engine {
	return store.Engine{
		Resolve: func(s *adjudicator.State, o adjudicator.Orders, d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, error) {
			out, events, problems := adjudicator.ResolveActions(s, o, d)
			if len(problems) > 0 {
				errs := make([]error, len(problems))
				for i, p := range problems {
					errs[i] = p
				}
				return nil, nil, errors.Join(errs...)
			}
			return out, events, nil
		},
		Procedure: func(s *adjudicator.State, name string, d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, error) {
			switch name {
			case store.ProcedureWeather:
				return s, []adjudicator.Event{adjudicator.RollWeather(s, d)}, nil
			case store.ProcedureAirpower:
				return s, adjudicator.RollAirpower(s, d), nil
			}
			return nil, nil, fmt.Errorf("no procedure %q in this release", name)
		},
		// Each order file is decoded again, so the orders replayed are the
		// ones the player wrote, not only the ones the server recorded.
		Decode: func(raw []byte) (*adjudicator.Orders, error) {
			f, err := orders.Parse(raw, orders.Options{})
			if err != nil {
				return nil, err
			}
			o := f.Orders()
			return &o, nil
		},
	}
}

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
	rep := store.Audit(x, engine())
	if *quiet {
		rep.Luck = nil
	}
	rep.WriteText(stdout)
	if !rep.OK() {
		return 1
	}
	return 0
}
