package island

// A note for whoever writes the scenario file format and its checker
// (orders/island): these are the types a scenario file fills. The rules
// engine reads them and trusts them, so everything a rule needs to be true
// of them is the checker's to enforce; the list is in the doc of Scenario.
// The types are stable: fields may be added, none renamed or removed
// without a line here saying so.
//
// Hex ids are "CCRR": the column number then the row number, each at least
// two digits, both counted from 1 ("0304" is column 3, row 4; "1210" column
// 12, row 10). Columns run left to right, rows top to bottom; hexes are
// flat-topped, so a column is a vertical file of hexes, and every other
// column sits half a hex lower than its neighbours (Grid.Shifted says which).

import (
	"fmt"
	"strconv"
)

// Scenario is one game's map, order of battle and exclusive rules: what the
// standard rules leave to each game (digest section 12).
//
// What the checker must guarantee, because the engine relies on it:
//   - every Hex named anywhere is on the grid (Grid.On);
//   - every Pair in Hexsides joins two adjacent hexes of the grid, and
//     every feature named there is in Key.Hexsides;
//   - every terrain named in Terrain, and DefaultTerrain, is in Key.Terrain;
//     the one of class Clear costs 1 MP, every other more (rule 5.21);
//   - every unit's Kind is in Kinds, unit ids are unique, artillery has a
//     Barrage and a Range, every unit is placed by Setup or arrives once by
//     Reinforcements, never both;
//   - areas named by placements and reinforcements exist;
//   - GameTurns >= 1 and every turn number lies in 1..GameTurns;
//   - FirstPlayer and every Side are US or Japan; Grid.Shifted is "even"
//     or "odd"; printed values are not negative;
//   - Score.Count is CountHexes or CountEliminated, Score.Held empty,
//     HeldOccupied or HeldControl, Condition.Op one of those it lists;
//   - no hex is both a fixed placement of two units, nor impassable where
//     a unit is placed or enters.
type Scenario struct {
	Name     string `json:"name"`
	Game     string `json:"game,omitempty"`     // e.g. "Saipan"
	Invented bool   `json:"invented,omitempty"` // not a published game's data
	Grid     Grid   `json:"grid"`

	// DefaultTerrain is the terrain of every hex Terrain does not name.
	DefaultTerrain string            `json:"default_terrain"`
	Terrain        map[Hex]string    `json:"terrain,omitempty"`
	Hexsides       map[Pair][]string `json:"hexsides,omitempty"` // features of the side between two hexes
	Names          map[Hex]string    `json:"names,omitempty"`    // place names, for reports only
	Key            Key               `json:"key"`

	Kinds []Kind `json:"kinds"`
	Units []Unit `json:"units"`

	Areas          map[string][]Hex `json:"areas,omitempty"` // named sets of hexes for set-up and entry
	Setup          Setup            `json:"setup"`
	Reinforcements []Reinforcement  `json:"reinforcements,omitempty"`
	GroundSupport  []Support        `json:"ground_support,omitempty"`

	// Dates are the Turn Record Track's date of each Game-Turn, as the
	// file writes it, for reports only; a scenario may give none.
	Dates map[int]string `json:"dates,omitempty"`

	FirstPlayer Side    `json:"first_player"`
	GameTurns   int     `json:"game_turns"`
	Victory     Victory `json:"victory"`
	Rules       Rules   `json:"rules,omitempty"`
}

// TurnName names Game-Turn turn for players: "Game-Turn 3, 14 Sep 42"
// with the track's date, "Game-Turn 3" without one.
func (s *Scenario) TurnName(turn int) string {
	if d := s.Dates[turn]; d != "" {
		return fmt.Sprintf("Game-Turn %d, %s", turn, d)
	}
	return fmt.Sprintf("Game-Turn %d", turn)
}

// Grid is the hex grid's size and offset. Columns are numbered 1..Columns,
// rows 1..Rows.
type Grid struct {
	Columns int `json:"columns"`
	Rows    int `json:"rows"`
	// Shifted is "even" when the even-numbered columns sit half a hex lower
	// than the odd ones, "odd" when the odd ones do.
	Shifted string `json:"shifted"`
}

// The two values of Grid.Shifted.
const (
	ShiftEven = "even"
	ShiftOdd  = "odd"
)

// Hex is one hex of the map, written "CCRR" in text and JSON.
type Hex struct {
	Col, Row int
}

// String gives the hex's id, "CCRR": column and row padded to the same
// width, two digits or more, so that ParseHex reads it back.
func (h Hex) String() string {
	w := max(2, len(strconv.Itoa(h.Col)), len(strconv.Itoa(h.Row)))
	return fmt.Sprintf("%0*d%0*d", w, h.Col, w, h.Row)
}

