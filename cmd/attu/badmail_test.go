package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates"
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
	snap, err := windsys.State(db.PositionAt(id, g.Current))
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

// badMailGame is a mail system (the loopback servers, or Dovecot and
// Postfix; see testMailSystem), a database with game g1 (the historic
// setup, turn 1 played by mail) and the daemon running against them.
type badMailGame struct {
	sys     mailSystem
	db      *store.DB
	d       *daemon.Daemon
	addr    map[string]string
	acct    map[string]mailAccount
	box     map[string]string // the mailbox each user's mail lands in
	tokens  map[adjudicator.Side]string
	game    string // g1's own address
	decided []byte // the U.S. decision applied by mail
	base    uint32 // the last UID of attu's INBOX before the game
	sent    int    // mails delivered to attu's INBOX since
}

// startBadMailGame starts the game on the test's mail system. The users
// given are strangers: on the loopback servers each gets a mailbox of
// its own; Dovecot and Postfix know only attu, alice, bob and carol, so
// there a stranger is a sub-address of carol's, carol+s1@, whose mail
// lands in carol's INBOX (plus-addressing) and is told apart by its To.
// Each of opts may change the game service's configuration.
func startBadMailGame(t *testing.T, ctx context.Context, users []string, opts ...func(*referee.Config)) *badMailGame {
	t.Helper()
	return startBadMailGameWith(t, ctx, users, mail.AuthConfig{}, nil, opts...)
}

