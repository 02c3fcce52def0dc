package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/attu-pbem/attu/adjudicator"
	iw "github.com/attu-pbem/attu/adjudicator/island"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates/island"
)

// The Island War order sheet attached to the U.S. player's report of
// Ridge 42, played in a real browser and mailed back: 1/5 moved along a
// path to the farthest hex it can reach by clicks on the map, an attack on I/124 with 1/11's barrage and
// one GSP, standing instructions asking to see the Japanese attacks with
// an FPF plan of 1/11 and one GSP, the token typed in. The daemon
// applies the file as clicked: the log holds those orders and the attack
// resolved with that barrage and GSP, 1/5 stands in the hex clicked and
// the game moves on to the Japanese Player-Turn.
func TestE2EIslandWarOrderSheet(t *testing.T) {
	b := newBrowser(t)
	td := startTestDaemon(t, testMailSystem(t))
	c, err := td.svc.Create(referee.NewGame{System: island.Name, ID: "g1", Name: "Ridge by sheet", Scenario: "ridge-42",
		Seed: bytes.Repeat([]byte{3}, store.SeedSize),
		US:   td.acct["alice"].Address, JP: td.acct["bob"].Address, Umpire: td.acct["carol"].Address}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	td.d.Kick()
	td.settled(t, time.Minute)
	entries := func() uint64 {
		g, err := td.db.Game("g1")
		if err != nil {
			t.Fatal(err)
		}
		return g.Entries
	}
	expect := func(side adjudicator.Side, kind adjudicator.WaitKind, turn int) {
		t.Helper()
		if w := gameWait(t, td); w.Side != side || w.Kind != kind || w.Turn != turn {
			t.Fatalf("the game waits for %v, want %s %s of Game-Turn %d", w, side, kind, turn)
		}
	}
	// The set-ups by mail: the Japanese do not ask to see attacks, so the
	// U.S. Player-Turn resolves its attack at once.
	expect(adjudicator.JP, oi.WaitSetup, 1)
	mailBody(t, td, "bob", "game: g1\nside: jp\nturn: 1\nwait: setup\ntoken: "+c.Tokens[adjudicator.JP]+"\n"+
		`setup: {II/124: "0601", III/124: "0801", 3/Eng: "0802", Mor/124: "0803", M/28: "1103"}`+"\n"+
		"standing:\n  ask: false\n  fpf:\n    - {protect: I/124, gsp: 1}\n")
	td.settled(t, time.Minute)
	expect(adjudicator.US, oi.WaitSetup, 1)
	mailBody(t, td, "alice", "game: g1\nside: us\nturn: 1\nwait: setup\ntoken: "+c.Tokens[adjudicator.US]+"\n"+
		`setup: {1/5: "0202", 2/5: "0203", 3/5: "0206", C/1Eng: "0207", A/1Amt: "0208"}`+"\n")
	td.settled(t, time.Minute)
	expect(adjudicator.US, oi.WaitOrders, 1)

	const name = "orders-1-us-orders.html"
	page, path := openMailedSheet(t, b, td, "alice", name, `!!window.attuSheet && !!document.getElementById("yaml") && !!document.querySelector('[data-hex="0202"]')`)
	click := func(sel string) {
		t.Helper()
		if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
	}
	clickHex := func(h string) {
		t.Helper()
		x := b.evalFloat(t, fmt.Sprintf(`(() => { const e = document.querySelector('[data-hex="%s"]'); e.scrollIntoView({block: "center", inline: "center"});
			const r = e.getBoundingClientRect(); return r.x + r.width / 2; })()`, h))
		y := b.evalFloat(t, fmt.Sprintf(`(() => { const r = document.querySelector('[data-hex="%s"]').getBoundingClientRect(); return r.y + r.height / 2; })()`, h))
		if err := chromedp.Do(b.ctx, chromedp.MouseClickXY(x, y)); err != nil {
			t.Fatal(err)
		}
	}
	typeInto := func(sel, value string) {
		t.Helper()
		b.eval(t, fmt.Sprintf(`(document.querySelector(%q).value = "", "")`, sel))
		if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS(sel), value)); err != nil {
			t.Fatalf("type into %s: %v", sel, err)
		}
	}
	// The move: 1/5 from 0202 to the free marked hex farthest from it
	// (a friend's hex is marked but refused, rule 5.31), along the path
	// the sheet finds.
	clickHex("0202")
	to := b.eval(t, `(() => { const c = (e) => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
		const [x, y] = c(document.querySelector('[data-hex="0202"]'));
		const held = [...document.querySelectorAll("#units .ctr")].map(c);
		let best = "", far = -1;
		for (const m of document.querySelectorAll("#marks .reach")) {
			const r = m.getBoundingClientRect();
			if (held.some(([cx, cy]) => cx > r.left && cx < r.right && cy > r.top && cy < r.bottom)) continue;
			const [mx, my] = c(m), d = (mx - x) ** 2 + (my - y) ** 2;
			if (d > far) { far = d; best = m.dataset.mark; }
		}
		return best; })()`)
	if to == "" {
		t.Fatal("the sheet marks no hex 1/5 can reach")
	}
	clickHex(to)
	if acts := b.eval(t, `document.querySelector("#acts").textContent`); !strings.Contains(acts, "1/5 moves ") {
		t.Fatalf("no move of 1/5 to %s listed: %s (%s)", to, acts, b.eval(t, `document.querySelector("#where").textContent`))
	}
	// The attack: I/124, 1/11's barrage and one GSP.
	click(`#attack input.defender[value="I/124"]`)
	click(`#attack input.barrage[value="1/11"]`)
	typeInto("#gsp", "1")
	click("#addattack")
	// Standing instructions: ask, and an FPF plan of 1/11 and one GSP.
	click("#standing-on")
	click("#standing-ask")
	click(`#st-tool input.gun[value="1/11"]`)
	typeInto("#st-gsp", "1")
	click("#st-addfpf")
	typeInto("#token", c.Tokens[adjudicator.US])
	if strings.Contains(string(page), c.Tokens[adjudicator.US]) {
		t.Errorf("%s holds the token", name)
	}
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatal(err)
	}
	click("#download")
	file := filepath.Join(dir, strings.TrimSuffix(name, ".html")+".yaml")
	var yaml []byte
	for end := time.Now().Add(10 * time.Second); yaml == nil; time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(file); err == nil && len(data) > 0 {
			yaml = data
		} else if time.Now().After(end) {
			t.Fatalf("no %s downloaded", filepath.Base(file))
		}
	}
	b.check(t, path)
	if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}

	before := entries()
	if err := sendRaw(context.Background(), td.sys, td.acct["alice"].Address, []string{td.gameAddress()},
		sheetMail(td, "sheet-iw@attu.test", filepath.Base(file), string(yaml))); err != nil {
		t.Fatal(err)
	}
	td.settled(t, time.Minute)
	if entries() == before {
		t.Fatalf("the sheet's file was not applied (the game waits for %v):\n%s", gameWait(t, td), yaml)
	}
	expect(adjudicator.JP, oi.WaitOrders, 1)

	log, err := td.db.Log("g1", 1)
	if err != nil {
		t.Fatal(err)
	}
	var o *oi.Orders
	var combat *iw.CombatReport
	for _, e := range log {
		if e.Kind == store.KindOrders && strings.Contains(e.MessageID, "sheet-iw") {
			o = new(oi.Orders)
			if err := json.Unmarshal(e.Orders, o); err != nil {
				t.Fatal(err)
			}
			var evs []iw.Event
			if err := json.Unmarshal(e.Events, &evs); err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				if ev.Combat != nil && slices.Equal(ev.Combat.Defenders, []string{"I/124"}) {
					combat = ev.Combat
				}
			}
		}
	}
	if o == nil || o.Play == nil {
		t.Fatalf("the log holds no Player-Turn from the sheet's mail:\n%s", yaml)
	}
	if mv := o.Play.Moves; len(mv) != 1 || mv[0].Unit != "1/5" || len(mv[0].Path) < 2 || mv[0].Path[len(mv[0].Path)-1].String() != to {
		t.Errorf("the daemon applied the moves %v, want 1/5 along a path to %s", mv, to)
	}
	if at := o.Play.Attacks; len(at) != 1 || !slices.Equal(at[0].Defenders, []string{"I/124"}) || !slices.Equal(at[0].Barrage, []string{"1/11"}) || at[0].GSP != 1 {
		t.Errorf("the daemon applied the attacks %+v, want I/124 with 1/11's barrage and 1 GSP", at)
	}
	if s := o.Standing; s == nil || !s.Ask || len(s.Defence.FPF) != 1 || !slices.Contains(s.Defence.FPF[0].Artillery, "1/11") || s.Defence.FPF[0].GSP != 1 {
		t.Errorf("the daemon applied the standing instructions %+v, want ask and an FPF plan of 1/11 and 1 GSP", s)
	}
	if combat == nil || !slices.Equal(combat.Barrage, []string{"1/11"}) || combat.GSP != 1 {
		t.Errorf("the log resolves no attack on I/124 with 1/11's barrage and 1 GSP: %+v", combat)
	} else {
		t.Logf("the attack on I/124: differential %+d, %s line, column %d, die %d, %v", combat.Differential, combat.Line, combat.Column, combat.Die, combat.Result)
	}
	pb, err := td.db.Position("g1")
	if err != nil {
		t.Fatal(err)
	}
	ap, err := island.Rules{}.Position(pb)
	if err != nil {
		t.Fatal(err)
	}
	p := ap.(*island.Position)
	if pc, ok := p.Engine().Piece(p.Game, "1/5"); !ok || pc.Hex.String() != to {
		t.Errorf("after the sheet's file 1/5 stands in %v, want %s", pc.Hex, to)
	}
	t.Logf("the sheet's file, applied:\n%s", yaml)
}
