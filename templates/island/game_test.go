package island

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/store/tournament"
)

// The value is the game system the game service plays.
var (
	_ referee.System   = Rules{}
	_ store.Rules      = Rules{}
	_ tournament.Games = Rules{}
)

// mailGame is a Ridge 42 game in the real game service over a bbolt file,
// with a clock the test moves.
type mailGame struct {
	t      *testing.T
	db     *store.DB
	svc    *referee.Service
	now    time.Time
	id     string
	tokens map[adjudicator.Side]string
	n      int
	seen   int
}

var addrs = map[adjudicator.Side]string{adjudicator.US: "us@example.org", adjudicator.JP: "jp@example.org", adjudicator.Umpire: "umpire@example.org"}

func newMailGame(t *testing.T) *mailGame {
	m := &mailGame{t: t, now: time.Date(2026, 9, 12, 8, 0, 0, 0, time.UTC)}
	db, err := store.Open(filepath.Join(t.TempDir(), "attu.db"), &store.Options{NoSync: true, Now: func() time.Time { return m.now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(Rules{}); err != nil {
			t.Errorf("consistency check: %v", err)
		}
		db.Close()
	})
	m.db = db
	m.svc = referee.New(db, referee.Config{System: Rules{}, Address: "attu@example.org"})
	c, err := m.svc.Create(referee.NewGame{ID: "r1", Name: "Ridge by mail", US: addrs[adjudicator.US], JP: addrs[adjudicator.JP], Umpire: addrs[adjudicator.Umpire], Copies: referee.CopiesEvery,
		Deadline: 72 * time.Hour, Seed: bytes.Repeat([]byte{3}, store.SeedSize)}, m.now)
	if err != nil {
		t.Fatal(err)
	}
	m.id, m.tokens = c.Game.ID, c.Tokens
	return m
}

// toTheEnd mails the stand-in's files for whatever the game waits for
// until it ends.
func (m *mailGame) toTheEnd() {
	m.t.Helper()
	for i := 0; i < 200 && m.game().Wait.Open(); i++ {
		raw, _, err := Rules{}.StandIn(m.id, m.position(), uint64(i))
		if err != nil {
			m.t.Fatal(err)
		}
		m.send(string(raw))
	}
	if !m.game().Wait.Over() {
		m.t.Fatalf("the game did not end: %v", m.game().Wait)
	}
}

func (m *mailGame) game() *store.Game {
	g, err := m.db.Game(m.id)
	if err != nil {
		m.t.Fatal(err)
	}
	return g
}

func (m *mailGame) position() *Position {
	b, err := m.db.Position(m.id)
	if err != nil {
		m.t.Fatal(err)
	}
	p, err := Rules{}.Position(b)
	if err != nil {
		m.t.Fatal(err)
	}
	return p.(*Position)
}

// send mails file from the awaited side with its token filled in, and
// requires it applied.
func (m *mailGame) send(file string) []store.Mail {
	m.t.Helper()
	side := m.game().Wait.Side
	before := m.game().Entries
	m.n++
	file = regexp.MustCompile(`(?m)^token: .*$`).ReplaceAllString(file, "token: "+m.tokens[side])
	msg := &referee.Message{From: addrs[side], To: []string{"attu+" + m.id + "@example.org"}, Subject: "orders",
		MessageID: fmt.Sprintf("<m%d@players.test>", m.n), Orders: []byte(file)}
	if err := m.svc.Handle(msg, m.now); err != nil {
		m.t.Fatal(err)
	}
	out := m.mails()
	if m.game().Entries == before {
		m.t.Fatalf("the %s file was not applied: %s\n%s", side, mailText(out), file)
	}
	return out
}

// miss lets the deadline pass.
func (m *mailGame) miss() []store.Mail {
	m.t.Helper()
	before := m.game().Entries
	m.now = m.game().Deadline.Add(time.Minute)
	if err := m.svc.Tick(m.now); err != nil {
		m.t.Fatal(err)
	}
	if m.game().Entries == before {
		m.t.Fatal("the deadline passed and nothing was written")
	}
	return m.mails()
}

func (m *mailGame) mails() []store.Mail {
	all, err := m.db.Outbox("")
	if err != nil {
		m.t.Fatal(err)
	}
	out := all[m.seen:]
	m.seen = len(all)
	return out
}

func mailText(ms []store.Mail) string {
	var b strings.Builder
	for _, x := range ms {
		fmt.Fprintf(&b, "== %v %s\n%s\n", x.To, x.Subject, x.Text)
	}
	return b.String()
}

// mailTo is the text of the mail sent to address, with its attachments.
func mailTo(t *testing.T, ms []store.Mail, address string) string {
	t.Helper()
	for _, x := range ms {
		for _, to := range x.To {
			if to == address {
				s := x.Subject + "\n" + x.Text
				for _, a := range x.Attachments {
					s += "\n--- " + a.Name + "\n" + string(a.Data)
				}
				return s
			}
		}
	}
	t.Fatalf("no mail to %s among:\n%s", address, mailText(ms))
	return ""
}

// TestGameByMail plays Ridge 42 through the game service: both set-ups,
// a Player-Turn with a defence wait, a missed orders deadline (IW27), a
// missed defence deadline decided by standing instructions (IW24), then
// the stand-in's files for both sides to the end, and audits the export.
func TestGameByMail(t *testing.T) {
	m := newMailGame(t)
	// The welcome speaks of Island War and its defaults, never of
	// another system's.
	welcome := flat(mailTo(t, m.mails(), addrs[adjudicator.JP]))
	if !strings.Contains(welcome, "Island War, the SPI standard rules") || !strings.Contains(welcome, "your standing instructions decide") ||
		strings.Contains(welcome, "War in the Wind") || strings.Contains(welcome, "refit") {
		t.Errorf("the Japanese welcome:\n%s", welcome)
	}
	if w := m.game().Wait; w.Kind != oi.WaitSetup || w.Side != adjudicator.JP {
		t.Fatalf("the game begins waiting for %v, want the Japanese set-up", w)
	}
	m.send(`game: r1
side: jp
turn: 1
wait: setup
token: x
setup: {II/124: "0601", III/124: "0801", 3/Eng: "0802", Mor/124: "0803", M/28: "1103"}
standing:
  ask: true
  fpf:
    - {protect: I/124, gsp: 1}
`)
	m.send(`game: r1
side: us
turn: 1
wait: setup
token: x
setup: {1/5: "0202", 2/5: "0203", 3/5: "0206", C/1Eng: "0207", A/1Amt: "0208"}
`)
	// A file that breaks the rules gets its problems at their lines and
	// changes nothing.
	before := m.game().Entries
	m.n++
	bad := "game: r1\nside: us\nturn: 1\nwait: orders\ntoken: " + m.tokens[adjudicator.US] + "\nmoves:\n  - {unit: 1/5, path: [\"0902\"]}\nattacks:\n  - {defenders: [I/124], attackers: [2/5]}\n"
	if err := m.svc.Handle(&referee.Message{From: addrs[adjudicator.US], To: []string{"attu+r1@example.org"}, Subject: "orders",
		MessageID: "<bad@players.test>", Orders: []byte(bad)}, m.now); err != nil {
		t.Fatal(err)
	}
	refused := flat(mailTo(t, m.mails(), addrs[adjudicator.US]))
	if m.game().Entries != before || !strings.Contains(refused, "line 7, column 5: rule 5.0: moves[0]: 1/5: 0902: is not next to") || !strings.Contains(refused, "line 9, column 5: rule 7.23") {
		t.Errorf("a file breaking rules 5.0 and 7.23 was not refused at its lines:\n%s", refused)
	}
	// The U.S. barrage I/124 from 0204 (range 5): the Japanese asked to
	// see attacks, so the game waits for their defence.
	out := m.send(`game: r1
side: us
turn: 1
wait: orders
token: x
moves:
  - {unit: 1/5, path: ["0302"]}
attacks:
  - {defenders: [I/124], barrage: [1/11], gsp: 2}
own:
  retreats:
    1/5: {toward: "0201"}
`)
	if w := m.game().Wait; w.Kind != oi.WaitDefence || w.Side != adjudicator.JP {
		t.Fatalf("after the U.S. orders the game waits for %v, want the Japanese defence", w)
	}
	jp := mailTo(t, out, addrs[adjudicator.JP])
	for _, want := range []string{"Attack 1: no adjacent unit with barrage from 1/11, with 2 GSP, against I/124", "wait: defence", "1/5 moved 0302"} {
		if !strings.Contains(flat(jp), want) {
			t.Errorf("the Japanese mail lacks %q:\n%s", want, jp)
		}
	}
	if strings.Contains(jp, "0201") {
		t.Errorf("the Japanese mail shows the U.S. retreat plan:\n%s", jp)
	}
	ump := flat(mailTo(t, out, addrs[adjudicator.Umpire]))
	for _, want := range []string{"Umpire's report", "Japanese standing instructions: ask to see the attacks", "Pending retreat plans of the attacker: 1"} {
		if !strings.Contains(ump, want) {
			t.Errorf("the umpire's mail lacks %q:\n%s", want, ump)
		}
	}
	// Final protective fire is never given against artillery alone
	// (rule 8.45): the plan is accepted and commits nothing.
	out = m.send(`game: r1
side: jp
turn: 1
wait: defence
token: x
defence:
  fpf:
    - {protect: I/124, gsp: 1}
`)
	jp = mailTo(t, out, addrs[adjudicator.JP])
	if !regexp.MustCompile(`Attack 1: no adjacent unit with barrage from 1/11, with 2 GSP, against I/124: \d+ against \d+, differential [-+]\d+, \w+ line column \d+, die \d: \w+`).MatchString(flat(jp)) {
		t.Errorf("the Japanese report does not tell the attack:\n%s", jp)
	}
	if w := m.game().Wait; w.Kind != oi.WaitOrders || w.Side != adjudicator.JP {
		t.Fatalf("after the combat the game waits for %v, want the Japanese orders", w)
	}
	// The Japanese miss their deadline: no move, the duty's attacks only.
	out = m.miss()
	last := string(m.entry(m.game().Entries))
	if !strings.Contains(last, "Default orders written by attu") || strings.Contains(last, "moves:") {
		t.Errorf("the missed deadline wrote:\n%s", last)
	}
	if w := m.game().Wait; w.Kind != oi.WaitOrders || w.Side != adjudicator.US || w.Turn != 2 {
		t.Fatalf("after the Japanese default the game waits for %v, want the U.S. orders of Game-Turn 2", w)
	}
	us := mailTo(t, out, addrs[adjudicator.US])
	for _, want := range []string{"Attack 1: no adjacent unit with barrage from 1/11", "wait: orders", "orders-2-us-orders.yaml", "reach: "} {
		if !strings.Contains(flat(us), want) {
			t.Errorf("the U.S. mail lacks %q:\n%s", want, us)
		}
	}
	if strings.Contains(us, "protect: I/124") || strings.Contains(us, "protect: \"I/124\"") {
		t.Errorf("the U.S. mail shows the Japanese FPF plan:\n%s", us)
	}
	// Another barrage; the Japanese miss the defence: their standing
	// instructions answer it (IW24, IW27).
	m.send(`game: r1
side: us
turn: 2
wait: orders
token: x
attacks:
  - {defenders: [I/124], barrage: [1/11]}
`)
	if w := m.game().Wait; w.Kind != oi.WaitDefence {
		t.Fatalf("the game waits for %v, want the Japanese defence", w)
	}
	m.miss()
	last = string(m.entry(m.game().Entries))
	if !strings.Contains(last, "the standing instructions decide") || !strings.Contains(last, "protect: I/124") {
		t.Errorf("the missed defence deadline wrote:\n%s", last)
	}
	m.toTheEnd()
	x, err := m.db.Export(m.id, true)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	y, err := store.ReadExport(&buf)
	if err != nil {
		t.Fatal(err)
	}
	rep := store.Audit(y, Rules{})
	if !rep.OK() || !rep.Replayed {
		t.Fatalf("audit: %v", rep.Bad)
	}
}

// entry is the raw order file of log entry seq.
func (m *mailGame) entry(seq uint64) []byte {
	m.t.Helper()
	x, err := m.db.Export(m.id, false)
	if err != nil {
		m.t.Fatal(err)
	}
	for _, o := range x.Orders {
		if o.Entry == seq {
			return o.Raw()
		}
	}
	m.t.Fatalf("entry %d has no order file", seq)
	return nil
}

// flat is text with every run of spaces and line breaks one space, so that
// a check does not depend on where a line wraps.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }
