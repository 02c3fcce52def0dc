package wind

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// The page's template and what it carries as it is: its style sheet and
// its script.
var (
	//go:embed replay/page.html
	replayHTML string
	//go:embed replay/replay.css
	replayCSS string
	//go:embed replay/replay.js
	replayJS string

	replayTemplate = template.Must(template.New("replay").Parse(replayHTML))
)

// Replay is a game as its replay page shows it (templates.Replay): the
// positions of its entries are War in the Wind's, and so are their events.
type (
	Replay      = templates.Replay
	ReplayEntry = templates.ReplayEntry
)

// ReplayDie is one die of the dice log, as recorded (templates.ReplayDie).
type ReplayDie = templates.ReplayDie

// ReplayPage returns the replay page of a game: one self-contained HTML
// file (no script, style sheet, font or picture from anywhere else) that
// shows the game step by step — one step per log entry — on an SVG map of
// the island with the units as the U.S., the Japanese or the umpire saw
// them, what happened in words as each of them read it, every die of the
// step with its purpose, the face it needed and the face rolled, and each
// side's dice luck (expected against actual hits) as a chart.
//
// The page re-derives every die in the browser from the revealed seed
// (WebCrypto HMAC-SHA256, as the store package documentation specifies),
// checks the seed against the commitment and the log's hash chain up to
// the head, and says in one line at the top that all dice are verified or
// names the first die, entry or link that does not match.
//
// The positions are r's; the words come from each entry's events,
// redacted for each reader (wind.Redact) and worded by EventText.
// The page's script reads its data from a JSON block of its markup; the
// page is packed (templates.PackedPage), a fifth of its size.
func ReplayPage(r *Replay) ([]byte, error) {
	in, err := replayInOf(r)
	if err != nil {
		return nil, err
	}
	d, err := replayDataOf(r, in)
	if err != nil {
		return nil, err
	}
	page := struct {
		Game, Name, Scenario string
		Map                  *replayMap
		Data                 *replayData
	}{r.Game, r.Name, wind.ScenarioTitle(cmp.Or(r.Scenario, wind.ScenarioCampaign)), mapOf(in.states[0].Map()), d}
	var b bytes.Buffer
	if err := replayTemplate.Execute(&b, page); err != nil {
		return nil, fmt.Errorf("templates: replay page: %w", err)
	}
	title := "attu game " + r.Game + " — replay"
	if r.Name != "" {
		title = r.Name + " — " + title
	}
	return templates.PackedPage(title, replayCSS, b.Bytes(), replayJS), nil
}

// The readers of the page, in the order of the arrays in replayStep.
var replaySides = [3]adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.Umpire}

// replayData is the page's JSON.
type replayData struct {
	Game       string                            `json:"game"`
	Commitment string                            `json:"commitment"`
	Seed       string                            `json:"seed"`
	Head       string                            `json:"head"`
	Geom       replayGeom                        `json:"geom"`
	Texts      []string                          `json:"texts"`   // every sentence once; steps refer to them by index
	Views      []replayView                      `json:"views"`   // every distinct view once
	Units      [][]any                           `json:"units"`   // every distinct unit on the map once: id, side, hex, steps, 1 when face down, kind
	Entries    []replayEntry                     `json:"entries"` // the log, as hashed
	Dice       []ReplayDie                       `json:"dice"`
	Steps      []replayStep                      `json:"steps"`
	Purposes   map[adjudicator.DiePurpose]string `json:"purposes"`
	LuckText   string                            `json:"luck_text,omitempty"`

	texts map[string]int
	views map[string]int
	units map[string]int
}

// replayGeom places hexes as the PNG map does: flat-topped, odd columns
// half a hex lower.
type replayGeom struct {
	C0   int     `json:"c0"`
	R0   int     `json:"r0"`
	R    float64 `json:"r"`
	Left float64 `json:"left"`
	Top  float64 `json:"top"`
	W    int     `json:"w"`
	H    int     `json:"h"`
}

func replayGeomOf(g pngGeom) replayGeom {
	return replayGeom{C0: g.cols[0], R0: g.rows[0], R: pngR, Left: pngLeft, Top: pngTop, W: g.w, H: g.ht - int(pngBottom) + 8}
}

// replayEntry is one log entry: its canonical JSON (what its hash is the
// SHA-256 of), the hash the export lists and the rollback that undid it.
type replayEntry struct {
	JSON   string `json:"json"`
	Hash   string `json:"hash"`
	Undone uint64 `json:"undone,omitempty"`
}

