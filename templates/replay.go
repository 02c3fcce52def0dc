package templates

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
)

//go:embed replay/page.html replay/replay.css replay/replay.js
var replayFiles embed.FS

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
// names the first die, entry or link that does not match. It carries each
// log entry's canonical JSON for that, as the export holds it.
//
// Unlike the reports, the page is built from positions: it is made from
// the export of a game that has ended, when the seed is revealed and the
// umpire's view is no secret. The positions come from replaying each
// entry's recorded orders through the rules with the recorded dice, from
// the opening position; the words come from the log's events, redacted for
// each reader (adjudicator.Redact) and worded by EventText. A replay that
// breaks down (an export altered by hand) keeps the last position it
// reached, and the page still names what the browser finds wrong.
func ReplayPage(x *store.Export) ([]byte, error) {
	d, err := replayDataOf(x)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(d) // escapes <, > and &: safe inside <script>
	if err != nil {
		return nil, fmt.Errorf("templates: replay data: %w", err)
	}
	page, err := replayFiles.ReadFile("replay/page.html")
	if err != nil {
		return nil, err
	}
	css, _ := replayFiles.ReadFile("replay/replay.css")
	js, _ := replayFiles.ReadFile("replay/replay.js")
	title := "attu game " + x.Game + " — replay"
	return fillPage(page, map[string][]byte{
		"{{TITLE}}":   []byte(html.EscapeString(title)),
		"{{HEADING}}": []byte(html.EscapeString(fmt.Sprintf("attu game %s: %s", x.Game, adjudicator.ScenarioTitle(orCampaign(x.Scenario))))),
		"/*{{CSS}}*/": css,
		"/*{{JS}}*/":  js,
		"{{DATA}}":    data,
		"{{MAP}}":     d.mapSVG,
	}), nil
}

// fillPage returns page with each of its places (the keys of fill) replaced
// by what fill holds for it; what is filled in is not searched again. The
// page is a megabyte or more, most of it the data: it is written once, in
// a buffer of its size.
func fillPage(page []byte, fill map[string][]byte) []byte {
	type place struct {
		at  int
		key string
	}
	var places []place
	size := len(page)
	for k, v := range fill {
		for from := 0; ; {
			i := bytes.Index(page[from:], []byte(k))
			if i < 0 {
				break
			}
			places = append(places, place{from + i, k})
			size += len(v) - len(k)
			from += i + len(k)
		}
	}
	slices.SortFunc(places, func(a, b place) int { return a.at - b.at })
	out := make([]byte, 0, size)
	from := 0
	for _, p := range places {
		if p.at < from {
			continue // inside a place already filled
		}
		out = append(out, page[from:p.at]...)
		out = append(out, fill[p.key]...)
		from = p.at + len(p.key)
	}
	return append(out, page[from:]...)
}

func orCampaign(s string) string {
	if s == "" {
		return adjudicator.ScenarioCampaign
	}
	return s
}

// The readers of the page, in the order of the arrays in replayStep.
var replaySides = [3]adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.Umpire}

