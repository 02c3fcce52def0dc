package tournament

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"regexp"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

var (
	committed = regexp.MustCompile(`SHA-256\s+is\s+([0-9a-f]{64})`)
	revealed  = regexp.MustCompile(`from the seed\s+([0-9a-f]{64}),`)
)

// checkDraw audits the draw of tournament tm, over as w played it, as
// anybody could from its mails alone: the commitment of the first
// tournament mail, the seed of the final standings, and each game's
// sides re-derived from the seed by the README's recipe. The seed is in
// no mail before the final standings.
func checkDraw(t *testing.T, w *world, tm *Tournament) {
	t.Helper()
	first, final := -1, -1
	for i, m := range w.mails {
		if m.Game == "" && first < 0 {
			first = i
		}
		if strings.Contains(m.Subject, "final standings") && final < 0 {
			final = i
		}
	}
	if first < 0 || final < 0 {
		t.Fatalf("no first tournament mail (%d) or no final standings (%d)", first, final)
	}
	c := committed.FindStringSubmatch(w.mails[first].Text)
	s := revealed.FindStringSubmatch(w.mails[final].Text)
	if c == nil || s == nil {
		t.Fatalf("the first tournament mail %q has no commitment, or the final standings no seed:\n%s\n%s",
			w.mails[first].Subject, w.mails[first].Text, w.mails[final].Text)
	}
	seed, err := hex.DecodeString(s[1])
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(seed); hex.EncodeToString(sum[:]) != c[1] {
		t.Fatalf("the seed revealed %s does not match the commitment %s", s[1], c[1])
	}
	for _, m := range w.mails[:final] {
		if strings.Contains(mailText(m), s[1]) {
			t.Fatalf("the seed is told before the end, in %q", m.Subject)
		}
	}
	games := 0
	for _, r := range tm.Rounds {
		for _, g := range r.Games {
			mac := hmac.New(sha256.New, seed)
			mac.Write(append([]byte("sides "+g.ID), 0, 0, 0, 0, 0, 0, 0, 0))
			us, jp := min(g.US, g.JP), max(g.US, g.JP)
			if binary.BigEndian.Uint64(mac.Sum(nil))%2 == 1 {
				us, jp = jp, us
			}
			if g.US != us || g.JP != jp {
				t.Errorf("%s: %s (U.S.) v %s, the seed draws %s (U.S.) v %s", g.ID, g.US, g.JP, us, jp)
			}
			games++
		}
	}
	t.Logf("%d draws checked against seed %s", games, s[1])
}

// The umpire begins the next round by mailing "next" with its token to
// any game of the tournament: the answer is the round's mail, and the
// next tick creates its games. A player's "next", one without the token,
// one past the last round and one to a game of no tournament are refused
// and change nothing.
func TestNextByMail(t *testing.T) {
	w := newWorld(t, 5)
	f, err := Parse([]byte(strings.Replace(threePlayers, "sides: both", "sides: drawn\nadvance: umpire", 1)), windsys.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.dir.New(w.svc, f, mailbox, w.clk.now()); err != nil {
		t.Fatal(err)
	}
	start := w.newMails()
	rm := only(t, start, "round 1 begins")
	if rm.To[0] != "umpire@example.org" || rm.Game != "" || !committed.MatchString(rm.Text) {
		t.Fatalf("the first round's mail, to %v, has no commitment:\n%s", rm.To, rm.Text)
	}
	r1 := w.tournament("trio").Rounds[0]
	game := r1.Games[0]
	p, _ := f.player(game.US)
	refused := func(out []store.Mail, why string, rounds int) {
		t.Helper()
		if len(out) != 1 || !strings.Contains(out[0].Text, "next was not carried out: "+why) {
			t.Fatalf("want one refusal %q, got %v", why, subjects(out))
		}
		if n := len(w.tournament("trio").Rounds); n != rounds {
			t.Fatalf("a refused next left %d rounds, want %d", n, rounds)
		}
	}
	refused(w.command(game.ID, adjudicator.US, p.Address, "next"), "only the umpire may next", 1)
	if out := w.send(game.ID, "umpire@example.org", "next\n", nil); len(out) != 1 || strings.Contains(out[0].Text, "ROUND 2") {
		t.Fatalf("a next without the token: %v", subjects(out))
	}
	if n := len(w.tournament("trio").Rounds); n != 1 {
		t.Fatalf("a next without the token began a round: %d rounds", n)
	}

	ask := fmt.Sprintf("<m%d@players.test>", w.n+1) // the next mail sent
	out := w.command(game.ID, adjudicator.Umpire, "umpire@example.org", "next")
	tm := w.tournament("trio")
	if len(out) != 1 || len(tm.Rounds) != 2 || out[0].To[0] != "umpire@example.org" || out[0].InReplyTo != ask {
		t.Fatalf("the umpire's next: %d rounds, answers %v", len(tm.Rounds), subjects(out))
	}
	want := []string{"round 2 of 2 begins at your word, while 1 game of round 1 is still\nbeing played", "ROUND 2: "}
	for _, g := range tm.Rounds[1].Games {
		if g.Created {
			t.Fatalf("%s was created inside the command's transaction", g.ID)
		}
		want = append(want, "  "+g.ID+": "+g.US+" (U.S.) v "+g.JP+" (Japanese)\n")
	}
	mustContain(t, "the answer to next", out[0].Text, want...)
	welcomes := 0
	for _, m := range w.tick() {
		if strings.Contains(m.MessageID, ".welcome-") {
			welcomes++
		}
	}
	if tm = w.tournament("trio"); !tm.Rounds[1].Games[0].Created || welcomes == 0 {
		t.Fatalf("round 2's games were not created at the next tick (%d welcome mails)", welcomes)
	}
	refused(w.command(game.ID, adjudicator.Umpire, "umpire@example.org", "next"), "every round of tournament The Trio has begun", 2)

	if _, err := w.svc.Create(referee.NewGame{ID: "solo", Scenario: "up-the-hogs-back", US: "us@example.org",
		JP: "jp@example.org", Umpire: "umpire@example.org"}, w.clk.now()); err != nil {
		t.Fatal(err)
	}
	w.newMails()
	out = w.command("solo", adjudicator.Umpire, "umpire@example.org", "next")
	if len(out) != 1 || !strings.Contains(out[0].Text, "next was not carried out: this game is not part of a tournament.") {
		t.Fatalf("next to a game of no tournament: %v", subjects(out))
	}
}
