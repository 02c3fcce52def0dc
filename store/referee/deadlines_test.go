package referee

import (
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
)

// The clock's work comes from what is stored: the database is closed and
// opened again between the reminder, the deadline and the default orders,
// and each happens once however often Tick runs. The missed deadline is
// recorded against the player, every side is told, and the default
// orders are a file in the record that the audit replays.
func TestDeadlinesAcrossRestarts(t *testing.T) {
	h := newHarness(t, NewGame{Deadline: 48 * time.Hour, Reminder: 12 * time.Hour})
	h.newMails()
	g := h.game()
	if g.Deadline != start.Add(48*time.Hour) {
		t.Fatalf("deadline %v", g.Deadline)
	}
	h.advance(35 * time.Hour)
	if out := h.tick(); len(out) != 0 {
		t.Fatalf("before the reminder: %v", subjects(out))
	}
	h.restart()
	h.advance(time.Hour) // 36 h: 12 h before the deadline
	out := h.tick()
	r := mailTo(t, out, usAddr)
	if len(out) != 1 || !strings.Contains(r.Subject, "reminder") {
		t.Fatalf("the reminder: %v", subjects(out))
	}
	mustContain(t, "the reminder", r.Text, when(g.Deadline), "orders-1-us-decision.yaml")
	if len(r.Attachments) != 1 || !strings.Contains(string(r.Attachments[0].Data), "wait: us-decision") {
		t.Fatalf("the reminder does not carry the template: %+v", r.Attachments)
	}
	h.restart()
	for range 3 {
		h.advance(time.Hour)
		if out := h.tick(); len(out) != 0 {
			t.Fatalf("a second reminder: %v", subjects(out))
		}
	}
	h.restart()
	// The daemon was down when the deadline passed: it comes back a day
	// later and handles the deadline once.
	h.advance(36 * time.Hour)
	out = h.tick()
	g = h.game()
	// The U.S. player, awaited again, and the umpire are told; the
	// Japanese player reads it in its next report.
	if len(out) != 2 || g.Wait.Kind != wind.WaitActions || g.Wait.Side != adjudicator.US {
		t.Fatalf("after the deadline: %v, waits for %v", subjects(out), g.Wait)
	}
	for _, m := range out {
		mustContain(t, "the reports after the deadline", m.Text, "The U.S. player missed the deadline of turn 1 us-decision", "no refit, a day turn")
	}
	if h.record().Late[adjudicator.US] != 1 {
		t.Fatalf("lateness: %v", h.record().Late)
	}
	if g.Deadline != h.clk.now().Add(48*time.Hour) {
		t.Fatalf("the next deadline: %v", g.Deadline)
	}
	entries := g.Entries
	h.restart()
	if out := h.tick(); len(out) != 0 || h.game().Entries != entries {
		t.Fatalf("the deadline handled twice: %v", subjects(out))
	}
	log, _ := h.db.Log(h.id, 1)
	var note, defaults bool
	for _, e := range log {
		note = note || e.Kind == store.KindNote && strings.Contains(e.Note, "missed the deadline")
		defaults = defaults || e.Kind == store.KindOrders && mustOrders(t, e.Entry).Decision != nil && !mustOrders(t, e.Entry).Decision.Night && e.MessageID == ""
	}
	if !note || !defaults {
		t.Fatalf("the log: note %v, default orders %v", note, defaults)
	}
	// The actions' deadline passes too: no activations.
	h.advance(49 * time.Hour)
	h.tick()
	if w := h.game().Wait; w.Side != adjudicator.JP || h.record().Late[adjudicator.US] != 2 {
		t.Fatalf("after the second deadline: %v, late %v", w, h.record().Late)
	}
	raw, err := h.rawOrders(h.game().Current)
	if err != nil || !strings.Contains(string(raw), "actions: []") || !strings.Contains(string(raw), "token: REDACTED") {
		t.Fatalf("the default file:\n%s", raw)
	}
	h.audit()
}

