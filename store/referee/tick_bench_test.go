package referee

import (
	"encoding/json"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"path/filepath"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
)

// BenchmarkTick measures one look at the deadlines (Service.Tick) over
// 1,000 and 5,000 running games of which none is due: every game waits
// for its players with a deadline a week away, its records as the game
// service's Create writes them (the welcome mails aside). What it costs should
// grow with the games that are due, not with all games.
func BenchmarkTick(b *testing.B) {
	now := time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("games%d", n), func(b *testing.B) {
			db, err := store.Open(filepath.Join(b.TempDir(), "attu.db"), &store.Options{NoSync: true, Now: func() time.Time { return now }})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			// The game service's own record of each game as Create writes
			// it: the umpire's digest counted from the creation.
			rec, err := json.Marshal(&record{Name: "Landcrab", DigestAt: now})
			if err != nil {
				b.Fatal(err)
			}
			for i := range n {
				seed := make([]byte, store.SeedSize)
				seed[0], seed[1] = byte(i), byte(i>>8)
				_, err := db.Create(store.NewGame{Rules: windsys.Rules{},
					ID: fmt.Sprintf("g%d", i), Scenario: "campaign", Seed: seed, Start: windsys.StartPlaced(placeSome),
					Deadline: now.Add(7 * 24 * time.Hour), Due: dueAsCreated(now.Add(7*24*time.Hour), now), Service: rec,
					Players: []store.NewPlayer{
						{Side: adjudicator.US, Address: "us@example.org", Token: "us-secret-token"},
						{Side: adjudicator.JP, Address: "jp@example.org", Token: "jp-secret-token"},
						{Side: adjudicator.Umpire, Address: "umpire@example.org", Token: "umpire-secret-token"},
					},
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			svc := New(db, Config{System: windsys.Rules{}, Address: "attu@example.org"})
			b.ResetTimer()
			cpu := cpuTime()
			for b.Loop() {
				if err := svc.Tick(now); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			reportCPU(b, cpu)
			out, err := db.Outbox("")
			if err != nil {
				b.Fatal(err)
			}
			if len(out) != 0 {
				b.Fatalf("%d mails queued by a look at deadlines none of which is due", len(out))
			}
		})
	}
}
