package standin

import "github.com/attu-pbem/attu/adjudicator/island"

// worth is what the scenario's victory conditions make of each hex and
// unit for the side the stand-in plays (rule 3.0: each game's own
// conditions). Both sides value a scoring hex alike: what one scores the
// other denies.
type worth struct {
	ctrl map[island.Hex]float64 // points hung on the last side to be in a hex
	occ  map[island.Hex]float64 // points hung on the side in a hex
}

func (v *view) worth() worth {
	w := worth{ctrl: map[island.Hex]float64{}, occ: map[island.Hex]float64{}}
	for _, sc := range v.s.Victory.Scores {
		if sc.Count != island.CountHexes || (sc.Turn != 0 && sc.Turn < v.p.Turn) {
			continue // banked already, or counted at the end of a past Game-Turn
		}
		hs := append(append([]island.Hex(nil), sc.Hexes...), v.s.Areas[sc.Area]...)
		for _, h := range hs {
			if sc.Held == island.HeldControl {
				w.ctrl[h] += float64(sc.Points)
			} else {
				w.occ[h] += float64(sc.Points)
			}
		}
	}
	return w
}

// owner gives who controls a scoring hex now: the last side in it, or
// the scenario's owner before anyone entered.
func (v *view) owner(h island.Hex) island.Side {
	if s, ok := v.p.Control[h]; ok {
		return s
	}
	return v.s.Victory.Owner[h]
}

// goal is a hex worth going to and how much.
type goal struct {
	hex  island.Hex
	want float64
}

// goals gives the scoring hexes the side still has a use for: those whose
// control it lacks, those it holds without a unit in them, and those a
// unit scores by being in.
func (v *view) goals(w worth) []goal {
	var out []goal
	add := func(h island.Hex, x float64) {
		for k := range out {
			if out[k].hex == h {
				out[k].want += x
				return
			}
		}
		out = append(out, goal{h, x})
	}
	for _, h := range sortedKeys(w.ctrl) {
		x := w.ctrl[h]
		j := v.at(h)
		switch {
		case j >= 0 && v.side(j) == v.me:
		case v.owner(h) != v.me:
			add(h, x)
		default:
			add(h, x/2) // held but empty: a garrison keeps it
		}
	}
	for _, h := range sortedKeys(w.occ) {
		if j := v.at(h); j < 0 || v.side(j) != v.me {
			add(h, w.occ[h])
		}
	}
	return out
}

func sortedKeys(m map[island.Hex]float64) []island.Hex {
	out := make([]island.Hex, 0, len(m))
	for h := range m {
		out = append(out, h)
	}
	sortHexes(out)
	return out
}

// points gives the victory points side s scores for the elimination of
// unit j (rule 3.0's conditions, by unit or class).
func (v *view) points(s island.Side, j int) float64 {
	n := 0
	u := v.unit(j)
	for _, sc := range v.s.Victory.Scores {
		if sc.Count != island.CountEliminated || sc.Side != s || u.Side == s {
			continue
		}
		if len(sc.Units) > 0 && !contains(sc.Units, u.ID) {
			continue
		}
		if sc.Class != "" && v.cls[j] != sc.Class {
			continue
		}
		n += sc.Points
	}
	return float64(n)
}

// loss is what losing unit j costs its own side: the points the enemy
// scores for it and the unit's use in the rest of the game.
func (v *view) loss(j int) float64 {
	u := v.unit(j)
	use := 0.6 + 0.1*float64(max(u.Attack, u.Barrage)+u.Defense)
	return v.points(u.Side.Enemy(), j) + use
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
