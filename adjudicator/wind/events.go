package wind

import (
	"fmt"
	"strconv"
	"strings"
)

// Events: what happened, as data. The rules say what happened and who may
// read it; package templates words it (templates.EventText), once per kind,
// for the reports, the record and the rules cases.
//
// Fog of war fails closed. An event's Seen says, for each player, how much
// of it that player reads; its zero value is SightHidden for both, so an
// event the emitting code forgot to mark reaches the umpire alone. Redact
// gives a side its version of an event, and nothing else decides it.
//
// An event read with SightAnonymous is an event seen happening to counters,
// as a player at the table sees the other side's face-down counters act
// (rule 2.5): the units not Known lose their identity (id, type, steps) and
// keep their side and hex, so that the reader can count them; Private is
// withheld. Every other field is read by any side that reads the event at
// all, so an emitter puts nothing there that such a side may not know:
// secrets go in Private or in the identity of units not Known.

// EventKind names one kind of thing that can happen. Each has its wording in
// package templates; the comment says what fields it fills (Units, Hexes
// and Target unless told otherwise: the units concerned, the hexes in the
// order the wording needs, the hex attacked).
type EventKind string

// Event kinds. Turn and server steps.
const (
	EventGameBegins        EventKind = "game-begins"        // Turn: turn 1 (rule 12.2)
	EventKomandorskiDrawn  EventKind = "komandorski-drawn"  // Private.Effect, Private.Delay; Turn: the turn they lie on (rule 12.1)
	EventDecision          EventKind = "decision"           // Turn, Night (rules 3.1, 3.2)
	EventWeather           EventKind = "weather"            // Dice (one), Prev, Weather (rule 3.3)
	EventAirpower          EventKind = "airpower"           // Side, Dice (one), Mods, DRM, Factors (rule 3.4)
	EventStandingChanged   EventKind = "standing-changed"   // Side: its standing instructions changed
	EventStandingDecision  EventKind = "standing-decision"  // Turn, Instruction: the U.S. standing decision made the turn's decision (rules 3.1, 3.2)
	EventWait              EventKind = "wait"               // Side awaited, Wait, Turn, Night
	EventTurnBegins        EventKind = "turn-begins"        // Turn (rule 3.9)
	EventLastTurn          EventKind = "last-turn"          // Turn: the game's last (rule 12.1.3)
	EventHidden            EventKind = "hidden"             // Units turned face down (rule 3.9)
	EventKomandorskiEffect EventKind = "komandorski-effect" // Effect revealed (rule 12.1.3)
	EventKomandorskiDelay  EventKind = "komandorski-delay"  // Delay revealed, LastTurn (rule 12.1.3)
	EventVictory           EventKind = "victory"            // Side won; Reason, Casualties, Units (rule 3.8)
)

