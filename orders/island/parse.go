package island

import (
	"fmt"
	"reflect"
	"strings"

	iw "github.com/attu-pbem/attu/adjudicator/island"
)

// ParseScenario reads a scenario file and returns the scenario it
// describes, or, when the file has mistakes, nil and every problem found,
// each at its line and column with what to change. A scenario returned
// holds everything the rules engine trusts (see iw.Scenario): every hex on
// the grid, every terrain and feature in the key, every unit's values
// complete for its class and every unit entering play exactly once.
func ParseScenario(data []byte) (*iw.Scenario, Problems) {
	var ps problems
	root := readDocument(data, &ps)
	if root == nil {
		return nil, sortProblems(ps.list)
	}
	var f file
	d := decoder{ps: &ps}
	d.decode(root, reflect.ValueOf(&f).Elem(), "")
	if len(ps.list) > 0 {
		// The file's shape is wrong; checking its meaning now would
		// mostly repeat the same mistakes in other words.
		return nil, sortProblems(ps.list)
	}
	b := newBuilder(&f, &ps)
	b.build()
	if len(ps.list) > 0 {
		return nil, sortProblems(ps.list)
	}
	return b.sc, nil
}

// builder checks a decoded file and fills the scenario as it goes. Each
// part is checked even when an earlier one failed, so that one run names
// every mistake; a part that cannot be read leaves its lookups empty, and
// later parts skip what depends on it rather than repeat the problem.
type builder struct {
	f  *file
	ps *problems
	sc *iw.Scenario

	gridOK   bool                      // the grid is sound: hexes can be checked
	terrain  map[string]iw.TerrainType // the key's terrains by name
	features map[string]bool           // the key's hexside features
	hexes    map[iw.Hex]iw.TerrainType // each hex's terrain, when the map reads
	classes  map[string]iw.Class       // kinds by name
	units    map[string]*iw.Unit       // units by id
	unitPos  map[string]Pos            // where each unit is listed
	areas    map[string][]iw.Hex       // areas by name
	badArea  map[string]bool           // areas with a mistake in their hexes
	entered  map[string]Pos            // where each unit is placed or arrives
	turns    int                       // game_turns, 0 when unusable

	// The names the file defines, right or wrong, so that a reference to
	// one whose entry is wrong is not reported a second time.
	keyTerrains, keyFeatures, kindNames map[string]bool
}

// maxListed is how many names a "use one of" lists before "...".
const maxListed = 20

// keys lists a mapping's names, the first maxListed of them.
func keys[T any](m Map[T]) string {
	var names []string
	for _, e := range m {
		if len(names) == maxListed {
			names = append(names, "...")
			break
		}
		names = append(names, e.Key.Value)
	}
	return strings.Join(names, ", ")
}

func nameSet[T any](m Map[T]) map[string]bool {
	set := make(map[string]bool, len(m))
	for _, e := range m {
		set[e.Key.Value] = true
	}
	return set
}

func newBuilder(f *file, ps *problems) *builder {
	var terrains, features Map[struct{}]
	if f.Key != nil {
		for _, e := range f.Key.Terrain {
			terrains = append(terrains, Entry[struct{}]{Key: e.Key})
		}
		for _, e := range f.Key.Hexsides {
			features = append(features, Entry[struct{}]{Key: e.Key})
		}
	}
	return &builder{
		keyTerrains: nameSet(terrains), keyFeatures: nameSet(features), kindNames: nameSet(f.Kinds),
		f: f, ps: ps, sc: &iw.Scenario{},
		terrain:  map[string]iw.TerrainType{},
		features: map[string]bool{},
		hexes:    map[iw.Hex]iw.TerrainType{},
		classes:  map[string]iw.Class{},
		units:    map[string]*iw.Unit{},
		unitPos:  map[string]Pos{},
		areas:    map[string][]iw.Hex{},
		badArea:  map[string]bool{},
		entered:  map[string]Pos{},
	}
}

func (b *builder) build() {
	f := b.f
	b.sc.Name = b.text(f.Name, f.Pos, "name", "give the scenario's name, like name: Ridge 42")
	b.sc.Game = f.Game.Value
	b.sc.Invented = f.Invented
	b.gameTurns()
	if side, ok := b.side(f.FirstPlayer, f.Pos, "first_player"); ok {
		b.sc.FirstPlayer = side
	}
	b.key()
	b.grid()
	b.kinds()
	b.unitList()
	b.areaList()
	b.setup()
	b.track()
	b.everyUnitEnters()
	b.victory()
	b.rules()
}

// missing reports a key that must be there, at the mapping that lacks it.
func (b *builder) missing(at Pos, key, fix string) {
	b.ps.at(at, fix, "%s is missing", key)
}

// text returns a required single value, reporting it when it is missing or
// blank.
func (b *builder) text(s Str, parent Pos, key, fix string) string {
	if !s.Set() {
		b.missing(parent, key, fix)
		return ""
	}
	if strings.TrimSpace(s.Value) == "" {
		b.ps.at(s.Pos, fix, "%s is blank", key)
	}
	return s.Value
}

func (b *builder) gameTurns() {
	n := b.f.GameTurns
	switch {
	case !n.Set():
		b.missing(b.f.Pos, "game_turns", "say how many Game-Turns the scenario lasts, like game_turns: 8 (rule 3.0)")
	case n.Value < 1 || n.Value > 99:
		b.ps.at(n.Pos, "give a number from 1 to 99", "game_turns is %d", n.Value)
	default:
		b.turns = n.Value
		b.sc.GameTurns = n.Value
	}
}

// turn checks a Game-Turn number against game_turns.
func (b *builder) turn(n Num, what string) bool {
	if b.turns == 0 {
		return false
	}
	if n.Value < 1 || n.Value > b.turns {
		b.ps.at(n.Pos, fmt.Sprintf("give a Game-Turn from 1 to %d (game_turns)", b.turns), "%s: turn %d is not a Game-Turn of the scenario", what, n.Value)
		return false
	}
	return true
}

// side reads a side; key names the key for the messages.
func (b *builder) side(s Str, parent Pos, key string) (iw.Side, bool) {
	if !s.Set() {
		b.missing(parent, key, "add "+key+": us, or "+key+": japan")
		return "", false
	}
	switch iw.Side(s.Value) {
	case iw.US, iw.Japan:
		return iw.Side(s.Value), true
	}
	b.ps.at(s.Pos, "write us or japan", "%s: %q is not a side", key, s.Value)
	return "", false
}

// oneOf reports whether s is one of the words, complaining when not.
func (b *builder) oneOf(s Str, what string, words []string) bool {
	for _, w := range words {
		if s.Value == w {
			return true
		}
	}
	b.ps.at(s.Pos, "write one of "+strings.Join(words, ", "), "%s %q is not known", what, s.Value)
	return false
}

func (b *builder) rules() {
	r := b.f.Rules
	if r == nil || !r.GSPRange.Set() {
		return
	}
	if r.GSPRange.Value < 0 {
		b.ps.at(r.GSPRange.Pos, "give 0 for no limit (rule 9.13) or a number of hexes", "gsp_range is %d", r.GSPRange.Value)
		return
	}
	b.sc.Rules.GSPRange = r.GSPRange.Value
}