// replayView is what one reader saw after a step.
type replayView struct {
	Turn       int    `json:"turn"`
	Date       string `json:"date"`
	Weather    string `json:"weather"`
	Night      bool   `json:"night,omitempty"`
	AirUS      int    `json:"air_us"`
	AirJP      int    `json:"air_jp"`
	Casualties int    `json:"casualties"`
	// Units on the map, as indexes in replayData.Units.
	Units []int `json:"units"`
	// Hidden: hex, how many anonymous counters.
	Hidden [][2]any `json:"hidden,omitempty"`
	// Boxes: who, box, units, steps.
	Boxes [][4]any `json:"boxes,omitempty"`
	// Held: victory hex, its name, the side holding it.
	Held    [][3]string `json:"held,omitempty"`
	Cleared []string    `json:"cleared,omitempty"`
}

// replayStep is one log entry as the page shows it. The arrays of three
// are for the U.S., the Japanese and the umpire.
type replayStep struct {
	Entry  uint64        `json:"entry"`
	Kind   string        `json:"kind"`
	Title  string        `json:"title"`
	Undone uint64        `json:"undone,omitempty"`
	Dice   [2]uint64     `json:"dice"` // first die, one past the last
	View   [3]int        `json:"view"`
	Events [3][]int      `json:"events"`
	Fight  [3][]string   `json:"fight"`
	Luck   [2][3]float64 `json:"luck"` // per player: to-hit dice, expected hits, hits, so far
	Broken string        `json:"broken,omitempty"`
}

func (d *replayData) text(s string) int { return intern(d.texts, &d.Texts, s, s) }

// unit is the index of a unit as the page draws it: id, side, hex, steps,
// 1 when face down, kind.
func (d *replayData) unit(id, side, hex string, steps, down int, kind string) int {
	key := strings.Join([]string{id, side, hex, strconv.Itoa(steps), strconv.Itoa(down), kind}, "\x00")
	return intern(d.units, &d.Units, key, []any{id, side, hex, steps, down, kind})
}

func (d *replayData) view(v replayView) int {
	b, _ := json.Marshal(v)
	return intern(d.views, &d.Views, string(b), v)
}

// intern returns the index of v, known by key, in list, adding it once:
// the page sends each text, unit and view once and refers to it by index.
func intern[T any](index map[string]int, list *[]T, key string, v T) int {
	if i, ok := index[key]; ok {
		return i
	}
	index[key] = len(*list)
	*list = append(*list, v)
	return len(*list) - 1
}

// replayPurposes names each purpose of a die for the page.
var replayPurposes = map[adjudicator.DiePurpose]string{
	wind.DieWeather:           "weather (3.3)",
	wind.DieAirpower:          "airpower (3.4)",
	wind.DieRanged:            "ranged fire (8.1)",
	wind.DieAirStrike:         "air strike (8.1.6)",
	wind.DieMeleeAttack:       "melee, attacker (8.2)",
	wind.DieMeleeDefence:      "melee, defender (8.2)",
	wind.DieUnknownTable:      "Unknown unit's table (2.5)",
	wind.DiePoolDraw:          "draw from the pool (2.5)",
	wind.DieKomandorskiEffect: "Komandorski effect chit (12.1)",
	wind.DieKomandorskiDelay:  "Komandorski delay chit (12.1)",
	wind.DieLossRecovery:      "loss recovery (9.1)",
	wind.DieScatter:           "landing scatter (9.2.2)",
	wind.DieSetupDraw:         "Japanese setup draw (12.3)",
	wind.DieVPDraw:            "victory point chit draw (14.0)",
}

// toHit reports whether a die is a to-hit roll judged in the luck chart,
// as store.Luck judges them: ranged, air and melee fire with a face needed.
func toHit(r ReplayDie) bool {
	switch r.Purpose {
	case wind.DieRanged, wind.DieAirStrike, wind.DieMeleeAttack, wind.DieMeleeDefence:
		return r.Need >= 1 && r.Need <= 10
	}
	return false
}

// replayIn is a Replay's positions and events as War in the Wind's, by
// entry.
type replayIn struct {
	states []*wind.State
	events [][]wind.Event
}

// replayInOf reads r's positions and events, refusing another system's.
func replayInOf(r *Replay) (*replayIn, error) {
	if len(r.Entries) == 0 || r.Entries[0].Position == nil {
		return nil, errors.New("templates: replay: no log, or no opening position")
	}
	in := &replayIn{}
	for i, e := range r.Entries {
		s, ok := e.Position.(*wind.State)
		if !ok {
			return nil, fmt.Errorf("templates: replay: entry %d: not War in the Wind: %T", i+1, e.Position)
		}
		evs, err := decodeEvents(e.Events)
		if err != nil {
			return nil, fmt.Errorf("templates: replay: entry %d: %w", i+1, err)
		}
		in.states, in.events = append(in.states, s), append(in.events, evs)
	}
	return in, nil
}

