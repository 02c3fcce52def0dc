package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/mail/loopback"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// killServeEnv names the configuration file the child process of
// TestE2EDaemonKill serves: the test binary then runs "attu serve -config"
// instead of the tests.
const killServeEnv = "ATTU_KILL_SERVE_CONFIG"

// killSeedEnv replays a failing TestE2EDaemonKill: set it to the seed the
// test logged.
const killSeedEnv = "ATTU_KILL_SEED"

// TestMain runs attu serve when TestE2EDaemonKill starts this test binary
// with killServeEnv set, and the tests otherwise. The daemon also ends
// when its stdin closes, that is when the test process ends, should the
// test fail before it could stop it.
func TestMain(m *testing.M) {
	if os.Getenv("ATTU_RSS_CHILD") != "" {
		os.Exit(rssChild()) // BenchmarkDaemonMemory's daemon
	}
	if path := os.Getenv(killServeEnv); path != "" {
		go func() {
			io.Copy(io.Discard, os.Stdin)
			os.Exit(5)
		}()
		os.Exit(run([]string{"serve", "-config", path}, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// templatePlayer plays a side by mail as a person with a mail program
// would, knowing nothing but its mailbox and its token: it reads its mail
// over IMAP, and answers each report that carries an order template by
// sending the template back, token filled in, by SMTP. The template as
// it stands orders nothing and is accepted, so the game moves on. A mail
// received again under the same Message-ID is counted and ignored, as a
// receiving mail system deduplicates.
type templatePlayer struct {
	side  string
	addr  string
	token string
	smtp  string
	// maxFiles is how many order files the player sends in all.
	maxFiles int
	inbox    *mail.Inbox
	// send hands a mail to the mail system: smtpSend to smtp unless a
	// test delivers some other way.
	send func(from string, to []string, raw []byte) error

	mu       sync.Mutex
	stopped  bool
	held     *mail.Message   // the last template not answered while stopped
	seen     map[string]int  // Message-ID of each mail received, and how often
	answered map[string]bool // turn-wait
	sent     []string        // Message-IDs of the order files sent
	reports  []string        // subjects, in order
}

func newTemplatePlayer(t *testing.T, sys *loopback.System, user, side, token string, maxFiles int) *templatePlayer {
	t.Helper()
	acct := mailAccount{Address: user + "@" + sys.Domain(),
		IMAP: mail.InboxConfig{Addr: sys.IMAPAddr(), Security: mail.Plain, Username: user, Password: "pw-" + user}}
	return newAccountPlayer(t, acct, sys.SMTPAddr(), side, token, maxFiles)
}

// newAccountPlayer is a template player reading acct's mailbox and
// sending to the SMTP server inbound, as through its own provider.
func newAccountPlayer(t *testing.T, acct mailAccount, inbound, side, token string, maxFiles int) *templatePlayer {
	t.Helper()
	p := &templatePlayer{side: side, addr: acct.Address, token: token, smtp: inbound, maxFiles: maxFiles,
		seen: map[string]int{}, answered: map[string]bool{}}
	in := acct.IMAP
	in.Timeout, in.RetryMin, in.RetryMax, in.Logger = 10*time.Second, 50*time.Millisecond, 500*time.Millisecond, testLog(t)
	var err error
	p.inbox, err = mail.NewInbox(in, p.handle)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// stop makes the player send nothing more.
func (p *templatePlayer) stop() {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
}

func (p *templatePlayer) handle(ctx context.Context, in *mail.Incoming) error {
	raw, err := in.Fetch(ctx)
	if err != nil {
		return err
	}
	msg, err := mail.Extract(bytes.NewReader(raw), mail.Limits{})
	if err != nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen[msg.MessageID] > 0 {
		p.seen[msg.MessageID]++
		return nil
	}
	if err := p.answer(msg); err != nil {
		return err
	}
	p.seen[msg.MessageID]++
	p.reports = append(p.reports, msg.Subject)
	return nil
}

// answer sends the template msg carries back, unless the player is
// stopped or has sent its files: it keeps the mail then, for resume.
// The caller holds p.mu.
func (p *templatePlayer) answer(msg *mail.Message) error {
	tmpl := templateIn(msg)
	if tmpl == nil {
		return nil
	}
	var env struct {
		Side string `yaml:"side"`
		Turn int    `yaml:"turn"`
		Wait string `yaml:"wait"`
	}
	if err := yaml.Unmarshal(tmpl, &env); err != nil || env.Side != p.side {
		return nil
	}
	key := fmt.Sprintf("%d-%s", env.Turn, env.Wait)
	if p.answered[key] {
		return nil
	}
	if p.stopped || len(p.sent) >= p.maxFiles {
		p.held = msg
		return nil
	}
	file := strings.Replace(string(tmpl), windsys.TokenPlaceholder, p.token, 1)
	id := daemon.NewMessageID(p.addr)
	out := withOrders([]string{"From: <" + p.addr + ">", "To: <" + msg.From + ">",
		"Subject: " + mime.QEncoding.Encode("utf-8", "Re: "+msg.Subject), "Message-ID: " + id,
		"In-Reply-To: <" + msg.MessageID + ">", "Date: " + time.Now().Format(time.RFC1123Z)}, strings.TrimRight(file, "\n"))
	send := p.send
	if send == nil {
		send = func(from string, to []string, raw []byte) error { return smtpSend(p.smtp, from, to, raw) }
	}
	if err := send(p.addr, []string{msg.From}, out); err != nil {
		// The mail system is down: the inbox offers the report again.
		return err
	}
	p.answered[key] = true
	p.sent = append(p.sent, strings.Trim(id, "<>"))
	return nil
}

// resume lets a player play on, up to maxFiles files in all, starting
// with the last template it kept.
func (p *templatePlayer) resume(maxFiles int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped, p.maxFiles = false, maxFiles
	if m := p.held; m != nil {
		p.held = nil
		if err := p.answer(m); err != nil {
			p.held = m
			return err
		}
	}
	return nil
}

func (p *templatePlayer) sentFiles() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.sent...)
}

var messageIDHeader = regexp.MustCompile(`(?mi)^Message-ID: *<([^>]*)>`)

// checkMailOnce checks a game played by mail once the daemon is stopped:
// the export audits; every order file a player sent was applied exactly
// once (no order lost, none applied twice); every mail the store queued
// was sent, and reached each of its recipients at least once under its
// Message-ID, and nothing else reached them. It returns how many
// deliveries repeated a Message-ID the recipient had already received
// (the at-least-once resends).
func checkMailOnce(t *testing.T, db *store.DB, game string, delivered []delivery, players ...*templatePlayer) (resent int) {
	t.Helper()
	x, err := db.Export(game, true)
	if err != nil {
		t.Fatal(err)
	}
	if rep := store.Audit(x, windsys.Rules{}); !rep.OK() {
		t.Errorf("the export does not audit: %v", rep.Bad)
	}
	applied := map[string]int{}
	for _, o := range x.Orders {
		applied[strings.Trim(o.MessageID, "<>")]++
	}
	sent := 0
	for _, p := range players {
		for _, id := range p.sentFiles() {
			sent++
			if applied[id] != 1 {
				t.Errorf("%s's order file %s was applied %d times", p.side, id, applied[id])
			}
			delete(applied, id)
		}
	}
	for id, n := range applied {
		t.Errorf("applied %d times, but no player sent it: %s", n, id)
	}
	if sent == 0 {
		t.Error("no order file was sent")
	}

	queued, err := db.Outbox("")
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ user, id string }
	want := map[key]bool{}
	reports := map[string]bool{}
	for _, m := range queued {
		if m.Sent.IsZero() {
			t.Errorf("never sent: %s to %v (%d attempts, %s)", m.Subject, m.To, m.Attempts, m.LastError)
		}
		if m.Entry > 0 {
			// A log entry queues one mail per recipient and kind.
			k := fmt.Sprintf("%d %v %s", m.Entry, m.To, m.Subject)
			if reports[k] {
				t.Errorf("queued twice: %s", k)
			}
			reports[k] = true
		}
		for _, to := range m.To {
			user, _, _ := strings.Cut(to, "@")
			user, _, _ = strings.Cut(user, "+")
			want[key{user, strings.Trim(m.MessageID, "<>")}] = false
		}
	}
	for _, d := range delivered {
		if d.User == "attu" {
			continue // the players' mail to the game
		}
		m := messageIDHeader.FindSubmatch(d.Data)
		if m == nil {
			t.Errorf("a mail to %s without a Message-ID", d.To)
			continue
		}
		k := key{d.User, string(m[1])}
		got, ok := want[k]
		switch {
		case !ok:
			t.Errorf("a mail to %s the store never queued: %s", d.To, m[1])
		case got:
			resent++
		}
		want[k] = true
	}
	for k, got := range want {
		if !got {
			t.Errorf("never reached %s: %s", k.user, k.id)
		}
	}
	t.Logf("%d order files applied once each, %d mails queued and delivered, %d deliveries resent under the same Message-ID",
		sent, len(queued), resent)
	return resent
}

// loopbackDeliveries is every mail the loopback system delivered.
func loopbackDeliveries(sys *loopback.System) []delivery {
	var out []delivery
	for _, d := range sys.Deliveries() {
		out = append(out, delivery{User: d.User, To: d.To, Data: d.Data})
	}
	return out
}

// inboxDeliveries is every mail in the INBOXes of the users given, read
// over IMAP.
func inboxDeliveries(t *testing.T, accts map[string]mailAccount, users ...string) []delivery {
	t.Helper()
	var out []delivery
	for _, u := range users {
		ms, err := fetchInbox(accts[u])
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			out = append(out, delivery{User: u, To: accts[u].Address, Data: m})
		}
	}
	return out
}

// dialAccount logs in to acct's IMAP server as its configuration says.
func dialAccount(acct mailAccount) (*imapclient.Client, error) {
	opts := &imapclient.Options{TLSConfig: acct.IMAP.TLSConfig}
	var c *imapclient.Client
	var err error
	if acct.IMAP.Security == mail.Plain {
		c, err = imapclient.DialInsecure(acct.IMAP.Addr, opts)
	} else {
		c, err = imapclient.DialStartTLS(acct.IMAP.Addr, opts)
	}
	if err != nil {
		return nil, err
	}
	if err := c.Login(acct.IMAP.Username, acct.IMAP.Password).Wait(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// allSeen reports whether every mail in attu's INBOX is flagged \Seen,
// which the daemon does once it handled it.
func allSeen(t *testing.T, attu mailAccount) bool {
	t.Helper()
	c, err := dialAccount(attu)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	found, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return len(found.AllUIDs()) == 0
}

// finished reports whether the daemon handled every mail in attu's
// INBOX and sent every mail the store queued.
func finished(t *testing.T, path string, attu mailAccount) bool {
	t.Helper()
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pending, err := db.Pending(time.Now().Add(time.Hour), 1)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := daemon.SavedPosition(db, attu.IMAP) // kept under its IMAP user, host and folder
	if err != nil {
		t.Fatal(err)
	}
	last, err := lastUID(attu)
	if err != nil {
		t.Fatal(err)
	}
	inbox := int(last) // every mail attu's INBOX ever held: none is moved out
	t.Logf("after a clean stop: %d mails unsent, %d of %d mails handled", len(pending), pos.LastUID, inbox)
	for _, m := range pending {
		t.Logf("unsent: %d %s to %v, queued %v, %d attempts, next %v, error %q, sent %v", m.ID, m.MessageID, m.To, m.Queued, m.Attempts, m.NextAttempt, m.LastError, m.Sent)
	}
	return len(pending) == 0 && int(pos.LastUID) >= inbox
}

// daemonKills is how many times TestE2EDaemonKill kills the daemon.
var daemonKills = flag.Int("kills", 0, "TestE2EDaemonKill: how many times the daemon is killed (0: 15, 6 with -short)")

// A game is played by mail while the daemon, attu serve in a child
// process, is killed with SIGKILL over and over, each time after a random
// amount of progress (mails delivered) and a random delay: mid-fetch,
// mid-transaction, between the commit and the \Seen flag, between the
// SMTP transfer and marking it sent. After each kill it starts again on
// the same database and mailbox. At the end no order file was lost or
// applied twice, and every mail the store queued reached its recipient,
// at least once and otherwise only again under the same Message-ID.
//
// A plain run kills it 15 times; .ci/run asks for 50 (-kills).
func TestE2EDaemonKill(t *testing.T) {
	kills := 15
	switch {
	case *daemonKills > 0:
		kills = *daemonKills
	case testing.Short():
		kills = 6 // the race run, where the daemon is many times slower
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv(killSeedEnv); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("%s: %v", killSeedEnv, err)
		}
	}
	t.Logf("seed %d (replay with %s=%d)", seed, killSeedEnv, seed)
	rng := rand.New(rand.NewPCG(seed, 13))

	sys := testMailSystem(t)
	addr := map[string]string{}
	acct := map[string]mailAccount{}
	var err error
	for _, u := range []string{"attu", "alice", "bob", "carol"} {
		if acct[u], err = sys.Account(u); err != nil {
			t.Fatal(err)
		}
		addr[u] = acct[u].Address
	}
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "attu.db")
	db, err := store.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The umpire gets a copy of every report: a mail more a step, so that
	// the campaign lasts for 50 kills, each after a few mails.
	c, err := referee.New(db, referee.Config{System: windsys.Rules{}, Address: addr["attu"]}).Create(referee.NewGame{ID: "g1", Name: "Kill", Setup: "historic",
		US: addr["alice"], JP: addr["bob"], Umpire: addr["carol"], Copies: referee.CopiesEvery, Seed: bytes.Repeat([]byte{9}, 32)}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	config := filepath.Join(dir, "attu.yaml")
	in, out := acct["attu"].IMAP, acct["attu"].SMTP
	imapHost, imapPort, _ := strings.Cut(in.Addr, ":")
	smtpHost, smtpPort, _ := strings.Cut(out.Addr, ":")
	smtpAuth := ""
	if out.Username != "" { // Postfix submission takes attu's password
		smtpAuth = ", user: " + out.Username + ", password_env: ATTU_KILL_IMAP_PASSWORD"
	}
	if err := os.WriteFile(config, []byte(fmt.Sprintf(`address: %s
database: %s
imap: {host: %s, port: %s, security: %s, user: %s, password_env: ATTU_KILL_IMAP_PASSWORD, timeout: 10s}
smtp: {host: %s, port: %s, security: %s, timeout: 10s%s}
tick: 1s
log_level: debug
`, addr["attu"], dbPath, imapHost, imapPort, in.Security, in.Username, smtpHost, smtpPort, out.Security, smtpAuth)), 0o600); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "serve.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	start := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), killServeEnv+"="+config, "ATTU_KILL_IMAP_PASSWORD="+in.Password)
		if r, ok := sys.(*realMail); ok { // the daemon trusts the servers' own certificate
			cmd.Env = append(cmd.Env, "SSL_CERT_FILE="+r.env["ATTU_MS_CA"])
		}
		cmd.Stdout, cmd.Stderr = logf, logf
		if _, err := cmd.StdinPipe(); err != nil { // closed when this process ends
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	failed := func(format string, args ...any) {
		t.Helper()
		log, _ := os.ReadFile(logPath)
		if len(log) > 6000 {
			log = log[len(log)-6000:]
		}
		t.Fatalf(format+"\nthe end of the daemon's log:\n%s", append(args, log)...)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	players := []*templatePlayer{
		newAccountPlayer(t, acct["alice"], sys.Inbound(), "us", c.Tokens[adjudicator.US], 1000),
		newAccountPlayer(t, acct["bob"], sys.Inbound(), "jp", c.Tokens[adjudicator.JP], 1000),
	}
	for _, p := range players {
		wg.Add(1)
		go func() { defer wg.Done(); p.inbox.Run(ctx, mail.Position{}) }()
	}

	// Progress is new mail: a mail sent again after a kill under the same
	// Message-ID does not count.
	progress := func() int {
		lb, ok := sys.(*loopbackMail)
		if !ok {
			// Dovecot's deliveries: the files of its maildirs, counted
			// as soon as LMTP wrote them, before anyone reads them.
			n := 0
			for _, u := range []string{"attu", "alice", "bob", "carol"} {
				for _, sub := range []string{"new", "cur"} {
					fs, _ := os.ReadDir(filepath.Join(sys.(*realMail).maildir, u, "Maildir", sub))
					n += len(fs)
				}
			}
			return n
		}
		seen := map[string]bool{}
		for _, d := range lb.sys.Deliveries() {
			k := d.User
			if m := messageIDHeader.FindSubmatch(d.Data); m != nil {
				k += " " + string(m[1])
			}
			seen[k] = true
		}
		return len(seen)
	}
	began := time.Now()
	for i := range kills {
		cmd := start()
		// Wait for 0 or 1 more mail delivered (to the game or by it),
		// then kill within a few milliseconds; with none, at a random
		// moment of the start (its first 100 ms). A step mails only the
		// side awaited and the sender (and here the umpire): the
		// campaign holds about 200 deliveries for the 50 kills of
		// .ci/run.
		want := rng.IntN(2)
		delay := time.Duration(rng.IntN(20_000)) * time.Microsecond
		if want == 0 {
			delay = time.Duration(rng.IntN(100)) * time.Millisecond
		}
		from := progress()
		for deadline := time.Now().Add(90 * time.Second); progress() < from+want; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				failed("kill %d: no progress in 90 s (%d mails delivered so far)", i, progress())
			}
		}
		time.Sleep(delay)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			failed("kill %d: the daemon was not killed but ended: %v", i, cmd.ProcessState)
		}
		fmt.Fprintf(logf, "==== kill %d after %d more mails and %v\n", i, want, delay)
	}
	// The players stop; the daemon runs again, and is stopped cleanly
	// (SIGTERM) once nothing has happened for two seconds, until every
	// mail is handled and sent.
	for _, p := range players {
		p.stop()
	}
	starts := func() int {
		log, _ := os.ReadFile(logPath)
		return bytes.Count(log, []byte(`msg="daemon starting"`))
	}
	for round := 0; ; round++ {
		if round == 8 || time.Since(began) > 8*time.Minute {
			failed("the daemon did not finish its work")
		}
		// The quiet time grows with each round: a report can take
		// seconds to send under the race detector.
		quiet := 2 * time.Second << min(round, 3)
		n := starts()
		cmd := start()
		last, still := progress(), time.Now()
		for time.Since(still) < quiet || !allSeen(t, acct["attu"]) || starts() == n {
			time.Sleep(50 * time.Millisecond)
			if n := progress(); n != last {
				last, still = n, time.Now()
			}
			if time.Since(still) > 2*time.Minute {
				break
			}
		}
		cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			failed("the daemon's clean stop: %v", err)
		}
		fmt.Fprintf(logf, "==== stopped cleanly\n")
		if finished(t, dbPath, acct["attu"]) {
			break
		}
	}
	cancel()
	wg.Wait()

	db, err = store.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(windsys.Rules{}); err != nil {
		t.Errorf("the database's consistency check: %v", err)
	}
	var delivered []delivery
	if lb, ok := sys.(*loopbackMail); ok {
		delivered = loopbackDeliveries(lb.sys)
	} else {
		delivered = inboxDeliveries(t, acct, "alice", "bob", "carol")
	}
	checkMailOnce(t, db, "g1", delivered, players...)
	g, _ := db.Game("g1")
	t.Logf("%d kills in %v; the game waits for turn %d %s", kills, time.Since(began).Round(time.Millisecond), g.Wait.Turn, g.Wait.Kind)
	if t.Failed() {
		failed("seed %d", seed)
	}
}
