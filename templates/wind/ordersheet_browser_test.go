package wind

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"math/rand"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// sheetShotsEnv, when set, names the directory where the browser test
// writes the screenshots of a busy U.S. and Japanese actions sheet
// (testdata/ordersheet-actions-*.png are the committed ones).
const sheetShotsEnv = "ATTU_SHEET_SCREENSHOTS"

// sheetBrowser is a headless Chromium (ATTU_CHROMIUM, as the replay
// page's test in cmd/attu) recording every request a page makes and every
// error it reports.
type sheetBrowser struct {
	ctx      context.Context
	mu       sync.Mutex
	requests []string
	errors   []string
	pages    []string // the file URLs opened
	token    string   // the token typed into the page open
}

func newSheetBrowser(t *testing.T) *sheetBrowser {
	t.Helper()
	path := os.Getenv("ATTU_CHROMIUM")
	if path == "" {
		t.Skip("this test needs a browser: run it with ATTU_CHROMIUM=$(scripts/chromium.sh); .ci/run does")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.Headless,
		chromedp.DisableGPU, chromedp.WindowSize(1400, 1000))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 8*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	b := &sheetBrowser{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, ev.Request.URL)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				b.errors = append(b.errors, fmt.Sprintf("console.%s %v", ev.Type, ev.Args))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			if d.Exception != nil {
				b.errors = append(b.errors, "exception: "+d.Text+" "+d.Exception.Description)
			} else {
				b.errors = append(b.errors, "exception: "+d.Text)
			}
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

// open writes page to a file, loads it from its file URL and returns
// the file's path and how long the page took to draw itself.
func (b *sheetBrowser) open(t *testing.T, name string, page []byte) (string, time.Duration) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: path}).String()
	b.mu.Lock()
	b.pages = append(b.pages, u)
	b.token = ""
	b.mu.Unlock()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(u)); err != nil {
		t.Fatal(err)
	}
	// The page unpacks itself after it has loaded: wait until it is drawn.
	// A poll begun while the browser still swaps the document in finds
	// its context gone; it is tried again, within the same 10 s.
	until := time.Now().Add(10 * time.Second)
	for {
		ms, err := chromedp.Run(b.ctx, chromedp.Poll[float64](`window.attuSheet && window.attuSheet.shownAt`, chromedp.WithPollingTimeout(time.Until(until))))
		if err == nil {
			return path, time.Duration(ms * float64(time.Millisecond))
		}
		if !strings.Contains(err.Error(), "Cannot find context") || time.Now().After(until) {
			t.Fatalf("the sheet never drew itself: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (b *sheetBrowser) eval(t *testing.T, js string) string {
	t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return s
}

func (b *sheetBrowser) num(t *testing.T, js string) float64 {
	t.Helper()
	f, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return f
}

// click clicks the element sel with the mouse.
func (b *sheetBrowser) click(t *testing.T, sel string) {
	t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// count fails unless the page holds n elements sel: one for each choice
// the outlook lists.
func (b *sheetBrowser) count(t *testing.T, sel string, n int) {
	t.Helper()
	if got := int(b.num(t, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))); got != n {
		t.Fatalf("the sheet holds %d %s, the outlook lists %d", got, sel, n)
	}
}

// clickHex clicks hex h on the map with the mouse, where the page draws
// it.
func (b *sheetBrowser) clickHex(t *testing.T, h adjudicator.Hex) {
	t.Helper()
	b.eval(t, fmt.Sprintf(`document.getElementById("map").scrollIntoView(), window.attuSheet.reveal("%s"), ""`, h))
	x := b.num(t, fmt.Sprintf(`window.attuSheet.point("%s")[0]`, h))
	y := b.num(t, fmt.Sprintf(`window.attuSheet.point("%s")[1]`, h))
	if err := chromedp.Do(b.ctx, chromedp.MouseClickXY(x, y)); err != nil {
		t.Fatal(err)
	}
	if got := b.eval(t, `document.getElementById("where").textContent`); !strings.HasPrefix(got, h.String()) {
		t.Fatalf("clicked %s; the page says %q", h, got)
	}
}

// key presses key on the element sel, focused.
func (b *sheetBrowser) key(t *testing.T, sel, key string) {
	t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Focus(chromedp.CSS(sel))); err != nil {
		t.Fatalf("focus %s: %v", sel, err)
	}
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(key)); err != nil {
		t.Fatal(err)
	}
}

// file types token into the page (none: keeps the one typed) and returns
// the order file it downloads, parsed; it fails unless the file is
// accepted in st's position and carries the token, and unless the token
// is nowhere in the page itself: not in the field it was typed into, nor
// the file shown, nor a link.
func (b *sheetBrowser) file(t *testing.T, st step, token string) *windorders.File {
	t.Helper()
	if token != "" {
		if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("token"), token)); err != nil {
			t.Fatal(err)
		}
		b.token = token
	}
	body := string(b.download(t, sheetDataOfFile(t, b).File))
	f, err := windorders.Parse([]byte(body), windorders.Options{})
	if err != nil {
		t.Fatalf("the sheet's file does not parse: %v\n%s", err, body)
	}
	if ps := wind.CheckOrders(st.s, f.Orders()); len(ps) > 0 {
		t.Fatalf("the sheet's file is refused: %v\n%s", f.Problems(ps), body)
	}
	if _, _, ps := wind.Resolve(st.s, f.Orders(), testDice{rand.New(rand.NewSource(1))}); len(ps) > 0 {
		t.Fatalf("the sheet's file does not resolve: %v\n%s", ps, body)
	}
	if want := cmp.Or(b.token, TokenPlaceholder); f.Token != want {
		t.Fatalf("the file's token is %q, typed %q", f.Token, want)
	}
	if b.token != "" {
		// What a saved page would keep: the markup, and what the fields
		// and links hold.
		dom := b.eval(t, `[document.documentElement.outerHTML, document.getElementById("token").value, document.getElementById("yaml").value,
			...[...document.querySelectorAll("a")].map((a) => a.href)].join("\n")`)
		if strings.Contains(dom, b.token) {
			t.Fatalf("the page holds the token %q once the file is downloaded", b.token)
		}
	}
	return f
}

