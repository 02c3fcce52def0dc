package referee

import (
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
)

// Every message that is not applied gets the right answer or deliberate
// silence, changes nothing but the ledger and the outbox, and tells
// nothing of the game: not its name, its players or its position. The
// answers to strangers are one text, whatever the reason, and the same as
// for a game that does not exist; a registered address is told which
// check its mail failed, an answer only it receives.
func TestAuthentication(t *testing.T) {
	h := newHarness(t, NewGame{})
	// Each case is answered: the cap on answers to mail without the
	// token is TestForgedFlood's.
	h.svc = New(h.db, Config{System: windsys.Rules{}, Address: "attu@example.org", Answers: 100})
	h.newMails()
	decision := h.message(usAddr, "orders")
	decision.Orders = h.file(nil, h.tokens[adjudicator.US])
	h.send(decision)
	if w := h.game().Wait; w.Kind != wind.WaitActions || w.Side != adjudicator.US {
		t.Fatalf("waits for %v", w)
	}
	us, jp, ump := h.tokens[adjudicator.US], h.tokens[adjudicator.JP], h.tokens[adjudicator.Umpire]
	actions := func(side, token string, turn int) []byte {
		return fmt.Appendf(nil, "game: g1\nside: %s\nturn: %d\nwait: actions\ntoken: %s\nactions: []\n", side, turn, token)
	}
	file := func(from string, raw []byte) func() *Message {
		return func() *Message {
			m := h.message(from, "orders")
			m.Orders = raw
			return m
		}
	}
	text := func(from, body string) func() *Message {
		return func() *Message {
			m := h.message(from, "")
			m.Text = body
			return m
		}
	}
	st := h.state()
	var mine *wind.Unit
	for _, u := range st.OnMap() {
		if u.Side() == adjudicator.US {
			mine = u
			break
		}
	}
	far := st.Map().LandHexes()[0]
	for _, x := range st.Map().LandHexes() {
		if mine.Hex.Distance(x) > 12 {
			far = x
			break
		}
	}
	illegal := fmt.Appendf(nil, "game: g1\nside: us\nturn: 1\nwait: actions\ntoken: %s\nactions:\n  - move: {unit: %s, path: [%s]}\n", us, mine.ID, far)

	const generic = "generic"
	cases := []struct {
		name  string
		msg   func() *Message
		want  string // generic, "" for silence, or words of the answer
		to    string
		setup func()
	}{
		{name: "no token", msg: file(usAddr, []byte("game: g1\nside: us\nturn: 1\nwait: actions\nactions: []\n")), want: "carries no token", to: usAddr},
		{name: "an empty token", msg: file(usAddr, []byte("game: g1\nside: us\nturn: 1\nwait: actions\ntoken:\nactions: []\n")), want: "nothing after token:", to: usAddr},
		{name: "the template's placeholder", msg: file(usAddr, actions("us", "PASTE-YOUR-TOKEN-HERE", 1)), want: "placeholder", to: usAddr},
		{name: "wrong token", msg: file(usAddr, actions("us", "not-the-token", 1)), want: "is not your side's token", to: usAddr},
		{name: "the other side's token", msg: file(usAddr, actions("us", jp, 1)), want: "is the Japanese side's, not yours", to: usAddr},
		{name: "the umpire's token on a player's file", msg: file(usAddr, actions("us", ump, 1)), want: "is the umpire's, not yours", to: usAddr},
		{name: "the umpire's file", msg: file(umpireAddr, actions("umpire", ump, 1)), want: generic, to: umpireAddr},
		{name: "right token from another address", msg: file("mallory@example.net", actions("us", us, 1)), want: generic, to: "mallory@example.net"},
		{name: "right token from the other player's address", msg: file(jpAddr, actions("us", us, 1)), want: "is for the U.S. side (side: us), which this address does not play", to: jpAddr},
		{name: "token in a quoted reply", msg: text(usAddr, "concede\n\n> Your secret token:\n> token: "+us+"\n"), want: "needs your token, and the mail carries none", to: usAddr},
		{name: "a command that changes the game without a token", msg: text(usAddr, "concede\n"), want: "needs your token, and the mail carries none", to: usAddr},
		{name: "a command with the other side's token", msg: text(usAddr, "takeback\ntoken: "+jp+"\n"), want: "is the Japanese side's, not yours", to: usAddr},
		{name: "a game that does not exist", msg: func() *Message {
			m := file(usAddr, actions("us", us, 1))()
			m.To = []string{"attu+nosuch@example.org"}
			return m
		}, want: generic, to: usAddr},
		{name: "mail that names no game", msg: func() *Message {
			m := text("stranger@example.net", "hello?")()
			m.To = []string{"attu@example.org"}
			return m
		}, want: generic, to: "stranger@example.net"},
		{name: "the same stranger again: rate-limited", msg: func() *Message {
			m := text("stranger@example.net", "hello again?")()
			m.To = []string{"attu@example.org"}
			return m
		}},
		{name: "our own mail", msg: text("attu+g1@example.org", "status")},
		{name: "automatic mail", msg: func() *Message {
			m := text(usAddr, "status")()
			m.Automatic = true
			return m
		}},
		{name: "duplicate Message-ID", msg: func() *Message { return decision }},
		{name: "duplicate Message-ID, other content", msg: func() *Message {
			m := *decision
			m.Orders = actions("us", us, 1)
			return &m
		}},
		{name: "same content under a new Message-ID", msg: file(usAddr, decision.Orders), want: "already applied", to: usAddr},
		{name: "stale turn", msg: file(usAddr, actions("us", us, 2)), want: "the game waits for the U.S. actions of turn 1", to: usAddr},
		{name: "a file for another wait, whose form is wrong for it", msg: file(usAddr, []byte(strings.Replace(string(actions("us", us, 1)), "wait: actions", "wait: us-decision", 1))),
			want: "line 4, column 7:\n  the game waits for the U.S. actions of turn 1", to: usAddr},
		{name: "the other side's turn", msg: file(jpAddr, actions("jp", jp, 1)), want: "the game waits for the U.S. actions of turn 1", to: jpAddr},
		{name: "a file for another game", msg: file(usAddr, []byte(strings.Replace(string(actions("us", us, 1)), "game: g1", "game: g2", 1))), want: `the file is for game "g2"`, to: usAddr},
		{name: "not YAML", msg: file(usAddr, []byte("game: g1\nside: [us\n")), want: "the first mistake is at line 1, column 1", to: usAddr},
		{name: "a mistake in the file", msg: file(usAddr, []byte(strings.Replace(string(actions("us", us, 1)), "actions: []", "actions: [{jump: 2717}]", 1))), want: "line 6, column", to: usAddr},
		{name: "an illegal move", msg: file(usAddr, illegal), want: "line 7, column", to: usAddr},
		{name: "a paused game", msg: file(usAddr, actions("us", us, 1)), want: "paused", to: usAddr, setup: func() {
			if _, err := h.svc.Umpire("g1", []string{"pause"}, h.clk.now()); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a finished game", msg: file(usAddr, actions("us", us, 1)), want: "This game is over", to: usAddr, setup: func() {
			if _, err := h.svc.Umpire("g1", []string{"end", "draw"}, h.clk.now()); err != nil {
				t.Fatal(err)
			}
		}},
	}
	// The position: every unit on the map and where it stands, but for
	// the unit the illegal move names, which its player knows.
	forbidden := []string{gameName, usAddr, jpAddr, umpireAddr, h.game().Commitment}
	for _, u := range st.OnMap() {
		if u.Hex != mine.Hex {
			forbidden = append(forbidden, u.ID+" ", u.Hex.String())
		}
	}
	var genericText string
	for _, c := range cases {
		// An hour apart: a stranger gets one answer an hour (the
		// rate-limited case).
		if !strings.HasSuffix(c.name, "rate-limited") {
			h.clk.t = h.clk.t.Add(time.Hour)
		}
		if c.setup != nil {
			c.setup()
			h.newMails()
		}
		before := h.buckets()
		entries := h.game().Entries
		out := h.send(c.msg())
		if changed := changedBuckets(before, h.buckets()); slices.ContainsFunc(changed, func(b string) bool {
			// The ledger and the outbox, with its bodies and indexes,
			// and the count of answers (store.Quota).
			return b != "ledger" && b != "ledger-index" && !strings.HasPrefix(b, "outbox") && !strings.HasPrefix(b, "blob") && b != "quotas"
		}) {
			t.Errorf("%s: buckets %v changed", c.name, changed)
		}
		if h.game().Entries != entries {
			t.Errorf("%s: the game moved", c.name)
		}
		if c.want == "" {
			if len(out) > 0 {
				t.Errorf("%s: want silence, got %v", c.name, subjects(out))
			}
			continue
		}
		if len(out) != 1 || len(out[0].To) != 1 || out[0].To[0] != c.to {
			t.Errorf("%s: want one answer to %s, got %v", c.name, c.to, subjects(out))
			continue
		}
		m := out[0]
		// A refusal quotes the lines of the player's own file at fault:
		// those may name any hex, but must be the player's words, never
		// the token; everything else is held to the fog check.
		text := ownLinesOut(t, c.name, m.Text, c.msg().Orders, us)
		for _, f := range forbidden {
			if strings.Contains(m.Subject+"\n"+text, f) {
				t.Errorf("%s: the answer says %q:\n%s\n%s", c.name, f, m.Subject, m.Text)
			}
		}
		if c.want == generic {
			if genericText == "" {
				genericText = m.Subject + m.Text
			} else if m.Subject+m.Text != genericText {
				t.Errorf("%s: the generic answer differs:\n%s", c.name, m.Text)
			}
		} else if !strings.Contains(m.Text, c.want) {
			t.Errorf("%s: the answer does not say %q:\n%s", c.name, c.want, m.Text)
		}
		if m.InReplyTo == "" {
			t.Errorf("%s: the answer is not threaded", c.name)
		}
	}
	if err := h.db.Check(windsys.Rules{}); err != nil {
		t.Fatal(err)
	}
	h.audit()
}