// A settle window holds a file; a newer file from the same side replaces
// it; the window closing applies the newer one; "go" and "now: true" skip
// the wait.
func TestSettleWindow(t *testing.T) {
	h := newHarness(t, NewGame{Settle: 30 * time.Minute})
	mustContain(t, "the welcome", h.newMails()[0].Text, "holds each orders file for 30m0s")
	first := h.message(usAddr, "orders")
	first.Orders = orderFile(h.id, h.tokens[adjudicator.US], wind.Orders{Side: adjudicator.US, Turn: 1, Wait: wind.WaitUSDecision, Decision: &wind.Decision{Night: true}})
	out := h.send(first)
	mustContain(t, "the held answer", mailTo(t, out, usAddr).Text, "will be applied at "+when(start.Add(30*time.Minute)))
	if h.game().Entries != 1 {
		t.Fatal("the held file was applied")
	}
	h.advance(10 * time.Minute)
	second := h.message(usAddr, "orders")
	second.Orders = h.file(nil, h.tokens[adjudicator.US]) // a day turn
	out = h.send(second)
	mustContain(t, "the second held answer", mailTo(t, out, usAddr).Text, "replace the ones you sent before", "will be applied at "+when(h.clk.now().Add(30*time.Minute)))
	if r, _, _ := h.db.Processed(store.MailRef{MessageID: first.MessageID}); !strings.HasPrefix(r.Outcome, "replaced by") {
		t.Fatalf("the first file's receipt: %+v", r)
	}
	// An illegal file is refused at once and does not replace the held one.
	bad := h.message(usAddr, "orders")
	bad.Orders = []byte(strings.Replace(string(second.Orders), "refit: false", "refit: maybe", 1))
	out = h.send(bad)
	mustContain(t, "the refusal", mailTo(t, out, usAddr).Text, "not applied")
	h.advance(25 * time.Minute)
	if out := h.tick(); len(out) != 0 {
		t.Fatalf("before the window closes: %v", subjects(out))
	}
	h.advance(5 * time.Minute)
	out = h.tick()
	if len(out) != 2 || h.game().Wait.Kind != wind.WaitActions || h.state().Night {
		t.Fatalf("the window closed: %v; night %v", subjects(out), h.state().Night)
	}
	log, _ := h.db.Log(h.id, 2)
	if log[0].MessageID != second.MessageID {
		t.Fatalf("applied %s, want the newer %s", log[0].MessageID, second.MessageID)
	}
	if r, _, _ := h.db.Processed(store.MailRef{MessageID: second.MessageID}); r.Entry != log[0].Seq || r.Outcome != "accepted" {
		t.Fatalf("the receipt of the applied file: %+v", r)
	}

	// "go" applies the held file at once.
	us := h.message(usAddr, "orders")
	us.Orders = h.file(nil, h.tokens[adjudicator.US])
	h.send(us)
	entries := h.game().Entries
	if out := h.command(adjudicator.JP, "go", true); h.game().Entries != entries || !strings.Contains(out[0].Text, "no orders of yours are held") {
		t.Fatalf("go from the other side: %v", subjects(out))
	}
	if out := h.command(adjudicator.US, "go", true); len(out) != 3 || h.game().Wait.Side != adjudicator.JP {
		t.Fatalf("go: %v", subjects(out))
	}
	// now: true skips the window.
	jp := h.message(jpAddr, "orders")
	jp.Orders = append(h.file(nil, h.tokens[adjudicator.JP]), "now: true\n"...)
	if out := h.send(jp); len(out) != 3 || h.game().Wait.Kind != wind.WaitUSDecision {
		t.Fatalf("now: true: %v", subjects(out))
	}
	h.audit()
}

