package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
	bolt "go.etcd.io/bbolt"
)

// unsound are positions no game reaches, each made from a sound one, with
// what Validate says about them.
var unsound = []struct {
	name  string
	spoil func(s *wind.State) // s is attached
	says  string
}{
	{"a unit in the sea", func(s *wind.State) { firstOnMap(s).Hex = 101 }, "which is not a land hex"},
	{"a unit with 9 steps", func(s *wind.State) { firstOnMap(s).Steps = 9 }, "has 9 steps"},
	{"two units with one id", func(s *wind.State) { s.Units[1].ID = s.Units[0].ID }, "is in the position twice"},
}

func firstOnMap(s *wind.State) *wind.Unit { return s.OnMap()[0] }

// spoilJSON decodes a position, spoils it and encodes it again.
func spoilJSON(t *testing.T, js []byte, spoil func(s *wind.State)) []byte {
	t.Helper()
	s, err := decodeTestState(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("the position was unsound before it was spoilt: %v", err)
	}
	spoil(s)
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUnsoundSnapshot alters the current snapshot of a game in the file,
// as a bug or a hand could: Apply plays nothing on it, naming the game and
// the entry, and Check reports it.
func TestUnsoundSnapshot(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	d := newDriver(db, "g1", 3)
	d.play(t, 4)
	g, err := db.Game("g1")
	if err != nil {
		t.Fatal(err)
	}
	seq := g.Current
	put := func(v []byte) {
		t.Helper()
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			return tx.Bucket(bGames).Bucket([]byte("g1")).Bucket(bSnapshots).Put(u64(seq), v)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var orig []byte
	db.bolt.View(func(tx *bolt.Tx) error {
		orig = append([]byte(nil), tx.Bucket(bGames).Bucket([]byte("g1")).Bucket(bSnapshots).Get(u64(seq))...)
		return nil
	})
	js, err := unpackValue(orig)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range unsound {
		t.Run(c.name, func(t *testing.T) {
			put(packValue(spoilJSON(t, js, c.spoil)))
			defer put(orig) // the test database is checked when it closes

			o := &wind.Orders{Side: g.Wait.Side, Turn: g.Wait.Turn, Wait: g.Wait.Kind}
			_, err := db.apply("g1", Step{Orders: o, Raw: orderFile("g1", RedactedToken, o)}, toyEngine())
			where := fmt.Sprintf("game g1, snapshot of entry %d", seq)
			if !errors.Is(err, ErrUnsound) || !strings.Contains(err.Error(), where) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("applying orders on it: %v\nwant ErrUnsound naming %q and saying %q", err, where, c.says)
			}
			err = db.Check(toyEngine())
			if want := fmt.Sprintf("game g1: entry %d: snapshot: %v", seq, ErrUnsound); err == nil ||
				!strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("Check: %v\nwant %q and %q", err, want, c.says)
			}
		})
	}
	if _, err := d.step(); err != nil {
		t.Fatalf("the game restored: %v", err)
	}
}

// TestAuditUnsoundOpening spoils the opening position of an export and
// forges the hashes to match: the audit refuses the opening.
func TestAuditUnsoundOpening(t *testing.T) {
	x := endedGame(t)
	for _, c := range unsound {
		y := clone(t, x)
		y.InitialState = spoilJSON(t, y.InitialState, c.spoil)
		editEntry(t, y, 0, func(e *Entry) { e.State = hashHex(y.InitialState) })
		rechain(t, y)
		rep := Audit(y, toyEngine())
		if rep.OK() || rep.Bad.Entry != 1 || !strings.Contains(rep.Bad.What, "the opening position is not one the rules can reach") ||
			!strings.Contains(rep.Bad.What, c.says) {
			t.Fatalf("%s: the audit finds %v", c.name, rep.Bad)
		}
	}
}

// TestAuditUnsoundReplay replays a game with an engine that, at its third
// step, leaves a position no game reaches: the audit names that entry,
// before it compares the position with the record.
func TestAuditUnsoundReplay(t *testing.T) {
	x := endedGame(t)
	for _, c := range unsound {
		eng := toyEngine()
		calls := 0
		eng.resolve = func(s *wind.State, o wind.Orders, d wind.Dice) (*wind.State, []wind.Event, []wind.Problem) {
			s, ev, err := toyResolve(s, o, d)
			if calls++; calls == 3 {
				c.spoil(s)
			}
			return s, ev, err
		}
		rep := Audit(x, eng)
		if rep.OK() || rep.Bad.Entry != 4 || !strings.Contains(rep.Bad.What, "the replay reaches a position the rules cannot") ||
			!strings.Contains(rep.Bad.What, c.says) {
			t.Fatalf("%s: the audit finds %v, want entry 4 (the third step)", c.name, rep.Bad)
		}
	}
}

// TestUnsoundNotStored checks that Create and Apply refuse to store a
// position no game reaches, and write nothing.
func TestUnsoundNotStored(t *testing.T) {
	db, _ := openTestDB(t)
	for _, c := range unsound {
		s := openingState()
		c.spoil(s)
		_, err := db.Create(NewGame{Rules: toyEngine(), ID: "g-" + c.name, Seed: testSeed(), Start: startAt(s)})
		if !errors.Is(err, ErrUnsound) || !strings.Contains(err.Error(), c.says) {
			t.Fatalf("%s: Create: %v, want ErrUnsound saying %q", c.name, err, c.says)
		}
	}
	createTestGame(t, db, "g1")
	d := newDriver(db, "g1", 5)
	d.play(t, 2)
	for _, c := range unsound {
		d.eng.resolve = func(s *wind.State, o wind.Orders, dice wind.Dice) (*wind.State, []wind.Event, []wind.Problem) {
			s, ev, err := toyResolve(s, o, dice)
			c.spoil(s)
			return s, ev, err
		}
		_, err := d.step()
		want := "game g1, the position after entry 4"
		if !errors.Is(err, ErrUnsound) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), c.says) {
			t.Fatalf("%s: Apply: %v, want ErrUnsound naming %q, saying %q", c.name, err, want, c.says)
		}
	}
	if g, err := db.Game("g1"); err != nil || g.Entries != 3 {
		t.Fatalf("the game has %d entries (%v), want 3: nothing stored", g.Entries, err)
	}
	if games, _ := db.Games(); len(games) != 1 {
		t.Fatalf("games %v, want only g1", games)
	}
}
