package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// compatDir holds the files written by attu at commit ffc348c; its
// README says how each was made and what the audit said of it then.
var compatDir = filepath.Join("testdata", "compat", "ffc348c")

// The audits of the two games as attu ffc348c printed them (attu audit -q).
const (
	compatDemoAudit = `Audit of game demo: OK
  14 log entries (0 rolled back), 11 order files, 263 dice
  chain head  de2e544276e4d0d8516218efde5fffcda014451331a56c23a74ecbf03b31557f
  final state 61f588582cd1d811b6acd2d30abbe7bd691a668271217ed25ebe781433c194f3
  seed matches the commitment; every die re-derived from it
  every order replayed through the rules: events, dice and positions match
`
	compatWaitingAudit = `Audit of game waiting: OK
  18 log entries (0 rolled back), 10 order files, 71 dice
  chain head  2c2c15a8ecac6036e72e12dda721d81ade1bc67b0d7666f6a81559e5ca9d720b
  final state 507e9a4fcba1bcade8b246bee6e034997643410e324ae76045e621572d2089d7
  seed matches the commitment; every die re-derived from it
  every order replayed through the rules: events, dice and positions match
`
	compatDemoSeed    = "bfa88f7ebe6f8158ceb9816812dd636e686f3e34c6c7d55907636f28df7b0103"
	compatWaitingSeed = "b740c0222f0b8f3d11e965006d8f70ebda211a159ad733da57283e062c156cd6"
	compatUSToken     = "4r44h4bdsaf4hi44q2oxgo2u" // the waiting game's U.S. token
	// compatLastUID is the last UID of attu's INBOX the database records
	// as read, on the demo's mail server (UIDVALIDITY 1).
	compatLastUID = 11
)