// Event kinds. Activations, losses, Unknown units, victory zones and the
// melee step.
const (
	EventActionsCutShort    EventKind = "actions-cut-short"    // Side; Activation to LastActivation not carried out: the game is over (rule 3.8.2)
	EventActivationSkipped  EventKind = "activation-skipped"   // Side, Activation, Note: why it could not be carried out
	EventMoved              EventKind = "moved"                // Units (one), Hexes: the route; Private: MP, Cost, Reason (rules 5.0, 5.8, 6.1)
	EventFired              EventKind = "fired"                // Side, Units (the firer), Hexes: from and target, Target, Dice, DRM, Mods, Hits (rule 8.1)
	EventFireTotal          EventKind = "fire-total"           // Side, Target, Hits, TargetUnit named (rules 8.0, 8.1)
	EventFiredFaceUp        EventKind = "fired-face-up"        // Units: a Japanese unit turned face up by firing in U.S. sight (rule 2.5)
	EventFiredFaceDown      EventKind = "fired-face-down"      // Units: one firing out of U.S. sight and staying face down (rule 2.5)
	EventAirWasted          EventKind = "air-wasted"           // Side, Target, Factors: the hex emptied (rule 8.1.6)
	EventAirStrike          EventKind = "air-strike"           // Side, Target, Dice, DRM, Mods, Hits, Friendly (rule 8.1.6)
	EventFriendlyFireMissed EventKind = "friendly-fire-missed" // Side, Target: no own unit to take it (rule 8.1.6)
	EventYamasaki           EventKind = "yamasaki"             // Hexes: the charge's hex (rule 11.3)
	EventCharge             EventKind = "charge"               // Units (one), Hexes: the route, MP, Allowance (rule 11.3.1)
	EventChargeEnds         EventKind = "charge-ends"          // Target: the rest of the path is void (rule 11.3.2)
	EventChargeTakes        EventKind = "charge-takes"         // Units, Target: the charge enters the hex won (rule 11.3.2)
	EventMeleeDeclared      EventKind = "melee-declared"       // Side, Units, Hexes: from and target, Target (rule 8.2)
	EventStepLost           EventKind = "step-lost"            // Units (one, Steps left), Cause (rules 8.0, 8.4)
	EventEliminated         EventKind = "eliminated"           // Units (one), Cause: hit and eliminated, or an Unknown unit melting away (rules 2.5, 8.5)
	EventSetAside           EventKind = "set-aside"            // Units (one), Cause: U.S. artillery set aside until the melee ends (rule 8.2.1.2)
	EventHitsLost           EventKind = "hits-lost"            // Hexes, Hits, Cause: hits with nothing to take them (rules 8.0, 8.5)
	EventConverted          EventKind = "converted"            // Units: the Unknown units; Others: the infantry placed; Private: Table, Die, Yield, Reason (rule 2.5)
	EventZoneCleared        EventKind = "zone-cleared"         // Zone, ZoneName, Hexes: victory hex first; Units: the Unknown units sent off the map (rule 10.0)
	EventZoneRetaken        EventKind = "zone-retaken"         // Zone, ZoneName, Place, Hexes: the victory hex (rule 10.0)
	EventMeleePicked        EventKind = "melee-picked"         // Side: the picker, Target (rule 3.7)
	EventMeleeLapsed        EventKind = "melee-lapsed"         // Side, Units, Hexes: from and target, Target, Reason (rule 8.2)
	EventMeleeBegins        EventKind = "melee-begins"         // Side: the attacker; Units: attackers; Others: defenders; Hexes: the attackers' hexes (rule 8.2)
	EventMeleeRevealed      EventKind = "melee-revealed"       // Units turned face up for the melee at Target (rule 2.5)
	EventArnold             EventKind = "arnold"               // Units (one), Target (rule 11.2)
	EventMartinez           EventKind = "martinez"             // Units (one), Dice: the die changed, Target (rule 11.1)
	EventMeleeRoll          EventKind = "melee-roll"           // Units (one), Target, Dice, DRM, Mods, Hits (rule 8.2.1)
	EventDefensiveFire      EventKind = "defensive-fire"       // Target, Round, Hits (rule 8.2.1.1)
	EventOffensiveFire      EventKind = "offensive-fire"       // Target, Round, Hits (rule 8.2.1.2)
	EventLeftAlone          EventKind = "left-alone"           // Side, Units, Hexes: Japanese units left alone and eliminated (rule 8.2)
	EventRetreat            EventKind = "retreat"              // Units (one), Hexes: from and to, Target, Reason, Instruction (rules 8.2, 8.2.1.3)
	EventCannotRetreat      EventKind = "cannot-retreat"       // Units (one), Hexes: from, Target, Reason, Instruction (rule 8.2.1.3)
	EventNoAdvance          EventKind = "no-advance"           // Side, Target, Instruction (rule 8.2.1.4)
	EventAdvanceBarred      EventKind = "advance-barred"       // Units (one), Target in a cleared zone (rule 10.0)
	EventAdvanceStacked     EventKind = "advance-stacked"      // Side, Units (one), Target, Note: the U.S. stacking problem (rule 4.0)
	EventAdvance            EventKind = "advance"              // Units (one), Hexes: from and target, Target (rule 8.2.1.4)
	EventCaptured           EventKind = "captured"             // Units (one, Steps), Target (rule 8.2.1.4)
	EventSetAsideEliminated EventKind = "set-aside-eliminated" // Units (one), Target, Reason (rules 8.2.1.2, 8.2.1.4)
	EventMeleeBrokenOff     EventKind = "melee-broken-off"     // Target, Round: MaxMeleeRounds
	EventMeleeEnds          EventKind = "melee-ends"           // Side: the attacker, Target, Round: rounds fought, Reason (rule 8.2.1)
)

