package island

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	iw "github.com/attu-pbem/attu/adjudicator/island"
	oi "github.com/attu-pbem/attu/orders/island"
)

// TestRandomGamesPlayToTheEnd plays whole games with the stand-in for
// both sides, some with defence waits, each position read back from its
// JSON the same and sound.
func TestRandomGamesPlayToTheEnd(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		ps, _ := randomGame(t, seed, func(s iw.Side, turn int) bool { return (int(seed)+turn)%3 == 0 })
		last := ps[len(ps)-1]
		if !last.Wait().Over() {
			t.Fatalf("seed %d: the game did not end: %s", seed, last.Game)
		}
		defences := 0
		for _, p := range ps {
			if p.Wait().Kind == oi.WaitDefence {
				defences++
			}
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			q, err := Rules{}.Position(b)
			if err != nil {
				t.Fatal(err)
			}
			if err := q.Validate(); err != nil {
				t.Fatalf("seed %d: %s: %v", seed, p.Game, err)
			}
			if c, _ := json.Marshal(q); string(c) != string(b) {
				t.Fatalf("seed %d: position does not read back the same:\n%s\n%s", seed, b, c)
			}
		}
		if defences == 0 {
			t.Errorf("seed %d: no defence wait in a game whose sides asked for them", seed)
		}
	}
}

// TestDefaultOrdersLegal: the default orders of IW27 are legal in every
// position of many random games, and written as a file they read back.
func TestDefaultOrdersLegal(t *testing.T) {
	n := 0
	for seed := uint64(10); seed < 16; seed++ {
		ps, _ := randomGame(t, seed, func(s iw.Side, turn int) bool { return turn%2 == 0 })
		for _, p := range ps {
			if !p.Wait().Open() {
				continue
			}
			raw, o, err := Rules{}.DefaultFile("g1", p, "the deadline passed")
			if err != nil {
				t.Fatal(err)
			}
			if ps := (Rules{}).Check(p, o); len(ps) > 0 {
				t.Fatalf("%s: default orders refused: %v\n%s\n%s", p.Game, ps, raw, p.e.Text(p.Game))
			}
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d positions tried", n)
	}
}

// TestResolveRefusesWhole: a file whose attacks break the duty to attack
// is refused whole, moves included (IW23), and changes nothing; the
// problem is placed at its line.
func TestResolveRefusesWhole(t *testing.T) {
	p := opening(t)
	for p.Wait().Kind == oi.WaitSetup {
		_, o, err := Rules{}.DefaultFile("g1", p, "test")
		if err != nil {
			t.Fatal(err)
		}
		p, _ = step(t, p, o, &rolls{faces: []int{1}})
	}
	before, _ := json.Marshal(p)
	// 1/11 starts next to nothing; an attack on I/124 by 1/11 from 0204
	// is no adjacent attack and no barrage in range.
	held := map[iw.Hex]bool{}
	for _, pc := range p.Game.Pieces {
		held[pc.Hex] = pc.Where == iw.OnMap
	}
	var to iw.Hex
	for h := range p.e.Reach(p.Game, "1/5") {
		if !held[h] && (to == iw.Hex{} || h.String() < to.String()) {
			to = h
		}
	}
	raw := `game: g1
side: us
turn: 1
wait: orders
token: t
moves:
  - {unit: 1/5, path: ["` + strings.ReplaceAll(hexes(p.e.Reach(p.Game, "1/5")[to]), "-", `", "`) + `"]}
attacks:
  - {defenders: [I/124], attackers: [1/11]}
`
	_, _, ref := Rules{}.Resolve(p, read(t, raw), &rolls{faces: []int{6}})
	if ref == nil || ref.Stale {
		t.Fatalf("refusal %+v, want an illegal file", ref)
	}
	found := false
	for _, pr := range ref.Problems {
		if pr.Line == 9 {
			found = true
		}
	}
	if !found {
		t.Errorf("no problem placed at the attack's line 9: %v", ref.Problems)
	}
	after, _ := json.Marshal(p)
	if string(before) != string(after) {
		t.Error("a refused file changed the position")
	}
	stale := strings.Replace(raw, "turn: 1", "turn: 2", 1)
	if _, _, ref := (Rules{}).Resolve(p, read(t, stale), nil); ref == nil || !ref.Stale {
		t.Errorf("a file for Game-Turn 2 is not stale: %+v", ref)
	}
}

// TestOpening: the audit's check of the opening accepts the start and
// refuses a position moved by hand.
func TestOpening(t *testing.T) {
	p := opening(t)
	if err := (Rules{}).Opening(p, nil); err != nil {
		t.Fatal(err)
	}
	q := p.clone()
	for i := range q.Game.Pieces {
		if q.Game.Pieces[i].Where == iw.OnMap {
			q.Game.Pieces[i].Hex = iw.Hex{Col: 12, Row: 9}
			break
		}
	}
	if err := (Rules{}).Opening(q, nil); err == nil {
		t.Error("an opening moved by hand passes")
	}
	if _, err := (Rules{}).Open(adjudicator.Choices{Scenario: "saipan"}, nil); err == nil {
		t.Error("an unknown scenario opens")
	}
}

// TestScenarioFoundByHash: a position names its scenario by the SHA-256
// of its file; a catalog without that file refuses it and says which.
func TestScenarioFoundByHash(t *testing.T) {
	p := opening(t)
	b, _ := json.Marshal(p)
	renamed := WithScenarios(map[string][]byte{"my-ridge": Shipped[DefaultScenario]})
	var q Position
	json.Unmarshal(b, &q)
	q.Scenario.Name = "my-ridge"
	b2, _ := json.Marshal(&q)
	if _, err := renamed.Position(b2); err != nil {
		t.Fatalf("a renamed scenario file: %v", err)
	}
	q.Scenario.SHA256 = strings.Repeat("0", 64)
	b3, _ := json.Marshal(&q)
	if _, err := (Rules{}).Position(b3); err == nil || !strings.Contains(err.Error(), "my-ridge") {
		t.Errorf("an unknown scenario file: %v", err)
	}
}

// TestShippedScenariosUnchanged pins the SHA-256 of every shipped
// scenario file: a game finds its scenario by that hash, so a file
// changed even in a comment strands every game played with it. Ship a
// changed scenario as a new file under a new name instead.
func TestShippedScenariosUnchanged(t *testing.T) {
	want := map[string]string{DefaultScenario: "81d98915a808ed6e321086f975e298eb7ea34836293a18ac54e48ac72249686b"}
	for name, raw := range Shipped {
		if got := refOf(name, raw).SHA256; got != want[name] {
			t.Errorf("shipped scenario %s hashes to %s, want %s: games played with it would no longer find it", name, got, want[name])
		}
	}
}