// useUIDs brings a fresh in-process INBOX to where the mailbox the
// database remembers stood: n mails delivered and gone, the next one UID
// n+1. A new server starts at UID 1 with the same UIDVALIDITY (1), and the
// daemon would take the first n mails for ones it has read.
func useUIDs(t *testing.T, acct mailAccount, n int) {
	t.Helper()
	c, err := dialAccount(acct)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	msg := []byte("From: <someone@attu.test>\r\nSubject: read long ago\r\n\r\nread\r\n")
	for range n {
		w := c.Append("INBOX", int64(len(msg)), nil)
		if _, err := w.Write(msg); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	all := imap.SeqSet{}
	all.AddRange(1, 0)
	if err := c.Store(all, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Logout().Wait(); err != nil {
		t.Fatal(err)
	}
}

// gunzipFile writes the gzip file src, uncompressed, to dst.
func gunzipFile(t *testing.T, src, dst string) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// attuCmd runs an attu command and returns what it printed, failing the
// test when it does not succeed.
func attuCmd(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if st := run(args, &stdout, &stderr); st != 0 {
		t.Fatalf("attu %s: exit %d\n%s%s", strings.Join(args, " "), st, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// exportAudit exports a game of the database with attu export and audits
// the file with attu audit -q: the export's seed and the audit's words.
func exportAudit(t *testing.T, dbPath, game string, reveal bool) (seed, audit string) {
	t.Helper()
	out := filepath.Join(filepath.Dir(dbPath), game+".json")
	args := []string{"export", "-db", dbPath, "-o", out}
	if reveal {
		args = append(args, "-reveal")
	}
	attuCmd(t, append(args, game)...)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	x, err := store.ReadExport(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return x.Seed, attuCmd(t, "audit", "-q", out)
}

// A database and an export written by attu at commit ffc348c still read:
// the export audits as it did then; each game of the database exports
// and audits with the same seed and verdict; the game that was waiting
// for the U.S. decision of turn 4 plays on by mail, through the daemon
// and the in-process mail servers (its addresses are theirs), and its
// player gets the answer and the report; afterwards both games audit
// again, the ended one exactly as before.
func TestCompatFfc348c(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "attu.db")
	gunzipFile(t, filepath.Join(compatDir, "attu.db.gz"), dbPath)
	oldExport := filepath.Join(dir, "demo-ffc348c.json")
	gunzipFile(t, filepath.Join(compatDir, "demo.json.gz"), oldExport)

	if got := attuCmd(t, "audit", "-q", oldExport); got != compatDemoAudit {
		t.Errorf("the export of ffc348c audits as\n%s\nwant\n%s", got, compatDemoAudit)
	}
	b, err := os.ReadFile(oldExport)
	if err != nil {
		t.Fatal(err)
	}
	old, err := store.ReadExport(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if old.Seed != compatDemoSeed {
		t.Errorf("the export of ffc348c holds the seed %s, want %s", old.Seed, compatDemoSeed)
	}

	// This release migrates the file when it first opens it for writing,
	// as the daemon does when it starts (store.Open); a read-only open of
	// an older file is refused until then. Then the ended game exports as
	// the file kept from then (but for the time of export and what the
	// layout adds), and both audit.
	if code, _, _ := runAttu("export", "-db", dbPath, "-o", filepath.Join(dir, "refused.json"), "demo"); code == 0 {
		t.Error("a read-only export of the file of an older schema is not refused")
	}
	db, err := store.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := db.Game("demo"); err != nil || g.System != store.SystemBefore {
		t.Errorf("migrated, the ended game is of the system %q (%v), want %q", g.System, err, store.SystemBefore)
	}
	db.Close()
	seed, audit := exportAudit(t, dbPath, "demo", false)
	if seed != compatDemoSeed || audit != compatDemoAudit {
		t.Errorf("the ended game exports with the seed %s and audits as\n%s\nwant %s and\n%s", seed, audit, compatDemoSeed, compatDemoAudit)
	}
	b, err = os.ReadFile(filepath.Join(dir, "demo.json"))
	if err != nil {
		t.Fatal(err)
	}
	now, err := store.ReadExport(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// The layout's name and the system it names are the differences
	// allowed: since attu-export/4 an export's last entry must carry its
	// secret, which every entry of this game does, and since
	// attu-export/5 an export names its system (store.ExportFormat).
	if old.Format != store.ExportFormatBefore || now.Format != store.ExportFormat || old.System != "" || now.System != store.SystemBefore {
		t.Errorf("the layouts are %q (system %q) then and %q (system %q) now, want %q and %q (%q)", old.Format, old.System, now.Format, now.System,
			store.ExportFormatBefore, store.ExportFormat, store.SystemBefore)
	}
	now.Exported, now.Format, now.System = old.Exported, old.Format, old.System
	if a, b := mustJSON(t, old), mustJSON(t, now); !bytes.Equal(a, b) {
		t.Error("the ended game's export differs from the one attu ffc348c wrote")
	}
	seed, audit = exportAudit(t, dbPath, "waiting", true)
	if seed != compatWaitingSeed || audit != compatWaitingAudit {
		t.Errorf("the waiting game exports with the seed %s and audits as\n%s\nwant %s and\n%s", seed, audit, compatWaitingSeed, compatWaitingAudit)
	}

	// The daemon starts on the file and sends what it left queued; the
	// U.S. player answers the wait by mail.
	sys, err := startLoopbackMail()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Close() })
	td := &testDaemon{sys: sys, dbPath: dbPath, acct: map[string]mailAccount{},
		outbox: mail.OutboxConfig{Interval: 500 * time.Millisecond, RetryMin: 200 * time.Millisecond, RetryMax: 2 * time.Second}}
	for _, u := range []string{"attu", "alice", "bob", "carol"} {
		if td.acct[u], err = sys.Account(u); err != nil {
			t.Fatal(err)
		}
	}
	useUIDs(t, td.acct["attu"], compatLastUID)
	td.log = e2eLog(t, dir)
	td.start(t)
	t.Cleanup(func() { td.stop() })
	td.settled(t, 30*time.Second)
	// The welcome and a report after each of the seven forced waits to
	// alice, the umpire's welcome to carol: what the file left queued. The
	// umpire may also get a digest, due once a day has passed since the
	// file's last one (referee.DigestEvery), so by the calendar rather
	// than by the file.
	queued := len(td.waitInbox(t, "alice", 1, time.Second))
	welcomes, digests := 0, 0
	for _, raw := range td.waitInbox(t, "carol", 1, time.Second) {
		m, err := mail.Extract(bytes.NewReader(raw), mail.Limits{})
		if err != nil {
			t.Fatalf("a mail to carol does not read: %v", err)
		}
		switch {
		case strings.Contains(m.MessageID, ".welcome-umpire."):
			welcomes++
		case strings.Contains(m.MessageID, ".digest-umpire."):
			digests++
		default:
			t.Errorf("carol got %q (%s), neither the welcome nor a digest", m.Subject, m.MessageID)
		}
	}
	if queued != 8 || welcomes != 1 || digests > 1 {
		t.Errorf("the daemon sent alice %d mails and carol %d welcomes and %d digests, want 8, 1 and at most 1", queued, welcomes, digests)
	}

	game := referee.GameAddress(td.acct["attu"].Address, "waiting")
	const msgID = "compat-turn4@attu.test"
	raw := []byte("From: <" + td.acct["alice"].Address + ">\r\nTo: <" + game + ">\r\nSubject: orders\r\nMessage-ID: <" + msgID + ">\r\n" +
		"Date: " + time.Now().Format(time.RFC1123Z) + "\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"game: waiting\r\nside: us\r\nturn: 4\r\nwait: us-decision\r\ntoken: " + compatUSToken + "\r\ndecision: {refit: false, night: false}\r\n")
	if err := sendRaw(context.Background(), sys, td.acct["alice"].Address, []string{game}, raw); err != nil {
		t.Fatal(err)
	}
	td.waitInbox(t, "alice", queued+1, 30*time.Second)
	td.settled(t, 30*time.Second)
	g, err := td.db.Game("waiting")
	if err != nil {
		t.Fatal(err)
	}
	if g.Wait.Turn != 4 || g.Wait.Side != adjudicator.US || g.Wait.Kind != wind.WaitActions {
		t.Errorf("after the U.S. decision of turn 4 the game waits for %s %s of turn %d, want the U.S. actions", g.Wait.Side, g.Wait.Kind, g.Wait.Turn)
	}
	// A game created before the editions of the rules plays on by the
	// first (wind.State.Edition), as its record was played.
	if st, err := windsys.State(td.db.Position("waiting")); err != nil {
		t.Error(err)
	} else if st.Edition != wind.EditionFirst {
		t.Errorf("played on, the waiting game's position is of edition %d, want %d", st.Edition, wind.EditionFirst)
	}
	ms, err := fetchInbox(td.acct["alice"])
	if err != nil {
		t.Fatal(err)
	}
	var answers []string
	for _, raw := range ms[queued:] {
		m, err := mail.Extract(bytes.NewReader(raw), mail.Limits{})
		if err != nil {
			t.Fatalf("a mail to alice does not read: %v", err)
		}
		if strings.Contains(m.InReplyTo, msgID) {
			answers = append(answers, m.Subject)
		}
	}
	if len(answers) != 1 || !strings.Contains(answers[0], "the U.S. actions of turn 4") {
		t.Errorf("alice's orders were answered by %q, want the report of the U.S. actions of turn 4", answers)
	}
	log, err := td.db.Log("waiting", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !logHasOrders(log, msgID) {
		t.Errorf("no orders entry of %s in the log", msgID)
	}
	td.stop()

	seed, audit = exportAudit(t, dbPath, "waiting", true)
	if seed != compatWaitingSeed || !strings.HasPrefix(audit, "Audit of game waiting: OK\n") ||
		!strings.Contains(audit, "seed matches the commitment") || !strings.Contains(audit, "every order replayed") {
		t.Errorf("played on, the waiting game exports with the seed %s and audits as\n%s", seed, audit)
	}
	if strings.Contains(audit, "18 log entries") {
		t.Errorf("played on, the waiting game's log did not grow:\n%s", audit)
	}
	seed, audit = exportAudit(t, dbPath, "demo", false)
	if seed != compatDemoSeed || audit != compatDemoAudit {
		t.Errorf("afterwards the ended game exports with the seed %s and audits as\n%s", seed, audit)
	}
}

// logHasOrders reports whether the log holds an orders entry of
// the mail with Message-ID id.
func logHasOrders(log []store.LogEntry, id string) bool {
	for _, e := range log {
		if e.Kind == store.KindOrders && strings.Contains(e.MessageID, id) {
			return true
		}
	}
	return false
}

// mustJSON is an export as attu export writes it.
func mustJSON(t *testing.T, x *store.Export) []byte {
	t.Helper()
	b, err := x.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