// Event kinds. Refit turns (rule 9).
const (
	EventRefitDecision EventKind = "refit-decision" // Turn: a refit turn is called (rules 3.1, 9.0)
	EventLossRecovery  EventKind = "loss-recovery"  // Dice (two), Mods, DRM, Casualties: the track rolled against, Steps to restore (rule 9.1)
	EventTrackReset    EventKind = "track-reset"    // Steps not recovered, lost for good (rule 9.1)
	EventRefitSkipped  EventKind = "refit-skipped"  // Part and Activation: the entry of the refit orders; Note: why it was skipped
	EventNoRefitStep   EventKind = "no-refit-step"  // Units (one): no refit step is left for it (rule 9.1)
	EventRefitHexFull  EventKind = "refit-hex-full" // Units (one): its hex has no room for a step (rule 9.1)
	EventStepsRestored EventKind = "steps-restored" // Units (one, Steps now), Steps regained (rule 9.1)
	EventRefitUnused   EventKind = "refit-unused"   // Steps of the refit not used (rule 9.1)
	EventStaged        EventKind = "staged"         // Units, each with its staging Box (rule 9.2.2)
	EventLandingRoll   EventKind = "landing-roll"   // Units (one), Zone sent to, Dice (one), Mods, DRM, Reason; ToZone and Hexes where it comes ashore (rule 9.2.2)
	EventLandingLost   EventKind = "landing-lost"   // Units (one), Zone and Hexes where it came ashore, Reason, Steps and Casualties: the track (rule 9.2.2)
	EventOverCapacity  EventKind = "over-capacity"  // Zone, Hexes, Total steps there, Capacity, Units (one; Steps 0: eliminated), Steps lost, Casualties: the track (rule 9.2.1)
	EventIndependent   EventKind = "independent"    // Units: the unit giving a step (Steps left); Others: the new independent unit (rule 9.3)
	EventDepot         EventKind = "depot"          // Units: the engineer (Steps left; 0: eliminated); Others: its depot; Hexes (rule 9.4)
	EventRefitHidden   EventKind = "refit-hidden"   // Units turned face down (rule 9.5); the Japanese only
	EventUnknownsMoved EventKind = "unknowns-moved" // Units where they went; Hexes: where each came from (rule 9.6); the Japanese only
	EventSwap          EventKind = "swap"           // Units: the infantry back to the pool; Hexes: their hex; Others: the Unknown units placed (rule 9.6); the Japanese only
	EventRefitMap      EventKind = "refit-map"      // Hexes whose counters changed, Counts: the Japanese counters in each now (rules 9.5, 9.6); the U.S. only
)

// Event kinds. A game's creation and its setup waits (rules 12, 14.0, 15),
// and the play area of a short scenario.
const (
	EventGameCreated      EventKind = "game-created"        // Scenario, Options: the game created (rules 12.0, 15.0)
	EventMarkers          EventKind = "markers"             // Turn: the markers set (rule 12.2)
	EventScenarioRules    EventKind = "scenario-rules"      // Scenario, LastTurn: what a short scenario changes (rule 15)
	EventUnknownsGiven    EventKind = "unknowns-given"      // Scenario; Units: the Unknown units a short scenario gives (rule 15.1)
	EventJapaneseSetUp    EventKind = "japanese-set-up"     // Reason (historic or free); Units placed; Hexes, Counts: the counters in each hex (rules 12.3, 12.4)
	EventVPValues         EventKind = "vp-values"           // Reason (drawn or placed); Private.VP: the value chits (rule 14.0)
	EventVPCancelled      EventKind = "vp-cancelled"        // Private.VP: the 0 and Cancelled chits drawn (rule 14.0)
	EventOpeningLanding   EventKind = "opening-landing"     // Weather: the opening landing begins (rules 12.5, 9.2)
	EventPlayBegins       EventKind = "play-begins"         // Turn: the landing is over (rule 12.5)
	EventLandingDelayed   EventKind = "landing-delayed"     // Turn: the turn marker moves on instead (rule 12.6)
	EventAdvanceOutOfArea EventKind = "advance-out-of-area" // Units (one), Hexes: from and target, Target, Note: the play area's ban (rule 15)
)