// replayData is the page's JSON.
type replayData struct {
	Game       string            `json:"game"`
	Commitment string            `json:"commitment"`
	Seed       string            `json:"seed"`
	Head       string            `json:"head"`
	Geom       replayGeom        `json:"geom"`
	Texts      []string          `json:"texts"`   // every sentence once; steps refer to them by index
	Views      []replayView      `json:"views"`   // every distinct view once
	Units      [][]any           `json:"units"`   // every distinct unit on the map once: id, side, hex, steps, 1 when face down, kind
	Entries    []replayEntry     `json:"entries"` // the log, as hashed
	Dice       []replayDie       `json:"dice"`
	Steps      []replayStep      `json:"steps"`
	Purposes   map[string]string `json:"purposes"`
	LuckText   string            `json:"luck_text,omitempty"`

	mapSVG []byte
	texts  map[string]int
	views  map[string]int
	units  map[string]int
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

// replayDie is one die of the dice log, as recorded.
type replayDie struct {
	Seq     uint64 `json:"n"`
	Entry   uint64 `json:"e"`
	Face    int    `json:"f"`
	Raw     []int  `json:"r"`
	Purpose string `json:"p"`
	Side    string `json:"s,omitempty"`
	Unit    string `json:"u,omitempty"`
	Hex     string `json:"x,omitempty"`
	Need    int    `json:"k,omitempty"`
	Seen    int    `json:"v"` // adjudicator.Audience: 1 U.S., 2 Japanese, 3 both
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
// 1 when face down, kind. A page has thousands of them to look up and a
// few hundred distinct ones.
func (d *replayData) unit(id, side, hex string, steps, down int, kind string) int {
	key := strings.Join([]string{id, side, hex, strconv.Itoa(steps), strconv.Itoa(down), kind}, "\x00")
	if i, ok := d.units[key]; ok {
		return i
	}
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
	adjudicator.DieWeather:           "weather (3.3)",
	adjudicator.DieAirpower:          "airpower (3.4)",
	adjudicator.DieRanged:            "ranged fire (8.1)",
	adjudicator.DieAirStrike:         "air strike (8.1.6)",
	adjudicator.DieMeleeAttack:       "melee, attacker (8.2)",
	adjudicator.DieMeleeDefence:      "melee, defender (8.2)",
	adjudicator.DieUnknownTable:      "Unknown unit's table (2.5)",
	adjudicator.DiePoolDraw:          "draw from the pool (2.5)",
	adjudicator.DieKomandorskiEffect: "Komandorski effect chit (12.1)",
	adjudicator.DieKomandorskiDelay:  "Komandorski delay chit (12.1)",
	adjudicator.DieLossRecovery:      "loss recovery (9.1)",
	adjudicator.DieScatter:           "landing scatter (9.2.2)",
	adjudicator.DieSetupDraw:         "Japanese setup draw (12.3)",
	adjudicator.DieVPDraw:            "victory point chit draw (14.0)",
}

// toHit reports whether a die is a to-hit roll judged in the luck chart,
// as store.Luck judges them: ranged, air and melee fire with a face needed.
func toHit(r store.Roll) bool {
	switch r.Purpose {
	case adjudicator.DieRanged, adjudicator.DieAirStrike, adjudicator.DieMeleeAttack, adjudicator.DieMeleeDefence:
		return r.Need >= 1 && r.Need <= 10
	}
	return false
}

func replayDataOf(x *store.Export) (*replayData, error) {
	if len(x.Log) == 0 {
		return nil, errors.New("templates: replay: the export has no log")
	}
	d := &replayData{Game: x.Game, Commitment: x.Commitment, Seed: x.Seed, Head: x.Head,
		Purposes: map[string]string{}, texts: map[string]int{}, views: map[string]int{}, units: map[string]int{}}
	for p, s := range replayPurposes {
		d.Purposes[string(p)] = s
	}
	opening := new(adjudicator.State)
	if err := json.Unmarshal(x.InitialState, opening); err != nil {
		return nil, fmt.Errorf("templates: replay: the opening position: %w", err)
	}
	if err := opening.Attach(nil, nil); err != nil {
		return nil, fmt.Errorf("templates: replay: the opening position: %w", err)
	}
	// The summary of the luck in words is store.Luck's, over the entries
	// in force; an export whose dice or chain do not check has none (the
	// page says why). The audit that says so reads the export as the
	// replay below does, so it runs beside it.
	var luckText string
	audited := make(chan struct{})
	defer func() { <-audited }() // no early return leaves it reading x
	go func() {
		defer close(audited)
		if rep := store.Audit(x, store.Engine{}); rep.OK() && rep.Luck != nil {
			var b bytes.Buffer
			rep.Luck.WriteText(&b)
			luckText = b.String()
		}
	}()
	m := opening.Map()
	g := newPNGGeom(m)
	d.Geom = replayGeomOf(g)
	if m == adjudicator.BuiltinMap() {
		d.mapSVG = builtinMapSVG()
	} else {
		d.mapSVG = []byte(replayMapSVG(m, g, d.Geom))
	}

	// The log as hashed, and each entry decoded.
	entries := make([]*store.Entry, len(x.Log))
	for i, xe := range x.Log {
		c, err := store.Canonical(xe.Entry)
		if err != nil {
			return nil, fmt.Errorf("templates: replay: entry %d: %w", i+1, err)
		}
		d.Entries = append(d.Entries, replayEntry{JSON: string(c), Hash: xe.Hash, Undone: xe.RolledBackBy})
		e := new(store.Entry)
		if err := json.Unmarshal(c, e); err != nil {
			return nil, fmt.Errorf("templates: replay: entry %d: %w", i+1, err)
		}
		entries[i] = e
	}
	rolls := map[uint64]store.Roll{}
	for _, r := range x.Dice {
		rolls[r.Seq] = r
		rd := replayDie{Seq: r.Seq, Entry: r.Entry, Face: r.Face, Raw: r.Raw, Purpose: string(r.Purpose),
			Unit: r.Unit, Need: r.Need, Seen: int(r.Seen)}
		if rd.Raw == nil {
			rd.Raw = []int{}
		}
		if r.Side != adjudicator.NoSide {
			rd.Side = r.Side.String()
		}
		if r.Hex != 0 {
			rd.Hex = r.Hex.String()
		}
		d.Dice = append(d.Dice, rd)
	}

	// What happened, in words, depends on the entries alone: it is
	// worded beside the replay of the positions.
	words := make([]replayWords, len(entries))
	worded := make(chan struct{})
	defer func() { <-worded }()
	go func() {
		defer close(worded)
		for i, e := range entries {
			words[i] = wordsOf(e)
		}
	}()

	// Replay the positions, following rollbacks as the audit does.
	states := map[uint64]*adjudicator.State{}
	var live []uint64
	var luck [2][3]float64
	broken := ""
	for i, e := range entries {
		seq := uint64(i + 1)
		var st *adjudicator.State
		switch e.Kind {
		case store.KindCreate:
			st = opening
			live = []uint64{seq}
		case store.KindOrders:
			top := states[live[len(live)-1]]
			st = top
			if broken == "" && e.Orders != nil {
				out, err := replayStepOf(top, e, rolls)
				if err != nil {
					broken = fmt.Sprintf("entry %d cannot be replayed (%v): the positions shown stop there", seq, err)
				} else {
					st = out
				}
			}
			live = append(live, seq)
		case store.KindRollback:
			if at := indexOf(live, e.To); at >= 0 {
				live = live[:at+1]
				st = states[e.To]
			} else {
				st = states[live[len(live)-1]]
			}
			live = append(live, seq)
		default:
			st = states[live[len(live)-1]]
			live = append(live, seq)
		}
		states[seq] = st

		step := replayStep{Entry: seq, Kind: string(e.Kind), Title: replayTitle(e), Undone: x.Log[i].RolledBackBy, Broken: broken}
		if e.DiceTo != 0 {
			step.Dice = [2]uint64{e.DiceFrom, e.DiceTo}
		}
		if step.Undone == 0 {
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
		step.Luck = luck
		for k := range luck {
			step.Luck[k][1] = math.Round(luck[k][1]*100) / 100
		}
		for k, side := range replaySides {
			step.View[k] = d.view(d.viewOf(st, side))
		}
		d.Steps = append(d.Steps, step)
	}
	<-worded
	for i := range d.Steps {
		step := &d.Steps[i]
		for k := range replaySides {
			step.Events[k] = []int{}
			for _, w := range words[i].events[k] {
				step.Events[k] = append(step.Events[k], d.text(w))
			}
			step.Fight[k] = words[i].fight[k]
		}
	}
	<-audited
	d.LuckText = luckText
	return d, nil
}

// builtinMapSVG is the built-in map drawn once: every page of a game on
// it carries the same drawing.
var builtinMapSVG = sync.OnceValue(func() []byte {
	m := adjudicator.BuiltinMap()
	g := newPNGGeom(m)
	return []byte(replayMapSVG(m, g, replayGeomOf(g)))
})

// replayWords is what each reader of the page reads of one entry, in the
// order of replaySides: the words of each event it reads and of the
// entry's note, and the hexes fought over.
type replayWords struct {
	events [3][]string
	fight  [3][]string
}

// wordsOf words an entry's events as each reader reads them
// (adjudicator.Redact, then EventText). The umpire, and a player with
// full sight of an event, read it as it is (as Redact says), and so the
// same words: those are made once.
func wordsOf(e *store.Entry) replayWords {
	var w replayWords
	var evs [3][]adjudicator.Event
	for _, ev := range e.Events {
		full := ""
		for k, side := range replaySides {
			r, ok := adjudicator.Redact(ev, side)
			if !ok {
				continue
			}
			if fightKinds[r.Kind] {
				evs[k] = append(evs[k], r) // all foughtHexes reads
			}
			if side != adjudicator.Umpire && ev.Seen.Of(side) != adjudicator.SightFull {
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

func indexOf(s []uint64, v uint64) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// noteText words a rollback, an end or a note.
func noteText(e *store.Entry) string {
	switch e.Kind {
	case store.KindRollback:
		return fmt.Sprintf("The umpire returned the game to entry %d: %s", e.To, e.Note)
	case store.KindEnd:
		return "The game ended: " + e.Note
	}
	return e.Note
}

func replayTitle(e *store.Entry) string {
	switch e.Kind {
	case store.KindCreate:
		return "The opening position"
	case store.KindOrders:
		return fmt.Sprintf("Turn %d (%s): %s %s", e.Turn, adjudicator.TurnDate(e.Turn), sideName(e.Side), waitNoun(e.Wait))
	case store.KindRollback:
		return fmt.Sprintf("Rollback to entry %d", e.To)
	case store.KindEnd:
		return "The end of the game"
	}
	if e.Side != adjudicator.NoSide {
		return "A note from the " + sideName(e.Side) + " player"
	}
	return "A note from the server"
}

// replayDiceOf hands a replay the dice an entry recorded, in order.
type replayDiceOf struct {
	rolls map[uint64]store.Roll
	next  uint64
	to    uint64
	short bool
}

func (r *replayDiceOf) Roll(adjudicator.Die) int {
	if r.next >= r.to {
		r.short = true
		return 1
	}
	roll, ok := r.rolls[r.next]
	r.next++
	if !ok {
		r.short = true
		return 1
	}
	return min(max(roll.Face, 1), 10)
}

// replayStepOf resolves an orders entry from the position before it with
// the dice the entry recorded.
func replayStepOf(top *adjudicator.State, e *store.Entry, rolls map[uint64]store.Roll) (out *adjudicator.State, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("the rules broke down: %v", r)
		}
	}()
	dice := &replayDiceOf{rolls: rolls, next: e.DiceFrom, to: e.DiceTo}
	out, _, problems := adjudicator.Resolve(top.Clone(), *e.Orders, dice)
	switch {
	case len(problems) > 0:
		return nil, fmt.Errorf("the rules refuse its orders: %s", problems[0].Msg)
	case out == nil:
		return nil, errors.New("no position")
	case dice.short:
		return nil, errors.New("it needs more dice than it recorded")
	}
	return out, nil
}

// viewOf is side's view of st, as the page draws it.
func (d *replayData) viewOf(st *adjudicator.State, side adjudicator.Side) replayView {
	v := st.View(side)
	rv := replayView{Turn: v.Turn, Date: adjudicator.TurnDate(max(v.Turn, 1)), Weather: v.Weather.String(), Night: v.Night,
		AirUS: v.Air.US, AirJP: v.Air.JP, Casualties: v.Casualties, Units: []int{}, Cleared: v.ClearedZones}
	add := func(u adjudicator.UnitView) {
		if u.Hex == 0 {
			return
		}
		down := 0
		if u.FaceDown {
			down = 1
		}
		rv.Units = append(rv.Units, d.unit(u.ID, u.Side.String(), u.Hex.String(), u.Steps, down, u.Kind.String()))
	}
	for _, u := range v.Units {
		add(u)
	}
	for _, u := range v.Enemy {
		add(u)
	}
	for _, h := range v.Hidden {
		rv.Hidden = append(rv.Hidden, [2]any{h.Hex.String(), h.Count})
	}
	for _, b := range v.Boxes {
		if b.Box == adjudicator.BoxUnused {
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

// replayMapSVG draws the island once, as the PNG map draws it: terrain
// and levels, the grid, zone boundaries, slopes, cliffs, rivers, victory
// hexes and landing zones, and the column and row numbers. The page draws
// the units over it.
func replayMapSVG(m *adjudicator.Map, g pngGeom, rg replayGeom) string {
	var b strings.Builder
	f := func(v float64) string { return fmt.Sprintf("%.1f", v) }
	fmt.Fprintf(&b, `<svg id="map" xmlns="http://www.w3.org/2000/svg" viewBox="0 %d %d %d" role="img" aria-label="map of Attu island">`,
		int(pngTop)-22, rg.W, rg.H-int(pngTop)+22)
	var hexPath strings.Builder
	for k := range 6 {
		a := float64(k) * math.Pi / 3
		if k == 0 {
			hexPath.WriteString("M")
		} else {
			hexPath.WriteString("L")
		}
		fmt.Fprintf(&hexPath, "%s %s", f(pngR*math.Cos(a)), f(pngR*math.Sin(a)))
	}
	hexPath.WriteString("Z")
	fmt.Fprintf(&b, `<defs><path id="hx" d="%s"/></defs><g id="terrain">`, hexPath.String())
	// One path per kind of hex and per kind of line, so that the browser
	// builds a few elements rather than thousands.
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
		cls := ""
		switch {
		case !m.Land(h):
			return
		case m.Terrain(h) == adjudicator.Lake:
			cls = "lake"
		default:
			cls = fmt.Sprintf("l%d", min(max(m.Level(h), 0), 4))
		}
		p := to(cls)
		for k := range 6 {
			x, y := g.corner(h, k, 0)
			if k == 0 {
				p.WriteString("M")
			} else {
				p.WriteString("L")
			}
			p.WriteString(f(x) + " " + f(y))
		}
		p.WriteString("Z")
	})
	seg := func(cls string, x0, y0, x1, y1 float64) {
		fmt.Fprintf(to(cls), "M%s %sL%s %s", f(x0), f(y0), f(x1), f(y1))
	}
	g.each(func(h adjudicator.Hex) {
		if !m.Land(h) {
			return
		}
		for dir := adjudicator.North; dir <= adjudicator.NorthWest; dir++ {
			n := h.Step(dir)
			// Each side between two land hexes once, from the lower hex.
			if m.Land(n) && n < h {
				continue
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
			if m.Land(n) {
				if up, _ := m.Slope(n, h); up && !m.Cliff(n, h) {
					x0, y0, x1, y1 := g.side(n, dir.Opposite(), 3)
					seg("slope", x0, y0, x1, y1)
				}
			}
		}
	})
	for _, cls := range order {
		fmt.Fprintf(&b, `<path class="%s" d="%s"/>`, cls, paths[cls].String())
	}
	for _, r := range m.Rivers {
		var pts []string
		for _, h := range r.Hexes {
			x, y := g.center(h)
			pts = append(pts, f(x)+","+f(y))
		}
		fmt.Fprintf(&b, `<polyline class="river" points="%s"/>`, strings.Join(pts, " "))
	}
	b.WriteString(`</g><g id="features">`)
	for _, v := range m.VictoryHexes {
		x, y := g.center(v.Hex)
		fmt.Fprintf(&b, `<use href="#hx" x="%s" y="%s" class="victory" transform-origin="%s %s" transform="scale(0.86)"><title>%s %s (victory hex, zone %s)</title></use>`,
			f(x), f(y), f(x), f(y), v.Hex, html.EscapeString(v.Name), v.Zone)
	}
	for _, lz := range m.LandingZones {
		x, y := g.center(lz.Hex)
		cx, cy := x-pngR*0.55, y+g.h*0.28
		fmt.Fprintf(&b, `<circle class="lz" cx="%s" cy="%s" r="7"/><text class="lzt" x="%s" y="%s">%s</text>`, f(cx), f(cy), f(cx), f(cy+3.5), lz.ID)
		sx, sy := g.center(lz.Staging)
		fmt.Fprintf(&b, `<text class="box" x="%s" y="%s">box %s</text>`, f(sx), f(sy+4), lz.ID)
	}
	for col := g.cols[0]; col <= g.cols[1]; col++ {
		x, _ := g.center(adjudicator.MakeHex(col, g.rows[0]))
		fmt.Fprintf(&b, `<text class="num" x="%s" y="%s">%02d</text>`, f(x), f(pngTop-4), col)
	}
	for row := g.rows[0]; row <= g.rows[1]; row++ {
		_, y := g.center(adjudicator.MakeHex(g.cols[0]&^1, row))
		fmt.Fprintf(&b, `<text class="num" x="14" y="%s">%02d</text>`, f(y+4), row)
	}
	b.WriteString(`</g><g id="fights"></g><g id="held"></g><g id="units"></g></svg>`)
	return b.String()
}
