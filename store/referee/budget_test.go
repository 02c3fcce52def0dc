package referee

import (
	"bytes"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"slices"
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

// forgedMail is the i-th mail of a flood from address, which carries no
// token (or a wrong one): every command and kind of mail, each with a
// lure in its subject, its arguments and the names of its parts.
func forgedMail(h *harness, address string, i int) *Message {
	const lure = "your token was reset, reply to mallory@evil.test for the new one"
	m := h.message(address, "[attu g1] "+lure)
	bodies := []string{"resend", "template", "status", "log", "help", "log 9999 " + lure, "concede",
		"takeback\ntoken: not-the-token", "standings", "json on", lure}
	switch i % 13 {
	case 11:
		m.Orders = []byte(lure + "\n")
	case 12:
		m.Orders = fmt.Appendf(nil, "game: g1\nside: jp\nturn: 1\nwait: actions\ntoken: %s\nactions: []\n", "mallory-evil-test")
	default:
		m.Text = bodies[i%13] + "\n"
		m.Skipped = []Skipped{{Part: "2", Type: "application/x-" + strings.ReplaceAll(lure, " ", "-"), Name: "mallory@evil.test.zip"}}
	}
	return m
}

// 500 mails in one hour from the Japanese player's address, forged (the
// sender is not authenticated) and without the side's token, get at
// most DefaultAnswers answers between them, the same with the service
// restarted in the middle: none carries an attachment or the forger's
// words, and the game and its export stay byte for byte as they were.
// The U.S. player's reports, queued after the flood, leave the outbox
// before the answers when the sending quota lets only some go.
func TestForgedFlood(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.sendAll() // the welcomes
	h.newMails()
	export := func() []byte {
		x, err := h.db.Export(h.id, true)
		if err != nil {
			t.Fatal(err)
		}
		x.Exported = time.Time{}
		b, err := x.JSON()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	games := func() map[string]string {
		out := map[string]string{}
		for k, v := range h.buckets() {
			if strings.HasPrefix(k, "games/") {
				out[k] = v
			}
		}
		return out
	}
	before, exported := games(), export()
	var answers []store.Mail
	for i := range 500 {
		if i == 250 {
			h.restart()
		}
		h.advance(7 * time.Second) // 500 mails in 58 minutes
		answers = append(answers, h.send(forgedMail(h, jpAddr, i))...)
	}
	if len(answers) > DefaultAnswers {
		t.Errorf("500 forged mails got %d answers, more than %d: %v", len(answers), DefaultAnswers, subjects(answers))
	}
	for _, m := range answers {
		if len(m.To) != 1 || m.To[0] != jpAddr || len(m.Attachments) > 0 || len(m.Text) > templates.MaxReply {
			t.Errorf("an answer to %v with %d attachments, %d bytes: %s", m.To, len(m.Attachments), len(m.Text), m.Subject)
		}
		if strings.Contains(m.Subject+m.Text, "mallory") || strings.Contains(m.Text, "reply to") {
			t.Errorf("an answer repeats the forger's words:\n%s\n%s", m.Subject, m.Text)
		}
		if m.Class != store.ClassAnswer {
			t.Errorf("the answer %q is queued as a report", m.Subject)
		}
	}
	if changed := changedBuckets(before, games()); len(changed) > 0 || !bytes.Equal(exported, export()) {
		t.Errorf("the game changed: %v", changed)
	}
	for i := 1; i <= 500; i++ {
		if _, ok, _ := h.db.Processed(store.MailRef{MessageID: fmt.Sprintf("<m%d@players.test>", i)}); !ok {
			t.Fatalf("mail %d is not in the ledger", i)
		}
	}
	t.Logf("500 forged mails, %d answers: %v", len(answers), subjects(answers))

	// The U.S. decision: its reports wait with the answers; a quota that
	// lets as many mails go as there are reports sends the reports.
	var reports []uint64
	for _, m := range h.play(nil) {
		if m.Class == store.ClassNormal {
			reports = append(reports, m.ID)
		}
	}
	if len(reports) == 0 || len(answers) == 0 {
		t.Fatalf("%d reports and %d answers to send", len(reports), len(answers))
	}
	first, err := h.db.Pending(h.clk.now(), len(reports))
	if err != nil {
		t.Fatal(err)
	}
	var ids []uint64
	for _, m := range first {
		ids = append(ids, m.ID)
	}
	if !slices.Equal(ids, reports) {
		t.Errorf("with room for %d mails the outbox sends %v, want the reports %v before the answers", len(reports), subjects(first), reports)
	}
}

// All players' addresses together get DefaultAllAnswers answers an hour
// to mail without the token, whatever each address's own allowance.
func TestAllAnswersCap(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.svc = New(h.db, Config{System: windsys.Rules{}, Address: "attu@example.org", Answers: 1000})
	h.newMails()
	n := 0
	for i := range 100 {
		for _, a := range []string{usAddr, jpAddr, umpireAddr} {
			m := h.message(a, "")
			m.Text = []string{"status", "help", "log"}[i%3] + "\n"
			n += len(h.send(m))
		}
	}
	if n != DefaultAllAnswers {
		t.Errorf("300 mails from three addresses got %d answers, want %d", n, DefaultAllAnswers)
	}
	h.advance(time.Hour)
	if out := h.command(adjudicator.US, "status", false); len(out) != 1 {
		t.Errorf("an hour later: %v", subjects(out))
	}
}

// The answers the mail daemon gives itself to a player's address (to
// mail too large to read, or in HTML only) share the quota of every
// answer there without the token; a stranger's are the daemon's to count.
func TestPlayerAnswer(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	for range DefaultAnswers - 1 {
		if out := h.command(adjudicator.JP, "status", false); len(out) != 1 {
			t.Fatalf("status: %v", subjects(out))
		}
	}
	if player, ok, err := h.svc.PlayerAnswer("jp@EXAMPLE.org"); !player || !ok || err != nil {
		t.Fatalf("the last answer of the day: player %v, may answer %v, %v", player, ok, err)
	}
	if player, ok, err := h.svc.PlayerAnswer(jpAddr); !player || ok || err != nil {
		t.Errorf("past the quota: player %v, may answer %v, %v", player, ok, err)
	}
	if out := h.command(adjudicator.JP, "status", false); len(out) != 0 {
		t.Errorf("a status past the quota: %v", subjects(out))
	}
	if player, _, err := h.svc.PlayerAnswer("mallory@evil.test"); player || err != nil {
		t.Errorf("a stranger counts as a player: %v", err)
	}
}
