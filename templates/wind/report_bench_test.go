//go:build unix

package wind

import (
	"syscall"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// cpuTime is the CPU time the process has used, in user and system mode:
// on a machine shared with other work it says what a report costs better
// than the wall clock does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReport renders one side's whole report as the game service
// sends it: the view and outlook, the text with its close-ups, the order
// template, the picture and the JSON document. Two busy positions of
// generated games: turn 4 waiting for the U.S. actions (60 units on the
// map, each U.S. unit's options worked out), and the step after a melee
// step (dozens of events, several close-ups). Besides the wall clock it
// reports the process's CPU time per report (cpu-ms/op).
func BenchmarkReport(b *testing.B) {
	actions := findStep(b, 20, func(st step) bool {
		return st.s.Turn >= 4 && awaitedSide(st.s) == adjudicator.US && waitKind(st.s) == wind.WaitActions &&
			len(st.s.OnMap()) >= 60
	})
	melee := findStep(b, 20, func(st step) bool {
		return st.s.Turn >= 3 && hasKind(st.events, adjudicator.US, wind.EventMeleeEnds) && len(st.s.OnMap()) >= 60
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
			evs := wind.VisibleEvents(c.st.events, c.side)
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				rep := &Report{Game: testGame(b), Map: c.st.s.Map(), View: c.st.s.View(c.side), Outlook: c.st.s.Outlook(c.side), Events: evs}
				if _, err := rep.RenderWords(); err != nil {
					b.Fatal(err)
				}
				if _, err := rep.PNG(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}
