package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The demo plays a short game by mail from start to end: it exits 0, each
// player's mailbox got its reports and the final report, and the export
// of the game passes the audit. It is given minutes rather than the
// demo's default of 55 s: under the race detector on a busy machine a
// turn can take that long, and speed is not what this test checks.
func TestDemo(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"demo", "-turns", "2", "-timeout", "5m", "-keep", dir}, &out, &errb); code != 0 {
		log, _ := os.ReadFile(filepath.Join(dir, "attu.log"))
		t.Fatalf("attu demo exited %d: %s\n%s\nlog:\n%s", code, errb.String(), out.String(), log)
	}
	if !strings.Contains(out.String(), "Audit of game demo: OK") {
		t.Errorf("no passing audit in the output:\n%s", out.String())
	}
	for user, report := range map[string]string{"alice": "report for the U.S. player", "bob": "report for the Japanese player"} {
		files, err := filepath.Glob(filepath.Join(dir, "mail", "*-to-"+user+".eml"))
		if err != nil {
			t.Fatal(err)
		}
		reports, final := 0, false
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			if strings.Contains(s, report) && strings.Contains(s, "Subject: [attu demo] turn ") {
				reports++
			}
			if strings.Contains(s, "Subject: [attu demo] the game is over") {
				final = true
			}
		}
		if reports < 4 || !final {
			t.Errorf("%s received %d turn reports by mail (want at least 4) and final report %v", user, reports, final)
		}
	}
	db := filepath.Join(dir, "attu.db")
	if _, err := os.Stat(db); err != nil || !strings.Contains(out.String(), db) {
		t.Errorf("the output does not say where the database %s is (%v)", db, err)
	}
}
