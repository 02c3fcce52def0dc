package wind

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// synthMap builds a small map (columns 10-20, rows 5-20) where every hex is
// land at level 1 except those given, with the slopes and cliffs given as
// MapFile hexsides ("1512-1511": the art lies in the lower hex, 5.3). Tests
// of line of sight pose the cases of the rulebook's diagram on it.
func synthMap(t testing.TB, levels map[Hex]int, slopes, cliffs []string) *Map {
	t.Helper()
	var y strings.Builder
	y.WriteString("name: synthetic\ncolumns: [10, 20]\nrows: [5, 20]\nlevels: |\n")
	for r := 5; r <= 20; r++ {
		y.WriteString("  ")
		for c := 10; c <= 20; c++ {
			l, ok := levels[MakeHex(c, r)]
			if !ok {
				l = 1
			}
			fmt.Fprintf(&y, "%d", l)
		}
		y.WriteString("\n")
	}
	y.WriteString("zones: |\n")
	for r := 5; r <= 20; r++ {
		y.WriteString("  " + strings.Repeat("Z", 11) + "\n")
	}
	y.WriteString("zone_names: {Z: Test}\n")
	fmt.Fprintf(&y, "slopes: [%s]\ncliffs: [%s]\n", strings.Join(slopes, ", "), strings.Join(cliffs, ", "))
	m, err := ParseMap([]byte(y.String()))
	if err != nil {
		t.Fatalf("synthetic map: %v\n%s", err, y.String())
	}
	return m
}

func TestCubeDirMatchesStep(t *testing.T) {
	for _, h := range BuiltinMap().LandHexes() {
		for d := North; d <= NorthWest; d++ {
			if got := cubeOf(h.Step(d)).sub(cubeOf(h)); got != cubeDir[d] {
				t.Fatalf("%s %s: cube step %v, want %v", h, d, got, cubeDir[d])
			}
		}
		if back := cubeOf(h).hex(); back != h {
			t.Fatalf("%s round-trips through cube as %s", h, back)
		}
	}
}

// epsFrac is (p + ε·q)/b for an infinitesimal ε > 0, b > 0.
type epsFrac struct{ p, q, b int }

func (x epsFrac) less(y epsFrac) bool {
	if l, r := x.p*y.b, y.p*x.b; l != r {
		return l < r
	}
	return x.q*y.b < y.q*x.b
}

// cellsOnLine finds, independently of walkLine, every cell that the line
// from a to b shifted by s·ε·e meets for a positive length, in order: it
// intersects the line with each candidate cell's six half-planes.
func cellsOnLine(a, b cube, s int) []cube {
	d := b.sub(a)
	e := cube{d.y - d.z, d.z - d.x, d.x - d.y}
	n := a.dist(b)
	type hit struct {
		h  cube
		lo epsFrac
	}
	var hits []hit
	for x := -n - 1; x <= n+1; x++ {
		for z := -n - 1; z <= n+1; z++ {
			h := a.add(cube{x, -x - z, z})
			lo, hi := epsFrac{0, 0, 1}, epsFrac{1, 0, 1}
			in := true
			for k := range 6 {
				B := d.dot(cubeDir[k])
				A := 1 - a.sub(h).dot(cubeDir[k])
				C := e.dot(cubeDir[k])
				switch {
				case B > 0:
					if u := (epsFrac{A, -s * C, B}); u.less(hi) {
						hi = u
					}
				case B < 0:
					if l := (epsFrac{-A, s * C, -B}); lo.less(l) {
						lo = l
					}
				default:
					if A < 0 || A == 0 && -s*C <= 0 {
						in = false
					}
				}
			}
			if in && lo.less(hi) {
				hits = append(hits, hit{h, lo})
			}
		}
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].lo.less(hits[j].lo) })
	out := make([]cube, len(hits))
	for i, h := range hits {
		out[i] = h.h
	}
	return out
}