// download clicks the sheet's download link and returns the file the
// browser saves, named name.
func (b *sheetBrowser) download(t *testing.T, name string) []byte {
	t.Helper()
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(b.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatal(err)
	}
	b.click(t, "#download")
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil && len(data) > 0 {
			return data
		}
	}
	t.Fatalf("no %s downloaded", name)
	return nil
}

func sheetDataOfFile(t *testing.T, b *sheetBrowser) *sheetData {
	return &sheetData{File: b.eval(t, `JSON.parse(document.getElementById("data").textContent).file`)}
}

// check fails the test for any request but the files of the sheets
// opened and for any error the browser reported.
func (b *sheetBrowser) check(t *testing.T, path string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	self := (&url.URL{Scheme: "file", Path: path}).String()
	for _, r := range b.requests {
		if !slices.Contains(b.pages, r) {
			t.Errorf("the sheet asked for %.80s", r)
		}
	}
	if !slices.Contains(b.requests, self) {
		t.Errorf("the network log does not show the sheet itself: %v", b.requests)
	}
	for _, e := range b.errors {
		t.Errorf("the browser reported %s", e)
	}
	b.requests, b.errors, b.pages = nil, nil, nil
}

// findSheet returns the first step of generated games (setup games with
// setup) where side is awaited for orders of kind and pred accepts its
// report.
func findSheet(t *testing.T, setup bool, kind adjudicator.WaitKind, pred func(*Report) bool) (step, *Report) {
	t.Helper()
	var found *step
	var rep *Report
	for seed := int64(1); seed <= 120 && found == nil; seed++ {
		play := playGames
		if setup {
			play = playSetupGames
		}
		play(t, []int64{seed}, 40, func(st step) bool {
			if waitKind(st.s) != kind {
				return true
			}
			r := reportOf(t, st, awaitedSide(st.s))
			if pred(r) {
				found, rep = &st, r
				return false
			}
			return true
		})
	}
	if found == nil {
		t.Fatalf("no generated game reaches a %s sheet as wanted", kind)
	}
	return *found, rep
}

func sheetOf(t *testing.T, r *Report) (string, []byte) {
	t.Helper()
	name, page, ok := r.OrderSheet("attu+g1@example.org")
	if !ok {
		t.Fatal("no order sheet")
	}
	return name, page
}

