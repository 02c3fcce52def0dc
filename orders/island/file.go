package island

// The shape of a scenario file, key by key, as examples/island-war/README.md
// documents it. Every value a later check may point at is a Str or a Num,
// which keep where they are written.

// file is the whole scenario file.
type file struct {
	Pos
	Name        Str          `yaml:"name"`
	Game        Str          `yaml:"game"`
	Invented    bool         `yaml:"invented"`
	GameTurns   Num          `yaml:"game_turns"`
	FirstPlayer Str          `yaml:"first_player"`
	Map         *mapSection  `yaml:"map"`
	Key         *keySection  `yaml:"terrain_key"`
	Kinds       Map[Str]     `yaml:"kinds"`
	Units       *unitsByside `yaml:"units"`
	Areas       Map[[]Str]   `yaml:"areas"`
	Setup       *setupSec    `yaml:"setup"`
	Track       []trackTurn  `yaml:"track"`
	Victory     *victorySec  `yaml:"victory"`
	Rules       *rulesSec    `yaml:"rules"`
}

// mapSection is the grid, the terrain of every hex, the hexside features
// and the place names.
type mapSection struct {
	Pos
	Columns  Num         `yaml:"columns"`
	Rows     Num         `yaml:"rows"`
	Shifted  Str         `yaml:"shifted"`
	Terrain  *terrainSec `yaml:"terrain"`
	Hexsides Map[[]Str]  `yaml:"hexsides"`
	Names    Map[Str]    `yaml:"names"`
}

// terrainSec gives each hex its terrain: a default, rows of letters, and
// single hexes that differ from both.
type terrainSec struct {
	Pos
	Default Str      `yaml:"default"`
	Rows    []Str    `yaml:"rows"`
	Hexes   Map[Str] `yaml:"hexes"`
}

// keySection is the Terrain Key.
type keySection struct {
	Pos
	Terrain  Map[terrainEntry] `yaml:"terrain"`
	Hexsides Map[featureEntry] `yaml:"hexsides"`
}

type terrainEntry struct {
	Pos
	Letter     Str   `yaml:"letter"`
	MP         Num   `yaml:"mp"`
	Line       Str   `yaml:"line"`
	Armor      *bool `yaml:"armor"`
	Impassable bool  `yaml:"impassable"`
}

type featureEntry struct {
	Pos
	Class Str `yaml:"class"`
	MP    Num `yaml:"mp"`
	Line  Str `yaml:"line"`
}

type unitsByside struct {
	Pos
	US    []unitEntry `yaml:"us"`
	Japan []unitEntry `yaml:"japan"`
}

type unitEntry struct {
	Pos
	ID     Str `yaml:"id"`
	Kind   Str `yaml:"kind"`
	Values Str `yaml:"values"`
	Name   Str `yaml:"name"`
}

type setupSec struct {
	Pos
	First Str         `yaml:"first"`
	Place []placement `yaml:"place"`
}

type placement struct {
	Pos
	Unit  Str   `yaml:"unit"`
	Units []Str `yaml:"units"`
	Hex   Str   `yaml:"hex"`
	Area  Str   `yaml:"area"`
}

// trackTurn is one space of the Turn Record/Reinforcement Track.
type trackTurn struct {
	Pos
	Turn           Num       `yaml:"turn"`
	Date           Str       `yaml:"date"`
	Support        Str       `yaml:"support"`
	Reinforcements []arrival `yaml:"reinforcements"`
	Events         []Str     `yaml:"events"`
}

type arrival struct {
	Pos
	Units []Str `yaml:"units"`
	Entry []Str `yaml:"entry"`
	Area  Str   `yaml:"area"`
}

type victorySec struct {
	Pos
	Owner    Map[[]Str]     `yaml:"owner"`
	Scores   []scoreEntry   `yaml:"scores"`
	Outcomes []outcomeEntry `yaml:"outcomes"`
}

type scoreEntry struct {
	Pos
	Side   Str   `yaml:"side"`
	Count  Str   `yaml:"count"`
	Points Num   `yaml:"points"`
	Hexes  []Str `yaml:"hexes"`
	Area   Str   `yaml:"area"`
	Held   Str   `yaml:"held"`
	Turn   Num   `yaml:"turn"`
	Units  []Str `yaml:"units"`
	Class  Str   `yaml:"class"`
}

type outcomeEntry struct {
	Pos
	Winner Str        `yaml:"winner"`
	Level  Str        `yaml:"level"`
	When   *condition `yaml:"when"`
}

type condition struct {
	Pos
	Side  Str         `yaml:"side"`
	Minus Str         `yaml:"minus"`
	Op    Str         `yaml:"op"`
	Value Num         `yaml:"value"`
	All   []condition `yaml:"all"`
	Any   []condition `yaml:"any"`
}

type rulesSec struct {
	Pos
	GSPRange Num `yaml:"gsp_range"`
}