// startBadMailGameWith is startBadMailGame with the daemon authenticating
// senders as auth says; sign, when set, turns the mail of the U.S.
// decision into one that passes.
func startBadMailGameWith(t *testing.T, ctx context.Context, users []string, auth mail.AuthConfig, sign func([]byte) []byte, opts ...func(*referee.Config)) *badMailGame {
	t.Helper()
	sys := testMailSystem(t)
	g := &badMailGame{sys: sys, addr: map[string]string{}, acct: map[string]mailAccount{}, box: map[string]string{}}
	var err error
	for _, u := range []string{"attu", "alice", "bob", "carol"} {
		if g.acct[u], err = sys.Account(u); err != nil {
			t.Fatal(err)
		}
		g.addr[u], g.box[u] = g.acct[u].Address, u
	}
	for _, u := range users {
		if _, real := sys.(*realMail); real {
			g.addr[u], g.box[u] = strings.Replace(g.addr["carol"], "@", "+"+u+"@", 1), "carol"
			continue
		}
		if g.acct[u], err = sys.Account(u); err != nil {
			t.Fatal(err)
		}
		g.addr[u], g.box[u] = g.acct[u].Address, u
	}
	if g.base, err = lastUID(g.acct["attu"]); err != nil {
		t.Fatal(err)
	}
	g.db, err = store.Open(filepath.Join(t.TempDir(), "attu.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.db.Close() })
	// One logger for the service and the daemon, as attu serve has.
	lg := testLog(t)
	cfg := referee.Config{System: windsys.Rules{}, Address: g.addr["attu"], Logger: lg}
	for _, o := range opts {
		o(&cfg)
	}
	svc := referee.New(g.db, cfg)
	in := g.acct["attu"].IMAP
	in.Timeout = 10 * time.Second
	in.Failed = "attu-failed"
	out := g.acct["attu"].SMTP
	out.Timeout = 10 * time.Second
	g.d, err = newDaemon(svc, daemon.Config{Address: g.addr["attu"], IMAP: in, SMTP: out,
		Outbox: mail.OutboxConfig{Interval: 100 * time.Millisecond, RetryMin: 50 * time.Millisecond, RetryMax: 500 * time.Millisecond},
		Tick:   time.Second, Auth: auth,
		Logger: lg})
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Create(referee.NewGame{ID: "g1", Name: "Bad mail", Setup: "historic",
		US: g.addr["alice"], JP: g.addr["bob"], Umpire: g.addr["carol"], Seed: bytes.Repeat([]byte{7}, 32)}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	g.tokens = c.Tokens
	g.game = referee.GameAddress(g.addr["attu"], "g1")
	var wg sync.WaitGroup
	runCtx, stop := context.WithCancel(ctx)
	t.Cleanup(func() { stop(); wg.Wait() })
	wg.Add(1)
	go func() { defer wg.Done(); g.d.Run(runCtx) }()

	// Turn 1's U.S. decision, by mail: the game is in progress.
	g.decided = []byte(fmt.Sprintf("game: g1\nside: us\nturn: 1\nwait: us-decision\ntoken: %s\ndecision: {refit: false, night: false}",
		g.tokens[adjudicator.US]))
	decision := withOrders(g.hdr("alice", "decided@attu.test", "[attu g1] orders"), string(g.decided))
	if sign != nil {
		decision = sign(decision)
	}
	g.send(t, g.addr["alice"], decision)
	g.settle(t, ctx)
	if gm, _ := g.db.Game("g1"); gm.Entries < 2 {
		t.Fatalf("the U.S. decision sent by mail was not applied: %+v", gm.Wait)
	}
	return g
}

// lastUID is the UID of the last mail an account's INBOX ever held
// (UIDNEXT less one): 0 on a new loopback mailbox, more on Dovecot's,
// which are emptied between tests but count on.
func lastUID(acct mailAccount) (uint32, error) {
	c, err := dialAccount(acct)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	st, err := c.Status("INBOX", &imap.StatusOptions{UIDNext: true}).Wait()
	if err != nil {
		return 0, err
	}
	return uint32(st.UIDNext) - 1, c.Logout().Wait()
}

// delivery is a mail in a user's mailbox.
type delivery struct {
	User string // whose mail it is (by its To, when users share a mailbox)
	To   string
	Data []byte
}

// deliveries returns the mail in every mailbox of the game's users but
// attu's, read over IMAP, mailbox by mailbox in UID order, leaving out
// the first skip[box] mails of each; and how many each holds.
func (g *badMailGame) deliveries(t *testing.T, skip map[string]int) ([]delivery, map[string]int) {
	t.Helper()
	toHdr := regexp.MustCompile(`(?mi)^To: *(.*)$`)
	var out []delivery
	counts := map[string]int{}
	boxes := []string{"alice", "bob", "carol"}
	for i := 1; i <= 16; i++ {
		boxes = append(boxes, fmt.Sprintf("s%d", i))
	}
	for _, box := range boxes {
		acct, ok := g.acct[box]
		if !ok {
			continue
		}
		ms, err := fetchInbox(acct)
		if err != nil {
			t.Fatal(err)
		}
		counts[box] = len(ms)
		for _, m := range ms[min(skip[box], len(ms)):] {
			d := delivery{User: box, Data: m}
			if h := toHdr.FindSubmatch(m); h != nil {
				d.To = strings.TrimSpace(string(h[1]))
			}
			for u, a := range g.addr {
				if g.box[u] == box && u != box && strings.Contains(strings.ToLower(d.To), strings.ToLower(a)) {
					d.User = u
				}
			}
			out = append(out, d)
		}
	}
	return out, counts
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
	if err := sendRaw(context.Background(), g.sys, from, []string{rcpt}, raw); err != nil {
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
		if int(g.d.Position().LastUID)-int(g.base) >= g.sent && len(pending) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the daemon handled %d of %d mails, %d mails unsent", int(g.d.Position().LastUID)-int(g.base), g.sent, len(pending))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// A corpus of bad mail, each sent by SMTP to the daemon of a game in
// progress: each gets its answer (checked by its words, to the right
// address) or deliberate silence, and afterwards the game is the same,
// byte for byte; only the ledger and the outbox grew.
func TestE2EBadMail(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var users []string
	for i := 1; i <= 16; i++ {
		users = append(users, fmt.Sprintf("s%d", i))
	}
	// The corpus sends several mails without the token, or with a wrong
	// one, from alice's address: each is answered here (the limit on those
	// answers is TestE2EBadMailBudgets').
	g := startBadMailGame(t, ctx, users, func(c *referee.Config) { c.Answers, c.AllAnswers = 100, 1000 })
	a := g.addr
	us, jp := g.tokens[adjudicator.US], g.tokens[adjudicator.JP]
	fill := []string{"${us-token}", us, "${jp-token}", jp, "${date}", time.Now().Format(time.RFC1123Z)}
	for _, u := range users { // the strangers' own addresses, where they differ
		fill = append(fill, "<"+u+"@attu.test>", "<"+a[u]+">")
	}
	filler := strings.NewReplacer(fill...)
	const generic = "attu did not accept your message"
	const notApplied = "your orders were not applied"

	// Two mails too large to keep as files.
	big := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("attu"), 10<<20/4))
	var bigLines strings.Builder
	for len(big) > 76 {
		bigLines.WriteString(big[:76] + "\n")
		big = big[76:]
	}
	bigLines.WriteString(big + "\n")
	tenMB := mailText(append(g.hdr("s8", "ten-mb@x.test", "orders"), "MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="bnd"`),
		"--bnd\nContent-Type: text/plain\n\nsee attached\n--bnd\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n"+
			"Content-Disposition: attachment; filename=\"orders.yaml\"\n\n"+bigLines.String()+"--bnd--\n")
	oversized := mailText(append(g.hdr("s5", "oversized@x.test", "orders"), "Content-Type: text/plain"),
		strings.Repeat("long line of text\n", 5<<20/18))

	// Each mail is a file of ../../mail/testdata/badmail (the seeds of
	// the mail package's fuzz tests too), with the tokens filled in, or
	// raw; from and rcpt are the SMTP envelope's.
	type badMail struct {
		file     string
		raw      []byte
		from     string
		rcpt     string   // the game's address when empty
		replyTo  string   // the mailbox the one answer goes to; "" for silence
		words    []string // the answer must contain each
		notWords []string // and none of these
		// byUser finds the answer by its recipient, for a mail whose
		// Message-ID is too long to be quoted in In-Reply-To, or lost.
		byUser  bool
		outcome string // the ledger's outcome for the mail, when set
		// strangerOfAlice marks the mails whose stranger's answer goes to
		// alice: she gets one an hour, to whichever of them is handled
		// first (the servers may deliver them in any order).
		strangerOfAlice bool
	}
	cases := []badMail{
		// From a player's registered address, the answer says which
		// check failed and where the token is: only that address reads it.
		{file: "no-token.eml", from: a["alice"], replyTo: "alice", words: []string{"carries no token", "WHERE YOUR TOKEN IS"}},
		{file: "wrong-token.eml", from: a["alice"], replyTo: "alice", words: []string{"is not your side's token"}, notWords: []string{"turn 1"}},
		{file: "other-sides-token.eml", from: a["alice"], replyTo: "alice", words: []string{"is the Japanese side's, not yours"}},
		{file: "other-sides-file.eml", from: a["alice"], replyTo: "alice", words: []string{"is for the Japanese side"}},
		// A stranger writes as the U.S. player with a guessed token: the
		// registered address gets the answer, not the stranger.
		{file: "forged-sender.eml", from: a["s1"], replyTo: "alice", words: []string{"is not your side's token"}},
		{file: "stranger-orders.eml", from: a["s2"], replyTo: "s2", words: []string{generic}},
		{file: "stale-turn.eml", from: a["alice"], replyTo: "alice", words: []string{notApplied, "decision"}},
		{file: "unknown-game.eml", from: a["s3"], rcpt: "attu+nosuch@attu.test", replyTo: "s3", words: []string{generic}, notWords: []string{"g1"}},
		{file: "unknown-game-subject.eml", from: a["alice"], rcpt: a["attu"], replyTo: "alice", words: []string{generic}, strangerOfAlice: true},
		{file: "html-only.eml", from: a["s4"], replyTo: "s4", words: []string{"plain text"}},
		{file: "no-yaml.eml", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command"}},
		{file: "yaml-syntax-error.eml", from: a["alice"], replyTo: "alice", words: []string{notApplied, "line"}},
		{file: "unknown-field.eml", from: a["alice"], replyTo: "alice", words: []string{notApplied, "bogus"}},
		{file: "alias-bomb.eml", from: a["alice"], replyTo: "alice", words: []string{notApplied}},
		{file: "oversized", raw: oversized, from: a["s5"], replyTo: "s5", words: []string{"Nothing in it was read", "larger than 4 MiB"}},
		{file: "100-parts.eml", from: a["s6"], replyTo: "s6", words: []string{"Nothing in it was read", "parts"}},
		{file: "deep-nesting.eml", from: a["s7"], replyTo: "s7", words: []string{"Nothing in it was read", "levels deep"}},
		{file: "a 10 MB attachment", raw: tenMB, from: a["s8"], replyTo: "s8", words: []string{"Nothing in it was read", "larger than 4 MiB"}},
		// The orders' part cannot be decoded: skipped, so the mail
		// carries no orders. It carries no token either, so the answer
		// names the part by its number alone, as below.
		{file: "unknown-transfer-encoding.eml", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command",
			`Part 2 could not be decoded`, "Attach the .yaml file itself"}},
		{file: "unknown-charset.eml", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command"}},
		{file: "auto-submitted.eml", from: a["alice"]},
		{file: "bounce.eml", from: ""},
		{file: "own-mail.eml", from: a["attu"]},
		{file: "mailing-list.eml", from: a["s9"]},
		{file: "bulk.eml", from: a["s10"]},
		// The mail that played turn 1's decision, delivered again.
		{file: "duplicate-delivery.eml", from: a["alice"]},
		{file: "replayed-orders.eml", from: a["alice"], replyTo: "alice", words: []string{"already applied"}},
		{file: "quoted-reply.eml", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command"}},
		{file: "empty.eml", from: a["s11"]},
		{file: "garbage.eml", from: a["s12"]},
		{file: "command-wrong-token.eml", from: a["alice"], replyTo: "alice", words: []string{"The token in the command pause is not your side's token"}},
		{file: "other-game.eml", from: a["alice"], replyTo: "alice", words: []string{notApplied, "g2"}},
		// The U.S. player's address and token, with valid orders, but a
		// second author: a stranger's mail, recorded in the ledger. Its
		// answer would go to the first author, alice, who gets one
		// stranger's answer an hour among these and unknown-game-subject.eml.
		{file: "two-from-fields.eml", from: a["alice"], replyTo: "alice", words: []string{generic}, strangerOfAlice: true,
			outcome: "refused: sender not authenticated"},
		{file: "two-authors-sender.eml", from: a["s14"], replyTo: "alice", words: []string{generic}, strangerOfAlice: true,
			outcome: "refused: sender not authenticated"},
		// Bare CR line ends read as lines: a stranger's command, answered.
		// (Postfix turns bare CRs into spaces: there the mail arrives as
		// one From line of several addresses, with no Message-ID, and its
		// first author gets a stranger's answer all the same.)
		{file: "bare-cr.eml", from: a["s15"], replyTo: "s15", words: []string{generic}, byUser: true, outcome: "refused: sender plays no side"},
		// A From field that names no one mailbox: an address after a
		// comment is a second one (from-long-s.eml is
		// TestE2EBadMailLongS'). The comment inside the angle brackets and
		// CR CR LF line ends (a CRLF converted once too often) are read,
		// and the help is answered.
		{file: "from-trailing-address.eml", from: a["alice"], replyTo: "alice", words: []string{generic}, strangerOfAlice: true,
			outcome: "refused: sender not authenticated"},
		{file: "from-comment-in-brackets.eml", from: a["alice"], replyTo: "alice", words: []string{"attu game g1: help"}},
		{file: "cr-cr-lf.eml", from: a["alice"], replyTo: "alice", words: []string{"attu game g1: help"}},
		// A 40 KiB Message-ID: recorded (a bbolt key holds 32 KiB) and
		// answered, without quoting it.
		{file: "long-message-id.eml", from: a["s16"], replyTo: "s16", words: []string{generic}, byUser: true,
			outcome: "refused: sender plays no side"},
	}
	if testing.Short() {
		// The race run: the two mails of megabytes take minutes there
		// (the limits' path is taken by the parts and the nesting).
		cases = slices.DeleteFunc(cases, func(c badMail) bool { return c.raw != nil })
	}
	// Parts attu does not read, each named in the answer (by number: the
	// mails carry no token) with what to send instead; and files of
	// thousands of mistakes, made here rather than kept (they would weigh
	// on the fuzz tests' seeds), each refused in a few kilobytes: the one
	// that is not even YAML, and so shows no token, quoting none of it.
	cases = append(cases,
		badMail{file: "zipped-orders.eml", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command",
			`Part 2 is a compressed file`, "Attach the .yaml file itself"}},
		badMail{file: "encrypted-orders.eml", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command",
			`is encrypted`, "Send the orders unencrypted"}},
		badMail{file: "text-attachment.eml", from: a["alice"], replyTo: "alice", words: []string{"found no orders and no command",
			`Part 2 is not a .yaml file`, "Attach the .yaml file itself"}},
		badMail{file: "a tab-bomb", raw: withOrders(g.hdr("alice", "tab-bomb@x.test", "[attu g1] orders"), tabBomb()),
			from: a["alice"], replyTo: "alice", words: []string{notApplied, "the first mistake is at line 1, column 1"}},
		badMail{file: "20,000 unknown keys", raw: withOrders(g.hdr("alice", "many-keys@x.test", "[attu g1] orders"), manyKeys(us)),
			from: a["alice"], replyTo: "alice", words: []string{notApplied, "unknown field", "and 80 more"}},
	)
	for i, c := range cases {
		if c.raw != nil {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("../../mail/testdata/badmail", c.file))
		if err != nil {
			t.Fatal(err)
		}
		cases[i].raw = []byte(filler.Replace(string(raw)))
	}

	before := gameFingerprint(t, g.db, "g1")
	_, start := g.deliveries(t, nil)
	for _, c := range cases {
		g.sendTo(t, c.from, c.rcpt, c.raw)
	}
	g.settle(t, ctx)
	time.Sleep(300 * time.Millisecond) // any late answer would show
	g.settle(t, ctx)
	answers, _ := g.deliveries(t, start) // not the bad mail itself: attu's INBOX is not read

	if after := gameFingerprint(t, g.db, "g1"); !bytes.Equal(before, after) {
		t.Errorf("the game changed:\nbefore %s\nafter  %s", before, after)
	}
	inReplyTo := regexp.MustCompile(`(?mi)^In-Reply-To: *<([^>]*)>`)
	used := map[int]bool{}
	var alices []int // the answers to the mails marked strangerOfAlice
	for _, c := range cases {
		id := ""
		if m := regexp.MustCompile(`(?mi)^Message-ID: *<([^>]*)>`).FindSubmatch(mail.NormalizeLineEnds(c.raw)); m != nil {
			id = string(m[1])
		}
		var got []int
		for i, d := range answers {
			m := inReplyTo.FindSubmatch(d.Data)
			if m != nil && id != "" && string(m[1]) == id ||
				c.byUser && d.User == c.replyTo && (m == nil || bytes.HasSuffix(m[1], []byte("@no-message-id.attu"))) {
				got = append(got, i)
			}
		}
		if _, real := g.sys.(*realMail); real && c.file == "bare-cr.eml" {
			c.outcome = ""
		}
		if c.outcome != "" {
			msg, err := mail.Extract(bytes.NewReader(c.raw), mail.Limits{})
			if err != nil {
				t.Fatalf("%s: %v", c.file, err)
			}
			r, ok, err := g.db.Processed(store.MailRef{MessageID: msg.MessageID})
			if err != nil || !ok || r.Outcome != c.outcome {
				t.Errorf("%s: in the ledger %v as %q (%v), want %q", c.file, ok, r.Outcome, err, c.outcome)
			}
		}
		if c.strangerOfAlice {
			alices = append(alices, got...)
			continue
		}
		switch {
		case c.replyTo == "" && len(got) > 0:
			t.Errorf("%s: answered, want silence:\n%s", c.file, answers[got[0]].Data)
		case c.replyTo == "":
		case len(got) != 1:
			t.Errorf("%s: %d answers, want 1", c.file, len(got))
		default:
			d := answers[got[0]]
			used[got[0]] = true
			m, err := mail.Extract(bytes.NewReader(d.Data), mail.Limits{})
			if err != nil {
				t.Fatalf("%s: the answer does not read: %v", c.file, err)
			}
			text := strings.Join(strings.Fields(m.Subject+"\n"+m.Text), " ")
			if d.User != c.replyTo {
				t.Errorf("%s: answered to %s, want %s", c.file, d.To, c.replyTo)
			}
			for _, w := range c.words {
				if !strings.Contains(text, w) {
					t.Errorf("%s: the answer lacks %q:\n%s", c.file, w, d.Data)
				}
			}
			for _, w := range c.notWords {
				if strings.Contains(text, w) {
					t.Errorf("%s: the answer says %q:\n%s", c.file, w, d.Data)
				}
			}
		}
	}
	if len(alices) != 1 {
		t.Errorf("alice got %d stranger's answers, want 1 an hour", len(alices))
	}
	for _, i := range alices {
		used[i] = true
		d := answers[i]
		m, err := mail.Extract(bytes.NewReader(d.Data), mail.Limits{})
		if err != nil || d.User != "alice" || !strings.Contains(strings.Join(strings.Fields(m.Text), " "), generic) {
			t.Errorf("the stranger's answer to alice went to %s, or lacks %q (%v):\n%s", d.To, generic, err, d.Data)
		}
	}
	for i, d := range answers {
		if !used[i] {
			t.Errorf("a mail nobody asked for, to %s:\n%.600s", d.To, d.Data)
		}
		head, _, _ := bytes.Cut(d.Data, []byte("\r\n\r\n"))
		for _, l := range bytes.Split(head, []byte("\r\n")) {
			if len(l) > 998 { // RFC 5322 section 2.1.1
				t.Errorf("an answer to %s has a header line of %d octets: %.100s", d.To, len(l), l)
			}
		}
	}
	// Every answer within its budget, however much the mail held.
	for _, d := range answers {
		checkReplyBudget(t, d)
	}
	t.Logf("%d bad mails, %d answers, the game unchanged", len(cases), len(answers))
}

// The U.S. player's orders and token from alice@attu.teſt (U+017F, long
// s), which Unicode case folding takes for alice@attu.test: a stranger's
// mail, and the game is the same, byte for byte. Its answer cannot be
// delivered (the in-process server takes no other domain; Postfix
// bounces it), so the test waits for the ledger rather than the outbox.
func TestE2EBadMailLongS(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g := startBadMailGame(t, ctx, nil)
	raw, err := os.ReadFile("../../mail/testdata/badmail/from-long-s.eml")
	if err != nil {
		t.Fatal(err)
	}
	raw = []byte(strings.NewReplacer("${us-token}", g.tokens[adjudicator.US], "${date}", time.Now().Format(time.RFC1123Z)).Replace(string(raw)))
	before := gameFingerprint(t, g.db, "g1")
	_, start := g.deliveries(t, nil)
	g.send(t, g.addr["alice"], raw)
	for int(g.d.Position().LastUID)-int(g.base) < g.sent {
		select {
		case <-ctx.Done():
			t.Fatal("the mail was not handled")
		case <-time.After(20 * time.Millisecond):
		}
	}
	if after := gameFingerprint(t, g.db, "g1"); !bytes.Equal(before, after) {
		t.Errorf("the game changed:\nbefore %s\nafter  %s", before, after)
	}
	r, ok, err := g.db.Processed(store.MailRef{MessageID: "from-long-s@x.test"})
	if err != nil || !ok || r.Outcome != "refused: sender plays no side" {
		t.Errorf("in the ledger %v as %q (%v), want a stranger's", ok, r.Outcome, err)
	}
	time.Sleep(300 * time.Millisecond) // any answer to alice would show
	if answers, _ := g.deliveries(t, start); len(answers) > 0 {
		t.Errorf("%d answers, the first to %s:\n%.600s", len(answers), answers[0].To, answers[0].Data)
	}
}

// With authentication required (mx.attu.test trusted, DKIM checked
// here), through the real daemon: the U.S. player's address and token on
// valid orders, under Authentication-Results crafted as a sender could
// have the trusted server write them (a quoted MAIL FROM, a HELO name in
// a comment, a DMARC pass that names no domain, a field of version 2 or
// one that does not parse above a forged one, a pass of another server
// above the real fail, a signature of a longer domain), are a
// stranger's: the game is the same, byte for byte. Then a DKIM pass of a
// subdomain (relaxed alignment, RFC 7489 section 3.1.1) plays the
// orders, and a field with a comment after its authserv-id and a mail
// signed by the subdomain are the player's: each status command gets the
// game's status, not a stranger's answer.
func TestE2EBadMailAuth(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sys := testMailSystem(t)
	alice, err := sys.Account("alice")
	if err != nil {
		t.Fatal(err)
	}
	_, domain, _ := strings.Cut(alice.Address, "@")
	key, sub := newDKIMKey(t, domain), newDKIMKey(t, "mail."+domain)
	lookup := func(name string) ([]string, error) {
		if strings.HasSuffix(strings.ToLower(name), "._domainkey.mail."+domain) {
			return sub.lookup(name)
		}
		return key.lookup(name)
	}
	auth := mail.AuthConfig{Required: true, AuthServIDs: []string{"mx.attu.test"}, DKIM: true, LookupTXT: lookup}
	g := startBadMailGameWith(t, ctx, nil, auth, func(raw []byte) []byte { return key.sign(t, raw) })
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("../../mail/testdata/badmail", name))
		if err != nil {
			t.Fatal(err)
		}
		return []byte(strings.NewReplacer("${us-token}", g.tokens[adjudicator.US], "${date}", time.Now().Format(time.RFC1123Z),
			"<alice@attu.test>", "<"+g.addr["alice"]+">").Replace(string(b)))
	}
	processed := func(name string) store.Receipt {
		t.Helper()
		m, err := mail.Extract(bytes.NewReader(read(name)), mail.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		r, ok, err := g.db.Processed(store.MailRef{MessageID: m.MessageID})
		if err != nil || !ok {
			t.Fatalf("%s: not in the ledger (%v)", name, err)
		}
		return r
	}
	refused := []string{"ar-quoted-mailfrom.eml", "ar-helo-comment.eml", "ar-dmarc-no-header-from.eml", "ar-version-2.eml",
		"ar-unparsable-forged-below.eml", "ar-field-above.eml", "ar-dkim-longer-domain.eml"}
	before := gameFingerprint(t, g.db, "g1")
	_, start := g.deliveries(t, nil)
	for _, f := range refused {
		g.send(t, g.addr["alice"], read(f))
	}
	g.settle(t, ctx)
	if after := gameFingerprint(t, g.db, "g1"); !bytes.Equal(before, after) {
		t.Errorf("a crafted Authentication-Results field changed the game:\nbefore %s\nafter  %s", before, after)
	}
	for _, f := range refused {
		if r := processed(f); r.Outcome != "refused: sender not authenticated" {
			t.Errorf("%s: in the ledger as %q, want a stranger's", f, r.Outcome)
		}
	}

	g.send(t, g.addr["alice"], read("ar-dkim-subdomain.eml"))
	g.send(t, g.addr["alice"], read("ar-comment-authserv.eml"))
	signed := sub.sign(t, mailText(g.hdr("alice", "signed-by-subdomain@x.test", "[attu g1] status"), "status\n"))
	g.send(t, g.addr["alice"], signed)
	g.settle(t, ctx)
	if r := processed("ar-dkim-subdomain.eml"); r.Outcome != "accepted" || r.Entry == 0 {
		t.Errorf("the orders vouched for by a subdomain's signature: in the ledger as %+v", r)
	}
	time.Sleep(300 * time.Millisecond) // any late answer would show
	g.settle(t, ctx)
	answers, _ := g.deliveries(t, start)
	inReplyTo := regexp.MustCompile(`(?mi)^In-Reply-To: *<([^>]*)>`)
	byID := map[string][]delivery{}
	for _, d := range answers {
		if m := inReplyTo.FindSubmatch(d.Data); m != nil {
			byID[string(m[1])] = append(byID[string(m[1])], d)
		}
	}
	for _, id := range []string{"ar-comment-authserv@x.test", "signed-by-subdomain@x.test"} {
		ds := byID[id]
		if len(ds) != 1 || ds[0].User != "alice" || !bytes.Contains(ds[0].Data, []byte("Waiting:")) {
			t.Errorf("%s: %d answers, want alice's status:\n%s", id, len(ds), ds)
		}
	}
	strangers := 0
	for _, f := range refused {
		for _, d := range byID[strings.TrimSuffix(f, ".eml")+"@x.test"] {
			strangers++
			if d.User != "alice" || !bytes.Contains(d.Data, []byte("attu did not accept your message")) {
				t.Errorf("%s: answered to %s, not with a stranger's answer:\n%.800s", f, d.To, d.Data)
			}
		}
	}
	if strangers > 1 {
		t.Errorf("%d stranger's answers to alice, want at most one an hour", strangers)
	}
}

// testLog is the daemon's logger (newLogger) for a test: every line
// must stay under maxTestLogLine bytes, whatever the mails handled; the
// lines go to the test when ATTU_MAIL_LOG is set (with -v, at the debug
// level), and nowhere otherwise.
func testLog(t *testing.T) *slog.Logger {
	w := boundedWriter{t: t, show: os.Getenv("ATTU_MAIL_LOG") != ""}
	level := slog.LevelInfo
	if w.show {
		level = slog.LevelDebug
	}
	return newLogger(w, level)
}

// maxTestLogLine bounds a log line: a dozen values of maxLogValue bytes.
const maxTestLogLine = 12 * maxLogValue

// boundedWriter fails the test on a log line longer than maxTestLogLine.
type boundedWriter struct {
	t    *testing.T
	show bool
}

func (w boundedWriter) Write(p []byte) (int, error) {
	line := strings.TrimRight(string(p), "\n")
	if len(line) > maxTestLogLine {
		w.t.Errorf("a log line of %d bytes: %.300s", len(line), line)
	}
	if w.show {
		w.t.Log(line)
	}
	return len(p), nil
}

// tabBomb is an orders "file" of 230 KB of tab-indented lines (with the
// mail's CRLF, just under the limit of an orders file): some 23,000
// mistakes.
func tabBomb() string {
	var b strings.Builder
	for b.Len() < 230<<10 {
		b.WriteString("\tside: us\n")
	}
	return b.String()
}

// manyKeys is the U.S. orders file with token, then 20,000 keys no
// orders file has.
func manyKeys(token string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "game: g1\nside: us\nturn: 1\nwait: actions\ntoken: %s\nactions: []\n", token)
	for i := range 20000 {
		fmt.Fprintf(&b, "k%d: 1\n", i)
	}
	return b.String()
}

// checkReplyBudget fails the test when an answer that is not a report
// weighs more than templates.MaxReply, its header and MIME parts aside.
func checkReplyBudget(t *testing.T, d delivery) {
	t.Helper()
	m, err := mail.Extract(bytes.NewReader(d.Data), mail.Limits{})
	if err != nil {
		t.Errorf("an answer to %s does not read: %v", d.To, err)
		return
	}
	if len(m.Text) > templates.MaxReply || len(d.Data) > templates.MaxReply+16<<10 {
		t.Errorf("an answer to %s weighs %d bytes, its text %d: over the budget of %d", d.To, len(d.Data), len(m.Text), templates.MaxReply)
	}
}

// What a stream of mail can make attu send is bounded: 100 strangers
// writing from ever new addresses get DefaultStrangers answers between
// them; 100 log commands without a token from a player's address get
// DefaultAnswers answers and no note, and leave no entry in the game's
// log; 10 mails with a wrong token from the other player's address get
// DefaultAnswers answers. The game is the same, byte for byte, and every
// answer within its budget.
func TestE2EBadMailBudgets(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	g := startBadMailGame(t, ctx, nil)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("../../mail/testdata/badmail", name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(b), "${date}", time.Now().Format(time.RFC1123Z))
	}
	stranger, logCmd, wrong := read("rotating-stranger.eml"), read("log-no-token.eml"), read("command-wrong-token.eml")
	before := gameFingerprint(t, g.db, "g1")
	_, start := g.deliveries(t, nil)
	for i := range 100 {
		from := strings.Replace(g.addr["carol"], "@", fmt.Sprintf("+r%d@", i), 1)
		g.send(t, from, []byte(strings.ReplaceAll(stranger, "${stranger}", from)))
	}
	for i := range 100 {
		raw := strings.NewReplacer("<alice@attu.test>", "<"+g.addr["alice"]+">", "log-N@", fmt.Sprintf("log-%d@", i)).Replace(logCmd)
		g.send(t, g.addr["alice"], []byte(raw))
	}
	for i := range 10 {
		raw := strings.NewReplacer("<alice@attu.test>", "<"+g.addr["bob"]+">", "cmd-token@", fmt.Sprintf("cmd-token-%d@", i)).Replace(wrong)
		g.send(t, g.addr["bob"], []byte(raw))
	}
	g.settle(t, ctx)
	time.Sleep(300 * time.Millisecond) // any late answer would show
	g.settle(t, ctx)
	answers, _ := g.deliveries(t, start)

	if after := gameFingerprint(t, g.db, "g1"); !bytes.Equal(before, after) {
		t.Errorf("the game changed:\nbefore %s\nafter  %s", before, after)
	}
	count := map[string]int{}
	for _, d := range answers {
		checkReplyBudget(t, d)
		text := string(d.Data)
		switch {
		case strings.Contains(d.To, "+r"):
			count["strangers"]++
		case d.User == "alice" && strings.Contains(text, "The record of attu game g1"):
			count["log"]++
		case d.User == "bob" && strings.Contains(text, "wrong token"):
			count["wrong token"]++
		default:
			t.Errorf("an answer nobody asked for, to %s:\n%.600s", d.To, d.Data)
		}
	}
	want := map[string]int{"strangers": referee.DefaultStrangers, "log": referee.DefaultAnswers, "wrong token": referee.DefaultAnswers}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%s: %d answers, want %d", k, count[k], n)
		}
	}
	t.Logf("210 mails, %d answers: %v", len(answers), count)
}