// Event kinds. The solitaire rules (rule 13).
const (
	EventSoloCount      EventKind = "solitaire-count" // Dice (one), Total: how many units a placement brings; Target, Hexes: the victory hex and the U.S. unit's hex for 13.2.2, none for 13.2.1
	EventAdHoc          EventKind = "ad-hoc"          // Units placed face down, Hexes where, Target: the victory hex, Total wanted (rule 13.2.2)
	EventAmbush         EventKind = "ambush"          // Units: the U.S. units; Others: the ambushers; Target; Private: Table, Die, Yield, Reason (rule 13.3)
	EventAmbushWithdraw EventKind = "ambush-withdraw" // Units (one), Hexes: from and to, Target, Reason, Instruction (rule 13.3)
	EventInfiltration   EventKind = "infiltration"    // Units (one), Hexes, Dice (one), DRM, Reason: infiltrated or held (rule 13.5)
	EventLastStand      EventKind = "last-stand"      // Target: the Japanese infantry there roll twice their melee dice (rule 13.4)
)

// EventKinds returns every kind of event, in the order declared.
func EventKinds() []EventKind {
	return []EventKind{
		EventGameBegins, EventKomandorskiDrawn, EventDecision, EventWeather, EventAirpower,
		EventStandingChanged, EventStandingDecision, EventWait, EventTurnBegins, EventLastTurn, EventHidden,
		EventKomandorskiEffect, EventKomandorskiDelay, EventVictory,
		EventActionsCutShort, EventActivationSkipped, EventMoved, EventFired, EventFireTotal,
		EventFiredFaceUp, EventFiredFaceDown, EventAirWasted, EventAirStrike, EventFriendlyFireMissed,
		EventYamasaki, EventCharge, EventChargeEnds, EventChargeTakes, EventMeleeDeclared,
		EventStepLost, EventEliminated, EventSetAside, EventHitsLost, EventConverted,
		EventZoneCleared, EventZoneRetaken, EventMeleePicked, EventMeleeLapsed, EventMeleeBegins,
		EventMeleeRevealed, EventArnold, EventMartinez, EventMeleeRoll, EventDefensiveFire,
		EventOffensiveFire, EventLeftAlone, EventRetreat, EventCannotRetreat, EventNoAdvance,
		EventAdvanceBarred, EventAdvanceStacked, EventAdvance, EventCaptured,
		EventSetAsideEliminated, EventMeleeBrokenOff, EventMeleeEnds,
		EventRefitDecision, EventLossRecovery, EventTrackReset, EventRefitSkipped, EventNoRefitStep,
		EventRefitHexFull, EventStepsRestored, EventRefitUnused, EventStaged, EventLandingRoll,
		EventLandingLost, EventOverCapacity, EventIndependent, EventDepot, EventRefitHidden,
		EventUnknownsMoved, EventSwap, EventRefitMap,
		EventGameCreated, EventMarkers, EventScenarioRules, EventUnknownsGiven, EventJapaneseSetUp,
		EventVPValues, EventVPCancelled, EventOpeningLanding, EventPlayBegins, EventLandingDelayed,
		EventAdvanceOutOfArea,
		EventSoloCount, EventAdHoc, EventAmbush, EventAmbushWithdraw, EventInfiltration, EventLastStand,
	}
}

// Reason names which branch of a rule an event went by, where the kind
// alone does not say.
type Reason string

