package wind

import (
	"fmt"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// A report to a person facing attu's stand-in says what the stand-in did
// that the reader saw, counted from the events the reader was told, and
// says so when it did nothing the reader could see; a report to a person
// facing a person says nothing of the kind.
func TestReportSaysWhatTheStandInDid(t *testing.T) {
	st := findStep(t, 30, func(st step) bool {
		return st.s.Turn >= 2 && awaitedSide(st.s) == adjudicator.JP && waitKind(st.s) == wind.WaitActions
	})
	jp := adjudicator.JP
	for _, side := range []adjudicator.Side{adjudicator.US, jp} {
		rep := reportOf(t, st, side)
		if text := rep.Text(); strings.Contains(text, "stand-in") {
			t.Errorf("%s: a game of two persons speaks of the stand-in", side)
		}
	}
	rep := reportOf(t, st, adjudicator.US)
	rep.Game.StandIn = []adjudicator.Side{jp}
	n := 0
	for _, ev := range rep.Events {
		if ev.Side == jp && activationKinds[ev.Kind] {
			n++
		}
	}
	want := fmt.Sprintf("The Japanese side is played by attu's stand-in: since your last report you saw %d activation", n)
	if n == 0 {
		want = "The Japanese side is played by attu's stand-in: since your last report it made no activation you could see"
	}
	text := rep.Text()
	checkColumns(t, "stand-in", text)
	if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
		t.Errorf("the report to the U.S. facing the stand-in lacks %q:\n%s", want, text)
	}
	// Nothing seen of the stand-in: it says so.
	var none []wind.Event
	for _, ev := range rep.Events {
		if ev.Side != jp {
			none = append(none, ev)
		}
	}
	rep.Events = none
	if text := strings.Join(strings.Fields(rep.Text()), " "); !strings.Contains(text, "it made no activation you could see") {
		t.Errorf("a report with nothing of the stand-in does not say so:\n%s", text)
	}
	// Rule 13 in a solitaire game, facing a person who orders the rest.
	rep = reportOf(t, st, adjudicator.US)
	rep.Solitaire = true
	if text := strings.Join(strings.Fields(rep.Text()), " "); !strings.Contains(text, "Rule 13's solitaire procedures move the Japanese where they apply") {
		t.Errorf("the solitaire report does not say who moves the Japanese:\n%s", text)
	}
}
