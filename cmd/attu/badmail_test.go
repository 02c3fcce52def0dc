package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/mail/loopback"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// smtpSend hands raw to the SMTP server at addr as a mail client does,
// with the envelope sender from ("" for a bounce's null return path).
func smtpSend(addr, from string, to []string, raw []byte) error {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return err
	}
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	c := smtp.NewClient(conn)
	defer c.Close()
	if err := c.SendMail(from, to, bytes.NewReader(raw)); err != nil {
		return err
	}
	return c.Quit()
}

// mailText builds a mail: the header lines given (each "Key: value"),
// then the body; the lines end in CRLF.
func mailText(hdr []string, body string) []byte {
	var b strings.Builder
	for _, h := range hdr {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\n")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n"))
	return []byte(b.String())
}

// withOrders is a mail from "from" with a plain-text line and the file
// attached as orders.yaml.
func withOrders(hdr []string, file string) []byte {
	hdr = append(hdr, "MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="bnd"`)
	return mailText(hdr, "--bnd\nContent-Type: text/plain; charset=utf-8\n\nMy orders are attached.\n"+
		"--bnd\nContent-Type: application/yaml; charset=utf-8\nContent-Disposition: attachment; filename=\"orders.yaml\"\n\n"+
		file+"\n--bnd--\n")
}

// gameFingerprint is everything the store keeps about a game's play, as
// bytes: the game record (status, wait, deadline, head, the service's
// record), the export (log, orders, dice; its time of export left out)
// and the snapshot of the position in force. Only the ledger and the
// outbox may change when a bad mail is refused.
func gameFingerprint(t *testing.T, db *store.DB, id string) []byte {
	t.Helper()
	g, err := db.Game(id)
	if err != nil {
		t.Fatal(err)
	}
	x, err := db.Export(id, true)
	if err != nil {
		t.Fatal(err)
	}
	x.Exported = time.Time{}
	snap, err := db.Snapshot(id, g.Current)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, v := range []any{g, x, snap} {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// badMailGame is a loopback mail system, a database with game g1 (the
// historic setup, turn 1 played by mail) and the daemon running against
// them.
type badMailGame struct {
	sys     *loopback.System
	db      *store.DB
	d       *daemon
	addr    map[string]string
	tokens  map[adjudicator.Side]string
	game    string // g1's own address
	decided []byte // the U.S. decision applied by mail
	sent    int    // mails delivered to attu's INBOX so far
}

func startBadMailGame(t *testing.T, ctx context.Context, users []string) *badMailGame {
	t.Helper()
	sys, err := loopback.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Close() })
	g := &badMailGame{sys: sys, addr: map[string]string{}}
	for _, u := range append([]string{"attu", "alice", "bob", "carol"}, users...) {
		if g.addr[u], err = sys.AddUser(u, "pw-"+u); err != nil {
			t.Fatal(err)
		}
	}
	g.db, err = store.Open(filepath.Join(t.TempDir(), "attu.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.db.Close() })
	svc := referee.New(g.db, referee.Config{Address: g.addr["attu"]})
	g.d, err = newDaemon(svc, daemonConfig{Address: g.addr["attu"],
		IMAP:   mail.InboxConfig{Addr: sys.IMAPAddr(), Security: mail.Plain, Username: "attu", Password: "pw-attu", Timeout: 10 * time.Second},
		SMTP:   mail.SMTPConfig{Addr: sys.SMTPAddr(), Security: mail.Plain, Timeout: 10 * time.Second},
		Outbox: mail.OutboxConfig{Interval: 100 * time.Millisecond, RetryMin: 50 * time.Millisecond, RetryMax: 500 * time.Millisecond},
		Tick:   time.Second,
		Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Create(referee.NewGame{ID: "g1", Name: "Bad mail", Setup: "historic",
		US: g.addr["alice"], JP: g.addr["bob"], Umpire: g.addr["carol"], Seed: bytes.Repeat([]byte{7}, 32)}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	g.tokens = c.Tokens
	g.game = "attu+g1@" + sys.Domain()
	var wg sync.WaitGroup
	runCtx, stop := context.WithCancel(ctx)
	t.Cleanup(func() { stop(); wg.Wait() })
	wg.Add(1)
	go func() { defer wg.Done(); g.d.run(runCtx) }()

	// Turn 1's U.S. decision, by mail: the game is in progress.
	g.decided = []byte(fmt.Sprintf("game: g1\nside: us\nturn: 1\nwait: us-decision\ntoken: %s\ndecision: {refit: false, night: false}",
		g.tokens[adjudicator.US]))
	g.send(t, g.addr["alice"], withOrders(g.hdr("alice", "decided@attu.test", "[attu g1] orders"), string(g.decided)))
	g.settle(t, ctx)
	if gm, _ := g.db.Game("g1"); gm.Entries < 2 {
		t.Fatalf("the U.S. decision sent by mail was not applied: %+v", gm.Wait)
	}
	return g
}

// hdr is the usual header of a mail from user to the game.
func (g *badMailGame) hdr(user, id, subject string) []string {
	return []string{"From: <" + g.addr[user] + ">", "To: <" + g.game + ">", "Subject: " + subject,
		"Message-ID: <" + id + ">", "Date: " + time.Now().Format(time.RFC1123Z)}
}

// send delivers raw to attu's game address by SMTP, with the envelope
// sender from.
func (g *badMailGame) send(t *testing.T, from string, raw []byte) {
	t.Helper()
	g.sendTo(t, from, "", raw)
}

// sendTo delivers raw by SMTP to rcpt, a mailbox of attu's (the game's
// address when empty).
func (g *badMailGame) sendTo(t *testing.T, from, rcpt string, raw []byte) {
	t.Helper()
	if rcpt == "" {
		rcpt = g.game
	}
	if err := smtpSend(g.sys.SMTPAddr(), from, []string{rcpt}, raw); err != nil {
		t.Fatalf("sending by SMTP: %v", err)
	}
	g.sent++
}

// settle waits until the daemon has handled every mail sent and sent
// every mail the store queued.
func (g *badMailGame) settle(t *testing.T, ctx context.Context) {
	t.Helper()
	for {
		pending, err := g.db.Pending(time.Now().Add(time.Hour), 10)
		if err != nil {
			t.Fatal(err)
		}
		if int(g.d.inbox.Position().LastUID) >= g.sent && len(pending) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the daemon handled %d of %d mails, %d mails unsent", g.d.inbox.Position().LastUID, g.sent, len(pending))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// A corpus of bad mail, each sent by SMTP to the daemon of a game in
// progress: each gets its answer (checked by its words, to the right
// address) or deliberate silence, and afterwards the game is the same,
// byte for byte; only the ledger and the outbox grew.
func TestBadMail(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var users []string
	for i := 1; i <= 12; i++ {
		users = append(users, fmt.Sprintf("s%d", i))
	}
	g := startBadMailGame(t, ctx, users)
	a := g.addr
	us, jp := g.tokens[adjudicator.US], g.tokens[adjudicator.JP]
	orders := func(tok, rest string) string {
		return "game: g1\nside: us\nturn: 1\nwait: actions\ntoken: " + tok + "\n" + rest
	}
	html := func(hdr []string) []byte {
		return mailText(append(hdr, "MIME-Version: 1.0", "Content-Type: text/html; charset=utf-8"), "<p>game: g1</p>\n")
	}
	const generic = "attu did not accept your message"
	const notApplied = "your orders were not applied"

	var parts strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&parts, "--p\nContent-Type: text/plain\n\npart %d\n", i)
	}
	parts.WriteString("--p--\n")
	var nest strings.Builder
	for i := 1; i < 20; i++ {
		fmt.Fprintf(&nest, "--n%d\nContent-Type: multipart/mixed; boundary=\"n%d\"\n\n", i-1, i)
	}
	nest.WriteString("--n19\nContent-Type: text/plain\n\nhi\n")
	for i := 19; i >= 0; i-- {
		fmt.Fprintf(&nest, "--n%d--\n", i)
	}
	big := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("attu"), 10<<20/4))
	var bigLines strings.Builder
	for len(big) > 76 {
		bigLines.WriteString(big[:76] + "\n")
		big = big[76:]
	}
	bigLines.WriteString(big + "\n")
	bomb := "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	for i, p := 'b', 'a'; i <= 'j'; i, p = i+1, i {
		bomb += fmt.Sprintf("%c: &%c [*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c]\n", i, i, p, p, p, p, p, p, p, p, p)
	}

	type badMail struct {
		name     string
		from     string // envelope sender
		rcpt     string // envelope recipient; the game's address when empty
		raw      []byte
		replyTo  string   // the mailbox the one answer goes to; "" for silence
		words    []string // the answer must contain each
		notWords []string // and none of these
	}
	cases := []badMail{
		{name: "no token", from: a["alice"], replyTo: "alice", words: []string{generic},
			raw: withOrders(g.hdr("alice", "no-token@x.test", "orders"), "game: g1\nside: us\nturn: 1\nwait: actions\nactions: []")},
		{name: "wrong token", from: a["alice"], replyTo: "alice", words: []string{generic}, notWords: []string{"turn 1"},
			raw: withOrders(g.hdr("alice", "wrong-token@x.test", "orders"), orders("0000-not-the-token", "actions: []"))},
		{name: "the other side's token", from: a["alice"], replyTo: "alice", words: []string{generic},
			raw: withOrders(g.hdr("alice", "jp-token@x.test", "orders"), orders(jp, "actions: []"))},
		{name: "the other side's file from the U.S. player", from: a["alice"], replyTo: "alice", words: []string{generic},
			raw: withOrders(g.hdr("alice", "jp-side@x.test", "orders"), strings.Replace(orders(jp, "actions: []"), "side: us", "side: jp", 1))},
		// A stranger writes as the U.S. player without the token: the
		// registered address gets the answer that tells nothing.
		{name: "forged sender", from: a["s1"], replyTo: "alice", words: []string{generic},
			raw: withOrders(g.hdr("alice", "forged@x.test", "orders"), orders("guessed", "actions: []"))},
		{name: "a stranger's orders", from: a["s2"], replyTo: "s2", words: []string{generic},
			raw: withOrders(g.hdr("s2", "stranger@x.test", "orders"), orders(us, "actions: []"))},
		{name: "stale turn", from: a["alice"], replyTo: "alice", words: []string{notApplied, "decision"},
			raw: withOrders(g.hdr("alice", "stale@x.test", "[attu g1] orders"),
				strings.Replace(string(g.decided), "night: false", "night: true", 1))},
		{name: "unknown game", from: a["s3"], rcpt: "attu+nosuch@attu.test", replyTo: "s3", words: []string{generic}, notWords: []string{"g1"},
			raw: mailText([]string{"From: <" + a["s3"] + ">", "To: <attu+nosuch@attu.test>", "Subject: status", "Message-ID: <nosuch@x.test>"}, "status\n")},
		{name: "unknown game in the subject", from: a["alice"], rcpt: a["attu"], replyTo: "alice", words: []string{generic},
			raw: mailText([]string{"From: <" + a["alice"] + ">", "To: <" + a["attu"] + ">", "Subject: [attu nosuch] status", "Message-ID: <nosuch-subject@x.test>"}, "status\n")},
		{name: "HTML only", from: a["s4"], replyTo: "s4", words: []string{"plain text"},
			raw: html(g.hdr("s4", "html@x.test", "my orders"))},
		{name: "no YAML", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command"},
			raw: mailText(append(g.hdr("alice", "no-yaml@x.test", "[attu g1] hello"), "Content-Type: text/plain; charset=utf-8"), "Hello, here are my thoughts on the battle.\n")},
		{name: "YAML syntax error", from: a["alice"], replyTo: "alice", words: []string{notApplied, "line"},
			raw: withOrders(g.hdr("alice", "syntax@x.test", "orders"), orders(us, "actions: [unclosed\n  - {a: b\n"))},
		{name: "unknown field", from: a["alice"], replyTo: "alice", words: []string{notApplied, "bogus"},
			raw: withOrders(g.hdr("alice", "unknown-field@x.test", "orders"), orders(us, "actions: []\nbogus: 1"))},
		{name: "alias bomb", from: a["alice"], replyTo: "alice", words: []string{notApplied},
			raw: withOrders(g.hdr("alice", "bomb@x.test", "orders"), orders(us, bomb))},
		{name: "oversized", from: a["s5"], replyTo: "s5", words: []string{"Nothing in it was read"},
			raw: mailText(append(g.hdr("s5", "oversized@x.test", "orders"), "Content-Type: text/plain"), strings.Repeat("long line of text\n", 5<<20/18))},
		{name: "100 parts", from: a["s6"], replyTo: "s6", words: []string{"Nothing in it was read", "parts"},
			raw: mailText(append(g.hdr("s6", "parts@x.test", "orders"), "MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="p"`), parts.String())},
		{name: "deep MIME nesting", from: a["s7"], replyTo: "s7", words: []string{"Nothing in it was read", "levels deep"},
			raw: mailText(append(g.hdr("s7", "nesting@x.test", "orders"), "MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="n0"`), nest.String())},
		{name: "a 10 MB attachment", from: a["s8"], replyTo: "s8", words: []string{"Nothing in it was read"},
			raw: mailText(append(g.hdr("s8", "ten-mb@x.test", "orders"), "MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="bnd"`),
				"--bnd\nContent-Type: text/plain\n\nsee attached\n--bnd\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n"+
					"Content-Disposition: attachment; filename=\"orders.yaml\"\n\n"+bigLines.String()+"--bnd--\n")},
		// The orders' part cannot be decoded: skipped, so the mail
		// carries no orders.
		{name: "unknown transfer encoding", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command"},
			raw: mailText(append(g.hdr("alice", "encoding@x.test", "[attu g1] orders"), "MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="bnd"`),
				"--bnd\nContent-Type: text/plain\n\nattached\n--bnd\nContent-Type: application/yaml\nContent-Transfer-Encoding: x-uuencode-9\n"+
					"Content-Disposition: attachment; filename=\"orders.yaml\"\n\n"+orders(us, "actions: []")+"\n--bnd--\n")},
		{name: "unknown charset", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command"},
			raw: mailText(append(g.hdr("alice", "charset@x.test", "[attu g1] hi"), "MIME-Version: 1.0", "Content-Type: text/plain; charset=x-klingon"),
				"Qapla' \xff\xfe not text\n")},
		{name: "auto-submitted", from: a["alice"],
			raw: mailText(append(g.hdr("alice", "auto@x.test", "Out of office: [attu g1] report"), "Auto-Submitted: auto-replied"), "I am away.\n")},
		{name: "bounce", from: "",
			raw: mailText([]string{"From: Mail Delivery System <MAILER-DAEMON@attu.test>", "To: <" + g.game + ">", "Subject: Undelivered Mail Returned to Sender",
				"Message-ID: <bounce@x.test>", "Content-Type: text/plain"}, "This is the mail system. Your message could not be delivered.\n")},
		{name: "our own mail", from: a["attu"],
			raw: mailText([]string{"From: <" + g.game + ">", "To: <" + g.game + ">", "Subject: [attu g1] report", "Message-ID: <own@x.test>"}, "status\n")},
		{name: "mailing-list mail", from: a["s9"],
			raw: mailText(append(g.hdr("s9", "list@x.test", "[list] weekly digest"), "List-Id: <wargames.lists.test>", "Precedence: list"), "help\n")},
		{name: "bulk mail", from: a["s10"],
			raw: mailText(append(g.hdr("s10", "bulk@x.test", "Great offer"), "Precedence: bulk"), "status\n")},
		{name: "duplicate delivery", from: a["alice"],
			raw: withOrders(g.hdr("alice", "decided@attu.test", "[attu g1] orders"), string(g.decided))},
		{name: "replayed old orders", from: a["alice"], replyTo: "alice", words: []string{"already applied"},
			raw: withOrders(g.hdr("alice", "replayed@x.test", "[attu g1] orders"), string(g.decided))},
		{name: "orders in a quoted reply", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command"},
			raw: mailText(append(g.hdr("alice", "quoted@x.test", "Re: [attu g1] turn 1"), "Content-Type: text/plain; charset=utf-8"),
				"Thanks.\n\nOn Monday the game wrote:\n> "+strings.ReplaceAll(string(g.decided), "\n", "\n> ")+"\n")},
		{name: "an empty message", from: a["s11"], raw: nil},
		{name: "garbage", from: a["s12"], raw: []byte("\x00\x01\x02 not a mail at all \xff\r\n")},
		{name: "a command with a wrong token", from: a["alice"], replyTo: "alice", words: []string{generic},
			raw: mailText(append(g.hdr("alice", "cmd-token@x.test", "[attu g1] pause"), "Content-Type: text/plain"), "pause\ntoken: 1234-wrong\n")},
		{name: "orders for another game", from: a["alice"], replyTo: "alice", words: []string{notApplied, "g2"},
			raw: withOrders(g.hdr("alice", "other-game@x.test", "orders"), strings.Replace(orders(us, "actions: []"), "game: g1", "game: g2", 1))},
	}

	before := gameFingerprint(t, g.db, "g1")
	start := len(g.sys.Deliveries())
	for _, c := range cases {
		g.sendTo(t, c.from, c.rcpt, c.raw)
	}
	g.settle(t, ctx)
	time.Sleep(300 * time.Millisecond) // any late answer would show
	g.settle(t, ctx)
	var answers []loopback.Delivery
	for _, d := range g.sys.Deliveries()[start:] {
		if d.User != "attu" { // not the bad mail itself
			answers = append(answers, d)
		}
	}

	if after := gameFingerprint(t, g.db, "g1"); !bytes.Equal(before, after) {
		t.Errorf("the game changed:\nbefore %s\nafter  %s", before, after)
	}
	inReplyTo := regexp.MustCompile(`(?mi)^In-Reply-To: *<([^>]*)>`)
	used := map[int]bool{}
	for _, c := range cases {
		id := ""
		if m := regexp.MustCompile(`(?mi)^Message-ID: *<([^>]*)>`).FindSubmatch(c.raw); m != nil {
			id = string(m[1])
		}
		var got []int
		for i, d := range answers {
			if m := inReplyTo.FindSubmatch(d.Data); m != nil && id != "" && string(m[1]) == id {
				got = append(got, i)
			}
		}
		switch {
		case c.replyTo == "" && len(got) > 0:
			t.Errorf("%s: answered, want silence:\n%s", c.name, answers[got[0]].Data)
		case c.replyTo == "":
		case len(got) != 1:
			t.Errorf("%s: %d answers, want 1", c.name, len(got))
		default:
			d := answers[got[0]]
			used[got[0]] = true
			m, err := mail.Extract(bytes.NewReader(d.Data), nil)
			if err != nil {
				t.Fatalf("%s: the answer does not read: %v", c.name, err)
			}
			text := strings.Join(strings.Fields(m.Subject+"\n"+m.Text), " ")
			if d.User != c.replyTo {
				t.Errorf("%s: answered to %s, want %s", c.name, d.To, c.replyTo)
			}
			for _, w := range c.words {
				if !strings.Contains(text, w) {
					t.Errorf("%s: the answer lacks %q:\n%s", c.name, w, d.Data)
				}
			}
			for _, w := range c.notWords {
				if strings.Contains(text, w) {
					t.Errorf("%s: the answer says %q:\n%s", c.name, w, d.Data)
				}
			}
		}
	}
	for i, d := range answers {
		if !used[i] {
			t.Errorf("a mail nobody asked for, to %s:\n%.600s", d.To, d.Data)
		}
	}
	t.Logf("%d bad mails, %d answers, the game unchanged", len(cases), len(answers))
}

// testLog logs the daemon to the test when ATTU_MAIL_LOG is set (with
// -v), and nowhere otherwise.
func testLog(t *testing.T) *slog.Logger {
	if os.Getenv("ATTU_MAIL_LOG") == "" {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
