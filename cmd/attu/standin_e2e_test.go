package main

import (
	"bytes"
	"context"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/mail"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// TestE2EStandinReplace hands the Japanese side of a game to attu's
// stand-in by mail and back to a person, on the in-process servers or on
// Dovecot and Postfix: the umpire mails "replace jp bot"; the Japanese
// player gets a farewell and the U.S. player a notice, and from then on
// the game answers every Japanese wait itself after each U.S. file (the
// U.S. player never waits for the Japanese); the umpire mails "replace jp
// ADDRESS"; the new player gets a welcome with a new token, the U.S.
// player a notice, and the game waits for the Japanese again until their
// file comes by mail. Both hand-overs are notes in the log, the stand-in's
// files are orders entries of their own, and the export audits.
func TestE2EStandinReplace(t *testing.T) {
	td := startTestDaemon(t, testMailSystem(t))
	c, err := td.svc.Create(referee.NewGame{ID: "g1", Name: "Practice", Scenario: wind.ScenarioUpTheHogsBack,
		US: td.acct["alice"].Address, JP: td.acct["bob"].Address, Umpire: td.acct["carol"].Address}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	td.d.Kick()
	td.settled(t, time.Minute)
	seen := map[string]int{}
	newMail := func(user string) []*mail.Message { return unread(t, td, user, seen) }
	for _, u := range []string{"alice", "bob", "carol"} {
		newMail(u)
	}
	if w := gameWait(t, td); w.Side != adjudicator.JP {
		t.Fatalf("the game begins waiting for %v", w)
	}

	mailBody(t, td, "carol", "replace jp bot\ntoken: "+c.Tokens[adjudicator.Umpire]+"\n")
	td.settled(t, time.Minute)
	mustRead(t, newMail("carol"), "now played by attu's stand-in")
	mustRead(t, newMail("alice"), "gave the Japanese side to attu's stand-in")
	mustRead(t, newMail("bob"), "no longer")
	if w := gameWait(t, td); w.Side != adjudicator.US {
		t.Fatalf("after the hand-over the game waits for %v, not the U.S.", w)
	}

	// Alice plays until the stand-in has filed twice (how many U.S. files
	// that takes depends on the random orders); the stand-in answers every
	// Japanese wait at once.
	pick := func(n int) int { return rand.IntN(n) }
	for i := 0; standinFiles(t, td) < 2; i++ {
		if i == 12 {
			t.Fatalf("after %d U.S. files the stand-in has filed %d times", i, standinFiles(t, td))
		}
		mailOrders(t, td, "alice", c.Tokens[adjudicator.US], pick)
		td.settled(t, time.Minute)
		if w := gameWait(t, td); w.Side != adjudicator.US && !w.Over() {
			t.Fatalf("after the U.S. file the game waits for %v", w)
		}
		newMail("alice")
	}
	if len(newMail("bob")) != 0 {
		t.Fatal("the former Japanese player was mailed while the stand-in played")
	}

	mailBody(t, td, "carol", "replace jp "+td.acct["bob"].Address+"\ntoken: "+c.Tokens[adjudicator.Umpire]+"\n")
	td.settled(t, time.Minute)
	mustRead(t, newMail("alice"), "gave the Japanese side to a new player")
	welcome := mustRead(t, newMail("bob"), "welcome")
	token := tokenOf(t, welcome.Text)
	for w := gameWait(t, td); w.Side != adjudicator.JP; w = gameWait(t, td) {
		if w.Over() {
			t.Fatal("the game ended before the Japanese player's turn came")
		}
		mailOrders(t, td, "alice", c.Tokens[adjudicator.US], pick)
		td.settled(t, time.Minute)
	}
	before := countOrders(t, td, adjudicator.JP)
	mailOrders(t, td, "bob", token, pick)
	td.settled(t, time.Minute)
	if countOrders(t, td, adjudicator.JP) != before+1 {
		t.Fatal("the Japanese file mailed after the hand-back was not applied")
	}
	checkStandinLog(t, td)
}

// checkStandinLog requires both hand-overs as notes, stand-in files
// without a Message-ID between them and the player's by mail after, and
// an export that audits.
func checkStandinLog(t *testing.T, td *testDaemon) {
	t.Helper()
	log, err := td.db.Log("g1", 1)
	if err != nil {
		t.Fatal(err)
	}
	notes, bot, byMail := 0, 0, 0
	for _, e := range log {
		switch {
		case e.Kind == store.KindNote:
			notes++
		case e.Kind == store.KindOrders && e.Side == adjudicator.JP && e.MessageID == "":
			bot++
		case e.Kind == store.KindOrders && e.Side == adjudicator.JP && notes >= 2:
			byMail++
		}
	}
	if notes < 2 || bot < 2 || byMail != 1 {
		t.Fatalf("the log has %d notes, %d stand-in files, %d Japanese files by mail after the hand-back", notes, bot, byMail)
	}
	auditGame(t, td, windsys.Rules{})
}

// auditGame requires game g1's export to pass the audit by rules r.
func auditGame(t *testing.T, td *testDaemon, r store.Rules) {
	t.Helper()
	x, err := td.db.Export("g1", true)
	if err != nil {
		t.Fatal(err)
	}
	if rep := store.Audit(x, r); !rep.OK() {
		var b bytes.Buffer
		rep.WriteText(&b)
		t.Fatalf("the audit failed:\n%s", b.String())
	}
}

func gameWait(t *testing.T, td *testDaemon) adjudicator.Wait {
	t.Helper()
	g, err := td.db.Game("g1")
	if err != nil {
		t.Fatal(err)
	}
	return g.Wait
}

// standinFiles counts the Japanese files game g1's log holds without a
// Message-ID: those the stand-in wrote.
func standinFiles(t *testing.T, td *testDaemon) int {
	return countOrdersIf(t, td, func(e store.LogEntry) bool { return e.Side == adjudicator.JP && e.MessageID == "" })
}

// countOrders counts side's orders entries in game g1's log.
func countOrders(t *testing.T, td *testDaemon, side adjudicator.Side) int {
	return countOrdersIf(t, td, func(e store.LogEntry) bool { return e.Side == side })
}

func countOrdersIf(t *testing.T, td *testDaemon, keep func(store.LogEntry) bool) int {
	t.Helper()
	log, err := td.db.Log("g1", 1)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range log {
		if e.Kind == store.KindOrders && keep(e) {
			n++
		}
	}
	return n
}

// mailBody mails text from user to game g1.
func mailBody(t *testing.T, td *testDaemon, user, text string) {
	t.Helper()
	raw := "From: <" + td.acct[user].Address + ">\r\nTo: <" + td.gameAddress() + ">\r\nSubject: command\r\nMessage-ID: <" +
		randomID() + "@players.test>\r\nDate: " + time.Now().Format(time.RFC1123Z) + "\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n\r\n" + strings.ReplaceAll(text, "\n", "\r\n")
	if err := sendRaw(context.Background(), td.sys, td.acct[user].Address, []string{td.gameAddress()}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
}

// mailOrders mails random legal orders for what game g1 waits for from
// user, with token.
func mailOrders(t *testing.T, td *testDaemon, user, token string, pick func(int) int) {
	t.Helper()
	st, err := windsys.State(td.db.Position("g1"))
	if err != nil {
		t.Fatal(err)
	}
	body, err := windorders.Write("g1", token, autoplay.Orders(st, pick))
	if err != nil {
		t.Fatal(err)
	}
	mailBody(t, td, user, string(body))
}

func randomID() string {
	const abc = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 16)
	for i := range b {
		b[i] = abc[rand.IntN(len(abc))]
	}
	return string(b)
}

// unread returns the mails in user's INBOX not returned before.
func unread(t *testing.T, td *testDaemon, user string, seen map[string]int) []*mail.Message {
	t.Helper()
	raws, err := fetchInbox(td.acct[user])
	if err != nil {
		t.Fatal(err)
	}
	var out []*mail.Message
	for _, raw := range raws[seen[user]:] {
		m, err := mail.Extract(bytes.NewReader(raw), mail.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	seen[user] = len(raws)
	return out
}

// mustRead returns the first mail whose subject or text holds words.
func mustRead(t *testing.T, ms []*mail.Message, words string) *mail.Message {
	t.Helper()
	var subjects []string
	for _, m := range ms {
		if strings.Contains(m.Subject, words) || strings.Contains(m.Text, words) {
			return m
		}
		subjects = append(subjects, m.Subject)
	}
	t.Fatalf("no mail says %q among %q", words, subjects)
	return nil
}

// tokenOf reads the token from a welcome.
func tokenOf(t *testing.T, text string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "token: "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no token in\n%s", text)
	return ""
}
