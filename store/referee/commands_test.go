package referee

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
)

// A game of no tournament answers the tournament's commands at once:
// there are no standings and no digest.
func TestTournamentCommandsOutsideATournament(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	mustContain(t, "standings", mailTo(t, h.command(adjudicator.US, "standings", false), usAddr).Text, "not part of a tournament")
	mustContain(t, "digest", mailTo(t, h.command(adjudicator.Umpire, "digest", false), umpireAddr).Text, "not part of a tournament")
	mustContain(t, "a player's digest", mailTo(t, h.command(adjudicator.US, "digest", false), usAddr).Text, "umpire")
}

// The mail reader knows every command word of the service, so that the
// daemon's log names the command of every mail that carries one.
func TestMailKnowsEveryCommand(t *testing.T) {
	for _, c := range commands {
		if !slices.Contains(mail.DefaultCommands(), c.name) {
			t.Errorf("mail.DefaultCommands lacks %q", c.name)
		}
	}
}

// Every command carried out is on the game's hash-chained log and in the
// next reports of those who may know of it: a player's command that
// changes nothing for that player and the umpire, one that changes the
// game for every side. The log answer hides the opponent's own commands,
// and the export of the game still audits.
func TestCommandsOnTheRecord(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	readOnly := []string{"help", "status", "log", "resend"}
	for _, cmd := range readOnly {
		before := h.game().Entries
		out := h.command(adjudicator.JP, cmd, false)
		if len(out) != 1 {
			t.Fatalf("%s: %v", cmd, subjects(out))
		}
		log, err := h.db.Log(h.id, 1)
		if err != nil {
			t.Fatal(err)
		}
		e := log[len(log)-1]
		if h.game().Entries != before+1 || e.Kind != store.KindNote || !e.Private || e.Side != adjudicator.JP || e.MessageID == "" {
			t.Fatalf("%s is not on the record as the Japanese player's own: %+v", cmd, e.Entry)
		}
	}
	// The umpire's own command is the umpire's alone.
	h.command(adjudicator.Umpire, "status", false)
	h.command(adjudicator.Umpire, "extend 24h", true)

	out := h.play(nil) // the U.S. decision
	for _, side := range sides {
		text := mailTo(t, out, addressOf(side)).Text
		asked := strings.Contains(text, "The Japanese player asked for the status.")
		if asked != (side != adjudicator.US) {
			t.Errorf("the %s report shows the Japanese status command: %v", sideName(side), asked)
		}
		if umpire := strings.Contains(text, "The umpire asked for the status."); umpire != (side == adjudicator.Umpire) {
			t.Errorf("the %s report shows the umpire's status command: %v", sideName(side), umpire)
		}
		mustContain(t, "the "+sideName(side)+" report", text, "The umpire extended the deadline of the U.S. player by 24h0m0s")
	}
	mustContain(t, "the U.S. report", mailTo(t, out, usAddr).Text, "Accepted: your U.S. orders for turn 1")
	if strings.Contains(mailTo(t, out, jpAddr).Text, "Accepted:") {
		t.Error("the Japanese report says the U.S. orders were accepted as if they were its own")
	}
	// Shown once: the next reports no longer carry them.
	out = h.play(nil)
	if strings.Contains(mailTo(t, out, umpireAddr).Text, "asked for the status") {
		t.Error("the notices are shown twice")
	}

	usLog := mailTo(t, h.command(adjudicator.US, "log", false), usAddr).Text
	jpLog := mailTo(t, h.command(adjudicator.JP, "log", false), jpAddr).Text
	umpLog := mailTo(t, h.command(adjudicator.Umpire, "log", false), umpireAddr).Text
	if strings.Contains(usLog, "The Japanese player asked") || strings.Contains(usLog, "The umpire asked") {
		t.Errorf("the U.S. log shows others' own commands:\n%s", usLog)
	}
	mustContain(t, "the Japanese log", jpLog, "The Japanese player asked for the help.", "The umpire extended the deadline")
	mustContain(t, "the umpire's log", umpLog, "The Japanese player asked for the log.", "The umpire asked for the status.")
	h.audit()
}

// A refusal quotes each line at fault of the player's own file under its
// line:col, with a caret under the column and what to do.
func TestRefusalQuotesTheLine(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.play(nil)
	raw := fmt.Sprintf("game: g1\nside: us\nturn: 1\nwait: actions\ntoken: %s\nactions:\n  - jump: {unit: x}\n", h.tokens[adjudicator.US])
	m := h.message(usAddr, "orders")
	m.Orders = []byte(raw)
	r := mailTo(t, h.send(m), usAddr)
	mustContain(t, "the refusal", r.Text, "line 7, column 5:", "7:5:", "     7 |   - jump: {unit: x}\n", "       |     ^\n",
		"WHAT TO DO", "Correct every line above")
	if strings.Contains(r.Text, h.tokens[adjudicator.US]) {
		t.Error("the refusal quotes the token")
	}
}
