package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// procedureEndTurn stands in for the end of turn until the rules have it:
// the turn advances and every unit may act again.
const procedureEndTurn = "end-turn"

// rulesEngine is the real rules, plus the stand-in end of turn.
func rulesEngine() Engine {
	return Engine{
		Resolve: func(s *adjudicator.State, o adjudicator.Orders, d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, error) {
			out, events, problems := adjudicator.ResolveActions(s, o, d)
			if len(problems) > 0 {
				return nil, nil, fmt.Errorf("%d problems, first: %v", len(problems), problems[0])
			}
			return out, events, nil
		},
		Procedure: func(s *adjudicator.State, name string, d adjudicator.Dice) (*adjudicator.State, []adjudicator.Event, error) {
			switch name {
			case ProcedureWeather:
				return s, []adjudicator.Event{adjudicator.RollWeather(s, d)}, nil
			case ProcedureAirpower:
				return s, adjudicator.RollAirpower(s, d), nil
			case procedureEndTurn:
				s.Turn++
				for _, u := range s.Units {
					u.Acted, u.MPSpent = false, 0
				}
				return s, []adjudicator.Event{{Kind: "turn", Text: fmt.Sprintf("turn %d begins", s.Turn)}}, nil
			}
			return nil, nil, errors.New("no such procedure")
		},
	}
}

// legalOrders moves up to four random units one hex each, keeping only the
// moves the rules accept.
func legalOrders(rng *rand.Rand, s *adjudicator.State, w Wait) *adjudicator.Orders {
	o := &adjudicator.Orders{Side: w.Side, Turn: w.Turn, Wait: w.Kind}
	var mine []*adjudicator.Unit
	for _, u := range s.OnMap() {
		if u.Side() == w.Side {
			mine = append(mine, u)
		}
	}
	used := map[string]bool{}
	for try := 0; try < 20 && len(o.Actions) < 4 && len(mine) > 0; try++ {
		u := mine[rng.IntN(len(mine))]
		nb := s.Map().Neighbours(u.Hex)
		if used[u.ID] || len(nb) == 0 {
			continue
		}
		cand := *o
		cand.Actions = append(append([]adjudicator.Action(nil), o.Actions...),
			adjudicator.Action{Move: &adjudicator.Move{Unit: u.ID, Path: []adjudicator.Hex{nb[rng.IntN(len(nb))]}}})
		if len(adjudicator.CheckActions(s, cand)) == 0 {
			*o = cand
			used[u.ID] = true
		}
	}
	return o
}

// A 20-turn game through the real rules: every step committed, the file
// small, the export audited by replaying it.
func TestTwentyTurnsWithTheRules(t *testing.T) {
	db, path := openTestDB(t)
	createTestGame(t, db, "g1") // waits for turn 1 weather
	eng := rulesEngine()
	rng := rand.New(rand.NewPCG(43, 43))
	steps, moves := 0, 0
	for {
		g, err := db.Game("g1")
		if err != nil {
			t.Fatal(err)
		}
		w := g.Wait
		if w.Turn > 20 {
			break
		}
		var next Wait
		switch {
		case w.Kind == waitWeather:
			next = Wait{Turn: w.Turn, Kind: waitAirpower}
		case w.Kind == waitAirpower:
			next = Wait{Turn: w.Turn, Kind: adjudicator.WaitActions, Side: adjudicator.US}
		case w.Side == adjudicator.US:
			next = Wait{Turn: w.Turn, Kind: adjudicator.WaitActions, Side: adjudicator.JP}
		case w.Side == adjudicator.JP:
			next = Wait{Turn: w.Turn, Kind: procedureEndTurn}
		default:
			next = Wait{Turn: w.Turn + 1, Kind: waitWeather}
		}
		if w.Side == adjudicator.NoSide {
			_, err = db.Apply(Step{Game: "g1", Procedure: w.Kind}, func(s *adjudicator.State, d adjudicator.Dice) (Result, error) {
				s, ev, err := eng.Procedure(s, w.Kind, d)
				return Result{State: s, Events: ev, Next: next}, err
			})
		} else {
			s, _ := db.State("g1")
			o := legalOrders(rng, s, w)
			moves += len(o.Actions)
			raw := orderFile("g1", RedactedToken, o)
			ref := NewMailRef(fmt.Sprintf("<%d@players.test>", steps), raw)
			_, err = db.Apply(Step{Game: "g1", Orders: o, Raw: raw, Mail: &ref}, func(s *adjudicator.State, d adjudicator.Dice) (Result, error) {
				s, ev, err := eng.Resolve(s, *o, d)
				var out []Mail
				for _, to := range []string{"us", "jp", "umpire"} {
					out = append(out, Mail{MessageID: fmt.Sprintf("<r.%s.%d@attu.test>", to, steps), To: []string{to}, Text: reportText(to, w.Turn)})
				}
				return Result{State: s, Events: ev, Next: next, Outbox: out}, err
			})
		}
		if err != nil {
			t.Fatalf("turn %d %s: %v", w.Turn, w.Kind, err)
		}
		steps++
	}
	if _, err := db.End("g1", "turns ran out", nil); err != nil {
		t.Fatal(err)
	}
	x := mustExport(t, db, "g1", false)
	if rep := Audit(x, eng); !rep.OK() || !rep.Replayed || !rep.SeedShown {
		t.Fatalf("audit: %+v", rep.Bad)
	}
	used := usedBytes(db)
	closeChecked(t, db)
	fi, _ := os.Stat(path)
	t.Logf("20 turns through the rules: %d steps, %d moves, %d dice: file %.2f MB, %.2f MB in use", steps, moves, len(x.Dice), float64(fi.Size())/(1<<20), float64(used)/(1<<20))
	if fi.Size() >= 5<<20 || moves < 100 {
		t.Errorf("%d bytes, %d moves", fi.Size(), moves)
	}
}
