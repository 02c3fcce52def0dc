package island

import (
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/chromedp/chromedp"
)

// playedExport is a Ridge 42 game played to its end through the game
// service by the stand-in's files, exported with its seed.
func playedExport(t *testing.T) *store.Export {
	t.Helper()
	m := newMailGame(t)
	m.toTheEnd()
	x, err := m.db.Export(m.id, true)
	if err != nil {
		t.Fatal(err)
	}
	if x.Seed == "" || len(x.Dice) == 0 {
		t.Fatalf("the export has seed %q and %d dice", x.Seed, len(x.Dice))
	}
	return x
}

// islandReplay is the replay page of x, as the game service mails it.
func islandReplay(t *testing.T, x *store.Export) []byte {
	t.Helper()
	r, err := referee.Replay(Rules{}, x, x.Luck(Rules{}))
	if err != nil {
		t.Fatal(err)
	}
	page, err := Rules{}.ReplayPage(r)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// openReplay loads a replay page and waits for its verdict line.
func (b *sheetBrowser) openReplay(t *testing.T, name string, page []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: path}).String()
	b.mu.Lock()
	b.requests, b.errors = nil, nil
	b.mu.Unlock()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(u)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`!!window.attuReplay && document.getElementById("verdict").dataset.state !== "pending"`,
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("the verdict: %v", err)
	}
	b.noErrors(t)
	b.mu.Lock()
	for _, r := range b.requests {
		if r != u {
			t.Errorf("the replay page asked for %s", r)
		}
	}
	b.mu.Unlock()
	return b.text(t, "#verdict")
}

// dieMarks is how the page marks each die it shows, by number: ok, bad
// or unchecked.
func (b *sheetBrowser) dieMarks(t *testing.T) map[string]string {
	t.Helper()
	var marks map[string]string
	b.eval(t, `Object.fromEntries(Array.from(document.querySelectorAll(".dice span[data-n]"), (s) =>
		[s.dataset.n, s.classList.contains("bad") ? "bad" : s.classList.contains("ok") ? "ok" : "unchecked"]))`, &marks)
	return marks
}

// An Island War game's replay page in a real browser: it re-derives every
// d6 from the revealed seed, checks the commitment and the chain, says so
// at the top and marks each die shown as verified; the page's derivation
// gives the store documentation's d6 test vector; a die whose face was
// changed in the export is named and marked as not the seed's, the others
// still verified; another game's seed fails the commitment, another head
// the chain; and an export without the seed checks no die.
func TestReplayPageInBrowser(t *testing.T) {
	b := newSheetBrowser(t, 1200, 900)
	x := playedExport(t)
	verdict := b.openReplay(t, "replay.html", islandReplay(t, x))
	want := fmt.Sprintf("✓ all %d dice verified", len(x.Dice))
	if !strings.HasPrefix(verdict, want) || !strings.Contains(verdict, x.Head[:16]) {
		t.Fatalf("the verdict reads %q, want %q… naming the head", verdict, want)
	}
	marks := b.dieMarks(t)
	t.Logf("%d log entries, %d dice: %s", len(x.Log), len(x.Dice), verdict)
	if len(marks) != len(x.Dice) {
		t.Errorf("the page shows %d dice, the game rolled %d", len(marks), len(x.Dice))
	}
	for _, d := range x.Dice {
		if d.Faces != 6 {
			t.Errorf("die %d has %d faces", d.Seq, d.Faces)
		}
		if m := marks[fmt.Sprint(d.Seq)]; m != "ok" {
			t.Errorf("die %d is marked %q", d.Seq, m)
		}
	}

	// The store documentation's d6 test vector (seed 00 01 ... 1f), and
	// store.Derive face and bytes up to die 49, the first d6 to reject a
	// byte.
	var faces []string
	for n := 1; n <= 49; n++ {
		got := b.await(t, fmt.Sprintf(`window.attuReplay.derive("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", %d, 6).then((d) => d.face + " " + d.raw.join(","))`, n))
		face, raw := store.Derive(vectorSeed(), uint64(n), 6)
		if want := fmt.Sprintf("%d %s", face, strings.Trim(strings.ReplaceAll(fmt.Sprint(raw), " ", ","), "[]")); got != want {
			t.Errorf("d6 %d: the page derives %q, store.Derive %q", n, got, want)
		}
		if n <= 10 {
			faces = append(faces, strings.Fields(got)[0])
		}
	}
	if got := strings.Join(faces, " "); got != "4 3 6 2 5 1 5 4 4 6" {
		t.Errorf("the page derives %s as d6s from the test seed, the store documentation says 4 3 6 2 5 1 5 4 4 6", got)
	}

	// One die's face changed in the export.
	bad := *x
	bad.Dice = slices.Clone(x.Dice)
	k := len(bad.Dice) / 2
	bad.Dice[k].Face = bad.Dice[k].Face%6 + 1
	verdict = b.openReplay(t, "tampered.html", islandReplay(t, &bad))
	r := bad.Dice[k]
	if want := fmt.Sprintf("✗ die %d (entry %d, %s d6): the log records %d, the seed gives %d", r.Seq, r.Entry, r.Purpose, r.Face, x.Dice[k].Face); verdict != want {
		t.Errorf("with die %d changed the verdict reads %q, want %q", r.Seq, verdict, want)
	}
	marks = b.dieMarks(t)
	for _, d := range bad.Dice {
		want := "ok"
		if d.Seq == r.Seq {
			want = "bad"
		}
		if m := marks[fmt.Sprint(d.Seq)]; m != want {
			t.Errorf("with die %d changed, die %d is marked %q, want %q", r.Seq, d.Seq, m, want)
		}
	}

	// The seed of another game: it does not hash to the commitment.
	bad = *x
	bad.Seed = hex.EncodeToString(vectorSeed())
	verdict = b.openReplay(t, "seed.html", islandReplay(t, &bad))
	if !strings.HasPrefix(verdict, "✗ the seed hashes to ") || !strings.Contains(verdict, "not to the commitment "+x.Commitment[:16]) {
		t.Errorf("with another seed the verdict reads %q", verdict)
	}

	// A head that is not the chain's: the log was cut or added to.
	bad = *x
	bad.Head = strings.Repeat("0", 64)
	verdict = b.openReplay(t, "head.html", islandReplay(t, &bad))
	if want := "✗ the chain ends at " + x.Head[:16] + "…, not at the head 0000000000000000…"; verdict != want {
		t.Errorf("with another head the verdict reads %q, want %q", verdict, want)
	}

	// No seed: nothing can be checked, and no die is marked verified.
	bad = *x
	bad.Seed = ""
	verdict = b.openReplay(t, "noseed.html", islandReplay(t, &bad))
	if !strings.HasPrefix(verdict, "✗ the seed is not in this file") {
		t.Errorf("without the seed the verdict reads %q", verdict)
	}
	for n, m := range b.dieMarks(t) {
		if m != "unchecked" {
			t.Errorf("without the seed die %s is marked %q", n, m)
		}
	}
}

// vectorSeed is the seed of the store documentation's test vectors: the
// bytes 0 to 31.
func vectorSeed() []byte {
	s := make([]byte, store.SeedSize)
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

// await evaluates js, a promise of a string, and returns the string.
func (b *sheetBrowser) await(t *testing.T, js string) string {
	t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return s
}
