package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A game made with attu new, watched with attu status, judged with attu
// check -db, steered with attu umpire and ended, whose export audits.
func TestNewStatusCheckUmpire(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "attu.db")
	code, out, errs := runAttu("new", "-db", db, "-address", "attu@example.org", "-id", "g7", "-name", "Attu 1943",
		"-us", "alice@example.org", "-jp", "bob@example.org", "-umpire", "carol@example.org", "-deadline-for", "us-decision=24h")
	if code != 0 {
		t.Fatalf("attu new: exit %d, %s", code, errs)
	}
	tokens := regexp.MustCompile(`(?m)^  (us|jp|umpire) +token (\S+)`).FindAllStringSubmatch(out, -1)
	if len(tokens) != 3 || !strings.Contains(out, "attu+g7@example.org") || !strings.Contains(out, "turn 1 us-decision from us") {
		t.Fatalf("attu new said:\n%s", out)
	}
	if code, _, errs := runAttu("new", "-db", db, "-address", "attu@example.org", "-us", "a@x.org"); code != 2 || !strings.Contains(errs, "both players") {
		t.Fatalf("attu new without the Japanese: exit %d, %s", code, errs)
	}
	if code, _, errs := runAttu("new", "-db", db, "-address", "attu@example.org", "-us", "a@x.org", "-jp", "b@x.org", "-rules", "vp-chits"); code != 1 || !strings.Contains(errs, "needs a game set up by the rules") {
		t.Fatalf("attu new with VP chits: exit %d, %s", code, errs)
	}

	code, out, errs = runAttu("new", "-db", db, "-address", "attu@example.org", "-id", "hog", "-scenario", "up-the-hogs-back",
		"-us", "alice@example.org", "-jp", "bob@example.org")
	if code != 0 || !strings.Contains(out, "turn 1 jp-setup from jp") {
		t.Fatalf("attu new -scenario: exit %d, %s %s", code, out, errs)
	}
	code, out, errs = runAttu("new", "-db", db, "-address", "attu@example.org", "-id", "vp", "-scenario", "campaign", "-jp-setup", "historic",
		"-rules", "vp-chits", "-us", "alice@example.org", "-jp", "bob@example.org")
	if code != 0 || !strings.Contains(out, "turn 1 us-landing from us") {
		t.Fatalf("attu new -rules vp-chits: exit %d, %s %s", code, out, errs)
	}

	code, out, _ = runAttu("status", "-db", db)
	if code != 0 || !regexp.MustCompile(`g7 +Attu 1943 +active +U.S. decision, turn 1 \(May 11\) +\S+ +0/0`).MatchString(out) {
		t.Fatalf("attu status: exit %d\n%s", code, out)
	}

	good := writeFile(t, "decision.yaml", "game: g7\nside: us\nturn: 1\nwait: us-decision\ntoken: x\ndecision: {refit: false, night: true}\n")
	if code, out, errs := runAttu("check", good, "-db", db); code != 0 || !strings.Contains(out, "the server would apply these orders") {
		t.Fatalf("attu check: exit %d, %s %s", code, out, errs)
	}
	stale := writeFile(t, "stale.yaml", "game: g7\nside: us\nturn: 1\nwait: actions\ntoken: x\nactions: []\n")
	if code, out, _ := runAttu("check", stale, "-db", db); code != 1 || !strings.Contains(out, stale+":1:1: the game waits for the U.S. decision of turn 1") {
		t.Fatalf("attu check of a stale file: exit %d, %s", code, out)
	}
	// Judging changes nothing, not even the file's bytes.
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runAttu("check", good, "-db", db); code != 0 {
		t.Fatalf("attu check again: exit %d", code)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Fatal("attu check changed the database file")
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	if code, _, errs := runAttu("check", good, "-db", missing); code != 2 || !strings.Contains(errs, "give the game database") {
		t.Fatalf("attu check of a missing database: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("attu check created %s (%v)", missing, err)
	}
	other := writeFile(t, "other.yaml", "game: g8\nside: us\nturn: 1\nwait: actions\ntoken: x\nactions: []\n")
	if code, _, errs := runAttu("check", other, "-db", db); code != 2 || !strings.Contains(errs, `game "g8"`) {
		t.Fatalf("attu check of another game: exit %d, %s", code, errs)
	}

	if code, out, errs := runAttu("umpire", "-db", db, "g7", "force"); code != 0 || !strings.Contains(out, "no refit, a day turn") {
		t.Fatalf("attu umpire force: exit %d, %s %s", code, out, errs)
	}
	if code, out, _ := runAttu("umpire", "-db", db, "g7", "pause"); code != 0 || !strings.Contains(out, "Paused") {
		t.Fatalf("attu umpire pause: exit %d, %s", code, out)
	}
	if code, _, errs := runAttu("umpire", "-db", db, "g7", "pause"); code != 1 || !strings.Contains(errs, "not running") {
		t.Fatalf("pausing twice: exit %d, %s", code, errs)
	}
	if code, _, errs := runAttu("umpire", "-db", db, "g7", "concede"); code != 1 || !strings.Contains(errs, "not an umpire's command") {
		t.Fatalf("a player's command: exit %d, %s", code, errs)
	}
	if _, out, _ := runAttu("status", "-db", db); !strings.Contains(out, "paused") {
		t.Fatalf("attu status after pause:\n%s", out)
	}
	if code, out, errs := runAttu("umpire", "-db", db, "g7", "end", "a", "draw"); code != 0 || !strings.Contains(out, "ended by the umpire: a draw") {
		t.Fatalf("attu umpire end: exit %d, %s %s", code, out, errs)
	}
	if code, out, _ := runAttu("umpire", "-db", db, "g7", "reveal"); code != 0 || !regexp.MustCompile(`Seed: [0-9a-f]{64}`).MatchString(out) {
		t.Fatalf("attu umpire reveal: exit %d, %s", code, out)
	}
	x := filepath.Join(dir, "g7.json")
	if code, _, errs := runAttu("export", "-db", db, "-o", x, "g7"); code != 0 {
		t.Fatalf("attu export: %s", errs)
	}
	if code, out, _ := runAttu("audit", x); code != 0 || !strings.Contains(out, "OK") {
		t.Fatalf("attu audit: exit %d\n%s", code, out)
	}
	for _, cmd := range []string{"new", "status", "umpire"} {
		if code, out, _ := runAttu(cmd, "-h"); code != 0 || !strings.Contains(out, "Example") {
			t.Fatalf("attu %s -h: exit %d\n%s", cmd, code, out)
		}
	}
}
