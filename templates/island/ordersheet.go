package island

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"image/color"
	"sort"
	"strings"

	iw "github.com/attu-pbem/attu/adjudicator/island"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/templates"
)

// The order sheet's markup, style sheet and script, embedded as they
// are; templates.SheetPage frames and packs them.
var (
	//go:embed ordersheet/page.html
	sheetHTML string
	//go:embed ordersheet/sheet.css
	sheetCSS string
	//go:embed ordersheet/sheet.js
	sheetJSSource string
	sheetJS       = templates.CompactScript(sheetJSSource)

	sheetTemplate = template.Must(template.New("sheet").Parse(sheetHTML))
)

// OrderSheetName is the attachment name of the order sheet for a wait:
// orders-3-us-orders.html. The file it writes has the same name ending
// in .yaml.
func OrderSheetName(turn int, side string, wait string) string {
	return fmt.Sprintf("orders-%d-%s-%s.html", turn, side, wait)
}

// sheet is the order sheet of the view, when the view comes with an
// order template: one self-contained HTML page drawing the map and the
// choices of the wait, which writes an order file in the orders/island
// schema to copy, download or mail to address. Its data is what the
// order template is written from (ReachCosts, zocOf, inRange,
// dutyAttacks, firstFree, the declared attacks, the reader's standing
// instructions) and the open position, so it carries only what the
// reader may see (IW26). The page is packed (templates.SheetPage), a
// third of its size, under a policy that runs no script but its own.
func (v *view) sheet(address string) (name string, page []byte, ok bool) {
	if !v.awaited() {
		return "", nil, false
	}
	d := v.sheetData(address)
	var b bytes.Buffer
	err := sheetTemplate.Execute(&b, struct {
		Title string
		Data  *sheetData
	}{d.Title, d})
	if err != nil {
		// The page and its data are the program's own: a failure is a
		// bug, caught by the tests.
		panic(fmt.Sprintf("templates/island: order sheet: %v", err))
	}
	side := hostSide(v.reader).String()
	page = templates.SheetPage("attu orders: "+d.Title, sheetCSS, b.Bytes(), sheetJS)
	return OrderSheetName(v.wait.Turn, side, string(v.wait.Kind)), page, true
}

// sheetData is the page's JSON.
type sheetData struct {
	Game     string  `json:"game"`
	Side     string  `json:"side"`  // as the file's side: names it
	Rules    iw.Side `json:"rules"` // as the units' sides name it
	Turn     int     `json:"turn"`
	Wait     string  `json:"wait"`
	Title    string  `json:"title"`
	Deadline string  `json:"deadline,omitempty"`
	Address  string  `json:"address,omitempty"`
	Subject  string  `json:"subject"`
	File     string  `json:"file"`
	// The grid: columns, rows and which columns sit half a hex lower.
	Cols    int    `json:"cols"`
	Rows    int    `json:"rows"`
	Shifted string `json:"shifted"`
	// Terrain is one letter a hex, column by column ('a' the first of
	// Terrains), for the map's colours and the terrain line of a
	// defender's hex (rule 7.43).
	Terrain  string         `json:"terrain"`
	Terrains []sheetTerrain `json:"terrains"`
	// Lined is every hexside that gives a defender a line when every
	// ground attacker attacks across it (rule 7.42): "HHHH-HHHH name line".
	Lined []string `json:"lined,omitempty"`
	// Hexsides is every hexside feature for the map to draw:
	// "HHHH-HHHH class".
	Hexsides []string `json:"hexsides,omitempty"`
	// Columns gives, per line, the column of each differential from
	// ColFrom up (the engine's Column, rule 7.61 and IW1).
	Columns  map[iw.Line][]int `json:"columns"`
	ColFrom  int               `json:"col_from"`
	Units    []sheetUnit       `json:"units"`
	GSP      int               `json:"gsp"`       // the reader's Ground Support Points left (rule 9.14)
	GSPRange int               `json:"gsp_range"` // 0: anywhere (rule 9.13)
	// Duty is the attacks the duty to attack requires if nobody moves:
	// the order template's filling (IW27).
	Duty     []iw.Attack         `json:"duty,omitempty"`
	Declared []iw.Attack         `json:"declared,omitempty"`
	Guns     map[string][]string `json:"guns,omitempty"` // per defender, the reader's artillery in range (rule 8.42)
	Setup    []sheetPlace        `json:"setup,omitempty"`
	Standing *oi.Standing        `json:"standing,omitempty"`
}

