package wind

import (
	"fmt"
	"maps"
	"slices"
	"sort"
)

// Weather is one of the four weather conditions (rule 3.3).
type Weather uint8

// Weather conditions.
const (
	Cloudy Weather = iota
	Rain
	Fog
	Williwaw
)

var weatherNames = [...]string{"cloudy", "rain", "fog", "williwaw"}

func (w Weather) String() string {
	if int(w) < len(weatherNames) {
		return weatherNames[w]
	}
	return "weather?"
}

// MarshalText writes the weather's name.
func (w Weather) MarshalText() ([]byte, error) { return []byte(w.String()), nil }

// UnmarshalText reads cloudy, rain, fog or williwaw.
func (w *Weather) UnmarshalText(b []byte) error {
	for i, n := range weatherNames {
		if n == string(b) {
			*w = Weather(i)
			return nil
		}
	}
	return fmt.Errorf("weather %q: want cloudy, rain, fog or williwaw", b)
}

// Heroes records which heroes of rule 11 have been used (each once a game).
type Heroes struct {
	Martinez bool `json:"martinez,omitempty"`
	Arnold   bool `json:"arnold,omitempty"`
	Yamasaki bool `json:"yamasaki,omitempty"`
}

// Standing returns the standing instructions in force for side.
func (s *State) Standing(side Side) Standing {
	if side == JP {
		return DefaultStanding(JP).Merge(s.StandingJP)
	}
	return DefaultStanding(US).Merge(s.StandingUS)
}

// Komandorski is the Komandorski Effect and Delay chits (rule 12.1).
type Komandorski struct {
	Effect         int  `json:"effect"` // 24, 27 or 30: the May date of the effect chit
	Delay          int  `json:"delay"`  // 1 to 4 more turns
	EffectRevealed bool `json:"effect_revealed,omitempty"`
	DelayRevealed  bool `json:"delay_revealed,omitempty"`
}

// Off-map boxes a unit can be in when it is not on the map.
const (
	BoxReinforcements = "reinforcements" // U.S. units not yet landed (9.2)
	BoxPool           = "pool"           // Japanese infantry available off map (2.5)
	BoxOffMap         = "offmap"         // Unknown units off the map, may return (9.6)
	BoxEliminated     = "eliminated"     // out of play for good
	BoxUnused         = "unused"         // not yet created (independents, depots) or not in this scenario
	BoxStagingPrefix  = "staging:"       // followed by a landing zone id (9.2.2)
	BoxSetup          = "setup"          // Japanese units the free setup is to place (12.4)
)

// Unit is a counter's situation in a game.
type Unit struct {
	ID       string `json:"id"`
	Hex      Hex    `json:"hex,omitempty"` // zero when off the map
	Box      string `json:"box,omitempty"` // where it is when off the map
	Steps    int    `json:"steps"`
	FaceDown bool   `json:"face_down,omitempty"` // Japanese only (2.5)
	Acted    bool   `json:"acted,omitempty"`     // activated in this actions step (3.5)
	MPSpent  int    `json:"mp_spent,omitempty"`  // spent moving this turn
	// Melee is the hex this unit declared melee against this turn (8.2).
	Melee Hex `json:"melee,omitempty"`
	// Fought: the unit took part in a melee this melee step (8.2).
	Fought bool `json:"fought,omitempty"`
	// Captured: a U.S. artillery unit taken by the Japanese (8.2.1.4); it
	// now belongs to the Japanese side.
	Captured bool `json:"captured,omitempty"`

	counter *Counter
}

// Counter returns the unit's counter: its class, ratings and battalion.
func (u *Unit) Counter() *Counter { return u.counter }

// Side returns the side the unit fights for: its counter's, or the
// Japanese for captured U.S. artillery (8.2.1.4).
func (u *Unit) Side() Side {
	if u.Captured {
		return JP
	}
	return u.counter.Side()
}

// Kind returns the unit's type.
func (u *Unit) Kind() Kind { return u.counter.Kind() }

// OnMap reports whether the unit stands in a hex.
func (u *Unit) OnMap() bool { return u.Hex != 0 }

// Rating returns the unit's ratings at its current strength.
func (u *Unit) Rating() Rating { return u.counter.Rating(u.Steps) }