// A takeback the opponent agrees to undoes the last step, and one nobody
// agrees to lapses; both are recorded and every side is told.
func TestTakeback(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	h.play(nil) // U.S. decision
	h.play(nil) // U.S. actions
	before := h.game()
	undone := before.Entries
	out := h.command(adjudicator.US, "takeback", true)
	mustContain(t, "the request to the opponent", mailTo(t, out, jpAddr).Text, "agree")
	mailTo(t, out, umpireAddr)
	mustContain(t, "the answer", mailTo(t, out, usAddr).Text, "takeback asked", fmt.Sprintf("You asked to take back entry %d", undone))
	// The requester cannot agree to their own request.
	if out := h.command(adjudicator.US, "agree", true); !strings.Contains(out[0].Text, "no takeback request") {
		t.Fatalf("self-agree: %s", out[0].Text)
	}
	out = h.command(adjudicator.JP, "agree", true)
	g := h.game()
	if len(out) != 3 || g.Wait.Side != adjudicator.US || g.Wait.Kind != wind.WaitActions {
		t.Fatalf("after agreeing: %v, waits for %v", subjects(out), g.Wait)
	}
	for _, m := range out {
		mustContain(t, "the reports after the takeback", m.Text, "agreed by the Japanese player")
	}
	log, _ := h.db.Log(h.id, 1)
	if log[undone-1].RolledBackBy == 0 {
		t.Fatalf("entry %d is not marked undone", undone)
	}
	h.play(nil) // the U.S. actions again
	// A request nobody answers lapses at its time.
	h.command(adjudicator.US, "takeback", true)
	h.advance(DefaultTakeback - time.Minute)
	if out := h.tick(); len(out) != 0 {
		t.Fatalf("before the lapse: %v", subjects(out))
	}
	h.advance(time.Minute)
	out = h.tick()
	if len(out) != 2 || !strings.Contains(out[0].Text, "lapsed") {
		t.Fatalf("the lapse: %v", subjects(out))
	}
	if out := h.command(adjudicator.JP, "agree", true); !strings.Contains(out[0].Text, "no takeback request") {
		t.Fatalf("agreeing too late: %s", out[0].Text)
	}
	// A request lapses too when the game moves on.
	h.command(adjudicator.JP, "takeback", true)
	out = h.play(nil)
	mustContain(t, "the report of the side awaited next", mailTo(t, out, addressOf(h.game().Wait.Side)).Text, "lapsed: the game moved on")
	log, _ = h.db.Log(h.id, 1)
	var notes []string
	for _, e := range log {
		if e.Kind == store.KindNote {
			notes = append(notes, e.Note)
		}
	}
	if len(notes) != 5 {
		t.Fatalf("notes: %q", notes)
	}
	h.audit()
}

// Orders applied at once (now: true) while an earlier file waits replace
// it: the earlier one is never applied, and the ledger says so.
func TestSettleNowReplacesHeld(t *testing.T) {
	h := newHarness(t, NewGame{Settle: time.Hour})
	held := h.message(usAddr, "orders")
	held.Orders = h.file(nil, h.tokens[adjudicator.US])
	h.send(held)
	now := h.message(usAddr, "orders")
	now.Orders = append(orderFile(h.id, h.tokens[adjudicator.US], wind.Orders{Side: adjudicator.US, Turn: 1, Wait: wind.WaitUSDecision, Decision: &wind.Decision{Night: true}}), "now: true\n"...)
	if out := h.send(now); len(out) != 3 || !h.state().Night {
		t.Fatalf("now: true: %v", subjects(out))
	}
	if r, _, _ := h.db.Processed(store.MailRef{MessageID: held.MessageID}); r.Entry != 0 || !strings.HasPrefix(r.Outcome, "dropped") {
		t.Fatalf("the held file's receipt: %+v", r)
	}
	h.advance(2 * time.Hour)
	entries := h.game().Entries
	if out := h.tick(); len(out) != 0 || h.game().Entries != entries {
		t.Fatalf("the dropped file came back: %v", subjects(out))
	}
	h.audit()
}

