package main

import (
	"bytes"
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

// attu new -system island-war with -us bot or -jp bot: the stand-in plays
// that side from the first wait, only the person is mailed, and the game
// waits for the person. (With -jp bot the Japanese set-up comes first: the
// person's welcome says the game waits for it, and the report of the
// stand-in's set-up follows at once with the person's template.)
func TestNewIslandWarAgainstTheStandin(t *testing.T) {
	for _, c := range []struct {
		bot, person string
		waits       adjudicator.Side
	}{{"-us", "-jp", adjudicator.JP}, {"-jp", "-us", adjudicator.US}} {
		db := filepath.Join(t.TempDir(), "attu.db")
		code, out, errs := runAttu("new", "-db", db, "-system", "island-war", "-address", "attu@example.org", "-id", "p1",
			c.bot, "bot", c.person, "a@x.org")
		if code != 0 || !strings.Contains(out, "created game p1") {
			t.Fatalf("attu new %s bot: exit %d, %s%s", c.bot, code, out, errs)
		}
		d, err := store.Open(db, nil)
		if err != nil {
			t.Fatal(err)
		}
		g, err := d.Game("p1")
		if err != nil {
			t.Fatal(err)
		}
		if g.SystemName() != island.Name || g.Wait.Side != c.waits || !g.Wait.Open() {
			t.Errorf("%s bot: the game is of %s and waits for %v, want the %v", c.bot, g.SystemName(), g.Wait, c.waits)
		}
		pending, err := d.Pending(time.Now().Add(time.Hour), 10)
		if err != nil {
			t.Fatal(err)
		}
		// The welcome, and when the stand-in's side sets up first, the
		// report of that set-up asking for the person's.
		want := 1
		if c.waits == adjudicator.US {
			want = 2
		}
		for _, m := range pending {
			if len(m.To) != 1 || m.To[0] != "a@x.org" {
				t.Errorf("%s bot: a mail to %v", c.bot, m.To)
			}
		}
		if len(pending) != want {
			t.Errorf("%s bot: %d mails queued, want %d", c.bot, len(pending), want)
		} else if m, err := d.Mail(pending[0].ID); err != nil {
			t.Fatal(err)
		} else if !strings.Contains(m.Subject, "welcome") || !strings.Contains(m.Text, "attu's stand-in") {
			t.Errorf("%s bot: the welcome (%q) does not say the stand-in plays the other side:\n%s", c.bot, m.Subject, m.Text)
		}
		d.Close()
	}
}

// The umpire hands the Japanese side of an Island War game to the stand-in
// by mail and back to a person: while the stand-in plays, every Japanese
// wait (set-up, orders, a defence) is answered in the U.S. player's own
// step, so the game only ever waits for the U.S.; after the hand-back the
// new Japanese player's file by mail is applied; the export audits by
// Island War's rules.
func TestE2EIslandWarStandinReplace(t *testing.T) {
	td := startTestDaemon(t, testMailSystem(t))
	c, err := td.svc.Create(referee.NewGame{System: island.Name, ID: "g1", Name: "Ridge practice", Scenario: "ridge-42",
		Seed: bytes.Repeat([]byte{5}, store.SeedSize),
		US:   td.acct["alice"].Address, JP: td.acct["bob"].Address, Umpire: td.acct["carol"].Address}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	td.d.Kick()
	td.settled(t, time.Minute)
	seen := map[string]int{}
	for _, u := range []string{"alice", "bob", "carol"} {
		unread(t, td, u, seen)
	}
	if w := gameWait(t, td); w.Side != adjudicator.JP || w.Kind != oi.WaitSetup {
		t.Fatalf("the game begins waiting for %v", w)
	}
	mailBody(t, td, "carol", "replace jp bot\ntoken: "+c.Tokens[adjudicator.Umpire]+"\n")
	td.settled(t, time.Minute)
	mustRead(t, unread(t, td, "carol", seen), "now played by attu's stand-in")
	mustRead(t, unread(t, td, "alice", seen), "gave the Japanese side to attu's stand-in")
	mustRead(t, unread(t, td, "bob", seen), "no longer")
	if w := gameWait(t, td); w.Side != adjudicator.US {
		t.Fatalf("after the hand-over the game waits for %v, not the U.S.", w)
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
	// Alice mails the stand-in's own files for the U.S. until the
	// Japanese stand-in has filed at least three times (its set-up and
	// two Player-Turns or defences).
	for i := 0; standinFiles(t, td) < 3; i++ {
		if i == 12 {
			t.Fatalf("after %d U.S. files the stand-in has filed %d times", i, standinFiles(t, td))
		}
		raw, _, err := island.Rules{}.StandIn("g1", position(), uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		mailBody(t, td, "alice", string(tokenLine.ReplaceAll(raw, []byte("token: "+c.Tokens[adjudicator.US]))))
		td.settled(t, time.Minute)
		if w := gameWait(t, td); w.Side != adjudicator.US && !w.Over() {
			t.Fatalf("after the U.S. file the game waits for %v", w)
		}
		unread(t, td, "alice", seen)
	}
	if len(unread(t, td, "bob", seen)) != 0 {
		t.Fatal("the former Japanese player was mailed while the stand-in played")
	}
	mailBody(t, td, "carol", "replace jp "+td.acct["bob"].Address+"\ntoken: "+c.Tokens[adjudicator.Umpire]+"\n")
	td.settled(t, time.Minute)
	mustRead(t, unread(t, td, "alice", seen), "gave the Japanese side to a new player")
	token := tokenOf(t, mustRead(t, unread(t, td, "bob", seen), "welcome").Text)
	for i := 0; gameWait(t, td).Side != adjudicator.JP; i++ {
		if i == 6 || gameWait(t, td).Over() {
			t.Fatalf("the game never came to the Japanese (waits for %v)", gameWait(t, td))
		}
		raw, _, err := island.Rules{}.StandIn("g1", position(), uint64(100+i))
		if err != nil {
			t.Fatal(err)
		}
		mailBody(t, td, "alice", string(tokenLine.ReplaceAll(raw, []byte("token: "+c.Tokens[adjudicator.US]))))
		td.settled(t, time.Minute)
	}
	before := countOrders(t, td, adjudicator.JP)
	raw, _, err := island.Rules{}.StandIn("g1", position(), 7)
	if err != nil {
		t.Fatal(err)
	}
	mailBody(t, td, "bob", string(tokenLine.ReplaceAll(raw, []byte("token: "+token))))
	td.settled(t, time.Minute)
	if countOrders(t, td, adjudicator.JP) != before+1 {
		t.Fatal("the Japanese file mailed after the hand-back was not applied")
	}
	auditGame(t, td, island.Rules{})
}
