package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A tournament made from the example file with attu tournament new, its
// standings and digest printed by attu tournament status, its next round
// begun by attu tournament next; attu umpire ends a game and the
// standings count it.
func TestTournamentCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "attu.db")
	example := filepath.Join("..", "..", "examples", "tournament.yaml")
	code, out, errs := runAttu("tournament", "new", "-db", db, "-address", "attu@example.org", example)
	if code != 0 {
		t.Fatalf("attu tournament new: exit %d, %s", code, errs)
	}
	for _, want := range []string{"created tournament spring43 (Spring 1943 Attu Open)", "6 players, 3 rounds",
		"round 1 (up-the-hogs-back):", "spring43-r1-1", "spring43-r1-3"} {
		if !strings.Contains(out, want) {
			t.Fatalf("attu tournament new said no %q:\n%s", want, out)
		}
	}
	if code, _, errs := runAttu("tournament", "new", "-db", db, "-address", "attu@example.org", example); code != 1 || !strings.Contains(errs, "exists") {
		t.Fatalf("a second tournament spring43: exit %d, %s", code, errs)
	}
	bad := writeFile(t, "bad.yaml", "id: x\nname: X\numpire: {name: U, address: u@x.org}\nplayers: [{name: A, address: a@x.org}]\nrounds: [{scenario: moon}]\n")
	if code, _, errs := runAttu("tournament", "new", "-db", db, "-address", "attu@example.org", bad); code != 1 ||
		!strings.Contains(errs, bad+":4:10: players: a tournament needs at least two players") || !strings.Contains(errs, bad+":5:10: rounds[1]: scenario \"moon\"") {
		t.Fatalf("a bad file: exit %d, %s", code, errs)
	}
	duel := writeFile(t, "duel.yaml", "id: duel\nname: Duel\numpire: {name: U, address: u@x.org}\nplayers: [{name: A, address: a@x.org}, {name: B, address: b@x.org}]\nrounds: [{scenario: up-the-hogs-back}]\n")
	if code, out, errs := runAttu("tournament", "new", "-db", filepath.Join(t.TempDir(), "duel.db"), "-address", "attu@example.org", duel); code != 0 || !strings.Contains(out, ": 2 players, 1 round\n") {
		t.Fatalf("a tournament of one round: exit %d, %s %s", code, out, errs)
	}
	code, out, errs = runAttu("tournament", "status", "-db", db)
	if code != 0 || !strings.Contains(out, "standings in round 1 of 3") || !strings.Contains(out, "GAMES BEING PLAYED\n  round 1, spring43-r1-1:") {
		t.Fatalf("attu tournament status: exit %d, %s %s", code, out, errs)
	}
	code, out, errs = runAttu("tournament", "status", "-db", db, "-v", "spring43")
	if code != 0 || !strings.Contains(out, "the umpire's digest of") || !strings.Contains(out, "waits for: the Japanese setup") {
		t.Fatalf("attu tournament status -v: exit %d, %s %s", code, out, errs)
	}
	if code, _, errs := runAttu("umpire", "-db", db, "spring43-r1-1", "end", "jp", "the U.S. player withdrew"); code != 0 {
		t.Fatalf("attu umpire end: exit %d, %s", code, errs)
	}
	code, out, errs = runAttu("tournament", "status", "-db", db)
	if code != 0 {
		t.Fatalf("attu tournament status after the end: exit %d, %s", code, errs)
	}
	// The sides were drawn at random: the Japanese player won.
	if !strings.Contains(out, "GAMES OVER\n  round 1, spring43-r1-1:") || !regexp.MustCompile(`\(Japanese\) beat (Alice|Farid), by the`).MatchString(out) {
		t.Fatalf("attu tournament status after the end:\n%s", out)
	}
	code, out, errs = runAttu("tournament", "next", "-db", db)
	if code != 0 || !strings.Contains(out, "began round 2 of spring43") || !strings.Contains(out, "round 2 (holtz-bay-to-jarmin-pass):") {
		t.Fatalf("attu tournament next: exit %d, %s %s", code, out, errs)
	}
	if code, _, _ := runAttu("tournament", "next", "-db", db, "spring43"); code != 0 {
		t.Fatal("round 3")
	}
	if code, _, errs := runAttu("tournament", "next", "-db", db); code != 1 || !strings.Contains(errs, "every round of spring43 has begun") {
		t.Fatalf("a fourth round: exit %d, %s", code, errs)
	}
	if code, _, errs := runAttu("tournament", "status", "-db", db, "autumn"); code != 1 || !strings.Contains(errs, `no tournament "autumn"`) {
		t.Fatalf("an unknown tournament: exit %d, %s", code, errs)
	}
	if code, out, _ := runAttu("tournament", "-h"); code != 0 || !strings.Contains(out, "Examples:") {
		t.Fatalf("attu tournament -h: exit %d, %s", code, out)
	}
	if code, _, _ := runAttu("tournament", "begin"); code != 2 {
		t.Fatalf("attu tournament begin: exit %d", code)
	}
}

// While attu serve holds the database, attu tournament runs in the
// daemon: new, status and next give what they give on their own.
func TestTournamentCommandsWhileDaemonRuns(t *testing.T) {
	r := startDaemon(t, t.TempDir())
	duel := writeFile(t, "duel.yaml", "id: duel\nname: Duel\numpire: {name: U, address: "+r.umpire+"}\nplayers: [{name: A, address: "+r.us+"}, {name: B, address: "+r.jp+"}]\n"+
		"rounds: [{scenario: up-the-hogs-back}, {scenario: the-linkup}]\npairing: swiss\n")
	if code, out, errs := runAttu("tournament", "new", "-db", r.db, "-address", r.own, duel); code != 0 || !strings.Contains(out, "created tournament duel (Duel)") {
		t.Fatalf("attu tournament new while the daemon runs: exit %d, %s %s", code, out, errs)
	}
	if code, out, errs := runAttu("tournament", "status", "-db", r.db); code != 0 || !strings.Contains(out, "standings in round 1 of 2") {
		t.Fatalf("attu tournament status while the daemon runs: exit %d, %s %s", code, out, errs)
	}
	if code, out, errs := runAttu("tournament", "next", "-db", r.db); code != 0 || !strings.Contains(out, "began round 2 of duel") {
		t.Fatalf("attu tournament next while the daemon runs: exit %d, %s %s", code, out, errs)
	}
	if code, _, errs := runAttu("tournament", "new", "-db", r.db, "-address", "games@elsewhere.org", duel); code != 1 || !strings.Contains(errs, "the running daemon plays through") {
		t.Fatalf("a tournament on another mailbox: exit %d, %s", code, errs)
	}
}
