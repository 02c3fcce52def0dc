package referee

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// otherWind is War in the Wind's rules under another system's name: a
// second system the service tells from the first only by the name each
// game records, which is what the lookup by name is about.
type otherWind struct{ windsys.Rules }

func (otherWind) System() string { return "other-wind" }

// newHosting is a harness whose service hosts War in the Wind and
// otherWind, with no game yet.
func newHosting(t *testing.T) *harness {
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "attu.db"), clk: &clock{start}, others: []System{otherWind{}}}
	h.open()
	t.Cleanup(h.close)
	return h
}

// create makes game id of system through h's service and makes it h's
// game.
func (h *harness) create(id, system string) {
	h.t.Helper()
	c, err := h.svc.Create(NewGame{System: system, ID: id, Name: gameName, US: usAddr, JP: jpAddr, Umpire: umpireAddr,
		Seed: []byte(strings.Repeat("s", store.SeedSize)), Copies: CopiesEvery}, h.clk.now())
	if err != nil {
		h.t.Fatal(err)
	}
	h.id, h.tokens = c.Game.ID, c.Tokens
}

// A service hosting two systems creates a game of each, the one named
// or the default, records each game's system, and plays each by mail by
// its own system's rules; an unknown name is refused with the list of
// those hosted.
func TestServiceHostsSeveralSystems(t *testing.T) {
	h := newHosting(t)
	if got := strings.Join(h.svc.SystemNames(), ","); got != "war-in-the-wind,other-wind" {
		t.Fatalf("the service hosts %s", got)
	}
	_, err := h.svc.Create(NewGame{System: "chess", US: usAddr, JP: jpAddr}, h.clk.now())
	if !errors.Is(err, ErrUnhosted) || !strings.Contains(err.Error(), `"chess"`) || !strings.Contains(err.Error(), "war-in-the-wind, other-wind") {
		t.Fatalf("a game of an unknown system: %v", err)
	}
	if ids, _ := h.db.Games(); len(ids) != 0 {
		t.Fatalf("the refused creation left games %v", ids)
	}
	tokens := map[string]map[adjudicator.Side]string{}
	for _, g := range []struct{ id, system, want string }{{"g1", "", "war-in-the-wind"}, {"g2", "other-wind", "other-wind"}} {
		h.create(g.id, g.system)
		tokens[g.id] = h.tokens
		if got := h.game().SystemName(); got != g.want {
			t.Fatalf("game %s is of %s, want %s", g.id, got, g.want)
		}
	}
	for _, id := range []string{"g2", "g1", "g2"} {
		h.id, h.tokens = id, tokens[id]
		h.play(nil)
	}
	for _, id := range []string{"g1", "g2"} {
		h.id = id
		x, err := h.db.Export(id, false)
		if err != nil {
			t.Fatal(err)
		}
		sys, err := h.svc.SystemOf(h.game())
		if err != nil {
			t.Fatal(err)
		}
		if rep := store.Audit(x, sys); !rep.OK() || !rep.Replayed {
			t.Fatalf("game %s audited by %s: %v", id, sys.System(), rep.Bad)
		}
		if rep := store.Audit(x, otherSystem(h.svc, sys)); rep.OK() {
			t.Fatalf("game %s passes the audit by the other system's rules", id)
		}
	}
	gs, err := h.svc.Games()
	if err != nil || len(gs) != 2 || gs[0].System != "war-in-the-wind" || gs[1].System != "other-wind" {
		t.Fatalf("the games listed: %+v, %v", gs, err)
	}
}

// otherSystem is the system svc hosts besides sys.
func otherSystem(svc *Service, sys System) System {
	for _, o := range svc.Systems() {
		if o.System() != sys.System() {
			return o
		}
	}
	return nil
}

// A game of a system the service does not host is never played by
// another's rules: its players' orders and commands get a clear answer,
// the umpire's command line an error, the clock does nothing to it, and
// nothing of the game changes.
func TestUnhostedSystemIsLeftAlone(t *testing.T) {
	h := newHosting(t)
	h.create("g2", "other-wind")
	h.newMails()
	file := h.file(nil, h.tokens[h.game().Wait.Side])
	side := h.game().Wait.Side
	// The daemon restarts with War in the Wind alone.
	h.others = nil
	h.restart()
	before := h.buckets()
	m := h.message(addressOf(side), "orders")
	m.Orders = file
	out := h.send(m)
	a := mailTo(t, out, addressOf(side))
	mustContain(t, "the answer to orders", a.Text, "played by the rules of other-wind", "Nothing in it was carried out", "ask the umpire")
	out = h.command(side, "status", true)
	a = mailTo(t, out, addressOf(side))
	mustContain(t, "the answer to status", a.Text, "other-wind")
	if _, err := h.svc.Umpire("g2", []string{"pause"}, h.clk.now()); err == nil || !strings.Contains(err.Error(), "other-wind") {
		t.Fatalf("the umpire's pause of an unhosted game: %v", err)
	}
	h.advance(30 * 24 * 3600e9)
	if out := h.tick(); len(out) != 0 {
		t.Fatalf("the clock mailed %v for an unhosted game", subjects(out))
	}
	if _, _, err := h.svc.Check(file); !errors.Is(err, ErrUnhosted) {
		t.Fatalf("checking a file of an unhosted game: %v", err)
	}
	after := h.buckets()
	for k, v := range before {
		// The ledger, the outbox and the quotas record the answers; the
		// game's own buckets are as they were.
		if strings.HasPrefix(k, "games/") && after[k] != v {
			t.Errorf("%s changed", k)
		}
	}
	for k := range after {
		if _, ok := before[k]; strings.HasPrefix(k, "games/") && !ok {
			t.Errorf("%s was added", k)
		}
	}
	if g := h.game(); g.Entries != 1 || g.Status != store.Active {
		t.Fatalf("the unhosted game moved: %d entries, %s", g.Entries, g.Status)
	}
	// Hosted again, it plays on.
	h.others = []System{otherWind{}}
	h.restart()
	h.play(nil)
}