// Reasons.
const (
	// EventMoved (in Private).
	ReasonMinimumMove Reason = "minimum-move" // rule 5.8: one hex it could not afford
	ReasonNightExit   Reason = "night-exit"   // rule 6.1: out of an enemy zone of control at night
	// EventConverted (in Private): why fewer infantry were placed than the
	// table gave.
	ReasonHexFull   Reason = "hex-full"   // rule 4.2
	ReasonPoolEmpty Reason = "pool-empty" // rule 2.5
	// EventMeleeLapsed.
	ReasonFoughtElsewhere Reason = "fought-elsewhere" // the declaring units fought in another melee (rule 8.2)
	ReasonNoEnemy         Reason = "no-enemy"         // the target holds no enemy now
	ReasonTargetFought    Reason = "target-fought"    // the target's units fought in another melee (rule 8.2)
	ReasonNotAdjacent     Reason = "not-adjacent"     // the units are no longer next to the target
	// EventRetreat, EventCannotRetreat.
	ReasonLeftAlone Reason = "left-alone" // the attackers of the unit's hex fell (rule 8.2)
	ReasonStanding  Reason = "standing"   // the standing instruction Instruction (rule 8.2.1.3)
	// EventSetAsideEliminated.
	ReasonNotCaptured Reason = "not-captured" // rule 8.2.1.2
	ReasonStackFull   Reason = "stack-full"   // rules 4.2, 8.2.1.4
	// EventMeleeEnds.
	ReasonAttackersTake Reason = "attackers-take"
	ReasonDefendersHold Reason = "defenders-hold"
	ReasonBothStand     Reason = "both-stand"
	// EventVictory (rule 3.8).
	ReasonLastTurn            Reason = "last-turn"             // rule 3.8.3
	ReasonCasualties          Reason = "casualties"            // rule 3.8.2; Casualties
	ReasonNoJapanese          Reason = "no-japanese"           // rule 3.8.2
	ReasonVictoryHexes        Reason = "victory-hexes"         // rule 3.8.1
	ReasonLandingZones        Reason = "landing-zones"         // rule 3.8.1
	ReasonEngineerHill        Reason = "engineer-hill"         // rule 3.8.1; Units: the Japanese artillery
	ReasonEngineerHillCapture Reason = "engineer-hill-capture" // rule 3.8.1; Units: captured U.S. artillery
	// EventTurnBegins: the turn after a refit turn (rule 9.7).
	ReasonAfterRefit Reason = "after-refit"
	// EventLandingRoll (rule 9.2.2).
	ReasonDelayed   Reason = "delayed"   // back to the reinforcements box
	ReasonScattered Reason = "scattered" // ashore in another zone, ToZone
	ReasonLanded    Reason = "landed"    // ashore in the zone it was sent to
	// EventLandingLost (rule 9.2.2).
	ReasonJapaneseHeld Reason = "japanese-held" // the zone's hex holds Japanese units
	ReasonJapaneseZOC  Reason = "japanese-zoc"  // the zone's hex is in a Japanese zone of control
	// EventVictory in a short scenario or at the setup (rules 15, 12.6).
	ReasonObjectives Reason = "objectives" // the U.S. occupies the scenario's victory hexes, Place, at step 8 of Turn, by LastTurn (rule 15)
	ReasonNotLanded  Reason = "not-landed" // the U.S. delayed the landing past the last turn (rules 12.6, 3.8.3)
	// EventJapaneseSetUp, EventVPValues.
	ReasonHistoric Reason = "historic" // rule 12.3
	ReasonFree     Reason = "free"     // rule 12.4
	ReasonDrawn    Reason = "drawn"    // rule 14.0: the value chits drawn
	ReasonPlaced   Reason = "placed"   // rule 14.0: the value chits placed by the Japanese
)

// Sight is how much of an event a side reads.
type Sight uint8

// Sights. The zero value reads nothing.
const (
	SightHidden    Sight = iota // the side reads nothing of the event
	SightAnonymous              // the side reads it as happening to counters: see Redact
	SightFull                   // the side reads all of it
)

var sightNames = [...]string{"hidden", "anonymous", "full"}

// String names the sight: hidden, anonymous or full.
func (s Sight) String() string {
	if int(s) < len(sightNames) {
		return sightNames[s]
	}
	return fmt.Sprintf("sight(%d)", uint8(s))
}

// MarshalText writes the sight's name.
func (s Sight) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads hidden, anonymous or full.
func (s *Sight) UnmarshalText(b []byte) error {
	for i, n := range sightNames {
		if n == string(b) {
			*s = Sight(i)
			return nil
		}
	}
	return fmt.Errorf("sight %q: want hidden, anonymous or full", b)
}

