package island

import (
	"fmt"
	"strings"

	iw "github.com/attu-pbem/attu/adjudicator/island"
)

// asciiMap draws the map: a row per hex row, a cell per column, each the
// id of the unit in it, else its terrain's letter; lowered columns are
// marked v. The unit tables say whose each unit is.
func (v *view) asciiMap() string {
	g := v.e.S.Grid
	w := 4
	for _, u := range v.e.S.Units {
		w = max(w, len(u.ID)+1)
	}
	occ := map[iw.Hex]int{}
	for i, pc := range v.g.Pieces {
		if pc.Where == iw.OnMap {
			occ[pc.Hex] = i
		}
	}
	letter := terrainLetters(v.e)
	cell := func(s string) string { return s + strings.Repeat(" ", max(w-len(s), 1)) }
	var b strings.Builder
	line := "    "
	for c := 1; c <= g.Columns; c++ {
		mark := ""
		if g.Shifted == iw.ShiftOdd && c%2 == 1 || g.Shifted == iw.ShiftEven && c%2 == 0 {
			mark = "v"
		}
		line += cell(fmt.Sprintf("%02d%s", c, mark))
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
	for r := 1; r <= g.Rows; r++ {
		line := fmt.Sprintf("%02d  ", r)
		for c := 1; c <= g.Columns; c++ {
			h := iw.Hex{Col: c, Row: r}
			s := letter[v.e.S.TerrainOf(h).Name]
			if i, ok := occ[h]; ok {
				s = v.e.S.Units[i].ID
			}
			line += cell(s)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	var key []string
	for _, t := range v.e.S.Key.Terrain {
		key = append(key, letter[t.Name]+" "+t.Name)
	}
	b.WriteString("  Key: " + strings.Join(key, ", ") + "; v: the column sits half a hex lower.\n")
	return b.String()
}

// terrainLetters gives each terrain the letter the map prints for it.
func terrainLetters(e *iw.Engine) map[string]string {
	out := map[string]string{}
	used := map[string]bool{}
	for _, t := range e.S.Key.Terrain {
		l := "?"
		if t.Impassable {
			l = "~"
		} else {
			for _, c := range strings.ToLower(t.Name) {
				if s := string(c); !used[s] && s != "~" && s != "v" {
					l = s
					break
				}
			}
		}
		used[l] = true
		out[t.Name] = l
	}
	return out
}
