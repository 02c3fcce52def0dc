package wind

import (
	"errors"
	"fmt"
	"slices"
)

// Setup and start (rule 12): a game is created from a scenario and the
// players' choices, then waits for the setup orders before turn 1:
//
//	creation                 server: markers (12.2), Komandorski chits
//	                         (12.1), the scenario's Unknown units (15.x),
//	                         victory point chits (14.0), the historic
//	                         Japanese setup (12.3)
//	jp-setup (Japanese)      the free setup (12.4), the value chits when
//	                         the Japanese place them (14.0); skipped when
//	                         there is nothing to place
//	us-landing (U.S.)        staging zones: the D/E/F/G split and H or I
//	                         (12.5), or everything (12.6), or a delay of
//	                         one turn for better weather (12.6)
//	  the opening landing    server: step 2 of a refit turn (9.2) in the
//	                         weather of the turn, fog on May 11
//	us-decision of turn 1    or of the turn the landing was delayed to
//
// The Japanese part is in setup_japanese.go, the U.S. part in setup_us.go,
// the scenarios in scenario.go and the chits in vpchits.go.

// Setup kinds (Options.JPSetup, Options.USSetup).
const (
	SetupHistoric = "historic" // rules 12.3, 12.5
	SetupFree     = "free"     // rules 12.4, 12.6
)

// Options are the choices a game is created with (rules 12.3 to 12.6,
// 14.0). Empty fields take the scenario's default: the historic setups in
// the campaign, the free ones (the only ones) in a short scenario, and no
// victory point chits.
type Options struct {
	JPSetup string `json:"jp_setup,omitempty"`
	USSetup string `json:"us_setup,omitempty"`
	// VPChits chooses the optional victory point chits of rule 14.0:
	// VPDrawn, VPPlaced, or "" for none.
	VPChits string `json:"vp_chits,omitempty"`
	// Solitaire plays the game by the solitaire rules (rule 13): the
	// player takes the U.S., the engine sets up the Japanese and manages
	// them where 13.1 to 13.6 say, and the Japanese orders do the rest.
	Solitaire bool `json:"solitaire,omitempty"`
}

func (o *Options) clone() *Options {
	if o == nil {
		return nil
	}
	c := *o
	return &c
}

// Errors of NewGameFrom, each wrapped with the detail.
var (
	// ErrScenario: the scenario is not one attu plays.
	ErrScenario = errors.New("adjudicator: unknown scenario")
	// ErrOptions: the options do not fit the scenario.
	ErrOptions = errors.New("adjudicator: options")
)

// normalize fills in the defaults of scenario name and checks the options.
func (o Options) normalize(name string) (Options, error) {
	campaign := name == ""
	for _, f := range []*string{&o.JPSetup, &o.USSetup} {
		switch {
		case *f == "" && campaign:
			*f = SetupHistoric
		case *f == "":
			*f = SetupFree
		case *f != SetupHistoric && *f != SetupFree:
			return o, fmt.Errorf("%w: setup %q: want %s or %s", ErrOptions, *f, SetupHistoric, SetupFree)
		case *f == SetupHistoric && !campaign:
			return o, fmt.Errorf("%w: %s sets up both sides by the free setup rules (rule %s); the historic setups are the campaign's",
				ErrOptions, specOf(name).title, specOf(name).rule)
		}
	}
	switch o.VPChits {
	case "", VPDrawn, VPPlaced:
	default:
		return o, fmt.Errorf("%w: vp chits %q: want %s, %s or none", ErrOptions, o.VPChits, VPDrawn, VPPlaced)
	}
	if o.Solitaire && o.JPSetup == SetupFree && campaign {
		return o, fmt.Errorf("%w: in a solitaire game the Japanese set up by rule 13.2.1, not by the free setup of 12.4", ErrOptions)
	}
	if o.Solitaire && o.VPChits == VPPlaced {
		return o, fmt.Errorf("%w: in a solitaire game the victory point chits are drawn, not placed (rule 14.0)", ErrOptions)
	}
	if o.VPChits != "" && !campaign {
		return o, fmt.Errorf("%w: the victory point chits of rule 14.0 are a campaign rule; %s has its own goal (RULINGS.md R67)", ErrOptions, specOf(name).title)
	}
	return o, nil
}

