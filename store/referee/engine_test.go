package referee

import (
	"errors"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/orders"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/store"
)

// The marker the order files are redacted with is the one the store
// accepts.
func TestRedactedTokenAgrees(t *testing.T) {
	if orders.RedactedToken != store.RedactedToken {
		t.Fatalf("orders writes %q, the store accepts %q", orders.RedactedToken, store.RedactedToken)
	}
}

// orderFile writes orders the way a player would (windorders.Write), under a
// comment line as a player's file often starts.
func orderFile(game, token string, o wind.Orders) []byte {
	b, err := windorders.Write(game, token, o)
	if err != nil {
		panic(err)
	}
	return append([]byte("# orders\n"), b...)
}

// placeSome puts ten units of each side on land, as a setup would.
func placeSome(s *wind.State) error {
	land := s.Map().LandHexes()
	var us, jp int
	for _, u := range s.Units {
		var err error
		switch {
		case u.Side() == adjudicator.US && us < 10:
			err = s.Place(u.ID, land[(us*37)%len(land)], "")
			us++
		case u.Side() == adjudicator.JP && jp < 10:
			err = s.Place(u.ID, land[(jp*37+11)%len(land)], "")
			jp++
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// player gives the orders for what s waits for.
type player func(s *wind.State) wind.Orders

// quiet decides a day turn and does nothing.
func quiet(s *wind.State) wind.Orders { return s.DefaultOrders() }

// game is a game being played through the store with the real rules.
type game struct {
	db    *store.DB
	id    string
	files int
	// report, when set, is the text of the three reports (U.S., Japanese,
	// umpire) queued with every file, standing in for the real ones.
	report string
}

func newGame(t testing.TB, path, id string, seed []byte, setup func(*wind.State) error) *game {
	t.Helper()
	db, err := store.Open(path, &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return createGame(t, db, id, seed, setup)
}

func createGame(t testing.TB, db *store.DB, id string, seed []byte, setup func(*wind.State) error) *game {
	t.Helper()
	_, err := db.Create(store.NewGame{Rules: windsys.Rules{},
		ID: id, Scenario: "campaign", Seed: seed, Start: windsys.StartPlaced(setup),
		Players: []store.NewPlayer{
			{Side: adjudicator.US, Address: "us@example.org", Token: "us-secret-token"},
			{Side: adjudicator.JP, Address: "jp@example.org", Token: "jp-secret-token"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &game{db: db, id: id}
}

// play applies one orders file from p, redacted as the game service does,
// and reports whether the game goes on.
func (g *game) play(t testing.TB, p player) bool {
	t.Helper()
	s, err := windsys.State(g.db.Position(g.id))
	if err != nil {
		t.Fatal(err)
	}
	if side := s.Wait().Side; side == adjudicator.NoSide {
		return false
	}
	o := p(s)
	g.files++
	raw := orderFile(g.id, o.Side.String()+"-secret-token", o)
	parsed, err := windorders.Parse(raw, windorders.Options{})
	if err != nil {
		t.Fatalf("file %d does not parse: %v\n%s", g.files, err, raw)
	}
	o = parsed.Orders()
	ref := store.NewMailRef(fmt.Sprintf("<%d.%s@players.test>", g.files, g.id), raw)
	reports := func(t *store.Txn, out *store.Outcome) {
		if g.report != "" {
			for _, to := range []string{"us", "jp", "umpire"} {
				t.Queue(store.Mail{MessageID: fmt.Sprintf("<r.%s.%d.%s@attu.test>", to, g.files, g.id),
					To: []string{to + "@example.org"}, Subject: fmt.Sprintf("[attu %s] turn %d", g.id, out.State.(*wind.State).Turn), Text: g.report})
			}
		}
	}
	_, err = applyStep(g.db, g.id, store.Step{Orders: &o, Raw: orders.Redact(raw), Received: time.Date(1943, 5, 11, 8, 0, g.files, 0, time.UTC), Mail: &ref}, reports)
	if err != nil {
		t.Fatalf("file %d (turn %d %s from %s): %v\n%s", g.files, o.Turn, o.Wait, o.Side, err, raw)
	}
	return true
}

// A few quiet turns through the store: the opening comes from NewGame with
// the game's dice, the files are stored without their tokens, and the
// export audits with the engine the game was played with.
func TestQuietGameAudits(t *testing.T) {
	seed := make([]byte, 32)
	g := newGame(t, filepath.Join(t.TempDir(), "attu.db"), "g1", seed, placeSome)
	for range 9 { // three turns: decision, U.S. actions, Japanese actions
		if !g.play(t, quiet) {
			t.Fatal("the game ended")
		}
	}
	s, _ := windsys.State(g.db.Position("g1"))
	if s.Turn != 4 {
		t.Fatalf("turn %d after three turns", s.Turn)
	}
	if err := endGame(g.db, "g1", "test over"); err != nil {
		t.Fatal(err)
	}
	x, err := g.db.Export("g1", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range x.Orders {
		if strings.Contains(o.YAML, "secret") || !strings.Contains(o.YAML, "token: "+orders.RedactedToken) {
			t.Fatalf("entry %d: stored file\n%s", o.Entry, o.YAML)
		}
	}
	first := x.Dice[0]
	if first.Entry != 1 || first.Purpose != wind.DieKomandorskiEffect {
		t.Fatalf("the first die is %+v, not the opening's chit", first)
	}
	rep := store.Audit(x, windsys.Rules{})
	if !rep.OK() || !rep.Replayed || !rep.SeedShown {
		t.Fatalf("audit: %v", rep.Bad)
	}

	// One byte changed in a redacted file, the marker itself included: the
	// audit names its entry.
	for _, at := range []string{"REDACTED", "night: false"} {
		y := *x
		y.Orders = append([]store.ExportOrders(nil), x.Orders...)
		y.Orders[3].YAML = strings.Replace(y.Orders[3].YAML, at, at[:len(at)-1]+"X", 1)
		if rep := store.Audit(&y, windsys.Rules{}); rep.OK() || rep.Bad.Entry != y.Orders[3].Entry {
			t.Fatalf("%q changed: %v", at, rep.Bad)
		}
	}
}

// The audit's check of the opening: the chits must be those its dice draw.
func TestOpening(t *testing.T) {
	dice := []int{4, 7}
	p, _, err := windsys.StartPlaced(placeSome)(&wind.ForcedDice{Values: dice})
	if err != nil {
		t.Fatal(err)
	}
	s := p.(*wind.State)
	if err := (windsys.Rules{}).Opening(s.Clone(), &wind.ForcedDice{Values: dice}); err != nil {
		t.Fatal(err)
	}
	s.Komandorski.Delay = s.Komandorski.Delay%4 + 1
	if err := (windsys.Rules{}).Opening(s, &wind.ForcedDice{Values: dice}); err == nil {
		t.Fatal("a changed delay chit passes")
	}
}

// pickFrom adapts a seeded generator to the pick function players take.
func pickFrom(rng *rand.Rand) func(int) int { return func(n int) int { return rng.IntN(n) } }

// Orders the game does not take come back as a refusal for the player,
// each problem at its line and column, and nothing is written: orders
// that answer another wait name the wait, and an illegal move points at
// the hex it cannot reach.
func TestRefusalsAreForThePlayer(t *testing.T) {
	g := newGame(t, filepath.Join(t.TempDir(), "attu.db"), "g1", make([]byte, 32), placeSome)
	apply := func(raw string) error {
		t.Helper()
		f, err := windorders.Parse([]byte(raw), windorders.Options{})
		if err != nil {
			t.Fatalf("does not parse: %v\n%s", err, raw)
		}
		before, _ := g.db.Game(g.id)
		_, err = applyStep(g.db, g.id, store.Step{Orders: windsys.Filed{Orders: f.Orders(), File: f}, Raw: orders.Redact([]byte(raw))})
		if after, _ := g.db.Game(g.id); err != nil && (after.Head != before.Head || after.DiceNext != before.DiceNext) {
			t.Fatalf("a refused file left traces: %v", err)
		}
		return err
	}
	refused := func(err error, sentinel error) *store.RefusedError {
		t.Helper()
		var r *store.RefusedError
		if !errors.As(err, &r) || !errors.Is(err, sentinel) || len(r.Problems) != 1 {
			t.Fatalf("want one problem refused with %v, got %v", sentinel, err)
		}
		return r
	}

	const envelope = "# my orders\ngame: g1\nside: us\nturn: 1\nwait: %s\ntoken: us-secret-token\n"
	r := refused(apply(fmt.Sprintf(envelope, "actions")+"actions: []\n"), store.ErrStale)
	if p := r.Problems[0]; p.Line != 2 || p.Col != 1 || p.Msg != "the game waits for the U.S. decision of turn 1 (May 11), not U.S. actions" {
		t.Fatalf("stale: %s", p)
	}

	if !g.play(t, quiet) {
		t.Fatal("the game ended")
	}
	s, _ := windsys.State(g.db.Position(g.id))
	var u *wind.Unit
	for _, x := range s.OnMap() {
		if x.Side() == adjudicator.US {
			u = x
			break
		}
	}
	far := s.Map().LandHexes()[0]
	for _, h := range s.Map().LandHexes() {
		if u.Hex.Distance(h) > 3 {
			far = h
			break
		}
	}
	raw := fmt.Sprintf(envelope, "actions") + fmt.Sprintf("actions:\n  - move:\n      unit: %s\n      path: [%s]\n", u.ID, far)
	r = refused(apply(raw), store.ErrIllegal)
	lines := strings.Split(raw, "\n")
	if p := r.Problems[0]; p.Line != 10 || p.Col != strings.Index(lines[9], far.String())+1 {
		t.Fatalf("illegal move: %s, want at 10:%d\n%s", p, strings.Index(lines[9], far.String())+1, raw)
	}
}

// applyStep applies a step to game id in a transaction of its own, in
// which answer, when given, queues its mails.
func applyStep(db *store.DB, id string, st store.Step, answer ...func(*store.Txn, *store.Outcome)) (*store.Outcome, error) {
	var o *store.Outcome
	_, err := db.Transact(id, st.Mail, func(t *store.Txn) (err error) {
		if o, err = t.Apply(st, windsys.Rules{}); err == nil {
			for _, f := range answer {
				f(t, o)
			}
		}
		return err
	})
	return o, err
}

// endGame ends game id with note in a transaction of its own.
func endGame(db *store.DB, id, note string) error {
	_, err := db.Transact(id, nil, func(t *store.Txn) error {
		_, err := t.End(note)
		return err
	})
	return err
}
