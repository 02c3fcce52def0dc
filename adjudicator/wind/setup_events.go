package wind

// The events of a game's creation and its setup waits (rules 12, 14.0,
// 15) get their visibility here and only here, so that who may read each
// one is decided in one place. The Japanese setup, the draws behind it and
// the victory point chits are the Japanese player's secrets: the U.S.
// reads only what the counters on the map show.

// setupPublic returns ev as both sides read it: the markers, the
// scenario's rules, the landing.
func setupPublic(ev Event) Event {
	ev.Seen = Public
	return ev
}

// setupSeen returns ev as only side (and the umpire) reads it.
func setupSeen(side Side, ev Event) Event {
	ev.Seen = OnlyTo(side)
	return ev
}

// setupCounters returns ev about Japanese units as the U.S. sees them set
// up: counters in hexes, without their identities or the event's private
// facts; the Japanese read it in full.
func setupCounters(ev Event) Event {
	ev.Seen = Visibility{US: SightAnonymous, JP: SightFull}
	return ev
}

// counterRefs describes Japanese units set up face down for an event: the
// U.S. may not identify them (rule 2.5).
func counterRefs(units []*Unit) []EventUnit {
	out := unitRefs(units)
	for i := range out {
		out[i].Known = false
	}
	return out
}
