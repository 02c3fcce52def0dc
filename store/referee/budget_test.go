package referee

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// Commands with the side's token get DefaultReplies answers an hour,
// then one note to slow down, then silence until the pace drops, and are
// still carried out; without the token, a player's address gets
// DefaultAnswers answers a day and then none, not even a note. None of
// them leaves an entry in the log but the one that changes the game.
func TestReplyBudget(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	g := h.game()
	count := func(side adjudicator.Side, cmd string, token bool, n int) (answers, notes int) {
		t.Helper()
		for range n {
			for _, m := range h.command(side, cmd, token) {
				if len(m.Text) > templates.MaxReply {
					t.Fatalf("an answer of %d bytes", len(m.Text))
				}
				if strings.Contains(m.Subject, "too many mails") {
					notes++
				} else {
					answers++
				}
			}
		}
		return answers, notes
	}
	if answers, notes := count(adjudicator.JP, "log", true, 100); answers != DefaultReplies || notes != 1 {
		t.Errorf("100 log commands with the token: %d answers and %d notes to slow down, want %d and 1", answers, notes, DefaultReplies)
	}
	if now := h.game(); now.Entries != g.Entries || now.Head != g.Head {
		t.Errorf("the log grew from %d to %d entries", g.Entries, now.Entries)
	}
	// A command with the side's token is still carried out, since a
	// forger flooding the address must not stop the player; only its
	// answer is left out.
	out := h.command(adjudicator.JP, "absent 2d", true)
	if h.game().Entries != g.Entries+1 {
		t.Errorf("absent with the token, past the budget, was not carried out")
	}
	for _, m := range out {
		if m.To[0] == jpAddr {
			t.Errorf("past the budget, the Japanese player was answered: %s", m.Subject)
		}
	}
	// The other side's budget is its own, and so is the budget of mail
	// without the token.
	if answers, notes := count(adjudicator.US, "status", false, 20); answers != DefaultAnswers || notes != 0 {
		t.Errorf("20 status commands without the token: %d answers and %d notes, want %d and none", answers, notes, DefaultAnswers)
	}
	h.advance(time.Hour)
	if out := h.command(adjudicator.JP, "status", true); len(out) != 1 || !strings.Contains(out[0].Subject, "status") {
		t.Errorf("an hour later: %v", subjects(out))
	}
	if out := h.command(adjudicator.US, "status", false); len(out) != 0 {
		t.Errorf("an hour later, without the token: %v", subjects(out))
	}
	h.advance(23 * time.Hour)
	if out := h.command(adjudicator.US, "status", false); len(out) != 1 {
		t.Errorf("a day later, without the token: %v", subjects(out))
	}
}

// Strangers writing from ever new addresses get DefaultStrangers answers
// an hour between them, not one each.
func TestStrangersCapped(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	n := 0
	for i := range 100 {
		m := h.message(fmt.Sprintf("rotating%d@spam.example", i), "hello")
		m.To = []string{"attu@example.org"}
		m.Text = "is this attu?"
		n += len(h.send(m))
	}
	if n != DefaultStrangers {
		t.Errorf("100 strangers got %d answers, want %d", n, DefaultStrangers)
	}
}

// Mails from a player's address whose token fails get DefaultAnswers
// answers a day, not one each.
func TestTokenAnswersLimited(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	n := 0
	for range 10 {
		n += len(h.command(adjudicator.US, "concede\ntoken: not-it", false))
	}
	if n != DefaultAnswers {
		t.Errorf("10 wrong tokens got %d answers, want %d", n, DefaultAnswers)
	}
}

// A mail in which nothing was found names the parts that were not read
// and what to send instead: by their number alone when the mail carries
// no token, with their names and types when it carries the side's.
func TestPuzzledNamesSkippedParts(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	skipped := []Skipped{{Part: "2", Type: "application/zip", Name: "orders.zip"},
		{Part: "3", Type: "application/yaml", Name: "us.yaml", Undecoded: true}}
	m := h.message(usAddr, "[attu g1] my orders")
	m.Text = "My orders are attached.\n"
	m.Skipped = skipped
	r := mailTo(t, h.send(m), usAddr)
	text := strings.Join(strings.Fields(r.Text), " ")
	mustContain(t, "the answer", text, "found no orders and no command",
		"Part 2 is a compressed file", "Attach the .yaml file itself", "Part 3 could not be decoded")
	if strings.Contains(text, "orders.zip") || strings.Contains(text, "application/") {
		t.Errorf("the answer to a mail without the token names its parts:\n%s", r.Text)
	}
	m = h.message(usAddr, "[attu g1] my orders")
	m.Text = "My orders are attached.\ntoken: " + h.tokens[adjudicator.US] + "\n"
	m.Skipped = skipped
	r = mailTo(t, h.send(m), usAddr)
	mustContain(t, "the answer", strings.Join(strings.Fields(r.Text), " "), "found no orders and no command",
		`Part 2 ("orders.zip", application/zip) is a compressed file`, "Attach the .yaml file itself",
		`Part 3 ("us.yaml", application/yaml) could not be decoded`)
}

// A file of thousands of mistakes from a player's address, without a
// token, is refused in a few hundred bytes: where the first mistake is,
// quoting none of it.
func TestTabBombRefusal(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	var b strings.Builder
	for b.Len() < 250<<10 {
		b.WriteString("\tside: us\n")
	}
	m := h.message(usAddr, "orders")
	m.Orders = []byte(b.String())
	start := time.Now()
	r := mailTo(t, h.send(m), usAddr)
	took := time.Since(start)
	if len(r.Text) > 1<<10 || strings.Contains(r.Text, "side: us") {
		t.Errorf("a refusal of %d bytes:\n%s", len(r.Text), r.Text)
	}
	mustContain(t, "the refusal", r.Text, "the first mistake is at line 1, column 1")
	t.Logf("the refusal: %d bytes, in %v", len(r.Text), took)
}

// A long game's log answer by mail stays within the reply budget: the
// newest entries, saying which are left out; "log N" pages from entry N.
func TestLogAnswerFits(t *testing.T) {
	h := newHarness(t, NewGame{})
	for i := range 400 {
		_, err := h.db.Transact(h.id, nil, func(tx *store.Txn) error {
			_, err := tx.Aside(adjudicator.US, fmt.Sprintf("note %d: %s", i+1, strings.Repeat("words ", 50)), false)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	h.newMails()
	last := mailTo(t, h.command(adjudicator.US, "log", false), usAddr).Text
	first := mailTo(t, h.command(adjudicator.US, "log 1", false), usAddr).Text
	for what, text := range map[string]string{"log": last, "log 1": first} {
		if len(text) > templates.MaxReply {
			t.Errorf("%s: an answer of %d bytes", what, len(text))
		}
	}
	mustContain(t, "the log", last, "note 400:", "are left out to keep this answer short: mail log 1")
	mustContain(t, "log 1", first, "   1  the game begins", "note 1:", "on are left out to keep this answer short: mail log")
	if strings.Contains(last, "note 1: ") || strings.Contains(first, "note 400:") {
		t.Error("the answers overlap the ends they leave out")
	}
}