// An order sheet of each wait kind in a real browser, from a file URL:
// the test clicks through its choices as a player would (a move along a
// listed path, a melee, a fire with a spotter, the keyboard for a move
// and its removal, a decision, refit items, a setup placement, a landing)
// and the file it writes parses, is accepted and resolves in the position
// the sheet was made from, holding the orders clicked and the token
// typed. The page offers as many choices as the outlook lists: for every
// unit of the actions sheets its moves, melee and fire targets; each
// refit item; each unit to set up and value chit; each zone each unit
// may land at. Each form's file, loaded into a fresh sheet, gives the
// same file again. Five units or more ordered to one hex are stopped at
// its stacking limit, as the engine would, and the page's stacking
// verdicts are the engine's on random stacks; a file loaded shows its
// orders on the map and names the lines it could not read; a hex both a
// melee and a fire target asks which; a refit pick ticks its row; the hex
// ids are legible at the first zoom on a laptop and a phone. Nothing is
// requested beyond the file; the console stays clean; the sheet draws
// itself within half a second.
func TestOrderSheetInBrowser(t *testing.T) {
	b := newSheetBrowser(t)
	t.Run("us-actions", func(t *testing.T) { actionsInBrowser(t, b, adjudicator.US) })
	t.Run("jp-actions", func(t *testing.T) { actionsInBrowser(t, b, adjudicator.JP) })
	t.Run("us-decision", func(t *testing.T) {
		st, r := findSheet(t, false, wind.WaitUSDecision, func(*Report) bool { return true })
		name, page := sheetOf(t, r)
		path, _ := b.open(t, name, page)
		b.click(t, `input[name=night][value=yes]`)
		f := b.file(t, st, "tok-decision")
		if f.Decision == nil || !f.Decision.Night || f.Decision.Refit {
			t.Errorf("the decision reads %+v", f.Decision)
		}
		b.click(t, `input[name=refit][value=yes]`)
		if f := b.file(t, st, ""); !f.Decision.Refit || f.Decision.Night || f.Standing != nil {
			t.Errorf("a refit turn reads %+v, standing %+v", f.Decision, f.Standing)
		}
		// Each later turn's decision given in advance: the file carries
		// it as the one standing instruction changed.
		b.eval(t, `(() => { const s = document.getElementById("decision"); s.value = "day"; s.dispatchEvent(new Event("change")); return ""; })()`)
		if f := b.file(t, st, ""); f.Standing == nil || f.Standing.Decision != wind.DecisionDay || f.Standing.Retreat != "" {
			t.Errorf("the decision in advance reads standing %+v", f.Standing)
		}
		b.check(t, path)
		b.check(t, b.reload(t, st, name, page))
	})
	t.Run("us-refit", func(t *testing.T) {
		st, r := findSheet(t, false, wind.WaitUSRefit, func(r *Report) bool {
			return len(r.Outlook.Refit.Restore) > 0 && len(r.Outlook.Refit.Land) > 0
		})
		name, page := sheetOf(t, r)
		path, _ := b.open(t, name, page)
		o := r.Outlook.Refit
		b.count(t, `input[data-item]`, len(o.Restore)+len(o.Land)+len(o.Independents)+len(o.Depots))
		// The room each row's hex has, as the page counts it, is what
		// the engine lets the unit take (rule 9.1).
		for i, x := range o.Restore {
			u, _ := st.s.Unit(x.Unit)
			fit := 0
			for fit < x.MaxSteps-x.Steps && st.s.StackingProblemWith(x.Hex, u, u.Steps+fit+1) == "" {
				fit++
			}
			room := int(b.num(t, fmt.Sprintf(`+document.querySelectorAll("table.form")[0].rows[%d].cells[4].textContent`, i+1)))
			if min(room, x.MaxSteps-x.Steps) != fit {
				t.Errorf("%s in %s: the page has room for %d steps, the engine restores %d of %d missing", x.Unit, x.Hex, room, fit, x.MaxSteps-x.Steps)
			}
		}
		b.click(t, fmt.Sprintf(`input[data-item="%s"]`, o.Restore[0].Unit))
		b.click(t, fmt.Sprintf(`input[data-item="%s"]`, o.Land[0].Unit))
		f := b.file(t, st, "tok-refit")
		if f.Refit == nil || len(f.Refit.Restore) != 1 || f.Refit.Restore[0].Unit != o.Restore[0].Unit || len(f.Refit.Land) != 1 {
			t.Errorf("the refit reads %+v", f.Refit)
		}
		b.check(t, path)
		b.check(t, b.reload(t, st, name, page))
	})
	t.Run("jp-refit", func(t *testing.T) {
		st, r := findSheet(t, false, wind.WaitJPRefit, func(r *Report) bool {
			return len(r.Outlook.Refit.Hide) > 0 || len(r.Outlook.Refit.Moves) > 0
		})
		name, page := sheetOf(t, r)
		path, _ := b.open(t, name, page)
		o := r.Outlook.Refit
		b.count(t, `input[data-item]`, len(o.Hide)+len(o.Moves)+len(o.Swaps))
		if len(o.Hide) > 0 {
			b.click(t, fmt.Sprintf(`input[data-item="%s"]`, o.Hide[0]))
		} else {
			b.click(t, fmt.Sprintf(`input[data-item="%s"]`, o.Moves[0].Unit))
		}
		f := b.file(t, st, "tok-jp-refit")
		if a := f.Rearrange; a == nil || len(o.Hide) > 0 && !slices.Equal(a.Hide, o.Hide[:1]) ||
			len(o.Hide) == 0 && (len(a.Moves) != 1 || a.Moves[0] != wind.UnknownMove{Unit: o.Moves[0].Unit, To: o.Moves[0].Nearest}) {
			t.Errorf("the Japanese refit reads %+v", f.Rearrange)
		}
		b.check(t, path)
	})
	t.Run("jp-setup", func(t *testing.T) { setupInBrowser(t, b) })
	t.Run("us-landing", func(t *testing.T) { landingInBrowser(t, b) })
	t.Run("stacking", func(t *testing.T) {
		st, body, over := stackingInBrowser(t, b)
		t.Run("load", func(t *testing.T) { loadInBrowser(t, b, st, body, over) })
	})
	t.Run("stacking-verdicts", func(t *testing.T) {
		stackVerdictsInBrowser(t, b, adjudicator.US)
		stackVerdictsInBrowser(t, b, adjudicator.JP)
	})
	t.Run("melee-or-fire", func(t *testing.T) { askInBrowser(t, b) })
	t.Run("refit-pick", func(t *testing.T) { refitPickInBrowser(t, b) })
	t.Run("legible", func(t *testing.T) { legibleInBrowser(t, b) })
	t.Run("policy", func(t *testing.T) { policyInBrowser(t, b) })
}

