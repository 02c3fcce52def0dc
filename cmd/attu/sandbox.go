package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	islandcase "github.com/attu-pbem/attu/adjudicator/island/rulecase"
	"github.com/attu-pbem/attu/adjudicator/wind/rulecase"
	"github.com/attu-pbem/attu/orders"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

func init() {
	registerFunc("sandbox", "run a rules case and show what happened and which expectations hold", runSandbox)
}

const sandboxUsage = `Usage: attu sandbox [--json] CASE.yaml

Runs a rules case: places its units (or creates a game of a scenario with
its setup, when the case says scenario:), runs the procedures it asks for
and its orders with its forced dice, then checks each expectation. The format is
shown, commented, in examples/rules-case.yaml and described by
"go doc ./adjudicator/wind/rulecase"; the project's cases are in
adjudicator/wind/rulecase/testdata. A case with "system: island-war" is
an Island War case (shown in examples/island-war/rules-case.yaml,
described by "go doc ./adjudicator/island/rulecase", cases in
adjudicator/island/rulecase/testdata); one without system: is War in the
Wind's.

Exit status: 0 when every expectation holds, 1 when one does not, 2 when the
file cannot be read or is malformed (each mistake on its own line, as
FILE:LINE:COL: message).

Example:
  attu sandbox examples/rules-case.yaml
  attu sandbox --json adjudicator/wind/rulecase/testdata/example-zoc-cliff.yaml
  attu sandbox adjudicator/wind/rulecase/testdata/scenario-hogs-back-setup.yaml
  attu sandbox examples/island-war/rules-case.yaml

Flags:
`

func runSandbox(s *session) error {
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	files, err := s.parse(fs, sandboxUsage)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usageErr("give one case file, like: attu sandbox case.yaml (attu sandbox -h for help)")
	}
	system, err := caseSystem(files[0], s.stderr)
	if err != nil {
		return err
	}
	if system == islandcase.System {
		return runIslandCase(s, files[0], *asJSON)
	}
	c, err := readCase(files[0], s.stderr)
	if err != nil {
		return err
	}
	r := c.Run(windsys.EventText)
	if *asJSON {
		enc := json.NewEncoder(s.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return usageErr("%v", err)
		}
	} else {
		fmt.Fprint(s.stdout, r.Text())
		if !r.Passed && r.State != nil && len(r.Hexes) > 0 {
			fmt.Fprintln(s.stdout, "\nThe hexes involved at the end (U: U.S. units, J: Japanese units):")
			area := windsys.RenderArea(r.State.Map(), r.Hexes, 0, windsys.MapOptions{Markers: rulecase.Markers(r.State)})
			fmt.Fprintln(s.stdout, strings.TrimRight(area, "\n"))
		}
	}
	if !r.Passed {
		return errFailed
	}
	return nil
}

// readCase reads and parses a rules case, printing each mistake to
// stderr as FILE:LINE:COL: message; it fails with exit status 2.
func readCase(name string, stderr io.Writer) (*rulecase.Case, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, usageErr("cannot read the case: %v", err)
	}
	c, err := rulecase.Parse(data)
	if err != nil {
		printErrors(stderr, name, err)
		return nil, &exitError{code: 2}
	}
	return c, nil
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

// caseSystem gives the game system a case file's system: key names, ""
// for War in the Wind when it has none; a file that cannot be read as a
// mapping is left to War in the Wind's reader to report.
func caseSystem(name string, stderr io.Writer) (string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return "", usageErr("cannot read the case: %v", err)
	}
	root, errs := orders.ParseDocument(data, islandcase.MaxSize)
	if len(errs) > 0 {
		return "", nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Value == "system" {
			v := root.Content[i+1]
			if v.Value != islandcase.System {
				printErrors(stderr, name, orders.Errors{orders.ErrAt(v.Line, v.Column,
					"system: %q is no game system attu knows: write %s for Island War, or leave system: out for War in the Wind", v.Value, islandcase.System)})
				return "", &exitError{code: 2}
			}
			return v.Value, nil
		}
	}
	return "", nil
}

// runIslandCase runs an Island War rules case, with the output and exit
// statuses of a War in the Wind case. A scenario it names is looked for
// from the working directory, then from the case's directory and each one
// above it (so a case in the project's testdata finds examples/).
func runIslandCase(s *session, name string, asJSON bool) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return usageErr("cannot read the case: %v", err)
	}
	load := func(scenario string) ([]byte, error) {
		if b, err := os.ReadFile(scenario); err == nil || filepath.IsAbs(scenario) {
			return b, err
		}
		dir, _ := filepath.Abs(filepath.Dir(name))
		for {
			if b, err := os.ReadFile(filepath.Join(dir, scenario)); err == nil {
				return b, nil
			}
			up := filepath.Dir(dir)
			if up == dir {
				return nil, fmt.Errorf("cannot find %s from the working directory or the case's", scenario)
			}
			dir = up
		}
	}
	c, err := islandcase.Parse(data, load)
	if err != nil {
		printErrors(s.stderr, name, err)
		return &exitError{code: 2}
	}
	r := c.Run()
	if asJSON {
		enc := json.NewEncoder(s.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return usageErr("%v", err)
		}
	} else {
		fmt.Fprint(s.stdout, r.Text())
	}
	if !r.Passed {
		return errFailed
	}
	return nil
}
