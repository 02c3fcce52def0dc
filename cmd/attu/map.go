package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

func init() {
	registerFunc("map", "print the island map, or a close-up around one hex", runMap)
}

const mapUsage = `Usage: attu map [--around HEX [--radius N]] [--map FILE] [--no-legend]

Prints the whole island in at most 100 columns, or with --around a close-up of
the hexes within N of HEX, each outlined and labelled with its id, level and
terrain. Both show cliffs, slopes, rivers, landing zones and victory hexes; a
legend below explains the marks.

Examples:
  attu map
  attu map --around 2717 --radius 3
  attu map --around 2821 --radius 2 --map my-attu.yaml

Flags:
`

func runMap(s *session) error {
	fs := flag.NewFlagSet("map", flag.ContinueOnError)
	around := fs.String("around", "", "draw a close-up centred on this hex (CCRR, e.g. 2717)")
	radius := fs.Int("radius", 3, "with -around: how many hexes around the centre (up to 4 fit uncut)")
	mapFile := fs.String("map", "", "read the map from this YAML file instead of the built-in one")
	noLegend := fs.Bool("no-legend", false, "leave out the legend")
	argv, err := s.parse(fs, mapUsage)
	if err != nil {
		return err
	}
	if len(argv) > 0 {
		return usageErr("unexpected argument %q; to centre on a hex use --around %s", argv[0], argv[0])
	}
	m := wind.BuiltinMap()
	if *mapFile != "" {
		data, err := os.ReadFile(*mapFile)
		if err != nil {
			return err
		}
		if m, err = wind.ParseMap(data); err != nil {
			// ParseMap lists every problem, one per line.
			return fmt.Errorf("%s is not a valid map:\n%v", *mapFile, err)
		}
	}
	opt := windsys.MapOptions{NoLegend: *noLegend}
	if *around == "" {
		fmt.Fprint(s.stdout, windsys.RenderMap(m, opt))
		return nil
	}
	h, err := adjudicator.ParseHex(*around)
	if err != nil {
		return usageErr("%v", err)
	}
	if !m.OnMap(h) {
		return usageErr("%s is not on the map (columns %02d-%02d, rows %02d-%02d)", h, m.MinCol, m.MaxCol, m.MinRow, m.MaxRow)
	}
	if *radius < 0 {
		return usageErr("--radius %d: the radius is 0 or more", *radius)
	}
	fmt.Fprint(s.stdout, windsys.RenderAround(m, h, *radius, opt))
	return nil
}
