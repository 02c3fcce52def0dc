package referee

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
)

// flat is text with its lines joined, as a wrapped sentence reads.
func flat(text string) string { return strings.Join(strings.Fields(text), " ") }

// names lists the attachments of m.
func names(m store.Mail) []string {
	var out []string
	for _, a := range m.Attachments {
		out = append(out, a.Name)
	}
	return out
}

// Who gets what after each step, by default: the side awaited its
// report, the sender of a file a few lines when no report follows, the
// other player nothing until the game waits for it (its report then tells
// all that happened since its last one), and the umpire a digest a day.
func TestMailEconomy(t *testing.T) {
	h := newHarness(t, NewGame{Copies: CopiesDigest})
	h.newMails()

	// The U.S. decision: the U.S. is awaited again (its actions); nobody
	// else hears of it yet.
	out := h.play(nil)
	if len(out) != 1 || out[0].To[0] != usAddr || h.game().Wait.Side != adjudicator.US {
		t.Fatalf("after the decision: %v", subjects(out))
	}
	mustContain(t, "the U.S. report", flat(out[0].Text), "Accepted: your U.S. orders", "the report that follows says what happened")
	if !slices.Contains(names(out[0]), "orders-1-us-actions.html") || slices.Contains(names(out[0]), "map.png") || slices.Contains(names(out[0]), "report.json") {
		t.Errorf("the report to the side awaited carries %v: the order sheet for the map, no JSON", names(out[0]))
	}

	// The U.S. actions: the Japanese are awaited and get the report; the
	// U.S. player a few lines, threaded to its file.
	out = h.play(nil)
	ack, jp := mailTo(t, out, usAddr), mailTo(t, out, jpAddr)
	if len(out) != 2 || len(ack.Attachments) != 0 || ack.InReplyTo == "" || strings.Count(ack.Text, "\n") > 12 {
		t.Fatalf("after the U.S. actions: %v; the acceptance has %d attachments and %d lines", subjects(out), len(ack.Attachments), strings.Count(ack.Text, "\n"))
	}
	mustContain(t, "the acceptance", flat(ack.Text), "Accepted: your U.S. orders", "comes in your next report")
	mustContain(t, "the subject of the acceptance", ack.Subject, "accepted: your actions orders for turn 1")
	// The Japanese report tells of both U.S. steps it did not see mailed.
	mustContain(t, "the Japanese report", jp.Text, "The game waits for your orders", "Decision (rules 3.1, 3.2)", "Weather (rule 3.3)")
	if n := len(h.record().Unread); n != 0 {
		t.Errorf("notices left unread after every side's report: %d", n)
	}

	// The umpire: nothing at once, a digest a day after the game began,
	// then nothing more while nothing happens.
	if out := h.tick(); len(out) != 0 {
		t.Fatalf("a tick before a day: %v", subjects(out))
	}
	h.advance(DigestEvery)
	out = h.tick()
	if len(out) != 1 || out[0].To[0] != umpireAddr || !strings.Contains(out[0].Subject, "digest") {
		t.Fatalf("the umpire's digest: %v", subjects(out))
	}
	mustContain(t, "the digest", out[0].Text, "WHAT HAPPENED SINCE YOUR LAST REPORT")
	h.advance(DigestEvery)
	if out := h.tick(); slices.ContainsFunc(out, func(m store.Mail) bool { return m.To[0] == umpireAddr }) {
		t.Fatalf("a second digest with nothing new: %v", subjects(out))
	}

	// json on: report.json comes with the Japanese reports, and the report
	// says what it is.
	h.command(adjudicator.JP, "json on", true)
	h.command(adjudicator.Umpire, "copies turn", true)
	for i := 0; ; i++ {
		out = h.play(nil)
		if i == 8 {
			t.Fatal("eight steps without a Japanese report")
		}
		if h.game().Wait.Side == adjudicator.JP {
			break
		}
		if r := mailTo(t, out, usAddr); slices.Contains(names(r), "report.json") {
			t.Error("the U.S. player, who did not ask, gets report.json")
		}
	}
	if r := mailTo(t, out, jpAddr); !slices.Contains(names(r), "report.json") || !strings.Contains(flat(r.Text), "report.json, attached because you asked") {
		t.Errorf("after json on, the Japanese report carries %v", names(r))
	}

	// copies turn: the umpire's report comes once a turn.
	turns := map[int]int{}
	for range 6 {
		if out := h.play(nil); slices.ContainsFunc(out, func(m store.Mail) bool { return m.To[0] == umpireAddr }) {
			turns[h.state().Turn]++
		}
	}
	for turn, n := range turns {
		if n != 1 {
			t.Errorf("copies turn: %d umpire reports in turn %d", n, turn)
		}
	}
	if len(turns) == 0 {
		t.Error("copies turn: no umpire report in six steps")
	}
	h.audit()
}

