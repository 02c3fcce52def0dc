package main

import (
	"bytes"
	"encoding/json"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"image/png"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/orders"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/store"
)

// playedGame stores a game deployed at random and played for a few steps,
// each side sending back the order template of its report with one of
// its ready-made lines uncommented, and returns the database's path.
func playedGame(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "attu.db")
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := rand.New(rand.NewSource(3))
	setup := func(s *wind.State) error { autoplay.Deploy(s, r.Intn); return nil }
	if _, err := db.Create(store.NewGame{Rules: windsys.Rules{}, ID: "g1", Scenario: "campaign", Start: windsys.StartPlaced(setup)}); err != nil {
		t.Fatal(err)
	}
	example := regexp.MustCompile(`(?m)^  #- (move|fire|melee): .*$`)
	for range 5 {
		s, err := windsys.State(db.Position("g1"))
		if err != nil {
			t.Fatal(err)
		}
		side := s.Wait().Side
		rep, err := storedReport(db, "g1", side, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, body, ok := rep.OrderTemplate()
		if !ok {
			t.Fatalf("no template for %s", side)
		}
		if lines := example.FindAllString(body, -1); len(lines) > 0 {
			l := lines[r.Intn(len(lines))]
			body = strings.Replace(body, l, strings.Replace(l, "  #- ", "  - ", 1), 1)
		}
		raw := orders.Redact([]byte(body))
		f, err := windorders.Parse(raw, windorders.Options{})
		if err != nil {
			t.Fatalf("the template does not parse: %v", err)
		}
		o := f.Orders()
		if _, err := applyStep(db, "g1", store.Step{Orders: &o, Raw: raw}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Transact("g1", nil, func(tx *store.Txn) error {
		tx.SetDeadline(time.Date(2026, 5, 4, 18, 0, 0, 0, time.UTC))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestShow(t *testing.T) {
	dbPath := playedGame(t)
	db, err := store.Open(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := db.Game("g1")
	s, _ := windsys.State(db.Position("g1"))
	db.Close()
	side := s.Wait().Side

	for _, sd := range []string{"us", "jp", "umpire"} {
		var stdout, stderr bytes.Buffer
		if st := run([]string{"show", "-db", dbPath, "-side", sd, "-tz", "Asia/Tokyo", "g1"}, &stdout, &stderr); st != 0 {
			t.Fatalf("show -side %s: %d %s", sd, st, stderr.String())
		}
		out := stdout.String()
		for _, want := range []string{"game g1", "Chain head: " + g.Head, "Dice commitment: " + g.Commitment,
			"Deadline: Mon 4 May 2026 18:00 UTC (Tue 5 May 03:00 JST in Asia/Tokyo)", "THE ISLAND"} {
			if !strings.Contains(out, want) {
				t.Errorf("show -side %s does not say %q", sd, want)
			}
		}
		if awaited := strings.Contains(out, "token: PASTE-YOUR-TOKEN-HERE"); awaited != (side.String() == sd) {
			t.Errorf("show -side %s: template %v, the game waits for %s", sd, awaited, side)
		}
		if sd == "us" {
			for _, u := range s.Units {
				if u.Side() == adjudicator.JP && u.OnMap() && u.FaceDown && regexp.MustCompile(`\b`+u.ID+`\b`).MatchString(out[strings.Index(out, "THE ISLAND"):]) {
					t.Errorf("the U.S. report names %s, which is face down", u.ID)
				}
			}
		}
	}

	pngFile := filepath.Join(t.TempDir(), "jp.png")
	var stdout, stderr bytes.Buffer
	if st := run([]string{"show", "-db", dbPath, "-side", "jp", "-json", "-png", pngFile, "g1"}, &stdout, &stderr); st != 0 {
		t.Fatalf("show -json: %d %s", st, stderr.String())
	}
	var doc struct {
		Format string `json:"format"`
		Side   string `json:"side"`
		Game   struct {
			ChainHead string `json:"chain_head"`
		} `json:"game"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || doc.Format != "attu-report/1" || doc.Side != "jp" || doc.Game.ChainHead != g.Head {
		t.Fatalf("show -json: %v %+v", err, doc)
	}
	b, err := os.ReadFile(pngFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("the picture does not decode: %v", err)
	}
}

func TestShowErrors(t *testing.T) {
	dbPath := playedGame(t)
	for _, c := range []struct {
		args []string
		code int
		say  string
	}{
		{[]string{"show", "-h"}, 0, "Examples:"},
		{[]string{"show", "-db", dbPath, "-side", "french", "g1"}, 2, "give us, jp or umpire"},
		{[]string{"show", "-db", dbPath, "-tz", "Mars/Olympus", "g1"}, 2, "not a time zone"},
		{[]string{"show", "-db", dbPath}, 2, "name one game"},
		{[]string{"show", "-db", dbPath, "nope"}, 1, "nope"},
		{[]string{"show", "-db", filepath.Join(t.TempDir(), "none.db"), "g1"}, 1, "-db FILE"},
	} {
		var stdout, stderr bytes.Buffer
		st := run(c.args, &stdout, &stderr)
		if st != c.code || !strings.Contains(stdout.String()+stderr.String(), c.say) {
			t.Errorf("%v: exit %d, said %q%q; want %d and %q", c.args, st, stdout.String(), stderr.String(), c.code, c.say)
		}
	}
}