// MarshalText writes the id, so that hexes key JSON objects.
func (h Hex) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads an id written by String.
func (h *Hex) UnmarshalText(b []byte) error {
	p, err := ParseHex(string(b))
	if err != nil {
		return err
	}
	*h = p
	return nil
}

// ParseHex reads a hex id: an even number of digits (at least four), the
// first half the column and the second half the row.
func ParseHex(s string) (Hex, error) {
	if len(s) < 4 || len(s)%2 != 0 {
		return Hex{}, fmt.Errorf("hex %q: want CCRR, column then row, e.g. 0304", s)
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return Hex{}, fmt.Errorf("hex %q: want digits only, column then row, e.g. 0304", s)
		}
	}
	c, _ := strconv.Atoi(s[:len(s)/2])
	r, _ := strconv.Atoi(s[len(s)/2:])
	return Hex{c, r}, nil
}

// On reports whether h is a hex of the grid.
func (g Grid) On(h Hex) bool {
	return h.Col >= 1 && h.Col <= g.Columns && h.Row >= 1 && h.Row <= g.Rows
}

// lowered reports whether column c sits half a hex lower than its neighbours.
func (g Grid) lowered(c int) bool {
	if g.Shifted == ShiftOdd {
		return c%2 != 0
	}
	return c%2 == 0
}

// Direction names the six neighbours of a flat-topped hex.
type Direction int

// The six directions, clockwise from north.
const (
	North Direction = iota
	NorthEast
	SouthEast
	South
	SouthWest
	NorthWest
)

// Step gives the hex next to h in direction d; it may be off the grid.
func (g Grid) Step(h Hex, d Direction) Hex {
	// A column half a hex lower meets its neighbours' same row on its
	// upper diagonals; a higher one meets it on its lower diagonals.
	up := h.Row - 1
	if g.lowered(h.Col) {
		up = h.Row
	}
	switch d {
	case North:
		return Hex{h.Col, h.Row - 1}
	case NorthEast:
		return Hex{h.Col + 1, up}
	case SouthEast:
		return Hex{h.Col + 1, up + 1}
	case South:
		return Hex{h.Col, h.Row + 1}
	case SouthWest:
		return Hex{h.Col - 1, up + 1}
	default:
		return Hex{h.Col - 1, up}
	}
}

// Neighbours gives the hexes of the grid next to h, clockwise from north.
func (g Grid) Neighbours(h Hex) []Hex {
	out := make([]Hex, 0, 6)
	for d := North; d <= NorthWest; d++ {
		if n := g.Step(h, d); g.On(n) {
			out = append(out, n)
		}
	}
	return out
}

// Adjacent reports whether a and b are neighbours.
func (g Grid) Adjacent(a, b Hex) bool { return g.Distance(a, b) == 1 }

// Distance counts the hexes from a to b, b counted and a not (rule 8.12).
func (g Grid) Distance(a, b Hex) int {
	ax, ay, az := g.cube(a)
	bx, by, bz := g.cube(b)
	return max(abs(ax-bx), abs(ay-by), abs(az-bz))
}

