package referee

import (
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
)

// The umpire's powers, by mail with the umpire's token and from the
// command line: each is recorded in the log and shown in the next reports,
// and the game's export audits at the end.
func TestUmpirePowers(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	umpire := func(cmd string) []store.Mail {
		t.Helper()
		return h.command(adjudicator.Umpire, cmd, true)
	}
	cli := func(args ...string) string {
		t.Helper()
		out, err := h.svc.Umpire(h.id, args, h.clk.now())
		if err != nil {
			t.Fatalf("attu umpire %v: %v", args, err)
		}
		return out
	}

	// A player may not use the umpire's powers.
	if out := h.command(adjudicator.US, "pause", true); !strings.Contains(out[0].Text, "only the umpire may pause") || h.game().Status != store.Active {
		t.Fatalf("a player pausing: %v", out[0].Text)
	}

	// extend
	d := h.game().Deadline
	out := umpire("extend 2d")
	mustContain(t, "the notice", mailTo(t, out, usAddr).Text, "extended your deadline to "+when(d.Add(48*time.Hour)))
	if g := h.game(); g.Deadline != d.Add(48*time.Hour) {
		t.Fatalf("extended to %v", g.Deadline)
	}

	// pause: orders are refused, the clock stands still; resume restores
	// the time that was left.
	h.advance(time.Hour)
	left := h.game().Deadline.Sub(h.clk.now())
	out = umpire("pause")
	if h.game().Status != store.Paused || len(out) != 3 {
		t.Fatalf("pause: %v", subjects(out))
	}
	m := h.message(usAddr, "orders")
	m.Orders = h.file(nil, h.tokens[adjudicator.US])
	mustContain(t, "orders while paused", h.send(m)[0].Text, "paused")
	h.advance(200 * time.Hour)
	if out := h.tick(); len(out) != 0 {
		t.Fatalf("a paused game's clock runs: %v", subjects(out))
	}
	mustContain(t, "resume", cli("resume"), "Resumed")
	if g := h.game(); g.Status != store.Active || g.Deadline != h.clk.now().Add(left) {
		t.Fatalf("resumed: %s, deadline %v, want %v", g.Status, g.Deadline, h.clk.now().Add(left))
	}
	h.newMails()

	// force: the default orders now, no lateness recorded.
	out = umpire("force")
	// The U.S. player, awaited again, gets its report, the umpire a copy
	// and the answer; the Japanese player reads it in its next report.
	if len(out) != 3 || h.game().Wait.Kind != wind.WaitActions || h.record().Late[adjudicator.US] != 0 {
		t.Fatalf("force: %v", subjects(out))
	}
	mustContain(t, "the reports", mailTo(t, out, usAddr).Text, "The umpire forced the default orders")
	h.play(nil) // U.S. actions
	h.play(nil) // Japanese actions: turn 2
	g := h.game()
	if g.Wait.Turn != 2 {
		t.Fatalf("waits for %v", g.Wait)
	}

	// rollback N: back to the position after entry 4 (the U.S. decision
	// forced in turn 1, before the actions).
	log, _ := h.db.Log(h.id, 1)
	var to uint64
	for _, e := range log {
		if e.Kind == store.KindOrders && e.Wait == wind.WaitUSDecision {
			to = e.Seq
		}
	}
	out = umpire("rollback " + itoa(to) + " the U.S. player mistyped")
	if g := h.game(); len(out) != 4 || g.Wait.Turn != 1 || g.Wait.Kind != wind.WaitActions || g.Wait.Side != adjudicator.US {
		t.Fatalf("rollback: %v, waits for %v", subjects(out), h.game().Wait)
	}
	mustContain(t, "the reports after the rollback", mailTo(t, out, jpAddr).Text, "rolled the game back to entry "+itoa(to), "mistyped")
	if _, err := h.svc.Umpire(h.id, []string{"rollback", "999"}, h.clk.now()); err == nil {
		t.Fatal("a rollback to an entry that does not exist")
	}

	// replace: the new player gets a new token; the old token no longer
	// works, the new one does.
	oldToken := h.tokens[adjudicator.US]
	out = umpire("replace us newcomer@example.org")
	welcome := mailTo(t, out, "newcomer@example.org")
	mailTo(t, out, usAddr) // the replaced player is told
	answer := mailTo(t, out, umpireAddr)
	newToken := tokenIn(t, welcome)
	if newToken == oldToken || strings.Contains(answer.Text, newToken) {
		t.Fatal("the new token")
	}
	stale := h.message("newcomer@example.org", "orders")
	stale.Orders = h.file(nil, oldToken)
	entries := h.game().Entries
	mustContain(t, "the old token", h.send(stale)[0].Text, "is not your side's token")
	old := h.message(usAddr, "orders")
	old.Orders = h.file(nil, oldToken)
	h.send(old)
	if h.game().Entries != entries {
		t.Fatal("the old player's orders were applied")
	}
	fresh := h.message("newcomer@example.org", "orders")
	fresh.Orders = h.file(nil, newToken)
	if out := h.send(fresh); len(out) != 3 || h.game().Entries == entries {
		t.Fatalf("the new player's orders: %v", subjects(out))
	}

	// reveal is refused while the game runs; end with a result; reveal then.
	if out := umpire("reveal"); !strings.Contains(out[0].Text, "secret until the game is over") {
		t.Fatalf("reveal while running: %s", out[0].Text)
	}
	out = umpire("end U.S. marginal victory by agreement")
	if h.game().Status != store.Ended || len(out) != 4 {
		t.Fatalf("end: %v", subjects(out))
	}
	seed := hex.EncodeToString(h.game().Seed)
	mustContain(t, "the final report", mailTo(t, out, "newcomer@example.org").Text, seed, "ended by the umpire: U.S. marginal victory by agreement")
	mustContain(t, "reveal", cli("reveal"), seed)
	mustContain(t, "reveal by mail", umpire("reveal")[0].Text, seed)

	log, _ = h.db.Log(h.id, 1)
	var kinds []string
	for _, e := range log {
		kinds = append(kinds, string(e.Kind))
	}
	got := strings.Join(kinds, " ")
	for _, want := range []string{"note note note note orders", "rollback", "note orders", "note end note note"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the log is %s, without %q", got, want)
		}
	}
	h.audit()
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// A mail the daemon gave up on is told to the umpire at once when a player
// of the game sent it: by its subject's tag, or, with none, as the one
// game its sender plays. A stranger's, or one naming no game, sends
// nothing.
func TestSetAsideTellsTheUmpire(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	aside := func(from, subject string) []store.Mail {
		t.Helper()
		f := store.FailedMail{From: from, Subject: subject, MessageID: "<x1@players.test>"}
		if err := h.svc.SetAside(f, 3, h.clk.now()); err != nil {
			t.Fatal(err)
		}
		return h.newMails()
	}
	for _, subject := range []string{"Re: [attu g1] turn 1 (May 11): the U.S. decision", "my orders"} {
		ms := aside(usAddr, subject)
		if len(ms) != 1 || ms[0].To[0] != umpireAddr {
			t.Fatalf("subject %q: mailed %v, want the umpire once", subject, subjects(ms))
		}
		mustContain(t, "the umpire's notice", ms[0].Subject+"\n"+ms[0].Text, "a player's mail could not be handled",
			"A mail from the U.S. player could not be handled after 3 tries", subject, "<x1@players.test>", "attu status")
	}
	if ms := aside("stranger@example.net", "[attu g1] status"); len(ms) > 0 {
		t.Errorf("a stranger's mail set aside mailed %v", subjects(ms))
	}
	if ms := aside(usAddr, "[attu nosuch] status"); len(ms) > 0 {
		t.Errorf("a mail for no game mailed %v", subjects(ms))
	}
}
