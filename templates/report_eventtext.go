package templates

import "github.com/attu-pbem/attu/adjudicator"

// eventText is the one place a report turns an event into words. Every
// line about what happened goes through it, so that the wording lives in
// one renderer.
func eventText(ev adjudicator.Event) string { return ev.Text }
