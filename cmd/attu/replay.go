package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

func init() {
	registerFunc("replay", "write a finished game's replay page: one HTML file that checks every die in the browser", runReplay)
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

The page holds everything the export holds: it is written mode 0600, as the
export is, unless the game has ended and its seed is public, when anyone may
read it (0644), as the final report's page.

Examples:
  attu replay g1.json                 # writes g1.html
  attu export -db attu.db -o - g1 | attu replay -o g1.html -

Flags:
`

func runReplay(s *session) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	out := fs.String("o", "", "where to write (default FILE with .html for .json; - for standard output)")
	scenarios := scenarioFlag(fs)
	argv, err := s.parse(fs, replayUsage)
	if err != nil {
		return err
	}
	if len(argv) != 1 {
		return usageErr("name one export file, e.g. attu replay g1.json")
	}
	name := argv[0]
	x, err := readExport(name)
	if err != nil {
		return err
	}
	if x.Seed == "" {
		fmt.Fprintln(s.stderr, "attu replay: warning: the export holds no seed (the game had not ended), so the page cannot check the dice")
	}
	// The page puts the dice luck in words only for a record whose dice
	// and chain check (the browser checks them again).
	h, err := s.hosted(*scenarios)
	if err != nil {
		return err
	}
	sys, err := h.forExport(x)
	if err != nil {
		return fmt.Errorf("cannot replay %s: %w", name, err)
	}
	var luck *store.Luck
	if rep := store.Audit(x, sys); rep.OK() {
		luck = rep.Luck
	}
	game, err := referee.Replay(sys, x, luck)
	if err != nil {
		return err
	}
	page, err := sys.ReplayPage(game)
	if err != nil {
		return err
	}
	if *out == "" && name != "-" {
		*out = strings.TrimSuffix(name, ".json") + ".html"
	}
	if *out == "" || *out == "-" {
		_, err := s.stdout.Write(page)
		return err
	}
	if err := replaceFile(*out, page, replayMode(x)); err != nil {
		return err
	}
	fmt.Fprintf(s.stdout, "wrote %s (%.1f KB): %d log entries, %d dice; open it in a browser\n", *out, float64(len(page))/1024, len(x.Log), len(x.Dice))
	return nil
}

// replayMode is the mode of a replay page of x: 0644 for a game that has
// ended, whose seed and record the final report gives both players anyway;
// else 0600, since the page of a running game (or of one exported with
// -reveal) shows every hidden counter and the seed of dice still to come.
func replayMode(x *store.Export) os.FileMode {
	if x.Status == store.Ended && x.Seed != "" {
		return 0o644
	}
	return 0o600
}
