package island

import (
	"os"
	"regexp"
	"testing"
)

// The Turn Record Track's dates are kept, one per Game-Turn as the file
// writes them, and a scenario that gives none is as valid.
func TestTrackDates(t *testing.T) {
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	sc, ps := ParseScenario(data)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if sc.Dates[1] != "12 Sep 42" || sc.Dates[3] != "14 Sep 42" || len(sc.Dates) != sc.GameTurns {
		t.Fatalf("dates %v, want 12 Sep 42 for turn 1 and one a Game-Turn", sc.Dates)
	}
	if got := sc.TurnName(3); got != "Game-Turn 3, 14 Sep 42" {
		t.Fatalf("TurnName(3) = %q", got)
	}
	undated := regexp.MustCompile(`(?m)(date: [^,}\n]*, |^\s*date: .*\n)`).ReplaceAll(data, nil)
	sc, ps = ParseScenario(undated)
	if len(ps) > 0 {
		t.Fatalf("without dates: %v", ps)
	}
	if len(sc.Dates) != 0 || sc.TurnName(3) != "Game-Turn 3" {
		t.Fatalf("without dates: %v, %q", sc.Dates, sc.TurnName(3))
	}
}