// State is a game position: everything the rules need to decide what happens
// next. It round-trips through JSON; after decoding call Attach.
type State struct {
	// Edition is the edition of attu's reading of the rules the game is
	// played by (Editions), fixed when the game is created: a game keeps
	// the reading it began with, so that its record replays as it was
	// played. A position without one is of edition 0.
	Edition    int     `json:"edition,omitempty"`
	Scenario   string  `json:"scenario,omitempty"`
	Turn       int     `json:"turn"` // 1 is May 11 (12.2)
	Weather    Weather `json:"weather"`
	Night      bool    `json:"night,omitempty"`
	AirUS      int     `json:"air_us,omitempty"` // airpower factors this turn (3.4)
	AirJP      int     `json:"air_jp,omitempty"`
	Casualties int     `json:"casualties,omitempty"` // U.S. casualty track (8.4)
	// RefitSteps is what the loss recovery roll of this refit turn gave,
	// until the U.S. refit orders spend it (rule 9.1).
	RefitSteps int     `json:"refit_steps,omitempty"`
	Units      []*Unit `json:"units"`
	// Awaiting is the kind of orders the game waits for and
	// Waiting whose. Read them through Wait, which also covers a decided
	// game; the turn's state machine sets them (turn.go).
	Awaiting WaitKind `json:"phase,omitempty"`
	Waiting  Side     `json:"waiting,omitempty"`
	// StandingUS and StandingJP are each side's standing instructions in
	// force, defaults filled in.
	StandingUS Standing `json:"standing_us"`
	StandingJP Standing `json:"standing_jp"`
	// Heroes records which once-per-game effects of rule 11 are spent.
	Heroes Heroes `json:"heroes"`
	// Cleared lists the victory zones that are cleared (rule 10.0).
	Cleared []string `json:"cleared,omitempty"`
	// Winner is set when the game is decided (rule 3.8), with the reason.
	Winner  Side   `json:"winner,omitempty"`
	Victory string `json:"victory,omitempty"`
	// Komandorski holds the chits of rule 12.1, drawn at creation and seen
	// only by the Japanese until revealed (12.1.3).
	Komandorski Komandorski `json:"komandorski"`
	// Options are the choices the game was created with (NewGameFrom);
	// nil for a position set up by hand.
	Options *Options `json:"options,omitempty"`
	// VP holds the victory point chits of the optional rule 14.0, nil
	// when the game does not use them.
	VP *VPChits `json:"vp_chits,omitempty"`
	// Solo is the state of the solitaire rules (rule 13), nil in a game
	// of two players.
	Solo *Solitaire `json:"solitaire,omitempty"`
	// SupplyOverride forces a unit in (true) or out of (false) supply; rules
	// cases use it to pose a situation. Real games leave it empty.
	SupplyOverride map[string]bool `json:"supply_override,omitempty"`

	// m and cs are the map and counter mix the game is played with. They
	// are read-only once loaded, so every copy of a position shares them.
	m  *Map
	cs *Counters
	// index finds a unit by id. It is built with the position (NewState,
	// Clone, and Attach after decoding), never while it is read, so that
	// several goroutines may read one position at once.
	index map[string]*Unit
}

// Editions of attu's reading of the rules, each a game's for good once it
// is created (State.Edition); a new position takes the latest.
//
//   - 0: the first.
//   - 1: an ambush engages the moving unit alone, the other U.S. units of
//     its hex taking only what is left over (rules 13.3, 8.2.1.1;
//     RULINGS.md R73); Colonel Yamasaki's last stand (13.4) is not fought
//     in a short scenario, where no hero of rule 11 is available (15.1,
//     15.2; R74); a melee or an ambush stops at the fire that meets a
//     victory condition of 3.8.2 (R73, R78).
const (
	EditionFirst  = 0
	EditionRule13 = 1
	LatestEdition = EditionRule13
)

// NewState returns an empty position on map m with counters cs, every counter
// in the unused box. nil means the built-in map or counters.
func NewState(m *Map, cs *Counters) *State {
	s := &State{Edition: LatestEdition, Turn: 1, Weather: Fog, StandingUS: DefaultStanding(US), StandingJP: DefaultStanding(JP)}
	s.m, s.cs = m, cs
	for _, id := range s.Counters().IDs() {
		c, _ := s.Counters().Get(id)
		s.Units = append(s.Units, &Unit{ID: id, Box: BoxUnused, Steps: c.MaxSteps(), counter: c})
	}
	s.reindex()
	return s
}