// policyInBrowser shows that the browser holds the sheet to its policy:
// with the hash of its style sheet or of its script changed in the
// policy, the unpacked style sheet or script is refused, and as mailed
// both are applied.
func policyInBrowser(t *testing.T, b *sheetBrowser) {
	_, r := findSheet(t, false, wind.WaitUSDecision, func(*Report) bool { return true })
	name, page := sheetOf(t, r)
	m := policyMeta.FindSubmatch(page)
	policy := html.UnescapeString(string(m[1]))
	bogus := "'sha256-" + strings.Repeat("A", 43) + "='"
	tamper := func(directive string, nth int) []byte {
		var out []string
		for _, d := range strings.Split(policy, "; ") {
			if f := strings.Fields(d); f[0] == directive {
				f[1+nth] = bogus
				d = strings.Join(f, " ")
			}
			out = append(out, d)
		}
		return []byte(strings.Replace(string(page), string(m[1]), html.EscapeString(strings.Join(out, "; ")), 1))
	}
	b.open(t, name, page)
	if got := b.eval(t, `String(document.querySelector("style").sheet !== null && getComputedStyle(document.body).margin)`); got == "false" {
		t.Fatal("the sheet as mailed has no style sheet")
	}
	path := filepath.Join(t.TempDir(), name)
	load := func(page []byte) {
		if err := os.WriteFile(path, page, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(b.ctx, chromedp.Navigate((&url.URL{Scheme: "file", Path: path}).String())); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	load(tamper("style-src", 0))
	if got := b.eval(t, `String(document.querySelector("style") && document.querySelector("style").sheet)`); got != "null" {
		t.Errorf("with another style-src hash the style sheet is %s, want it refused", got)
	}
	load(tamper("script-src", 1))
	if got := b.eval(t, `String(typeof window.attuSheet)`); got != "undefined" {
		t.Errorf("with another hash for the sheet's script, it ran (%s)", got)
	}
	b.mu.Lock()
	refused := strings.Join(b.errors, "\n")
	b.errors = nil
	b.mu.Unlock()
	if !strings.Contains(refused, "Content Security Policy") {
		t.Errorf("the browser did not report the refusals: %s", refused)
	}
}

// actionsInBrowser plays a busy actions sheet of side: one with a melee
// and a fire that needs a spotter on offer.
func actionsInBrowser(t *testing.T, b *sheetBrowser, side adjudicator.Side) {
	var melee, fire *wind.UnitOptions
	var fo wind.FireOption
	st, r := findSheet(t, false, wind.WaitActions, func(r *Report) bool {
		melee, fire = nil, nil
		if r.View.Side != side || len(r.Outlook.Options) < 12 {
			return false
		}
		for i, uo := range r.Outlook.Options {
			if len(uo.Melee) > 0 && melee == nil {
				melee = &r.Outlook.Options[i]
			}
			for _, f := range uo.Fire {
				if len(f.Spotters) > 0 && !f.Sees && fire == nil && (melee == nil || melee.Unit != uo.Unit) {
					fire, fo = &r.Outlook.Options[i], f
				}
			}
		}
		return melee != nil && (fire != nil || side == adjudicator.JP)
	})
	name, page := sheetOf(t, r)
	var draws []time.Duration
	var path string
	for range 5 {
		p, d := b.open(t, name, page)
		path, draws = p, append(draws, d)
	}
	slices.Sort(draws)
	t.Logf("%s: %d bytes, %d units; first drawn in %v (fastest of %d loads, median %v)", name, len(page), len(r.Outlook.Options), draws[0], len(draws), draws[len(draws)/2])
	if draws[0] > 500*time.Millisecond {
		t.Errorf("the sheet draws itself in %v, more than half a second", draws[0])
	}
	// Every unit's choices, as the outlook lists them.
	for _, uo := range r.Outlook.Options {
		b.click(t, fmt.Sprintf(`button[data-unit="%s"]`, uo.Unit))
		got := b.eval(t, `[...document.querySelectorAll("[data-move]")].length + " " + document.querySelectorAll("[data-melee]").length + " " + document.querySelectorAll("[data-fire]").length`)
		if want := fmt.Sprintf("%d %d %d", len(uo.Moves), len(uo.Melee), len(uo.Fire)); got != want {
			t.Fatalf("%s: the sheet offers %s moves, melee and fire targets, the outlook %s", uo.Unit, got, want)
		}
		b.click(t, fmt.Sprintf(`button[data-unit="%s"]`, uo.Unit)) // unpick
	}
	// A move along a listed path, clicked on the map: the farthest move
	// of a unit that neither melees nor fires below.
	var mover *wind.UnitOptions
	for i, uo := range r.Outlook.Options {
		if len(uo.Moves) > 0 && uo.Unit != melee.Unit && (fire == nil || uo.Unit != fire.Unit) && (mover == nil || len(uo.Moves) > len(mover.Moves)) {
			mover = &r.Outlook.Options[i]
		}
	}
	mv := mover.Moves[0]
	for _, m := range mover.Moves {
		if len(m.Path) > len(mv.Path) {
			mv = m
		}
	}
	b.click(t, fmt.Sprintf(`button[data-unit="%s"]`, mover.Unit))
	b.clickHex(t, mv.To)
	// The keyboard: pick the melee unit, then its target, with Enter.
	b.key(t, fmt.Sprintf(`button[data-unit="%s"]`, melee.Unit), kb.Enter)
	b.key(t, fmt.Sprintf(`button[data-melee="%s"]`, melee.Melee[0]), kb.Enter)
	if fire != nil {
		b.click(t, fmt.Sprintf(`button[data-unit="%s"]`, fire.Unit))
		b.click(t, fmt.Sprintf(`button[data-fire="%s"]`, fo.Target))
	}
	if dir := os.Getenv(sheetShotsEnv); dir != "" {
		b.click(t, fmt.Sprintf(`button[data-unit="%s"]`, mover.Unit))
		shot, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "ordersheet-actions-"+side.String()+".png"), shot, 0o644)
	}
	f := b.file(t, st, "tok-"+side.String())
	want := []string{fmt.Sprintf("move %s %v", mover.Unit, mv.Path), fmt.Sprintf("melee [%s] %s", melee.Unit, melee.Melee[0])}
	if fire != nil {
		want = append(want, fmt.Sprintf("fire [%s] %s %s", fire.Unit, fo.Target, fo.Spotters[0]))
	}
	if got := actionWords(f); !slices.Equal(got, want) {
		t.Fatalf("the file holds %q, want %q", got, want)
	}
	// The keyboard again: the move to the bottom, then removed; the
	// "+" key zooms the map in.
	for i := range len(want) - 1 {
		b.key(t, fmt.Sprintf(`button[data-down="%d"]`, i), kb.Enter)
	}
	if got := actionWords(b.file(t, st, "")); got[len(got)-1] != want[0] {
		t.Fatalf("after moving the first activation down: %q", got)
	}
	b.key(t, fmt.Sprintf(`button[data-remove="%d"]`, len(want)-1), " ")
	if got := actionWords(b.file(t, st, "")); !slices.Equal(got, want[1:]) {
		t.Fatalf("after removing the move: %q, want %q", got, want[1:])
	}
	w0 := b.num(t, `document.getElementById("map").getBoundingClientRect().width`)
	b.key(t, `#zoomin`, "+")
	if w1 := b.num(t, `document.getElementById("map").getBoundingClientRect().width`); w1 <= w0 {
		t.Errorf("the + key leaves the map %v wide (was %v)", w1, w0)
	}
	b.check(t, path)
}

// actionWords words a file's activations for comparison.
func actionWords(f *windorders.File) []string {
	var out []string
	for _, a := range f.Orders().Actions {
		switch {
		case a.Move != nil:
			out = append(out, fmt.Sprintf("move %s %v", a.Move.Unit, a.Move.Path))
		case a.Melee != nil:
			out = append(out, fmt.Sprintf("melee %v %s", a.Melee.Units, a.Melee.Target))
		case a.Fire != nil:
			out = append(out, fmt.Sprintf("fire %v %s %s", a.Fire.Units, a.Fire.Target, a.Fire.Spotter))
		}
	}
	return out
}

