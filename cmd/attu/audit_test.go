package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/orders"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/store"
)

// exportedGame writes a small ended game to a database in a temporary
// directory and returns the database's path.
func exportedGame(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "attu.db")
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Create(store.NewGame{Rules: windsys.Rules{}, ID: "g1", Scenario: "campaign", Start: windsys.StartPlaced(nil)}); err != nil {
		t.Fatal(err)
	}
	// A day turn's decision: weather and airpower are rolled inside it.
	raw := orders.Redact([]byte("game: g1\nside: us\nturn: 1\nwait: us-decision\ntoken: us-secret\ndecision: {refit: false, night: false}\n"))
	f, err := windorders.Parse(raw, windorders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := f.Orders()
	_, err = applyStep(db, "g1", store.Step{Orders: &o, Raw: raw})
	if err != nil {
		t.Fatal(err)
	}
	if err := endGame(db, "g1", "test over"); err != nil {
		t.Fatal(err)
	}
	if err := db.Check(windsys.Rules{}); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExportAuditCommands(t *testing.T) {
	dbPath := exportedGame(t)
	out := filepath.Join(t.TempDir(), "g1.json")
	var stdout, stderr bytes.Buffer
	if st := run([]string{"export", "-db", dbPath, "-o", out, "g1"}, &stdout, &stderr); st != 0 {
		t.Fatalf("export: %d %s", st, stderr.String())
	}
	if !strings.Contains(stdout.String(), "seed included") {
		t.Fatalf("export said %q", stdout.String())
	}
	stdout.Reset()
	if st := run([]string{"audit", out}, &stdout, &stderr); st != 0 {
		t.Fatalf("audit: %d %s%s", st, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "OK") || !strings.Contains(stdout.String(), "Dice luck") {
		t.Fatalf("audit said %q", stdout.String())
	}

	// One die changed: the audit fails and names its entry.
	b, _ := os.ReadFile(out)
	var x map[string]any
	json.Unmarshal(b, &x)
	dice := x["dice"].([]any)
	die := dice[len(dice)-1].(map[string]any) // the Japanese airpower die of entry 2
	die["face"] = float64(int(die["face"].(float64))%10 + 1)
	b, _ = json.Marshal(x)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, b, 0o600)
	stdout.Reset()
	if st := run([]string{"audit", "-q", bad}, &stdout, &stderr); st != 1 {
		t.Fatalf("audit of a tampered file: status %d", st)
	}
	if want := fmt.Sprintf("entry 2: die %d:", len(dice)); !strings.Contains(stdout.String(), want) {
		t.Fatalf("audit of a tampered file said %q", stdout.String())
	}
}

func TestExportAuditErrors(t *testing.T) {
	dbPath := exportedGame(t)
	for _, tc := range []struct {
		args   []string
		status int
		out    string
		err    string
	}{
		{args: []string{"export", "-h"}, out: "attu export -db attu.db g1"},
		{args: []string{"export", "-h"}, out: "replaces by REDACTED"},
		{args: []string{"audit", "-h"}, out: "attu audit g1.json"},
		{args: []string{"export", "-db", dbPath}, status: 2, err: "name one game"},
		{args: []string{"export", "-db", dbPath, "nope"}, status: 1, err: `no game "nope"`},
		{args: []string{"export", "-db", "/nonexistent/attu.db", "g1"}, status: 1, err: "-db FILE"},
		{args: []string{"audit"}, status: 2, err: "name one export file"},
		{args: []string{"audit", "/nonexistent.json"}, status: 1, err: "no such file"},
	} {
		var stdout, stderr bytes.Buffer
		name := strings.Join(tc.args, " ")
		if st := run(tc.args, &stdout, &stderr); st != tc.status {
			t.Errorf("%s: status %d, want %d (%s)", name, st, tc.status, stderr.String())
		}
		if !strings.Contains(stdout.String(), tc.out) {
			t.Errorf("%s: stdout lacks %q", name, tc.out)
		}
		if tc.err != "" && (!strings.Contains(stderr.String(), tc.err) || strings.Count(stderr.String(), "\n") != 1) {
			t.Errorf("%s: stderr %q, want one line with %q", name, stderr.String(), tc.err)
		}
	}
}

// applyStep applies a step to game id in a transaction of its own.
func applyStep(db *store.DB, id string, st store.Step) (*store.Outcome, error) {
	var o *store.Outcome
	_, err := db.Transact(id, st.Mail, func(t *store.Txn) (err error) {
		o, err = t.Apply(st, windsys.Rules{})
		return err
	})
	return o, err
}

// endGame ends game id with note in a transaction of its own.
func endGame(db *store.DB, id, note string) error {
	_, err := db.Transact(id, nil, func(t *store.Txn) error {
		_, err := t.End(note)
		return err
	})
	return err
}
