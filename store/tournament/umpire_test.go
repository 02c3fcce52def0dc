package tournament

import (
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/store"
)

const threePlayers = `id: trio
name: The Trio
umpire: {name: Una, address: umpire@example.org, time-zone: Asia/Tokyo}
players:
  - {name: Alice, address: alice@example.org, time-zone: Europe/Paris}
  - {name: Bruno, address: bruno@example.org}
  - {name: Chiyo, address: chiyo@example.org, time-zone: Asia/Tokyo}
sides: both
rounds: [{scenario: up-the-hogs-back}, {scenario: up-the-hogs-back}]
deadlines: {each: 48h, reminder: 12h}
digest: "07:00"
tie-breaks: [wins, lateness]
`

// toActions plays game with legal orders until it waits for a side's
// actions, and returns the name of the player it waits for.
func (w *world) toActions(tm *Tournament, game string) string {
	w.t.Helper()
	_, g := tm.game(game)
	pick := func(n int) int { return rand.New(rand.NewPCG(7, 7)).IntN(n) }
	for range 20 {
		gm, err := w.db.Game(game)
		if err != nil {
			w.t.Fatal(err)
		}
		name := g.US
		if gm.Wait.Side == adjudicator.JP {
			name = g.JP
		}
		if gm.Wait.Kind == wind.WaitActions {
			return name
		}
		p, _ := tm.File.player(name)
		o := autoplay.Orders(w.state(game), pick)
		w.send(game, p.Address, "", orderFile(game, w.tokens[game+"/"+gm.Wait.Side.String()], o))
	}
	w.t.Fatalf("%s never waits for actions", game)
	return ""
}

// late lets the deadline of game's current wait pass.
func (w *world) late(game string) {
	w.t.Helper()
	gm, err := w.db.Game(game)
	if err != nil {
		w.t.Fatal(err)
	}
	w.clk.t = gm.Deadline.Add(time.Minute)
	w.tick()
}

