package island

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	iw "github.com/attu-pbem/attu/adjudicator/island"
)

// MaxGrid is the largest number of columns or rows a map may have; the
// published maps are about 40 by 30 hexes.
const MaxGrid = 99

var (
	lines   = []string{string(iw.LineClear), string(iw.LineRiver), string(iw.LineBroken), string(iw.LineRough)}
	fclass  = []string{string(iw.ClassRiver), string(iw.ClassRoad), string(iw.ClassTrail), string(iw.ClassProhibited), string(iw.ClassOther)}
	clear   = "clear"
	mpRule  = "rule 5.21: clear costs 1 MP, every other terrain more"
	shifted = []string{iw.ShiftOdd, iw.ShiftEven}
)

// key reads the Terrain Key: each terrain's letter, MP and CRT line, and
// each hexside feature's class and MP.
func (b *builder) key() {
	k := b.f.Key
	if k == nil {
		b.missing(b.f.Pos, "terrain_key", "give the map's Terrain Key (see examples/island-war/README.md)")
		return
	}
	if len(k.Terrain) == 0 {
		b.missing(k.Pos, "terrain_key.terrain", "list each terrain with its letter, mp and line")
	}
	letters := map[string]Str{}
	for _, e := range k.Terrain {
		t, ok := b.terrainType(e.Key.Value, e.Value)
		if e.Value.Letter.Set() {
			l := e.Value.Letter
			switch {
			case utf8.RuneCountInString(l.Value) != 1 || l.Value == " ":
				b.ps.at(l.Pos, "give one character, like c", "terrain %s: letter %q is not one character", e.Key.Value, l.Value)
			case letters[l.Value].Set():
				b.ps.at(l.Pos, "give each terrain its own letter", "terrain %s: letter %q is %s's already", e.Key.Value, l.Value, letters[l.Value].Value)
			default:
				letters[l.Value] = e.Key
			}
		}
		if ok {
			b.terrain[t.Name] = t
			b.sc.Key.Terrain = append(b.sc.Key.Terrain, t)
		}
	}
	if len(k.Terrain) > 0 {
		if !b.hasTerrain(clear) {
			b.ps.at(k.Terrain[0].Key.Pos, "add clear: {letter: c, mp: 1, line: clear}", "the key has no terrain named clear, which the rules cost at 1 MP and let armor enter (rules 5.21, 5.25)")
		}
	}
	for _, e := range k.Hexsides {
		if ft, ok := b.feature(e.Key.Value, e.Value); ok {
			b.features[ft.Name] = true
			b.sc.Key.Hexsides = append(b.sc.Key.Hexsides, ft)
		}
	}
}

func (b *builder) hasTerrain(name string) bool { return b.keyTerrains[name] }

// terrainType checks one terrain of the key.
func (b *builder) terrainType(name string, e terrainEntry) (iw.TerrainType, bool) {
	t := iw.TerrainType{Name: name, Impassable: e.Impassable}
	ok := true
	if !e.Letter.Set() {
		b.missing(e.Pos, "terrain "+name+": letter", "give the letter the map's rows use for it, like letter: j")
		ok = false
	}
	if e.Impassable {
		for _, s := range []struct {
			set bool
			p   Pos
			key string
		}{{e.MP.Set(), e.MP.Pos, "mp"}, {e.Line.Set(), e.Line.Pos, "line"}, {e.Armor != nil, e.Pos, "armor"}} {
			if s.set {
				b.ps.at(s.p, "remove it: no unit ever enters impassable terrain", "terrain %s is impassable but has %s", name, s.key)
				ok = false
			}
		}
		return t, ok
	}
	if !e.MP.Set() {
		b.missing(e.Pos, "terrain "+name+": mp", "give the Movement Points to enter it ("+mpRule+"), or impassable: true")
		ok = false
	} else {
		t.MP = e.MP.Value
		switch {
		case name == clear && t.MP != 1:
			b.ps.at(e.MP.Pos, "make it mp: 1", "terrain clear costs %d MP (%s)", t.MP, mpRule)
			ok = false
		case name != clear && (t.MP < 2 || t.MP > 99):
			b.ps.at(e.MP.Pos, "give 2 or more ("+mpRule+")", "terrain %s costs %d MP", name, t.MP)
			ok = false
		}
	}
	if !e.Line.Set() {
		b.missing(e.Pos, "terrain "+name+": line", "give the CRT line a defender in it uses: one of "+strings.Join(lines, ", ")+" (rule 7.43)")
		ok = false
	} else if b.oneOf(e.Line, "terrain "+name+": CRT line", lines) {
		t.Line = iw.Line(e.Line.Value)
		if name == clear && t.Line != iw.LineClear {
			b.ps.at(e.Line.Pos, "make it line: clear", "terrain clear uses the %s line", t.Line)
			ok = false
		}
	} else {
		ok = false
	}
	t.Armor = name == clear || (e.Armor != nil && *e.Armor)
	if name == clear && e.Armor != nil && !*e.Armor {
		b.ps.at(e.Pos, "remove armor: false", "armor always enters clear hexes (rule 5.25)")
		ok = false
	}
	return t, ok
}