func replayDataOf(r *Replay, in *replayIn) (*replayData, error) {
	d := &replayData{Game: r.Game, Commitment: r.Commitment, Seed: r.Seed, Head: r.Head, LuckText: r.LuckText,
		Purposes: replayPurposes, texts: map[string]int{}, views: map[string]int{}, units: map[string]int{}}
	d.Geom = replayGeomOf(newPNGGeom(in.states[0].Map()))
	rolls := make(map[uint64]ReplayDie, len(r.Dice))
	for _, die := range r.Dice {
		rolls[die.Seq] = die
	}
	d.Dice = r.Dice
	var luck [2][3]float64
	broken := ""
	for i := range r.Entries {
		e := &r.Entries[i]
		seq := uint64(i + 1)
		d.Entries = append(d.Entries, replayEntry{JSON: e.JSON, Hash: e.Hash, Undone: e.UndoneBy})
		if e.Broken != "" && broken == "" {
			broken = fmt.Sprintf("entry %d cannot be replayed (%s): the positions shown stop there", seq, e.Broken)
		}
		step := replayStep{Entry: seq, Kind: e.Kind, Title: replayTitle(e), Undone: e.UndoneBy, Broken: broken}
		if e.DiceTo != 0 {
			step.Dice = [2]uint64{e.DiceFrom, e.DiceTo}
		}
		if step.Undone == 0 {
			addLuck(&luck, e, rolls)
		}
		step.Luck = luck
		for k := range luck {
			step.Luck[k][1] = math.Round(luck[k][1]*100) / 100
		}
		w := wordsOf(e, in.events[i])
		for k, side := range replaySides {
			step.View[k] = d.view(d.viewOf(in.states[i], side))
			step.Events[k] = []int{}
			for _, t := range w.events[k] {
				step.Events[k] = append(step.Events[k], d.text(t))
			}
			step.Fight[k] = w.fight[k]
		}
		d.Steps = append(d.Steps, step)
	}
	return d, nil
}

// addLuck adds the to-hit dice e rolled to the chart's running totals,
// per player: dice, hits expected, hits.
func addLuck(luck *[2][3]float64, e *ReplayEntry, rolls map[uint64]ReplayDie) {
	for n := e.DiceFrom; n < e.DiceTo; n++ {
		r, ok := rolls[n]
		if !ok || !toHit(r) {
			continue
		}
		k := 0
		if r.Side == adjudicator.JP {
			k = 1
		} else if r.Side != adjudicator.US {
			continue
		}
		p := float64(11-r.Need) / 10
		luck[k][0]++
		luck[k][1] += p
		if r.Face >= r.Need {
			luck[k][2]++
		}
	}
}

// mapOf is the island m as the replay page and the order sheet draw it;
// the built-in map is drawn once, as every page of a game on it carries
// the same drawing.
func mapOf(m *wind.Map) *replayMap {
	if m == wind.BuiltinMap() {
		return builtinMap()
	}
	return replayMapOf(m)
}

var builtinMap = sync.OnceValue(func() *replayMap { return replayMapOf(wind.BuiltinMap()) })

// replayWords is what each reader of the page reads of one entry, in the
// order of replaySides: the words of each event it reads and of the
// entry's note, and the hexes fought over.
type replayWords struct {
	events [3][]string
	fight  [3][]string
}

// wordsOf words an entry's events as each reader reads them
// (wind.Redact, then EventText). The umpire, and a player with
// full sight of an event, read it as it is (as Redact says), and so the
// same words: those are made once.
func wordsOf(e *ReplayEntry, events []wind.Event) replayWords {
	var w replayWords
	var evs [3][]wind.Event
	for _, ev := range events {
		full := ""
		for k, side := range replaySides {
			r, ok := wind.Redact(ev, side)
			if !ok {
				continue
			}
			if fightKinds[r.Kind] {
				evs[k] = append(evs[k], r) // all foughtHexes reads
			}
			if side != adjudicator.Umpire && ev.Seen.Of(side) != wind.SightFull {
				w.events[k] = append(w.events[k], EventText(r))
				continue
			}
			if full == "" {
				full = EventText(ev)
			}
			w.events[k] = append(w.events[k], full)
		}
	}
	for k := range replaySides {
		if e.Note != "" {
			w.events[k] = append(w.events[k], noteText(e))
		}
		w.fight[k] = []string{}
		for _, h := range foughtHexes(evs[k]) {
			w.fight[k] = append(w.fight[k], h.String())
		}
	}
	return w
}

