package tournament

import (
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/store"
)

const twoPlayers = `id: duel
name: The Duel
umpire: {name: Una, address: umpire@example.org, time-zone: Asia/Tokyo}
players:
  - {name: Alice, address: alice@example.org, time-zone: Europe/Paris}
  - {name: Bruno, address: bruno@example.org}
sides: both
rounds: [{scenario: up-the-hogs-back}]
digest: "07:00"
`

// digests returns the digests among ms.
func digests(ms []store.Mail) []store.Mail {
	var out []store.Mail
	for _, m := range ms {
		if strings.Contains(m.Subject, "digest") {
			out = append(out, m)
		}
	}
	return out
}

// The umpire's digest goes out once a day at the file's time in the
// umpire's zone, whatever the ticks and restarts; days the server was
// down are made up by one digest. It shows what each game waits for, from
// whom and until when, a takeback waiting for an answer, and the games
// ended since the last one; both sides of a pairing play it once with
// each side; the umpire's "end us" and "end" without a result score a win
// and a void game.
func TestDigestOncePerDay(t *testing.T) {
	w := newWorld(t, 1)
	f, err := Parse([]byte(twoPlayers), windsys.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := w.dir.New(w.svc, f, mailbox, w.clk.now())
	if err != nil {
		t.Fatal(err)
	}
	if g := tm.Rounds[0].Games; len(g) != 2 || g[0].US != "Alice" || g[1].US != "Bruno" {
		t.Fatalf("the games of a pairing played from both sides: %+v", g)
	}
	w.newMails()
	// 07:00 in Tokyo is 22:00 UTC.
	w.clk.t = time.Date(2026, 6, 1, 21, 59, 0, 0, time.UTC)
	if d := digests(w.tick()); len(d) != 0 {
		t.Fatalf("a digest before its time: %v", subjects(d))
	}
	// The Japanese player of the first game sets up, then asks to take
	// it back.
	g := "duel-r1-1"
	pick := func(n int) int { return rand.New(rand.NewPCG(1, 2)).IntN(n) }
	st := w.state(g)
	w.send(g, "bruno@example.org", "", orderFile(g, w.tokens[g+"/jp"], autoplay.Orders(st, pick)))
	w.command(g, adjudicator.JP, "bruno@example.org", "takeback")
	w.clk.t = w.clk.t.Add(time.Minute)
	d := digests(w.tick())
	if len(d) != 1 || d[0].To[0] != "umpire@example.org" {
		t.Fatalf("the first digest: %v", subjects(d))
	}
	mustContain(t, "the digest", d[0].Text,
		"duel-r1-1 (round 1): Alice (U.S.) v Bruno (Japanese)",
		"waits for: the U.S. landing",
		"from:      Alice, the U.S. player (alice@example.org)",
		"until:     Thu 4 Jun 2026 21:59 UTC (Fri 5 Jun 06:59 JST in Asia/Tokyo; Thu 4 Jun 23:59 CEST\n                 in Europe/Paris)",
		"duel-r1-2 (round 1): Bruno (U.S.) v Alice (Japanese)",
		"duel-r1-1: Bruno (Japanese) asks to take back the last step; Alice may agree until",
		"ENDED SINCE THE LAST DIGEST\n  none")
	if len(digests(w.tick())) != 0 {
		t.Fatal("a second digest the same day")
	}
	w.restart()
	w.clk.t = w.clk.t.Add(time.Hour)
	if len(digests(w.tick())) != 0 {
		t.Fatal("a second digest after a restart")
	}
	// The umpire ends the first game for the U.S., the second without a
	// result.
	w.command(g, adjudicator.Umpire, "umpire@example.org", "end us: the Japanese player left")
	out := w.command("duel-r1-2", adjudicator.Umpire, "umpire@example.org", "end the server lost the mail")
	var final []store.Mail
	for _, m := range out {
		if strings.Contains(m.Subject, "final standings") {
			final = append(final, m)
		}
	}
	if len(final) != 3 {
		t.Fatalf("final standings for %d readers: %v", len(final), subjects(out))
	}
	mustContain(t, "the final standings", final[1].Text,
		">      1  Alice       1    1      0     0       3    0     1      0     0",
		"round 1, duel-r1-1: Alice (U.S.) v Bruno (Japanese): Alice (U.S.) beat Bruno, by the umpire's\n      ruling",
		"round 1, duel-r1-2: Bruno (U.S.) v Alice (Japanese): void (ended by the umpire without a result)")
	// Three days down: one digest makes them up, with the games ended;
	// the tournament is over, so none follows.
	w.clk.t = w.clk.t.Add(72 * time.Hour)
	d = digests(w.tick())
	if len(d) != 1 {
		t.Fatalf("%d digests after three days", len(d))
	}
	mustContain(t, "the last digest", d[0].Text,
		"the tournament is over",
		"GAMES BEING PLAYED (0)",
		"Alice (U.S.) beat Bruno, by the umpire's ruling. Ended by the umpire: us: the Japanese player\n      left.")
	w.clk.t = w.clk.t.Add(48 * time.Hour)
	if d := digests(w.tick()); len(d) != 0 {
		t.Fatalf("a digest after the tournament: %v", subjects(d))
	}
	if _, err := w.dir.Next(w.svc, "duel", w.clk.now()); err == nil {
		t.Fatal("a second round of one")
	}
}
