package referee

import (
	"bytes"
	"errors"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/orders"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/store"
)

// BenchmarkStep measures one step of a campaign in turn 1 and in turn
// 20: the Japanese actions applied through the game service
// (Service.step: the entry, its dice and snapshot, the next deadline,
// both sides' reports). The game is played up to there by mail with
// random legal orders (autoplay), as the store's twenty-turn size test
// plays it; each measured step is rolled back, so every iteration
// applies the same orders to the same position. What a step costs should
// not grow with the game's log: turn 20 within 5 % of turn 1 in CPU.
func BenchmarkStep(b *testing.B) {
	for _, turn := range []int{1, 20} {
		b.Run(fmt.Sprintf("turn%d", turn), func(b *testing.B) {
			now := time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)
			db, err := store.Open(filepath.Join(b.TempDir(), "attu.db"), &store.Options{Now: func() time.Time { return now }})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			svc := New(db, Config{System: windsys.Rules{}, Address: "attu@example.org"})
			addr := map[adjudicator.Side]string{adjudicator.US: "us@example.org", adjudicator.JP: "jp@example.org"}
			c, err := svc.Create(NewGame{ID: "g1", Name: "Landcrab", Setup: "historic", US: addr[adjudicator.US], JP: addr[adjudicator.JP],
				Umpire: "umpire@example.org", Seed: bytes.Repeat([]byte{3}, store.SeedSize)}, now)
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 3))
			pick := func(n int) int { return rng.IntN(n) }
			var st *wind.State
			for n := 1; ; n++ {
				g, err := db.Game("g1")
				if err != nil {
					b.Fatal(err)
				}
				if g.Status != store.Active {
					b.Fatalf("the game ended in turn %d; the benchmark needs one that reaches turn %d", g.Wait.Turn, turn)
				}
				if st, err = windsys.State(db.Position("g1")); err != nil {
					b.Fatal(err)
				}
				if st.Turn >= turn && g.Wait.Kind == wind.WaitActions && g.Wait.Side == adjudicator.JP {
					break
				}
				side := g.Wait.Side
				file, err := windorders.Write("g1", c.Tokens[side], autoplay.Orders(st, pick))
				if err != nil {
					b.Fatal(err)
				}
				now = now.Add(time.Hour)
				if err := svc.Handle(&Message{From: addr[side], To: []string{"attu+g1@example.org"}, Subject: "orders",
					MessageID: fmt.Sprintf("<o%d@players.test>", n), Orders: file}, now); err != nil {
					b.Fatal(err)
				}
			}
			raw, err := windorders.Write("g1", orders.RedactedToken, autoplay.Orders(st, pick))
			if err != nil {
				b.Fatal(err)
			}
			f, err := windorders.Parse(raw, windorders.Options{})
			if err != nil {
				b.Fatal(err)
			}
			o := f.Orders()
			now = now.Add(time.Hour)
			step := func() error {
				_, err := db.Transact("g1", nil, func(t *store.Txn) error {
					rec, err := loadRecord(t.Game())
					if err != nil {
						return err
					}
					if err := svc.step(t, rec, store.Step{Orders: &o, Raw: raw, Received: now}, now, nil, nil); err != nil {
						return err
					}
					if err := rec.save(t); err != nil {
						return err
					}
					return errUndo
				})
				return err
			}
			b.ResetTimer()
			cpu := cpuTime()
			for b.Loop() {
				if err := step(); !errors.Is(err, errUndo) {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			reportCPU(b, cpu)
			g, err := db.Game("g1")
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(g.Entries), "entries")
		})
	}
}