// "absent" moves the side's deadlines to count from its return, within
// the umpire's limit; it is recorded and shown in the next reports.
func TestAbsent(t *testing.T) {
	h := newHarness(t, NewGame{Absence: 7 * 24 * time.Hour})
	h.newMails()
	if out := h.command(adjudicator.US, "absent 8d", true); !strings.Contains(out[0].Text, "at most 7 days") {
		t.Fatalf("beyond the limit: %s", out[0].Text)
	}
	if out := h.command(adjudicator.US, "absent someday", true); !strings.Contains(out[0].Text, "is not a date") {
		t.Fatalf("a bad date: %s", out[0].Text)
	}
	until := start.Add(5 * 24 * time.Hour)
	out := h.command(adjudicator.US, "absent "+until.Format("2006-01-02T15:04"), true)
	want := until.Add(DefaultDeadline)
	mustContain(t, "the answer", mailTo(t, out, usAddr).Text, "away until "+when(until), "Your current deadline: "+when(want))
	mustContain(t, "the umpire's notice", mailTo(t, out, umpireAddr).Text, "away until")
	if g := h.game(); g.Deadline != want {
		t.Fatalf("deadline %v, want %v", g.Deadline, want)
	}
	// The reminder and the deadline follow the new time.
	h.advance(4 * 24 * time.Hour)
	if out := h.tick(); len(out) != 0 {
		t.Fatalf("during the absence: %v", subjects(out))
	}
	h.advance(3 * 24 * time.Hour) // 24 h before the deadline
	mustContain(t, "the reminder", mailTo(t, h.tick(), usAddr).Subject, "reminder")
	// Once the player is back, deadlines count from each wait again.
	out = h.play(nil)
	mustContain(t, "the reports", out[0].Text, "The U.S. player is away until")
	if g := h.game(); g.Deadline != h.clk.now().Add(DefaultDeadline) {
		t.Fatalf("after the return the deadline is %v", g.Deadline)
	}
	log, _ := h.db.Log(h.id, 1)
	found := false
	for _, e := range log {
		found = found || e.Kind == store.KindNote && e.Side == adjudicator.US && strings.Contains(e.Note, "away until")
	}
	if !found {
		t.Fatal("the absence is not in the log")
	}
	h.audit()
}

// A refit turn whose two refit deadlines pass: the U.S. restores by the
// default priority and lands nothing, the Japanese hide what may hide;
// both files are in the record and the audit replays them.
func TestRefitDeadlines(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	m := h.message(usAddr, "orders")
	m.Orders = orderFile(h.id, h.tokens[adjudicator.US], wind.Orders{Side: adjudicator.US, Turn: 1, Wait: wind.WaitUSDecision, Decision: &wind.Decision{Refit: true}})
	out := h.send(m)
	if w := h.game().Wait; w.Kind != wind.WaitUSRefit {
		t.Fatalf("after a refit decision the game waits for %v", w)
	}
	mustContain(t, "the U.S. report's order template", orderTemplate(mailTo(t, out, usAddr)), "wait: us-refit", "refit:")
	for _, kind := range []adjudicator.WaitKind{wind.WaitUSRefit, wind.WaitJPRefit} {
		g := h.game()
		if g.Wait.Kind != kind {
			t.Fatalf("waits for %v, want %s", g.Wait, kind)
		}
		h.clk.t = g.Deadline
		out := h.tick()
		mustContain(t, "the reports", out[0].Text, "missed the deadline of turn 1 "+string(kind), defaultsOf(kind))
		raw, err := h.rawOrders(h.game().Current)
		if err != nil || !strings.Contains(string(raw), "wait: "+string(kind)) {
			t.Fatalf("the default file: %v\n%s", err, raw)
		}
	}
	if w := h.game().Wait; w.Turn != 2 || w.Kind != wind.WaitUSDecision {
		t.Fatalf("after the refit turn the game waits for %v", w)
	}
	if late := h.record().Late; late[adjudicator.US] != 1 || late[adjudicator.JP] != 1 {
		t.Fatalf("lateness %v", late)
	}
	h.audit()
}

// defaultsOf is what War in the Wind says the default orders of kind k are.
func defaultsOf(k adjudicator.WaitKind) string {
	what, _ := (windsys.Rules{}).Defaults(k)
	return what
}
