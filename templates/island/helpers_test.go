package island

import (
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	iw "github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/adjudicator/island/autoplay"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/templates"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// rolls is a die that gives its faces in turn, over and over.
type rolls struct {
	faces []int
	n     int
}

func (r *rolls) Roll(adjudicator.Die) int {
	f := r.faces[r.n%len(r.faces)]
	r.n++
	return f
}

// opening is a new Ridge 42 game.
func opening(t testing.TB) *Position {
	t.Helper()
	c, err := Rules{}.Open(adjudicator.Choices{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := c.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*Position)
}

// step resolves o on p and requires it applied.
func step(t testing.TB, p *Position, o adjudicator.Orders, d adjudicator.Dice) (*Position, []json.RawMessage) {
	t.Helper()
	next, evs, ref := Rules{}.Resolve(p, o, d)
	if ref != nil {
		t.Fatalf("%s: refused: %v", p.Game, ref.Problems)
	}
	var raw []json.RawMessage
	if len(evs) > 0 {
		if err := json.Unmarshal(evs, &raw); err != nil {
			t.Fatal(err)
		}
	}
	return next.(*Position), raw
}

// read reads an order file and requires it sound.
func read(t testing.TB, raw string) adjudicator.Orders {
	t.Helper()
	o, err := Rules{}.Read([]byte(raw))
	if err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	return o
}

// randomGame plays a Ridge 42 game with the stand-in's files for both
// sides, each side asking for the defence wait when ask says, and
// returns every position it went through with the events that led to it.
func randomGame(t testing.TB, seed uint64, ask func(s iw.Side, turn int) bool) ([]*Position, [][]json.RawMessage) {
	t.Helper()
	p := opening(t)
	ps, evs := []*Position{p}, [][]json.RawMessage{nil}
	d := &rolls{faces: []int{int(seed%6) + 1, 4, 2, 6, 1, 5, 3}}
	r := autoplay.NewRand(seed)
	for i := 0; i < 200 && p.Wait().Open(); i++ {
		ord := randomOrders(p, r.Uint64())
		side := ruleSide(ord.Side)
		if ask != nil {
			as := p.Game.Clone()
			as.Phasing = side.Enemy() // autoplay defends for the side not phasing
			st := oi.Standing{Ask: ask(side, p.Game.Turn), Defence: autoplay.Defence(p.e, as, r)}
			ord.Standing = &st
		}
		var e []json.RawMessage
		p, e = step(t, p, ord, d)
		ps, evs = append(ps, p), append(evs, e)
	}
	return ps, evs
}

// reportFor asks for side's report of p.
func reportFor(p *Position, side adjudicator.Side, evs []json.RawMessage) templates.ReportFor {
	return templates.ReportFor{Game: templates.Game{ID: "g1"}, Position: p, Side: side, Events: evs}
}

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./templates/island -update)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs (run go test ./templates/island -update and review the diff):\n%s", path, got)
	}
}

// randomOrders are the legal random player's orders for what p waits
// for: generated games wander further than the stand-in's, so the tests
// over them see more kinds of positions.
func randomOrders(p *Position, seed uint64) oi.Orders {
	e, g, w := p.e, p.Game, p.Wait()
	o := oi.Orders{Side: w.Side, Turn: w.Turn, Wait: w.Kind}
	r := autoplay.NewRand(seed)
	switch w.Kind {
	case oi.WaitSetup:
		o.Setup = autoplay.Deploy(e, g, r)
	case oi.WaitOrders:
		play := standInOrders(e, g, r)
		o.Play = &play
	case oi.WaitDefence:
		d := autoplay.Defence(e, g, r)
		o.Defence = &d
	}
	return o
}

// standInOrders are the random player's moves, then its attacks from
// where they end.
func standInOrders(e *iw.Engine, g iw.Position, r *autoplay.Rand) iw.Orders {
	o := iw.Orders{Moves: autoplay.Moves(e, g, r)}
	q, _, ps := e.Move(g, o)
	if len(ps) > 0 {
		return iw.Orders{Attacks: dutyAttacks(e, g)}
	}
	o.Attacks = autoplay.Attacks(e, q, r)
	o.Own = autoplay.Instructions(e, q, q.Phasing, r)
	return o
}
