package templates

import (
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// busyPosition is a mid-game position of a generated game, turn 4 or
// later, waiting for the U.S. actions, with fighting in its last step and
// many units on the map.
func busyPosition(b *testing.B) step {
	return findStep(b, 20, func(st step) bool {
		return st.s.Turn >= 4 && awaitedSide(st.s) == adjudicator.US && waitKind(st.s) == adjudicator.PhaseActions &&
			len(st.s.OnMap()) >= 60
	})
}

// BenchmarkReport renders one side's whole report of a busy position as
// the game service sends it: the view and outlook, the text with its
// close-ups, the order template, the picture and the JSON document.
func BenchmarkReport(b *testing.B) {
	st := busyPosition(b)
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		b.Run(side.String(), func(b *testing.B) {
			evs := adjudicator.VisibleEvents(st.events, side)
			b.ReportAllocs()
			for b.Loop() {
				rep := &Report{Game: testGame(b), Map: st.s.Map(), View: st.s.View(side), Outlook: st.s.Outlook(side), Events: evs}
				_ = rep.Text()
				rep.OrderTemplate()
				if _, err := rep.PNG(); err != nil {
					b.Fatal(err)
				}
				if _, err := rep.JSON(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