// feature checks one hexside feature of the key.
func (b *builder) feature(name string, e featureEntry) (iw.Feature, bool) {
	ft := iw.Feature{Name: name}
	class := e.Class
	if !class.Set() {
		for _, c := range fclass[:4] {
			if name == c {
				class = Str{Value: c, Pos: e.Pos}
			}
		}
	}
	if !class.Set() {
		b.missing(e.Pos, "hexside "+name+": class", "say what the rules make of it: one of "+strings.Join(fclass, ", "))
		return ft, false
	}
	if !b.oneOf(class, "hexside "+name+": class", fclass) {
		return ft, false
	}
	ft.Class = iw.FeatureClass(class.Value)
	ok := true
	switch ft.Class {
	case iw.ClassRoad, iw.ClassTrail, iw.ClassProhibited:
		why := map[iw.FeatureClass]string{
			iw.ClassRoad:       "a road's cost is rule 5.22's 1/2 MP from road hex to road hex",
			iw.ClassTrail:      "a trail's cost is rule 5.23's 1 MP from trail hex to trail hex",
			iw.ClassProhibited: "a prohibited hexside is never crossed (rule 7.72)",
		}[ft.Class]
		if e.MP.Set() {
			b.ps.at(e.MP.Pos, "remove mp: "+why, "hexside %s (class %s) has an mp", name, ft.Class)
			ok = false
		}
		if e.Line.Set() {
			b.ps.at(e.Line.Pos, "remove line: only rivers and other features give a CRT line (rule 7.42)", "hexside %s (class %s) has a line", name, ft.Class)
			ok = false
		}
		return ft, ok
	case iw.ClassRiver:
		ft.Line = iw.LineRiver
		if e.Line.Set() && e.Line.Value != string(iw.LineRiver) {
			b.ps.at(e.Line.Pos, "remove line, or write line: river", "hexside %s is a river but gives the %s line (rule 7.42)", name, e.Line.Value)
			ok = false
		}
	case iw.ClassOther:
		if e.Line.Set() {
			if b.oneOf(e.Line, "hexside "+name+": CRT line", lines[1:]) {
				ft.Line = iw.Line(e.Line.Value)
			} else {
				ok = false
			}
		}
	}
	if e.MP.Set() {
		if e.MP.Value < 0 || e.MP.Value > 99 {
			b.ps.at(e.MP.Pos, "give the MP added to the hex's cost, 0 or more (rule 5.21)", "hexside %s costs %d MP", name, e.MP.Value)
			ok = false
		}
		ft.MP = e.MP.Value
	}
	return ft, ok
}

// grid reads the map: its size, each hex's terrain, hexside features and
// place names.
func (b *builder) grid() {
	m := b.f.Map
	if m == nil {
		b.missing(b.f.Pos, "map", "give the map's columns, rows, shifted and terrain")
		return
	}
	g := iw.Grid{}
	sizeOK := true
	for _, s := range []struct {
		n   Num
		key string
		to  *int
	}{{m.Columns, "columns", &g.Columns}, {m.Rows, "rows", &g.Rows}} {
		switch {
		case !s.n.Set():
			b.missing(m.Pos, "map."+s.key, fmt.Sprintf("give the number of %s, like %s: 12", s.key, s.key))
			sizeOK = false
		case s.n.Value < 1 || s.n.Value > MaxGrid:
			b.ps.at(s.n.Pos, fmt.Sprintf("give 1 to %d", MaxGrid), "map.%s is %d", s.key, s.n.Value)
			sizeOK = false
		default:
			*s.to = s.n.Value
		}
	}
	if !m.Shifted.Set() {
		b.missing(m.Pos, "map.shifted", "say which columns sit half a hex lower: odd or even")
		sizeOK = false
	} else if b.oneOf(m.Shifted, "map.shifted", shifted) {
		g.Shifted = m.Shifted.Value
	} else {
		sizeOK = false
	}
	b.sc.Grid = g
	b.gridOK = sizeOK
	if !sizeOK {
		return
	}
	b.mapTerrain(m)
	b.hexsides(m)
	for _, e := range m.Names {
		if h, ok := b.hexAt(e.Key, "map.names"); ok {
			if b.sc.Names == nil {
				b.sc.Names = map[iw.Hex]string{}
			}
			b.sc.Names[h] = e.Value.Value
		}
	}
}