// A report whose reader's map has not changed since its last picture
// carries none, and says so; the welcome always has one.
func TestPictureOnlyWhenTheMapChanged(t *testing.T) {
	h := newHarness(t, NewGame{})
	welcome := h.newMails()
	if !slices.Contains(names(mailTo(t, welcome, jpAddr)), "map.png") {
		t.Fatal("the Japanese welcome has no picture")
	}
	// The umpire's copies (every report) after the U.S. decision, which
	// moves nothing: no new picture.
	out := h.play(nil)
	r := mailTo(t, out, umpireAddr)
	if slices.Contains(names(r), "map.png") || !strings.Contains(flat(r.Text), "The map has not changed since the picture of your last report") {
		t.Errorf("the umpire's report after a decision carries %v:\n%s", names(r), r.Text[max(0, len(r.Text)-300):])
	}
	h.advance(time.Hour)
}

// The umpire's digest tells of the game's mails that waited more than a
// quarter of an hour to be sent since the last digest (a sending quota, a
// mail server out of reach), and says nothing of mails sent in time.
func TestDigestTellsOfMailHeldBack(t *testing.T) {
	h := newHarness(t, NewGame{Copies: CopiesDigest})
	sendAfter := func(d time.Duration) {
		t.Helper()
		ms, err := h.db.Outbox("")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if m.Sent.IsZero() {
				if err := h.db.MarkSentAll([]uint64{m.ID}, m.Queued.Add(d)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	h.play(nil)
	sendAfter(time.Minute)
	h.advance(DigestEvery)
	out := h.tick()
	if len(out) != 1 || strings.Contains(out[0].Text, "waited more than") {
		t.Fatalf("a digest after mails sent in a minute: %v\n%s", subjects(out), out[0].Text)
	}
	sendAfter(time.Minute)

	h.play(nil)
	h.play(nil)
	sendAfter(3*time.Hour + 20*time.Minute)
	h.advance(DigestEvery)
	out = h.tick()
	if len(out) != 1 || out[0].To[0] != umpireAddr {
		t.Fatalf("the second digest: %v", subjects(out))
	}
	mustContain(t, "the digest", flat(out[0].Text), "mails of this game waited more than 15 minutes to be sent since the last digest, the longest 3 hours 20 minutes",
		"sending quota (smtp per_hour, per_day)")
}

// json on and json off change only what their sender is sent, as the
// umpire's copies does: they are
// kept beside the log, so the chain head and the entries the other side
// reads stay as they were, and they hold after a restart. A game whose
// log holds such a setting as a private note, as earlier releases wrote
// it, still reads and audits.
func TestJSONSettingStaysOutOfTheChain(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.play(nil)
	before := h.game()
	usLog := mailTo(t, h.command(adjudicator.US, "log", false), usAddr).Text
	for _, how := range []string{"on", "off", "on"} {
		mustContain(t, "the answer to json "+how, mailTo(t, h.command(adjudicator.JP, "json "+how, true), jpAddr).Text, "json done", "report.json")
	}
	h.command(adjudicator.Umpire, "copies turn", true)
	if g := h.game(); g.Head != before.Head || g.Entries != before.Entries {
		t.Fatalf("json moved the chain: %d entries, head %s; before %d, %s", g.Entries, g.Head, before.Entries, before.Head)
	}
	if got := mailTo(t, h.command(adjudicator.US, "log", false), usAddr).Text; got != usLog {
		t.Errorf("the U.S. log changed with the Japanese json setting:\n%s", got)
	}
	h.restart()
	if r := h.record(); !r.JSON[adjudicator.JP] || r.copies() != CopiesTurn {
		t.Fatalf("after a restart: json %v, copies %s", r.JSON, r.copies())
	}

	// As an earlier release recorded it: a private note of the Japanese.
	_, err := h.db.Transact(h.id, nil, func(tx *store.Txn) error {
		_, err := tx.Aside(adjudicator.JP, "The Japanese player asked for a change of report.json.", false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	h.play(nil)
	h.play(nil)
	mustContain(t, "the Japanese log", mailTo(t, h.command(adjudicator.JP, "log", false), jpAddr).Text, "asked for a change of report.json")
	h.audit()
}

// A player who mails sheet off, or whose side attu new set so, gets each
// order template without the order sheet; sheet on brings it back. The
// setting is the player's own: it moves neither the chain nor the other
// side's mails, and it holds after a restart.
func TestSheetOff(t *testing.T) {
	h := newHarness(t, NewGame{NoSheet: []adjudicator.Side{adjudicator.JP}})
	h.newMails()
	before := h.game()
	mustContain(t, "the answer to sheet off", flat(mailTo(t, h.command(adjudicator.US, "sheet off", true), usAddr).Text),
		"Your reports no longer carry the order sheet")
	mustContain(t, "the answer to sheet maybe", flat(mailTo(t, h.command(adjudicator.US, "sheet maybe", true), usAddr).Text), "say sheet on or sheet off")
	mustContain(t, "the umpire's sheet off", flat(mailTo(t, h.command(adjudicator.Umpire, "sheet off", true), umpireAddr).Text), "sheet is a player's command")
	if g := h.game(); g.Head != before.Head || g.Entries != before.Entries {
		t.Fatalf("sheet moved the chain: %d entries; before %d", g.Entries, before.Entries)
	}
	h.restart()
	sheets := func(m store.Mail) (template, sheet bool) {
		for _, a := range m.Attachments {
			template = template || a.Type == "application/yaml"
			sheet = sheet || strings.HasSuffix(a.Name, ".html")
		}
		return template, sheet
	}
	// Both sides without the sheet: the U.S. by its mail, the Japanese
	// by the game's creation.
	for _, addr := range []string{usAddr, jpAddr} {
		out := h.play(nil)
		if template, sheet := sheets(mailTo(t, out, addr)); !template || sheet {
			t.Fatalf("the report to %s: template %v, sheet %v; want the template alone", addr, template, sheet)
		}
	}
	mustContain(t, "the answer to sheet on", flat(mailTo(t, h.command(adjudicator.JP, "sheet on", true), jpAddr).Text),
		"now carry the order sheet beside the order template")
	for range 8 {
		out := h.play(nil)
		for _, m := range out {
			if m.To[0] != jpAddr && m.To[0] != usAddr {
				continue
			}
			template, sheet := sheets(m)
			if m.To[0] == usAddr && sheet {
				t.Fatal("the U.S. player, who mailed sheet off, gets an order sheet")
			}
			if m.To[0] == jpAddr && template {
				if !sheet {
					t.Fatal("the Japanese player, who mailed sheet on, gets no order sheet")
				}
				return
			}
		}
	}
	t.Fatal("the Japanese were never awaited again")
}