// Visibility is how much of an event each player reads. The umpire reads
// everything. The zero value shows nothing to either player. It is written
// "public" when both players read the event in full, else as
// "us:anonymous,jp:full": the record holds many events, most of them
// public.
type Visibility struct {
	US Sight
	JP Sight
}

// MarshalText writes "public" or "us:SIGHT,jp:SIGHT".
func (v Visibility) MarshalText() ([]byte, error) {
	if v == Public {
		return []byte("public"), nil
	}
	return []byte("us:" + v.US.String() + ",jp:" + v.JP.String()), nil
}

// UnmarshalText reads what MarshalText writes.
func (v *Visibility) UnmarshalText(b []byte) error {
	if string(b) == "public" {
		*v = Public
		return nil
	}
	us, jp, ok := strings.Cut(string(b), ",")
	us, okUS := strings.CutPrefix(us, "us:")
	jp, okJP := strings.CutPrefix(jp, "jp:")
	if !ok || !okUS || !okJP {
		return fmt.Errorf("visibility %q: want public or us:SIGHT,jp:SIGHT", b)
	}
	if err := v.US.UnmarshalText([]byte(us)); err != nil {
		return err
	}
	return v.JP.UnmarshalText([]byte(jp))
}

// Of returns side's sight; any side but the two players gets SightHidden.
func (v Visibility) Of(side Side) Sight {
	switch side {
	case US:
		return v.US
	case JP:
		return v.JP
	}
	return SightHidden
}

// Public is an event both players read in full.
var Public = Visibility{US: SightFull, JP: SightFull}

// OnlyTo returns the visibility of an event side alone reads, in full.
func OnlyTo(side Side) Visibility {
	var v Visibility
	switch side {
	case US:
		v.US = SightFull
	case JP:
		v.JP = SightFull
	}
	return v
}

// EventUnit is a unit as an event names it, as it stood when the event
// happened.
type EventUnit struct {
	ID   string `json:"id,omitempty"`
	Side Side   `json:"side,omitempty"`
	Kind Kind   `json:"kind,omitempty"`
	Hex  Hex    `json:"hex,omitempty"`
	// Steps is what the unit has left after the event.
	Steps int `json:"steps,omitempty"`
	// Box is the off-map box the unit is in, where the kind says so
	// (EventStaged).
	Box string `json:"box,omitempty"`
	// Known: a side reading the event with SightAnonymous may identify the
	// unit. The zero value keeps its identity from such a side.
	Known bool `json:"known,omitempty"`
}

// EventDie is one die of an event: its natural face (1 to 10, a 10 being
// the 0 of the die) and, for a to-hit die, the lowest face that hits
// (HitNeed). It is written "FACE" or "FACE/NEED": "5/7" is a 5 that needed
// a 7, a miss.
type EventDie struct {
	Face int
	Need int
}

// MarshalText writes "FACE" or "FACE/NEED".
func (d EventDie) MarshalText() ([]byte, error) {
	if d.Need == 0 {
		return fmt.Appendf(nil, "%d", d.Face), nil
	}
	return fmt.Appendf(nil, "%d/%d", d.Face, d.Need), nil
}

// UnmarshalText reads what MarshalText writes.
func (d *EventDie) UnmarshalText(b []byte) error {
	face, need, hasNeed := strings.Cut(string(b), "/")
	var err error
	*d = EventDie{}
	if d.Face, err = strconv.Atoi(face); err == nil && hasNeed {
		d.Need, err = strconv.Atoi(need)
	}
	if err != nil {
		return fmt.Errorf("die %q: want FACE or FACE/NEED", b)
	}
	return nil
}

// CauseKind names what scored hits.
type CauseKind string

