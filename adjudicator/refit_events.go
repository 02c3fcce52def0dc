package adjudicator

import "fmt"

// The events of a refit turn (rule 9) are built here and only here, so
// that who may read each one is decided in one place.

// Event kinds of a refit turn.
const (
	evDecision     = "decision"      // the refit decision (3.1)
	evLossRecovery = "loss-recovery" // the roll and the track's reset (9.1)
	evRestore      = "restore"       // steps restored (9.1)
	evLanding      = "landing"       // staging, scatter, delay (9.2.2)
	evCapacity     = "capacity"      // a landing zone over capacity (9.2.1)
	evIndependent  = "independent"   // an independent unit created (9.3)
	evDepot        = "depot"         // a supply depot created (9.4)
	evHide         = "hide"          // Japanese units turned face down (9.5)
	evRearrange    = "rearrange"     // Unknown units moved and swapped (9.6)
	evTurn         = "turn"          // the turn marker advances (9.7)
	evSkipped      = "skipped"       // an order the dice made impossible
)

// refitPublic is an event both sides read: what happens on the table in
// front of both players (the U.S. refit and landing, the dice rolled for
// them).
func refitPublic(kind string, actor Side, hexes []Hex, format string, a ...any) Event {
	return Event{Kind: kind, Side: actor, Hexes: hexes, Text: fmt.Sprintf(format, a...)}
}

// refitSeen is an event only seen (and the umpire) reads, about what actor
// did: the Japanese player's own account of what he hid, moved and swapped
// (9.5, 9.6), and the U.S. player's, which names counters and hexes only.
func refitSeen(seen, actor Side, kind string, hexes []Hex, format string, a ...any) Event {
	return Event{Kind: kind, Side: actor, Seen: seen, Hexes: hexes, Text: fmt.Sprintf(format, a...)}
}
