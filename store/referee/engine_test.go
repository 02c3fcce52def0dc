package referee

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
	"github.com/attu-pbem/attu/store"
)

// The marker the order files are redacted with is the one the store
// accepts.
func TestRedactedTokenAgrees(t *testing.T) {
	if orders.RedactedToken != store.RedactedToken {
		t.Fatalf("orders writes %q, the store accepts %q", orders.RedactedToken, store.RedactedToken)
	}
}

// orderFile writes orders the way a player would, in YAML, with a token.
func orderFile(game, token string, o adjudicator.Orders) []byte {
	type move struct {
		Unit string            `yaml:"unit"`
		Path []adjudicator.Hex `yaml:"path,flow"`
	}
	f := map[string]any{"game": game, "side": o.Side.String(), "turn": o.Turn, "wait": o.Wait, "token": token}
	if d := o.Decision; d != nil {
		f["decision"] = map[string]bool{"refit": d.Refit, "night": d.Night}
	}
	if r := o.Refit; r != nil {
		refit := map[string]any{}
		var restore, land []map[string]any
		for _, e := range r.Restore {
			m := map[string]any{"unit": e.Unit}
			if e.Steps > 0 {
				m["steps"] = e.Steps
			}
			restore = append(restore, m)
		}
		for _, e := range r.Land {
			land = append(land, map[string]any{"unit": e.Unit, "zone": e.Zone})
		}
		if len(restore) > 0 {
			refit["restore"] = restore
		}
		if len(land) > 0 {
			refit["land"] = land
		}
		if len(r.Independents) > 0 {
			refit["independents"] = r.Independents
		}
		if len(r.Depots) > 0 {
			refit["depots"] = r.Depots
		}
		f["refit"] = refit
	}
	if r := o.Rearrange; r != nil {
		refit := map[string]any{}
		place := func(ms []adjudicator.UnknownMove) []map[string]any {
			var out []map[string]any
			for _, m := range ms {
				out = append(out, map[string]any{"unit": m.Unit, "to": m.To})
			}
			return out
		}
		if len(r.Hide) > 0 {
			refit["hide"] = r.Hide
		}
		if len(r.Moves) > 0 {
			refit["move"] = place(r.Moves)
		}
		var swaps []map[string]any
		for _, sw := range r.Swaps {
			swaps = append(swaps, map[string]any{"hex": sw.Hex, "place": place(sw.Place)})
		}
		if len(swaps) > 0 {
			refit["swap"] = swaps
		}
		f["refit"] = refit
	}
	if js := o.JPSetup; js != nil {
		setup := map[string]any{}
		var place, vp []map[string]any
		for _, p := range js.Place {
			place = append(place, map[string]any{"unit": p.Unit, "hex": p.Hex})
		}
		for _, p := range js.VP {
			vp = append(vp, map[string]any{"hex": p.Hex, "value": p.Value})
		}
		if len(place) > 0 {
			setup["place"] = place
		}
		if len(vp) > 0 {
			setup["vp"] = vp
		}
		f["setup"] = setup
	}
	if l := o.Landing; l != nil {
		landing := map[string]any{"delay": l.Delay}
		var land []map[string]any
		for _, e := range l.Land {
			land = append(land, map[string]any{"unit": e.Unit, "zone": e.Zone})
		}
		if len(land) > 0 {
			landing["land"] = land
		}
		f["landing"] = landing
	}
	if o.Standing != nil {
		// The standing instructions' JSON names are the file's keys.
		var m map[string]any
		b, _ := json.Marshal(o.Standing)
		json.Unmarshal(b, &m)
		f["standing"] = m
	}
	if o.Wait == adjudicator.WaitActions {
		acts := []map[string]any{}
		for _, a := range o.Actions {
			switch {
			case a.Move != nil:
				acts = append(acts, map[string]any{"move": move{a.Move.Unit, a.Move.Path}})
			case a.Fire != nil:
				fire := map[string]any{"units": a.Fire.Units, "target": a.Fire.Target}
				if a.Fire.Spotter != "" {
					fire["spotter"] = a.Fire.Spotter
				}
				if a.Fire.TargetUnit != "" {
					fire["target_unit"] = a.Fire.TargetUnit
				}
				acts = append(acts, map[string]any{"fire": fire})
			case a.Melee != nil:
				acts = append(acts, map[string]any{"melee": map[string]any{"units": a.Melee.Units, "target": a.Melee.Target}})
			case a.Air != nil:
				var air []map[string]any
				for _, at := range a.Air.Attacks {
					air = append(air, map[string]any{"hex": at.Hex, "factors": at.Factors})
				}
				acts = append(acts, map[string]any{"air": air})
			case a.Yamasaki != nil:
				var moves []move
				for _, m := range a.Yamasaki.Moves {
					moves = append(moves, move{m.Unit, m.Path})
				}
				acts = append(acts, map[string]any{"yamasaki": map[string]any{"hex": a.Yamasaki.Hex, "moves": moves}})
			}
		}
		f["actions"] = acts
	}
	b, err := yaml.Marshal(f)
	if err != nil {
		panic(err)
	}
	return []byte("# orders\n" + string(b))
}

