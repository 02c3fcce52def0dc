package referee

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n%s", name, got)
	}
}

// A missed deadline with default orders reaches the umpire at once in
// every copies mode: the report of the step, headed by the deadline,
// when the umpire gets a copy of every report; a notice when its copies
// (a daily digest, one report a turn) bring none of that step. The
// deadline is the U.S. actions' of turn 1, 12 hours after the U.S.
// decision, so that the umpire's report of the turn, and the day's
// digest, have already come.
func TestMissedDeadlineTellsUmpire(t *testing.T) {
	for _, mode := range copyModes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, NewGame{Copies: mode, Deadline: 12 * time.Hour})
			h.advance(time.Hour)
			h.play(quiet)
			if w := h.game().Wait; w.Kind != wind.WaitActions || w.Side != adjudicator.US {
				t.Fatalf("the game waits for %v, want the U.S. actions", w)
			}
			h.tick()
			h.advance(h.game().Deadline.Sub(h.clk.now()) + time.Minute)
			var got []string
			for _, m := range h.tick() {
				if len(m.To) == 1 && m.To[0] == umpireAddr {
					got = append(got, "Subject: "+m.Subject+"\n\n"+m.Text)
				}
			}
			if len(got) != 1 {
				t.Fatalf("the umpire got %d mails at the missed deadline, want 1", len(got))
			}
			if !strings.Contains(got[0], "deadline") {
				t.Errorf("the umpire's mail does not tell of the deadline:\n%s", got[0])
			}
			// The golden file holds what tells of the deadline: a
			// report's body is the report goldens' (templates).
			text, _, report := strings.Cut(got[0], "\nattu report: ")
			if report != (mode == CopiesEvery) {
				t.Errorf("the umpire's mail carries a report: %v, want %v", report, mode == CopiesEvery)
			}
			golden(t, "missed-umpire-"+mode+".txt", text)
			// Nothing more comes within the hour.
			h.advance(time.Hour)
			for _, m := range h.tick() {
				if m.To[0] == umpireAddr {
					t.Errorf("an hour later the umpire gets %q", m.Subject)
				}
			}
		})
	}
}