// Attach binds a decoded state to its map and counters (nil for the built-in
// ones) and checks that every unit is a known counter.
func (s *State) Attach(m *Map, cs *Counters) error {
	s.m, s.cs = m, cs
	for _, u := range s.Units {
		c, ok := s.Counters().Get(u.ID)
		if !ok {
			return fmt.Errorf("adjudicator: state has unit %q, which is not in the counter mix", u.ID)
		}
		u.counter = c
	}
	s.reindex()
	return nil
}

// Map returns the map the game is played on.
func (s *State) Map() *Map {
	if s.m == nil {
		return BuiltinMap()
	}
	return s.m
}

// Counters returns the game's counter mix.
func (s *State) Counters() *Counters {
	if s.cs == nil {
		return BuiltinCounters()
	}
	return s.cs
}

// reindex builds the unit index. Whatever creates a position or replaces
// its Units calls it; readers never do.
func (s *State) reindex() {
	s.index = make(map[string]*Unit, len(s.Units))
	for _, u := range s.Units {
		s.index[u.ID] = u
	}
}

// Unit returns the unit with the given id.
func (s *State) Unit(id string) (*Unit, bool) {
	u, ok := s.index[id]
	return u, ok
}

// Clone returns a deep copy: no unit, slice or map is shared with s, so
// that changing either position never changes the other. Only the map and
// the counter mix (the state's and each unit's counter) are shared: they
// are read-only data. TestCloneIsDeep fails when a field is added that
// Clone does not copy.
func (s *State) Clone() *State {
	c := *s
	c.Units = make([]*Unit, len(s.Units))
	for i, u := range s.Units {
		cu := *u // every field a value but the shared counter
		c.Units[i] = &cu
	}
	c.StandingUS = s.StandingUS.clone()
	c.StandingJP = s.StandingJP.clone()
	c.Cleared = slices.Clone(s.Cleared)
	c.SupplyOverride = maps.Clone(s.SupplyOverride)
	c.Options, c.VP = s.Options.clone(), s.VP.clone()
	c.Solo = s.Solo.clone()
	c.reindex()
	return &c
}

// UnitsAt returns the units in hex h, in counter order.
func (s *State) UnitsAt(h Hex) []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if u.Hex == h && h != 0 {
			out = append(out, u)
		}
	}
	return out
}

// OnMap returns every unit on the map, in counter order.
func (s *State) OnMap() []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if u.Hex != 0 {
			out = append(out, u)
		}
	}
	return out
}

// Occupied returns the side holding hex h, NoSide when it is empty.
func (s *State) Occupied(h Hex) Side {
	for _, u := range s.Units {
		if u.Hex == h {
			return u.Side()
		}
	}
	return NoSide
}

// Place puts a unit in a hex, keeping its face, or with h zero in box: it
// then leaves the map as when the rules remove it, turned face up (off the
// map a counter has no face) and with no melee declared. Setups and rules
// cases build positions with it.
func (s *State) Place(id string, h Hex, box string) error {
	u, ok := s.Unit(id)
	if !ok {
		return fmt.Errorf("no unit %q", id)
	}
	if h != 0 && !s.Map().Land(h) {
		return fmt.Errorf("%s: %s is not a land hex", id, h)
	}
	if h == 0 {
		s.removeFromMap(u, box)
		return nil
	}
	u.Hex = h
	u.Box = ""
	return nil
}

// Occupants groups the units on the map by hex; hexes come out sorted.
func (s *State) Occupants() (hexes []Hex, by map[Hex][]*Unit) {
	by = map[Hex][]*Unit{}
	for _, u := range s.Units {
		if u.Hex != 0 {
			if by[u.Hex] == nil {
				hexes = append(hexes, u.Hex)
			}
			by[u.Hex] = append(by[u.Hex], u)
		}
	}
	sort.Slice(hexes, func(i, j int) bool { return hexes[i] < hexes[j] })
	return hexes, by
}
