package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates"
)

func init() {
	register("replay", command{
		summary: "write a finished game's replay page: one HTML file that checks every die in the browser",
		run:     runReplay,
	})
}

const replayUsage = `Usage: attu replay [-o OUT] FILE

Writes the replay page of a game exported by "attu export": one HTML file,
with nothing to install and nothing loaded from the network, that shows the
game step by step on a map of the island with the units as the U.S., the
Japanese or the umpire saw them, what happened in words, every die with
its purpose, the face it needed and the face rolled, and each side's dice
luck. Opened in a browser, the page re-derives every die from the revealed
seed, checks the seed against the commitment and the log's hash chain up
to the head, and says at the top "all N dice verified" or names the first
die, entry or link that does not match. The final report of every game
carries this page. FILE - reads standard input.

Examples:
  attu replay g1.json                 # writes g1.html
  attu export -db attu.db -o - g1 | attu replay -o g1.html -

Flags:
`

func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	out := fs.String("o", "", "where to write (default FILE with .html for .json; - for standard output)")
	argv, code, ok := parseFlags(fs, replayUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(argv) != 1 {
		fmt.Fprintln(stderr, "attu replay: name one export file, e.g. attu replay g1.json")
		return 2
	}
	name := argv[0]
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "attu replay: %v\n", err)
			return 1
		}
		defer f.Close()
		r = f
	}
	x, err := store.ReadExport(r)
	if err != nil {
		fmt.Fprintf(stderr, "attu replay: %v\n", err)
		return 1
	}
	if x.Seed == "" {
		fmt.Fprintln(stderr, "attu replay: warning: the export holds no seed (the game had not ended), so the page cannot check the dice")
	}
	// The page puts the dice luck in words only for a record whose dice
	// and chain check (the browser checks them again).
	var luck *store.Luck
	if rep := store.Audit(x, store.Engine{}); rep.OK() {
		luck = rep.Luck
	}
	game, err := referee.Replay(x, luck)
	if err != nil {
		fmt.Fprintf(stderr, "attu replay: %v\n", err)
		return 1
	}
	page, err := templates.ReplayPage(game)
	if err != nil {
		fmt.Fprintf(stderr, "attu replay: %v\n", err)
		return 1
	}
	if *out == "" {
		if name == "-" {
			*out = "-"
		} else {
			*out = strings.TrimSuffix(name, ".json") + ".html"
		}
	}
	if *out == "-" {
		if _, err := stdout.Write(page); err != nil {
			fmt.Fprintf(stderr, "attu replay: %v\n", err)
			return 1
		}
		return 0
	}
	if err := os.WriteFile(*out, page, 0o644); err != nil {
		fmt.Fprintf(stderr, "attu replay: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%.1f KB): %d log entries, %d dice; open it in a browser\n", *out, float64(len(page))/1024, len(x.Log), len(x.Dice))
	return 0
}
