package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/templates"
)

func init() {
	register("map", command{
		summary: "print the island map, or a close-up around one hex",
		run:     runMap,
	})
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

func runMap(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("map", flag.ContinueOnError)
	around := fs.String("around", "", "draw a close-up centred on this hex (CCRR, e.g. 2717)")
	radius := fs.Int("radius", 3, "with -around: how many hexes around the centre (up to 4 fit uncut)")
	mapFile := fs.String("map", "", "read the map from this YAML file instead of the built-in one")
	noLegend := fs.Bool("no-legend", false, "leave out the legend")
	argv, code, ok := parseFlags(fs, mapUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(argv) > 0 {
		fmt.Fprintf(stderr, "attu map: unexpected argument %q; to centre on a hex use --around %s\n", argv[0], argv[0])
		return 2
	}

	m := adjudicator.BuiltinMap()
	if *mapFile != "" {
		data, err := os.ReadFile(*mapFile)
		if err != nil {
			fmt.Fprintf(stderr, "attu map: %v\n", err)
			return 1
		}
		if m, err = adjudicator.ParseMap(data); err != nil {
			// ParseMap lists every problem, one per line.
			fmt.Fprintf(stderr, "attu map: %s is not a valid map:\n%v\n", *mapFile, err)
			return 1
		}
	}
	opt := templates.MapOptions{NoLegend: *noLegend}

	if *around == "" {
		fmt.Fprint(stdout, templates.RenderMap(m, opt))
		return 0
	}
	h, err := adjudicator.ParseHex(*around)
	if err != nil {
		fmt.Fprintf(stderr, "attu map: %v\n", err)
		return 2
	}
	if !m.OnMap(h) {
		fmt.Fprintf(stderr, "attu map: %s is not on the map (columns %02d-%02d, rows %02d-%02d)\n",
			h, m.MinCol, m.MaxCol, m.MinRow, m.MaxRow)
		return 2
	}
	if *radius < 0 {
		fmt.Fprintf(stderr, "attu map: --radius %d: the radius is 0 or more\n", *radius)
		return 2
	}
	fmt.Fprint(stdout, templates.RenderAround(m, h, *radius, opt))
	return 0
}