// sheetTerrain is one terrain of the key, with the colour the map and
// the picture draw it in.
type sheetTerrain struct {
	Name       string  `json:"name"`
	Colour     string  `json:"colour"`
	Line       iw.Line `json:"line"`
	Impassable bool    `json:"impassable,omitempty"`
}

// sheetUnit is a unit the page draws or orders, with its printed values
// (rule 2.32), and for a unit of the reader's that may move, every hex
// it can reach (rules 5.0, 6.0).
type sheetUnit struct {
	ID    string   `json:"id"`
	Side  iw.Side  `json:"side"`
	Kind  string   `json:"kind"`
	Class iw.Class `json:"class"`
	Att   int      `json:"a,omitempty"`
	Def   int      `json:"d"`
	Mv    int      `json:"m"`
	Bar   int      `json:"b,omitempty"`
	FPF   int      `json:"f,omitempty"`
	Range int      `json:"r,omitempty"`
	Hex   string   `json:"hex,omitempty"` // "" off the map
	// Arriving marks a reinforcement that may enter this Movement Phase.
	Arriving bool        `json:"arriving,omitempty"`
	Values   string      `json:"values"` // as the report's tables write them
	Moves    []sheetMove `json:"moves,omitempty"`
}

// sheetMove is one hex a unit can reach: its cost in half Movement
// Points, its path (hex ids run together) and the enemies whose zone of
// control stops it there.
type sheetMove struct {
	To   string   `json:"to"`
	Half int      `json:"half"`
	Path string   `json:"path"`
	ZOC  []string `json:"zoc,omitempty"`
}

// sheetPlace is one unit to place in the setup wait: its area's free
// hexes and the hex a missed deadline would give it (IW27).
type sheetPlace struct {
	Unit    string   `json:"unit"`
	Area    string   `json:"area"`
	Kind    string   `json:"kind"`
	Values  string   `json:"values"`
	Free    []string `json:"free"`
	Default string   `json:"default"`
}

// The differentials the column table covers: the engine's columns are
// the same below and above (IW1).
const colFrom, colTo = -12, 14

func (v *view) sheetData(address string) *sheetData {
	e, g, w := v.e, v.g, v.wait
	side := hostSide(v.reader).String()
	d := &sheetData{
		Game: v.game.ID, Side: side, Rules: v.reader, Turn: w.Turn, Wait: string(w.Kind),
		Title:    fmt.Sprintf("Island War, %s: %s", e.S.Name, Rules{}.Waiting(w, hostSide(v.reader))),
		Deadline: templates.DeadlineText(v.game.Deadline, v.game.Zone), Address: address,
		Subject: fmt.Sprintf("[attu %s] orders-%d-%s", v.game.ID, w.Turn, w.Kind),
		File:    fmt.Sprintf("orders-%d-%s-%s.yaml", w.Turn, side, w.Kind),
		Cols:    e.S.Grid.Columns, Rows: e.S.Grid.Rows, Shifted: e.S.Grid.Shifted,
		Columns: map[iw.Line][]int{}, ColFrom: colFrom,
		GSP: g.GSP[v.reader], GSPRange: e.S.Rules.GSPRange, Standing: v.standing,
	}
	if d.Shifted == "" {
		d.Shifted = iw.ShiftEven
	}
	kinds := map[string]int{}
	var terr strings.Builder
	for c := 1; c <= d.Cols; c++ {
		for r := 1; r <= d.Rows; r++ {
			t := e.S.TerrainOf(iw.Hex{Col: c, Row: r})
			k, ok := kinds[t.Name]
			if !ok {
				k = len(d.Terrains)
				kinds[t.Name] = k
				d.Terrains = append(d.Terrains, sheetTerrain{Name: t.Name, Colour: hexColour(terrainColour(t)), Line: t.Line, Impassable: t.Impassable})
			}
			terr.WriteByte(byte('a' + k))
			for _, n := range e.S.Grid.Neighbours(iw.Hex{Col: c, Row: r}) {
				if n.Col < c || (n.Col == c && n.Row < r) {
					continue // each hexside once
				}
				for _, f := range e.S.FeaturesOf(iw.Hex{Col: c, Row: r}, n) {
					d.Hexsides = append(d.Hexsides, fmt.Sprintf("%s-%s %s", iw.Hex{Col: c, Row: r}, n, f.Class))
					line := f.Line
					if line == "" && f.Class == iw.ClassRiver {
						line = iw.LineRiver // rule 7.42
					}
					if line != "" {
						d.Lined = append(d.Lined, fmt.Sprintf("%s-%s %s %s", iw.Hex{Col: c, Row: r}, n, strings.ReplaceAll(f.Name, " ", "_"), line))
					}
				}
			}
		}
	}
	d.Terrain = terr.String()
	for _, l := range []iw.Line{iw.LineClear, iw.LineRiver, iw.LineBroken, iw.LineRough} {
		for diff := colFrom; diff <= colTo; diff++ {
			d.Columns[l] = append(d.Columns[l], iw.Column(l, diff))
		}
	}
	for i, u := range e.S.Units {
		pc := g.Pieces[i]
		arriving := u.Side == v.reader && pc.Where == iw.Waiting && pc.Due > 0 && pc.Due <= g.Turn && w.Kind == oi.WaitOrders
		if pc.Where != iw.OnMap && !arriving {
			continue
		}
		su := sheetUnit{ID: u.ID, Side: u.Side, Kind: u.Kind, Class: e.S.ClassOf(u), Att: u.Attack, Def: u.Defense, Mv: u.Movement,
			Bar: u.Barrage, FPF: u.FPF, Range: u.Range, Arriving: arriving, Values: values(e, u)}
		if pc.Where == iw.OnMap {
			su.Hex = pc.Hex.String()
		}
		if u.Side == v.reader && w.Kind == oi.WaitOrders {
			su.Moves = v.sheetMoves(u.ID)
		}
		d.Units = append(d.Units, su)
	}
	switch w.Kind {
	case oi.WaitSetup:
		d.Setup = v.sheetSetup()
	case oi.WaitOrders:
		d.Duty = dutyAttacks(e, g)
	case oi.WaitDefence:
		d.Declared = v.declared
		d.Guns = v.guns()
	}
	return d
}

