package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/mail/loopback"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/templates/island"
)

// islandDemoTurns are the Game-Turns of Ridge 42: the Island War demo
// plays the whole scenario unless -turns says fewer.
const islandDemoTurns = 8

// tokenLine is the token line of an orders file.
var tokenLine = regexp.MustCompile(`(?m)^token: .*$`)

// askStanding is what the Japanese demo player adds to its set-up: its
// standing instructions ask to see each U.S. attack before it answers
// (a defence wait, IW24), keeping the fixed defaults otherwise (IW21).
const askStanding = "standing:\n  ask: true\n"

// answerIsland answers an Island War game's mail: when the game waits
// for this player, it mails the file the system's stand-in writes for
// that wait with its own token put in. The Japanese player's set-up
// also asks for defence waits. The stand-in reads the position the
// server keeps; like the War in the Wind demo's random player, what it
// decides from is the demo's own business, not what the mail shows.
func (p *demoPlayer) answerIsland(ctx context.Context, msg *mail.Message) error {
	ids, err := p.db.Games()
	if err != nil {
		return err
	}
	for _, id := range ids {
		g, err := p.db.Game(id)
		if err != nil {
			return err
		}
		w := g.Wait
		key := fmt.Sprintf("%s-%d-%s-%d", id, w.Turn, w.Kind, g.Entries)
		if !w.Open() || w.Side != p.side || w.Turn > p.turns || p.answered[key] {
			continue
		}
		b, err := p.db.Position(id)
		if err != nil {
			return err
		}
		pos, err := island.Rules{}.Position(b)
		if err != nil {
			return err
		}
		raw, _, err := island.Rules{}.StandIn(id, pos, uint64(p.pick(math.MaxInt)))
		if err != nil {
			return err
		}
		p.mu.Lock()
		tok := p.token
		p.mu.Unlock()
		raw = tokenLine.ReplaceAll(raw, []byte("token: "+tok))
		if w.Kind == oi.WaitSetup && p.side == adjudicator.JP {
			raw = append(raw, askStanding...)
		}
		raw = append([]byte("# orders the demo's player took from attu's stand-in\n"), raw...)
		name := fmt.Sprintf("orders-%d-%s.yaml", w.Turn, w.Kind)
		if err := p.send(ctx, msg, name, raw); err != nil {
			return err
		}
		p.answered[key] = true
		p.mu.Lock()
		p.files++
		if w.Kind == oi.WaitDefence {
			p.defences++
		}
		p.mu.Unlock()
		p.log.Info("orders sent", "turn", w.Turn, "wait", w.Kind)
	}
	return nil
}

// mailCount is what one mailbox received between the welcome and the
// final report.
type mailCount struct {
	Mails, Bytes int
}

// countMails counts, per mailbox user, the game's mails other than the
// welcome and the final report, as a player would see them delivered.
func countMails(ds []loopback.Delivery, users ...string) map[string]mailCount {
	out := map[string]mailCount{}
	for _, d := range ds {
		subj := subjectOf(d.Data)
		if strings.Contains(subj, "welcome") || strings.Contains(subj, "the game is over") {
			continue
		}
		c := out[d.User]
		c.Mails, c.Bytes = c.Mails+1, c.Bytes+len(d.Data)
		out[d.User] = c
	}
	for _, u := range users {
		out[u] = out[u] // every user named, even with nothing
	}
	return out
}

// subjectOf is a stored mail's subject, decoded.
func subjectOf(data []byte) string {
	m, err := mail.Extract(bytes.NewReader(data), mail.Limits{})
	if err != nil {
		return ""
	}
	return m.Subject
}

// printMailCounts writes the mails each player and the umpire received
// per Game-Turn on average.
func printMailCounts(out io.Writer, counts map[string]mailCount, turns int) {
	fmt.Fprintf(out, "\n==== Mails per Game-Turn (%d Game-Turns; welcome and final report aside) ====\n\n", turns)
	for _, who := range []struct{ user, role string }{{"alice", "U.S."}, {"bob", "Japanese"}, {"carol", "umpire"}} {
		c := counts[who.user]
		fmt.Fprintf(out, "  %-8s %3d mails, %5d KB: %.2f mails and %.0f KB a Game-Turn\n", who.role, c.Mails, c.Bytes/1000,
			float64(c.Mails)/float64(turns), float64(c.Bytes)/1000/float64(turns))
	}
}
