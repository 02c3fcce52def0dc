package wind

import (
	"slices"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// A report that spans several orders files numbers each file's
// activations from 1, and the numbers count what the reader was told: a
// Japanese activation the U.S. did not see leaves no gap.
func TestActivationsNumberedPerOrders(t *testing.T) {
	us, jp := adjudicator.US, adjudicator.JP
	moved := func(side adjudicator.Side, from, to adjudicator.Hex, seen wind.Visibility) wind.Event {
		return wind.Event{Kind: wind.EventMoved, Seen: seen, Side: side, Hexes: []adjudicator.Hex{from, to}}
	}
	hidden := wind.OnlyTo(jp)
	evs := []wind.Event{
		moved(us, 2618, 2619, wind.Public),
		moved(us, 2718, 2719, wind.Public),
		{Kind: wind.EventWait, Seen: wind.Public, Side: jp, Wait: wind.WaitActions, Turn: 2},
		moved(jp, 2717, 2716, hidden),
		moved(jp, 2816, 2817, wind.Public),
		{Kind: wind.EventTurnBegins, Seen: wind.Public, Turn: 3},
		{Kind: wind.EventWait, Seen: wind.Public, Side: us, Wait: wind.WaitActions, Turn: 3},
		moved(us, 2619, 2620, wind.Public),
		moved(us, 2719, 2720, wind.Public),
		moved(us, 2720, 2721, wind.Public),
	}
	titles := func(side adjudicator.Side) []string {
		var out []string
		for _, s := range groupSteps(wind.VisibleEvents(evs, side)) {
			out = append(out, s.Title)
		}
		return out
	}
	want := map[adjudicator.Side][]string{
		jp: {"U.S. activation 1", "U.S. activation 2", "Japanese activation 1", "Japanese activation 2",
			"Turn track (rules 3.9, 12.1)", "U.S. activation 1", "U.S. activation 2", "U.S. activation 3"},
		us: {"U.S. activation 1", "U.S. activation 2", "Japanese activation 1",
			"Turn track (rules 3.9, 12.1)", "U.S. activation 1", "U.S. activation 2", "U.S. activation 3"},
	}
	for side, w := range want {
		if got := titles(side); !slices.Equal(got, w) {
			t.Errorf("%s reads the steps\n%q\nwant\n%q", side, got, w)
		}
	}
}

// The end of the game that cuts a side's actions short tells the other
// side no activation number: how many the side wrote is its own.
func TestCutShortHidesTheCount(t *testing.T) {
	ev := wind.Event{Kind: wind.EventActionsCutShort, Seen: wind.Public, Side: adjudicator.JP, Activation: 4, LastActivation: 11}
	for side, want := range map[adjudicator.Side]string{
		adjudicator.JP:     "the game is over: activations 4 to 11 are not carried out",
		adjudicator.Umpire: "the game is over: activations 4 to 11 are not carried out",
		adjudicator.US:     "the game is over: the rest of the Japanese activations are not carried out",
	} {
		r, ok := wind.Redact(ev, side)
		if got := EventText(r); !ok || got != want {
			t.Errorf("%s reads %q, want %q", side, got, want)
		}
	}
}