// sheetMoves is ReachCosts of the unit with the enemies whose zone of
// control covers each hex, as the order template lists them.
func (v *view) sheetMoves(id string) []sheetMove {
	routes := v.e.ReachCosts(v.g, id)
	out := make([]sheetMove, 0, len(routes))
	for h, r := range routes {
		var p strings.Builder
		for _, x := range r.Path {
			p.WriteString(x.String())
		}
		out = append(out, sheetMove{To: h.String(), Half: r.Half, Path: p.String(), ZOC: v.zocOf(h, v.reader.Enemy())})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].To < out[j].To })
	return out
}

// guns names, per defender of the declared attacks, the reader's
// artillery within range of it, as the defence template lists them
// (rule 8.42; the engine judges the rest of rule 8.41 when it fires).
func (v *view) guns() map[string][]string {
	out := map[string][]string{}
	for _, a := range v.declared {
		for _, d := range a.Defenders {
			pc, _ := v.e.Piece(v.g, d)
			for _, i := range sideUnits(v.e, v.g, v.reader) {
				u := v.e.S.Units[i]
				if v.e.S.ClassOf(u) == iw.Artillery && u.ID != d && v.e.S.Grid.Distance(v.g.Pieces[i].Hex, pc.Hex) <= u.Range {
					out[d] = append(out[d], u.ID)
				}
			}
		}
	}
	return out
}

// sheetSetup is the placements of the setup template: each unit, the
// free hexes of its area and its default hex.
func (v *view) sheetSetup() []sheetPlace {
	def := firstFree(v.e, v.g)
	taken := map[iw.Hex]bool{}
	for _, pc := range v.g.Pieces {
		taken[pc.Hex] = taken[pc.Hex] || pc.Where == iw.OnMap
	}
	var out []sheetPlace
	for _, pl := range v.e.S.Setup.Placements {
		h, ok := def[pl.Unit]
		if !ok {
			continue
		}
		u, _ := v.e.S.Unit(pl.Unit)
		sp := sheetPlace{Unit: pl.Unit, Area: pl.Area, Kind: u.Kind, Values: values(v.e, u), Default: h.String()}
		for _, a := range v.e.S.Areas[pl.Area] {
			if !taken[a] && !v.e.S.TerrainOf(a).Impassable {
				sp.Free = append(sp.Free, a.String())
			}
		}
		sort.Strings(sp.Free)
		out = append(out, sp)
	}
	return out
}

func hexColour(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