// NewGameFrom creates a game of scenario ("campaign" or "" for the
// campaign, else a name of ScenarioNames) with the options opt, drawing
// what the rules draw at the start with d, in this order: the Komandorski
// chits (12.1, campaign only), the Unknown units of a short scenario (15.x),
// the victory point chits when drawn (14.0), the historic Japanese setup
// (12.3). The game then waits for the Japanese setup, or for the U.S.
// landing when the Japanese have nothing to place; value chits the
// Japanese place are followed by the draw of the 0 and Cancelled chits in
// the setup step (setUpJapanese). The built-in map and counters are used.
//
// The same scenario, options and dice give the same game: the audit
// replays it to check a game's opening.
func NewGameFrom(scenario string, opt Options, d Dice) (*State, []Event, error) {
	if scenario == ScenarioCampaign {
		scenario = ""
	}
	if !knownScenario(scenario) {
		return nil, nil, fmt.Errorf("%w %q: want one of %v", ErrScenario, scenario, ScenarioNames())
	}
	opt, err := opt.normalize(scenario)
	if err != nil {
		return nil, nil, err
	}
	s := NewState(nil, nil)
	s.Scenario, s.Options = scenario, &opt
	sp := s.spec()
	evs := []Event{setupPublic(Event{Kind: EventGameCreated, Scenario: scenario, Options: opt.clone()})}

	// Rule 12.2: the markers.
	s.Turn, s.Weather, s.Night, s.Casualties = 1, Fog, false, 0
	evs = append(evs, setupPublic(Event{Kind: EventMarkers, Turn: 1}))
	if scenario == "" {
		s.Komandorski = DrawKomandorski(d)
		evs = append(evs, Event{Kind: EventKomandorskiDrawn, Seen: OnlyTo(JP), Side: JP, Turn: KomandorskiTurn,
			Private: &Private{Effect: s.Komandorski.Effect, Delay: s.Komandorski.Delay}})
	} else {
		// No hero in a short scenario (15.1 to 15.3): they start spent.
		s.Heroes = Heroes{Martinez: true, Arnold: true, Yamasaki: true}
		evs = append(evs, setupPublic(Event{Kind: EventScenarioRules, Scenario: scenario, LastTurn: TurnOfMay(sp.lastDay)}))
	}

	evs = append(evs, s.japaneseForces(d)...)
	if opt.VPChits != "" {
		vevs, err := s.drawVP(opt.VPChits, d)
		if err != nil {
			return nil, nil, err
		}
		evs = append(evs, vevs...)
	}
	s.usForces()
	if opt.Solitaire {
		evs = append(evs, s.solitaireSetup(d)...) // rule 13.2.1
	} else if opt.JPSetup == SetupHistoric {
		hevs, err := s.historicJapanese(d)
		if err != nil {
			return nil, nil, err
		}
		evs = append(evs, hevs...)
	}
	if s.jpSetupNeeded() {
		s.await(WaitJPSetup, JP)
	} else {
		s.await(WaitUSLanding, US)
	}
	w := s.Wait()
	evs = append(evs, Event{Kind: EventWait, Seen: Public, Side: w.Side, Wait: w.Kind, Turn: w.Turn})
	return s, evs, nil
}

// jpSetupNeeded reports whether the Japanese have anything to set up:
// units in the setup box or value chits to place.
func (s *State) jpSetupNeeded() bool {
	if s.VP != nil && s.VP.Mode == VPPlaced {
		return true
	}
	for _, u := range s.Units {
		if u.Box == BoxSetup {
			return true
		}
	}
	return false
}

// SetupUnits returns the Japanese units the free setup is to place (rule
// 12.4), in counter order.
func (s *State) SetupUnits() []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if u.Box == BoxSetup && u.Counter().Side() == JP {
			out = append(out, u)
		}
	}
	return out
}