// Causes of hits.
const (
	CauseFire         CauseKind = "fire"          // ranged fire on Hex (rule 8.1)
	CauseAir          CauseKind = "air"           // Side's air attack on Hex (rule 8.1.6)
	CauseFriendlyFire CauseKind = "friendly-fire" // a roll of 2 or less in Side's air attack on Hex (rule 8.1.6)
	CauseSoftGround   CauseKind = "soft-ground"   // Dice of 1 or 2 rolled by a battery (rule 8.1.5)
	CauseMelee        CauseKind = "melee"         // the melee at Hex (rule 8.2.1)
)

// Cause is what scored the hits of a loss event. Every side reading the
// event reads it, so it names no unit.
type Cause struct {
	Kind CauseKind `json:"kind"`
	Side Side      `json:"side,omitempty"`
	Hex  Hex       `json:"hex,omitempty"`
	Dice int       `json:"dice,omitempty"`
}

// Private is what only a side with SightFull reads of an event.
type Private struct {
	// MP is what a move cost (EventMoved); Cost, for a minimum move, what
	// the hex entered costs (rule 5.8).
	MP   int `json:"mp,omitempty"`
	Cost int `json:"cost,omitempty"`
	// Reason: ReasonMinimumMove or ReasonNightExit for a move; ReasonHexFull
	// or ReasonPoolEmpty when a conversion placed fewer infantry than its
	// table gave.
	Reason Reason `json:"reason,omitempty"`
	// Table is the Unknown unit whose table was rolled, Die the die and Yield
	// what the table gave (EventConverted, rule 2.5).
	Table string `json:"table,omitempty"`
	Die   int    `json:"die,omitempty"`
	Yield int    `json:"yield,omitempty"`
	// Effect and Delay are the Komandorski chits drawn (rule 12.1): a day of
	// May and a number of turns.
	Effect int `json:"effect,omitempty"`
	Delay  int `json:"delay,omitempty"`
	// VP is the victory point chits drawn or placed (rule 14.0).
	VP []VPHex `json:"vp,omitempty"`
}

