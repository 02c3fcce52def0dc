package wind

// The events of a refit turn (rule 9) get their visibility here and only
// here, so that who may read each one is decided in one place.

// refitPublic returns ev as both sides read it: what happens on the table
// in front of both players (the U.S. refit and landing, the dice rolled for
// them).
func refitPublic(ev Event) Event {
	ev.Seen = Public
	return ev
}

// refitSeen returns ev as only side (and the umpire) reads it: the
// Japanese player's own account of what he hid, moved and swapped (9.5,
// 9.6), and the U.S. player's, which names counters and hexes only.
func refitSeen(side Side, ev Event) Event {
	ev.Seen = OnlyTo(side)
	return ev
}
