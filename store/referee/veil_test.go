package referee

import (
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
)

// chainHead is a chain head as mails write it: it hashes each entry's
// secret, so two games never share one.
var chainHead = regexp.MustCompile(`\b[0-9a-f]{64}\b`)

// The non-interference property of a U.S. standing decision: the Japanese
// cannot tell a decision the U.S. files from one its standing instruction
// makes (wind.Standing.Decision). Two games with the same dice are
// played with the same orders, the U.S. deciding each turn by day, in one
// by filing the decision and in the other by a standing decision given
// with its first actions. After every step the Japanese read what came to
// their address, and their status and log answers; a step that changes
// none of that (the filed decision, while the Japanese are told only that
// the game waits for the U.S.) is not seen. The two sequences are the same,
// byte for byte, the chain heads aside (each entry's secret is in them).
func TestStandingDecisionVeiledToJapanese(t *testing.T) {
	const turns = 4
	read := func(standing bool) []string {
		h := newHarness(t, NewGame{})
		// The Japanese look at status and log after every step: more
		// answers than a day allows mail without the token.
		h.svc = New(h.db, Config{System: windsys.Rules{}, Address: "attu@example.org", Answers: 1000, AllAnswers: 1000})
		h.newMails()
		rngUS, rngJP := rand.New(rand.NewPCG(3, 4)), rand.New(rand.NewPCG(5, 6))
		given := false
		var seen []string
		look := func(mails []string) {
			var b strings.Builder
			for _, c := range []string{"status", "log"} {
				b.WriteString(mailTo(t, h.command(adjudicator.JP, c, false), jpAddr).Text)
			}
			now := chainHead.ReplaceAllString(b.String(), "HEAD")
			if len(mails) == 0 && len(seen) > 0 && seen[len(seen)-1] == now {
				return
			}
			for _, m := range mails {
				seen = append(seen, chainHead.ReplaceAllString(m, "HEAD"))
			}
			seen = append(seen, now)
		}
		look(nil)
		for h.state().Turn <= turns {
			w := h.game().Wait
			if standing && given && w.Kind == wind.WaitUSDecision {
				t.Fatalf("the standing decision did not make the decision of turn %d", w.Turn)
			}
			player := func(s *wind.State) wind.Orders {
				switch {
				case w.Kind == wind.WaitUSDecision:
					return s.DefaultOrders() // a day turn, no refit
				case w.Side == adjudicator.JP:
					return autoplay.Orders(s, pickFrom(rngJP))
				}
				o := autoplay.Orders(s, pickFrom(rngUS))
				if standing && !given {
					o.Standing = &wind.Standing{Decision: wind.DecisionDay}
					given = true
				}
				return o
			}
			var mails []string
			for _, m := range h.play(player) {
				if len(m.To) == 1 && m.To[0] == jpAddr {
					mails = append(mails, m.Subject+"\n"+m.Text)
				}
			}
			look(mails)
		}
		return seen
	}
	filed, standing := read(false), read(true)
	for i := range max(len(filed), len(standing)) {
		var a, b string
		if i < len(filed) {
			a = filed[i]
		}
		if i < len(standing) {
			b = standing[i]
		}
		if a != b {
			t.Fatalf("what the Japanese read %d: with a filed decision\n%s\nwith a standing one\n%s", i, a, b)
		}
	}
	if len(filed) < 2*turns {
		t.Fatalf("the Japanese read %d things in %d turns", len(filed), turns)
	}
}
