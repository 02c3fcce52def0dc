package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/store"
)

// A tournament of Island War: its games are created as Island War games
// of the scenario each round names, the umpire's ruling counts in the
// standings, and the table's scoring clause speaks of the scenario's
// victory conditions, not of War in the Wind's rules.
func TestTournamentOfIslandWar(t *testing.T) {
	db := filepath.Join(t.TempDir(), "attu.db")
	text := `id: ridge
name: Ridge cup
system: island-war
umpire: {name: Una, address: u@x.org}
players: [{name: Ann, address: a@x.org}, {name: Ben, address: b@x.org}, {name: Cy, address: c@x.org}, {name: Di, address: d@x.org}]
rounds: [{scenario: ridge-42}, {scenario: ridge-42}]
`
	file := writeFile(t, "ridge.yaml", text)
	code, out, errs := runAttu("tournament", "new", "-db", db, "-address", "attu@x.org", file)
	if code != 0 || !strings.Contains(out, "4 players, 2 rounds") || !strings.Contains(out, "round 1 (ridge-42):") {
		t.Fatalf("attu tournament new: exit %d, %s %s", code, out, errs)
	}
	moon := writeFile(t, "moon.yaml", strings.Replace(text, "rounds: [{scenario: ridge-42}", "rounds: [{scenario: moon}", 1))
	if code, _, errs := runAttu("tournament", "new", "-db", filepath.Join(t.TempDir(), "moon.db"), "-address", "attu@x.org", moon); code != 1 ||
		!strings.Contains(errs, `scenario "moon"`) || !strings.Contains(errs, "ridge-42") {
		t.Fatalf("a round of a scenario Island War lacks: exit %d, %s", code, errs)
	}
	d, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"ridge-r1-1", "ridge-r1-2"} {
		g, err := d.Game(id)
		if err != nil {
			t.Fatal(err)
		}
		if g.SystemName() != "island-war" || g.Scenario != "ridge-42" {
			t.Fatalf("game %s is of %q, scenario %q", id, g.SystemName(), g.Scenario)
		}
	}
	d.Close()
	if code, _, errs := runAttu("umpire", "-db", db, "ridge-r1-1", "end", "jp", "the U.S. player withdrew"); code != 0 {
		t.Fatalf("attu umpire end: exit %d, %s", code, errs)
	}
	code, out, errs = runAttu("tournament", "status", "-db", db)
	if code != 0 || !strings.Contains(out, "(Japanese) beat ") || !strings.Contains(out, ", by the umpire's ruling") ||
		!strings.Contains(out, "When a scenario's victory conditions name a level") || strings.Contains(out, "rule 3.8") {
		t.Fatalf("attu tournament status after the end: exit %d, %s %s", code, out, errs)
	}
	code, out, errs = runAttu("tournament", "next", "-db", db)
	if code != 0 || !strings.Contains(out, "round 2 (ridge-42):") {
		t.Fatalf("attu tournament next: exit %d, %s %s", code, out, errs)
	}
}
