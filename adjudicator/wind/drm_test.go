package wind

import "testing"

// Every line of the 8.3 table alone, in every column.
func TestDRMEachLine(t *testing.T) {
	cases := []struct {
		name  string
		sit   Situation
		want  int
		lines int
	}{
		{"melee higher", Situation{Combat: MeleeCombat, HigherLevel: true}, -2, 1},
		{"melee up slope", Situation{Combat: MeleeCombat, UpSlope: true}, -1, 1},
		{"melee out of supply", Situation{Combat: MeleeCombat, OutOfSupply: true}, -2, 1},
		{"melee williwaw", Situation{Combat: MeleeCombat, Weather: Williwaw}, -2, 1},
		{"melee fog", Situation{Combat: MeleeCombat, Weather: Fog}, -1, 1},
		{"melee rain", Situation{Combat: MeleeCombat, Weather: Rain}, -1, 1},
		{"melee night", Situation{Combat: MeleeCombat, Night: true}, -1, 1},
		{"melee night artillery", Situation{Combat: MeleeCombat, Night: true, Artillery: true}, 0, 0},
		{"melee 5 surround", Situation{Combat: MeleeCombat, Surround: 5}, 1, 1},
		{"melee 6 surround", Situation{Combat: MeleeCombat, Surround: 6}, 2, 1},
		{"melee 4 surround", Situation{Combat: MeleeCombat, Surround: 4}, 0, 0},
		{"melee face-down", Situation{Combat: MeleeCombat, FaceDown: true}, 0, 0},
		{"melee cloudy", Situation{Combat: MeleeCombat, Weather: Cloudy}, 0, 0},
		{"ranged higher", Situation{Combat: RangedCombat, HigherLevel: true}, -1, 1},
		{"ranged higher artillery", Situation{Combat: RangedCombat, HigherLevel: true, Artillery: true}, 0, 0},
		{"ranged up slope", Situation{Combat: RangedCombat, UpSlope: true}, 0, 0},
		{"ranged out of supply", Situation{Combat: RangedCombat, OutOfSupply: true}, -2, 1},
		{"ranged fog", Situation{Combat: RangedCombat, Weather: Fog}, -1, 1},
		{"ranged rain", Situation{Combat: RangedCombat, Weather: Rain}, 0, 0},
		{"ranged night", Situation{Combat: RangedCombat, Night: true}, 0, 0},
		{"ranged surround", Situation{Combat: RangedCombat, Surround: 6}, 0, 0},
		{"ranged face-down", Situation{Combat: RangedCombat, FaceDown: true}, -2, 1},
		{"air higher", Situation{Combat: AirCombat, HigherLevel: true}, 0, 0},
		{"air out of supply", Situation{Combat: AirCombat, OutOfSupply: true}, 0, 0},
		{"air williwaw", Situation{Combat: AirCombat, Weather: Williwaw}, -3, 1},
		{"air fog", Situation{Combat: AirCombat, Weather: Fog}, -2, 1},
		{"air rain", Situation{Combat: AirCombat, Weather: Rain}, -1, 1},
		{"air night", Situation{Combat: AirCombat, Night: true}, -1, 1},
		{"air night artillery rule does not apply", Situation{Combat: AirCombat, Night: true, Artillery: true}, -1, 1},
		{"air face-down", Situation{Combat: AirCombat, FaceDown: true}, -2, 1},
	}
	for _, c := range cases {
		got, why := DRM(c.sit)
		if got != c.want || len(why) != c.lines {
			t.Errorf("%s: DRM = %d %v, want %d with %d line(s)", c.name, got, why, c.want, c.lines)
		}
	}
}

// Lines add up (8.3: the modifiers are cumulative).
func TestDRMCumulative(t *testing.T) {
	// The 8.2 example: the company in 2617 is out of supply and attacks a
	// higher level with five hexes surrounded: -2 -2 +1 = -3; the one in
	// 2618 is in supply: -2 +1 = -1.
	if got, _ := DRM(Situation{Combat: MeleeCombat, HigherLevel: true, OutOfSupply: true, Surround: 5}); got != -3 {
		t.Errorf("8.2 example, 2617: %d, want -3", got)
	}
	if got, _ := DRM(Situation{Combat: MeleeCombat, HigherLevel: true, Surround: 5}); got != -1 {
		t.Errorf("8.2 example, 2618: %d, want -1", got)
	}
	// The 8.1 example: companies firing up hill -1; the 105mm battery none.
	if got, _ := DRM(Situation{Combat: RangedCombat, HigherLevel: true}); got != -1 {
		t.Errorf("8.1 example, companies: %d, want -1", got)
	}
	all, why := DRM(Situation{Combat: MeleeCombat, HigherLevel: true, UpSlope: true, OutOfSupply: true, Weather: Fog, Night: true, Surround: 6})
	if all != -2-1-2-1-1+2 || len(why) != 6 {
		t.Errorf("every melee line: %d %v", all, why)
	}
	if got, _ := DRM(Situation{Combat: AirCombat, Weather: Williwaw, Night: true, FaceDown: true}); got != -6 {
		t.Errorf("air williwaw night face-down: %d, want -6", got)
	}
	if got, _ := DRM(Situation{Combat: RangedCombat, HigherLevel: true, OutOfSupply: true, Weather: Fog, FaceDown: true}); got != -6 {
		t.Errorf("ranged every line: %d, want -6", got)
	}
}

func TestHits(t *testing.T) {
	// 8.1 example: 0, 9, 7, 3 at -1 hit on the 0 and the 9 (modified 8).
	if n := CountHits([]int{10, 9, 7, 3}, -1); n != 2 {
		t.Errorf("8.1 example hits = %d, want 2", n)
	}
	// A natural 0 always hits, however bad the modifiers.
	if !IsHit(10, -9) {
		t.Error("a natural 0 must always hit")
	}
	// 8.2 example: at -3 only a 0 hits: 9, 8, 8, 7, 4, 1 miss.
	if n := CountHits([]int{9, 8, 8, 7, 4, 1}, -3); n != 0 {
		t.Errorf("8.2 example 2617 hits = %d, want 0", n)
	}
	if n := CountHits([]int{8, 5, 4, 4, 2, 1}, -1); n != 1 {
		t.Errorf("8.2 example 2618 second round hits = %d, want 1", n)
	}
	if !IsHit(7, 0) || IsHit(6, 0) || !IsHit(5, 2) || IsHit(9, -3) {
		t.Error("a hit is a modified 7 or more")
	}
	if got := DiceText([]int{10, 9, 7, 3}, -1); got != "10, 9, 7, 3 (-1: 9, 8, 6, 2)" {
		t.Errorf("DiceText = %q", got)
	}
}