// hexAt reads a hex id and checks that it is on the map.
func (b *builder) hexAt(s Str, what string) (iw.Hex, bool) {
	return b.hexText(s.Value, s.Pos, what)
}

func (b *builder) hexText(text string, p Pos, what string) (iw.Hex, bool) {
	h, err := iw.ParseHex(text)
	if err != nil {
		b.ps.at(p, "write four digits, column then row, like 0304", "%s: %q is not a hex id", what, text)
		return h, false
	}
	if !b.gridOK {
		return h, false
	}
	if g := b.sc.Grid; !g.On(h) {
		b.ps.at(p, fmt.Sprintf("the map has columns 01 to %02d and rows 01 to %02d", g.Columns, g.Rows), "%s: hex %s is off the map", what, text)
		return h, false
	}
	return h, true
}

// enterable reads a hex that units are put on: on the map and not
// impassable.
func (b *builder) enterable(s Str, what string) (iw.Hex, bool) {
	h, ok := b.hexAt(s, what)
	if !ok {
		return h, false
	}
	if t, known := b.hexes[h]; known && t.Impassable {
		b.ps.at(s.Pos, "choose a hex units may enter", "%s: hex %s is %s, which is impassable", what, s.Value, t.Name)
		return h, false
	}
	return h, true
}

// mapTerrain gives every hex its terrain: rows of letters or a default,
// then single hexes.
func (b *builder) mapTerrain(m *mapSection) {
	ts := m.Terrain
	if ts == nil {
		b.missing(m.Pos, "map.terrain", "give the terrain of every hex: rows of letters, or a default")
		return
	}
	g := b.sc.Grid
	byLetter := map[string]string{}
	for _, e := range b.f.keyTerrain() {
		byLetter[e.Value.Letter.Value] = e.Key.Value
	}
	complete := true
	switch {
	case len(ts.Rows) == 0 && !ts.Default.Set():
		b.missing(ts.Pos, "map.terrain.rows", "give one row of terrain letters per map row, or default: for a terrain every hex has unless hexes says otherwise")
		complete = false
	case len(ts.Rows) > 0 && ts.Default.Set():
		b.ps.at(ts.Default.Pos, "remove default, or remove rows and list the hexes that differ under hexes", "map.terrain has both rows and default")
		complete = false
	case ts.Default.Set():
		if b.knownTerrain(ts.Default, "map.terrain.default") {
			t := b.terrain[ts.Default.Value]
			for c := 1; c <= g.Columns; c++ {
				for r := 1; r <= g.Rows; r++ {
					b.hexes[iw.Hex{Col: c, Row: r}] = t
				}
			}
		} else {
			complete = false
		}
	default:
		if len(ts.Rows) != g.Rows {
			b.ps.at(ts.Rows[0].Pos, fmt.Sprintf("give one string of letters for each of the %d rows", g.Rows), "map.terrain.rows has %d rows; the map has %d", len(ts.Rows), g.Rows)
			complete = false
		}
		for r, row := range ts.Rows[:min(len(ts.Rows), g.Rows)] {
			if !b.terrainRow(row, r+1, byLetter) {
				complete = false
			}
		}
	}
	for _, e := range ts.Hexes {
		h, ok := b.hexAt(e.Key, "map.terrain.hexes")
		if ok && b.knownTerrain(e.Value, "map.terrain.hexes."+e.Key.Value) {
			b.hexes[h] = b.terrain[e.Value.Value]
		}
	}
	if !complete {
		return
	}
	b.fillTerrain()
}

func (f *file) keyTerrain() Map[terrainEntry] {
	if f.Key == nil {
		return nil
	}
	return f.Key.Terrain
}

