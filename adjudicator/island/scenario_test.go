package island

import (
	"encoding/json"
	"testing"
)

// Distance must agree with counting steps between neighbours, on both
// kinds of offset, and every neighbour must see its neighbour back.
func TestGridDistanceMatchesSteps(t *testing.T) {
	for _, shift := range []string{ShiftEven, ShiftOdd} {
		g := Grid{Columns: 9, Rows: 7, Shifted: shift}
		for c := 1; c <= g.Columns; c++ {
			for r := 1; r <= g.Rows; r++ {
				from := Hex{c, r}
				steps := map[Hex]int{from: 0}
				queue := []Hex{from}
				for len(queue) > 0 {
					h := queue[0]
					queue = queue[1:]
					for _, n := range g.Neighbours(h) {
						if _, seen := steps[n]; !seen {
							steps[n] = steps[h] + 1
							queue = append(queue, n)
						}
					}
				}
				for h, n := range steps {
					if d := g.Distance(from, h); d != n {
						t.Fatalf("%s: distance %s to %s is %d, %d steps", shift, from, h, d, n)
					}
				}
				for _, n := range g.Neighbours(from) {
					back := false
					for _, m := range g.Neighbours(n) {
						back = back || m == from
					}
					if !back {
						t.Fatalf("%s: %s is next to %s but not the other way", shift, n, from)
					}
				}
			}
		}
	}
}

// On an even-shifted grid column 2 sits lower: 0202's upper diagonal
// neighbours are in row 2 of columns 1 and 3.
func TestGridNeighboursOfALoweredColumn(t *testing.T) {
	g := Grid{Columns: 5, Rows: 5, Shifted: ShiftEven}
	got := g.Neighbours(Hex{2, 2})
	want := []Hex{{2, 1}, {3, 2}, {3, 3}, {2, 3}, {1, 3}, {1, 2}}
	if len(got) != len(want) {
		t.Fatalf("neighbours of 0202: %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("neighbours of 0202: %v, want %v", got, want)
		}
	}
	got = g.Neighbours(Hex{3, 2})
	want = []Hex{{3, 1}, {4, 1}, {4, 2}, {3, 3}, {2, 2}, {2, 1}}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("neighbours of 0302: %v, want %v", got, want)
		}
	}
}

func TestHexAndPairText(t *testing.T) {
	h, err := ParseHex("1207")
	if err != nil || h != (Hex{12, 7}) || h.String() != "1207" {
		t.Fatalf("ParseHex(1207) = %v, %v", h, err)
	}
	for _, bad := range []string{"", "12", "12a4", "123"} {
		if _, err := ParseHex(bad); err == nil {
			t.Errorf("ParseHex(%q) accepted", bad)
		}
	}
	var p Pair
	if err := p.UnmarshalText([]byte("0305-0304")); err != nil || p.String() != "0304-0305" {
		t.Fatalf("pair 0305-0304 read as %v, %v", p, err)
	}
	m := map[Pair][]string{MakePair(Hex{2, 2}, Hex{1, 2}): {"river"}}
	b, err := json.Marshal(m)
	if err != nil || string(b) != `{"0102-0202":["river"]}` {
		t.Fatalf("pair map JSON %s, %v", b, err)
	}
}

// Hex and hexside ids come in scenario files from strangers: any text is
// either refused or read back to the same id.
func FuzzHexText(f *testing.F) {
	for _, s := range []string{"0304", "1210", "0304-0305", "0305-0304", "", "-", "12", "ab12", "000000", "0304-", "99999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if h, err := ParseHex(s); err == nil {
			again, err := ParseHex(h.String())
			if err != nil || again != h {
				t.Fatalf("%q read as %v, written %q, read again as %v, %v", s, h, h.String(), again, err)
			}
		}
		var p Pair
		if err := p.UnmarshalText([]byte(s)); err == nil {
			var q Pair
			b, _ := p.MarshalText()
			if err := q.UnmarshalText(b); err != nil || q != p || less(p.B, p.A) {
				t.Fatalf("%q read as %v, written %s, read again as %v, %v", s, p, b, q, err)
			}
		}
	})
}
