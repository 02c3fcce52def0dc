package adjudicator

import "fmt"

// The events of a game's creation and its setup waits (rules 12, 14.0,
// 15) are built here and only here, so that who may read each one is
// decided in one place. The Japanese setup, the draws behind it and the
// victory point chits are the Japanese player's secrets: the U.S. reads
// only what the counters on the map show.

// Event kinds of the setup.
const (
	evCreated = "created" // the game is created: scenario and options (12.0, 15.0)
	evMarkers = "markers" // the markers of rule 12.2
	evSetup   = "setup"   // units set up or given to a scenario (12.3, 12.4, 15.x)
	evVP      = "vp"      // victory point chits drawn, placed or scored (14.0)
	evDelay   = "delay"   // the U.S. delays the opening landing (12.6)
	evBegin   = "begin"   // the landing is over and turn play begins (12.5)
)

// setupPublic is an event both sides read.
func setupPublic(kind string, hexes []Hex, format string, a ...any) Event {
	return Event{Kind: kind, Hexes: hexes, Text: fmt.Sprintf(format, a...)}
}

// setupSeen is an event only seen (and the umpire) reads, about what actor
// did.
func setupSeen(seen, actor Side, kind string, hexes []Hex, format string, a ...any) Event {
	return Event{Kind: kind, Side: actor, Seen: seen, Hexes: hexes, Text: fmt.Sprintf(format, a...)}
}
