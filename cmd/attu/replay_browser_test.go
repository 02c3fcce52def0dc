package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
)

// browserEnv names the Chromium the browser tests drive; scripts/chromium.sh
// installs it and prints its path.
const browserEnv = "ATTU_CHROMIUM"

// screenshotEnv, when set, names the directory where the browser test
// writes the screenshots of the opening step and of a melee step
// (templates/wind/testdata holds the committed ones).
const screenshotEnv = "ATTU_REPLAY_SCREENSHOTS"

// browser starts a headless Chromium for one test and records every
// request the page makes, and every console error, exception and browser
// log error.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	requests []string
	errors   []string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := os.Getenv(browserEnv)
	if path == "" {
		t.Skipf("this test needs a browser: run it with %s=$(scripts/chromium.sh) (the script installs Debian's chromium when it is missing); .ci/run does", browserEnv)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.Headless,
		chromedp.DisableGPU, chromedp.WindowSize(1400, 1000))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	b := &browser{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, ev.Request.URL)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				b.errors = append(b.errors, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			text := d.Text
			if d.Exception != nil {
				text += " " + d.Exception.Description
			}
			b.errors = append(b.errors, "exception: "+text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
				b.errors = append(b.errors, fmt.Sprintf("log %s: %s %s", ev.Entry.Level, ev.Entry.Text, ev.Entry.URL))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// open loads the page at path from a file URL and waits until the page
// has checked its dice; it returns the verification line and how long the
// page took to show its first step and to check everything.
func (b *browser) open(t *testing.T, path string) (verdict string, shown, checked time.Duration) {
	t.Helper()
	u := (&url.URL{Scheme: "file", Path: path}).String()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(u)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`!!window.attuReplay && document.getElementById("verdict").dataset.state !== "pending"`,
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("the page never finished its check: %v", err)
	}
	verdict = b.eval(t, `document.getElementById("verdict").textContent`)
	drawn := b.evalFloat(t, `window.attuReplay.shownAt`)
	done := b.evalFloat(t, `window.attuReplay.verifiedAt`)
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	return verdict, ms(drawn), ms(done)
}

func (b *browser) eval(t *testing.T, js string) string {
	t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return s
}

func (b *browser) evalFloat(t *testing.T, js string) float64 {
	t.Helper()
	f, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return f
}

func (b *browser) step(t *testing.T) int {
	return int(b.evalFloat(t, `window.attuReplay.step()`))
}

// check fails the test for any request that leaves the page's own file
// and for any error the browser reported.
func (b *browser) check(t *testing.T, page string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	self := (&url.URL{Scheme: "file", Path: page}).String()
	for _, r := range b.requests {
		if r != self && !strings.HasPrefix(r, "data:") {
			t.Errorf("the page asked for %s", r)
		}
	}
	if !slices.Contains(b.requests, self) {
		t.Errorf("the network log does not show the page itself (%s): %v", self, b.requests)
	}
	for _, e := range b.errors {
		t.Errorf("the browser reported %s", e)
	}
	b.requests, b.errors = nil, nil
}

// The replay page of a 20-turn game in a real browser, from a file URL:
// it checks every die, the commitment and the chain and says so at the
// top; the keyboard steps through the game to its end (and Home and End
// jump); nothing is requested beyond the file; the console stays clean;
// the page's own derivation gives the store documentation's test vector.
// A page made from an export with one die changed names that die. The
// page shows its first step within a second (its checks follow, reported
// in the log).
func TestReplayPageInBrowser(t *testing.T) {
	b := newBrowser(t)
	x, err := twentyTurnGame()
	if err != nil {
		t.Fatal(err)
	}
	path, page := replayPage(t, x)

	var shown, checked []time.Duration
	var verdict string
	// The fastest load is what the page costs; the others add what the
	// other programs on a shared machine take at the same time. So the
	// page is loaded five times, and up to ten while no load was quick.
	for i := 0; i < 5 || i < 10 && slices.Min(shown) >= time.Second; i++ {
		v, s, c := b.open(t, path)
		verdict, shown, checked = v, append(shown, s), append(checked, c)
	}
	slices.Sort(shown)
	slices.Sort(checked)
	t.Logf("the page of %d log entries and %d dice (%.2f MB): first step shown in %v, every die checked in %v (fastest of %d loads; medians %v, %v)",
		len(x.Log), len(x.Dice), float64(len(page))/(1<<20), shown[0], checked[0], len(shown), shown[len(shown)/2], checked[len(checked)/2])
	if shown[0] >= time.Second {
		t.Errorf("the page opens in %v (and is checked in %v): not under a second", shown[0], checked[0])
	}
	want := fmt.Sprintf("✓ all %s dice verified", thousands(len(x.Dice)))
	if !strings.HasPrefix(verdict, want) || !strings.Contains(verdict, x.Head[:16]) {
		t.Fatalf("the verification line reads %q, want %q… naming the head", verdict, want)
	}

	// The keyboard: the right arrow to the end, one step at a time.
	if s := b.step(t); s != 0 {
		t.Fatalf("the page opens at step %d", s)
	}
	steps := len(x.Log)
	for i := 1; i < steps+2; i++ {
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		if s, want := b.step(t), min(i, steps-1); s != want {
			t.Fatalf("after %d presses of the right arrow the page shows step %d, want %d", i, s, want)
		}
	}
	last := b.eval(t, `document.getElementById("events").textContent`)
	if !strings.Contains(last, "The game ended") {
		t.Errorf("the last step does not tell the end: %q", last)
	}
	for key, want := range map[string]int{kb.Home: 0, kb.End: steps - 1, kb.ArrowLeft: steps - 2} {
		if key == kb.ArrowLeft {
			chromedp.Do(b.ctx, chromedp.KeyEvent(kb.End))
		}
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatal(err)
		}
		if s := b.step(t); s != want {
			t.Errorf("key %q: step %d, want %d", key, s, want)
		}
	}

	// The derivation in the browser against the store documentation's
	// test vectors (seed 00 01 ... 1f, dice 1 to 10 as d10s and as d6s)
	// and against store.Derive, face and bytes, up to die 49, the first d6
	// to reject a byte.
	for _, v := range []struct {
		faces int
		doc   string
	}{{10, "6 9 10 8 9 3 1 5 10 4"}, {6, "4 3 6 2 5 1 5 4 4 6"}} {
		var faces []string
		for n := 1; n <= 49; n++ {
			got := b.eval(t, fmt.Sprintf(`window.attuReplay.derive("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", %d, %d).then((d) => d.face + " " + d.raw.join(","))`, n, v.faces))
			face, raw := store.Derive(testVectorSeed, uint64(n), v.faces)
			if want := fmt.Sprintf("%d %s", face, strings.Trim(strings.ReplaceAll(fmt.Sprint(raw), " ", ","), "[]")); got != want {
				t.Errorf("d%d %d: the page derives %q, store.Derive %q", v.faces, n, got, want)
			}
			if n <= 10 {
				faces = append(faces, strings.Fields(got)[0])
			}
		}
		if got := strings.Join(faces, " "); got != v.doc {
			t.Errorf("the page derives %s as d%ds from the test seed, the store documentation says %s", got, v.faces, v.doc)
		}
	}

	// The toggle: at the opening the U.S. sees the Japanese as anonymous
	// counters, the Japanese and the umpire see them by name.
	chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Home))
	hidden := map[string]float64{}
	for _, side := range []string{"2", "1", "0"} {
		hidden[side] = b.evalFloat(t, `document.querySelector('input[name=side][value="`+side+`"]').click(), document.querySelectorAll("#units rect.hidden").length`)
	}
	if hidden["0"] == 0 || hidden["1"] != 0 || hidden["2"] != 0 {
		t.Errorf("anonymous counters at the opening: U.S. %v, Japanese %v, umpire %v", hidden["0"], hidden["1"], hidden["2"])
	}

	if dir := os.Getenv(screenshotEnv); dir != "" {
		screenshots(t, b, x, dir)
	}
	b.check(t, path)

	// One die changed: a melee die halfway through the game.
	bad := *x
	bad.Dice = slices.Clone(x.Dice)
	k := len(bad.Dice) / 2
	for bad.Dice[k].Purpose != wind.DieMeleeAttack && bad.Dice[k].Purpose != wind.DieMeleeDefence {
		k++
	}
	bad.Dice[k].Face = bad.Dice[k].Face%10 + 1
	badPath, _ := replayPage(t, &bad)
	verdict, _, _ = b.open(t, badPath)
	r := bad.Dice[k]
	want = fmt.Sprintf("✗ die %d (entry %d, melee", r.Seq, r.Entry)
	if !strings.HasPrefix(verdict, want) || !strings.Contains(verdict, fmt.Sprintf("the log records %d, the seed gives %d", r.Face, x.Dice[k].Face)) {
		t.Errorf("with die %d changed the verification line reads %q", r.Seq, verdict)
	}
	b.check(t, badPath)

	// One die recorded as a d6, its face and bytes the d10's: the page
	// derives it as the record says, a d6, and finds the face wrong.
	seed, err := hex.DecodeString(x.Seed)
	if err != nil {
		t.Fatal(err)
	}
	bad = *x
	bad.Dice = slices.Clone(x.Dice)
	k = 0
	d6, _ := store.Derive(seed, bad.Dice[k].Seq, 6)
	for ; d6 == bad.Dice[k].Face; d6, _ = store.Derive(seed, bad.Dice[k].Seq, 6) {
		k++
	}
	bad.Dice[k].Faces = 6
	badPath, _ = replayPage(t, &bad)
	verdict, _, _ = b.open(t, badPath)
	r = bad.Dice[k]
	if want := fmt.Sprintf("the log records %d, the seed gives %d", r.Face, d6); !strings.HasPrefix(verdict, fmt.Sprintf("✗ die %d (", r.Seq)) || !strings.Contains(verdict, want) {
		t.Errorf("with die %d recorded as a d6 the verification line reads %q, want %q", r.Seq, verdict, want)
	}
	b.check(t, badPath)
}

// testVectorSeed is the seed of the store documentation's test vectors:
// the bytes 0 to 31.
var testVectorSeed = func() []byte {
	s := make([]byte, store.SeedSize)
	for i := range s {
		s[i] = byte(i)
	}
	return s
}()

// screenshots writes the opening step and the first step with a melee, as
// the U.S. saw them, to dir.
func screenshots(t *testing.T, b *browser, x *store.Export, dir string) {
	t.Helper()
	melee := -1
	for i, xe := range x.Log {
		if strings.Contains(string(xe.Entry), `"melee-begins"`) {
			melee = i
			break
		}
	}
	if melee < 0 {
		t.Fatal("the game has no melee")
	}
	for _, shot := range []struct {
		name string
		step int
	}{{"replay-opening.png", 0}, {"replay-melee.png", melee}} {
		js := fmt.Sprintf(`(() => { const s = document.getElementById("slider"); s.value = %d; s.dispatchEvent(new Event("input")); return "" })()`, shot.step)
		b.eval(t, js)
		png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, shot.name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// thousands writes n with commas, as the page does (2,431).
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