// only returns the one mail among ms whose subject holds what.
func only(t *testing.T, ms []store.Mail, what string) store.Mail {
	t.Helper()
	var found []store.Mail
	for _, m := range ms {
		if strings.Contains(m.Subject, what) {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d mails %q among %v", len(found), what, subjects(ms))
	}
	return found[0]
}

// What the umpire sees of a tournament through its turning points: a
// player late in a game the umpire then voids (not counted), the round's
// end with the next round's pairings and sides by mail, the last round
// with a player late in a game that is scored (counted, alike in the
// digest and the standings), a digest asked for by mail, and the digest
// after the end, with the games ended in the order they ended.
func TestUmpireView(t *testing.T) {
	w := newWorld(t, 3)
	f, err := Parse([]byte(threePlayers), windsys.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.dir.New(w.svc, f, mailbox, w.clk.now()); err != nil {
		t.Fatal(err)
	}
	w.newMails()
	tm := w.tournament("trio")
	r1 := tm.Rounds[0]
	if len(r1.Games) != 2 || r1.Bye == "" {
		t.Fatalf("round 1: %+v", r1)
	}
	umpire := func(game, words string) []store.Mail {
		return w.command(game, adjudicator.Umpire, "umpire@example.org", words)
	}

	// Round 1: a player lets a deadline pass in the first game, which
	// the umpire then ends without a result; the second, paused
	// meanwhile so that no deadline of it passes, goes to the U.S.
	voidLate := w.toActions(tm, r1.Games[0].ID)
	umpire(r1.Games[1].ID, "pause")
	w.late(r1.Games[0].ID)
	umpire(r1.Games[0].ID, "end the server lost the mail")
	w.clk.t = w.clk.t.Add(time.Minute)
	out := umpire(r1.Games[1].ID, "end us: agreed")

	// The round's end: the umpire's mail pairs round 2 at once, with
	// each game's sides and the bye, as the record has it.
	tm = w.tournament("trio")
	if len(tm.Rounds) != 2 {
		t.Fatalf("round 2 was not paired when round 1 ended: %d rounds", len(tm.Rounds))
	}
	r2 := tm.Rounds[1]
	rm := only(t, out, "round 1 has ended, round 2 begins")
	if rm.To[0] != "umpire@example.org" {
		t.Fatalf("the round's mail went to %v", rm.To)
	}
	want := []string{"every game of round 1 of 2 has ended", "ROUND 2: Up the Hog's Back (rule 15.1)",
		r2.Bye + " has a bye.", "Round 2 is the last"}
	for _, g := range r2.Games {
		want = append(want, fmt.Sprintf("  %s: %s (U.S.) v %s (Japanese)\n", g.ID, g.US, g.JP))
	}
	mustContain(t, "the round's mail", rm.Text, want...)
	w.tick() // creates round 2's games
	if tm = w.tournament("trio"); !tm.Rounds[1].Games[0].Created {
		t.Fatal("round 2's games were not created at the next tick")
	}

	// Round 2, the last: a player lets a deadline pass in a game that
	// will count; the umpire asks for the digest by mail.
	counted := w.toActions(tm, r2.Games[0].ID)
	umpire(r2.Games[1].ID, "pause")
	w.late(r2.Games[0].ID)
	ask := fmt.Sprintf("<m%d@players.test>", w.n+1) // the next mail sent
	if out := umpire(r2.Games[1].ID, "digest"); len(out) != 0 {
		t.Fatalf("the digest was answered inside the command: %v", subjects(out))
	}
	d := only(t, w.tick(), "digest")
	if d.InReplyTo != ask || d.To[0] != "umpire@example.org" {
		t.Fatalf("the digest asked for is in reply to %q (want %s), to %v", d.InReplyTo, ask, d.To)
	}
	mustContain(t, "the digest asked for", d.Text,
		"You asked for it by mail",
		"Round 2 of 2 is being played, the last.",
		fmt.Sprintf("note:      %s has missed 1 deadline in this game so far", counted),
		"LATE PLAYERS\n  none: no player has missed a deadline in a scored game",
		"Round 2 is the last: the tournament is over when its last game ends")
	if strings.Contains(strings.Join(strings.Fields(d.Text), " "), "begins it now") {
		t.Fatalf("the last round's digest offers a next round:\n%s", d.Text)
	}
	if len(digests(w.tick())) != 0 {
		t.Fatal("the digest asked for was sent twice")
	}

	// The second game ends first, then the first: the tournament is over.
	w.clk.t = w.clk.t.Add(time.Minute)
	umpire(r2.Games[1].ID, "end draw")
	w.clk.t = w.clk.t.Add(time.Minute)
	umpire(r2.Games[0].ID, "end jp: agreed")
	tm = w.tournament("trio")
	if tm.Over.IsZero() {
		t.Fatal("the tournament is not over")
	}
	w.clk.t = w.clk.t.Add(24 * time.Hour)
	d = only(t, w.tick(), "digest")
	mustContain(t, "the digest after the end", d.Text,
		"Every game of the last round has ended: the tournament is over.",
		fmt.Sprintf("LATE PLAYERS\n  %s: 1 deadline missed, in %s (1)\n", counted, r2.Games[0].ID),
		"The tournament is over: the standings above are final")
	if strings.Contains(strings.Join(strings.Fields(d.Text), " "), "begins it now") {
		t.Fatalf("the digest after the end offers a next round:\n%s", d.Text)
	}
	// The games ended in time order: the second of round 2, then the
	// first.
	i, j := strings.Index(d.Text, r2.Games[1].ID+" (round 2)"), strings.Index(d.Text, r2.Games[0].ID+" (round 2)")
	if i < 0 || j < 0 || i > j {
		t.Fatalf("the games ended are not in the order they ended:\n%s", d.Text)
	}
	// The standings count the same lateness: the void game's not at
	// all, the scored one's once.
	for _, row := range tm.Table() {
		want := 0
		if row.Player == counted {
			want = 1
		}
		if row.Late != want {
			t.Errorf("%s: %d deadlines missed in the standings, want %d (late in the void game: %s)", row.Player, row.Late, want, voidLate)
		}
	}
	// The digest's table, whose last column is LATE, says the same.
	_, table, _ := strings.Cut(d.Text, "\nSTANDINGS\n")
	table, _, _ = strings.Cut(table, "\n\n")
	if !strings.HasSuffix(strings.Split(table, "\n")[0], "  LATE") {
		t.Fatalf("the digest's table does not end with LATE:\n%s", table)
	}
	for _, row := range tm.Table() {
		found := false
		for _, l := range strings.Split(table, "\n") {
			if strings.Contains(l, "  "+row.Player+"  ") {
				found = strings.HasSuffix(l, fmt.Sprintf(" %d", row.Late))
			}
		}
		if !found {
			t.Errorf("%s's line in the digest's table does not end with its lateness %d:\n%s", row.Player, row.Late, table)
		}
	}
}
