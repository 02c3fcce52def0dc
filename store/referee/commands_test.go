package referee

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
)

// A game of no tournament answers the tournament's commands at once:
// there are no standings, no digest and no next round.
func TestTournamentCommandsOutsideATournament(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	mustContain(t, "standings", mailTo(t, h.command(adjudicator.US, "standings", false), usAddr).Text, "not part of a tournament")
	mustContain(t, "digest", mailTo(t, h.command(adjudicator.Umpire, "digest", true), umpireAddr).Text, "not part of a tournament")
	mustContain(t, "a player's digest", mailTo(t, h.command(adjudicator.US, "digest", true), usAddr).Text, "umpire")
	mustContain(t, "next", mailTo(t, h.command(adjudicator.Umpire, "next", true), umpireAddr).Text,
		"next was not carried out: this game is not part of a tournament.", "Nothing in the game changed.")
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

// A command that needs no token (help, status, log), and resend, which
// needs it as it mails a report, leave only their receipt in the ledger,
// never an entry in the hash-chained log: anybody can send the first from
// a player's address.
// One that changes the game is on the record and in the next reports of
// every side, and the export of the game still audits.
func TestCommandsOnTheRecord(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	head := h.game().Head
	for _, cmd := range []string{"help", "status", "log", "resend"} {
		before := h.game().Entries
		m := h.message(jpAddr, "")
		m.Text = cmd + "\n"
		if cmd == "resend" {
			m.Text += "token: " + h.tokens[adjudicator.JP] + "\n"
		}
		out := h.send(m)
		if len(out) != 1 {
			t.Fatalf("%s: %v", cmd, subjects(out))
		}
		if h.game().Entries != before || h.game().Head != head {
			t.Fatalf("%s added an entry to the log", cmd)
		}
		r, ok, err := h.db.Processed(store.MailRef{MessageID: m.MessageID})
		if err != nil || !ok || r.Outcome != "command "+cmd || r.Entry != 0 {
			t.Fatalf("%s: the ledger says %+v %v %v", cmd, r, ok, err)
		}
	}
	h.command(adjudicator.Umpire, "status", false)
	h.command(adjudicator.Umpire, "extend 24h", true)

	// The U.S. decision, then the U.S. actions: the Japanese player's
	// first report after them, when the game waits for it, still tells of
	// the umpire's extension.
	decision, actions := h.play(nil), h.play(nil)
	for _, side := range sides {
		out := decision
		if side == adjudicator.JP {
			out = actions
		}
		text := mailTo(t, out, addressOf(side)).Text
		if strings.Contains(text, "asked for the") {
			t.Errorf("the %s report shows a command that changed nothing:\n%s", SideName(side), text)
		}
		mustContain(t, "the "+SideName(side)+" report", text, "The umpire extended the deadline of the U.S. player by 24 hours")
	}
	mustContain(t, "the U.S. report", mailTo(t, decision, usAddr).Text, "Accepted: your U.S. orders for turn 1")
	if strings.Contains(mailTo(t, actions, jpAddr).Text, "Accepted:") {
		t.Error("the Japanese report says the U.S. orders were accepted as if they were its own")
	}
	umpLog := mailTo(t, h.command(adjudicator.Umpire, "log", false), umpireAddr).Text
	mustContain(t, "the umpire's log", umpLog, "The umpire extended the deadline")
	h.audit()
}

// The log answer numbers the entries its reader may see, one after the
// other: a player's log shows no gap where the other side's private notes
// are (written by releases that logged every command), and a rollback's
// numbers follow suit; the umpire's numbers are the log's own.
func TestLogNumbersWhatTheReaderSees(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.play(nil) // entry 2: the U.S. decision
	h.play(nil) // entry 3: the U.S. actions
	for _, side := range []adjudicator.Side{adjudicator.JP, adjudicator.JP, adjudicator.US} {
		_, err := h.db.Transact(h.id, nil, func(tx *store.Txn) error {
			_, err := tx.Aside(side, "The "+SideName(side)+" player asked for the status.", false)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	h.command(adjudicator.Umpire, "extend 24h", true) // entry 7, a note every side reads
	us := mailTo(t, h.command(adjudicator.US, "log", false), usAddr).Text
	jp := mailTo(t, h.command(adjudicator.JP, "log", false), jpAddr).Text
	ump := mailTo(t, h.command(adjudicator.Umpire, "log", false), umpireAddr).Text
	mustContain(t, "the U.S. log", us, "   4  The U.S. player asked", "   5  The umpire extended")
	mustContain(t, "the Japanese log", jp, "   4  The Japanese player asked", "   5  The Japanese player asked", "   6  The umpire extended")
	mustContain(t, "the umpire's log", ump, "   6  The U.S. player asked", "   7  The umpire extended")
	for what, text := range map[string]string{"U.S.": us, "Japanese": jp} {
		if strings.Contains(text, "   7  ") {
			t.Errorf("the %s log numbers past what it shows:\n%s", what, text)
		}
	}
	if strings.Contains(us, "Japanese player asked") || strings.Contains(jp, "U.S. player asked") {
		t.Errorf("a log shows the other side's private notes:\n%s\n%s", us, jp)
	}
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
	mustContain(t, "the refusal", r.Text, "line 7, column 5:", "     7 |   - jump: {unit: x}\n", "       |     ^\n",
		"WHAT TO DO", "Correct every line above")
	if strings.Contains(r.Text, h.tokens[adjudicator.US]) {
		t.Error("the refusal quotes the token")
	}
	if strings.Contains(r.Text, "7:5:") {
		t.Error("the refusal gives the place twice, as line 7, column 5 and as 7:5:")
	}
}

// A line refused because of an earlier line of the same file cites that
// line: here a unit moved twice, the second time after it had acted.
func TestRefusalCitesTheEarlierLine(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.play(nil)
	st := h.state()
	var move *wind.Move
	for _, u := range st.OnMap() {
		if u.Side() != adjudicator.US || move != nil {
			continue
		}
		for _, n := range u.Hex.Neighbours() {
			m := &wind.Move{Unit: u.ID, Path: []adjudicator.Hex{n}}
			if wind.CheckActions(st, wind.Orders{Side: adjudicator.US, Actions: []wind.Action{{Move: m}}}) == nil {
				move = m
				break
			}
		}
	}
	if move == nil {
		t.Fatal("no U.S. unit can move a hex")
	}
	line := fmt.Sprintf("  - move: {unit: %s, path: [%s]}\n", move.Unit, move.Path[0])
	m := h.message(usAddr, "orders")
	m.Orders = fmt.Appendf(nil, "game: g1\nside: us\nturn: 1\nwait: actions\ntoken: %s\nactions:\n%s%s", h.tokens[adjudicator.US], line, line)
	r := mailTo(t, h.send(m), usAddr)
	mustContain(t, "the refusal", r.Text, "line 8, column", move.Unit+" moved on line 7, earlier in this file")
}

// A command mailed to the bare address, without the game's tag, from the
// player of exactly one running game is for that game; from a stranger it
// gets the generic answer.
func TestCommandToTheBareAddress(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	m := h.message(usAddr, "status")
	m.To = []string{"attu@example.org"}
	mustContain(t, "status to the bare address", mailTo(t, h.send(m), usAddr).Text, "attu game g1", "Waiting:")
	m = h.message("stranger@example.net", "status")
	m.To = []string{"attu@example.org"}
	mustContain(t, "a stranger's status", mailTo(t, h.send(m), "stranger@example.net").Text, "attu did not accept your message")
}
