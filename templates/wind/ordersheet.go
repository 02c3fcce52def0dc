package wind

import (
	"bytes"
	_ "embed"
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"html/template"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// The order sheet's page and what it carries as it is: its style sheet
// and its script. The map's drawing and style are the replay page's.
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

// OrderSheetName is the file name of the order sheet for a wait, as it
// is attached to the report: orders-3-us-actions.html. The sheet
// downloads the file it writes under the same name ending in .yaml.
func OrderSheetName(turn int, side adjudicator.Side, wait adjudicator.WaitKind) string {
	return ordersName(turn, side, wait) + ".html"
}

// OrderSheet returns the order sheet for the reader, named for its
// attachment, when the report comes with an order template; ok is false
// otherwise. The sheet is one self-contained HTML file (nothing loaded
// from anywhere, and no script but its own: templates.SheetPage) with the
// island as the reader sees it and the choices of the wait at hand, which
// writes an order file in the usual schema to copy, download or mail to
// address (the game's address; "" leaves the mail link out).
//
// Its data is the report's View and Outlook, the same the order template
// is written from, so that the two cannot disagree; nothing else about
// the position goes in, so the sheet carries only what its reader may
// see. The player's token is typed into the page and kept in its memory
// only: no file attu sends or stores holds it.
func (r *Report) OrderSheet(address string) (name string, page []byte, ok bool) {
	if !r.hasOrderTemplate() {
		return "", nil, false
	}
	w := r.Outlook.Wait
	m := r.gameMap()
	outlook := *r.Outlook
	outlook.Options = nil // in d.Options, shorter
	d := sheetData{
		Game: r.Game.ID, Side: r.View.Side, Turn: w.Turn, Wait: w.Kind, Date: wind.TurnDate(w.Turn),
		Title:    fmt.Sprintf("%s %s, turn %d (%s)", templates.SideTitle(r.View.Side), waitNoun(w.Kind), w.Turn, wind.TurnDate(w.Turn)),
		Deadline: r.deadline(), Address: address, Subject: "[attu " + r.Game.ID + "] " + ordersName(w.Turn, r.View.Side, w.Kind),
		File: OrderTemplateName(w.Turn, r.View.Side, w.Kind),
		Geom: replayGeomOf(newPNGGeom(m)), Standing: standingLines(r.View.Side, r.Outlook.Standing),
		Spotting: wind.SpottingDistance(r.View.Weather),
		Stacking: sheetStacking{OneBattalion: wind.StackOneBattalion, Mixed: wind.StackMixed, Japanese: wind.StackJapanese},
		View:     r.View, Outlook: &outlook,
	}
	// The report carries no counter mix: the built-in one, which every
	// scenario attu ships plays with, says which units are independent.
	for _, u := range r.View.Units {
		if c, ok := wind.BuiltinCounters().Get(u.ID); ok && c.Class.Independent && u.Side == r.View.Side {
			d.Stacking.Independent = append(d.Stacking.Independent, u.ID)
		}
	}
	for _, uo := range r.Outlook.Options {
		so := sheetOptions{UnitOptions: uo}
		for _, mv := range uo.Moves {
			via := uo.Hex
			if len(mv.Path) > 1 {
				via = mv.Path[len(mv.Path)-2]
			}
			so.Moves = append(so.Moves, fmt.Sprintf("%s %d %s", mv.To, mv.MP, via))
		}
		d.Options = append(d.Options, so)
	}
	var land, levels strings.Builder
	for _, h := range m.LandHexes() {
		land.WriteString(h.String())
		if m.Terrain(h) == wind.Lake {
			levels.WriteByte('L')
		} else {
			levels.WriteByte(byte('0' + min(max(m.Level(h), 0), 4)))
		}
	}
	d.Land, d.Levels = land.String(), levels.String()
	for _, lz := range m.LandingZones {
		d.Zones = append(d.Zones, sheetZone{ID: lz.ID, Hex: lz.Hex, Capacity: lz.Capacity})
	}
	var b bytes.Buffer
	err := sheetTemplate.Execute(&b, struct {
		Title string
		Map   *replayMap
		Data  *sheetData
	}{d.Title, sheetMap(m), &d})
	if err != nil {
		// The page and its data are the program's own: a failure is a
		// bug, caught by the tests.
		panic(fmt.Sprintf("templates: order sheet: %v", err))
	}
	page = templates.SheetPage("attu orders: "+d.Title, replayCSS+sheetCSS, b.Bytes(), sheetJS)
	return OrderSheetName(w.Turn, r.View.Side, w.Kind), page, true
}

// sheetData is the sheet's JSON: the envelope of the file it writes, how
// to mail it, the geometry of the map and the reader's View and Outlook.
type sheetData struct {
	Game     string               `json:"game"`
	Side     adjudicator.Side     `json:"side"`
	Turn     int                  `json:"turn"`
	Wait     adjudicator.WaitKind `json:"wait"`
	Date     string               `json:"date"`
	Title    string               `json:"title"`
	Deadline string               `json:"deadline,omitempty"`
	Address  string               `json:"address,omitempty"`
	Subject  string               `json:"subject"`
	File     string               `json:"file"`
	Geom     replayGeom           `json:"geom"`
	// Land is every land hex's id, four digits each, for the ids drawn
	// in them and the hexes that answer a click.
	Land string `json:"land"`
	// Levels is each land hex's level, 0 to 4, or L for a lake: the page
	// draws the hexes, a few kilobytes where their outlines take a hundred.
	Levels   string         `json:"levels"`
	Options  []sheetOptions `json:"options"`
	Zones    []sheetZone    `json:"zones"`
	Spotting int            `json:"spotting"` // the weather's spotting distance (8.1.2)
	Stacking sheetStacking  `json:"stacking"`
	Standing []string       `json:"standing"` // the order template's standing: lines
	View     *wind.View     `json:"view"`
	Outlook  *wind.Outlook  `json:"outlook"`
}

// sheetStacking is what the page counts stacks by (rule 4.0): the
// engine's limits, and which of the reader's own units are independent
// (4.1: they belong to every battalion). A landing zone's hex holds its
// capacity instead (9.2.1, RULINGS.md R8). The browser test holds the
// page's verdicts to the engine's.
type sheetStacking struct {
	OneBattalion int      `json:"one_battalion"`
	Mixed        int      `json:"mixed"`
	Japanese     int      `json:"japanese"`
	Independent  []string `json:"independent,omitempty"`
}

// sheetZone is a landing zone (rule 9.2).
type sheetZone struct {
	ID       string          `json:"id"`
	Hex      adjudicator.Hex `json:"hex"`
	Capacity int             `json:"capacity"`
}

// sheetOptions is a unit's options in actions, each move written "to mp
// via", via the hex it comes from: the cheapest paths the rules find form
// a tree, so the page follows the vias back for the whole path (a third
// of the bytes of the paths written out).
type sheetOptions struct {
	wind.UnitOptions
	Moves []string `json:"moves,omitempty"`
}

// sheetMap is the island as the replay page draws it, less the hexes and
// the grid, which the page draws from the levels.
func sheetMap(m *wind.Map) *replayMap {
	rm := *mapOf(m)
	rm.Paths = nil
	for _, p := range mapOf(m).Paths {
		if p.Class != "grid" && p.Class != "lake" && (len(p.Class) != 2 || p.Class[0] != 'l') {
			rm.Paths = append(rm.Paths, p)
		}
	}
	return &rm
}