// setupInBrowser moves a 20mm gun of the free Japanese setup to another
// hex of its group, picked on the map.
func setupInBrowser(t *testing.T, b *sheetBrowser) {
	st, r := findSheet(t, true, wind.WaitJPSetup, func(r *Report) bool { return len(r.Outlook.Setup.Place) > 0 })
	name, page := sheetOf(t, r)
	path, _ := b.open(t, name, page)
	var guns wind.PlaceOption
	for _, g := range r.Outlook.Setup.Place {
		if g.Class == "jp-20mm" {
			guns = g
		}
	}
	used := map[adjudicator.Hex]bool{}
	for _, p := range r.Outlook.Setup.JPSetup.Place {
		used[p.Hex] = true
	}
	to := guns.Hexes[len(guns.Hexes)-1]
	for _, h := range guns.Hexes {
		if !used[h] {
			to = h
		}
	}
	b.count(t, `button[data-pick]`, len(r.Outlook.Setup.JPSetup.Place))
	b.count(t, `select[aria-label^="value chit"]`, len(r.Outlook.Setup.VPHexes))
	unit := guns.Units[0]
	b.click(t, fmt.Sprintf(`button[data-pick="%s"]`, unit))
	b.clickHex(t, to)
	f := b.file(t, st, "tok-setup")
	placed := false
	for _, p := range f.Orders().JPSetup.Place {
		placed = placed || p.Unit == unit && p.Hex == to
	}
	if !placed {
		t.Errorf("%s is not placed in %s: %+v", unit, to, f.Orders().JPSetup)
	}
	b.check(t, path)
	b.check(t, b.reload(t, st, name, page))
}

// landingInBrowser sends a unit the free landing leaves in the box to a
// zone clicked on the map.
func landingInBrowser(t *testing.T, b *sheetBrowser) {
	st, r := findSheet(t, true, wind.WaitUSLanding, func(r *Report) bool {
		return !r.Outlook.Setup.AllLand && len(r.Outlook.Setup.Land) > len(r.Outlook.Setup.Landing.Land)
	})
	name, page := sheetOf(t, r)
	path, _ := b.open(t, name, page)
	sent := map[string]bool{}
	for _, l := range r.Outlook.Setup.Landing.Land {
		sent[l.Unit] = true
	}
	var lo wind.LandOption
	for _, x := range r.Outlook.Setup.Land {
		if !sent[x.Unit] && len(x.Zones) > 1 {
			lo = x
		}
	}
	zones := 0
	for _, x := range r.Outlook.Setup.Land {
		zones += len(x.Zones)
	}
	b.count(t, `select[aria-label^="zone for"] option`, zones)
	zone := lo.Zones[len(lo.Zones)-1]
	z, _ := r.gameMap().LandingZone(zone)
	b.click(t, fmt.Sprintf(`select[aria-label="zone for %s"]`, lo.Unit))
	b.clickHex(t, z.Hex)
	f := b.file(t, st, "tok-landing")
	landed := false
	for _, l := range f.Orders().Landing.Land {
		landed = landed || l.Unit == lo.Unit && l.Zone == zone
	}
	if !landed {
		t.Errorf("%s is not sent to %s: %+v", lo.Unit, zone, f.Orders().Landing)
	}
	b.check(t, path)
	b.check(t, b.reload(t, st, name, page))
}

// moversTo returns, for the first hex (in hex order) that five or more of
// r's units may move to, that hex and those units, when all of them there
// would break the stacking limits in the engine's judgement.
func moversTo(st step, r *Report) (adjudicator.Hex, []wind.UnitOptions) {
	by := map[adjudicator.Hex][]wind.UnitOptions{}
	for _, uo := range r.Outlook.Options {
		for _, mv := range uo.Moves {
			by[mv.To] = append(by[mv.To], uo)
		}
	}
	hexes := make([]adjudicator.Hex, 0, len(by))
	for h := range by {
		hexes = append(hexes, h)
	}
	slices.Sort(hexes)
	for _, h := range hexes {
		if len(by[h]) < 5 {
			continue
		}
		s := st.s.Clone()
		for _, uo := range by[h] {
			u, _ := s.Unit(uo.Unit)
			u.Hex = h
		}
		if s.StackingProblem(h, r.View.Side) != "" {
			return h, by[h]
		}
	}
	return 0, nil
}