// Event is something that happened, as data: what kind of thing, who may
// read how much of it (Seen), and the facts its wording needs. Fields a
// kind does not use are zero; EventKind's constants say which each fills.
// It marshals to JSON deterministically: the record keeps it that way.
type Event struct {
	Kind EventKind  `json:"kind"`
	Seen Visibility `json:"seen,omitzero"`
	// Side is the side that acted: the mover, the firer, the attacker in a
	// melee, the picker; the side awaited by EventWait, the winner by
	// EventVictory.
	Side Side `json:"side,omitempty"`
	// Units are the units the event is about; Others, a second group: the
	// defenders of a melee, the infantry placed for Unknown units.
	Units  []EventUnit `json:"units,omitempty"`
	Others []EventUnit `json:"others,omitempty"`
	// Hexes are the hexes concerned, in the order the kind gives: a route,
	// a firer's hex and its target.
	Hexes []Hex `json:"hexes,omitempty"`
	// Target is the hex attacked: by fire, from the air or in melee.
	Target Hex `json:"target,omitempty"`
	// Dice are the dice rolled, in order; DRM is their modifier in all, the
	// sum of Mods (rule 8.3). Hits is what they scored; Friendly counts the
	// air dice of 2 or less that fell on the attacker's own units (8.1.6).
	Dice     []EventDie `json:"dice,omitempty"`
	DRM      int        `json:"drm,omitempty"`
	Mods     []Modifier `json:"mods,omitempty"`
	Hits     int        `json:"hits,omitempty"`
	Friendly int        `json:"friendly,omitempty"`
	// Cause is what scored the hits of a loss.
	Cause *Cause `json:"cause,omitempty"`
	// MP and Allowance: a Yamasaki charge's movement points spent and its
	// doubled allowance (rule 11.3.1). Factors: airpower factors.
	MP        int `json:"mp,omitempty"`
	Allowance int `json:"allowance,omitempty"`
	Factors   int `json:"factors,omitempty"`
	// Round: the round of a melee, or how many it lasted.
	Round int `json:"round,omitempty"`
	// Turn is the game turn an event of the turn is about; Night whether it
	// is a night turn; Wait the kind of orders awaited (EventWait).
	Turn  int      `json:"turn,omitempty"`
	Night bool     `json:"night,omitempty"`
	Wait  WaitKind `json:"wait,omitempty"`
	// Activation and LastActivation count activations of an orders file
	// from 1.
	Activation     int `json:"activation,omitempty"`
	LastActivation int `json:"last_activation,omitempty"`
	// Reason is the branch of the rules taken; Instruction the standing
	// instruction in force that chose it.
	Reason      Reason `json:"reason,omitempty"`
	Instruction string `json:"instruction,omitempty"`
	// Note is a refusal as the rules word it for the orders' author, quoted
	// by an event (an activation skipped, an advance over-stacking).
	Note string `json:"note,omitempty"`
	// TargetUnit is the enemy unit a fire order named (rule 8.0).
	TargetUnit string `json:"target_unit,omitempty"`
	// Prev and Weather: the weather line rolled on and the weather it gave
	// (EventWeather); Weather is also the weather of an airpower roll.
	Prev    Weather `json:"prev,omitempty"`
	Weather Weather `json:"weather,omitempty"`
	// Effect, Delay and LastTurn: Komandorski chits revealed, and the last
	// turn they make (rule 12.1.3).
	Effect   int `json:"effect,omitempty"`
	Delay    int `json:"delay,omitempty"`
	LastTurn int `json:"last_turn,omitempty"`
	// Casualties: the casualty track that ended the game (rule 3.8.2).
	Casualties int `json:"casualties,omitempty"`
	// Zone, ZoneName and Place: a victory zone's letter and name and its
	// victory hex's name (rule 10.0).
	Zone     string `json:"zone,omitempty"`
	ZoneName string `json:"zone_name,omitempty"`
	Place    string `json:"place,omitempty"`
	// Steps counts steps restored, lost or given (refit events); Total and
	// Capacity, a landing zone's steps and what it holds at most (rule
	// 9.2.1). Part names the part of the refit orders an entry is in.
	Steps    int    `json:"steps,omitempty"`
	Total    int    `json:"total,omitempty"`
	Capacity int    `json:"capacity,omitempty"`
	Part     string `json:"part,omitempty"`
	// ToZone is the landing zone a unit scattered to (rule 9.2.2).
	ToZone string `json:"to_zone,omitempty"`
	// Counts are how many Japanese counters stand in each of Hexes
	// (EventRefitMap, EventJapaneseSetUp).
	Counts []int `json:"counts,omitempty"`
	// Scenario and Options: the game created (EventGameCreated) and its
	// scenario ("" for the campaign).
	Scenario string   `json:"scenario,omitempty"`
	Options  *Options `json:"options,omitempty"`
	// VP is the victory point chits revealed at the end, with the score
	// and the level (EventVictory, rule 14.0).
	VP *VPChits `json:"vp,omitempty"`
	// Private is withheld from a side that does not read the event in full.
	Private *Private `json:"private,omitempty"`
}

// unitRef describes u for an event as it stands now. Known says whether the
// U.S. may identify it (rule 2.5).
func unitRef(u *Unit) EventUnit {
	return EventUnit{ID: u.ID, Side: u.Side(), Kind: u.Kind(), Hex: u.Hex, Steps: u.Steps, Known: !hiddenFrom(u, US)}
}

// unitRefs describes units for an event (unitRef).
func unitRefs(units []*Unit) []EventUnit {
	out := make([]EventUnit, len(units))
	for i, u := range units {
		out[i] = unitRef(u)
	}
	return out
}

// seenAbout returns the visibility of an event every side may read, about
// units: the Japanese read it in full; the U.S. too when it may identify
// every unit named, else as happening to counters (rule 2.5).
func seenAbout(groups ...[]EventUnit) Visibility {
	for _, g := range groups {
		for _, u := range g {
			if !u.Known {
				return Visibility{US: SightAnonymous, JP: SightFull}
			}
		}
	}
	return Public
}

// eventDice records natural faces for an event, each with the lowest face
// that hits with modifier drm (HitNeed); with toHit false, with no need.
func eventDice(faces []int, drm int, toHit bool) []EventDie {
	out := make([]EventDie, len(faces))
	for i, f := range faces {
		out[i] = EventDie{Face: f}
		if toHit {
			out[i].Need = HitNeed(drm)
		}
	}
	return out
}
