package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The demo plays five turns by mail from start to end: it exits 0, each
// player's mailbox got its reports and the final report, and the export
// of the game passes the audit. It is given minutes rather than the
// demo's default of 55 s: under the race detector on a busy machine a
// turn can take that long, and speed is not what this test checks.
//
// The mails it keeps are counted as a player would: welcome and final
// report aside, each player gets at most 2.5 mails a turn on average and
// at most 120 KB a turn, no mail but the final report is over 500 KB (the demo's U.S. player gives each turn's decision
// in advance), and the umpire, whose daily digest is not due in the
// minutes the demo takes, nothing in between.
func TestDemo(t *testing.T) {
	const turns = 5
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"demo", "-turns", strconv.Itoa(turns), "-timeout", "5m", "-keep", dir}, &out, &errb); code != 0 {
		log, _ := os.ReadFile(filepath.Join(dir, "attu.log"))
		t.Fatalf("attu demo exited %d: %s\n%s\nlog:\n%s", code, errb.String(), out.String(), log)
	}
	if !strings.Contains(out.String(), "Audit of game demo: OK") {
		t.Errorf("no passing audit in the output:\n%s", out.String())
	}
	for user, report := range map[string]string{"alice": "report for the U.S. player", "bob": "report for the Japanese player", "carol": ""} {
		files, err := filepath.Glob(filepath.Join(dir, "mail", "*-to-"+user+".eml"))
		if err != nil {
			t.Fatal(err)
		}
		reports, final, n, size := 0, false, 0, 0
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			if len(b) > 500_000 && !strings.Contains(s, "Subject: [attu demo] the game is over") {
				t.Errorf("%s: %d KB, more than 500 KB", filepath.Base(f), len(b)/1000)
			}
			if report != "" && strings.Contains(s, report) && strings.Contains(s, "Subject: [attu demo] turn ") {
				reports++
			}
			if strings.Contains(s, "Subject: [attu demo] the game is over") {
				final = true
				continue
			}
			if !strings.Contains(s, "Subject: [attu demo] welcome") {
				n, size = n+1, size+len(b)
			}
		}
		if !final || report != "" && reports < turns {
			t.Errorf("%s received %d turn reports by mail (want at least %d) and final report %v", user, reports, turns, final)
		}
		t.Logf("%s: %d mails, %d KB, between the welcome and the final report", user, n, size/1000)
		if size > turns*120_000 {
			t.Errorf("%s received %d KB in %d turns, more than 120 KB a turn", user, size/1000, turns)
		}
		if user == "carol" && n > 0 {
			t.Errorf("the umpire received %d mails between the welcome and the final report, before a digest was due", n)
		}
		if float64(n)/turns > 2.5 {
			t.Errorf("%s received %d mails in %d turns: more than 2.5 a turn on average", user, n, turns)
		}
	}
	db := filepath.Join(dir, "attu.db")
	if _, err := os.Stat(db); err != nil || !strings.Contains(out.String(), db) {
		t.Errorf("the output does not say where the database %s is (%v)", db, err)
	}
}
