package store

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// openTestDB opens a fresh database in a temporary directory and, when the
// test ends, checks its consistency and closes it.
func openTestDB(t testing.TB) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "attu.db")
	db := mustOpen(t, path)
	t.Cleanup(func() { closeChecked(t, db) })
	return db, path
}

func mustOpen(t testing.TB, path string) *DB {
	t.Helper()
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// closeChecked checks the file and closes it; closing twice is harmless.
func closeChecked(t testing.TB, db *DB) {
	t.Helper()
	if db.bolt.Path() == "" {
		return
	}
	if err := db.Check(toyEngine()); err != nil {
		t.Errorf("consistency check: %v", err)
	}
	db.Close()
}

// testSeed is the seed of the test games: bytes 0 to 31.
func testSeed() []byte {
	s := make([]byte, SeedSize)
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

// openingState places ten units of each side on land and waits for the
// U.S. actions of turn 1.
func openingState() *wind.State {
	s := wind.NewState(nil, nil)
	s.Awaiting, s.Waiting = wind.WaitActions, wind.US
	land := s.Map().LandHexes()
	var us, jp int
	for _, u := range s.Units {
		switch {
		case u.Side() == wind.US && us < 10:
			s.Place(u.ID, land[(us*37)%len(land)], "")
			us++
		case u.Side() == wind.JP && jp < 10:
			s.Place(u.ID, land[(jp*37+11)%len(land)], "")
			jp++
		}
	}
	return s
}

func createTestGame(t testing.TB, db *DB, id string) *Game {
	t.Helper()
	g, err := createGameErr(db, id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func createGameErr(db *DB, id string) (*Game, error) {
	return db.Create(NewGame{Rules: toyEngine(),
		ID: id, Scenario: "campaign", Seed: testSeed(), Start: startAt(openingState()),
		Options: GameOptions{USSetup: "historic", JPSetup: "historic", Deadline: 72 * time.Hour},
		Players: []NewPlayer{
			{Side: wind.US, Address: "us@example.org", Token: "us-token"},
			{Side: wind.JP, Address: "jp@example.org", Token: "jp-token"},
			{Side: wind.Umpire, Address: "umpire@example.org", Token: "umpire-token"},
		},
		Outbox: []Mail{{MessageID: "<welcome." + id + "@attu.test>", To: []string{"us@example.org"}, Subject: "welcome", Text: "hello"}},
	})
}

// toyEngine is a small stand-in for the rules: before the U.S. actions it
// rolls weather and airpower, it moves units where told, fires two dice per
// firing unit, and after the Japanese actions fights a round of melee. The
// game waits for the U.S. actions, then the Japanese, then the next turn's.
// It is deterministic given the dice, which is all the store needs, and
// keeps the positions sound (wind.State.Validate), which the store
// requires: a move into an enemy's hex or an over-full stack is not made,
// an eliminated counter keeps its last step, and the casualty track stops
// short of the 30 that would end the game (rule 3.8.2).
//
// Its positions and orders are War in the Wind's, read and written as that
// system's (windsys.Rules); it checks the wait as the rules do, places
// every problem at the top of the file, where a toy file begins, replays
// the recorded orders without reading the files again and checks the
// opening's dice against the seed only.
func toyEngine() *toyRules {
	return &toyRules{resolve: toyResolve}
}

type toyRules struct {
	windsys.Rules
	faces   int // 0: the d10
	resolve func(s *wind.State, o wind.Orders, d wind.Dice) (*wind.State, []wind.Event, []wind.Problem)
}

func (r *toyRules) Faces() int { return cmp.Or(r.faces, 10) }

func (r *toyRules) Resolve(p Position, o Orders, d adjudicator.Dice) (Position, json.RawMessage, *adjudicator.Refusal) {
	s := p.(*wind.State)
	ord, _, _ := windsys.OrdersOf(o)
	if pr := s.CheckWait(ord); pr != nil {
		return nil, nil, &adjudicator.Refusal{Stale: true, Problems: toyLocate([]wind.Problem{*pr})}
	}
	next, evs, ps := r.resolve(s, ord, d)
	if len(ps) > 0 {
		return nil, nil, &adjudicator.Refusal{Problems: toyLocate(ps)}
	}
	var b json.RawMessage
	if len(evs) > 0 {
		b, _ = json.Marshal(evs)
	}
	return next, b, nil
}

func (*toyRules) Reread([]byte) (Orders, error) { return nil, nil }

func (*toyRules) Opening(Position, adjudicator.Dice) error { return nil }

// toyLocate places every problem at the top of the file.
func toyLocate(ps []wind.Problem) []Problem {
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = Problem{Line: 1, Col: 1, Msg: p.Msg}
	}
	return out
}

// testState reads the position in force in game id.
func testState(db *DB, id string) (*wind.State, error) {
	b, err := db.Position(id)
	if err != nil {
		return nil, err
	}
	return decodeTestState(b)
}

// decodeTestState reads a position as War in the Wind's rules do, and
// judges it.
func decodeTestState(b []byte) (*wind.State, error) {
	p, err := decodePosition(windsys.Rules{}, b, "the test's position")
	if err != nil {
		return nil, err
	}
	return p.(*wind.State), nil
}

// stateHash is the hash an entry records of position s.
func stateHash(s *wind.State) string {
	b, err := json.Marshal(s)
	if err != nil {
		return "unencodable: " + err.Error()
	}
	return hashHex(b)
}

// entryOrders reads the orders an entry records.
func entryOrders(e *Entry) *wind.Orders {
	if len(e.Orders) == 0 {
		return nil
	}
	o := new(wind.Orders)
	if json.Unmarshal(e.Orders, o) != nil {
		return nil
	}
	return o
}

func toyResolve(s *wind.State, o wind.Orders, d wind.Dice) (*wind.State, []wind.Event, []wind.Problem) {
	var ev []wind.Event
	open := wind.AudienceBoth
	if o.Side == wind.US {
		s.Weather = wind.Weather(d.Roll(wind.Die{Purpose: wind.DieWeather, Seen: open}) % 4)
		s.AirUS = d.Roll(wind.Die{Purpose: wind.DieAirpower, Side: wind.US, Seen: open}) / 2
		s.AirJP = d.Roll(wind.Die{Purpose: wind.DieAirpower, Side: wind.JP, Seen: open}) / 3
		ev = append(ev, wind.Event{Kind: wind.EventWeather, Seen: wind.Public, Weather: s.Weather},
			wind.Event{Kind: wind.EventAirpower, Seen: wind.Public, Side: wind.US, Factors: s.AirUS},
			wind.Event{Kind: wind.EventAirpower, Seen: wind.Public, Side: wind.JP, Factors: s.AirJP})
	}
	for i, a := range o.Actions {
		switch {
		case a.Move != nil:
			u, ok := s.Unit(a.Move.Unit)
			if !ok || u.Side() != o.Side || len(a.Move.Path) == 0 {
				return nil, nil, []wind.Problem{{Action: i, Step: -1, Msg: "bad move"}}
			}
			to := a.Move.Path[len(a.Move.Path)-1]
			if held := s.Occupied(to); held != wind.NoSide && held != u.Side() || s.StackingProblemWith(to, u, u.Steps) != "" {
				continue
			}
			u.Hex = to
			ev = append(ev, wind.Event{Kind: wind.EventMoved, Seen: wind.Public, Side: o.Side,
				Units: []wind.EventUnit{{ID: u.ID, Side: u.Side(), Hex: u.Hex, Known: true}}, Hexes: a.Move.Path})
		case a.Fire != nil:
			hits := 0
			for _, id := range a.Fire.Units {
				for range 2 {
					if d.Roll(wind.Die{Purpose: wind.DieRanged, Side: o.Side, Unit: id, Hex: a.Fire.Target, Need: 7, Seen: open}) >= 7 {
						hits++
					}
				}
			}
			ev = append(ev, wind.Event{Kind: wind.EventFireTotal, Seen: wind.Public, Side: o.Side,
				Hexes: []wind.Hex{a.Fire.Target}, Target: a.Fire.Target, Hits: hits})
			for _, u := range s.UnitsAt(a.Fire.Target) {
				if hits > 0 && u.Side() != o.Side {
					hits--
					if u.Steps--; u.Steps <= 0 {
						u.Steps = 1 // an eliminated counter keeps its last step
						s.Place(u.ID, 0, wind.BoxEliminated)
					}
				}
			}
		}
	}
	if o.Side == wind.JP {
		for _, u := range s.OnMap() {
			if u.Side() == wind.US {
				hits := 0
				for range 3 {
					if d.Roll(wind.Die{Purpose: wind.DieMeleeAttack, Side: wind.US, Unit: u.ID, Hex: u.Hex, Need: 6, Seen: open}) >= 6 {
						hits++
					}
				}
				if d.Roll(wind.Die{Purpose: wind.DieAirStrike, Side: wind.JP, Hex: u.Hex, Need: 8, Seen: open}) >= 8 {
					hits++
				}
				ev = append(ev, wind.Event{Kind: wind.EventOffensiveFire, Seen: wind.Public,
					Units: []wind.EventUnit{{ID: u.ID, Side: u.Side(), Hex: u.Hex, Known: true}}, Target: u.Hex, Round: 1, Hits: hits})
				s.Casualties = min(s.Casualties+hits, wind.CasualtyLimit-1)
				break
			}
		}
	}
	toyAdvance(s)
	return s, ev, nil
}

// toyAdvance moves the toy game to its next wait: from the U.S. actions to
// the Japanese, from the Japanese to the next turn's U.S. actions.
func toyAdvance(s *wind.State) {
	if s.Waiting == wind.US {
		s.Waiting = wind.JP
		return
	}
	s.Turn++
	s.Waiting = wind.US
}

// randomOrders gives the side's first units something to do.
func randomOrders(rng *rand.Rand, s *wind.State, w wind.Wait) *wind.Orders {
	o := &wind.Orders{Side: w.Side, Turn: w.Turn, Wait: w.Kind}
	var mine, theirs []*wind.Unit
	for _, u := range s.OnMap() {
		if u.Side() == w.Side {
			mine = append(mine, u)
		} else {
			theirs = append(theirs, u)
		}
	}
	for i := 0; i < 3 && i < len(mine); i++ {
		u := mine[rng.IntN(len(mine))]
		if rng.IntN(2) == 0 || len(theirs) == 0 {
			nb := s.Map().Neighbours(u.Hex)
			if len(nb) == 0 {
				continue
			}
			o.Actions = append(o.Actions, wind.Action{Move: &wind.Move{Unit: u.ID, Path: []wind.Hex{nb[rng.IntN(len(nb))]}}})
		} else {
			o.Actions = append(o.Actions, wind.Action{Fire: &wind.Fire{Units: []string{u.ID}, Target: theirs[rng.IntN(len(theirs))].Hex}})
		}
	}
	return o
}

// orderFile writes orders the way a player would, in YAML.
func orderFile(game, token string, o *wind.Orders) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "game: %s\nside: %s\nturn: %d\nwait: %s\ntoken: %s\nactions:\n", game, o.Side, o.Turn, o.Wait, token)
	for _, a := range o.Actions {
		switch {
		case a.Move != nil:
			fmt.Fprintf(&b, "  - move: %s\n    path: [%s]\n", a.Move.Unit, a.Move.Path[0])
		case a.Fire != nil:
			fmt.Fprintf(&b, "  - fire: [%s]\n    at: %s  # fire!\n", strings.Join(a.Fire.Units, ", "), a.Fire.Target)
		}
	}
	return []byte(b.String())
}

// reportText stands in for a turn report: about 6 KB, like the real ones
// with their ASCII maps.
func reportText(e string, turn int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Turn %d — %s\n\n", turn, e)
	for i := range 60 {
		fmt.Fprintf(&b, "%03d  . . . ^ ^ ~ ~ . . # # . . . . ^ ^ ^ . . . ~ ~ ~ . . . . # . . . . . . . . . . . . . . . . . . . . . . . . . . . . .\n", i)
	}
	return b.String()
}

// driver plays the toy game: random orders from the side awaited, each
// orders file arriving by mail with reports to send.
type driver struct {
	db     *DB
	id     string
	rng    *rand.Rand
	mails  int
	prefix string
	eng    *toyRules
}

func newDriver(db *DB, id string, seed uint64) *driver {
	return &driver{db: db, id: id, rng: rand.New(rand.NewPCG(seed, 1)), prefix: fmt.Sprint(seed), eng: toyEngine()}
}

// step applies the next step of the game and returns its entry.
func (d *driver) step() (*Entry, error) {
	g, err := d.db.Game(d.id)
	if err != nil {
		return nil, err
	}
	w := g.Wait
	s, err := testState(d.db, d.id)
	if err != nil {
		return nil, err
	}
	o := randomOrders(d.rng, s, w)
	raw := orderFile(d.id, RedactedToken, o)
	d.mails++
	msgid := fmt.Sprintf("<%s.%d.%s@players.test>", d.prefix, d.mails, d.id)
	ref := NewMailRef(msgid, raw)
	rf := func(out *Outcome) (reply, error) {
		var mails []Mail
		for _, to := range []string{"us", "jp", "umpire"} {
			mails = append(mails, Mail{MessageID: fmt.Sprintf("<r.%s.%s@attu.test>", to, msgid[1:len(msgid)-1]), InReplyTo: msgid,
				To: []string{to + "@example.org"}, Subject: fmt.Sprintf("[attu %s] turn %d", d.id, w.Turn), Text: reportText(to, w.Turn)})
		}
		return reply{Deadline: time.Date(1943, 5, 14, 8, 0, 0, 0, time.UTC), Outbox: mails}, nil
	}
	return d.db.apply(d.id, Step{Orders: o, Raw: raw, Received: time.Date(1943, 5, 11, 8, 0, d.mails, 0, time.UTC), Mail: &ref}, d.eng, rf)
}

// play applies n steps.
func (d *driver) play(t testing.TB, n int) {
	t.Helper()
	for range n {
		if _, err := d.step(); err != nil {
			t.Fatal(err)
		}
	}
}

func mustAudit(t testing.TB, x *Export) *Report {
	t.Helper()
	rep := Audit(x, toyEngine())
	if !rep.OK() {
		t.Fatalf("audit: %v", rep.Bad)
	}
	return rep
}

// rollback returns game id to entry to in a transaction of its own, with
// the deadline and the mails given.
func rollback(db *DB, id string, to uint64, note string, deadline time.Time, outbox []Mail) (*Entry, error) {
	var out *Entry
	_, err := db.Transact(id, nil, func(t *Txn) error {
		e, err := t.Rollback(to, note)
		if err != nil {
			return err
		}
		t.SetDeadline(deadline)
		t.Queue(outbox...)
		out = e
		return nil
	})
	return out, err
}

// reply is what a test answers a step with in its transaction, as the
// game service does: the mails to queue and the next deadline.
type reply struct {
	Deadline time.Time
	Outbox   []Mail
}

// apply applies a step to game id in a transaction of its own, answered
// by rf when given, and returns its entry; refusals and other errors come
// back as the transaction's.
func (db *DB) apply(id string, st Step, eng Rules, rf ...func(*Outcome) (reply, error)) (*Entry, error) {
	var out *Entry
	_, err := db.Transact(id, st.Mail, func(t *Txn) error {
		o, err := t.Apply(st, eng)
		if err != nil {
			return err
		}
		for _, f := range rf {
			r, err := f(o)
			if err != nil {
				return err
			}
			t.SetDeadline(r.Deadline)
			// The due time moves with every step, as a host's does, so
			// that the due index is rewritten in each step's transaction.
			t.SetDue(r.Deadline.Add(time.Duration(o.Entry.Seq) * time.Minute))
			t.Queue(r.Outbox...)
		}
		out = &o.Entry
		return nil
	})
	return out, err
}

// end ends game id with note in a transaction of its own.
func (db *DB) end(id, note string) (*Entry, error) {
	var e *Entry
	_, err := db.Transact(id, nil, func(t *Txn) (err error) {
		e, err = t.End(note)
		return err
	})
	return e, err
}

// startAt is a NewGame.Start that opens the game at s, rolling no dice.
func startAt(s *wind.State) func(adjudicator.Dice) (Position, json.RawMessage, error) {
	return func(adjudicator.Dice) (Position, json.RawMessage, error) { return s, nil, nil }
}
