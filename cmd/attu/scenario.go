package main

import (
	"flag"
	"fmt"

	iw "github.com/attu-pbem/attu/adjudicator/island"
	island "github.com/attu-pbem/attu/orders/island"
)

func init() {
	registerFunc("scenario", "check an Island War scenario file: map, terrain key, units, set-up, track, victory", runScenario)
}

const scenarioUsage = `Usage: attu scenario check SCENARIO.yaml

Checks a scenario file for SPI's Island War standard rules: the map a group
types from its game (grid, terrain of every hex, rivers, roads, trails and
prohibited hexsides), the Terrain Key, the counters and their printed
values, the initial deployment, the Turn Record/Reinforcement Track with its
ground support, and the victory conditions. The format is described key by
key in examples/island-war/README.md.

When the file is sound it prints one line about it; otherwise every problem
as SCENARIO:LINE:COL: what is wrong; what to change.

Exit status: 0 when the scenario is sound, 1 when it has problems, 2 when the
file cannot be read or the command is given wrongly.

Example:
  attu scenario check examples/island-war/ridge-42-invented.yaml

Flags:
`

func runScenario(s *session) error {
	fs := flag.NewFlagSet("scenario", flag.ContinueOnError)
	argv, err := s.parse(fs, scenarioUsage)
	if err != nil {
		return err
	}
	if len(argv) != 2 || argv[0] != "check" {
		return usageErr("give check and one file, like: attu scenario check my-scenario.yaml (attu scenario -h for help)")
	}
	name := argv[1]
	data, err := s.readFile(name)
	if err != nil {
		return usageErr("cannot read the scenario: %v", err)
	}
	sc, problems := island.ParseScenario(data)
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintf(s.stdout, "%s:%s\n", name, p)
		}
		return errFailed
	}
	fmt.Fprintf(s.stdout, "%s: %s is sound: %s\n", name, scenarioName(sc), scenarioSummary(sc))
	return nil
}

func scenarioName(sc *iw.Scenario) string {
	name := sc.Name
	if sc.Game != "" {
		name += " (" + sc.Game + ")"
	}
	if sc.Invented {
		name += " (invented)"
	}
	return name
}

var sideName = map[iw.Side]string{iw.US: "U.S.", iw.Japan: "Japanese"}

// scenarioSummary counts what a group would check against its game's box.
func scenarioSummary(sc *iw.Scenario) string {
	units := map[iw.Side]int{}
	for _, u := range sc.Units {
		units[u.Side]++
	}
	arriving := 0
	for _, r := range sc.Reinforcements {
		arriving += len(r.Units)
	}
	return fmt.Sprintf("%dx%d hexes, %d game-turns, %s player first; %d U.S. and %d Japanese units, %d of them arriving later; %d ways to score, %d outcomes",
		sc.Grid.Columns, sc.Grid.Rows, sc.GameTurns, sideName[sc.FirstPlayer], units[iw.US], units[iw.Japan], arriving, len(sc.Victory.Scores), len(sc.Victory.Outcomes))
}
