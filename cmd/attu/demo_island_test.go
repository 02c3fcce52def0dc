package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	oi "github.com/attu-pbem/attu/orders/island"
)

// The Island War demo plays Ridge 42 by mail to its end: it exits 0, the
// export passes the audit, both players receive the final report, the
// Japanese standing instructions brought at least one defence wait, and
// each player receives at most 3 mails and 350 KB a Game-Turn on average
// (welcome and final report aside), counted from the mails delivered.
func TestDemoIslandWar(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"demo", "-system", "island-war", "-timeout", "5m", "-keep", dir}, &out, &errb); code != 0 {
		log, _ := os.ReadFile(filepath.Join(dir, "attu.log"))
		t.Fatalf("attu demo -system island-war exited %d: %s\n%s\nlog:\n%s", code, errb.String(), out.String(), log)
	}
	text := out.String()
	if !strings.Contains(text, "Audit of game demo: OK") {
		t.Errorf("no passing audit in the output:\n%s", text)
	}
	m := regexp.MustCompile(`(\d+) defence waits? answered`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the output does not say how many defence waits were answered:\n%s", text)
	}
	if n, _ := strconv.Atoi(m[1]); n < 1 {
		t.Errorf("no defence wait was answered:\n%s", text)
	}
	const turns = islandDemoTurns
	for _, user := range []string{"alice", "bob", "carol"} {
		files, err := filepath.Glob(filepath.Join(dir, "mail", "*-to-"+user+".eml"))
		if err != nil {
			t.Fatal(err)
		}
		final, n, size := false, 0, 0
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			subj := subjectOf(b)
			switch {
			case strings.Contains(subj, "the game is over"):
				final = true
			case strings.Contains(subj, "welcome"):
			default:
				n, size = n+1, size+len(b)
			}
		}
		t.Logf("%s: %d mails, %d KB in %d Game-Turns, between the welcome and the final report", user, n, size/1000, turns)
		if !final {
			t.Errorf("%s did not receive the final report", user)
		}
		if float64(n)/turns > 3 || size > turns*350_000 {
			t.Errorf("%s received %d mails, %d KB in %d Game-Turns: more than 3 mails or 350 KB a Game-Turn", user, n, size/1000, turns)
		}
	}
	if !strings.Contains(text, "==== Mails per Game-Turn (8 Game-Turns") {
		t.Errorf("the output does not count the mails per Game-Turn:\n%s", text)
	}
}

// attu new creates an Island War game with a scenario of the system's:
// -h lists each system's scenarios, the game records its system and
// waits for the Japanese set-up, attu show prints a side's report of
// it, and a scenario or a setup Island War
// does not have is refused, creating nothing.
func TestNewIslandWar(t *testing.T) {
	db := filepath.Join(t.TempDir(), "attu.db")
	code, out, _ := runAttu("new", "-h")
	if code != 0 || !regexp.MustCompile(`(?m)^  island-war +ridge-42$`).MatchString(out) || !regexp.MustCompile(`(?m)^  war-in-the-wind +campaign, `).MatchString(out) {
		t.Errorf("attu new -h does not list each system's scenarios:\n%s", out)
	}
	base := []string{"new", "-db", db, "-system", "island-war", "-address", "attu@example.org", "-us", "a@x.org", "-jp", "b@x.org"}
	if code, _, errs := runAttu(append(base, "-id", "bad", "-scenario", "ridge-43")...); code == 0 || !strings.Contains(errs, `unknown scenario "ridge-43" (ridge-42)`) {
		t.Errorf("an unknown scenario: exit %d, %s", code, errs)
	}
	if code, _, errs := runAttu(append(base, "-id", "bad", "-setup", "random")...); code == 0 || !strings.Contains(errs, "name no setup") {
		t.Errorf("-setup random: exit %d, %s", code, errs)
	}
	code, out, errs := runAttu(append(base, "-id", "r1", "-scenario", "ridge-42")...)
	if code != 0 || !strings.Contains(out, "created game r1") || !strings.Contains(out, "setup from jp") {
		t.Fatalf("attu new -system island-war -scenario ridge-42: exit %d, %s%s", code, out, errs)
	}
	code, out, errs = runAttu("show", "-db", db, "-side", "jp", "r1")
	if code != 0 || !strings.Contains(out, "Island War: Ridge 42") || !strings.Contains(out, "Japanese report") || !strings.Contains(out, "wait: setup") {
		t.Errorf("attu show -side jp r1: exit %d, %s%s", code, out, errs)
	}
	code, out, errs = runAttu("show", "-db", db, "-side", "us", "-json", "r1")
	if code != 0 || !json.Valid([]byte(out)) || !strings.Contains(out, `"scenario"`) {
		t.Errorf("attu show -side us -json r1: exit %d, %s%s", code, out, errs)
	}
	code, out, errs = runAttu("status", "-db", db)
	if code != 0 || !strings.Contains(out, "r1") || !strings.Contains(out, "Waiting for the Japanese set-up") || strings.Contains(out, "bad") {
		t.Errorf("attu status: exit %d, %s%s", code, out, errs)
	}
}

// withAsk puts ask into a file's standing instructions, or gives the
// file standing instructions of ask alone, and the result reads as
// Island War orders with that ask.
func TestIslandWithAsk(t *testing.T) {
	head := "game: g1\nside: jp\nturn: 1\nwait: orders\ntoken: x\n"
	for _, c := range []struct {
		in  string
		ask bool
	}{
		{head, true},
		{head + "standing:\n  fpf:\n    - {protect: I/124, gsp: 1}\n", true},
		{head + "standing:\n  fpf:\n    - {protect: I/124, gsp: 1}\n", false},
		{head + "standing: {}\n", true},
		{head + "standing: {fpf: [{protect: I/124, gsp: 1}]}\n", true},
	} {
		out := withAsk([]byte(c.in), c.ask)
		o, err := oi.ReadOrders(out)
		if err != nil {
			t.Errorf("withAsk(%q): %v\n%s", c.in, err, out)
			continue
		}
		if o.Standing == nil || o.Standing.Ask != c.ask {
			t.Errorf("withAsk(%q, %v) gives standing %+v:\n%s", c.in, c.ask, o.Standing, out)
		}
		if strings.Contains(c.in, "protect") && !strings.Contains(string(out), "protect: I/124") {
			t.Errorf("withAsk lost the fire plan:\n%s", out)
		}
	}
}