// quotedLine is a line of a player's file quoted in a refusal, and the
// caret under its column.
var (
	quotedLine = regexp.MustCompile(`^ +(\d+) \| (.*)$`)
	caretLine  = regexp.MustCompile(`^ +\| +\^$`)
)

// ownLinesOut returns text without the lines that quote file, checking
// that each quotes the line of file it names, with any token blanked.
func ownLinesOut(t *testing.T, name, text string, file []byte, token string) string {
	t.Helper()
	lines := strings.Split(string(file), "\n")
	var kept []string
	for _, l := range strings.Split(text, "\n") {
		if caretLine.MatchString(l) {
			continue
		}
		q := quotedLine.FindStringSubmatch(l)
		if q == nil {
			kept = append(kept, l)
			continue
		}
		n, _ := strconv.Atoi(q[1])
		switch {
		case strings.Contains(l, token):
			t.Errorf("%s: the refusal quotes the token: %q", name, l)
		case n < 1 || n > len(lines):
			t.Errorf("%s: the refusal quotes line %d of a file of %d lines", name, n, len(lines))
		case q[2] != lines[n-1] && !strings.Contains(q[2], "(your token, not repeated here)"):
			t.Errorf("%s: the refusal quotes %q as line %d, which is %q", name, q[2], n, lines[n-1])
		}
	}
	return strings.Join(kept, "\n")
}

// The same message twice, or the same file under a new Message-ID,
// applies once.
func TestExactlyOnce(t *testing.T) {
	h := newHarness(t, NewGame{})
	m := h.message(usAddr, "orders")
	m.Orders = h.file(nil, h.tokens[adjudicator.US])
	h.send(m)
	g := h.game()
	before := h.buckets()
	if out := h.send(m); len(out) != 0 {
		t.Fatalf("the second time: %v", subjects(out))
	}
	if changed := changedBuckets(before, h.buckets()); len(changed) != 0 {
		t.Fatalf("the second time changed %v", changed)
	}
	again := h.message(usAddr, "orders")
	again.Orders = m.Orders
	out := h.send(again)
	if h.game().Head != g.Head || len(out) != 1 || !strings.Contains(out[0].Text, "already applied") {
		t.Fatalf("the same file under a new Message-ID: %v", subjects(out))
	}
	r, ok, err := h.db.Processed(store.MailRef{MessageID: m.MessageID})
	if err != nil || !ok || r.Entry != 2 || r.Outcome != "accepted" {
		t.Fatalf("the ledger: %+v %v %v", r, ok, err)
	}
}
