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

// withAsk is an orders file with its standing instructions saying ask:
// whether to see the enemy's attacks before answering them (a defence
// wait, IW24). A file without standing instructions gets them, keeping
// the fixed defaults otherwise (IW21); those the file has, in block or
// in flow style as the stand-in writes them, keep what they say, and
// must not say ask already.
func withAsk(raw []byte, ask bool) []byte {
	loc := standingHead.FindSubmatchIndex(raw)
	switch {
	case loc == nil:
		if len(raw) > 0 && raw[len(raw)-1] != '\n' {
			raw = append(raw, '\n')
		}
		return fmt.Appendf(raw, "standing:\n  ask: %t\n", ask)
	case loc[2] >= 0: // flow style: standing: {...}
		sep := ", "
		if rest := bytes.TrimLeft(raw[loc[1]:], " "); len(rest) > 0 && rest[0] == '}' {
			sep = ""
		}
		out := fmt.Appendf(append([]byte(nil), raw[:loc[1]]...), "ask: %t%s", ask, sep)
		return append(out, raw[loc[1]:]...)
	default:
		out := fmt.Appendf(append([]byte(nil), raw[:loc[1]]...), "  ask: %t\n", ask)
		return append(out, raw[loc[1]:]...)
	}
}

// standingHead is the head of a file's standing instructions: the key
// and its line break (block style) or its opening brace (flow style).
var standingHead = regexp.MustCompile(`(?m)^standing:[ \t]*(?:\n|(\{))`)

// answerIsland answers an Island War game's mail: when the game waits
// for this player, it mails the file the system's stand-in writes for
// that wait with its own token put in. The Japanese player's files
// also ask for defence waits. The stand-in reads the position the
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
		if p.side == adjudicator.JP && w.Kind != oi.WaitDefence {
			raw = withAsk(raw, true) // every file, as the stand-in writes its own instructions
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
		if _, ok := out[u]; !ok {
			out[u] = mailCount{} // every user named, even with nothing
		}
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
