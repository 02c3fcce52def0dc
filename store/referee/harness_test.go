package referee

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
)

// clock is the fake clock of the service tests: the store records its
// times and the tests hand the same to Handle and Tick.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// start is when the test games are created.
var start = time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)

// harness is a service over a fresh database with a fake clock, and the
// tokens of the game it created.
type harness struct {
	t      testing.TB
	path   string
	db     *store.DB
	svc    *Service
	clk    *clock
	id     string
	tokens map[adjudicator.Side]string
	mails  int
	seen   int // outbox mails already looked at
	// pictures are the map pictures sent (sendAll), by Message-ID.
	pictures map[string][]byte
	// others are the systems the service hosts besides War in the
	// Wind's (Config.Others).
	others []System
}

const (
	usAddr     = "us@example.org"
	jpAddr     = "jp@example.org"
	umpireAddr = "umpire@example.org"
	gameName   = "Operation Landcrab"
)

func addressOf(side adjudicator.Side) string {
	switch side {
	case adjudicator.US:
		return usAddr
	case adjudicator.JP:
		return jpAddr
	}
	return umpireAddr
}

func newHarness(t testing.TB, ng NewGame) *harness {
	t.Helper()
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "attu.db"), clk: &clock{start}}
	h.open()
	t.Cleanup(h.close)
	if ng.ID == "" {
		ng.ID = "g1"
	}
	if ng.Name == "" {
		ng.Name = gameName
	}
	if ng.US == "" {
		ng.US, ng.JP, ng.Umpire = usAddr, jpAddr, umpireAddr
	}
	if ng.Seed == nil {
		ng.Seed = bytes.Repeat([]byte{7}, store.SeedSize)
	}
	// The umpire sees every report, as most tests here check what each
	// reader was told; TestMailEconomy checks the default, the digest.
	ng.Copies = cmp.Or(ng.Copies, CopiesEvery)
	c, err := h.svc.Create(ng, h.clk.now())
	if err != nil {
		t.Fatal(err)
	}
	h.id, h.tokens = c.Game.ID, c.Tokens
	return h
}

func (h *harness) open() {
	h.t.Helper()
	db, err := store.Open(h.path, &store.Options{NoSync: true, Now: h.clk.now})
	if err != nil {
		h.t.Fatal(err)
	}
	h.db = db
	h.svc = New(db, Config{System: windsys.Rules{}, Others: h.others, Address: "attu@example.org"})
}

// close checks the file and closes it; closing twice is harmless.
func (h *harness) close() {
	if h.db == nil {
		return
	}
	if err := h.db.Check(windsys.Rules{}, otherWind{}); err != nil {
		h.t.Errorf("consistency check: %v", err)
	}
	checkDue(h.t, h.db)
	h.db.Close()
	h.db = nil
}

// restart closes the database and opens it again with a new service, as a
// daemon that stopped and started would.
func (h *harness) restart() {
	h.t.Helper()
	h.close()
	h.open()
}

func (h *harness) advance(d time.Duration) { h.clk.t = h.clk.t.Add(d) }

// message is a mail from address to the game's address.
func (h *harness) message(from, subject string) *Message {
	h.mails++
	return &Message{From: from, To: []string{"attu+" + h.id + "@example.org"}, Subject: subject,
		MessageID: fmt.Sprintf("<m%d@players.test>", h.mails)}
}

// send hands m to the service and returns the mails it queued.
func (h *harness) send(m *Message) []store.Mail {
	h.t.Helper()
	if err := h.svc.Handle(m, h.clk.now()); err != nil {
		h.t.Fatalf("handle %s: %v", m.MessageID, err)
	}
	return h.newMails()
}

// command sends a command from side, with its token when token is set.
func (h *harness) command(side adjudicator.Side, text string, token bool) []store.Mail {
	h.t.Helper()
	m := h.message(addressOf(side), "")
	m.Text = text + "\n"
	if token {
		m.Text += "token: " + h.tokens[side] + "\n"
	}
	return h.send(m)
}

// tick runs the service's clock work and returns the mails it queued.
func (h *harness) tick() []store.Mail {
	h.t.Helper()
	if err := h.svc.Tick(h.clk.now()); err != nil {
		h.t.Fatal(err)
	}
	return h.newMails()
}

// newMails returns the mails queued since the last look.
func (h *harness) newMails() []store.Mail {
	h.t.Helper()
	all, err := h.db.Outbox("")
	if err != nil {
		h.t.Fatal(err)
	}
	out := all[h.seen:]
	h.seen = len(all)
	return out
}