func walkCells(a, b cube, s int) []cube {
	out := []cube{a}
	walkLine(a, b, s, func(h cube, k int) bool {
		out = append(out, h.add(cubeDir[k]))
		return false
	})
	return out
}

// TestWalkLineExact checks the cell walk against a direct intersection of
// the line with every cell, for every line up to 10 hexes long, both shifts.
func TestWalkLineExact(t *testing.T) {
	a := cube{0, 0, 0}
	grazes := 0
	for x := -10; x <= 10; x++ {
		for z := -10; z <= 10; z++ {
			b := cube{x, -x - z, z}
			if a.dist(b) < 2 || a.dist(b) > 10 {
				continue
			}
			for _, s := range []int{1, -1} {
				got, want := walkCells(a, b, s), cellsOnLine(a, b, s)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("line %v→%v shift %d: walk %v, want %v", a, b, s, got, want)
				}
				// Reversed, the same line with the shift on the other side.
				rev := walkCells(b, a, -s)
				for i := range rev {
					if rev[i] != got[len(got)-1-i] {
						t.Fatalf("line %v→%v shift %d: reversed walk %v", a, b, s, rev)
					}
				}
			}
			if fmt.Sprint(walkCells(a, b, 1)) != fmt.Sprint(walkCells(a, b, -1)) {
				grazes++
			}
		}
	}
	if grazes == 0 {
		t.Error("no line touched a corner; the two shifts are not being told apart")
	}
}

func TestLOSBuiltin(t *testing.T) {
	m := BuiltinMap()
	// The ranged combat example relies on this: the line runs along the
	// 2618/2718 side, both level 1, below Engineer Hill (level 3).
	if ok, why := LOS(m, 2619, 2717); !ok {
		t.Errorf("2619 cannot see 2717: %s", why)
	}
	if ok, why := LOS(m, 2717, 2619); !ok {
		t.Errorf("2717 cannot see 2619: %s", why)
	}
	if ok, _ := LOS(m, 2717, 2717); !ok {
		t.Error("a hex does not see itself")
	}
	if ok, _ := LOS(m, 2717, 2817); !ok {
		t.Error("adjacent hexes across a cliff do not see each other")
	}
	ok, why := LOS(m, 2821, 2717)
	if ok || !strings.Contains(why, "2819 (level 1)") {
		t.Errorf("2821→2717 = %v %q, want blocked by 2819", ok, why)
	}
}

// TestLOSSymmetric: on the built-in map, every pair of land hexes up to six
// apart sees each other both ways or neither, for the same reason.
func TestLOSSymmetric(t *testing.T) {
	m := BuiltinMap()
	land := m.LandHexes()
	pairs, blocked := 0, 0
	for _, a := range land {
		for _, b := range land {
			if a.Distance(b) > 6 {
				continue
			}
			ab, wab := LOS(m, a, b)
			ba, wba := LOS(m, b, a)
			if ab != ba || wab != wba {
				t.Fatalf("LOS(%s,%s) = %v %q but LOS(%s,%s) = %v %q", a, b, ab, wab, b, a, ba, wba)
			}
			pairs++
			if !ab {
				blocked++
			}
		}
	}
	if blocked == 0 || blocked == pairs {
		t.Errorf("%d of %d pairs blocked: the map should have both", blocked, pairs)
	}
}

type losCase struct {
	name   string
	a, b   Hex
	clear  bool
	reason string // substring of the reason when blocked
}

func checkLOS(t *testing.T, m *Map, cases []losCase) {
	t.Helper()
	for _, c := range cases {
		ok, why := LOS(m, c.a, c.b)
		if ok != c.clear || !strings.Contains(why, c.reason) {
			t.Errorf("%s: LOS(%s, %s) = %v %q, want %v %q", c.name, c.a, c.b, ok, why, c.clear, c.reason)
		}
		if ok2, why2 := LOS(m, c.b, c.a); ok2 != ok || why2 != why {
			t.Errorf("%s: not symmetric: %v %q one way, %v %q the other", c.name, ok, why, ok2, why2)
		}
	}
}

