package island

import "testing"

// Each line's edges: below its first heading, its first heading, the
// headings around 0, +10 and beyond (rule 7.61, IW1).
func TestColumnAtEachLinesEdges(t *testing.T) {
	cases := []struct {
		line Line
		diff int
		col  int
	}{
		{LineClear, -20, 1}, {LineClear, -7, 1}, {LineClear, -6, 2}, {LineClear, -5, 2},
		{LineClear, -4, 3}, {LineClear, -3, 3}, {LineClear, -2, 4}, {LineClear, -1, 5},
		{LineClear, 0, 6}, {LineClear, 1, 7}, {LineClear, 3, 8}, {LineClear, 5, 9},
		{LineClear, 7, 10}, {LineClear, 9, 11}, {LineClear, 10, 12}, {LineClear, 30, 12},
		{LineRiver, -6, 1}, {LineRiver, -5, 1}, {LineRiver, -4, 2}, {LineRiver, -3, 2},
		{LineRiver, -2, 3}, {LineRiver, 0, 5}, {LineRiver, 9, 10}, {LineRiver, 10, 11}, {LineRiver, 11, 11},
		{LineBroken, -4, 1}, {LineBroken, -3, 1}, {LineBroken, -2, 2}, {LineBroken, 0, 4},
		{LineBroken, 3, 6}, {LineBroken, 9, 9}, {LineBroken, 10, 10}, {LineBroken, 15, 10},
		{LineRough, -3, 1}, {LineRough, -2, 1}, {LineRough, -1, 2}, {LineRough, 0, 3},
		{LineRough, 2, 5}, {LineRough, 3, 5}, {LineRough, 8, 8}, {LineRough, 9, 8},
		{LineRough, 10, 9}, {LineRough, 12, 9},
	}
	for _, c := range cases {
		if got := Column(c.line, c.diff); got != c.col {
			t.Errorf("%s %+d: column %d, want %d", c.line, c.diff, got, c.col)
		}
	}
}

// The table cell by cell at the corners and in the middle, as the digest
// transcribes it.
func TestLookupCells(t *testing.T) {
	cases := []struct {
		col, die int
		want     Result
	}{
		{1, 1, A1}, {1, 3, A2}, {1, 5, A3}, {1, 6, Ae},
		{12, 1, De}, {12, 2, De}, {12, 3, D3}, {12, 4, D2}, {12, 6, D1},
		{9, 1, D2}, {9, 6, NE}, {10, 1, D3}, {11, 1, De}, {11, 2, D3},
		{6, 1, D1}, {6, 3, NE}, {6, 6, A1}, {4, 1, NE}, {4, 6, A2},
	}
	for _, c := range cases {
		if got := Lookup(c.col, c.die); got != c.want {
			t.Errorf("column %d die %d: %s, want %s", c.col, c.die, got, c.want)
		}
	}
}

// Rule 7.0's example: +9 on the line of the example's terrain, a 1 is D3;
// with IW1 that is the River line.
func TestWorkedExample(t *testing.T) {
	if got := Lookup(Column(LineRiver, 13-4), 1); got != D3 {
		t.Fatalf("+9 on the river line, die 1: %s, want D3", got)
	}
	// Each better terrain reads one column to the defender's side.
	for d := -2; d <= 10; d++ {
		c, r, b, ro := Column(LineClear, d), Column(LineRiver, d), Column(LineBroken, d), Column(LineRough, d)
		if c-r != 1 || r-b != 1 || b-ro != 1 {
			t.Errorf("%+d: columns clear %d river %d broken %d rough %d", d, c, r, b, ro)
		}
	}
}