func (h *harness) game() *store.Game {
	h.t.Helper()
	g, err := h.db.Game(h.id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

func (h *harness) state() *wind.State {
	h.t.Helper()
	s, err := windsys.State(h.db.Position(h.id))
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

// file is side's orders for what the game waits for, from p (quiet when
// nil), with the given token.
func (h *harness) file(p player, token string) []byte {
	s := h.state()
	if p == nil {
		p = quiet
	}
	return orderFile(h.id, token, p(s))
}

// play sends the awaited side's orders from p and requires them applied.
func (h *harness) play(p player) []store.Mail {
	h.t.Helper()
	side := h.game().Wait.Side
	before := h.game().Entries
	m := h.message(addressOf(side), "orders")
	m.Orders = h.file(p, h.tokens[side])
	out := h.send(m)
	if h.game().Entries == before {
		h.t.Fatalf("the %s orders were not applied: %v", side, subjects(out))
	}
	return out
}

// audit exports the game, through JSON as attu export and attu audit do,
// and requires the audit to pass.
func (h *harness) audit() *store.Report {
	h.t.Helper()
	x, err := h.db.Export(h.id, false)
	if err != nil {
		h.t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x.WriteJSON(&buf); err != nil {
		h.t.Fatal(err)
	}
	y, err := store.ReadExport(&buf)
	if err != nil {
		h.t.Fatal(err)
	}
	rep := store.Audit(y, windsys.Rules{})
	if !rep.OK() || !rep.Replayed {
		h.t.Fatalf("audit: %v", rep.Bad)
	}
	return rep
}

// record reads the service's record of the game.
func (h *harness) record() *record {
	h.t.Helper()
	r, err := loadRecord(*h.game())
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

// buckets returns every key and value of the file, bucket by bucket, for
// comparing the file before and after.
func (h *harness) buckets() map[string]string {
	h.t.Helper()
	out := map[string]string{}
	var walk func(path string, b *bolt.Bucket)
	walk = func(path string, b *bolt.Bucket) {
		b.ForEach(func(k, v []byte) error {
			if v == nil {
				walk(path+"/"+string(k), b.Bucket(k))
				return nil
			}
			out[path+"/"+fmt.Sprintf("%x", k)] = string(v)
			return nil
		})
	}
	err := h.db.Bolt().View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			walk(string(name), b)
			return nil
		})
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// changedBuckets names the top-level buckets whose contents differ.
func changedBuckets(before, after map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	note := func(k string) {
		top, _, _ := strings.Cut(k, "/")
		if !seen[top] {
			seen[top] = true
			out = append(out, top)
		}
	}
	for k, v := range before {
		if w, ok := after[k]; !ok || w != v {
			note(k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			note(k)
		}
	}
	return out
}

func subjects(ms []store.Mail) []string {
	var out []string
	for _, m := range ms {
		out = append(out, strings.Join(m.To, ",")+": "+m.Subject)
	}
	return out
}

// mailTo returns the one mail to address among ms.
func mailTo(t testing.TB, ms []store.Mail, address string) store.Mail {
	t.Helper()
	var found []store.Mail
	for _, m := range ms {
		if len(m.To) == 1 && m.To[0] == address {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one mail to %s, got %d: %v", address, len(found), subjects(ms))
	}
	return found[0]
}

// tokenIn reads the token of a welcome mail.
func tokenIn(t testing.TB, m store.Mail) string {
	t.Helper()
	sm := regexp.MustCompile(`(?m)^  token: (\S+)$`).FindStringSubmatch(m.Text)
	if sm == nil {
		t.Fatalf("no token in %q", m.Subject)
	}
	return sm[1]
}

// mustContain requires every word in text.
func mustContain(t testing.TB, what, text string, words ...string) {
	t.Helper()
	for _, w := range words {
		if !strings.Contains(text, w) {
			t.Fatalf("%s does not say %q:\n%s", what, w, text)
		}
	}
}

// orderTemplate is the order template attached to m, "" when none is.
func orderTemplate(m store.Mail) string {
	for _, a := range m.Attachments {
		if a.Type == "application/yaml" {
			return string(a.Data)
		}
	}
	return ""
}

// when is a time as mails write it: in UTC, to the minute.
func when(t time.Time) string {
	if t.IsZero() {
		return "none"
	}
	return t.UTC().Format("Mon 2 Jan 2006 15:04 UTC")
}

// rawOrders is the order file stored for entry seq, as the export holds it.
func (h *harness) rawOrders(seq uint64) ([]byte, error) {
	x, err := h.db.Export(h.id, true)
	if err != nil {
		return nil, err
	}
	for _, o := range x.Orders {
		if o.Entry == seq {
			return o.Raw(), nil
		}
	}
	return nil, fmt.Errorf("entry %d has no order file", seq)
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

// checkDue requires every game of db to be in the due index at the time
// its record says (nextDue): whatever the test did to it, the index
// loses no game that is due.
func checkDue(t testing.TB, db *store.DB) {
	t.Helper()
	if err := dueMismatch(db); err != nil {
		t.Error(err)
	}
}

// dueMismatch says which games of db are not at the time their record
// says in the due index (store.DB.Check holds the index to Game.Due).
func dueMismatch(db *store.DB) error {
	ids, err := db.Games()
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range ids {
		g, err := db.Game(id)
		if err != nil {
			return err
		}
		rec, err := loadRecord(*g)
		if err != nil {
			return err
		}
		if want := nextDue(g, rec); !g.Due.Equal(want) {
			errs = append(errs, fmt.Errorf("game %s is due at %v, its record says %v", id, g.Due, want))
		}
	}
	return errors.Join(errs...)
}