// The rulebook's LOS diagram cases, each posed on its own small map down one
// column (15xx), so that the line crosses only the hexes and sides named.
func TestLOSDiagram(t *testing.T) {
	t.Run("adjacent", func(t *testing.T) {
		m := synthMap(t, map[Hex]int{1510: 0, 1511: 4}, nil, []string{"1510-1511"})
		checkLOS(t, m, []losCase{{"A sees B, adjacent, whatever lies between", 1510, 1511, true, ""}})
	})
	t.Run("levels", func(t *testing.T) {
		// Column 15: 1510 at 1 (A), 1511 at 2, 1512 at 2 (C), 1513 at 3,
		// 1514 at 1 (E); column 16 all level 1 (D).
		m := synthMap(t, map[Hex]int{1511: 2, 1512: 2, 1513: 3}, nil, nil)
		checkLOS(t, m, []losCase{
			{"A cannot see C: intervening hex at the higher end's level, as close to the lower", 1510, 1512, false, "1511 (level 2) is higher than 1510 (level 1) and no farther"},
			{"A cannot see E: an intervening hex higher than both", 1511, 1514, false, "1513 (level 3) is higher than both"},
			{"A sees D: same level throughout", 1610, 1614, true, ""},
			{"A cannot see K: higher hex closer to the lower end", 1510, 1513, false, "1511 (level 2) is higher than 1510"},
		})
	})
	t.Run("closer to the higher end", func(t *testing.T) {
		m := synthMap(t, map[Hex]int{1510: 1, 1511: 1, 1512: 2, 1513: 3, 1613: 2}, nil, nil)
		checkLOS(t, m, []losCase{
			{"F sees K: the higher hex is closer to the higher end", 1510, 1513, true, ""},
			{"equidistant counts as close to the lower end", 1511, 1513, false, "1512 (level 2) is higher than 1511"},
			{"A sees F: nothing between is higher than the lower end", 1613, 1610, true, ""},
		})
	})
	t.Run("slopes", func(t *testing.T) {
		// A level-2 plateau 1510-1511 with its brow on the 1511/1512 side;
		// the valley 1512-1513 at level 1; a rise to 1514 at level 2.
		m := synthMap(t, map[Hex]int{1510: 2, 1511: 2, 1512: 1, 1513: 1, 1514: 2},
			[]string{"1512-1511", "1513-1514"}, nil)
		checkLOS(t, m, []losCase{
			{"F cannot see I: F is not next to the slope it looks over", 1510, 1513, false, "slope between 1511 and 1512 (level 2)"},
			{"G sees H: both ends are next to the slopes crossed", 1511, 1514, true, ""},
			{"B sees G: the slope crossed is a side of G", 1512, 1514, true, ""},
			{"F cannot see L: a slope next to neither end", 1510, 1514, false, "slope between 1511 and 1512"},
		})
	})
	t.Run("slope below the higher end", func(t *testing.T) {
		// A peak at 1508 looks over a brow one level down at 1509/1510.
		slope := []string{"1510-1509"}
		checkLOS(t, synthMap(t, map[Hex]int{1508: 3, 1509: 2}, slope, nil), []losCase{
			{"the brow is below the higher end", 1508, 1512, true, ""},
		})
		checkLOS(t, synthMap(t, map[Hex]int{1508: 2, 1509: 2}, slope, nil), []losCase{
			{"the brow is at the higher end's level", 1508, 1512, false, "slope between 1509 and 1510 (level 2)"},
		})
	})
	t.Run("cliffs", func(t *testing.T) {
		m := synthMap(t, map[Hex]int{1510: 2, 1511: 2, 1512: 1, 1513: 1}, nil, []string{"1511-1512"})
		checkLOS(t, m, []losCase{
			{"D cannot see F: a cliff at the higher end's level, not its side", 1510, 1513, false, "cliff between 1511 and 1512 (level 2)"},
			{"a cliff that is a side of the higher end does not block", 1511, 1513, true, ""},
		})
		cliff := []string{"1509-1510"}
		checkLOS(t, synthMap(t, map[Hex]int{1508: 3, 1509: 2}, nil, cliff), []losCase{
			{"a cliff below the higher end does not block", 1508, 1512, true, ""},
		})
		checkLOS(t, synthMap(t, map[Hex]int{1508: 2, 1509: 2}, nil, cliff), []losCase{
			{"E cannot see F: a cliff at the higher end's level", 1508, 1512, false, "cliff between 1509 and 1510 (level 2)"},
		})
	})
}

