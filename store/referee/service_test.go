package referee

import (
	"encoding/hex"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// A game by mail from creation to the end: the welcome mails carry each
// side's token once and the commitment; each accepted file brings one
// report per side (a reply to the sender's mail), with the template for
// the side awaited and never a token; the read-only commands answer; the
// end reveals the seed to everyone with the dice luck and the file to
// audit; later orders get "this game is over"; the export audits.
func TestPlayByMail(t *testing.T) {
	h := newHarness(t, NewGame{})
	welcome := h.newMails()
	if len(welcome) != 3 {
		t.Fatalf("welcome: %v", subjects(welcome))
	}
	g := h.game()
	for _, side := range sides {
		m := mailTo(t, welcome, addressOf(side))
		if tok := tokenIn(t, m); tok != h.tokens[side] {
			t.Fatalf("%s welcome carries %q", side, tok)
		}
		mustContain(t, "the welcome", m.Text, g.Commitment, "attu+g1@example.org", gameName)
		mustContain(t, "the welcome subject", m.Subject, "[attu g1]")
		if m.From != "attu+g1@example.org" {
			t.Fatalf("welcome from %q", m.From)
		}
		for _, other := range sides {
			if other != side && strings.Contains(m.Text, h.tokens[other]) {
				t.Fatalf("the %s welcome carries the %s token", side, other)
			}
		}
	}
	if g.Deadline != start.Add(DefaultDeadline) || g.Wait.Kind != wind.WaitUSDecision {
		t.Fatalf("the first wait: %v due %v", g.Wait, g.Deadline)
	}
	if mustContain(t, "the U.S. welcome's order template", orderTemplate(mailTo(t, welcome, usAddr)), "decision:\n", "refit: false", "night: false"); orderTemplate(mailTo(t, welcome, jpAddr)) != "" {
		t.Fatal("the Japanese welcome has the U.S. template")
	}

	rng := rand.New(rand.NewPCG(5, 5))
	random := func(s *wind.State) wind.Orders { return autoplay.Orders(s, pickFrom(rng)) }
	for range 6 {
		h.advance(time.Hour)
		side := h.game().Wait.Side
		out := h.play(random)
		g := h.game()
		// The side awaited gets its report, the umpire a copy, and the
		// sender, when it is not awaited again, its acceptance.
		if want := map[bool]int{true: 2, false: 3}[side == g.Wait.Side]; len(out) != want {
			t.Fatalf("reports: %v", subjects(out))
		}
		for _, m := range out {
			for _, tok := range h.tokens {
				if strings.Contains(m.Text, tok) {
					t.Fatalf("a report carries a token: %s", m.Subject)
				}
			}
			mustContain(t, "a report", m.Text, g.Head)
		}
		if r := mailTo(t, out, addressOf(side)); r.InReplyTo == "" {
			t.Fatal("the sender's report is not a reply")
		}
		next := mailTo(t, out, addressOf(g.Wait.Side))
		mustContain(t, "the awaited side's report", next.Text, "The game waits for your orders")
		mustContain(t, "the awaited side's order template", orderTemplate(next), "wait: "+string(g.Wait.Kind), "token: PASTE-YOUR-TOKEN")
		if g.Deadline != h.clk.now().Add(DefaultDeadline) {
			t.Fatalf("deadline %v", g.Deadline)
		}
	}

	for _, c := range []struct {
		side   adjudicator.Side
		cmd    string
		answer string
	}{
		{adjudicator.US, "help", "takeback"},
		{adjudicator.JP, "status", "Waiting:  "},
		{adjudicator.Umpire, "help", "rollback N"},
		{adjudicator.US, "log", "turn 1, us-decision orders of the U.S. player"},
	} {
		out := h.command(c.side, c.cmd, false)
		mustContain(t, c.cmd, mailTo(t, out, addressOf(c.side)).Text, c.answer)
	}
	// The Japanese log does not hold the U.S. secrets, nor the U.S. one the
	// Japanese: the Komandorski draw is the Japanese player's alone.
	if out := h.command(adjudicator.US, "log", false); strings.Contains(out[0].Text, "Komandorski chits") {
		t.Fatalf("the U.S. log shows the Komandorski draw:\n%s", out[0].Text)
	}
	mustContain(t, "the Japanese log", h.command(adjudicator.JP, "log", false)[0].Text, "Komandorski chits")

	// resend: the side's last report again, to its address.
	last := lastReport(t, h, adjudicator.JP)
	out := h.command(adjudicator.JP, "resend", true)
	if r := mailTo(t, out, jpAddr); r.Text != last.Text || !strings.Contains(r.Subject, "sent again") {
		t.Fatalf("resend: %q", r.Subject)
	}
	// template: for the side awaited, and a polite no for the other.
	w := h.game().Wait
	mustContain(t, "template", mailTo(t, h.command(w.Side, "template", true), addressOf(w.Side)).Text, "wait: "+string(w.Kind))
	mustContain(t, "template", mailTo(t, h.command(w.Side.Enemy(), "template", true), addressOf(w.Side.Enemy())).Text, "not for your orders")

	// The Japanese concede: the game ends, everyone gets the final report
	// with the seed, the luck and the export.
	out = h.command(adjudicator.JP, "concede", true)
	g = h.game()
	if g.Status != store.Ended || len(out) != 3 {
		t.Fatalf("after conceding: %s, %v", g.Status, subjects(out))
	}
	// The final report is the only answer to the mail that conceded:
	// the Japanese one is threaded to it.
	if r := mailTo(t, out, jpAddr); r.InReplyTo != fmt.Sprintf("<m%d@players.test>", h.mails) {
		t.Errorf("the Japanese final report is in reply to %q, not to the concession", r.InReplyTo)
	}
	for _, m := range out {
		mustContain(t, "the final report", m.Text, hex.EncodeToString(g.Seed), "attu audit attu-g1.json.gz", "Dice luck", "U.S. victory: the Japanese player conceded.")
		// The export and the replay page come first; the report's map
		// follows them (report.json only for who asked for it: nobody).
		var names []string
		for _, a := range m.Attachments {
			names = append(names, a.Name)
		}
		if strings.Join(names, " ") != "attu-g1.json.gz attu-g1.html map.png" {
			t.Fatalf("final report attachments: %v", names)
		}
		if _, markup, _, err := templates.Unpack(m.Attachments[1].Data); err != nil || !strings.Contains(string(markup), g.Commitment) {
			t.Fatalf("the replay page does not unpack to the game's commitment: %v", err)
		}
		x, err := store.ReadExport(strings.NewReader(string(m.Attachments[0].Data)))
		if err != nil {
			t.Fatal(err)
		}
		if rep := store.Audit(x, windsys.Rules{}); !rep.OK() || !rep.SeedShown {
			t.Fatalf("the attached export does not audit: %v", rep.Bad)
		}
	}
	m := h.message(usAddr, "orders")
	m.Orders = orderFile(h.id, h.tokens[adjudicator.US], wind.Orders{Side: adjudicator.US, Turn: w.Turn, Wait: wind.WaitActions})
	out = h.send(m)
	mustContain(t, "orders after the end", mailTo(t, out, usAddr).Text, "This game is over")
	rep := h.audit()
	if !rep.SeedShown {
		t.Fatal("the export of an ended game has no seed")
	}
}

// lastReport is the last report mailed to side.
func lastReport(t testing.TB, h *harness, side adjudicator.Side) store.Mail {
	t.Helper()
	all, err := h.db.Outbox(h.id)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(all) - 1; i >= 0; i-- {
		if strings.Contains(all[i].MessageID, ".report-"+side.String()+".") {
			return all[i]
		}
	}
	t.Fatalf("no report to %s", side)
	return store.Mail{}
}

// When the rules end the game, the step that ends it sends the final
// reports instead of the next ones, and the seed goes with them.
func TestRulesEndTheGame(t *testing.T) {
	h := newHarness(t, NewGame{Setup: "random"})
	h.newMails()
	rng := rand.New(rand.NewPCG(11, 11))
	random := func(s *wind.State) wind.Orders { return autoplay.Orders(s, pickFrom(rng)) }
	var out []store.Mail
	var last adjudicator.Side
	for i := 0; h.game().Status == store.Active; i++ {
		if i > 200 {
			t.Fatal("the game does not end")
		}
		h.advance(time.Hour)
		last = h.game().Wait.Side
		out = h.play(random)
	}
	st := h.state()
	g := h.game()
	if !st.Over() || len(out) != 3 {
		t.Fatalf("ended with %v after %v", subjects(out), st.Wait())
	}
	for _, m := range out {
		mustContain(t, "the final report", m.Text, "is over, after turn", st.Outlook(adjudicator.US).Victory, hex.EncodeToString(g.Seed))
	}
	// The final report is the only answer to the orders that ended the
	// game: the sender's is threaded to them and says they were accepted;
	// the others answer no mail of theirs.
	ended := fmt.Sprintf("<m%d@players.test>", h.mails)
	for _, m := range out {
		if len(m.To) != 1 || m.To[0] != addressOf(last) {
			if m.InReplyTo != "" || strings.Contains(m.Text, "Accepted:") {
				t.Errorf("the final report to %v answers %q:\n%.400s", m.To, m.InReplyTo, m.Text)
			}
			continue
		}
		if m.InReplyTo != ended || !slices.Contains(m.References, ended) {
			t.Errorf("the final report to the %s player is in reply to %q (references %q), not to its orders %s", last, m.InReplyTo, m.References, ended)
		}
		mustContain(t, "the final report to the sender", m.Text, "Accepted: your ", "Your orders ended the game")
	}
	if g.Deadline != (time.Time{}) {
		t.Fatalf("an ended game has a deadline: %v", g.Deadline)
	}
	if s, _ := h.svc.Games(); len(s) != 1 || !strings.HasPrefix(s[0].Waiting, "nothing: game over") {
		t.Fatalf("status: %+v", s)
	}
	h.audit()
}