// japaneseForces puts the Japanese units of the scenario where the setup
// starts from: the infantry in the pool (2.5); the Unknown units and
// artillery in the setup box, the scenario's Unknown units drawn at random
// (15.1, 15.2) and the rest unused.
func (s *State) japaneseForces(d Dice) []Event {
	sp := s.spec()
	cs := s.Counters()
	for _, id := range cs.Of(JP, Infantry) {
		s.Place(id, 0, BoxPool)
	}
	for _, id := range cs.Of(JP, Artillery) {
		box := BoxUnused
		if sp.artillery {
			box = BoxSetup
		}
		s.Place(id, 0, box)
	}
	unknowns := cs.Of(JP, Unknown)
	if sp.unknowns >= len(unknowns) {
		for _, id := range unknowns {
			s.Place(id, 0, BoxSetup)
		}
		return nil
	}
	left := slices.Clone(unknowns)
	var chosen []string
	for range sp.unknowns {
		i := drawWith(len(left), d, Die{Purpose: DieSetupDraw, Side: JP, Seen: AudienceJP})
		chosen = append(chosen, left[i])
		left = slices.Delete(left, i, i+1)
	}
	for _, id := range unknowns {
		box := BoxUnused
		if slices.Contains(chosen, id) {
			box = BoxSetup
		}
		s.Place(id, 0, box)
	}
	var given []*Unit
	for _, u := range s.Units {
		if u.Box == BoxSetup && u.Kind() == Unknown {
			given = append(given, u)
		}
	}
	return []Event{setupCounters(Event{Kind: EventUnknownsGiven, Side: JP, Scenario: s.Scenario, Units: counterRefs(given)})}
}

// usForces puts the U.S. units of the scenario in the reinforcements box,
// at full strength but the recon troop (12.5); independent units, depots
// and units of no use in the scenario stay unused.
func (s *State) usForces() {
	sp := s.spec()
	for _, id := range concat(sp.initial, sp.reinforcements) {
		u, ok := s.Unit(id)
		if !ok {
			continue
		}
		u.Hex, u.Box, u.Steps = 0, BoxReinforcements, u.Counter().MaxSteps()
		if n, ok := usReduced[id]; ok {
			u.Steps = n
		}
	}
}

// setupWait reports whether the game waits for setup orders.
func (s *State) setupWait() bool {
	k := s.Wait().Kind
	return k == WaitJPSetup || k == WaitUSLanding
}

// checkSetupParts judges what an orders file says about the setup, at any
// wait: setup orders only at the setup waits, and those orders themselves.
func (s *State) checkSetupParts(o Orders) []Problem {
	var problems []Problem
	file := func(format string, a ...any) {
		problems = append(problems, Problem{Action: -1, Step: -1, Msg: fmt.Sprintf(format, a...)})
	}
	if !s.setupWait() {
		if o.JPSetup != nil || o.Landing != nil {
			file("setup and landing orders are given only before the first turn, when the game waits for them (rule 12)")
		}
		return problems
	}
	if o.Decision != nil || len(o.Actions) > 0 || o.Refit != nil || o.Rearrange != nil {
		file("the setup orders hold only %s: turns begin once the U.S. has landed (rule 12.5)", setupKey(s.Wait().Kind))
	}
	switch s.Wait().Kind {
	case WaitJPSetup:
		if o.Landing != nil {
			file("the U.S. landing comes after the Japanese setup (rules 12.4, 12.5)")
		}
		if o.JPSetup == nil {
			file("the Japanese setup needs setup: the units to place and where (rule 12.4)")
			return problems
		}
		if len(problems) == 0 {
			problems = append(problems, s.judgeJPSetup(*o.JPSetup)...)
		}
	case WaitUSLanding:
		if o.JPSetup != nil {
			file("the Japanese setup is over; the U.S. answers with landing: (rules 12.5, 12.6)")
		}
		if o.Landing == nil {
			file("the U.S. landing needs landing: the units for each staging zone, or delay: true (rules 12.5, 12.6)")
			return problems
		}
		if len(problems) == 0 {
			problems = append(problems, s.judgeLanding(*o.Landing)...)
		}
	}
	return problems
}

func setupKey(k WaitKind) string {
	if k == WaitJPSetup {
		return "setup:"
	}
	return "landing:"
}

// resolveSetup carries out setup orders already judged.
func (s *State) resolveSetup(kind WaitKind, o Orders, d Dice) []Event {
	if kind == WaitJPSetup {
		return s.setUpJapanese(*o.JPSetup, d)
	}
	return s.land(*o.Landing, d)
}
