package referee

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	windorders "github.com/attu-pbem/attu/orders/wind"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/store"
)

// TestStandinPlaysPracticeGame plays a short scenario against the
// stand-in (JP: bot): the game answers the Japanese waits itself after
// every U.S. file, mails the Japanese side nothing, ends, and audits; and
// every file the stand-in wrote is what it writes again from the
// position and the seed revealed at the end (botSeed), so an audit can
// replay its choices.
func TestStandinPlaysPracticeGame(t *testing.T) {
	t.Run("practice", func(t *testing.T) {
		playAgainstStandin(t, NewGame{Scenario: wind.ScenarioUpTheHogsBack, US: usAddr, JP: "Bot", Umpire: umpireAddr})
	})
	// A solitaire game (rule 13) is one against the stand-in.
	t.Run("solitaire", func(t *testing.T) {
		playAgainstStandin(t, NewGame{Scenario: wind.ScenarioHoltzBayToJarminPass, US: usAddr, Umpire: umpireAddr, Rules: []string{"solitaire"}})
	})
}

func playAgainstStandin(t *testing.T, ng NewGame) {
	h := newHarness(t, ng)
	if solo := slices.Contains(ng.Rules, "solitaire"); solo != (h.state().Options != nil && h.state().Options.Solitaire) {
		t.Fatalf("a game created with the rules %v is solitaire: %v", ng.Rules, !solo)
	}
	if _, ok := h.tokens[adjudicator.JP]; ok {
		t.Fatal("a token was given out for the stand-in's side")
	}
	if w := h.game().Wait; w.Side != adjudicator.US {
		t.Fatalf("after creation the game waits for %v: the stand-in did not set up", w)
	}
	pick := pickFrom(rand.New(rand.NewPCG(3, 3)))
	random := func(s *wind.State) wind.Orders { return autoplay.Orders(s, pick) }
	h.newMails()
	for n := 0; h.game().Status == store.Active; n++ {
		if n > 200 {
			t.Fatal("no end after 200 U.S. files")
		}
		if w := h.game().Wait; w.Side != adjudicator.US {
			t.Fatalf("the game waits for %v between U.S. files", w)
		}
		out := h.play(random)
		for _, m := range out {
			if slices.Contains(m.To, "") {
				t.Fatalf("a mail to no one: %s", m.Subject)
			}
		}
		// The stand-in answered at once: the player gets one mail, its
		// next report headed by the acceptance, in reply to its file.
		if r := mailTo(t, out, usAddr); h.game().Status == store.Active && (!strings.Contains(r.Text, "Accepted: your U.S. orders") || r.InReplyTo == "" || len(r.Attachments) == 0) {
			t.Fatalf("after a U.S. file: %v, in reply to %q", subjects(out), r.InReplyTo)
		}
	}
	x, err := h.db.Export(h.id, false)
	if err != nil {
		t.Fatal(err)
	}
	h.audit()
	n := replayBot(t, x, adjudicator.JP)
	if n < 5 {
		t.Fatalf("only %d files of the stand-in", n)
	}
	t.Logf("%d stand-in files; %s", n, h.record().Result)
}

