package referee

import (
	"encoding/json"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
)

// Tick reads the due index and gives a transaction only to games that
// may have something due: after the file is closed and opened
// again, every game whose deadline passed gets its default orders once,
// every game whose deadline is near gets its reminder once, and the
// others are left as they were, by this look and the next.
func TestTickFindsDueGamesAfterReopen(t *testing.T) {
	now := time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "attu.db")
	db, err := store.Open(path, &store.Options{NoSync: true, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := json.Marshal(&record{Name: "Landcrab", DigestAt: now})
	if err != nil {
		t.Fatal(err)
	}
	const n = 60
	kind := func(i int) string { return [...]string{"missed", "near", "far"}[i%3] }
	for i := range n {
		deadline := map[string]time.Time{"missed": now.Add(-time.Minute), "near": now.Add(time.Hour), "far": now.Add(14 * 24 * time.Hour)}[kind(i)]
		seed := make([]byte, store.SeedSize)
		seed[0] = byte(i)
		_, err := db.Create(store.NewGame{Rules: windsys.Rules{},
			ID: fmt.Sprintf("g%02d", i), Scenario: "campaign", Seed: seed, Start: windsys.StartPlaced(placeSome),
			Deadline: deadline, Due: dueAsCreated(deadline, now), Service: rec,
			Players: []store.NewPlayer{
				{Side: adjudicator.US, Address: "us@example.org", Token: "us-secret-token"},
				{Side: adjudicator.JP, Address: "jp@example.org", Token: "jp-secret-token"},
				{Side: adjudicator.Umpire, Address: "umpire@example.org", Token: "umpire-secret-token"},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(path, &store.Options{NoSync: true, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := New(db, Config{System: windsys.Rules{}, Address: "attu@example.org"})
	for look := 1; look <= 2; look++ {
		if err := svc.Tick(now); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			id := fmt.Sprintf("g%02d", i)
			log, err := db.Log(id, 1)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []store.Kind
			for _, e := range log {
				kinds = append(kinds, e.Kind)
			}
			mails, err := db.Outbox(id)
			if err != nil {
				t.Fatal(err)
			}
			reminders := 0
			for _, m := range mails {
				if strings.Contains(m.Subject, "reminder") {
					reminders++
				}
			}
			want := []store.Kind{store.KindCreate}
			wantReminders := 0
			switch kind(i) {
			case "missed":
				want = append(want, store.KindNote, store.KindOrders)
			case "near":
				wantReminders = 1
			}
			if fmt.Sprint(kinds) != fmt.Sprint(want) || reminders != wantReminders {
				t.Errorf("look %d, game %s (deadline %s): entries %v and %d reminders, want %v and %d",
					look, id, kind(i), kinds, reminders, want, wantReminders)
			}
		}
	}
}

// dueAsCreated is the due time (nextDue) of a game the service's Create
// made at now, waiting for a side with the deadline given.
func dueAsCreated(deadline, now time.Time) time.Time {
	g := &store.Game{Status: store.Active, Wait: adjudicator.Wait{Side: adjudicator.US, Kind: "us-decision", Turn: 1},
		Deadline: deadline, Created: now, Current: 1}
	return nextDue(g, &record{DigestAt: now})
}