// terrainRow reads one row of letters.
func (b *builder) terrainRow(row Str, r int, byLetter map[string]string) bool {
	g := b.sc.Grid
	c, ok := 0, true
	for i, ch := range []rune(row.Value) {
		if ch == ' ' {
			continue
		}
		c++
		if c > g.Columns {
			continue
		}
		name, known := byLetter[string(ch)]
		if !known {
			b.ps.at(row.at(i), "use a letter of terrain_key.terrain: "+b.letterList(), "map row %02d, column %02d: %q is no terrain's letter", r, c, string(ch))
			ok = false
			continue
		}
		if t, keyed := b.terrain[name]; keyed {
			b.hexes[iw.Hex{Col: c, Row: r}] = t
		} else {
			ok = false // the terrain's own entry is wrong, and says so
		}
	}
	if c != g.Columns {
		b.ps.at(row.Pos, fmt.Sprintf("give one letter for each of the %d columns", g.Columns), "map row %02d has %d letters; the map has %d columns", r, c, g.Columns)
		ok = false
	}
	return ok
}

func (b *builder) letterList() string {
	var l []string
	for _, e := range b.f.keyTerrain() {
		if len(l) == maxListed {
			l = append(l, "...")
			break
		}
		l = append(l, fmt.Sprintf("%s %s", e.Value.Letter.Value, e.Key.Value))
	}
	return strings.Join(l, ", ")
}

func (b *builder) knownTerrain(s Str, what string) bool {
	if _, ok := b.terrain[s.Value]; ok {
		return true
	}
	if b.hasTerrain(s.Value) {
		return false // its entry is wrong and says so
	}
	b.ps.at(s.Pos, "use a terrain of terrain_key.terrain: "+keys(b.f.keyTerrain()), "%s: terrain %q is not in the key", what, s.Value)
	return false
}

// fillTerrain writes the hexes' terrain into the scenario: the commonest
// terrain as the default, every other hex by name.
func (b *builder) fillTerrain() {
	count := map[string]int{}
	for _, t := range b.hexes {
		count[t.Name]++
	}
	best := ""
	for name, n := range count {
		if n > count[best] || (n == count[best] && name < best) {
			best = name
		}
	}
	b.sc.DefaultTerrain = best
	for h, t := range b.hexes {
		if t.Name != best {
			if b.sc.Terrain == nil {
				b.sc.Terrain = map[iw.Hex]string{}
			}
			b.sc.Terrain[h] = t.Name
		}
	}
}

// hexsides reads the map's hexside features: hexsides "AAAA-BBBB" and
// chains "AAAA-BBBB-CCCC".
func (b *builder) hexsides(m *mapSection) {
	for _, e := range m.Hexsides {
		name := e.Key.Value
		if !b.features[name] {
			if !b.hasFeature(name) {
				fix := "add it to terrain_key.hexsides"
				if b.f.Key != nil && len(b.f.Key.Hexsides) > 0 {
					fix = "use one of terrain_key.hexsides (" + keys(b.f.Key.Hexsides) + ") or add it there"
				}
				b.ps.at(e.Key.Pos, fix, "map.hexsides: feature %q is not in the key", name)
			}
			continue
		}
		seen := map[iw.Pair]bool{}
		for _, chain := range e.Value {
			for _, p := range b.chain(chain, "map.hexsides."+name) {
				if seen[p] {
					b.ps.at(chain.Pos, "name each hexside once", "map.hexsides.%s: hexside %s is given twice", name, p)
					continue
				}
				seen[p] = true
				if b.sc.Hexsides == nil {
					b.sc.Hexsides = map[iw.Pair][]string{}
				}
				b.sc.Hexsides[p] = append(b.sc.Hexsides[p], name)
			}
		}
	}
	for _, names := range b.sc.Hexsides {
		sort.Strings(names)
	}
}

func (b *builder) hasFeature(name string) bool { return b.keyFeatures[name] }

// chain reads "AAAA-BBBB-CCCC" into the hexsides between each hex and the
// next, each pair adjacent.
func (b *builder) chain(s Str, what string) []iw.Pair {
	parts := strings.Split(s.Value, "-")
	if len(parts) < 2 {
		b.ps.at(s.Pos, "write two adjacent hexes joined by -, like 0304-0305, or a chain like 0304-0305-0405", "%s: %q is not a hexside", what, s.Value)
		return nil
	}
	var out []iw.Pair
	var prev iw.Hex
	prevOK := false
	off := 0
	for i, part := range parts {
		h, ok := b.hexText(part, s.at(off), what)
		if ok && prevOK {
			if !b.sc.Grid.Adjacent(prev, h) {
				b.ps.at(s.at(off), "a hexside joins two adjacent hexes: check the ids, or break the chain", "%s: %s and %s are not adjacent", what, parts[i-1], part)
			} else {
				out = append(out, iw.MakePair(prev, h))
			}
		}
		prev, prevOK = h, ok
		off += utf8.RuneCountInString(part) + 1
	}
	return out
}
