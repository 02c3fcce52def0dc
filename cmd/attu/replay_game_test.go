package main

import (
	"errors"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/orders"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/store"
)

// replayGame plays a campaign game through the store, as the game service
// stores one: a random deployment (autoplay.Deploy) and the Komandorski
// chits from the game's dice, then every file from the random legal player (autoplay) of the side
// awaited, written as a player would mail it and stored with its token
// redacted. It plays until turn turns is over or the game ends, then the
// umpire ends it and the export, seed included, is returned.
func replayGame(t testing.TB, id string, seed []byte, turns int, pickSeed uint64) *store.Export {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "attu.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(pickSeed, pickSeed))
	pick := func(n int) int { return rng.IntN(n) }
	deploy := func(s *wind.State) error { autoplay.Deploy(s, pick); return nil }
	_, err = db.Create(store.NewGame{Rules: windsys.Rules{},
		ID: id, Scenario: wind.ScenarioCampaign, Seed: seed, Start: windsys.StartPlaced(deploy),
		Players: []store.NewPlayer{
			{Side: adjudicator.US, Address: "us@example.org", Token: "us-secret-token"},
			{Side: adjudicator.JP, Address: "jp@example.org", Token: "jp-secret-token"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for files := 1; ; files++ {
		s, err := windsys.State(db.Position(id))
		if err != nil {
			t.Fatal(err)
		}
		w := s.Wait()
		if w.Side == adjudicator.NoSide || w.Turn > turns {
			break
		}
		o := autoplay.Orders(s, pick)
		raw, err := orderFile(id, o.Side.String()+"-secret-token", o)
		if err != nil {
			t.Fatal(err)
		}
		f, err := windorders.Parse(raw, windorders.Options{})
		if err != nil {
			t.Fatalf("file %d does not parse: %v\n%s", files, err, raw)
		}
		o = f.Orders()
		ref := store.NewMailRef(fmt.Sprintf("<%d.%s@players.test>", files, id), raw)
		_, err = applyStep(db, id, store.Step{Orders: &o, Raw: orders.Redact(raw), Mail: &ref,
			Received: time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC).Add(time.Duration(files) * time.Hour)})
		if err != nil {
			t.Fatalf("file %d (turn %d %s from %s): %v", files, o.Turn, o.Wait, o.Side, err)
		}
	}
	if g, err := db.Game(id); err == nil && g.Status != store.Ended {
		if err := endGame(db, id, "the umpire ends the game"); err != nil {
			t.Fatal(err)
		}
	}
	x, err := db.Export(id, false)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// twentyTurnGame is a campaign game played to its last turn, turn 20 (the
// Komandorski delay of its seed puts the end there, rule 12.1.3), with a
// melee or more most turns: the replay pages' tests share it.
var twentyTurnGame = sync.OnceValues(func() (*store.Export, error) {
	// Fatal ends the goroutine that plays (runtime.Goexit), as it ends a
	// test, so the game is played in one of its own.
	var t fixtureT
	var x *store.Export
	done := make(chan struct{})
	go func() {
		defer close(done)
		x = replayGame(&t, "g20", twentyTurnSeed(), 20, 3)
	}()
	<-done
	if t.dir != "" {
		os.RemoveAll(t.dir)
	}
	if t.err != nil {
		return nil, t.err
	}
	return x, nil
})

func twentyTurnSeed() []byte {
	seed := make([]byte, store.SeedSize)
	seed[0] = 3
	return seed
}

// fixtureT is the testing.TB of a fixture shared by several tests: it
// keeps the first failure for the test that asks for the fixture.
type fixtureT struct {
	testing.TB
	err error
	dir string
}

func (t *fixtureT) Helper() {}
func (t *fixtureT) Fatal(args ...any) {
	t.err = errors.New(fmt.Sprint(args...))
	runtime.Goexit()
}
func (t *fixtureT) Fatalf(format string, args ...any) {
	t.err = fmt.Errorf(format, args...)
	runtime.Goexit()
}
func (t *fixtureT) TempDir() string {
	if t.dir == "" {
		t.dir, t.err = os.MkdirTemp("", "attu-replay-")
	}
	return t.dir
}