// replayBot walks the exported game from its opening, and requires each
// file of side to be exactly what the stand-in writes from the position
// before it with the seed of its entry. It returns how many it checked.
func replayBot(t *testing.T, x *store.Export, side adjudicator.Side) int {
	t.Helper()
	seed, err := hex.DecodeString(x.Seed)
	if err != nil || len(seed) == 0 {
		t.Fatalf("the export has no seed: %v", err)
	}
	st := new(wind.State)
	if err := json.Unmarshal(x.InitialState, st); err != nil {
		t.Fatal(err)
	}
	if err := st.Attach(wind.BuiltinMap(), wind.BuiltinCounters()); err != nil {
		t.Fatal(err)
	}
	entries := map[uint64]store.Entry{}
	for _, le := range x.Log {
		var e store.Entry
		if err := json.Unmarshal(le.Entry, &e); err != nil {
			t.Fatal(err)
		}
		entries[e.Seq] = e
	}
	checked := 0
	for _, f := range x.Orders {
		e := entries[f.Entry]
		if f.Side == side {
			raw, _, err := (windsys.Rules{}).StandIn(x.Game, st, botSeed(seed, f.Entry))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(raw, f.Raw()) {
				t.Fatalf("entry %d: the stand-in writes again\n%s\nnot\n%s", f.Entry, raw, f.Raw())
			}
			checked++
		} else if strings.HasPrefix(f.YAML, "# Orders written by attu's stand-in") {
			t.Fatalf("entry %d: a stand-in file for %s", f.Entry, f.Side)
		}
		o, err := windsys.Read(f.Raw(), windorders.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ns, _, ps := wind.Resolve(st, o.Orders, store.NewDice(seed, e.DiceFrom, f.Entry, e.Turn, e.Wait))
		if len(ps) > 0 {
			t.Fatalf("entry %d: %v", f.Entry, ps)
		}
		st = ns
	}
	return checked
}

// TestStandinHandOver hands the Japanese side to the stand-in and back
// through the umpire's commands, and has the stand-in answer a wait that
// a rollback, not a step, put before it.
func TestStandinHandOver(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	out := h.command(adjudicator.Umpire, "replace jp bot", true)
	mustContain(t, "the umpire's answer", mailTo(t, out, umpireAddr).Text, "now played by attu's stand-in")
	mustContain(t, "the U.S. notice", mailTo(t, out, usAddr).Text, "gave the Japanese side to attu's stand-in")
	mailTo(t, out, jpAddr)
	if got := h.record().Bots; !slices.Equal(got, []adjudicator.Side{adjudicator.JP}) {
		t.Fatalf("the stand-in plays %v", got)
	}
	if out := h.command(adjudicator.Umpire, "replace us bot", true); !strings.Contains(out[0].Text, "already plays the Japanese side") {
		t.Fatalf("both sides to the stand-in: %q", out[0].Text)
	}
	var jpWait uint64
	for range 3 {
		before := h.game().Entries
		h.play(nil)
		if w := h.game().Wait; w.Side != adjudicator.US {
			t.Fatalf("the game waits for %v", w)
		}
		if h.game().Entries > before+1 {
			jpWait = before + 1 // the U.S. file's entry, after which the Japanese were to play
		}
	}
	if jpWait == 0 {
		t.Fatal("the stand-in never played")
	}
	h.command(adjudicator.Umpire, "rollback "+itoa(jpWait), true)
	if w := h.game().Wait; w.Side != adjudicator.JP {
		t.Fatalf("after the rollback the game waits for %v", w)
	}
	h.tick()
	if w := h.game().Wait; w.Side != adjudicator.US {
		t.Fatalf("after the tick the game waits for %v: the stand-in did not play", w)
	}
	out = h.command(adjudicator.Umpire, "replace jp "+jpAddr, true)
	welcome := mailTo(t, out, jpAddr)
	mustContain(t, "the welcome", welcome.Subject, "welcome")
	// Handed back, the player is told what its side saw while the
	// stand-in played: the turns it played, from the first.
	mustContain(t, "the welcome", welcome.Text, "Weather (rule 3.3)", "Japanese activation 1")
	if got := h.record().Bots; len(got) != 0 {
		t.Fatalf("the stand-in still plays %v", got)
	}
	h.audit()
}

// TestStandinWritesLateOrders: in a game created with LateStandIn, a
// missed deadline has the stand-in write the late side's orders, which
// the players are told; the side stays its player's.
func TestStandinWritesLateOrders(t *testing.T) {
	h := newHarness(t, NewGame{LateStandIn: true})
	h.newMails()
	before := h.game()
	h.advance(before.Deadline.Sub(h.clk.now()) + time.Minute)
	out := h.tick()
	g := h.game()
	if g.Entries == before.Entries {
		t.Fatal("nothing was applied at the deadline")
	}
	raw, err := h.rawOrders(before.Entries + 2) // the note, then the orders
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(raw), "# Orders written by attu's stand-in") {
		t.Fatalf("the late side's file:\n%s", raw)
	}
	mustContain(t, "the late player's mail", mailTo(t, out, usAddr).Text, "orders written by attu's stand-in")
	if len(h.record().Bots) != 0 {
		t.Fatal("the late side was handed to the stand-in")
	}
	if p, _ := g.Player(adjudicator.US); p.Address != usAddr {
		t.Fatalf("the U.S. player is now %q", p.Address)
	}
	h.play(nil)
}
