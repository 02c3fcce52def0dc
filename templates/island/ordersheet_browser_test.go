package island

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"iter"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/attu-pbem/attu/adjudicator"
	iw "github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/adjudicator/island/autoplay"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/store"
)

// sheetBrowser is a headless Chromium (ATTU_CHROMIUM) recording every
// request a page makes and every error it reports.
type sheetBrowser struct {
	ctx      context.Context
	mu       sync.Mutex
	requests []string
	errors   []string
}

func newSheetBrowser(t *testing.T, width, height int) *sheetBrowser {
	t.Helper()
	path := os.Getenv("ATTU_CHROMIUM")
	if path == "" {
		t.Skip("this test needs a browser: run it with ATTU_CHROMIUM=$(scripts/chromium.sh)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.Headless,
		chromedp.DisableGPU, chromedp.WindowSize(width, height))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 5*time.Minute)
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
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// open loads page from a file and returns how long it took to draw.
func (b *sheetBrowser) open(t *testing.T, name string, page []byte) time.Duration {
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
	// The page unpacks itself after it has loaded: wait until it is drawn.
	// A poll begun while the browser still swaps the document in finds
	// its context gone; it is tried again, within the same 10 s.
	var ms float64
	until := time.Now().Add(10 * time.Second)
	for {
		var err error
		ms, err = chromedp.Run(b.ctx, chromedp.Poll[float64](`window.attuSheet && window.attuSheet.shownAt`, chromedp.WithPollingTimeout(time.Until(until))))
		if err == nil {
			break
		}
		if !strings.Contains(err.Error(), "Cannot find context") || time.Now().After(until) {
			t.Fatalf("the sheet never drew itself: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.requests {
		if r != u {
			t.Errorf("the sheet asked for %s", r)
		}
	}
	return time.Duration(ms * float64(time.Millisecond))
}

func (b *sheetBrowser) noErrors(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.errors) > 0 {
		t.Fatalf("the page reported: %v", b.errors)
	}
}

func (b *sheetBrowser) eval(t *testing.T, js string, out any) {
	t.Helper()
	if out == nil {
		js = "(" + js + ", 0)"
	}
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[json.RawMessage](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: %v", js, err)
		}
	}
}

func (b *sheetBrowser) num(t *testing.T, js string) float64 {
	t.Helper()
	var f float64
	b.eval(t, js, &f)
	return f
}

func (b *sheetBrowser) text(t *testing.T, sel string) string {
	t.Helper()
	var s string
	b.eval(t, fmt.Sprintf(`document.querySelector(%q).textContent`, sel), &s)
	return s
}

// click clicks the element sel with the mouse.
func (b *sheetBrowser) click(t *testing.T, sel string) {
	t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// clickHex clicks the middle of hex h on the map, as a player would.
func (b *sheetBrowser) clickHex(t *testing.T, h string) {
	t.Helper()
	var xy []float64
	b.eval(t, fmt.Sprintf(`(() => { const e = document.querySelector('[data-hex="%s"]'); e.scrollIntoView({block: "center", inline: "center"});
		const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, h), &xy)
	if err := chromedp.Do(b.ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		t.Fatal(err)
	}
}

// screenshot writes the page as it stands to the directory
// ATTU_SHEET_SCREENSHOTS names, if it names one.
func (b *sheetBrowser) screenshot(t *testing.T, name string) {
	t.Helper()
	dir := os.Getenv("ATTU_SHEET_SCREENSHOTS")
	if dir == "" {
		return
	}
	shot, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), shot, 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadFile pastes text into the page's loader, loads it and returns the
// file the page then shows.
func (b *sheetBrowser) loadFile(t *testing.T, text string) string {
	t.Helper()
	j, _ := json.Marshal(text)
	b.eval(t, fmt.Sprintf(`document.getElementById("loadtext").value = %s`, j), nil)
	b.click(t, "#load")
	if note := b.text(t, "#loadnote"); !strings.HasPrefix(note, "Loaded") {
		t.Fatalf("the page did not load the file: %s\n%s", note, text)
	}
	var out string
	b.eval(t, `document.getElementById("yaml").value`, &out)
	return out
}

// typeInto replaces the value of input sel.
func (b *sheetBrowser) typeInto(t *testing.T, sel, value string) {
	t.Helper()
	b.eval(t, fmt.Sprintf(`document.querySelector(%q).value = ""`, sel), nil)
	if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS(sel), value)); err != nil {
		t.Fatalf("type into %s: %v", sel, err)
	}
}

// download types the token, clicks the download link and returns the
// file the browser saves.
func (b *sheetBrowser) download(t *testing.T, d *sheetData, token string) []byte {
	t.Helper()
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(b.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatal(err)
	}
	b.typeInto(t, "#token", token)
	b.click(t, "#download")
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(filepath.Join(dir, d.File)); err == nil && len(data) > 0 {
			var dom string
			b.eval(t, `[document.documentElement.outerHTML, document.getElementById("yaml").value, ...[...document.querySelectorAll("a")].map((a) => a.href)].join("\n")`, &dom)
			if strings.Contains(dom, token) {
				t.Fatalf("the page holds the token once the file is downloaded")
			}
			return data
		}
	}
	t.Fatalf("no %s downloaded", d.File)
	return nil
}

// apply reads the file the sheet wrote and resolves it on p, as the game
// service would, and returns the orders, the position and the events.
func apply(t *testing.T, p *Position, raw []byte, token string) (oi.Orders, *Position, []iw.Event) {
	t.Helper()
	f, err := oi.ReadOrders(raw)
	if err != nil {
		t.Fatalf("the sheet's file does not read: %v\n%s", err, raw)
	}
	if f.Token != token || f.Game != "g1" {
		t.Fatalf("the file is for game %q with token %q", f.Game, f.Token)
	}
	// The page writes the schema the one writer writes: what it wrote
	// reads as the same orders as WriteOrders' file of them.
	again, err := oi.WriteOrders(f.Game, f.Token, f.Orders)
	if err != nil {
		t.Fatal(err)
	}
	g, err := oi.ReadOrders(again)
	if err != nil {
		t.Fatalf("WriteOrders' file of the sheet's orders does not read: %v\n%s", err, again)
	}
	if a, b := mustJSON(f.Orders), mustJSON(g.Orders); !bytes.Equal(a, b) {
		t.Fatalf("the sheet's file reads as\n%s\nand WriteOrders' file of it as\n%s", a, b)
	}
	if ps := (Rules{}).Check(p, Filed{f}); len(ps) > 0 {
		t.Fatalf("the sheet's file is refused: %v\n%s", ps, raw)
	}
	next, evs, ref := Rules{}.Resolve(p, Filed{f}, &rolls{faces: []int{3}})
	if ref != nil {
		t.Fatalf("the sheet's file is refused: %v\n%s", ref.Problems, raw)
	}
	out, err := decodeEvents(splitEvents(t, evs))
	if err != nil {
		t.Fatal(err)
	}
	return f.Orders, next.(*Position), out
}

func splitEvents(t *testing.T, evs json.RawMessage) []json.RawMessage {
	var raw []json.RawMessage
	if len(evs) > 0 {
		if err := json.Unmarshal(evs, &raw); err != nil {
			t.Fatal(err)
		}
	}
	return raw
}

// orderScene is an orders wait where the reader has a unit free to move
// two hexes or more away from any enemy, and artillery next to no enemy
// with an enemy in range that no attack of the duty takes, and Ground
// Support Points.
type orderScene struct {
	p           *Position
	side        adjudicator.Side
	mover, to   string
	gun, target string
	blocked     string // a hex the mover reaches that a friend holds, or ""
}

func findOrderScene(t *testing.T) orderScene {
	t.Helper()
	for seed := uint64(1); seed < 60; seed++ {
		ps, _ := randomGame(t, seed, nil)
		for _, p := range ps {
			w := p.Wait()
			if w.Kind != oi.WaitOrders {
				continue
			}
			e, g, us := p.e, p.Game, p.Game.Phasing
			if g.GSP[us] < 1 {
				continue
			}
			v := &view{e: e, g: g, reader: us}
			duty := dutyAttacks(e, g)
			inDuty := map[string]bool{}
			for _, a := range duty {
				for _, id := range slices.Concat(a.Defenders, a.Attackers) {
					inDuty[id] = true
				}
			}
			sc := orderScene{p: p, side: hostSide(us)}
			for _, i := range sideUnits(e, g, us) {
				u, pc := e.S.Units[i], g.Pieces[i]
				if sc.gun == "" && e.S.ClassOf(u) == iw.Artillery && len(v.zocOf(pc.Hex, us.Enemy())) == 0 {
					for _, j := range sideUnits(e, g, us.Enemy()) {
						if d := e.S.Grid.Distance(pc.Hex, g.Pieces[j].Hex); d > 1 && d <= u.Range && !inDuty[e.S.Units[j].ID] &&
							(e.S.Rules.GSPRange == 0 || e.S.Rules.GSPRange >= d) {
							sc.gun, sc.target = u.ID, e.S.Units[j].ID
							break
						}
					}
				}
			}
			for _, i := range sideUnits(e, g, us) {
				u, pc := e.S.Units[i], g.Pieces[i]
				if u.ID == sc.gun || inDuty[u.ID] || len(v.zocOf(pc.Hex, us.Enemy())) > 0 {
					continue
				}
				sc.blocked = ""
				for h, r := range e.ReachCosts(g, u.ID) {
					for _, k := range sideUnits(e, g, us) {
						if g.Pieces[k].Hex == h && e.S.Units[k].ID != sc.gun && (sc.blocked == "" || h.String() < sc.blocked) {
							sc.blocked = h.String()
						}
					}
					_, _, probs := e.Move(g, iw.Orders{Moves: []iw.Move{{Unit: u.ID, Path: r.Path}}})
					if len(r.Path) >= 2 && len(v.zocOf(h, us.Enemy())) == 0 && len(probs) == 0 && (sc.to == "" || h.String() < sc.to) {
						sc.mover, sc.to = u.ID, h.String()
					}
				}
				if sc.mover != "" {
					break
				}
			}
			if sc.gun != "" && sc.mover != "" {
				return sc
			}
		}
	}
	t.Fatal("no random game has an orders wait with a free mover and a gun in range")
	return orderScene{}
}

// TestOrderSheetInBrowser drives sheets in Chromium as a player would:
// a move clicked along its path, an attack with barrage and ground
// support whose odds the page shows as the engine reckons them, standing
// instructions with a fire plan and a retreat, and a defence's fire
// plan; every file written is read by orders/island and applied by the
// system's Resolve.
func TestOrderSheetInBrowser(t *testing.T) {
	b := newSheetBrowser(t, 1400, 1000)
	t.Run("orders", func(t *testing.T) { ordersInBrowser(t, b) })
	t.Run("banzai", func(t *testing.T) { banzaiInBrowser(t, b) })
	t.Run("advance", func(t *testing.T) { advanceInBrowser(t, b) })
	t.Run("retreat", func(t *testing.T) { retreatInBrowser(t, b) })
	t.Run("retreat-applied", func(t *testing.T) { retreatAppliedInBrowser(t, b) })
	t.Run("displace-applied", func(t *testing.T) { displaceAppliedInBrowser(t, b) })
	t.Run("defence", func(t *testing.T) { defenceInBrowser(t, b) })
	t.Run("setup", func(t *testing.T) { setupInBrowser(t, b) })
	t.Run("reinforcement", func(t *testing.T) { reinforcementInBrowser(t, b) })
	t.Run("hexsides", func(t *testing.T) { hexsidesInBrowser(t, b) })
	t.Run("odds", func(t *testing.T) { oddsInBrowser(t, b) })
	t.Run("mail", func(t *testing.T) { mailInBrowser(t, b) })
	t.Run("phone", func(t *testing.T) { legibleInBrowser(t) })
}

func ordersInBrowser(t *testing.T, b *sheetBrowser) {
	sc := findOrderScene(t)
	p := sc.p.clone()
	// The enemy answers with the defaults of IW21, no fire: the odds
	// the page shows are then the engine's.
	delete(p.Standing, ruleSide(sc.side).Enemy())
	name, page, d := sheetOf(t, p, sc.side, nil)
	took := b.open(t, name, page)
	if took > 500*time.Millisecond {
		t.Errorf("the sheet took %v to draw", took)
	}
	t.Logf("%s: %d bytes, drawn in %v", name, len(page), took)
	var from string
	for _, u := range d.Units {
		if u.ID == sc.mover {
			from = u.Hex
		}
	}
	b.clickHex(t, from)
	if n := b.num(t, `document.querySelectorAll("#marks .reach").length`); int(n) != len(p.e.ReachCosts(p.Game, sc.mover)) {
		t.Fatalf("the page marks %v hexes for %s", n, sc.mover)
	}
	if sc.blocked != "" {
		b.clickHex(t, sc.blocked)
		if w := b.text(t, "#where"); !strings.Contains(w, "one unit a hex") || strings.Contains(b.text(t, "#acts"), sc.mover+" moves") {
			t.Fatalf("a move onto a friend's hex %s is taken: %s", sc.blocked, w)
		}
	}
	b.clickHex(t, sc.to)
	if got := b.text(t, "#acts"); !strings.Contains(got, sc.mover+" moves ") {
		t.Fatalf("no move listed: %s", got)
	}
	// The counter stands in the hex it is ordered to, once.
	var at []bool
	b.eval(t, fmt.Sprintf(`(() => { const hx = document.querySelector('[data-hex="%s"]').getBoundingClientRect();
		return [...document.querySelectorAll("#units .ctr")].filter((c) => c.dataset.unit === %q).map((c) => {
		const r = c.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
		return x > hx.left && x < hx.right && y > hx.top && y < hx.bottom; }); })()`, sc.to, sc.mover), &at)
	if len(at) != 1 || !at[0] {
		t.Fatalf("%s is drawn %v, want once in %s", sc.mover, at, sc.to)
	}
	// The attack: the target, the gun's barrage and one GSP.
	b.click(t, fmt.Sprintf(`#attack input.defender[value=%q]`, sc.target))
	b.click(t, fmt.Sprintf(`#attack input.barrage[value=%q]`, sc.gun))
	b.typeInto(t, "#gsp", "1")
	odds := b.text(t, "#odds")
	b.click(t, "#addattack")
	// Standing instructions: ask, a fire plan and a retreat.
	b.click(t, "#standing-on")
	b.click(t, "#standing-ask")
	b.click(t, fmt.Sprintf(`#st-tool input.gun[value=%q]`, sc.gun))
	b.typeInto(t, "#st-gsp", "1")
	b.click(t, "#st-addfpf")
	b.click(t, "#st-toward")
	b.clickHex(t, from)
	var retreater string
	b.eval(t, `document.querySelector("#st-rtunit").value`, &retreater)
	if !strings.Contains(b.text(t, "#standing-list"), "retreats toward "+from) {
		t.Fatalf("no retreat listed: %s", b.text(t, "#standing-list"))
	}
	b.noErrors(t)
	b.screenshot(t, "island-ordersheet-orders.png")
	var shown string
	b.eval(t, `document.getElementById("yaml").value`, &shown)
	raw := b.download(t, d, "tok-123")
	o, _, evs := apply(t, p, raw, "tok-123")
	// What is not an order file of this wait is refused, and changes
	// nothing.
	b.open(t, name, page)
	for _, bad := range []string{"game: [", "- a\n- b", "side: jp\nturn: 1\nwait: orders", "side: us\nturn: 1\nwait: orders\nmoves: {a: 1}\nattacks: [1, {defenders: 3}]\nstanding: 4",
		"side: us\nturn: 1\nwait: orders\nattacks:\n  - {defenders: [NOPE], gsp: x}\nstanding:\n  fpf: {a: 1}\n  own: [1]"} {
		j, _ := json.Marshal(bad)
		b.eval(t, fmt.Sprintf(`document.getElementById("loadtext").value = %s`, j), nil)
		b.click(t, "#load")
		b.noErrors(t)
	}
	// The file loaded into a fresh sheet gives the same file.
	b.open(t, name, page)
	if got := b.loadFile(t, string(raw)); got != shown {
		t.Fatalf("the file loaded back gives\n%s\nnot\n%s", got, shown)
	}
	mv := o.Play.Moves
	if len(mv) != 1 || mv[0].Unit != sc.mover || mv[0].Path[len(mv[0].Path)-1].String() != sc.to || len(mv[0].Path) < 2 {
		t.Fatalf("the file moves %v, want %s to %s", mv, sc.mover, sc.to)
	}
	var rep *iw.CombatReport
	for _, ev := range evs {
		if ev.Combat != nil && slices.Contains(ev.Combat.Defenders, sc.target) {
			rep = ev.Combat
		}
	}
	if rep == nil || !slices.Contains(rep.Barrage, sc.gun) || rep.GSP != 1 {
		t.Fatalf("no attack on %s with %s's barrage and 1 GSP was resolved: %+v\n%s", sc.target, sc.gun, rep, raw)
	}
	want := fmt.Sprintf("differential %+d, %s line, column %d", rep.Differential, rep.Line, rep.Column)
	if rep.Differential == 0 {
		want = fmt.Sprintf("differential 0, %s line, column %d", rep.Line, rep.Column)
	}
	if !strings.Contains(odds, want) {
		t.Fatalf("the page showed %q before adding the attack; the engine: %s", odds, want)
	}
	s := o.Standing
	if s == nil || !s.Ask || len(s.Defence.FPF) != 1 || s.Defence.FPF[0].GSP != 1 || !slices.Contains(s.Defence.FPF[0].Artillery, sc.gun) || s.Defence.Own.Retreats[retreater].Toward.String() != from {
		t.Fatalf("the standing instructions are %+v\n%s", s, raw)
	}
	t.Logf("%s moved %s→%s (refused onto a friend in %q); %s; file:\n%s", sc.mover, from, sc.to, sc.blocked, odds, raw)
}

func defenceInBrowser(t *testing.T, b *sheetBrowser) {
	for seed := uint64(1); seed < 80; seed++ {
		ps, _ := randomGame(t, seed, func(iw.Side, int) bool { return true })
		for _, p := range ps {
			if p.Wait().Kind != oi.WaitDefence {
				continue
			}
			side := p.Wait().Side
			name, page, d := sheetOf(t, p, side, nil)
			if len(d.Guns) == 0 || d.GSP < 1 {
				continue
			}
			b.open(t, name, page)
			var protect string
			for def := range d.Guns {
				protect = def
			}
			b.eval(t, fmt.Sprintf(`(() => { const s = document.querySelector("#def-protect"); s.value = %q; s.dispatchEvent(new Event("change")); })()`, protect), nil)
			gun := d.Guns[protect][0]
			b.click(t, fmt.Sprintf(`#def-tool input.gun[value=%q]`, gun))
			b.typeInto(t, "#def-gsp", "1")
			b.click(t, "#def-addfpf")
			b.noErrors(t)
			b.screenshot(t, "island-ordersheet-defence.png")
			raw := b.download(t, d, "tok-9")
			o, _, _ := apply(t, p, raw, "tok-9")
			var plan *iw.FPFPlan
			for k, f := range o.Defence.FPF {
				if f.Protect == protect && slices.Contains(f.Artillery, gun) && f.GSP == 1 {
					plan = &o.Defence.FPF[k]
				}
			}
			if plan == nil {
				t.Fatalf("the file's fire plans are %+v, want %s's guns for %s\n%s", o.Defence.FPF, gun, protect, raw)
			}
			// The order template loaded into the sheet gives its orders.
			_, body, _ := Rules{}.Template(reportFor(p, side, nil))
			b.open(t, name, page)
			b.loadFile(t, body)
			tf, err := oi.ReadOrders([]byte(strings.Replace(body, TokenPlaceholder, "tok-9", 1)))
			if err != nil {
				t.Fatal(err)
			}
			sf, _ := oi.ReadOrders(b.download(t, d, "tok-9"))
			if a, c := mustJSON(tf.Orders), mustJSON(sf.Orders); !bytes.Equal(a, c) {
				t.Fatalf("the template loaded gives\n%s\nnot\n%s", c, a)
			}
			return
		}
	}
	t.Fatal("no defence wait with guns in range in the random games")
}

// oddsInBrowser holds the page's differential, line and column to the
// engine's over the attacks of random players in many positions: the
// page reckons them where the moves leave the units.
func oddsInBrowser(t *testing.T, b *sheetBrowser) {
	n, lines, offered, banzai := 0, map[iw.Line]int{}, 0, 0
	for seed := uint64(100); seed < 112 && n < 40; seed++ {
		ps, _ := randomGame(t, seed, nil)
		for i, p := range ps {
			if p.Wait().Kind != oi.WaitOrders || i%3 != 0 {
				continue
			}
			e, g := p.e, p.Game
			r := autoplay.NewRand(seed*1000 + uint64(i))
			o := standInOrders(e, g, r)
			q, _, probs := e.Move(g, o)
			if len(probs) > 0 || len(o.Attacks) == 0 {
				continue
			}
			_, evs, probs := e.Combat(q, o, iw.Defence{}, iw.DiceFunc(func(iw.Die) int { return 4 }))
			if len(probs) > 0 {
				continue
			}
			name, page, _ := sheetOf(t, p, p.Wait().Side, nil)
			b.open(t, name, page)
			moves := map[string][]string{}
			for _, m := range o.Moves {
				for _, h := range m.Path {
					moves[m.Unit] = append(moves[m.Unit], h.String())
				}
			}
			mj, _ := json.Marshal(moves)
			b.eval(t, fmt.Sprintf(`window.attuSheet.setMoves(%s)`, mj), nil)
			offered += builderAgrees(t, b, e, q, o.Attacks)
			dutiesAgree(t, b, e, q)
			for _, ev := range evs {
				c := ev.Combat
				if c == nil || ev.Kind != iw.EvCombat {
					continue
				}
				a := o.Attacks[c.Index]
				aj, _ := json.Marshal(a)
				var got struct {
					Differential, Column int
					Line                 iw.Line
				}
				b.eval(t, fmt.Sprintf(`window.attuSheet.odds(%s)`, aj), &got)
				if got.Differential != c.Differential || got.Line != c.Line || got.Column != c.Column {
					t.Fatalf("seed %d position %d attack %d %+v: the page reckons %+v, the engine differential %d, %s line, column %d", seed, i, c.Index, a, got, c.Differential, c.Line, c.Column)
				}
				n++
				lines[c.Line]++
				if c.Banzai {
					banzai++
				}
			}
		}
	}
	b.noErrors(t)
	if n < 20 || len(lines) < 2 || offered < 5 {
		t.Fatalf("only %d attacks compared, on lines %v, %d barrages offered", n, lines, offered)
	}
	t.Logf("%d attacks compared (%d Banzai), by line %v; %d barrage choices held to the engine's", n, banzai, lines, offered)
}

// legibleInBrowser opens a sheet on a phone's screen: every hex id is
// drawn at least 10 pixels high at the first zoom.
func legibleInBrowser(t *testing.T) {
	b := newSheetBrowser(t, 390, 844)
	p := opening(t)
	name, page, _ := sheetOf(t, p, p.Wait().Side, nil)
	b.open(t, name, page)
	var small []string
	b.eval(t, `[...document.querySelectorAll("#ids text")].filter((e) => e.getBoundingClientRect().height < 10).map((e) => e.textContent)`, &small)
	if len(small) > 0 {
		t.Fatalf("hex ids drawn too small to read: %v", small)
	}
	if n := b.num(t, `document.querySelectorAll("#ids text").length`); int(n) != p.e.S.Grid.Columns*p.e.S.Grid.Rows {
		t.Fatalf("%v hex ids drawn", n)
	}
	b.noErrors(t)
}

// setupInBrowser places a unit by clicking it and a free hex of its
// area, and the file sets the game up.
func setupInBrowser(t *testing.T, b *sheetBrowser) {
	p := opening(t)
	for p.Wait().Kind == oi.WaitSetup {
		side := p.Wait().Side
		name, page, d := sheetOf(t, p, side, nil)
		b.open(t, name, page)
		var pl sheetPlace
		for _, x := range d.Setup {
			if len(x.Free) > 1 {
				pl = x
			}
		}
		if pl.Unit == "" {
			t.Fatal("no unit with a choice of hexes")
		}
		to := pl.Free[len(pl.Free)-1]
		if to == pl.Default {
			to = pl.Free[0]
		}
		b.click(t, fmt.Sprintf(`[id=%q]`, "place-"+pl.Unit))
		if n := b.num(t, `document.querySelectorAll("#marks .free").length`); n < 2 {
			t.Fatalf("%v free hexes marked for %s", n, pl.Unit)
		}
		b.clickHex(t, to)
		b.noErrors(t)
		raw := b.download(t, d, "tok-s")
		o, next, _ := apply(t, p, raw, "tok-s")
		if o.Setup[pl.Unit].String() != to {
			t.Fatalf("the file places %s in %s, want %s\n%s", pl.Unit, o.Setup[pl.Unit], to, raw)
		}
		if pc, _ := next.e.Piece(next.Game, pl.Unit); pc.Hex.String() != to {
			t.Fatalf("%s stands in %s after the set-up", pl.Unit, pc.Hex)
		}
		p = next
	}
}

// hexsidesInBrowser holds the page's line to the engine's for an attack
// across every hexside that gives a line (rule 7.42), from both sides,
// with two units alone on the map: one attacking across it, then two,
// one of them from another hexside.
func hexsidesInBrowser(t *testing.T, b *sheetBrowser) {
	base := opening(t)
	for base.Wait().Kind == oi.WaitSetup {
		base, _ = step(t, base, DefaultOrders(base), &rolls{faces: []int{3}})
	}
	e := base.e
	_, _, d := sheetOf(t, base, base.Wait().Side, nil)
	if len(d.Lined) == 0 {
		t.Skip("the scenario has no hexside that gives a line")
	}
	name, page, _ := sheetOf(t, base, base.Wait().Side, nil)
	b.open(t, name, page)
	for c := 1; c <= e.S.Grid.Columns; c++ {
		for r := 1; r <= e.S.Grid.Rows; r += 2 {
			x, y := iw.Hex{Col: c, Row: r}, iw.Hex{Col: e.S.Grid.Columns + 1 - c, Row: (r*7)%e.S.Grid.Rows + 1}
			if got := b.num(t, fmt.Sprintf(`window.attuSheet.distance(%q, %q)`, x, y)); int(got) != e.S.Grid.Distance(x, y) {
				t.Fatalf("the page counts %v hexes from %s to %s, the engine %d", got, x, y, e.S.Grid.Distance(x, y))
			}
		}
	}
	us, them := base.Game.Phasing, base.Game.Phasing.Enemy()
	pick := func(s iw.Side, not string) (int, string) {
		for i, u := range e.S.Units {
			if u.Side == s && u.ID != not && e.S.ClassOf(u) == iw.Infantry {
				return i, u.ID
			}
		}
		t.Fatalf("no %s infantry", s)
		return 0, ""
	}
	ai, aid := pick(us, "")
	bi, bid := pick(us, aid)
	di, did := pick(them, "")
	n, lines := 0, map[iw.Line]int{}
	for _, l := range d.Lined {
		pair, _, _ := strings.Cut(l, " ")
		x, y, _ := strings.Cut(pair, "-")
		hx, _ := iw.ParseHex(x)
		hy, _ := iw.ParseHex(y)
		for _, ends := range [][2]iw.Hex{{hx, hy}, {hy, hx}} {
			from, def := ends[0], ends[1]
			if e.S.TerrainOf(from).Impassable || e.S.TerrainOf(def).Impassable {
				continue
			}
			var second []iw.Hex
			for _, h := range e.S.Grid.Neighbours(def) {
				if h != from && !e.S.TerrainOf(h).Impassable {
					second = append(second, h)
				}
			}
			for _, two := range [][]iw.Hex{nil, second[:min(1, len(second))]} {
				p := base.clone()
				p.Game = base.Game.Clone()
				for i := range p.Game.Pieces {
					p.Game.Pieces[i].Where = iw.Eliminated
				}
				put := func(i int, h iw.Hex) { p.Game.Pieces[i].Where, p.Game.Pieces[i].Hex = iw.OnMap, h }
				put(ai, from)
				put(di, def)
				a := iw.Attack{Defenders: []string{did}, Attackers: []string{aid}}
				if len(two) > 0 {
					put(bi, two[0])
					a.Attackers = append(a.Attackers, bid)
				}
				name, page, _ := sheetOf(t, p, hostSide(us), nil)
				b.open(t, name, page)
				aj, _ := json.Marshal(a)
				var got struct {
					Differential, Column int
					Line                 iw.Line
				}
				b.eval(t, fmt.Sprintf(`window.attuSheet.odds(%s)`, aj), &got)
				q, _, ps := e.Move(p.Game, iw.Orders{})
				if len(ps) > 0 {
					t.Fatal(ps)
				}
				var evs []iw.Event
				_, evs, ps = e.Combat(q, iw.Orders{Attacks: []iw.Attack{a}}, iw.Defence{}, iw.DiceFunc(func(iw.Die) int { return 4 }))
				if len(ps) > 0 || len(evs) == 0 || evs[0].Combat == nil {
					t.Fatalf("%v from %s on %s: %v", a, from, def, ps)
				}
				c := evs[0].Combat
				if got.Differential != c.Differential || got.Line != c.Line || got.Column != c.Column {
					t.Fatalf("%v from %s (and %v) on %s: the page reckons %+v, the engine differential %d, %s line, column %d", a.Attackers, from, two, def, got, c.Differential, c.Line, c.Column)
				}
				n++
				lines[c.Line]++
			}
		}
	}
	b.noErrors(t)
	t.Logf("%d attacks across %d lined hexsides compared, by line %v", n, len(d.Lined), lines)
}

// mailInBrowser takes the sheet the game service mails with the
// Japanese set-up report, drives it in Chromium and mails the file it
// writes back: the game applies it and moves on to the U.S. set-up,
// whose mail carries its own sheet.
func mailInBrowser(t *testing.T, b *sheetBrowser) {
	m := newMailGame(t)
	sheetIn := func(ms []store.Mail, side adjudicator.Side) store.Attachment {
		for _, x := range ms {
			if !slices.Contains(x.To, addrs[side]) {
				continue
			}
			for _, a := range x.Attachments {
				if strings.HasSuffix(a.Name, ".html") && a.Type == "text/html" {
					return a
				}
			}
		}
		t.Fatalf("no order sheet mailed to %s:\n%s", side, mailText(ms))
		return store.Attachment{}
	}
	a := sheetIn(m.mails(), adjudicator.JP)
	if a.Name != "orders-1-jp-setup.html" {
		t.Fatalf("the sheet is named %s", a.Name)
	}
	b.open(t, a.Name, a.Data)
	var d sheetData
	var raw string
	b.eval(t, `document.getElementById("data").textContent`, &raw)
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		t.Fatal(err)
	}
	if d.Address == "" || b.num(t, `document.getElementById("mailto").hidden ? 0 : 1`) != 1 {
		t.Fatalf("the sheet has no mail link to %q", d.Address)
	}
	file := b.download(t, &d, m.tokens[adjudicator.JP])
	b.noErrors(t)
	out := m.send(string(file))
	if w := m.game().Wait; w.Kind != oi.WaitSetup || w.Side != adjudicator.US {
		t.Fatalf("after the sheet's file the game waits for %v", w)
	}
	if a := sheetIn(out, adjudicator.US); a.Name != "orders-1-us-setup.html" {
		t.Fatalf("the U.S. sheet is named %s", a.Name)
	}
}

// builderAgrees ticks the first defender of each attack with a barrage
// in the page's attack builder: the builder offers every gun of the
// attack, which the engine took, and every gun it offers is one the
// engine takes (rules 7.15, 8.11, 8.22, 8.32). It returns how many guns
// were offered.
func builderAgrees(t *testing.T, b *sheetBrowser, e *iw.Engine, q iw.Position, attacks []iw.Attack) int {
	t.Helper()
	n := 0
	for _, a := range attacks {
		if len(a.Barrage) == 0 {
			continue
		}
		def := a.Defenders[0]
		if b.num(t, fmt.Sprintf(`document.querySelectorAll('#attack input.defender[value=%q]').length`, def)) != 1 {
			t.Fatalf("the builder does not offer %s as a defender", def)
		}
		b.click(t, fmt.Sprintf(`#attack input.defender[value=%q]`, def))
		var guns []string
		b.eval(t, `[...document.querySelectorAll("#attack input.barrage")].map((i) => i.value)`, &guns)
		for _, g := range a.Barrage {
			if !slices.Contains(guns, g) && len(a.Defenders) == 1 {
				t.Fatalf("the builder does not offer %s's barrage on %s (offers %v)", g, def, guns)
			}
		}
		for _, g := range guns {
			for _, p := range e.CheckAttacks(q, []iw.Attack{{Defenders: []string{def}, Barrage: []string{g}}}) {
				if p.Unit == g {
					t.Fatalf("the builder offers %s's barrage on %s, which the engine refuses: %v", g, def, p)
				}
			}
			n++
		}
		b.click(t, fmt.Sprintf(`#attack input.defender[value=%q]`, def))
	}
	return n
}

// dutiesAgree holds the page's reminders of the duty to attack, with no
// attack made yet, to the engine's refusals of an empty Combat Phase
// (rules 7.11, 7.12, 8.31).
func dutiesAgree(t *testing.T, b *sheetBrowser, e *iw.Engine, q iw.Position) {
	t.Helper()
	var got struct{ Must, Owed []string }
	b.eval(t, `window.attuSheet.duties()`, &got)
	var must, owed []string
	for _, p := range e.CheckAttacks(q, nil) {
		switch p.Rule {
		case "7.12", "8.31":
			must = append(must, p.Unit)
		case "7.11":
			owed = append(owed, p.Unit)
		}
	}
	slices.Sort(must)
	slices.Sort(owed)
	slices.Sort(got.Must)
	slices.Sort(got.Owed)
	if !slices.Equal(must, got.Must) || !slices.Equal(owed, got.Owed) {
		t.Fatalf("the page reminds %+v of the duty to attack; the engine refuses must %v, owed %v", got, must, owed)
	}
}

// banzaiInBrowser rebuilds a Japanese attack the duty requires as a
// Banzai attack in the builder, and the engine resolves it as the page
// reckoned it.
func banzaiInBrowser(t *testing.T, b *sheetBrowser) {
	for seed := uint64(1); seed < 80; seed++ {
		ps, _ := randomGame(t, seed, nil)
		for _, p := range ps {
			if p.Wait().Kind != oi.WaitOrders || p.Game.Phasing != iw.Japan {
				continue
			}
			duty := dutyAttacks(p.e, p.Game)
			k := slices.IndexFunc(duty, func(a iw.Attack) bool {
				return len(a.Defenders) == 1 && slices.ContainsFunc(a.Attackers, func(id string) bool {
					u, _ := p.e.S.Unit(id)
					c := p.e.S.ClassOf(u)
					return c == iw.Infantry || c == iw.Engineer
				})
			})
			if k < 0 {
				continue
			}
			p = p.clone()
			delete(p.Standing, iw.US)
			name, page, d := sheetOf(t, p, adjudicator.JP, nil)
			b.open(t, name, page)
			a := duty[k]
			b.click(t, fmt.Sprintf("#acts li:nth-child(%d) button", k+1))
			b.click(t, fmt.Sprintf(`#attack input.defender[value=%q]`, a.Defenders[0]))
			for _, id := range a.Attackers {
				b.click(t, fmt.Sprintf(`#attack input.attacker[value=%q]`, id))
			}
			b.click(t, "#banzai")
			odds := b.text(t, "#odds")
			b.click(t, "#addattack")
			b.noErrors(t)
			raw := b.download(t, d, "tok-b")
			o, _, evs := apply(t, p, raw, "tok-b")
			var rep *iw.CombatReport
			for _, ev := range evs {
				if ev.Combat != nil && ev.Combat.Banzai && slices.Equal(ev.Combat.Defenders, a.Defenders) {
					rep = ev.Combat
				}
			}
			if rep == nil || len(o.Play.Attacks) != len(duty) {
				t.Fatalf("no Banzai attack on %v resolved\n%s", a.Defenders, raw)
			}
			if want := fmt.Sprintf("attack %d against defence %d", rep.AttackTotal, rep.DefenseTotal); !strings.Contains(odds, want) || !strings.Contains(odds, fmt.Sprintf("%s line, column %d", rep.Line, rep.Column)) {
				t.Fatalf("the page showed %q; the engine: %s, %s line, column %d", odds, want, rep.Line, rep.Column)
			}
			return
		}
	}
	t.Fatal("no Japanese orders wait with an attack by infantry")
}

var screenshotFlag = flag.Bool("screenshot", false, "rewrite docs/island-war-order-sheet.png, the README's picture of the order sheet")

// TestOrderSheetScreenshot draws the README's picture of the order
// sheet: a Ridge 42 Movement Phase with a unit moved and an attack being
// built, its differential, line and column shown. Run it with
// -screenshot (and ATTU_CHROMIUM) to refresh docs/island-war-order-sheet.png;
// without the flag it checks that the picture can still be drawn.
func TestOrderSheetScreenshot(t *testing.T) {
	b := newSheetBrowser(t, 1000, 760)
	sc := findOrderScene(t)
	p := sc.p.clone()
	delete(p.Standing, ruleSide(sc.side).Enemy())
	name, page, d := sheetOf(t, p, sc.side, nil)
	b.open(t, name, page)
	var from string
	for _, u := range d.Units {
		if u.ID == sc.mover {
			from = u.Hex
		}
	}
	b.clickHex(t, from)
	b.clickHex(t, sc.to)
	b.click(t, fmt.Sprintf(`#attack input.defender[value=%q]`, sc.target))
	b.click(t, fmt.Sprintf(`#attack input.barrage[value=%q]`, sc.gun))
	b.typeInto(t, "#gsp", "1")
	odds := b.text(t, "#odds")
	for _, want := range []string{"differential", "line", "column"} {
		if !strings.Contains(strings.ToLower(odds), want) {
			t.Fatalf("the attack being built shows no %s: %q", want, odds)
		}
	}
	b.noErrors(t)
	// The target's hex in the middle of the window, the attack beside it.
	for _, u := range d.Units {
		if u.ID == sc.target {
			b.eval(t, fmt.Sprintf(`document.querySelector('[data-hex="%s"]').scrollIntoView({block: "center", inline: "center"})`, u.Hex), nil)
		}
	}
	shot, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes: %s", len(shot), odds)
	if !*screenshotFlag {
		return
	}
	shot = fewColours(t, shot)
	if len(shot) > 150_000 {
		t.Errorf("the picture is %d bytes, too big for the README", len(shot))
	}
	if err := os.WriteFile(filepath.Join("..", "..", "docs", "island-war-order-sheet.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fewColours redraws a PNG in its 256 commonest colours, each pixel in
// the nearest of them: a page of flat colours loses nothing a reader
// sees, and the file shrinks to a fraction.
func fewColours(t *testing.T, shot []byte) []byte {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	r := img.Bounds()
	count := map[color.RGBA]int{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			count[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	cs := make([]color.RGBA, 0, len(count))
	for c := range count {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool {
		if count[cs[i]] != count[cs[j]] {
			return count[cs[i]] > count[cs[j]]
		}
		a, b := cs[i], cs[j]
		return uint32(a.R)<<16|uint32(a.G)<<8|uint32(a.B) < uint32(b.R)<<16|uint32(b.G)<<8|uint32(b.B)
	})
	pal := make(color.Palette, 0, 256)
	for _, c := range cs[:min(256, len(cs))] {
		pal = append(pal, c)
	}
	out := image.NewPaletted(r, pal)
	draw.Draw(out, r, img, r.Min, draw.Src)
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, out); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// reinforcementInBrowser brings in a reinforcement of Ridge 42 due this
// Game-Turn (rule 5.1 and IW16) by its button and a marked entry hex,
// and checks that the engine puts it where it was clicked.
func reinforcementInBrowser(t *testing.T, b *sheetBrowser) {
	for seed := uint64(1); seed < 40; seed++ {
		ps, _ := randomGame(t, seed, nil)
		for _, p := range ps {
			if p.Wait().Kind != oi.WaitOrders {
				continue
			}
			side := hostSide(p.Game.Phasing)
			name, page, d := sheetOf(t, p, side, nil)
			for _, u := range d.Units {
				if !u.Arriving || len(u.Moves) == 0 {
					continue
				}
				b.open(t, name, page)
				b.click(t, "#enter-"+cssEscape(u.ID))
				marked := int(b.num(t, `document.querySelectorAll("#marks .reach").length`))
				if marked != len(p.e.ReachCosts(p.Game, u.ID)) {
					t.Fatalf("the page marks %d entry hexes for %s, the engine %d", marked, u.ID, len(p.e.ReachCosts(p.Game, u.ID)))
				}
				// A hex in no enemy zone of control, so that the duty to
				// attack (rules 7.11, 7.12) asks nothing more of the file.
				to := ""
				for _, m := range u.Moves {
					if len(m.ZOC) == 0 {
						to = m.To
					}
				}
				if to == "" {
					continue
				}
				b.clickHex(t, to)
				if got := b.text(t, "#acts"); !strings.Contains(got, u.ID+" moves ") && !strings.Contains(got, u.ID+" enters ") {
					t.Fatalf("the entry of %s to %s is not listed: %s", u.ID, to, got)
				}
				b.noErrors(t)
				raw := b.download(t, d, "tok-123")
				_, next, _ := apply(t, p, raw, "tok-123")
				i := slices.IndexFunc(p.e.S.Units, func(x iw.Unit) bool { return x.ID == u.ID })
				pc := next.Game.Pieces[i]
				if pc.Where != iw.OnMap || pc.Hex.String() != to {
					t.Fatalf("%s clicked into %s stands %v %v after the engine applied\n%s", u.ID, to, pc.Where, pc.Hex, raw)
				}
				t.Logf("seed %d, Game-Turn %d: %s entered %s", seed, p.Game.Turn, u.ID, to)
				return
			}
		}
	}
	t.Fatal("no Ridge 42 game of the first seeds has a reinforcement to bring in")
}

// cssEscape makes a unit id (1/5, III/124) a CSS selector's id.
func cssEscape(id string) string {
	return strings.NewReplacer("/", `\/`, ".", `\.`).Replace(id)
}

// advanceInBrowser rebuilds a Japanese attack the duty requires as a
// Banzai attack with an advance into the defender's hex and its own order
// of removals, all clicked in the builder; the file reads back as
// clicked, the page loads it again unchanged, and the engine resolves it:
// what advanced stands where it was told, what was removed is gone, in
// the order given where the order decides.
func advanceInBrowser(t *testing.T, b *sheetBrowser) {
	for seed := uint64(1); seed < 80; seed++ {
		ps, _ := randomGame(t, seed, nil)
		for _, p := range ps {
			if p.Wait().Kind != oi.WaitOrders || p.Game.Phasing != iw.Japan {
				continue
			}
			duty := dutyAttacks(p.e, p.Game)
			k := slices.IndexFunc(duty, func(a iw.Attack) bool {
				foot := 0
				for _, id := range a.Attackers {
					u, _ := p.e.S.Unit(id)
					if c := p.e.S.ClassOf(u); c == iw.Infantry || c == iw.Engineer {
						foot++
					}
				}
				return len(a.Defenders) == 1 && foot >= 2
			})
			if k < 0 {
				continue
			}
			p = p.clone()
			delete(p.Standing, iw.US)
			name, page, d := sheetOf(t, p, adjudicator.JP, nil)
			b.open(t, name, page)
			a := duty[k]
			var into string
			for _, u := range d.Units {
				if u.ID == a.Defenders[0] {
					into = u.Hex
				}
			}
			b.click(t, fmt.Sprintf("#acts li:nth-child(%d) button", k+1))
			b.click(t, fmt.Sprintf(`#attack input.defender[value=%q]`, a.Defenders[0]))
			for _, id := range a.Attackers {
				b.click(t, fmt.Sprintf(`#attack input.attacker[value=%q]`, id))
			}
			b.click(t, "#banzai")
			choose := func(unit, hex string) string {
				var v string
				b.eval(t, fmt.Sprintf(`(() => { const s = document.querySelector('select.advance[data-unit=%q]'); s.value = %q;
					s.dispatchEvent(new Event("change")); return document.querySelector('select.advance[data-unit=%q]').value; })()`, unit, hex, unit), &v)
				return v
			}
			first, second := a.Attackers[0], a.Attackers[1]
			if v := choose(first, into); v != into {
				t.Fatalf("%s's advance into %s is not taken: %q", first, into, v)
			}
			// A second unit into the same hex is refused with the reason.
			if v := choose(second, into); v != "" || !strings.Contains(b.text(t, "#where"), "one advancing unit a hex") {
				t.Fatalf("a second advance into %s is taken (%q): %s", into, v, b.text(t, "#where"))
			}
			removals := slices.Clone(a.Attackers)
			slices.Reverse(removals)
			for _, id := range removals {
				b.click(t, fmt.Sprintf(`#removals button.removal[value=%q]`, id))
			}
			if got := b.text(t, "#removals"); !strings.Contains(got, strings.Join(removals, ", ")) {
				t.Fatalf("the removal order shown is %q, want %v", got, removals)
			}
			b.screenshot(t, "island-ordersheet-advance.png")
			b.click(t, "#addattack")
			b.noErrors(t)
			raw := b.download(t, d, "tok-a")
			o, next, evs := apply(t, p, raw, "tok-a")
			var got *iw.Attack
			for i := range o.Play.Attacks {
				if slices.Equal(o.Play.Attacks[i].Defenders, a.Defenders) {
					got = &o.Play.Attacks[i]
				}
			}
			if got == nil || !got.Banzai || len(got.Advance) != 1 || got.Advance[0].Unit != first || got.Advance[0].To.String() != into || !slices.Equal(got.Removals, removals) {
				t.Fatalf("the file holds %+v, want the Banzai attack with %s advancing into %s and removals %v\n%s", got, first, into, removals, raw)
			}
			// The page takes its own file back as it wrote it.
			var shown string
			b.eval(t, `document.getElementById("yaml").value`, &shown)
			if again := b.loadFile(t, string(raw)); again != shown {
				t.Fatalf("the page's file loaded back writes\n%s\nnot\n%s", again, shown)
			}
			var rep *iw.CombatReport
			for _, ev := range evs {
				if ev.Combat != nil && ev.Combat.Banzai && slices.Equal(ev.Combat.Defenders, a.Defenders) {
					rep = ev.Combat
				}
			}
			if rep == nil {
				t.Fatalf("no Banzai attack on %v resolved\n%s", a.Defenders, raw)
			}
			where := func(id string) iw.Piece {
				i := slices.IndexFunc(p.e.S.Units, func(u iw.Unit) bool { return u.ID == id })
				return next.Game.Pieces[i]
			}
			for _, v := range rep.Advances {
				if pc := where(v.Unit); pc.Where != iw.OnMap || pc.Hex != v.To {
					t.Fatalf("%s advanced to %s by the report, stands %v %v", v.Unit, v.To, pc.Where, pc.Hex)
				}
			}
			for _, id := range rep.Removals {
				if where(id).Where == iw.OnMap {
					t.Fatalf("%s removed for Banzai stands on the map", id)
				}
			}
			// Where not every attacker goes, the first removed is the
			// first named of its class (rule 10.12: infantry and
			// engineers before the others).
			if len(rep.Removals) > 0 && len(rep.Removals) < len(a.Attackers) {
				u, _ := p.e.S.Unit(rep.Removals[0])
				c := p.e.S.ClassOf(u)
				firstOfClass := slices.IndexFunc(removals, func(id string) bool { v, _ := p.e.S.Unit(id); return p.e.S.ClassOf(v) == c })
				if removals[firstOfClass] != rep.Removals[0] {
					t.Fatalf("the engine removed %v; the order given was %v", rep.Removals, removals)
				}
			}
			t.Logf("seed %d: %s %s, advances %v, unmade %v, removals %v", seed, rep.Result, a.Defenders, rep.Advances, rep.Unmade, rep.Removals)
			return
		}
	}
	t.Fatal("no Japanese orders wait with an attack by two infantry or engineers")
}

// retreatInBrowser taps a retreat path, a displacement and a retreat
// order into the standing instructions on the map. At each step the page
// marks exactly the hexes the engine's retreat rules allow from where the
// units stand (rules 7.71, 7.72; IW7, IW9), refuses another with the
// reason, and the file it writes reads back with the path, displacement
// and order as tapped, accepted by the engine.
func retreatInBrowser(t *testing.T, b *sheetBrowser) {
	sc := findOrderScene(t)
	p := sc.p.clone()
	delete(p.Standing, ruleSide(sc.side).Enemy())
	name, page, d := sheetOf(t, p, sc.side, nil)
	mine := ruleSide(sc.side)
	steps := retreatSteps(p, mine)
	// The unit: the first of the reader's with two steps of retreat open.
	var unit string
	var start iw.Hex
	for _, u := range d.Units {
		if u.Side != mine || u.Hex == "" {
			continue
		}
		h, _ := iw.ParseHex(u.Hex)
		for _, s := range steps(h, h, 0) {
			n, _ := iw.ParseHex(s)
			if len(steps(h, n, 1)) > 0 && unit == "" {
				unit, start = u.ID, h
			}
		}
	}
	if unit == "" {
		t.Fatal("no unit of the reader's has two hexes of retreat open")
	}
	b.open(t, name, page)
	b.click(t, "#standing-on")
	marked := func() []string {
		var out []string
		b.eval(t, `[...document.querySelectorAll("#marks .reach")].map((m) => m.dataset.mark)`, &out)
		sort.Strings(out)
		return out
	}
	b.eval(t, fmt.Sprintf(`document.querySelector("#st-rtunit").value = %q`, unit), nil)
	b.click(t, "#st-path")
	var path []iw.Hex
	from := start
	for k := 0; k < 2; k++ {
		want := steps(start, from, k)
		if got := marked(); !slices.Equal(got, want) {
			t.Fatalf("step %d of %s's retreat from %s: the page marks %v, the rules allow %v", k+1, unit, start, got, want)
		}
		if k == 0 {
			// The unit's own hex is no step of its retreat.
			b.clickHex(t, start.String())
			if w := b.text(t, "#where"); !strings.HasPrefix(w, "Not taken: ") {
				t.Fatalf("a step into %s's own hex is taken: %s", unit, w)
			}
		}
		next, _ := iw.ParseHex(want[0])
		b.clickHex(t, next.String())
		path = append(path, next)
		from = next
	}
	b.screenshot(t, "island-ordersheet-retreat.png")
	b.click(t, "#st-tracedone")
	var pathWords []string
	for _, h := range path {
		pathWords = append(pathWords, h.String())
	}
	if got := b.text(t, "#standing-list"); !strings.Contains(got, unit+" retreats by "+strings.Join(pathWords, " ")) {
		t.Fatalf("the path is not listed: %s", got)
	}
	b.eval(t, fmt.Sprintf(`document.querySelector("#st-rtunit").value = %q`, unit), nil)
	b.click(t, "#st-displace")
	disp := steps(start, start, 0)[0]
	b.clickHex(t, disp)
	b.click(t, "#st-tracedone")
	var order []string
	for _, u := range d.Units {
		if u.Side == mine && u.Hex != "" && len(order) < 2 {
			order = append(order, u.ID)
		}
	}
	slices.Reverse(order)
	for _, id := range order {
		b.eval(t, fmt.Sprintf(`document.querySelector("#st-orderunit").value = %q`, id), nil)
		b.click(t, "#st-orderadd")
	}
	b.noErrors(t)
	raw := b.download(t, d, "tok-r")
	o, _, _ := apply(t, p, raw, "tok-r")
	if o.Standing == nil {
		t.Fatalf("no standing instructions in\n%s", raw)
	}
	own := o.Standing.Defence.Own
	if ps := own.Retreats[unit].Paths; len(ps) != 1 || !slices.Equal(ps[0], path) {
		t.Fatalf("%s's retreat paths read %v, tapped %v\n%s", unit, ps, path, raw)
	}
	if got := own.Displace[unit]; len(got) != 1 || got[0].String() != disp {
		t.Fatalf("%s's displacement reads %v, tapped %s\n%s", unit, got, disp, raw)
	}
	if !slices.Equal(own.Order, order) {
		t.Fatalf("the retreat order reads %v, set %v\n%s", own.Order, order, raw)
	}
	t.Logf("%s retreats by %v, displaced to %s; order %v", unit, path, disp, order)
}

// retreatSteps gives the hexes a unit of side mine may retreat into from
// the hex from, k hexes of its retreat from start made, where the units
// of p stand: the engine's rule for one step (rules 7.71, 7.72; IW7,
// IW9), as a retreat takes it.
func retreatSteps(p *Position, mine iw.Side) func(start, from iw.Hex, k int) []string {
	e, g := p.e, p.Game
	enemyAt := map[iw.Hex]bool{}
	for i, pc := range g.Pieces {
		if pc.Where == iw.OnMap && e.S.Units[i].Side != mine {
			enemyAt[pc.Hex] = true
		}
	}
	legal := func(start, from, c iw.Hex, k int) bool {
		if !e.S.Grid.Adjacent(from, c) || k >= 3 || e.S.Grid.Distance(start, c) != k+1 || e.S.TerrainOf(c).Impassable || enemyAt[c] {
			return false
		}
		for _, f := range e.S.FeaturesOf(from, c) {
			if f.Class == iw.ClassProhibited {
				return false
			}
		}
		for _, n := range e.S.Grid.Neighbours(c) {
			if enemyAt[n] {
				return false
			}
		}
		return true
	}
	return func(start, from iw.Hex, k int) []string {
		var out []string
		for c := 1; c <= e.S.Grid.Columns; c++ {
			for r := 1; r <= e.S.Grid.Rows; r++ {
				if h := (iw.Hex{Col: c, Row: r}); legal(start, from, h, k) {
					out = append(out, h.String())
				}
			}
		}
		return out
	}
}

// defence is a defence wait of a generated game answered by IW21's
// defaults: the game's seed, the position, the defending side, the
// events and the index of the first combat's.
type defence struct {
	seed   uint64
	p      *Position
	mine   iw.Side
	events []iw.Event
	k      int
}

// defences yields the defence waits of the first 79 generated games in
// which every defender asks, each answered by IW21's defaults with every
// die a 3 (defaultDefence), those that resolve a combat.
func defences(t *testing.T) iter.Seq[defence] {
	return func(yield func(defence) bool) {
		for seed := uint64(1); seed < 80; seed++ {
			ps, _ := randomGame(t, seed, func(iw.Side, int) bool { return true })
			for _, p := range ps {
				if p.Wait().Kind != oi.WaitDefence {
					continue
				}
				all, k, ok := defaultDefence(t, p)
				if ok && !yield(defence{seed: seed, p: p, mine: ruleSide(p.Wait().Side), events: all, k: k}) {
					return
				}
			}
		}
	}
}

// defaultDefence answers the defence wait of p with an empty defence
// (IW21's defaults decide), every die a 3, and returns the events and the
// index of the first combat's; false when the answer is refused or no
// combat is resolved.
func defaultDefence(t *testing.T, p *Position) ([]iw.Event, int, bool) {
	t.Helper()
	w := p.Wait()
	raw, err := oi.WriteOrders("g1", "tok", oi.Orders{Side: w.Side, Turn: w.Turn, Wait: oi.WaitDefence, Defence: &iw.Defence{}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := oi.ReadOrders(raw)
	if err != nil {
		t.Fatal(err)
	}
	_, evs, ref := Rules{}.Resolve(p, Filed{f}, &rolls{faces: []int{3}})
	if ref != nil {
		return nil, 0, false
	}
	all, err := decodeEvents(splitEvents(t, evs))
	if err != nil {
		t.Fatal(err)
	}
	k := slices.IndexFunc(all, func(ev iw.Event) bool { return ev.Combat != nil })
	return all, k, k >= 0
}

// retreatAppliedInBrowser finds a defence wait whose first combat makes
// a defender retreat two hexes or more by the default of IW21, taps
// another path of the same length in the defence answer, one the rules
// allow through no friend, and the engine retreats the unit along the
// tapped path.
func retreatAppliedInBrowser(t *testing.T, b *sheetBrowser) {
	for d := range defences(t) {
		seed, p, w, mine, all, k := d.seed, d.p, d.p.Wait(), d.mine, d.events, d.k
		var def iw.Retreat
		for _, r := range all[k].Combat.Retreats {
			u, _ := p.e.S.Unit(r.Unit)
			if u.Side == mine && !r.Eliminated && len(r.Path) >= 2 && def.Unit == "" {
				def = r
			}
		}
		if def.Unit == "" {
			continue
		}
		pc, _ := p.e.Piece(p.Game, def.Unit)
		start := pc.Hex
		friend := map[iw.Hex]bool{}
		for i, q := range p.Game.Pieces {
			if q.Where == iw.OnMap && p.e.S.Units[i].Side == mine {
				friend[q.Hex] = true
			}
		}
		steps := retreatSteps(p, mine)
		// Another path as long as the default's, through no friend.
		var other []iw.Hex
		var walk func(path []iw.Hex)
		walk = func(path []iw.Hex) {
			if other != nil {
				return
			}
			if len(path) == len(def.Path) {
				if !slices.Equal(path, def.Path) {
					other = slices.Clone(path)
				}
				return
			}
			from := start
			if len(path) > 0 {
				from = path[len(path)-1]
			}
			for _, s := range steps(start, from, len(path)) {
				h, _ := iw.ParseHex(s)
				if !friend[h] {
					walk(append(path, h))
				}
			}
		}
		walk(nil)
		if other == nil {
			continue
		}
		name, page, d := sheetOf(t, p, w.Side, nil)
		b.open(t, name, page)
		b.eval(t, fmt.Sprintf(`document.querySelector("#def-rtunit").value = %q`, def.Unit), nil)
		b.click(t, "#def-path")
		// A free hex next to the unit that the rules close to it (an
		// enemy's zone of control, most often) is refused, and why.
		open, refused := steps(start, start, 0), "none"
		for _, n := range p.e.S.Grid.Neighbours(start) {
			if slices.Contains(open, n.String()) || p.e.S.TerrainOf(n).Impassable || friend[n] {
				continue
			}
			if _, taken := occupant(p, n); taken {
				continue
			}
			b.clickHex(t, n.String())
			refused = b.text(t, "#where")
			if wh := refused; !strings.HasPrefix(wh, "Not taken: ") || !strings.Contains(wh, "rule") && !strings.Contains(wh, "IW") {
				t.Fatalf("a retreat of %s into %s, closed by the rules, is not refused with its rule: %s", def.Unit, n, wh)
			}
			break
		}
		for _, h := range other {
			b.clickHex(t, h.String())
			if wh := b.text(t, "#where"); strings.HasPrefix(wh, "Not taken") {
				t.Fatalf("the page refuses %s of %v, a path the rules allow: %s", h, other, wh)
			}
		}
		b.click(t, "#def-tracedone")
		b.noErrors(t)
		file := b.download(t, d, "tok-p")
		_, _, got := apply(t, p, file, "tok-p")
		var made *iw.Retreat
		for _, ev := range got {
			if ev.Combat == nil {
				continue
			}
			for i, r := range ev.Combat.Retreats {
				if r.Unit == def.Unit && made == nil {
					made = &ev.Combat.Retreats[i]
				}
			}
		}
		if made == nil || !slices.Equal(made.Path, other) {
			t.Fatalf("%s tapped to retreat by %v; the engine retreats it %+v (by default %v)\n%s", def.Unit, other, made, def.Path, file)
		}
		t.Logf("seed %d: %s retreats by %v as tapped, not by the default %v; refused: %s", seed, def.Unit, other, def.Path, refused)
		return
	}
	t.Fatal("no defence wait of the first seeds has a defender retreating two hexes with another path open")
}

// occupant is the unit on hex h of p, if any.
func occupant(p *Position, h iw.Hex) (string, bool) {
	for i, pc := range p.Game.Pieces {
		if pc.Where == iw.OnMap && pc.Hex == h {
			return p.e.S.Units[i].ID, true
		}
	}
	return "", false
}

// displaceAppliedInBrowser finds a defence wait whose first combat
// displaces a defender's friend (rule 7.81) by the default of IW21, taps
// another free hex the rules allow it as its displacement in the
// defence answer, and the engine displaces it there.
func displaceAppliedInBrowser(t *testing.T, b *sheetBrowser) {
	for d := range defences(t) {
		seed, p, w, mine, all, k := d.seed, d.p, d.p.Wait(), d.mine, d.events, d.k
		steps := retreatSteps(p, mine)
		for _, r := range all[k].Combat.Retreats {
			if u, _ := p.e.S.Unit(r.Unit); u.Side != mine || len(r.Displaced) == 0 {
				continue
			}
			dp := r.Displaced[0]
			at := slices.Index(r.Path, dp.From)
			if at < 0 {
				continue
			}
			pc, _ := p.e.Piece(p.Game, r.Unit)
			from := pc.Hex
			if at > 0 {
				from = r.Path[at-1]
			}
			var other string
			for _, s := range steps(dp.From, dp.From, 0) {
				h, _ := iw.ParseHex(s)
				if _, held := occupant(p, h); !held && h != from && h != dp.To && !slices.Contains(r.Path[at+1:], h) && other == "" {
					other = s
				}
			}
			if other == "" {
				continue
			}
			name, page, d := sheetOf(t, p, w.Side, nil)
			b.open(t, name, page)
			b.eval(t, fmt.Sprintf(`document.querySelector("#def-rtunit").value = %q`, dp.Unit), nil)
			b.click(t, "#def-displace")
			b.clickHex(t, other)
			if wh := b.text(t, "#where"); strings.HasPrefix(wh, "Not taken") {
				t.Fatalf("the page refuses %s as %s's displacement, a hex the rules allow: %s", other, dp.Unit, wh)
			}
			b.click(t, "#def-tracedone")
			if got := b.text(t, "#acts"); !strings.Contains(got, dp.Unit+" displaced goes to "+other) {
				t.Fatalf("the displacement is not listed: %s", got)
			}
			b.noErrors(t)
			file := b.download(t, d, "tok-d")
			_, _, got := apply(t, p, file, "tok-d")
			var made *iw.Displacement
			for _, ev := range got {
				if ev.Combat == nil {
					continue
				}
				for _, rr := range ev.Combat.Retreats {
					for i, x := range rr.Displaced {
						if x.Unit == dp.Unit && made == nil {
							made = &rr.Displaced[i]
						}
					}
				}
			}
			if made == nil || made.To.String() != other {
				t.Fatalf("%s tapped to be displaced to %s; the engine displaces it %+v (by default to %s)\n%s", dp.Unit, other, made, dp.To, file)
			}
			t.Logf("seed %d: %s displaced to %s as tapped, not by the default to %s", seed, dp.Unit, other, dp.To)
			return
		}
	}
	t.Fatal("no defence wait of the first seeds displaces a unit with another hex open")
}
