package templates

import (
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// BenchmarkReport renders one side's whole report as the game service
// sends it: the view and outlook, the text with its close-ups, the order
// template, the picture and the JSON document. Two busy positions of
// generated games: turn 4 waiting for the U.S. actions (60 units on the
// map, each U.S. unit's options worked out), and the step after a melee
// step (dozens of events, several close-ups).
func BenchmarkReport(b *testing.B) {
	actions := findStep(b, 20, func(st step) bool {
		return st.s.Turn >= 4 && awaitedSide(st.s) == adjudicator.US && waitKind(st.s) == adjudicator.WaitActions &&
			len(st.s.OnMap()) >= 60
	})
	melee := findStep(b, 20, func(st step) bool {
		return st.s.Turn >= 3 && hasKind(st.events, adjudicator.US, "melee-end") && len(st.s.OnMap()) >= 60
	})
	for _, c := range []struct {
		name string
		st   step
		side adjudicator.Side
	}{
		{"actions-us", actions, adjudicator.US},
		{"actions-jp", actions, adjudicator.JP},
		{"melee-us", melee, adjudicator.US},
	} {
		b.Run(c.name, func(b *testing.B) {
			evs := adjudicator.VisibleEvents(c.st.events, c.side)
			b.ReportAllocs()
			for b.Loop() {
				rep := &Report{Game: testGame(b), Map: c.st.s.Map(), View: c.st.s.View(c.side), Outlook: c.st.s.Outlook(c.side), Events: evs}
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