// noteText words a rollback, an end or a note.
func noteText(e *ReplayEntry) string {
	switch e.Kind {
	case "rollback":
		return fmt.Sprintf("The umpire returned the game to entry %d: %s", e.To, e.Note)
	case "end":
		return "The game ended: " + e.Note
	}
	return e.Note
}

func replayTitle(e *ReplayEntry) string {
	switch e.Kind {
	case "create":
		return "The opening position"
	case "orders":
		return fmt.Sprintf("Turn %d (%s): %s %s", e.Turn, wind.TurnDate(e.Turn), sideName(e.Side), waitNoun(e.Wait))
	case "rollback":
		return fmt.Sprintf("Rollback to entry %d", e.To)
	case "end":
		return "The end of the game"
	}
	if e.Side != adjudicator.NoSide {
		return "A note from the " + sideName(e.Side) + " player"
	}
	return "A note from the server"
}

// viewOf is side's view of st, as the page draws it.
func (d *replayData) viewOf(st *wind.State, side adjudicator.Side) replayView {
	v := st.View(side)
	rv := replayView{Turn: v.Turn, Date: wind.TurnDate(max(v.Turn, 1)), Weather: v.Weather.String(), Night: v.Night,
		AirUS: v.Air.US, AirJP: v.Air.JP, Casualties: v.Casualties, Units: []int{}, Cleared: v.ClearedZones}
	for _, u := range slices.Concat(v.Units, v.Enemy) {
		if u.Hex == 0 {
			continue
		}
		down := 0
		if u.FaceDown {
			down = 1
		}
		rv.Units = append(rv.Units, d.unit(u.ID, u.Side.String(), u.Hex.String(), u.Steps, down, u.Kind.String()))
	}
	for _, h := range v.Hidden {
		rv.Hidden = append(rv.Hidden, [2]any{h.Hex.String(), h.Count})
	}
	for _, b := range v.Boxes {
		if b.Box == wind.BoxUnused {
			continue
		}
		rv.Boxes = append(rv.Boxes, [4]any{sideName(b.Side), b.Box, b.Units, b.Steps})
	}
	for _, h := range v.VictoryHexes {
		held := ""
		if h.Held != adjudicator.NoSide {
			held = h.Held.String()
		}
		rv.Held = append(rv.Held, [3]string{h.Hex.String(), h.Name, held})
	}
	return rv
}

// replayMap is the island as the page's SVG draws it, every number written
// as the drawing needs it (one decimal). The page draws the units over it.
type replayMap struct {
	ViewBox string
	Hex     string       // the outline of a hex around 0 0, for the marks
	Paths   []replayPath // the hexes of each terrain, then each kind of line
	Rivers  []string     // the points of each river
	Victory []replayMark
	Landing []replayLanding
	Labels  []replayMark // the column and row numbers
}

// replayPath is one path of the map: all the hexes or lines of a class.
type replayPath struct{ Class, D string }

// replayMark is a victory hex (Title its name) or a number (Text) at X Y.
type replayMark struct{ X, Y, Title, Text string }

// replayLanding is a landing zone's mark at X Y, its name at TextY, and
// its staging box's name at BoxX BoxY.
type replayLanding struct{ ID, X, Y, TextY, BoxX, BoxY string }