// stackingInBrowser orders every unit that may move to one hex there, five
// or more, more than the hex may hold: the page stops each move that would
// over-stack a hex it enters, with the count, exactly when the engine
// would refuse it given the moves before it; the counters ordered stand in
// the hex on the map, and the file is accepted. It returns the step and
// the file and a move the page stopped, as a line of the file, for
// loadInBrowser.
func stackingInBrowser(t *testing.T, b *sheetBrowser) (step, string, string) {
	var hex adjudicator.Hex
	var movers []wind.UnitOptions
	var st step
	for seed := int64(1); seed <= 60 && hex == 0; seed++ {
		playGames(t, []int64{seed}, 40, func(s step) bool {
			if waitKind(s.s) != wind.WaitActions || awaitedSide(s.s) != adjudicator.US {
				return true
			}
			st = s
			hex, movers = moversTo(s, reportOf(t, s, adjudicator.US))
			return hex == 0
		})
	}
	if hex == 0 {
		t.Fatal("no generated game has five U.S. units that may over-stack a hex")
	}
	r := reportOf(t, st, adjudicator.US)
	name, page := sheetOf(t, r)
	path, _ := b.open(t, name, page)
	engine := st.s.Clone()
	var moved, stopped []string
	var over string
	for _, uo := range movers {
		b.click(t, fmt.Sprintf(`button[data-unit="%s"]`, uo.Unit))
		before := b.num(t, `document.querySelectorAll("#acts li").length`)
		b.click(t, fmt.Sprintf(`button[data-move="%s"]`, hex))
		added := b.num(t, `document.querySelectorAll("#acts li").length`) > before
		stop := b.eval(t, `(() => { const s = document.querySelector("p.stop"); return s.hidden ? "" : s.textContent; })()`)
		u, _ := engine.Unit(uo.Unit)
		var why string
		for _, mv := range uo.Moves {
			if mv.To == hex {
				if over == "" && !added {
					over = fmt.Sprintf("  - move: {unit: %s, path: %v}", uo.Unit, strings.ReplaceAll(fmt.Sprint(mv.Path), " ", ", "))
				}
				for _, h := range mv.Path {
					if why == "" {
						why = engine.StackingProblemWith(h, u, u.Steps)
					}
				}
			}
		}
		switch {
		case added && why != "":
			t.Fatalf("the page takes %s to %s; the engine: %s", uo.Unit, hex, why)
		case !added && why == "":
			t.Fatalf("the page stops %s (%q); the engine takes it", uo.Unit, stop)
		case !added && (!strings.Contains(stop, "Not added") || !strings.Contains(stop, " of ")):
			t.Fatalf("the page stops %s saying %q", uo.Unit, stop)
		case added:
			u.Hex = hex
			moved = append(moved, uo.Unit)
		default:
			stopped = append(stopped, uo.Unit)
		}
	}
	t.Logf("%d units may move to %s: the page took %v and stopped %v", len(movers), hex, moved, stopped)
	if len(stopped) == 0 || len(moved) == 0 {
		t.Fatalf("took %v, stopped %v", moved, stopped)
	}
	chips := b.eval(t, fmt.Sprintf(`document.querySelector('#units g[data-hex="%s"]').dataset.chips`, hex))
	for _, id := range moved {
		if !slices.Contains(strings.Fields(chips), id) {
			t.Errorf("%s is ordered to %s; the map shows there %q", id, hex, chips)
		}
	}
	if note := b.eval(t, `document.querySelector("#acts li .note").textContent`); !strings.Contains(note, "then holds") {
		t.Errorf("the first move's note reads %q", note)
	}
	b.file(t, st, "tok-stack")
	body := string(b.download(t, sheetDataOfFile(t, b).File))
	b.check(t, path)
	return st, body, over
}

