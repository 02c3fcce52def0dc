package island

// Result is a Combat Results Table outcome (rule 7.62).
type Result string

// The results of the table; NE is the table's blank "no effect".
const (
	NE Result = "NE"
	A1 Result = "A1"
	A2 Result = "A2" // IW2: the attacker retreats two hexes
	A3 Result = "A3" // IW2: three hexes
	Ae Result = "Ae"
	D1 Result = "D1"
	D2 Result = "D2"
	D3 Result = "D3"
	De Result = "De"
)

// crt is the table of rule 7.61, die 1 to 6 down, column 1 to 12 across.
var crt = [6][12]Result{
	{A1, A1, NE, NE, D1, D1, D1, D2, D2, D3, De, De},
	{A1, A1, A1, NE, NE, D1, D1, D1, D2, D2, D3, De},
	{A2, A1, A1, A1, NE, NE, D1, D1, D1, D2, D2, D3},
	{A2, A2, A1, A1, A1, NE, NE, D1, D1, D1, D2, D2},
	{A3, A2, A2, A1, A1, A1, NE, NE, D1, D1, D1, D2},
	{Ae, A2, A2, A2, A1, A1, A1, NE, NE, D1, D1, D1},
}

// headings gives each line's lowest differential per column, from column 1
// (IW1: every line starts at the left; the last heading is "+10 and more").
var headings = map[Line][]int{
	LineRough:  {-2, -1, 0, 1, 2, 4, 6, 8, 10},
	LineBroken: {-3, -2, -1, 0, 1, 2, 4, 6, 8, 10},
	LineRiver:  {-5, -4, -2, -1, 0, 1, 2, 4, 6, 8, 10},
	LineClear:  {-7, -6, -4, -2, -1, 0, 1, 2, 4, 6, 8, 10},
}

// Column gives the column (1-based) a differential is read in on a line:
// below the line's first heading its first column, above +10 its +10 column
// (rule 7.61, IW1).
func Column(l Line, diff int) int {
	hs := headings[l]
	if hs == nil {
		hs = headings[LineClear]
	}
	col := 1
	for i, lo := range hs {
		if diff >= lo {
			col = i + 1
		}
	}
	return col
}

// Lookup gives the table's result for a column and a die roll.
func Lookup(col, die int) Result { return crt[die-1][col-1] }