// placeSome puts ten units of each side on land, as a setup would.
func placeSome(s *adjudicator.State) error {
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
type player func(s *adjudicator.State) adjudicator.Orders

// quiet decides a day turn and does nothing.
func quiet(s *adjudicator.State) adjudicator.Orders { return s.DefaultOrders() }

// game is a game being played through the store with the real rules.
type game struct {
	db    *store.DB
	id    string
	files int
	// report, when set, is the text of the three reports (U.S., Japanese,
	// umpire) queued with every file, standing in for the real ones.
	report string
}

func newGame(t testing.TB, path, id string, seed []byte, setup func(*adjudicator.State) error) *game {
	t.Helper()
	db, err := store.Open(path, &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return createGame(t, db, id, seed, setup)
}

func createGame(t testing.TB, db *store.DB, id string, seed []byte, setup func(*adjudicator.State) error) *game {
	t.Helper()
	_, err := db.Create(store.NewGame{
		ID: id, Scenario: "campaign", Seed: seed, Start: StartPlaced(setup),
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
	s, err := g.db.State(g.id)
	if err != nil {
		t.Fatal(err)
	}
	if side := s.Wait().Side; side == adjudicator.NoSide {
		return false
	}
	o := p(s)
	g.files++
	raw := orderFile(g.id, o.Side.String()+"-secret-token", o)
	parsed, err := orders.Parse(raw, orders.Options{})
	if err != nil {
		t.Fatalf("file %d does not parse: %v\n%s", g.files, err, raw)
	}
	o = parsed.Orders()
	ref := store.NewMailRef(fmt.Sprintf("<%d.%s@players.test>", g.files, g.id), raw)
	reply := func(out *store.Outcome) (store.Reply, error) {
		var r store.Reply
		if g.report != "" {
			for _, to := range []string{"us", "jp", "umpire"} {
				r.Outbox = append(r.Outbox, store.Mail{MessageID: fmt.Sprintf("<r.%s.%d.%s@attu.test>", to, g.files, g.id),
					To: []string{to + "@example.org"}, Subject: fmt.Sprintf("[attu %s] turn %d", g.id, out.State.Turn), Text: g.report})
			}
		}
		return r, nil
	}
	_, err = g.db.Apply(store.Step{Game: g.id, Orders: &o, Raw: orders.Redact(raw), Received: time.Date(1943, 5, 11, 8, 0, g.files, 0, time.UTC), Mail: &ref, Reply: reply}, Engine())
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
	s, _ := g.db.State("g1")
	if s.Turn != 4 {
		t.Fatalf("turn %d after three turns", s.Turn)
	}
	if _, err := g.db.End("g1", "test over", nil); err != nil {
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
	if first.Entry != 1 || first.Purpose != adjudicator.DieKomandorskiEffect {
		t.Fatalf("the first die is %+v, not the opening's chit", first)
	}
	rep := store.Audit(x, Engine())
	if !rep.OK() || !rep.Replayed || !rep.SeedShown {
		t.Fatalf("audit: %v", rep.Bad)
	}

	// One byte changed in a redacted file, the marker itself included: the
	// audit names its entry.
	for _, at := range []string{"REDACTED", "night: false"} {
		y := *x
		y.Orders = append([]store.ExportOrders(nil), x.Orders...)
		y.Orders[3].YAML = strings.Replace(y.Orders[3].YAML, at, at[:len(at)-1]+"X", 1)
		if rep := store.Audit(&y, Engine()); rep.OK() || rep.Bad.Entry != y.Orders[3].Entry {
			t.Fatalf("%q changed: %v", at, rep.Bad)
		}
	}
}

// The audit's check of the opening: the chits must be those its dice draw.
func TestOpening(t *testing.T) {
	dice := []int{4, 7}
	s, _, err := StartPlaced(placeSome)(&adjudicator.ForcedDice{Values: dice})
	if err != nil {
		t.Fatal(err)
	}
	if err := opening(s.Clone(), &adjudicator.ForcedDice{Values: dice}); err != nil {
		t.Fatal(err)
	}
	s.Komandorski.Delay = s.Komandorski.Delay%4 + 1
	if err := opening(s, &adjudicator.ForcedDice{Values: dice}); err == nil {
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
		f, err := orders.Parse([]byte(raw), orders.Options{})
		if err != nil {
			t.Fatalf("does not parse: %v\n%s", err, raw)
		}
		o := f.Orders()
		before, _ := g.db.Game(g.id)
		_, err = g.db.Apply(store.Step{Game: g.id, Orders: &o, Raw: orders.Redact([]byte(raw))}, Engine())
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
	s, _ := g.db.State(g.id)
	var u *adjudicator.Unit
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
