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

func runExport(s *session) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	dbPath := fs.String("db", "attu.db", "the game database")
	out := fs.String("o", "", "where to write (default GAME.json; - for standard output)")
	reveal := fs.Bool("reveal", false, "include the seed although the game has not ended (umpire only)")
	scenarios := scenarioFlag(fs)
	argv, err := s.parse(fs, exportUsage)
	if err != nil {
		return err
	}
	if len(argv) != 1 {
		return usageErr("name one game, e.g. attu export -db attu.db g1")
	}
	h, err := s.hosted(*scenarios)
	if err != nil {
		return err
	}
	game := argv[0]
	if *out == "" {
		*out = game + ".json"
	}
	if *out != "-" {
		s.expect(*out, 0o600)
	}
	return s.withDB(*dbPath, reads, func(db *store.DB) error { return writeExport(s, h, db, *dbPath, game, *out, *reveal) })
}

func writeExport(s *session, h hosted, db *store.DB, dbPath, game, out string, reveal bool) error {
	x, err := db.Export(game, reveal)
	if errors.Is(err, store.ErrNoGame) {
		return noGame(db, dbPath, game)
	}
	if err != nil {
		return err
	}
	sys, err := h.named(x.SystemName())
	if err != nil {
		return err
	}
	if err := carry(sys, x); err != nil {
		return err
	}
	if out == "-" {
		return x.WriteJSON(s.stdout)
	}
	var buf bytes.Buffer
	if err := x.WriteJSON(&buf); err != nil {
		return err
	}
	// Even without the seed an export of a running game holds every
	// hidden fact (both sides' orders and positions): the operator's
	// eyes only, whoever else may read the directory; and one that
	// foresees the dice (-reveal) above all.
	if err := s.writeFile(out, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("writing %s: %v", out, err)
	}
	seed := "the seed stays secret until the game ends"
	if x.Seed != "" {
		seed = "seed included"
	}
	fmt.Fprintf(s.stdout, "wrote %s: %d log entries, %d order files, %d dice; %s\n", out, len(x.Log), len(x.Orders), len(x.Dice), seed)
	return nil
}

// noGame is the error of a command naming a game that is not in db.
func noGame(db *store.DB, dbPath, game string) error {
	ids, _ := db.Games()
	return fmt.Errorf("no game %q in %s (games: %v)", game, dbPath, ids)
}
