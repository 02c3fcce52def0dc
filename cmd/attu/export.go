package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"

	"github.com/attu-pbem/attu/store"
)

func init() {
	registerOperator("export", "write a game, its orders, log and dice as one JSON file for attu audit", runExport)
}

const exportUsage = `Usage: attu export -db FILE [-o OUT] [-reveal] GAME

Writes game GAME as one JSON file: scenario, options, the dice commitment,
every accepted order file with its receipt time, the hash-chained log, the
dice log and, once the game has ended, the secret seed. Anyone can then check
it with "attu audit". Order files are kept as received except for the
side's token, which the server replaces by REDACTED before storing them:
tokens never leave the server, and line:col in the files stay as the player
wrote them. The seed of a running game stays out unless the umpire forces it
with -reveal (which lets the reader foresee every later die): give such an
export only to the umpire.

Examples:
  attu export -db attu.db g1                  # writes g1.json
  attu export -db attu.db -o - g1 | attu audit -

Flags:
`

func runExport(s *session) int {
	stdout, stderr := s.stdout, s.stderr
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	dbPath := fs.String("db", "attu.db", "the game database")
	out := fs.String("o", "", "where to write (default GAME.json; - for standard output)")
	reveal := fs.Bool("reveal", false, "include the seed although the game has not ended (umpire only)")
	argv, code, ok := parseFlags(fs, exportUsage, s.args, stdout, stderr)
	if !ok {
		return code
	}
	if len(argv) != 1 {
		fmt.Fprintln(stderr, "attu export: name one game, e.g. attu export -db attu.db g1")
		return 2
	}
	game := argv[0]
	if *out == "" {
		*out = game + ".json"
	}
	if *out != "-" {
		s.expect(*out, 0o600)
	}
	return s.withDB(*dbPath, reads, func(db *store.DB) int { return writeExport(s, db, *dbPath, game, *out, *reveal) })
}

func writeExport(s *session, db *store.DB, dbPath, game, out string, reveal bool) int {
	stdout, stderr := s.stdout, s.stderr
	x, err := db.Export(game, reveal)
	if err != nil {
		if errors.Is(err, store.ErrNoGame) {
			ids, _ := db.Games()
			fmt.Fprintf(stderr, "attu export: no game %q in %s (games: %v)\n", game, dbPath, ids)
		} else {
			fmt.Fprintf(stderr, "attu export: %v\n", err)
		}
		return 1
	}
	if out == "-" {
		if err := x.WriteJSON(stdout); err != nil {
			fmt.Fprintf(stderr, "attu export: %v\n", err)
			return 1
		}
		return 0
	}
	var buf bytes.Buffer
	if err := x.WriteJSON(&buf); err != nil {
		fmt.Fprintf(stderr, "attu export: %v\n", err)
		return 1
	}
	// Even without the seed an export of a running game holds every
	// hidden fact (both sides' orders and positions): the operator's
	// eyes only, whoever else may read the directory; and one that
	// foresees the dice (-reveal) above all.
	if err := s.writeFile(out, buf.Bytes(), 0o600); err != nil {
		fmt.Fprintf(stderr, "attu export: writing %s: %v\n", out, err)
		return 1
	}
	seed := "the seed stays secret until the game ends"
	if x.Seed != "" {
		seed = "seed included"
	}
	fmt.Fprintf(stdout, "wrote %s: %d log entries, %d order files, %d dice; %s\n", out, len(x.Log), len(x.Orders), len(x.Dice), seed)
	return 0
}
