package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

func init() {
	registerOperator("umpire", "the umpire's powers: extend, pause, resume, force, rollback, replace, end, reveal", runUmpire)
}

const umpireUsage = `Usage: attu umpire -db FILE GAME COMMAND [ARGS]

Carries out an umpire's command on a game, as the umpire can by mail with
the umpire's token (here access to the database stands for the token).
Every command is recorded in the game's log and shown in the next reports;
the mails it sends (notices, reports, a new player's welcome) are queued
for the mail daemon. While attu serve runs, it carries out the command
itself and sends those mails at once.

Commands:
  status                  what the game waits for, the deadline, lateness
  log                     the whole record
  extend DURATION         move the deadline later (48h, 2d)
  pause, resume           stop and restart the clock
  force                   apply the default orders of the current wait now
  rollback N [WHY]        return to the position after log entry N
  replace SIDE ADDRESS    give us or jp to a new player, with a new token;
                          ADDRESS bot gives it to the server's stand-in
  end RESULT              end the game with the result in words
  reveal                  the seed, once the game is over

Examples:
  attu umpire -db attu.db g1 extend 2d
  attu umpire -db attu.db g1 rollback 7 the U.S. orders were sent by mistake
  attu umpire -db attu.db g1 replace jp dave@example.org
  attu umpire -db attu.db g1 -- end the U.S. player left -- no result

Flags:
`

func runUmpire(s *session) error {
	fs := flag.NewFlagSet("umpire", flag.ContinueOnError)
	dbPath := fs.String("db", "attu.db", "the game database")
	scenarios := scenarioFlag(fs)
	args, err := s.parse(fs, umpireUsage)
	if err != nil {
		return err
	}
	h, err := s.hosted(*scenarios)
	if err != nil {
		return err
	}
	if len(args) < 2 {
		return usageErr("name the game and the command, e.g. attu umpire -db attu.db g1 pause (attu umpire -h)")
	}
	// Opened for writing, a missing file would be created: refuse first.
	if _, err := os.Stat(*dbPath); err != nil && s.host == nil {
		return fmt.Errorf("%v; give the game database with -db FILE", err)
	}
	return s.withDB(*dbPath, writes, func(db *store.DB) error { return umpireOn(s, h, db, *dbPath, args) })
}

func umpireOn(s *session, h hosted, db *store.DB, dbPath string, args []string) error {
	svc, err := s.service(db, h.hosting(referee.Config{DB: dbPath, Hook: h.director()}))
	if err != nil {
		return err
	}
	out, err := svc.Umpire(args[0], args[1:], time.Now())
	if errors.Is(err, store.ErrNoGame) {
		return noGame(db, dbPath, args[0])
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(s.stdout, cmp.Or(out, "done"))
	return nil
}
