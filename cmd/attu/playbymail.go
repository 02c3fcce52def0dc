package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates/island"
)

// openMailSystem starts the demo's own servers ("loopback", or "") or
// opens the real servers of scripts/mailservers.sh ("real"), whose
// environment file $ATTU_MAILSERVERS names (the script's default place
// when unset). servers may also be the path of such a file.
func openMailSystem(servers string) (mailSystem, error) {
	switch servers {
	case "", "loopback":
		return startLoopbackMail()
	case "real":
		env := cmp.Or(os.Getenv(mailServersEnv), "/tmp/attu-mailservers/env")
		if _, err := os.Stat(env); err != nil {
			return nil, fmt.Errorf("-servers real: %w (start them with scripts/mailservers.sh start, and set %s to the file it prints)", err, mailServersEnv)
		}
		return openRealMail(env)
	}
	if _, err := os.Stat(servers); err == nil {
		return openRealMail(servers)
	}
	return nil, fmt.Errorf("-servers %q: want loopback, real, or the environment file of scripts/mailservers.sh", servers)
}

// mailPlay is a game to play by mail: the daemon reads attu's mailbox,
// two scripted players (demoPlayer) read theirs and answer, the umpire
// ends the game after Turns turns.
type mailPlay struct {
	Sys    mailSystem
	DB     *store.DB
	DBPath string
	Log    *slog.Logger
	Out    io.Writer // what happens, for the demo's reader; io.Discard when nil
	Turns  int
	Seed   []byte          // the players' choices
	Game   referee.NewGame // created with the players' addresses filled in
	// Steer, when set, makes the U.S. decision of each turn it returns a
	// decision for, in place of the scripted player's own choice.
	Steer func(turn int) *wind.Decision
	// Ahead makes the U.S. player give each turn's decision in advance, a
	// standing decision in its last file of the turn before.
	Ahead bool
}

// mailGameResult is a game played by mail to its end.
type mailGameResult struct {
	ID      string
	Players map[adjudicator.Side]*demoPlayer
	Account map[string]mailAccount
}

// playByMail plays p and returns when both players have received the
// final report, the daemon and the players' inboxes stopped.
func playByMail(ctx context.Context, p mailPlay) (*mailGameResult, error) {
	out, lg := cmp.Or[io.Writer](p.Out, io.Discard), cmp.Or(p.Log, slog.New(slog.DiscardHandler))
	acct := map[string]mailAccount{}
	addr := map[string]string{}
	for _, u := range []string{"attu", "alice", "bob", "carol"} {
		a, err := p.Sys.Account(u)
		if err != nil {
			return nil, err
		}
		acct[u], addr[u] = a, a.Address
	}
	// Short waits everywhere: the game must finish in seconds. IDLE
	// restarts at the default (ten minutes): the servers announce a mail
	// delivered just before IDLE began as soon as it begins (the loopback
	// server too, see loopback.prompt), so no inbox waits for a restart.
	fast := func(c mail.InboxConfig) mail.InboxConfig {
		c.RetryMin, c.RetryMax, c.Timeout = 100*time.Millisecond, time.Second, 10*time.Second
		return c
	}
	svc := referee.New(p.DB, hosting(referee.Config{Address: addr["attu"], DB: p.DBPath, Logger: lg}))
	in := fast(acct["attu"].IMAP)
	in.Processed = "attu-done"
	smtpCfg := acct["attu"].SMTP
	smtpCfg.Timeout = 10 * time.Second
	d, err := newDaemon(svc, daemon.Config{
		Address: addr["attu"],
		IMAP:    in,
		SMTP:    smtpCfg,
		Outbox:  mail.OutboxConfig{Interval: time.Second, RetryMin: 200 * time.Millisecond, RetryMax: 2 * time.Second},
		Tick:    time.Second,
		Logger:  lg,
	})
	if err != nil {
		return nil, err
	}
	runCtx, stopDaemons := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stopDaemons()
	// The daemon plays attu's side while this goroutine watches the game.
	wg.Go(func() { d.Run(runCtx) })

	sum := sha256.Sum256(append([]byte("attu demo\x00"), p.Seed...))
	players := map[adjudicator.Side]*demoPlayer{}
	// A solitaire game's Japanese are attu's own (rule 13): bob sits out.
	solo := slices.Contains(p.Game.Rules, "solitaire")
	for i, pl := range []struct {
		side adjudicator.Side
		user string
	}{{adjudicator.US, "alice"}, {adjudicator.JP, "bob"}} {
		if solo && pl.side == adjudicator.JP {
			continue
		}
		rng := mrand.New(mrand.NewPCG(binary.BigEndian.Uint64(sum[16*i:]), binary.BigEndian.Uint64(sum[16*i+8:])))
		dp := &demoPlayer{side: pl.side, addr: addr[pl.user], db: p.DB, turns: p.Turns, pick: func(n int) int { return rng.IntN(n) },
			steer: p.Steer, ahead: p.Ahead, island: p.Game.System == island.Name, smtp: p.Sys.Inbound(), log: lg.With("player", pl.user), answered: map[string]bool{}}
		in := fast(acct[pl.user].IMAP)
		in.Logger = dp.log
		if dp.inbox, err = mail.NewInbox(in, dp.handle); err != nil {
			return nil, err
		}
		players[pl.side] = dp
		// Each player reads its own mailbox, as a person's mail program
		// would, beside the daemon.
		wg.Go(func() { dp.inbox.Run(runCtx, mail.Position{}) })
	}

	ng := p.Game
	ng.US, ng.JP, ng.Umpire = addr["alice"], addr["bob"], addr["carol"]
	jp := addr["bob"]
	if solo {
		ng.JP, jp = "", "attu itself (solitaire, rule 13)"
	}
	c, err := svc.Create(ng, time.Now())
	if err != nil {
		return nil, err
	}
	id := c.Game.ID
	d.Kick()
	fmt.Fprintf(out, "attu demo: game %q created; the U.S. is played by %s, the Japanese by %s, the umpire is %s.\n",
		id, addr["alice"], jp, addr["carol"])
	fmt.Fprintf(out, "Mail goes through %s; attu reads %s.\n", p.Sys.Describe(), addr["attu"])
	fmt.Fprintf(out, "Playing %d turns by mail...\n\n", p.Turns)

	// Wait for the players to play their turns, end the game, and wait
	// for both final reports.
	ended := false
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	over := func(side adjudicator.Side) bool {
		if players[side] == nil {
			return ended // attu's own side reads no report
		}
		return players[side].isOver()
	}
	for !(over(adjudicator.US) && over(adjudicator.JP)) {
		select {
		case <-ctx.Done():
			g, _ := p.DB.Game(id)
			return nil, fmt.Errorf("the game did not finish in time (it waits for %s %s of turn %d): %w",
				g.Wait.Side, g.Wait.Kind, g.Wait.Turn, ctx.Err())
		case <-tick.C:
		}
		if ended {
			continue
		}
		g, err := p.DB.Game(id)
		if err != nil {
			return nil, err
		}
		if g.Status == store.Ended {
			ended = true
			continue
		}
		if g.Wait.Turn > p.Turns {
			if _, err := svc.Umpire(id, []string{"end", fmt.Sprintf("the demo's %d turns are played", p.Turns)}, time.Now()); err != nil {
				return nil, err
			}
			d.Kick()
			ended = true
		}
	}
	stopDaemons()
	wg.Wait()
	return &mailGameResult{ID: id, Players: players, Account: acct}, nil
}
