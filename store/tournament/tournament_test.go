package tournament

import (
	"errors"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// clock is the fake clock: the store records its times, and the test
// hands the same to Handle and Tick.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// start is when the test tournaments are created: a Monday, 09:00 UTC.
var start = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

const mailbox = "attu@example.org"

// world is a tournament run through the game service over a fresh
// database, with a fake clock and players who read their tokens from
// their welcome mails.
type world struct {
	t      *testing.T
	path   string
	db     *store.DB
	svc    *referee.Service
	dir    *Director
	clk    *clock
	tokens map[string]string // "game/side" → token, from the welcome mails
	seen   uint64            // the outbox id of the last mail looked at
	n      int               // messages sent
	mails  []store.Mail      // every mail queued, in order
	others []referee.System  // the systems the service hosts besides War in the Wind's
}

func newWorld(t *testing.T, seed uint64) *world {
	w := &world{t: t, path: filepath.Join(t.TempDir(), "attu.db"), clk: &clock{start}, tokens: map[string]string{}}
	w.dir = &Director{Games: windsys.Rules{}, Rand: rand.NewChaCha8([32]byte{byte(seed)})}
	w.open()
	t.Cleanup(w.close)
	return w
}

func (w *world) open() {
	db, err := store.Open(w.path, &store.Options{NoSync: true, Now: w.clk.now})
	if err != nil {
		w.t.Fatal(err)
	}
	w.db = db
	w.svc = referee.New(db, referee.Config{System: windsys.Rules{}, Others: w.others, Address: mailbox, Hook: w.dir})
}

// close checks the file and closes it.
func (w *world) close() {
	if w.db == nil {
		return
	}
	if err := w.db.Check(windsys.Rules{}, otherWind{}); err != nil {
		w.t.Errorf("consistency check: %v", err)
	}
	w.db.Close()
	w.db = nil
}

// restart closes the database and opens it again, as a daemon that
// stopped and started would.
func (w *world) restart() {
	w.close()
	w.open()
}

var tokenLine = regexp.MustCompile(`(?m)^\s*token: (\S+)$`)

// newMails returns the mails queued since the last look, and reads the
// tokens of the welcome mails among them.
func (w *world) newMails() []store.Mail {
	w.t.Helper()
	// Outbox ids count up from 1 without gaps in a world that runs
	// one transaction at a time, so the new mails are those after the
	// last one seen (reading the whole outbox each time made the long
	// tournament test quadratic).
	var out []store.Mail
	for {
		m, err := w.db.Mail(w.seen + 1)
		if errors.Is(err, store.ErrNoMail) {
			break
		}
		if err != nil {
			w.t.Fatal(err)
		}
		out = append(out, m)
		w.seen++
	}
	for _, m := range out {
		for _, side := range []string{"us", "jp", "umpire"} {
			if strings.HasPrefix(m.MessageID, fmt.Sprintf("<attu.%s.welcome-%s.", m.Game, side)) {
				if sm := tokenLine.FindStringSubmatch(m.Text); sm != nil {
					w.tokens[m.Game+"/"+side] = sm[1]
				}
			}
		}
	}
	w.mails = append(w.mails, out...)
	return out
}

func (w *world) tick() []store.Mail {
	w.t.Helper()
	if err := w.svc.Tick(w.clk.now()); err != nil {
		w.t.Fatal(err)
	}
	return w.newMails()
}

// send mails the service from address to game's address.
func (w *world) send(game, from, text string, orders []byte) []store.Mail {
	w.t.Helper()
	w.n++
	m := &referee.Message{From: from, To: []string{"attu+" + game + "@example.org"}, MessageID: fmt.Sprintf("<m%d@players.test>", w.n),
		Subject: "orders", Text: text, Orders: orders}
	if err := w.svc.Handle(m, w.clk.now()); err != nil {
		w.t.Fatal(err)
	}
	return w.newMails()
}

// command sends a command with the side's token.
func (w *world) command(game string, side adjudicator.Side, address, command string) []store.Mail {
	return w.send(game, address, command+"\ntoken: "+w.tokens[game+"/"+side.String()]+"\n", nil)
}

func (w *world) tournament(id string) *Tournament {
	w.t.Helper()
	t, err := Load(w.db, id)
	if err != nil {
		w.t.Fatal(err)
	}
	return t
}

func (w *world) state(game string) *wind.State {
	w.t.Helper()
	s, err := windsys.State(w.db.Position(game))
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// faceDown is the Japanese units face down in game.
func faceDown(s *wind.State) map[string]bool {
	out := map[string]bool{}
	for _, u := range s.Units {
		if u.Side() == adjudicator.JP && u.FaceDown {
			out[u.ID] = true
		}
	}
	return out
}

// usKnows adds the Japanese units the U.S. view of s names.
func usKnows(s *wind.State, known map[string]bool) {
	v := s.View(adjudicator.US)
	for _, u := range v.Enemy {
		known[u.ID] = true
	}
}

// seenByUS adds the Japanese units named in the events of game's entries
// after entry from, as the U.S. reads them (a unit turned face up by its
// fire and face down again at the end of the turn).
func (w *world) seenByUS(game string, from uint64, known map[string]bool) {
	w.t.Helper()
	log, err := w.db.Log(game, from+1)
	if err != nil {
		w.t.Fatal(err)
	}
	for _, e := range log {
		for _, ev := range wind.VisibleEvents(windsys.EventsOf(e.Events), adjudicator.US) {
			for _, u := range append(ev.Units, ev.Others...) {
				if u.ID != "" {
					known[u.ID] = true
				}
			}
		}
	}
}

// jpUnitIDs finds the Japanese units' ids in a text.
var jpUnitIDs = regexp.MustCompile(`\b(J[0-9]{2}|U[0-9]{2}|20MM[0-9]|75MM[0-9])\b`)

func mailText(m store.Mail) string {
	var b strings.Builder
	b.WriteString(m.Subject + "\n" + m.Text)
	for _, a := range m.Attachments {
		if strings.HasSuffix(a.Name, ".png") {
			continue
		}
		b.Write(a.Data)
	}
	return b.String()
}

const sixPlayers = `# The acceptance tournament: six players, three rounds of short scenarios.
id: t43
name: Attu Open
umpire: {name: Una, address: umpire@example.org, time-zone: Europe/London}
players:
  - {name: Alice, address: alice@example.org, time-zone: Europe/Paris}
  - {name: Bruno, address: bruno@example.org, time-zone: America/New_York}
  - {name: Chiyo, address: chiyo@example.org, time-zone: Asia/Tokyo}
  - {name: Dmitri, address: dmitri@example.org}
  - {name: Erin, address: erin@example.org, time-zone: Europe/Dublin}
  - {name: Farid, address: farid@example.org, time-zone: Asia/Dubai}
pairing: round-robin
sides: drawn
rounds:
  - scenario: up-the-hogs-back
  - scenario: up-the-hogs-back
  - scenario: up-the-hogs-back
deadlines: {each: 48h, reminder: 12h}
digest: "07:00"
tie-breaks: [head-to-head, wins, buchholz, lateness]
`

// The acceptance test of the tournaments: six players over three rounds
// of a round robin, every game created through the game service and
// played to its end by mail — the legal-orders player (autoplay) for
// every side, one player letting a deadline pass, one conceding, one game
// ended by the umpire as a draw — under a fake clock. The standings
// equal the table computed by hand below; every game's export passes the
// audit; the late player's lateness shows in the umpire's digest; and no
// player's mail names a Japanese unit hidden from them.
func TestSixPlayersThreeRounds(t *testing.T) {
	if raceDetector && testing.Short() {
		// Nine whole games take about eight minutes under the race
		// detector here; the plain run plays them, and the race run
		// covers the same code through the digest and standings tests.
		t.Skip("the whole tournament runs in the plain test run, not in the short race run")
	}
	w := newWorld(t, 43)
	f, err := Parse([]byte(sixPlayers), windsys.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.dir.New(w.svc, f, mailbox, w.clk.now()); err != nil {
		t.Fatal(err)
	}
	w.newMails()
	pick := func() func(int) int {
		r := rand.New(rand.NewPCG(43, 7))
		return func(n int) int { return r.IntN(n) }
	}()
	address := map[string]string{}
	for _, p := range f.Players {
		address[p.Name] = p.Address
	}
	// Who does what besides playing: in round 1 the last game's
	// Japanese player lets the first actions deadline pass; in round 2
	// the umpire ends the second game as a draw at turn 2; in round 3
	// the first game's Japanese player concedes at the first actions.
	known := map[string]map[string]bool{} // game → Japanese units the U.S. has seen
	var digests []store.Mail
	lateDone := false
	for round := 1; round <= 3; round++ {
		tm := w.tournament("t43")
		if len(tm.Rounds) != round {
			t.Fatalf("round %d: the tournament has %d rounds begun", round, len(tm.Rounds))
		}
		r := tm.Rounds[round-1]
		for gi, g := range r.Games {
			if !g.Created {
				t.Fatalf("%s was not created", g.ID)
			}
			known[g.ID] = map[string]bool{}
			for steps := 0; ; steps++ {
				if steps > 300 {
					t.Fatalf("%s: no end after %d steps", g.ID, steps)
				}
				gm, err := w.db.Game(g.ID)
				if err != nil {
					t.Fatal(err)
				}
				if gm.Status == store.Ended {
					break
				}
				before := w.state(g.ID)
				usKnows(before, known[g.ID])
				hidden := faceDown(before)
				wt := gm.Wait
				player := g.US
				if wt.Side == adjudicator.JP {
					player = g.JP
				}
				var out []store.Mail
				switch {
				case round == 1 && gi == len(r.Games)-1 && wt.Kind == wind.WaitActions && wt.Side == adjudicator.JP && !lateDone:
					lateDone = true
					w.clk.t = gm.Deadline.Add(time.Minute)
					out = w.tick()
				case round == 2 && gi == 1 && wt.Turn == 2:
					out = w.command(g.ID, adjudicator.Umpire, "umpire@example.org", "end draw, agreed by both players")
				case round == 3 && gi == 0 && wt.Kind == wind.WaitActions && wt.Side == adjudicator.JP:
					out = w.command(g.ID, adjudicator.JP, address[g.JP], "concede")
				default:
					orders := orderFile(g.ID, w.tokens[g.ID+"/"+wt.Side.String()], autoplay.Orders(before, pick))
					out = w.send(g.ID, address[player], "", orders)
					if after, _ := w.db.Game(g.ID); after.Entries == gm.Entries {
						t.Fatalf("%s: the %s orders were not applied: %v", g.ID, wt, subjects(out))
					}
				}
				w.clk.t = w.clk.t.Add(20 * time.Minute)
				out = append(out, w.tick()...)
				after := w.state(g.ID)
				w.seenByUS(g.ID, gm.Entries, known[g.ID])
				for _, m := range out {
					if strings.Contains(m.Subject, "digest") {
						digests = append(digests, m)
					}
					// A mail of this game to its U.S. player names no
					// Japanese unit hidden before and after the step that
					// the U.S. has never seen.
					// The final report is left out: the game is over
					// and its whole record goes with it.
					if m.Game == g.ID && m.To[0] == address[g.US] && !strings.HasPrefix(m.MessageID, "<attu."+g.ID+".final-") {
						afterDown := faceDown(after)
						for _, id := range jpUnitIDs.FindAllString(mailText(m), -1) {
							if hidden[id] && afterDown[id] && !known[g.ID][id] {
								t.Fatalf("%s: a mail to the U.S. player (%s) names the hidden %s:\n%s", g.ID, m.Subject, id, m.Text)
							}
						}
					}
				}
			}
		}
		// Halfway through, the service restarts: nothing is lost or sent
		// twice.
		if round == 2 {
			w.restart()
		}
		// A player asks for the standings by mail.
		out := w.send(r.Games[0].ID, address[r.Games[0].US], "standings\n", nil)
		if len(out) != 1 || !strings.Contains(out[0].Text, "STANDINGS (your line is marked >)") {
			t.Fatalf("the answer to standings: %v", subjects(out))
		}
		mustContain(t, "the answer to standings", out[0].Text, "> ")
	}
	tm := w.tournament("t43")
	if tm.Over.IsZero() {
		t.Fatal("the tournament is not over")
	}
	var results []string
	for _, r := range tm.Rounds {
		for _, g := range r.Games {
			results = append(results, fmt.Sprintf("%s %s(US) %s(JP): %s", g.ID, g.US, g.JP, resultText(&g, w.dir.voice(tm).rule)))
		}
	}
	// The games as played: who met whom with which side (round robin,
	// sides drawn), and how each ended. The table below is computed by
	// hand from these results.
	wantResults := []string{
		"t43-r1-1 Alice(US) Farid(JP): Farid (Japanese) beat Alice",
		"t43-r1-2 Bruno(US) Erin(JP): Bruno (U.S.) beat Erin",
		"t43-r1-3 Chiyo(US) Dmitri(JP): Dmitri (Japanese) beat Chiyo",
		"t43-r2-1 Alice(US) Erin(JP): Erin (Japanese) beat Alice",
		"t43-r2-2 Dmitri(US) Farid(JP): draw (the umpire's ruling)",
		"t43-r2-3 Bruno(US) Chiyo(JP): Chiyo (Japanese) beat Bruno",
		"t43-r3-1 Alice(US) Dmitri(JP): Alice (U.S.) beat Dmitri, who conceded",
		"t43-r3-2 Chiyo(US) Erin(JP): Erin (Japanese) beat Chiyo",
		"t43-r3-3 Farid(US) Bruno(JP): Bruno (Japanese) beat Farid",
	}
	if strings.Join(results, "\n") != strings.Join(wantResults, "\n") {
		t.Errorf("the results:\n%s\nwant\n%s", strings.Join(results, "\n"), strings.Join(wantResults, "\n"))
	}
	// By hand, from the results above (win 3, draw 1, loss 0):
	//   Bruno   W L W          6 \ level: Bruno beat Erin (head-to-head
	//   Erin    L W W          6 / 3 and 0)
	//   Farid   W D L          4 \ level: drew (head-to-head 1 each), one
	//   Dmitri  W D L(conc.)   4 / win each; Buchholz 3+4+6=13 v 3+4+3=10;
	//                            Dmitri late once in t43-r1-3
	//   Chiyo   L W L          3 \ level: never met, one win each;
	//   Alice   L L W          3 / Buchholz 4+6+6=16 v 4+6+4=14
	// Buchholz: Bruno 6+3+4=13, Erin 6+3+3=12.
	want := []string{
		"1 Bruno p3 w2 d0 l1 pts6 h2h3 wins2 buchholz13 late0",
		"2 Erin p3 w2 d0 l1 pts6 h2h0 wins2 buchholz12 late0",
		"3 Farid p3 w1 d1 l1 pts4 h2h1 wins1 buchholz13 late0",
		"4 Dmitri p3 w1 d1 l1 pts4 h2h1 wins1 buchholz10 late1",
		"5 Chiyo p3 w1 d0 l2 pts3 h2h0 wins1 buchholz16 late0",
		"6 Alice p3 w1 d0 l2 pts3 h2h0 wins1 buchholz14 late0",
	}
	var table []string
	for _, row := range tm.Table() {
		table = append(table, fmt.Sprintf("%d%s %s p%d w%d d%d l%d pts%d h2h%v wins%v buchholz%v late%v", row.Place, map[bool]string{true: "=", false: ""}[row.Shared],
			row.Player, row.Played, row.Won, row.Drawn, row.Lost, row.Points, row.Breaks[0], row.Breaks[1], row.Breaks[2], -row.Breaks[3]))
	}
	if strings.Join(table, "\n") != strings.Join(want, "\n") {
		t.Errorf("the standings:\n%s\nwant\n%s", strings.Join(table, "\n"), strings.Join(want, "\n"))
	}
	// The last standings mail is the final table, as every player got it.
	var final *store.Mail
	for i := range w.mails {
		if m := &w.mails[i]; strings.Contains(m.Subject, "final standings") && m.To[0] == "erin@example.org" {
			final = m
		}
	}
	if final == nil {
		t.Fatal("no final standings for Erin")
	}
	mustContain(t, "the final standings", final.Text,
		"   PLACE  PLAYER  GAMES  WON  DRAWN  LOST  POINTS  H2H  WINS  BUCHH  LATE\n"+
			"       1  Bruno       3    2      0     1       6    3     2     13     0\n"+
			">      2  Erin        3    2      0     1       6    0     2     12     0\n"+
			"       3  Farid       3    1      1     1       4    1     1     13     0\n"+
			"       4  Dmitri      3    1      1     1       4    1     1     10     1\n"+
			"       5  Chiyo       3    1      0     2       3    0     1     16     0\n"+
			"       6  Alice       3    1      0     2       3    0     1     14     0\n",
		"Nothing: the tournament is over.")

	checkDraw(t, w, tm)
	// The umpire learnt of each round's end with the next round's games
	// and sides, once.
	for n := 1; n < 3; n++ {
		var got []store.Mail
		for _, m := range w.mails {
			if strings.Contains(m.Subject, fmt.Sprintf("round %d has ended, round %d begins", n, n+1)) {
				got = append(got, m)
			}
		}
		if len(got) != 1 || got[0].To[0] != "umpire@example.org" {
			t.Fatalf("the end of round %d: %v", n, subjects(got))
		}
		for _, g := range tm.Rounds[n].Games {
			mustContain(t, "the round's mail", got[0].Text, fmt.Sprintf("  %s: %s (U.S.) v %s (Japanese)\n", g.ID, g.US, g.JP))
		}
	}
	// Every game's export passes the audit.
	for _, r := range tm.Rounds {
		for _, g := range r.Games {
			x, err := w.db.Export(g.ID, false)
			if err != nil {
				t.Fatal(err)
			}
			if rep := store.Audit(x, windsys.Rules{}); !rep.OK() || !rep.Replayed || !rep.SeedShown {
				t.Fatalf("%s: audit: %v", g.ID, rep.Bad)
			}
		}
	}
	// The digest came once a day and shows the late player's lateness
	// once the game is scored.
	if len(digests) < 3 {
		t.Fatalf("%d digests", len(digests))
	}
	lateShown := false
	for _, m := range digests {
		if m.To[0] != "umpire@example.org" {
			t.Fatalf("a digest went to %v", m.To)
		}
		lateShown = lateShown || strings.Contains(m.Text, "LATE PLAYERS\n  Dmitri: 1 deadline missed, in t43-r1-3 (1)\n")
	}
	if !lateShown {
		t.Fatalf("no digest shows Dmitri late:\n%s", digests[len(digests)-1].Text)
	}
	// Standings mails name no Japanese unit, and no hex.
	unitOrHex := regexp.MustCompile(`\b(J[0-9]{2}|U[0-9]{2}|20MM[0-9]|75MM[0-9]|[0-9]{4})\b`)
	standings := 0
	for _, m := range w.mails {
		if strings.Contains(m.Subject, "standings") {
			standings++
			if loc := unitOrHex.FindStringIndex(m.Text); loc != nil {
				t.Fatalf("standings mail %q names %q:\n%s", m.Subject, m.Text[loc[0]:loc[1]], m.Text)
			}
		}
	}
	if standings < 9*7 {
		t.Fatalf("%d standings mails for 9 games and 7 readers", standings)
	}
	t.Logf("%d mails, %d digests", len(w.mails), len(digests))
}

func subjects(ms []store.Mail) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Subject)
	}
	return out
}

func mustContain(t *testing.T, what, text string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(text, p) {
			t.Fatalf("%s lacks %q:\n%s", what, p, text)
		}
	}
}