// cube gives the hex's cube coordinates, in which distance is the largest
// coordinate difference (x the column, z the row less half the column).
func (g Grid) cube(h Hex) (x, y, z int) {
	x = h.Col
	if g.Shifted == ShiftOdd {
		z = h.Row - floorDiv(h.Col, 2)
	} else {
		z = h.Row - floorDiv(h.Col+1, 2)
	}
	return x, -x - z, z
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// Pair is the hexside between two adjacent hexes, written "0304-0305" with
// the smaller id first; MakePair puts any two hexes in that order.
type Pair struct {
	A, B Hex
}

// MakePair gives the hexside between a and b in canonical order.
func MakePair(a, b Hex) Pair {
	if b.Col < a.Col || (b.Col == a.Col && b.Row < a.Row) {
		a, b = b, a
	}
	return Pair{a, b}
}

// String writes the pair as "AAAA-BBBB".
func (p Pair) String() string { return p.A.String() + "-" + p.B.String() }

// MarshalText writes the pair, so that pairs key JSON objects.
func (p Pair) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads "AAAA-BBBB" in either order and stores it canonically.
func (p *Pair) UnmarshalText(b []byte) error {
	s := string(b)
	for i := range len(s) {
		if s[i] == '-' {
			a, err := ParseHex(s[:i])
			if err != nil {
				return err
			}
			c, err := ParseHex(s[i+1:])
			if err != nil {
				return err
			}
			*p = MakePair(a, c)
			return nil
		}
	}
	return fmt.Errorf("hexside %q: want two hex ids joined by '-', e.g. 0304-0305", s)
}

// Key is the map's Terrain Key: what each terrain and each hexside feature
// costs and how it defends.
type Key struct {
	Terrain  []TerrainType `json:"terrain"`
	Hexsides []Feature     `json:"hexsides,omitempty"`
}

// Line is a terrain line of the Combat Results Table (rule 7.43).
type Line string

// The four lines of the CRT, from worst to best for the defender.
const (
	LineClear  Line = "clear"
	LineRiver  Line = "river"
	LineBroken Line = "broken" // Broken and Town
	LineRough  Line = "rough"
)

// Rank orders the lines by their benefit to the defender (rule 7.44):
// clear 0, river 1, broken/town 2, rough 3; -1 for an unknown line.
func (l Line) Rank() int {
	switch l {
	case LineClear:
		return 0
	case LineRiver:
		return 1
	case LineBroken:
		return 2
	case LineRough:
		return 3
	}
	return -1
}

// TerrainType is one terrain of the key.
type TerrainType struct {
	Name string `json:"name"`
	// MP is the cost of entering a hex of it (rule 5.21).
	MP int `json:"mp"`
	// Line is the CRT line a defender in it uses (rule 7.43).
	Line Line `json:"line"`
	// Armor reports that armor enters it freely; otherwise only through a
	// road or trail hexside (rule 5.25: true for clear and town).
	Armor bool `json:"armor,omitempty"`
	// Impassable terrain (sea, off-map) is never entered, by movement,
	// retreat or advance.
	Impassable bool `json:"impassable,omitempty"`
}

// FeatureClass is what the standard rules make of a hexside feature.
type FeatureClass string

// The hexside classes the standard rules name; Other is any feature that
// only costs MP (and may give a CRT line like a river).
const (
	ClassRiver      FeatureClass = "river"
	ClassRoad       FeatureClass = "road"
	ClassTrail      FeatureClass = "trail"
	ClassProhibited FeatureClass = "prohibited"
	ClassOther      FeatureClass = "other"
)

// Feature is one hexside feature of the key.
type Feature struct {
	Name  string       `json:"name"`
	Class FeatureClass `json:"class"`
	// MP is added to the cost of the hex entered across it (rule 5.21);
	// unused for roads and trails, whose costs are rules 5.22 and 5.23.
	MP int `json:"mp,omitempty"`
	// Line is the CRT line it gives a defender when every attacker attacks
	// across it (rule 7.42); empty for none, except that a feature of class
	// river without a Line gives LineRiver.
	Line Line `json:"line,omitempty"`
}

// Class is the kind of unit the rules distinguish (digest Q14).
type Class string

// The unit classes.
const (
	Infantry  Class = "infantry"
	Engineer  Class = "engineer"
	Armor     Class = "armor"
	Artillery Class = "artillery"
	Other     Class = "other" // any other counter type: no special rule
)

// Kind is a counter type of the game (infantry, LVT, field artillery...) and
// the class the rules treat it as.
type Kind struct {
	Name  string `json:"name"`
	Class Class  `json:"class"`
}

// Side is one of the two players.
type Side string

// The two sides.
const (
	US    Side = "us"
	Japan Side = "japan"
)

// Enemy gives the other side.
func (s Side) Enemy() Side {
	if s == US {
		return Japan
	}
	return US
}

// Unit is one counter with its printed values (rule 2.32). Artillery has
// Barrage, FPF and Range and no Attack.
type Unit struct {
	ID       string `json:"id"`
	Name     string `json:"name,omitempty"`
	Side     Side   `json:"side"`
	Kind     string `json:"kind"`
	Attack   int    `json:"attack,omitempty"`
	Defense  int    `json:"defense"`
	Movement int    `json:"movement"`
	Barrage  int    `json:"barrage,omitempty"`
	FPF      int    `json:"fpf,omitempty"`
	Range    int    `json:"range,omitempty"`
}

// Setup is the Initial Deployment Charts (rule 3.0).
type Setup struct {
	// First is the side that places its units first when either side
	// places units in areas.
	First      Side        `json:"first"`
	Placements []Placement `json:"placements"`
}

// Placement puts one unit on a named hex, or on a hex of its owner's choice
// within an area.
type Placement struct {
	Unit string `json:"unit"`
	Hex  *Hex   `json:"hex,omitempty"`
	Area string `json:"area,omitempty"`
}

// Reinforcement is units arriving on the Turn Record Track: they may enter
// in their owner's Movement Phase of that Game-Turn or later, starting from
// one of the entry hexes (or any hex of the area).
type Reinforcement struct {
	Turn  int      `json:"turn"`
	Side  Side     `json:"side"`
	Units []string `json:"units"`
	Entry []Hex    `json:"entry,omitempty"`
	Area  string   `json:"area,omitempty"`
}

// Support is one side's Ground Support Points for one Game-Turn (rule 9.0).
type Support struct {
	Turn   int  `json:"turn"`
	Side   Side `json:"side"`
	Points int  `json:"points"`
}

// Rules are the exclusive rules the engine knows of.
type Rules struct {
	// GSPRange limits ground support to this many hexes from a friendly
	// unit; 0 is the standard unlimited range (rule 9.13).
	GSPRange int `json:"gsp_range,omitempty"`
}

// Victory is how points are scored and which outcome they give; it is
// judged at the end of the last Game-Turn (rule 3.0).
type Victory struct {
	Scores []Score `json:"scores"`
	// Outcomes are tried in order; the first whose condition holds is the
	// result. If none holds the game is a draw.
	Outcomes []Outcome `json:"outcomes"`
	// Owner gives who holds each scoring hex before any unit enters it,
	// for Score.Held = HeldControl.
	Owner map[Hex]Side `json:"owner,omitempty"`
}

// The ways a hex is held.
const (
	// HeldOccupied: a unit of the side is in the hex.
	HeldOccupied = "occupied"
	// HeldControl: a unit of the side was the last to be in the hex.
	HeldControl = "control"
)

// The things a Score counts.
const (
	CountHexes      = "hexes"      // each hex of Hexes (or Area) held by Side
	CountEliminated = "eliminated" // each enemy unit eliminated (of Units, or of Class, or any)
)

// Score gives Side Points for each thing counted.
type Score struct {
	Side   Side   `json:"side"`
	Count  string `json:"count"`
	Points int    `json:"points"`
	// For CountHexes.
	Hexes []Hex  `json:"hexes,omitempty"`
	Area  string `json:"area,omitempty"`
	Held  string `json:"held,omitempty"` // HeldOccupied (the default) or HeldControl
	// Turn is the Game-Turn at whose end the hexes are looked at; 0 is the
	// end of the game.
	Turn int `json:"turn,omitempty"`
	// For CountEliminated: only these units, or only this class, if set.
	Units []string `json:"units,omitempty"`
	Class Class    `json:"class,omitempty"`
}

// Outcome is a result and the condition that gives it.
type Outcome struct {
	Winner Side      `json:"winner,omitempty"` // empty: a draw
	Level  string    `json:"level,omitempty"`  // e.g. "decisive", "marginal"
	When   Condition `json:"when"`
}

// Condition compares points: Points(Side) - Points(Minus) Op Value, where
// an empty Side or Minus counts 0. All and Any combine conditions; a
// condition with neither and no Op always holds.
type Condition struct {
	Side  Side        `json:"side,omitempty"`
	Minus Side        `json:"minus,omitempty"`
	Op    string      `json:"op,omitempty"` // ">=", ">", "<=", "<", "==", "!="
	Value int         `json:"value,omitempty"`
	All   []Condition `json:"all,omitempty"`
	Any   []Condition `json:"any,omitempty"`
}

// TerrainOf gives the key's terrain of hex h.
func (s *Scenario) TerrainOf(h Hex) TerrainType {
	name, ok := s.Terrain[h]
	if !ok {
		name = s.DefaultTerrain
	}
	for _, t := range s.Key.Terrain {
		if t.Name == name {
			return t
		}
	}
	return TerrainType{Name: name, Line: LineClear, MP: 1}
}

// FeaturesOf gives the key's features of the hexside between a and b.
func (s *Scenario) FeaturesOf(a, b Hex) []Feature {
	names := s.Hexsides[MakePair(a, b)]
	if len(names) == 0 {
		return nil
	}
	out := make([]Feature, 0, len(names))
	for _, n := range names {
		out = append(out, s.Feature(n))
	}
	return out
}

// Feature gives the key's hexside feature of that name (class Other, no
// cost, if the key lacks it).
func (s *Scenario) Feature(name string) Feature {
	for _, f := range s.Key.Hexsides {
		if f.Name == name {
			return f
		}
	}
	return Feature{Name: name, Class: ClassOther}
}

// HasClass reports whether the hexside between a and b has a feature of
// class c.
func (s *Scenario) HasClass(a, b Hex, c FeatureClass) bool {
	for _, f := range s.FeaturesOf(a, b) {
		if f.Class == c {
			return true
		}
	}
	return false
}

// ClassOf gives the rules class of a unit's kind (Other if the kind is
// unknown).
func (s *Scenario) ClassOf(u Unit) Class {
	for _, k := range s.Kinds {
		if k.Name == u.Kind {
			return k.Class
		}
	}
	return Other
}

// Unit gives the unit of that id and whether there is one.
func (s *Scenario) Unit(id string) (Unit, bool) {
	for _, u := range s.Units {
		if u.ID == id {
			return u, true
		}
	}
	return Unit{}, false
}

// SupportFor gives a side's Ground Support Points for a Game-Turn.
func (s *Scenario) SupportFor(turn int, side Side) int {
	n := 0
	for _, g := range s.GroundSupport {
		if g.Turn == turn && g.Side == side {
			n += g.Points
		}
	}
	return n
}