// replayMapOf draws the island as the PNG map draws it: terrain and
// levels, the grid, zone boundaries, slopes, cliffs, rivers, victory hexes
// and landing zones, and the column and row numbers. One path per kind of
// hex and per kind of line, so that the browser builds a few elements
// rather than thousands.
func replayMapOf(m *wind.Map) *replayMap {
	g := newPNGGeom(m)
	rg := replayGeomOf(g)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	rm := &replayMap{ViewBox: fmt.Sprintf("0 %d %d %d", int(pngTop)-22, rg.W, rg.H-int(pngTop)+22)}
	// outline is the path through six corners, closed.
	outline := func(b *strings.Builder, corner func(k int) (x, y float64)) {
		for k := range 6 {
			x, y := corner(k)
			if k == 0 {
				b.WriteString("M")
			} else {
				b.WriteString("L")
			}
			b.WriteString(f(x) + " " + f(y))
		}
		b.WriteString("Z")
	}
	var hexPath strings.Builder
	outline(&hexPath, func(k int) (x, y float64) {
		a := float64(k) * math.Pi / 3
		return pngR * math.Cos(a), pngR * math.Sin(a)
	})
	rm.Hex = hexPath.String()
	paths := map[string]*strings.Builder{}
	var order []string
	to := func(cls string) *strings.Builder {
		if paths[cls] == nil {
			paths[cls] = new(strings.Builder)
			order = append(order, cls)
		}
		return paths[cls]
	}
	g.each(func(h adjudicator.Hex) {
		cls := "lake"
		switch i := terrainIndex(m, h); {
		case i == pxSea:
			return
		case i != pxLake:
			cls = fmt.Sprintf("l%d", i-pxLevel0)
		}
		outline(to(cls), func(k int) (x, y float64) { return g.corner(h, k, 0) })
	})
	seg := func(cls string, x0, y0, x1, y1 float64) {
		p := to(cls)
		p.WriteString("M" + f(x0) + " " + f(y0) + "L" + f(x1) + " " + f(y1))
	}
	g.eachSide(func(h, n adjudicator.Hex, d adjudicator.Direction) { mapSide(m, g, h, n, d, seg) })
	for _, cls := range order {
		rm.Paths = append(rm.Paths, replayPath{Class: cls, D: paths[cls].String()})
	}
	for _, r := range m.Rivers {
		var pts []string
		for _, h := range r.Hexes {
			x, y := g.center(h)
			pts = append(pts, f(x)+","+f(y))
		}
		rm.Rivers = append(rm.Rivers, strings.Join(pts, " "))
	}
	rm.marks(m, g, f)
	return rm
}

// marks adds the map's victory hexes, landing zones and column and row
// numbers, their numbers written by f.
func (rm *replayMap) marks(m *wind.Map, g pngGeom, f func(float64) string) {
	for _, v := range m.VictoryHexes {
		x, y := g.center(v.Hex)
		rm.Victory = append(rm.Victory, replayMark{X: f(x), Y: f(y), Title: fmt.Sprintf("%s %s (victory hex, zone %s)", v.Hex, v.Name, v.Zone)})
	}
	for _, lz := range m.LandingZones {
		x, y := g.center(lz.Hex)
		cx, cy := x-pngR*0.55, y+g.h*0.28
		sx, sy := g.center(lz.Staging)
		rm.Landing = append(rm.Landing, replayLanding{ID: lz.ID, X: f(cx), Y: f(cy), TextY: f(cy + 3.5), BoxX: f(sx), BoxY: f(sy + 4)})
	}
	for col := g.cols[0]; col <= g.cols[1]; col++ {
		x, _ := g.center(adjudicator.MakeHex(col, g.rows[0]))
		rm.Labels = append(rm.Labels, replayMark{X: f(x), Y: f(pngTop - 4), Text: fmt.Sprintf("%02d", col)})
	}
	for row := g.rows[0]; row <= g.rows[1]; row++ {
		_, y := g.center(adjudicator.MakeHex(g.cols[0]&^1, row))
		rm.Labels = append(rm.Labels, replayMark{X: "14", Y: f(y + 4), Text: fmt.Sprintf("%02d", row)})
	}
}

// mapSide draws through seg the side of h facing dir, n beyond it, when h
// is land: each side between two land hexes once, from the lower hex, as
// a cliff, a zone boundary or the grid, and a slope beside it.
func mapSide(m *wind.Map, g pngGeom, h, n adjudicator.Hex, dir adjudicator.Direction, seg func(cls string, x0, y0, x1, y1 float64)) {
	if !m.Land(h) || m.Land(n) && n < h {
		return
	}
	x0, y0, x1, y1 := g.side(h, dir, 0)
	switch {
	case m.Cliff(h, n) || m.Land(n) && m.Cliff(n, h):
		seg("cliff", x0, y0, x1, y1)
	case m.Land(n) && m.Zone(h) != m.Zone(n):
		seg("zone", x0, y0, x1, y1)
	default:
		seg("grid", x0, y0, x1, y1)
	}
	if up, _ := m.Slope(h, n); up && !m.Cliff(h, n) {
		x0, y0, x1, y1 := g.side(h, dir, 3)
		seg("slope", x0, y0, x1, y1)
	}
	if up, _ := m.Slope(n, h); up && m.Land(n) && !m.Cliff(n, h) {
		x0, y0, x1, y1 := g.side(n, dir.Opposite(), 3)
		seg("slope", x0, y0, x1, y1)
	}
}
