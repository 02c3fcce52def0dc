package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	islandwar "github.com/attu-pbem/attu/examples/island-war"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates/island"
)

// ownScenarioDir is a directory holding an operator's scenario:
// Ridge 42 copied as ridge-43, its first date changed.
func ownScenarioDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	own := bytes.Replace(islandwar.Ridge42, []byte("date: 12 Sep 42"), []byte("date: 11 Sep 42"), 1)
	if bytes.Equal(own, islandwar.Ridge42) {
		t.Fatal("the copy of Ridge 42 did not change")
	}
	if err := os.WriteFile(filepath.Join(dir, "ridge-43.yaml"), own, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A game of an operator's scenario is created by attu new -scenarios,
// played through the service, exported, and audited and replayed on a
// machine without the operator's directory: the export carries the file.
// A carried file changed since is refused by the audit, saying so.
func TestOwnScenarioExportAuditsAnywhere(t *testing.T) {
	dir := ownScenarioDir(t)
	dbPath := filepath.Join(t.TempDir(), "attu.db")
	if code, out, errs := runAttu("new", "-db", dbPath, "-system", "island-war", "-scenario", "ridge-43", "-id", "g1",
		"-address", "attu@example.org", "-us", "alice@example.org", "-jp", "bob@example.org"); code == 0 || !strings.Contains(out+errs, "ridge-43") {
		t.Fatalf("attu new of ridge-43 without -scenarios: exit %d, %s%s", code, out, errs)
	}
	if code, out, errs := runAttu("new", "-db", dbPath, "-scenarios", dir, "-system", "island-war", "-scenario", "ridge-43", "-id", "g1",
		"-address", "attu@example.org", "-us", "alice@example.org", "-jp", "bob@example.org"); code != 0 {
		t.Fatalf("attu new -scenarios: exit %d, %s%s", code, out, errs)
	}

	// Two steps through the service: both sides' set-ups.
	h, err := hostedSystems(dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := referee.New(db, h.hosting(referee.Config{Address: "attu@example.org", DB: dbPath}))
	c, err := svc.Create(referee.NewGame{System: island.Name, ID: "g2", Scenario: "ridge-43", US: "alice@example.org", JP: "bob@example.org"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	send := func(side adjudicator.Side, from, body string) {
		t.Helper()
		before, _ := db.Game("g2")
		m := &referee.Message{From: from, To: []string{"attu+g2@example.org"}, Subject: "orders", MessageID: "<" + string(side) + "@x>",
			Orders: []byte(strings.Replace(body, "token: x", "token: "+c.Tokens[side], 1))}
		if err := svc.Handle(m, time.Now()); err != nil {
			t.Fatal(err)
		}
		if after, _ := db.Game("g2"); after.Entries == before.Entries {
			t.Fatalf("the %s file was not applied", side)
		}
	}
	send(adjudicator.JP, "bob@example.org", "game: g2\nside: jp\nturn: 1\nwait: setup\ntoken: x\n"+
		`setup: {II/124: "0601", III/124: "0801", 3/Eng: "0802", Mor/124: "0803", M/28: "1103"}`+"\n")
	send(adjudicator.US, "alice@example.org", "game: g2\nside: us\nturn: 1\nwait: setup\ntoken: x\n"+
		`setup: {1/5: "0202", 2/5: "0203", 3/5: "0206", C/1Eng: "0207", A/1Amt: "0208"}`+"\n")
	db.Close()

	out := filepath.Join(t.TempDir(), "g2.json")
	if code, o, errs := runAttu("export", "-db", dbPath, "-o", out, "g2"); code == 0 || !strings.Contains(o+errs, "SHA-256") {
		t.Fatalf("attu export without the directory: exit %d, %s%s", code, o, errs)
	}
	if code, o, errs := runAttu("export", "-db", dbPath, "-scenarios", dir, "-o", out, "g2"); code != 0 {
		t.Fatalf("attu export -scenarios: exit %d, %s%s", code, o, errs)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var x store.Export
	if err := json.Unmarshal(raw, &x); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(x.ScenarioFile, "date: 11 Sep 42") {
		t.Fatalf("the export does not carry the operator's file (%d bytes carried)", len(x.ScenarioFile))
	}
	// Elsewhere: no directory at all.
	if code, o, errs := runAttu("audit", "-q", out); code != 0 || !strings.Contains(o, "Audit of game g2: OK") ||
		!strings.Contains(o, "scenario file carried: ridge-43, its SHA-256 the game's") {
		t.Fatalf("attu audit of the export without the directory: exit %d, %s%s", code, o, errs)
	}
	page := filepath.Join(t.TempDir(), "g2.html")
	if code, o, errs := runAttu("replay", "-o", page, out); code != 0 {
		t.Fatalf("attu replay of the export without the directory: exit %d, %s%s", code, o, errs)
	}

	// The carried file changed: refused, naming both hashes.
	x.ScenarioFile = strings.Replace(x.ScenarioFile, "date: 11 Sep 42", "date: 10 Sep 42", 1)
	b, err := x.JSON()
	if err != nil {
		t.Fatal(err)
	}
	bad := writeFile(t, "changed.json", string(b))
	if code, o, errs := runAttu("audit", bad); code == 0 || !strings.Contains(o+errs, "the file was changed") {
		t.Fatalf("attu audit of a changed carried file: exit %d, %s%s", code, o, errs)
	}
}

// A game of a shipped scenario carries no file: its export is as before.
func TestShippedScenarioExportCarriesNothing(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "attu.db")
	if code, out, errs := runAttu("new", "-db", dbPath, "-scenarios", ownScenarioDir(t), "-system", "island-war", "-id", "g1",
		"-address", "attu@example.org", "-us", "alice@example.org", "-jp", "bob@example.org"); code != 0 {
		t.Fatalf("attu new: exit %d, %s%s", code, out, errs)
	}
	code, out, errs := runAttu("export", "-db", dbPath, "-o", "-", "g1")
	if code != 0 || strings.Contains(out, "scenario_file") {
		t.Fatalf("attu export of a Ridge 42 game: exit %d, %s", code, errs)
	}
}

// A scenario file that does not check is refused with its path, line and
// column, and so is one named as a shipped scenario: attu new creates
// nothing and the daemon does not start.
func TestBadScenarioFileRefused(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(bad, []byte("name: Broken\nmap: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), "attu.db")
	code, out, errs := runAttu("new", "-db", dbPath, "-scenarios", dir, "-system", "island-war",
		"-address", "attu@example.org", "-us", "alice@example.org", "-jp", "bob@example.org")
	if code == 0 || !strings.Contains(out+errs, bad+":") || !strings.Contains(out+errs, "nothing was changed") {
		t.Fatalf("attu new with a broken scenario: exit %d, %s%s", code, out, errs)
	}
	if _, err := os.Stat(dbPath); err == nil {
		t.Fatal("attu new created the database although the scenarios were refused")
	}

	conf, err := os.ReadFile("../../examples/attu-serve.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ATTU_IMAP_PASSWORD", "imap-secret")
	t.Setenv("ATTU_SMTP_PASSWORD", "smtp-secret")
	cfgPath := writeFile(t, "attu.yaml", string(conf)+"scenarios: "+dir+"\n")
	code, out, errs = runAttu("serve", "-config", cfgPath)
	if code == 0 || !strings.Contains(out+errs, bad+":") {
		t.Fatalf("attu serve with a broken scenario: exit %d, %s%s", code, out, errs)
	}

	shipped := t.TempDir()
	if err := os.WriteFile(filepath.Join(shipped, "ridge-42.yaml"), islandwar.Ridge42, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runAttu("new", "-db", dbPath, "-scenarios", shipped, "-system", "island-war",
		"-address", "attu@example.org", "-us", "alice@example.org", "-jp", "bob@example.org")
	if code == 0 || !strings.Contains(out+errs, "is the name of a scenario attu ships") {
		t.Fatalf("a file named as a shipped scenario: exit %d, %s%s", code, out, errs)
	}
}
