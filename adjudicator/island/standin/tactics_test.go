package standin

import (
	"testing"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// arrange gives a Ridge 42 position with only the units named on the map,
// the rest eliminated, in side's phase of Game-Turn 2.
func arrange(t *testing.T, e *island.Engine, side island.Side, phase island.Phase, at map[string]string) island.Position {
	t.Helper()
	p, _ := e.Start()
	p.Turn, p.Phasing, p.Phase, p.Combats = 2, side, phase, 2
	if phase == island.PhaseCombat {
		p.Combats = 3
	}
	p.GSP = map[island.Side]int{island.US: 0, island.Japan: 0}
	for i := range p.Pieces {
		p.Pieces[i].Where, p.Pieces[i].Hex, p.Pieces[i].Due = island.Eliminated, island.Hex{}, 0
	}
	for id, hs := range at {
		h, err := island.ParseHex(hs)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for i := range p.Pieces {
			if p.Pieces[i].ID == id {
				p.Pieces[i].Where, p.Pieces[i].Hex, found = island.OnMap, h, true
			}
		}
		if !found {
			t.Fatalf("no unit %s", id)
		}
	}
	return p
}

func attackOn(o island.Orders, id string) (island.Attack, bool) {
	for _, a := range o.Attacks {
		if contains(a.Defenders, id) {
			return a, true
		}
	}
	return island.Attack{}, false
}

// A gun out of contact with an attacked enemy in range joins the attack
// as barrage (rule 8.11), and the combat orders pass the engine.
func TestBarrageFromOutOfContact(t *testing.T) {
	e := ridge42(t)
	// 1/5 in 0404 is next to II/124 in 0504; the gun in 0202 is 3 hexes
	// from it, within its range of 5, and next to no enemy.
	p := arrange(t, e, island.US, island.PhaseCombat, map[string]string{"1/5": "0404", "II/124": "0504", "1/11": "0202"})
	o := Orders(e, p, island.US, 1)
	if ps := e.CheckAttacks(p, o.Attacks); len(ps) > 0 {
		t.Fatal(ps)
	}
	a, ok := attackOn(o, "II/124")
	if !ok || !contains(a.Attackers, "1/5") || !contains(a.Barrage, "1/11") {
		t.Fatalf("want 1/5 attacking II/124 with 1/11's barrage; got %+v", o.Attacks)
	}
}

// Beating a defender out of a scoring hex, the stand-in follows it in
// (rule 7.9): Hill 42 is worth points to the U.S.
func TestAdvanceIntoScoringHex(t *testing.T) {
	e := ridge42(t)
	p := arrange(t, e, island.US, island.PhaseCombat, map[string]string{
		"MG/124": "0904", "1/5": "0905", "2/5": "1004", "3/5": "0805",
	})
	o := Orders(e, p, island.US, 1)
	if ps := e.CheckAttacks(p, o.Attacks); len(ps) > 0 {
		t.Fatal(ps)
	}
	a, ok := attackOn(o, "MG/124")
	if !ok || len(a.Advance) != 1 || a.Advance[0].To.String() != "0904" {
		t.Fatalf("want an advance into 0904; got %+v", o.Attacks)
	}
}

// Every unit the enemy can reach gets final protective fire from the guns
// in range, on a condition: only against attacks at dangerous odds
// (rules 8.4, 8.42).
func TestFPFPlansHaveConditions(t *testing.T) {
	e := ridge42(t)
	p := arrange(t, e, island.US, island.PhaseMovement, map[string]string{
		"I/124": "0603", "M/28": "0804", "1/5": "0403",
	})
	d := Defence(e, p, island.Japan, 1)
	found := false
	for _, f := range d.FPF {
		if f.Protect == "I/124" && contains(f.Artillery, "M/28") {
			found = true
			if f.MinDifferential == nil {
				t.Errorf("FPF for I/124 has no condition: %+v", f)
			}
		}
	}
	if !found {
		t.Fatalf("no FPF plan for I/124 from M/28: %+v", d.FPF)
	}
	if Defence(e, p, island.US, 1).FPF != nil {
		t.Error("the phasing side gave standing instructions")
	}
}

// From the set-up, the U.S. moves toward Hill 42 and Kobu, the hexes its
// points hang on.
func TestMovesTowardScoringHexes(t *testing.T) {
	e := ridge42(t)
	p, _ := e.Start()
	for p.Phase == island.PhaseSetup {
		p, _, _ = e.Deploy(p, Deploy(e, p, p.Phasing, 3))
	}
	hill, _ := island.ParseHex("0904")
	sum := func(p island.Position) int {
		n := 0
		for i, pc := range p.Pieces {
			if pc.Where == island.OnMap && e.S.Units[i].Side == island.US {
				n += e.S.Grid.Distance(pc.Hex, hill)
			}
		}
		return n
	}
	q, _, ps := e.Move(p, Orders(e, p, island.US, 3))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if sum(q) >= sum(p) {
		t.Errorf("the U.S. units are %d hexes in all from Hill 42 after moving, %d before", sum(q), sum(p))
	}
}
