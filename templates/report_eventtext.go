package templates

import "github.com/attu-pbem/attu/adjudicator"

// eventText is the one place a report turns an event into words. Every
// line about what happened goes through it, so that the wording lives in
// one renderer: EventText, of an event already redacted for the reader.
func eventText(ev adjudicator.Event) string { return EventText(ev) }

// eventHexes returns the hexes an event is about, for a report: its hexes,
// or the hex attacked when it names no other.
func eventHexes(ev adjudicator.Event) []adjudicator.Hex {
	if len(ev.Hexes) == 0 && ev.Target != 0 {
		return []adjudicator.Hex{ev.Target}
	}
	return ev.Hexes
}
