package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates/island"
)

// islandDefenceDeadline is how long the Japanese have for a defence in
// the end-to-end game: long enough to answer by mail, short enough to
// let one pass.
const islandDefenceDeadline = 10 * time.Second

// A Ridge 42 game played by mail only, through the daemon: both set-ups
// (the Japanese standing instructions ask to see the U.S. attacks), the
// U.S. orders of Game-Turn 1 and the Japanese defence they bring, the
// Japanese orders taken back (takeback, agree) and sent again, a U.S.
// barrage whose defence deadline the Japanese miss (their standing
// instructions decide, IW24), then the stand-in's files for both players
// through Game-Turn 7 (the Japanese no longer asking), and the umpire ends the game by mail. Every mail
// the game queued for a player reached it once and no one another's
// token, every orders mail was
// applied once (the one taken back marked so), the export passes attu
// audit, and each player received at most 3 mails and 350 KB a Game-Turn
// on average (welcome and final report aside). With ATTU_MAILSERVERS set,
// through Dovecot and Postfix.
func TestE2EIslandWarByMail(t *testing.T) {
	td := startTestDaemon(t, testMailSystem(t))
	c, err := td.svc.Create(referee.NewGame{System: island.Name, ID: "g1", Name: "Ridge by mail", Scenario: "ridge-42",
		Seed: bytes.Repeat([]byte{3}, store.SeedSize), // dice under which I/124 stays in 1/11's range in Game-Turn 2
		US:   td.acct["alice"].Address, JP: td.acct["bob"].Address, Umpire: td.acct["carol"].Address,
		Deadlines: map[adjudicator.WaitKind]time.Duration{oi.WaitDefence: islandDefenceDeadline},
		// The defence deadline is seconds long; a reminder is not what
		// this game checks.
		Reminder: time.Millisecond}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	td.d.Kick()
	td.settled(t, time.Minute)
	users := map[adjudicator.Side]string{adjudicator.US: "alice", adjudicator.JP: "bob", adjudicator.Umpire: "carol"}
	entries := func() int {
		g, err := td.db.Game("g1")
		if err != nil {
			t.Fatal(err)
		}
		return int(g.Entries)
	}
	mailed := 0 // orders files mailed, each to be applied once
	// file mails an orders file from side's player and requires it applied.
	file := func(side adjudicator.Side, body string) {
		t.Helper()
		before := entries()
		mailBody(t, td, users[side], string(tokenLine.ReplaceAll([]byte(body), []byte("token: "+c.Tokens[side]))))
		mailed++
		// Applied is a new entry; its mails are queued in the same
		// transaction, so once they are sent nothing of it is left.
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
			if entries() > before {
				if pending, err := td.db.Pending(time.Now().Add(time.Hour), 1); err != nil {
					t.Fatal(err)
				} else if len(pending) == 0 {
					break
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("the %s file was not applied within a minute (the game waits for %v):\n%s", side, gameWait(t, td), body)
			}
		}
	}
	position := func() adjudicator.Position {
		b, err := td.db.Position("g1")
		if err != nil {
			t.Fatal(err)
		}
		p, err := island.Rules{}.Position(b)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	expect := func(side adjudicator.Side, kind adjudicator.WaitKind, turn int) {
		t.Helper()
		if w := gameWait(t, td); w.Side != side || w.Kind != kind || w.Turn != turn {
			t.Fatalf("the game waits for %v, want %s %s of Game-Turn %d", w, side, kind, turn)
		}
	}

	expect(adjudicator.JP, oi.WaitSetup, 1)
	file(adjudicator.JP, "game: g1\nside: jp\nturn: 1\nwait: setup\ntoken: x\n"+
		`setup: {II/124: "0601", III/124: "0801", 3/Eng: "0802", Mor/124: "0803", M/28: "1103"}`+"\n"+
		"standing:\n  ask: true\n  fpf:\n    - {protect: I/124, gsp: 1}\n")
	file(adjudicator.US, "game: g1\nside: us\nturn: 1\nwait: setup\ntoken: x\n"+
		`setup: {1/5: "0202", 2/5: "0203", 3/5: "0206", C/1Eng: "0207", A/1Amt: "0208"}`+"\n")
	// A barrage from 0204: the Japanese asked to see the attacks.
	expect(adjudicator.US, oi.WaitOrders, 1)
	file(adjudicator.US, "game: g1\nside: us\nturn: 1\nwait: orders\ntoken: x\nmoves:\n  - {unit: 1/5, path: [\"0302\"]}\n"+
		"attacks:\n  - {defenders: [I/124], barrage: [1/11], gsp: 2}\n")
	expect(adjudicator.JP, oi.WaitDefence, 1)
	file(adjudicator.JP, "game: g1\nside: jp\nturn: 1\nwait: defence\ntoken: x\ndefence:\n  fpf:\n    - {protect: I/124, gsp: 1}\n")

	// The Japanese send their Player-Turn as the template would (no
	// move), take it back with the U.S. player's agreement, and send it
	// again.
	expect(adjudicator.JP, oi.WaitOrders, 1)
	jpOrders, _, err := island.Rules{}.DefaultFile("g1", position(), "the template sent back as it is")
	if err != nil {
		t.Fatal(err)
	}
	file(adjudicator.JP, string(jpOrders))
	taken := entries()
	expect(adjudicator.US, oi.WaitOrders, 2)
	mailBody(t, td, "bob", "takeback\ntoken: "+c.Tokens[adjudicator.JP]+"\n")
	td.settled(t, time.Minute)
	mailBody(t, td, "alice", "agree\ntoken: "+c.Tokens[adjudicator.US]+"\n")
	td.settled(t, time.Minute)
	expect(adjudicator.JP, oi.WaitOrders, 1)
	file(adjudicator.JP, string(jpOrders))

	// A barrage the Japanese do not answer: at the deadline their
	// standing instructions decide.
	expect(adjudicator.US, oi.WaitOrders, 2)
	file(adjudicator.US, "game: g1\nside: us\nturn: 2\nwait: orders\ntoken: x\nattacks:\n  - {defenders: [I/124], barrage: [1/11]}\n")
	expect(adjudicator.JP, oi.WaitDefence, 2)
	missed := entries()
	for deadline := time.Now().Add(islandDefenceDeadline + time.Minute); entries() == missed; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the defence deadline passed and nothing was applied (the game waits for %v)", gameWait(t, td))
		}
	}
	td.settled(t, time.Minute)
	expect(adjudicator.JP, oi.WaitOrders, 2)

	// The stand-in's files, mailed by each player, through Game-Turn 7;
	// the Japanese no longer ask for defence waits.
	const turns = 7
	for i := 0; gameWait(t, td).Turn <= turns; i++ {
		w := gameWait(t, td)
		if !w.Open() || i == 100 {
			t.Fatalf("the game waits for %v after %d stand-in files", w, i)
		}
		raw, _, err := island.Rules{}.StandIn("g1", position(), uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if w.Side == adjudicator.JP && w.Kind != oi.WaitDefence {
			raw = withAsk(raw, false)
		}
		file(w.Side, string(raw))
	}
	mailBody(t, td, "carol", fmt.Sprintf("end the %d Game-Turns are played\ntoken: %s\n", turns, c.Tokens[adjudicator.Umpire]))
	td.settled(t, time.Minute)
	g, err := td.db.Game("g1")
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != store.Ended {
		t.Fatalf("after the umpire's end the game is %v, waiting for %v", g.Status, g.Wait)
	}

	// The log: every mailed file applied once, the one taken back marked,
	// the missed defence written by attu from the standing instructions.
	log, err := td.db.Log("g1", 1)
	if err != nil {
		t.Fatal(err)
	}
	byMail, byServer, rolledBack, serverSeq := map[string]int{}, 0, 0, uint64(0)
	for _, e := range log {
		if e.Kind != store.KindOrders {
			continue
		}
		if e.MessageID == "" {
			byServer, serverSeq = byServer+1, e.Seq
			if e.Seq <= uint64(missed) {
				t.Errorf("attu wrote the orders of entry %d, before the defence deadline passed", e.Seq)
			}
		} else {
			byMail[e.MessageID]++
		}
		if e.RolledBackBy != 0 {
			rolledBack++
			if e.Seq != uint64(taken) {
				t.Errorf("entry %d was rolled back; the takeback was of entry %d", e.Seq, taken)
			}
		}
	}
	for id, n := range byMail {
		if n != 1 {
			t.Errorf("the orders of %s were applied %d times", id, n)
		}
	}
	if len(byMail) != mailed || byServer != 1 || rolledBack != 1 {
		t.Errorf("the log holds %d orders by mail (mailed %d), %d by attu (want 1, the missed defence) and %d rolled back (want 1)",
			len(byMail), mailed, byServer, rolledBack)
	}
	x, err := td.db.Export("g1", false)
	if err != nil {
		t.Fatal(err)
	}
	decided := false
	for _, o := range x.Orders {
		if o.Entry == serverSeq {
			decided = strings.Contains(string(o.Raw()), "the standing instructions decide") && strings.Contains(string(o.Raw()), "protect: I/124")
			if !decided {
				t.Errorf("the missed defence deadline wrote:\n%s", o.Raw())
			}
		}
	}
	if !decided {
		t.Errorf("no order file of attu's for the missed defence (entry %d)", serverSeq)
	}
	var buf bytes.Buffer
	if err := x.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	exportFile := filepath.Join(t.TempDir(), "g1.json")
	if err := os.WriteFile(exportFile, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runAttu("audit", exportFile); code != 0 || !strings.Contains(out, "Audit of game g1: OK") {
		t.Errorf("attu audit: exit %d\n%s%s", code, out, errs)
	}

	// Each mailbox: every mail queued for it once, the final report, and
	// the mail budget.
	queued, err := td.db.Outbox("g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.Umpire} {
		user := users[side]
		ids, _ := td.received(t, user, "-")
		td.receivedOnce(t, user, ids, queued)
		raws, err := fetchInbox(td.acct[user])
		if err != nil {
			t.Fatal(err)
		}
		final, n, size := false, 0, 0
		for _, raw := range raws {
			for other, tok := range c.Tokens {
				if other != side && bytes.Contains(raw, []byte(tok)) {
					t.Errorf("%s received the %s token in %q", user, other, subjectOf(raw))
				}
			}
			subj := subjectOf(raw)
			switch {
			case strings.Contains(subj, "the game is over"):
				final = true
			case strings.Contains(subj, "welcome"):
			default:
				n, size = n+1, size+len(raw)
			}
		}
		t.Logf("%s: %d mails, %d KB in %d Game-Turns, between the welcome and the final report", user, n, size/1000, turns)
		if !final {
			t.Errorf("%s did not receive the final report", user)
		}
		if side != adjudicator.Umpire && (float64(n)/turns > 3 || size > turns*350_000) {
			t.Errorf("%s received %d mails, %d KB in %d Game-Turns: more than 3 mails or 350 KB a Game-Turn on average", user, n, size/1000, turns)
		}
	}
}
