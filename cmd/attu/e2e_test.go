package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// e2eLog opens a log file for a test's daemon and players, shown when the
// test fails.
func e2eLog(t *testing.T, dir string) *slog.Logger {
	t.Helper()
	path := filepath.Join(dir, "attu.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		f.Close()
		if t.Failed() {
			b, _ := os.ReadFile(path)
			if len(b) > 20000 {
				b = b[len(b)-20000:]
			}
			t.Logf("the end of the log:\n%s", b)
		}
	})
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// A game created by the rules of setup (rule 12: the Japanese set up
// freely, then the U.S. lands) is played by mail only, through every kind
// of wait: the Japanese setup, the U.S. landing, U.S. decisions with a
// night turn (rule 3.1) and a refit turn (the U.S. and the Japanese refit
// orders), and both sides' actions. Every mail the game queued for a
// player reached that player exactly once, no player ever saw the other
// side's token, the daemon's INBOX is empty at the end (every mail moved
// to the processed folder), and the export of the game passes the audit.
// With ATTU_MAILSERVERS set, all of it goes through Dovecot and Postfix.
func TestE2EGameByMail(t *testing.T) {
	sys := testMailSystem(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "attu.db")
	db, err := store.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const turns = 4
	steer := func(turn int) *wind.Decision {
		switch turn {
		case 2:
			return &wind.Decision{Night: true}
		case 3:
			return &wind.Decision{Refit: true}
		}
		return &wind.Decision{}
	}
	seed := sha256.Sum256([]byte("attu e2e dice"))
	start := time.Now()
	pg, err := playByMail(ctx, mailPlay{Sys: sys, DB: db, DBPath: dbPath, Log: e2eLog(t, dir), Turns: turns, Seed: []byte("e2e"),
		Game:  referee.NewGame{ID: "e2e", Name: "Attu by mail", Scenario: "campaign", JPSetup: "free", Seed: seed[:]},
		Steer: steer})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d turns by mail in %v", turns, time.Since(start).Round(time.Millisecond))

	// Every wait kind was answered by an orders file that came by mail.
	log, err := db.Log(pg.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	answered := map[string]bool{}
	night, refit := false, false
	for _, e := range log {
		if e.Kind != store.KindOrders {
			continue
		}
		if e.MessageID == "" || len(e.Orders) == 0 {
			t.Errorf("log entry %d (%s %s of turn %d) did not come by mail", e.Seq, e.Side, e.Wait, e.Turn)
			continue
		}
		answered[fmt.Sprintf("%s %s", e.Side, e.Wait)] = true
		if d := mustOrders(t, e.Entry).Decision; d != nil && e.Wait == wind.WaitUSDecision {
			night = night || (d.Night && e.Turn == 2)
			refit = refit || (d.Refit && e.Turn == 3)
		}
	}
	for _, want := range []string{"jp jp-setup", "us us-landing", "us us-decision", "us us-refit", "jp jp-refit", "us actions", "jp actions"} {
		if !answered[want] {
			t.Errorf("no %s orders were applied; applied: %v", want, answered)
		}
	}
	if !night || !refit {
		t.Errorf("night turn 2 applied: %v, refit turn 3 applied: %v", night, refit)
	}

	// Each side received what the game queued for it, exactly once, and
	// nothing of the other side's secrets.
	queued, err := db.Outbox(pg.ID)
	if err != nil {
		t.Fatal(err)
	}
	players := map[adjudicator.Side]*demoPlayer{adjudicator.US: pg.Players[adjudicator.US], adjudicator.JP: pg.Players[adjudicator.JP]}
	for side, p := range players {
		other := players[side.Enemy()]
		want := map[string]bool{}
		for _, m := range queued {
			for _, to := range m.To {
				if mail.SameAddress(to, p.addr) {
					want[strings.Trim(m.MessageID, "<>")] = true
				}
			}
		}
		got := map[string]int{}
		reports := 0
		for _, m := range p.received {
			got[strings.Trim(m.MessageID, "<>")]++
			if strings.Contains(m.Text, "report for the "+sideTitle(side)+" player") {
				reports++
			}
			if other.token != "" && strings.Contains(m.Text, other.token) {
				t.Errorf("the %s player received the other side's token in %q", side, m.Subject)
			}
		}
		for id := range want {
			if got[id] != 1 {
				t.Errorf("the %s player received %s %d times", side, id, got[id])
			}
		}
		for id := range got {
			if !want[id] {
				t.Errorf("the %s player received %s, which the game never queued for it", side, id)
			}
		}
		if p.token == "" || len(p.received) == 0 || !strings.Contains(p.received[0].Subject, "welcome: you play the "+sideTitle(side)+" side") {
			t.Errorf("the %s player's first mail was not its welcome with its token", side)
		}
		if last := p.received[len(p.received)-1]; !strings.Contains(last.Subject, "the game is over") {
			t.Errorf("the %s player's last mail is %q, not the final report", side, last.Subject)
		}
		// At least a report a turn: the game waits for each side once a
		// turn at least, and only then mails it a report.
		if reports < turns {
			t.Errorf("the %s player received %d reports for its side, want at least %d", side, reports, turns)
		}
	}

	// Every mail the daemon handled left its INBOX for the processed
	// folder: MOVE, or COPY, STORE and UID EXPUNGE.
	left, err := fetchInbox(pg.Account["attu"])
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("%d mails are still in attu's INBOX:\n%s", len(left), left[0])
	}

	x, err := db.Export(pg.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if x, err = store.ReadExport(&buf); err != nil {
		t.Fatal(err)
	}
	if rep := store.Audit(x, windsys.Rules{}); !rep.OK() {
		var b bytes.Buffer
		rep.WriteText(&b)
		t.Errorf("the audit of the export failed:\n%s", b.String())
	}
}

// playByMailFor plays game by mail for turns turns, or to its end when
// the rules end it sooner, its dice seeded from diceSeed and the scripted
// players from playSeed (the U.S. giving each turn's decision in advance
// when ahead), and returns the database (open until the test ends) and the
// result.
func playByMailFor(t *testing.T, diceSeed, playSeed string, turns int, ahead bool, game referee.NewGame) (*store.DB, *mailGameResult) {
	t.Helper()
	sys := testMailSystem(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "attu.db")
	db, err := store.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	seed := sha256.Sum256([]byte(diceSeed))
	game.Seed = seed[:]
	pg, err := playByMail(ctx, mailPlay{Sys: sys, DB: db, DBPath: dbPath, Log: e2eLog(t, dir), Turns: turns, Seed: []byte(playSeed), Game: game, Ahead: ahead})
	if err != nil {
		t.Fatal(err)
	}
	return db, pg
}

// playShortByMail plays game (a short scenario) by mail to its end.
func playShortByMail(t *testing.T, diceSeed, playSeed string, game referee.NewGame) (*store.DB, *mailGameResult) {
	t.Helper()
	return playByMailFor(t, diceSeed, playSeed, 99, false, game)
}

// A short scenario (rule 15) played by mail to its end: the rules end
// the game on orders that came by mail, and the final report is their
// answer: the sender's is threaded to that mail and says it was accepted.
func TestE2EGameEndsByOrders(t *testing.T) {
	db, pg := playShortByMail(t, "attu e2e short scenario", "e2e end",
		referee.NewGame{ID: "hog", Name: "Hog's Back by mail", Scenario: "up-the-hogs-back"})
	log, err := db.Log(pg.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	var last store.LogEntry
	for _, e := range log {
		if e.Kind == store.KindOrders {
			last = e
		}
	}
	if n := len(log); n < 2 || log[n-2].Seq != last.Seq || last.MessageID == "" {
		t.Fatalf("the game did not end on orders that came by mail: the last orders are entry %d (%q) of %d", last.Seq, last.MessageID, n)
	}
	final := pg.Players[last.Side].received[len(pg.Players[last.Side].received)-1]
	if !strings.Contains(final.Subject, "the game is over") {
		t.Fatalf("the %s player's last mail is %q, not the final report", last.Side, final.Subject)
	}
	if strings.Trim(final.InReplyTo, "<>") != strings.Trim(last.MessageID, "<>") {
		t.Errorf("the %s final report is in reply to %q, not to the orders that ended the game (%s)", last.Side, final.InReplyTo, last.MessageID)
	}
	if !strings.Contains(final.Text, "Accepted: your ") || !strings.Contains(final.Text, "Your orders ended the game") {
		t.Errorf("the %s final report does not say its orders were accepted:\n%.1500s", last.Side, final.Text)
	}
}

// A solitaire game (rule 13) is played by mail from end to end: the U.S.
// by the scripted player, the Japanese by attu itself, which writes its
// orders into the log as order files. The game ends by the rules, the
// player gets the final report, and the export audits with every file
// the server wrote.
func TestE2ESolitaireByMail(t *testing.T) {
	db, pg := playShortByMail(t, "attu e2e solitaire", "e2e solo",
		referee.NewGame{ID: "solo", Name: "Solitaire by mail", Scenario: "up-the-hogs-back", Rules: []string{"solitaire"}})
	if _, ok := pg.Players[adjudicator.JP]; ok {
		t.Fatal("a player was mailed the Japanese side of a solitaire game")
	}
	us := pg.Players[adjudicator.US].received
	if len(us) == 0 || !strings.Contains(us[len(us)-1].Subject, "the game is over") {
		t.Fatalf("the U.S. player's last mail is not the final report (%d mails)", len(us))
	}
	log, err := db.Log(pg.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	mailed, written := 0, 0
	for _, e := range log {
		if e.Kind != store.KindOrders {
			continue
		}
		switch {
		case e.Side == adjudicator.US && e.MessageID != "":
			mailed++
		case e.Side == adjudicator.JP && e.MessageID == "":
			written++
		default:
			t.Errorf("entry %d: %s orders with Message-ID %q", e.Seq, e.Side, e.MessageID)
		}
	}
	if mailed == 0 || written == 0 {
		t.Fatalf("the log holds %d U.S. order files by mail and %d Japanese ones written by attu", mailed, written)
	}
	t.Logf("%d log entries: %d U.S. order files by mail, %d Japanese ones written by attu; %d mails to the U.S. player",
		len(log), mailed, written, len(us))
	x, err := db.Export(pg.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep := store.Audit(x, windsys.Rules{}); !rep.OK() {
		t.Fatalf("the solitaire game does not audit: %v", rep)
	}
}

// Orders mailed the way people's mail programs and servers shape them
// are read alike on both backends: a From with an encoded display name
// and a Subject folded over three lines (RFC 5322 section 2.2.3), an
// 8-bit UTF-8 body declared as such, written with bare LF line endings
// (SMTP turns them into CRLF on the way; Dovecot stores CRLF), and the
// orders in the body after a comment in German. Postfix adds Received
// and Dovecot's LMTP Return-Path and Delivered-To on top. The daemon
// applies the orders, answers the player with its acceptance, and the
// mail is moved out of its INBOX.
func TestE2EMailShapes(t *testing.T) {
	td := startTestDaemon(t, testMailSystem(t))
	c := td.newGame(t, "Shapes")
	welcome := td.waitInbox(t, "alice", 1, 30*time.Second)
	if !bytes.Contains(welcome[0], []byte("welcome: you play the U.S. side")) {
		t.Fatalf("alice's first mail is not her welcome:\n%.2000s", welcome[0])
	}
	game := td.gameAddress()
	raw := "From: =?utf-8?q?Alice_M=C3=BCller?=\n <" + td.acct["alice"].Address + ">\n" +
		"To: <" + game + ">\n" +
		"Subject: Re: [attu g1] welcome: you play the U.S. side, and a subject long\n enough that a mail program folds it\n\tover three lines\n" +
		"Message-ID: <shapes-1@attu.test>\n" +
		"Date: " + time.Now().Format(time.RFC1123Z) + "\n" +
		"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n" +
		"# Befehle für Zug 1 — eine Nacht ✓\n" +
		"game: g1\nside: us\nturn: 1\nwait: us-decision\ntoken: " + c.Tokens[adjudicator.US] + "\n" +
		"decision: {refit: false, night: true}\n"
	if err := sendRaw(context.Background(), td.sys, td.acct["alice"].Address, []string{game}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	ms := td.waitInbox(t, "alice", 2, 30*time.Second)
	reply, err := mail.Extract(bytes.NewReader(ms[1]), mail.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(reply.InReplyTo, "shapes-1@attu.test") || !strings.Contains(reply.Text, "Accepted: your U.S. orders for turn 1") {
		t.Errorf("alice's answer (in reply to %q):\n%.3000s", reply.InReplyTo, reply.Text)
	}
	log, err := td.db.Log("g1", 1)
	if err != nil {
		t.Fatal(err)
	}
	applied := false
	for _, e := range log {
		if e.Kind == store.KindOrders && strings.Contains(e.MessageID, "shapes-1@attu.test") {
			applied = len(e.Orders) > 0 && mustOrders(t, e.Entry).Decision != nil && mustOrders(t, e.Entry).Decision.Night
		}
	}
	if !applied {
		t.Errorf("the night decision of shapes-1 is not in the log")
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		left, err := fetchInbox(td.acct["attu"])
		if err != nil {
			t.Fatal(err)
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mails stay in attu's INBOX", len(left))
		}
	}
}

// The IMAP connection cut while the daemon waits in IDLE: it reconnects
// and applies orders mailed after the cut, once.
func TestE2EIMAPCut(t *testing.T) {
	td := startTestDaemon(t, testMailSystem(t))
	c := td.newGame(t, "Cut")
	td.waitInbox(t, "alice", 1, 30*time.Second)
	time.Sleep(300 * time.Millisecond) // the daemon is back in IDLE
	cutIMAP(t, td.sys)
	game := td.gameAddress()
	raw := "From: <" + td.acct["alice"].Address + ">\r\nTo: <" + game + ">\r\nSubject: orders\r\nMessage-ID: <cut-1@attu.test>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"game: g1\r\nside: us\r\nturn: 1\r\nwait: us-decision\r\ntoken: " + c.Tokens[adjudicator.US] + "\r\ndecision: {refit: false, night: false}\r\n"
	if err := sendRaw(context.Background(), td.sys, td.acct["alice"].Address, []string{game}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	ms := td.waitInbox(t, "alice", 2, 30*time.Second)
	if !bytes.Contains(ms[1], []byte("cut-1@attu.test")) {
		t.Errorf("alice's second mail does not answer the orders:\n%.2000s", ms[1])
	}
	time.Sleep(time.Second)
	log, err := td.db.Log("g1", 1)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range log {
		if e.Kind == store.KindOrders {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d orders entries in the log, want 1", n)
	}
	if ms := td.waitInbox(t, "alice", 2, time.Second); len(ms) != 2 {
		t.Errorf("alice has %d mails, want 2", len(ms))
	}
}

// ordersMail is a mail from user with the U.S. decision of turn 1 of game
// g1 in its body, under the Message-ID id.
func ordersMail(td *testDaemon, user, id, token string) []byte {
	game := td.gameAddress()
	return []byte("From: <" + td.acct[user].Address + ">\r\nTo: <" + game + ">\r\nSubject: orders\r\nMessage-ID: <" + id + ">\r\n" +
		"Date: " + time.Now().Format(time.RFC1123Z) + "\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"game: g1\r\nside: us\r\nturn: 1\r\nwait: us-decision\r\ntoken: " + token + "\r\ndecision: {refit: false, night: false}\r\n")
}

// settled waits until the daemon has sent every mail the store queued and
// its INBOX is empty (every mail handled and moved to the processed
// folder), then a little longer, for any mail that should not come.
func (td *testDaemon) settled(t *testing.T, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); ; time.Sleep(100 * time.Millisecond) {
		pending, err := td.db.Pending(time.Now().Add(time.Hour), 10)
		if err != nil {
			t.Fatal(err)
		}
		left, err := fetchInbox(td.acct["attu"])
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) == 0 && len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v %d mails wait to be sent and %d to be read", within, len(pending), len(left))
		}
	}
	time.Sleep(2 * time.Second)
}

// received reads a user's INBOX: how often each Message-ID came, and how
// many mails answer the mail with Message-ID inReplyTo.
func (td *testDaemon) received(t *testing.T, user, inReplyTo string) (ids map[string]int, answers int) {
	t.Helper()
	ms, err := fetchInbox(td.acct[user])
	if err != nil {
		t.Fatal(err)
	}
	ids = map[string]int{}
	for _, raw := range ms {
		m, err := mail.Extract(bytes.NewReader(raw), mail.Limits{})
		if err != nil {
			t.Fatalf("a mail to %s does not read: %v", user, err)
		}
		ids[strings.Trim(m.MessageID, "<>")]++
		if strings.Contains(m.InReplyTo, inReplyTo) {
			answers++
		}
	}
	return ids, answers
}

// receivedOnce requires that user got each of the mails ms addressed to
// it once, and no mail twice; ids are what received read.
func (td *testDaemon) receivedOnce(t *testing.T, user string, ids map[string]int, ms []store.Mail) {
	t.Helper()
	for _, m := range ms {
		for _, to := range m.To {
			if id := strings.Trim(m.MessageID, "<>"); mail.SameAddress(to, td.acct[user].Address) && ids[id] != 1 {
				t.Errorf("%s got %s %d times, want once", user, id, ids[id])
			}
		}
	}
	for id, n := range ids {
		if n != 1 {
			t.Errorf("%s got %s %d times", user, id, n)
		}
	}
}

// ordersApplied is the Message-IDs of the orders in game g1's log.
func (td *testDaemon) ordersApplied(t *testing.T) []string {
	t.Helper()
	log, err := td.db.Log("g1", 1)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range log {
		if e.Kind == store.KindOrders {
			ids = append(ids, e.MessageID)
		}
	}
	return ids
}

// One mail with orders delivered three times, as a provider does that
// lost the server's answer and sent again: twice at once, and once more
// after the first was answered. The orders are applied once, the player
// gets one answer, and every copy leaves the daemon's INBOX.
func TestE2EDuplicateDelivery(t *testing.T) {
	td := startTestDaemon(t, testMailSystem(t))
	c := td.newGame(t, "Twice")
	td.waitInbox(t, "alice", 1, 30*time.Second)
	raw := ordersMail(td, "alice", "twice-1@attu.test", c.Tokens[adjudicator.US])
	game := td.gameAddress()
	ctx := context.Background()
	for range 2 {
		if err := sendRaw(ctx, td.sys, td.acct["alice"].Address, []string{game}, raw); err != nil {
			t.Fatal(err)
		}
	}
	td.waitInbox(t, "alice", 2, 30*time.Second)
	if err := sendRaw(ctx, td.sys, td.acct["alice"].Address, []string{game}, raw); err != nil {
		t.Fatal(err)
	}
	td.settled(t, 30*time.Second)
	if got := td.ordersApplied(t); len(got) != 1 {
		t.Errorf("orders applied %d times (%v), want once", len(got), got)
	}
	ids, answers := td.received(t, "alice", "twice-1@attu.test")
	if answers != 1 {
		t.Errorf("alice got %d answers to her orders, want 1", answers)
	}
	for id, n := range ids {
		if n != 1 {
			t.Errorf("alice got %s %d times", id, n)
		}
	}
}

// The daemon stops in the middle of a game and starts again, on the same
// database, as "attu daemon" restarted by its service manager: orders
// and a command mailed while it was down are handled once it is back,
// even when it stops again right after its start; no mail the game
// queued is lost or sent twice, and the orders are applied once.
func TestE2EDaemonRestart(t *testing.T) {
	td := startTestDaemon(t, testMailSystem(t))
	c := td.newGame(t, "Restart")
	td.waitInbox(t, "alice", 1, 30*time.Second)
	td.waitInbox(t, "bob", 1, 30*time.Second)
	td.stop()

	// While the daemon is down: the U.S. decision, and a status command
	// from the Japanese player.
	game := td.gameAddress()
	ctx := context.Background()
	if err := sendRaw(ctx, td.sys, td.acct["alice"].Address, []string{game}, ordersMail(td, "alice", "restart-1@attu.test", c.Tokens[adjudicator.US])); err != nil {
		t.Fatal(err)
	}
	status := "From: <" + td.acct["bob"].Address + ">\r\nTo: <" + game + ">\r\nSubject: [attu g1] status\r\nMessage-ID: <restart-2@attu.test>\r\n\r\nstatus\r\n"
	if err := sendRaw(ctx, td.sys, td.acct["bob"].Address, []string{game}, []byte(status)); err != nil {
		t.Fatal(err)
	}
	// Started, stopped again while it reads its INBOX, started for good.
	td.start(t)
	time.Sleep(300 * time.Millisecond)
	td.stop()
	td.start(t)
	td.settled(t, 60*time.Second)

	if got := td.ordersApplied(t); len(got) != 1 || !strings.Contains(got[0], "restart-1@attu.test") {
		t.Errorf("orders applied: %v, want restart-1 once", got)
	}
	queued, err := td.db.Outbox("g1")
	if err != nil {
		t.Fatal(err)
	}
	for user, inReplyTo := range map[string]string{"alice": "restart-1@attu.test", "bob": "restart-2@attu.test"} {
		ids, answers := td.received(t, user, inReplyTo)
		if answers != 1 {
			t.Errorf("%s got %d answers to %s, want 1", user, answers, inReplyTo)
		}
		td.receivedOnce(t, user, ids, queued)
	}
}

// mustOrders returns the orders entry e records, nil for none.
func mustOrders(t testing.TB, e *store.Entry) *wind.Orders {
	t.Helper()
	o, err := windsys.EntryOrders(e.Orders)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