// loadInBrowser loads into a fresh sheet the file stackingInBrowser
// wrote, with a move the sheet does not offer and a key it does not know
// put in: the sheet lists its orders again, shows the counters where they
// go, names the two lines it could not read, and writes the same orders.
func loadInBrowser(t *testing.T, b *sheetBrowser, st step, body, over string) {
	r := reportOf(t, st, adjudicator.US)
	name, page := sheetOf(t, r)
	path, _ := b.open(t, name, page)
	want, err := windorders.Parse([]byte(body), windorders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(body, "\n")
	at := slices.Index(lines, "actions:") + 1
	lines = slices.Insert(lines, at, "  - move: {unit: NOSUCH, path: [0101]}  # a unit the sheet does not know")
	lines = append(lines, "colour: red")
	b.eval(t, fmt.Sprintf(`document.getElementById("load").open = true, document.getElementById("loadtext").value = %q, ""`, strings.Join(lines, "\n")))
	b.click(t, "#loadgo")
	b.token = "tok-stack" // the file's, now in the page's memory
	if n := int(b.num(t, `document.querySelectorAll("#acts li").length`)); n != len(want.Orders().Actions) {
		t.Fatalf("the sheet lists %d orders loaded, the file holds %d", n, len(want.Orders().Actions))
	}
	note := b.eval(t, `document.getElementById("loadnote").textContent`)
	t.Logf("the sheet says of the file loaded: %s", note)
	if !strings.Contains(note, fmt.Sprintf("line %d: move: no unit NOSUCH", at+1)) || !strings.Contains(note, "colour: is not part") {
		t.Errorf("the sheet says of the file: %q", note)
	}
	for _, a := range want.Orders().Actions {
		if a.Move == nil {
			continue
		}
		to := a.Move.Path[len(a.Move.Path)-1]
		if chips := b.eval(t, fmt.Sprintf(`document.querySelector('#units g[data-hex="%s"]').dataset.chips`, to)); !slices.Contains(strings.Fields(chips), a.Move.Unit) {
			t.Errorf("%s moves to %s; the map shows there %q", a.Move.Unit, to, chips)
		}
	}
	if got := b.file(t, st, ""); !slices.Equal(actionWords(got), actionWords(want)) {
		t.Errorf("the sheet writes %q, loaded %q", actionWords(got), actionWords(want))
	}
	// The same orders as the program writes them: block mappings.
	other, err := windorders.Write(want.Game, "tok-stack", want.Orders())
	if err != nil {
		t.Fatal(err)
	}
	b.eval(t, fmt.Sprintf(`document.getElementById("loadtext").value = %q, ""`, other))
	b.click(t, "#loadgo")
	if got := b.file(t, st, ""); !slices.Equal(actionWords(got), actionWords(want)) {
		t.Errorf("loaded from\n%s\nthe sheet writes %q", other, actionWords(got))
	}
	// A move that over-stacks is read, marked and named.
	lines = strings.Split(body, "\n")
	at = slices.Index(lines, "actions:") + 1 + len(want.Orders().Actions)
	lines = slices.Insert(lines, at, over)
	b.eval(t, fmt.Sprintf(`document.getElementById("loadtext").value = %q, ""`, strings.Join(lines, "\n")))
	b.click(t, "#loadgo")
	note = b.eval(t, `document.getElementById("loadnote").textContent`)
	if !strings.Contains(note, "over-stacks") || b.num(t, `document.querySelectorAll("#acts .note.bad").length`) == 0 {
		t.Errorf("loading %q, the sheet says %q", over, note)
	}
	// The file mangled at random: the sheet reads what it can and says
	// why it stops, and never throws.
	rnd := rand.New(rand.NewSource(1))
	var mangled []string
	for range 300 {
		m := []byte(body)
		for range 1 + rnd.Intn(4) {
			if len(m) == 0 {
				break
			}
			i := rnd.Intn(len(m))
			switch rnd.Intn(3) {
			case 0:
				m = append(m[:i], m[min(len(m), i+1+rnd.Intn(20)):]...)
			case 1:
				m = slices.Insert(m, i, "[]{}:,-#\"' \t\n"[rnd.Intn(12)])
			default:
				m = m[:i]
			}
		}
		mangled = append(mangled, string(m))
	}
	js, _ := json.Marshal(mangled)
	said := b.eval(t, fmt.Sprintf(`%s.map((t) => { document.getElementById("loadtext").value = t; document.getElementById("loadgo").click(); return document.getElementById("loadnote").textContent === "" ? "0" : "1"; }).join("")`, js))
	if strings.Contains(said, "0") {
		t.Errorf("loading a mangled file, the sheet says nothing: %s", said)
	}
	b.check(t, path)
}

// askInBrowser clicks, for a unit that may both declare melee against a
// hex and fire at it, that hex on the map: the sheet asks which, and
// the answer "fire" writes a fire.
func askInBrowser(t *testing.T, b *sheetBrowser) {
	var uo wind.UnitOptions
	var fo wind.FireOption
	st, r := findSheet(t, false, wind.WaitActions, func(r *Report) bool {
		for _, o := range r.Outlook.Options {
			for _, f := range o.Fire {
				if slices.Contains(o.Melee, f.Target) && (f.Sees || len(f.Spotters) > 0) {
					uo, fo = o, f
					return true
				}
			}
		}
		return false
	})
	name, page := sheetOf(t, r)
	path, _ := b.open(t, name, page)
	b.click(t, fmt.Sprintf(`button[data-unit="%s"]`, uo.Unit))
	b.clickHex(t, fo.Target)
	if n := b.num(t, `document.querySelectorAll("#ask [data-ask=melee], #ask [data-ask=fire]").length`); n != 2 {
		t.Fatalf("%s may melee and fire at %s: the sheet asks with %v answers", uo.Unit, fo.Target, n)
	}
	if n := b.num(t, `document.querySelectorAll("#acts li").length`); n != 0 {
		t.Fatalf("the sheet orders before the answer: %v orders", n)
	}
	b.click(t, `#ask [data-ask=fire]`)
	f := b.file(t, st, "tok-ask")
	sp := ""
	if !fo.Sees {
		sp = fo.Spotters[0]
	}
	if got, want := actionWords(f), []string{fmt.Sprintf("fire [%s] %s %s", uo.Unit, fo.Target, sp)}; !slices.Equal(got, want) {
		t.Errorf("the file holds %q, want %q", got, want)
	}
	b.check(t, path)
}

// refitPickInBrowser picks the hex of a Japanese refit move on the map:
// the pick ticks its row, and a second click on the map changes nothing.
// Opened from the disk in a fresh sheet, the file ticks the same row.
func refitPickInBrowser(t *testing.T, b *sheetBrowser) {
	st, r := findSheet(t, false, wind.WaitJPRefit, func(r *Report) bool { return len(r.Outlook.Refit.Moves) > 0 })
	name, page := sheetOf(t, r)
	path, _ := b.open(t, name, page)
	mv := r.Outlook.Refit.Moves[0]
	b.click(t, fmt.Sprintf(`button[data-pick="%s"]`, mv.Unit))
	b.clickHex(t, mv.Nearest)
	box := fmt.Sprintf(`document.querySelector('input[data-item="%s"]').checked`, mv.Unit)
	if b.eval(t, `String(`+box+`)`) != "true" {
		t.Fatalf("picking %s for %s leaves its row unticked", mv.Nearest, mv.Unit)
	}
	b.clickHex(t, mv.From)
	hex := fmt.Sprintf(`document.querySelector('input[aria-label="hex for %s"]').value`, mv.Unit)
	if got := b.eval(t, hex); got != mv.Nearest.String() || b.eval(t, `String(`+box+`)`) != "true" {
		t.Fatalf("a second click on the map leaves %s at %q", mv.Unit, got)
	}
	f := b.file(t, st, "tok-pick")
	if a := f.Rearrange; a == nil || len(a.Moves) != 1 || a.Moves[0] != (wind.UnknownMove{Unit: mv.Unit, To: mv.Nearest}) {
		t.Fatalf("the refit reads %+v", f.Rearrange)
	}
	body := string(b.download(t, sheetDataOfFile(t, b).File))
	b.check(t, path)
	path, _ = b.open(t, name, page)
	saved := filepath.Join(t.TempDir(), "orders.yaml")
	if err := os.WriteFile(saved, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	b.eval(t, `document.getElementById("load").open = true, ""`)
	if err := chromedp.Do(b.ctx, chromedp.SetUploadFiles(chromedp.ID("loadfile"), []string{saved})); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(5 * time.Second); b.eval(t, `document.getElementById("loadnote").textContent`) == "" && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	b.token = "tok-pick"
	if b.eval(t, `String(`+box+`)`) != "true" || b.eval(t, hex) != mv.Nearest.String() {
		t.Fatalf("the file loaded leaves %s unticked or elsewhere: %s", mv.Unit, b.eval(t, `document.getElementById("loadnote").textContent`))
	}
	if f2 := b.file(t, st, ""); !reflect.DeepEqual(f2.Rearrange, f.Rearrange) {
		t.Errorf("loaded, the refit reads %+v, was %+v", f2.Rearrange, f.Rearrange)
	}
	b.check(t, path)
}

// stackVerdictsInBrowser holds the page's stacking verdicts to the
// engine's: in an actions position of side, random sets of its units put
// together in random hexes (those they stand in or may move to), judged
// by the page's count and by the engine's StackingProblem.
func stackVerdictsInBrowser(t *testing.T, b *sheetBrowser, side adjudicator.Side) {
	st, r := findSheet(t, false, wind.WaitActions, func(r *Report) bool { return r.View.Side == side && len(r.Outlook.Options) >= 12 })
	name, page := sheetOf(t, r)
	path, _ := b.open(t, name, page)
	var own []string
	var hexes []adjudicator.Hex
	for _, u := range r.View.Units {
		if u.Hex != 0 {
			own, hexes = append(own, u.ID), append(hexes, u.Hex)
		}
	}
	for _, uo := range r.Outlook.Options {
		for _, mv := range uo.Moves {
			hexes = append(hexes, mv.To)
		}
	}
	rnd := rand.New(rand.NewSource(int64(len(own))))
	type query struct {
		Hex string            `json:"hex"`
		Pos map[string]string `json:"pos"`
	}
	var qs []query
	var want []bool
	for range 400 {
		h := hexes[rnd.Intn(len(hexes))]
		q := query{Hex: h.String(), Pos: map[string]string{}}
		s := st.s.Clone()
		for range rnd.Intn(6) {
			id := own[rnd.Intn(len(own))]
			u, _ := s.Unit(id)
			u.Hex, q.Pos[id] = h, h.String()
		}
		qs = append(qs, q)
		want = append(want, s.StackingProblem(h, side) != "")
	}
	js, _ := json.Marshal(qs)
	got := b.eval(t, fmt.Sprintf(`%s.map((q) => { const s = window.attuSheet.stack(q.hex, q.pos); return s.n > s.limit ? "1" : "0"; }).join("")`, js))
	over := 0
	for i, w := range want {
		if (got[i] == '1') != w {
			t.Fatalf("%s: %v in %s: the page says over-stacked %v, the engine %v", side, qs[i].Pos, qs[i].Hex, got[i] == '1', w)
		}
		if w {
			over++
		}
	}
	t.Logf("%s: %d stacks judged alike, %d of them over the limit", side, len(want), over)
	if over == 0 || over == len(want) {
		t.Errorf("the stacks drawn are all alike: %d of %d over", over, len(want))
	}
	b.check(t, path)
}

// legibleInBrowser opens a busy sheet on a laptop's window and a phone's
// screen: at the first zoom level the hex ids stand at least 9 pixels
// high, and the page still draws itself within half a second.
func legibleInBrowser(t *testing.T, b *sheetBrowser) {
	_, r := findSheet(t, false, wind.WaitActions, func(r *Report) bool { return len(r.Outlook.Options) >= 12 })
	name, page := sheetOf(t, r)
	for _, vp := range []struct {
		what string
		emu  chromedp.Action[chromedp.Void]
	}{
		{"laptop", chromedp.EmulateViewport(1366, 768)},
		{"phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile)},
	} {
		if err := chromedp.Do(b.ctx, vp.emu); err != nil {
			t.Fatal(err)
		}
		var path string
		d := time.Hour
		for range 3 {
			p, d1 := b.open(t, name, page)
			path, d = p, min(d, d1)
		}
		px := b.num(t, `document.querySelector("#ids text").getBoundingClientRect().height`)
		t.Logf("%s: hex ids %.1f px high (letters %.1f px), first drawn in %v (fastest of 3 loads)", vp.what, px, b.num(t, `window.attuSheet.idPx()`), d)
		if px < 9 || b.num(t, `window.attuSheet.idPx()`) < 8.99 {
			t.Errorf("%s: the hex ids are %.1f px high", vp.what, px)
		}
		if d > 500*time.Millisecond {
			t.Errorf("%s: first drawn in %v", vp.what, d)
		}
		b.check(t, path)
	}
	if err := chromedp.Do(b.ctx, chromedp.EmulateReset()); err != nil {
		t.Fatal(err)
	}
}

// reload downloads the file the sheet open writes, opens the sheet
// afresh, loads the file into it and fails unless the sheet reads every
// line and writes the same orders again.
func (b *sheetBrowser) reload(t *testing.T, st step, name string, page []byte) string {
	t.Helper()
	tok := b.token
	body := string(b.download(t, sheetDataOfFile(t, b).File))
	want, err := windorders.Parse([]byte(body), windorders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path, _ := b.open(t, name, page)
	b.eval(t, fmt.Sprintf(`document.getElementById("load").open = true, document.getElementById("loadtext").value = %q, ""`, body))
	b.click(t, "#loadgo")
	b.token = tok
	if note := b.eval(t, `document.getElementById("loadnote").textContent`); !strings.Contains(note, "every line of the file was read") {
		t.Errorf("loading the sheet's own file: %s", note)
	}
	if got := b.file(t, st, ""); !reflect.DeepEqual(got.Orders(), want.Orders()) || !reflect.DeepEqual(got.Standing, want.Standing) {
		t.Errorf("loaded, the sheet writes %+v, the file was %+v", got.Orders(), want.Orders())
	}
	// The same orders as the program writes them (block mappings and
	// lists, keys in another order): a hand edit of the same shape.
	if want.Standing == nil {
		other, err := windorders.Write(want.Game, tok, want.Orders())
		if err != nil {
			t.Fatal(err)
		}
		b.eval(t, fmt.Sprintf(`document.getElementById("loadtext").value = %q, ""`, other))
		b.click(t, "#loadgo")
		if note := b.eval(t, `document.getElementById("loadnote").textContent`); !strings.Contains(note, "every line of the file was read") {
			t.Errorf("loading\n%s\nthe sheet says: %s", other, note)
		}
		if got := b.file(t, st, ""); !reflect.DeepEqual(got.Orders(), want.Orders()) {
			t.Errorf("loaded from\n%s\nthe sheet writes %+v, the file was %+v", other, got.Orders(), want.Orders())
		}
	}
	return path
}
