package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/attu-pbem/attu/adjudicator/rulecase"
	"github.com/attu-pbem/attu/orders"
	"github.com/attu-pbem/attu/templates"
)

func init() {
	register("sandbox", command{
		summary: "run a rules case and show what happened and which expectations hold",
		run:     runSandbox,
	})
}

const sandboxUsage = `Usage: attu sandbox [--json] CASE.yaml

Runs a rules case: places its units (or creates a game of a scenario with
its setup, when the case says scenario:), runs the procedures it asks for
and its orders with its forced dice, then checks each expectation. The format is
shown, commented, in examples/rules-case.yaml and described by
"go doc ./adjudicator/rulecase"; the project's cases are in
adjudicator/rulecase/testdata.

Exit status: 0 when every expectation holds, 1 when one does not, 2 when the
file cannot be read or is malformed (each mistake on its own line, as
FILE:LINE:COL: message).

Example:
  attu sandbox examples/rules-case.yaml
  attu sandbox --json adjudicator/rulecase/testdata/example-zoc-cliff.yaml
  attu sandbox adjudicator/rulecase/testdata/scenario-hogs-back-setup.yaml

Flags:
`

func runSandbox(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	files, code, ok := parseFlags(fs, sandboxUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "attu sandbox: give one case file, like: attu sandbox case.yaml (attu sandbox -h for help)")
		return 2
	}
	name := files[0]
	c, code := readCase(name, stderr)
	if c == nil {
		return code
	}
	r := c.Run(templates.EventText)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintf(stderr, "attu sandbox: %v\n", err)
			return 2
		}
	} else {
		fmt.Fprint(stdout, r.Text())
		if !r.Passed && r.State != nil && len(r.Hexes) > 0 {
			fmt.Fprintln(stdout, "\nThe hexes involved at the end (U: U.S. units, J: Japanese units):")
			area := templates.RenderArea(r.State.Map(), r.Hexes, 0, templates.MapOptions{Markers: rulecase.Markers(r.State)})
			fmt.Fprintln(stdout, strings.TrimRight(area, "\n"))
		}
	}
	if !r.Passed {
		return 1
	}
	return 0
}

// readCase reads and parses a rules case, printing each mistake as
// FILE:LINE:COL: message. It returns nil and exit status 2 when it cannot.
func readCase(name string, stderr io.Writer) (*rulecase.Case, int) {
	data, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(stderr, "attu: cannot read the case: %v\n", err)
		return nil, 2
	}
	c, err := rulecase.Parse(data)
	if err != nil {
		printErrors(stderr, name, err)
		return nil, 2
	}
	return c, 0
}

// printErrors prints a file's mistakes one a line, prefixed with its name.
func printErrors(w io.Writer, name string, err error) {
	var errs orders.Errors
	if !errors.As(err, &errs) {
		fmt.Fprintf(w, "%s: %v\n", name, err)
		return
	}
	for _, e := range errs {
		fmt.Fprintf(w, "%s:%s\n", name, e)
	}
}
