package island

import (
	"fmt"
	"strings"
)

// Text draws the position as rows of hexes, for failing tests and
// debugging: each hex is the id of the unit in it, or its terrain's first
// letter in lower case ("." for the default terrain, "~" impassable).
// Lowered columns are marked "v" in the header: their hexes sit half a
// hex below those of the columns beside them.
func (e *Engine) Text(p Position) string {
	g := e.S.Grid
	w := 4
	for _, u := range e.S.Units {
		w = max(w, len(u.ID)+1)
	}
	cell := func(s string) string { return s + strings.Repeat(" ", w-len(s)) }
	var sb strings.Builder
	sb.WriteString("    ")
	for c := 1; c <= g.Columns; c++ {
		mark := ""
		if g.lowered(c) {
			mark = "v"
		}
		sb.WriteString(cell(fmt.Sprintf("%02d", c) + mark))
	}
	sb.WriteString("\n")
	b := e.board(&p)
	for r := 1; r <= g.Rows; r++ {
		sb.WriteString(cell(fmt.Sprintf("%02d", r)))
		for c := 1; c <= g.Columns; c++ {
			h := Hex{c, r}
			t := e.cells[e.index(h)].terrain
			s := "."
			switch {
			case b.at(h) >= 0:
				s = e.S.Units[b.at(h)].ID
			case t.Impassable:
				s = "~"
			case t.Name != e.S.DefaultTerrain && t.Name != "":
				s = strings.ToLower(t.Name[:1])
			}
			sb.WriteString(cell(s))
		}
		sb.WriteString("\n")
	}
	return sb.String()
}