// Lines that head at a hex corner run along hexsides: 1213→1311 runs along
// the side between 1212 and 1312, as 2619→2717 does on the built-in map.
func TestLOSAlongHexside(t *testing.T) {
	if ok, _ := LOS(synthMap(t, nil, nil, nil), 1213, 1311); !ok {
		t.Fatal("1213 cannot see 1311 on a flat map")
	}
	for _, c := range []struct {
		name          string
		levels        map[Hex]int
		slopes, cliff []string
		clear         bool
		reason        string
	}{
		{"flanking hex 1212 higher", map[Hex]int{1212: 2}, nil, nil, false, "1212 (level 2) is higher than both"},
		{"flanking hex 1312 higher", map[Hex]int{1312: 2}, nil, nil, false, "1312 (level 2) is higher than both"},
		{"G cannot see I: sighting down a slope", map[Hex]int{1213: 2, 1311: 2, 1212: 2}, []string{"1312-1212"}, nil, false, "runs along the slope between 1212 and 1312 (level 2)"},
		{"looking down on a slope below both ends", map[Hex]int{1213: 3, 1311: 3, 1212: 2}, []string{"1312-1212"}, nil, true, ""},
		{"along a cliff at the ends' level", map[Hex]int{1213: 2, 1311: 2, 1212: 2}, nil, []string{"1212-1312"}, false, "runs along the cliff between 1212 and 1312"},
	} {
		m := synthMap(t, c.levels, c.slopes, c.cliff)
		checkLOS(t, m, []losCase{{c.name, 1213, 1311, c.clear, c.reason}})
	}
}

// A line through a corner where it passes from one hex to the next also
// grazes the third hex there; that hex obstructs like any other.
func TestLOSThroughCorner(t *testing.T) {
	a := cubeOf(1010)
	b := a.add(cube{4, 1, -5})
	r := a.add(cube{1, 1, -2}) // the hex touched only at a corner, a third of the way
	m := synthMap(t, map[Hex]int{r.hex(): 2}, nil, nil)
	ok, why := LOS(m, a.hex(), b.hex())
	if ok || !strings.Contains(why, r.hex().String()) {
		t.Errorf("LOS(%s,%s) = %v %q, want blocked by %s", a.hex(), b.hex(), ok, why, r.hex())
	}
	if ok, _ := LOS(synthMap(t, nil, nil, nil), a.hex(), b.hex()); !ok {
		t.Error("blocked on a flat map")
	}
}

func BenchmarkLOS(b *testing.B) {
	m := BuiltinMap()
	land := m.LandHexes()
	var pairs [][2]Hex
	for i, a := range land {
		for _, c := range land[i+1:] {
			if d := a.Distance(c); d >= 2 && d <= 8 {
				pairs = append(pairs, [2]Hex{a, c})
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		LOS(m, p[0], p[1])
	}
}

// BenchmarkLOSWalk is BenchmarkLOS without writing out the reasons: the
// geometry alone, which allocates nothing.
func BenchmarkLOSWalk(b *testing.B) {
	m := BuiltinMap()
	land := m.LandHexes()
	var pairs [][2]cube
	for i, a := range land {
		for _, c := range land[i+1:] {
			if d := a.Distance(c); d >= 2 && d <= 8 {
				pairs = append(pairs, [2]cube{cubeOf(a), cubeOf(c)})
			}
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		losWalk(m, p[0], p[1])
	}
}
