package referee

import (
	"errors"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/store"
)

// errUndo rolls back the transaction a benchmark ends the game in, so
// that every iteration ends the same running game.
var errUndo = errors.New("undone")

// tenTurnGame is a campaign game with a random deployment and random legal
// orders from both sides (autoplay) up to the U.S. decision of turn 11:
// the game a finished ten-turn game's last order comes from.
func tenTurnGame(b testing.TB) *game {
	b.Helper()
	rng := rand.New(rand.NewPCG(3, 3))
	pick := pickFrom(rng)
	seed := make([]byte, store.SeedSize)
	seed[0] = 3
	g := newGame(b, filepath.Join(b.TempDir(), "attu.db"), "g10", seed, func(s *wind.State) error {
		autoplay.Deploy(s, pick)
		return nil
	})
	for {
		s, err := windsys.State(g.db.Position(g.id))
		if err != nil {
			b.Fatal(err)
		}
		if s.Turn > 10 {
			return g
		}
		if !g.play(b, func(s *wind.State) wind.Orders { return autoplay.Orders(s, pick) }) {
			b.Fatalf("the game ended in turn %d; the benchmark needs one that reaches turn 11", s.Turn)
		}
	}
}

// BenchmarkFinish measures what the service does inside the transaction
// that ends a ten-turn game (finish): the end entry, the luck summary,
// the export and its JSON, the replay page and the three final reports
// with their attachments. The transaction is rolled back each time, so
// the benchmark leaves out the commit and the compression of the mails.
func BenchmarkFinish(b *testing.B) {
	g := tenTurnGame(b)
	svc := New(g.db, Config{System: windsys.Rules{}, Address: "attu@example.org"})
	end := func(keep bool) error {
		_, err := g.db.Transact(g.id, nil, func(t *store.Txn) error {
			rec, err := loadRecord(t.Game())
			if err != nil {
				return err
			}
			st, err := windsys.State(t.Position())
			if err != nil {
				return err
			}
			if err := svc.finish(t, rec, st, nil, "the umpire ends the game", nil, nil); err != nil {
				return err
			}
			if keep {
				return nil
			}
			return errUndo
		})
		return err
	}
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		if err := end(false); !errors.Is(err, errUndo) {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportCPU(b, cpu)
	// What was measured makes what the players get: the final report to
	// each, with the export and the replay page.
	if err := end(true); err != nil {
		b.Fatal(err)
	}
	out, err := g.db.Outbox(g.id)
	if err != nil {
		b.Fatal(err)
	}
	finals := 0
	for _, m := range out {
		names := map[string]bool{}
		for _, a := range m.Attachments {
			names[a.Name] = len(a.Data) > 0
		}
		if names["attu-g10.json.gz"] && names["attu-g10.html"] {
			finals++
		}
	}
	if finals != 2 {
		b.Fatalf("%d final reports with the export and the replay page, want one to each player", finals)
	}
}

// BenchmarkReplayPage measures the replay page of a ten-turn game from its
// export and its luck, as finish makes it (Replay, then
// windsys.ReplayPage): the largest part of finish.
func BenchmarkReplayPage(b *testing.B) {
	g := tenTurnGame(b)
	if err := endGame(g.db, g.id, "the umpire ends the game"); err != nil {
		b.Fatal(err)
	}
	x, err := g.db.Export(g.id, false)
	if err != nil {
		b.Fatal(err)
	}
	luck := x.Luck(windsys.Rules{})
	b.ReportMetric(float64(len(x.Log)), "entries")
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		r, err := Replay(windsys.Rules{}, x, luck)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := (windsys.Rules{}).ReplayPage(r); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// cpuTime is the CPU time the process has used, on every core: the work
// done, where the time per operation is how long it took.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since since.
func reportCPU(b *testing.B, since time.Duration) {
	b.ReportMetric(float64((cpuTime()-since).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
