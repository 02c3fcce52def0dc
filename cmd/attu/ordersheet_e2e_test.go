package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
)

// The order sheets attached to the U.S. player's reports, played in a
// real browser and mailed back: the decision's sheet, answered by the
// radio buttons and mailed in the body of a mail, then the actions
// sheet, a move clicked on the map and the file mailed as an attachment
// under the name the sheet downloads it as. The daemon applies both, as
// clicked, with the token typed into the sheet; the sheets' mail links
// name the game's address and its subject tag; nothing is requested
// beyond the sheet's file and the console stays clean.
func TestE2EOrderSheet(t *testing.T) {
	b := newBrowser(t)
	td := startTestDaemon(t, testMailSystem(t))
	c := td.newGame(t, "Sheets")
	token := c.Tokens[adjudicator.US]

	yaml, path := playSheet(t, b, td, "orders-1-us-decision.html", token, func() {
		for _, sel := range []string{`input[name=refit][value=no]`, `input[name=night][value=no]`} {
			if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
				t.Fatal(err)
			}
		}
	})
	b.check(t, path)
	if err := sendRaw(context.Background(), td.sys, td.acct["alice"].Address, []string{td.gameAddress()}, sheetMail(td, "sheet-1@attu.test", "", yaml)); err != nil {
		t.Fatal(err)
	}

	var unit string
	var to adjudicator.Hex
	// A new page: the token lives in no file, so the player types it again.
	yaml, path = playSheet(t, b, td, "orders-1-us-actions.html", token, func() {
		// The unit with the most moves, and its farthest move, on the map.
		pick := b.eval(t, `(() => { const d = JSON.parse(document.getElementById("data").textContent);
			const o = d.options.reduce((a, o) => (o.moves || []).length > (a.moves || []).length ? o : a);
			return o.unit + " " + o.moves[o.moves.length - 1].split(" ")[0]; })()`)
		u, h, _ := strings.Cut(pick, " ")
		unit, to = u, mustParseHex(t, h)
		if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`button[data-unit="%s"]`, unit)), chromedp.NodeVisible)); err != nil {
			t.Fatal(err)
		}
		x := b.evalFloat(t, fmt.Sprintf(`window.attuSheet.point("%s")[0]`, to))
		y := b.evalFloat(t, fmt.Sprintf(`window.attuSheet.point("%s")[1]`, to))
		if err := chromedp.Do(b.ctx, chromedp.MouseClickXY(x, y)); err != nil {
			t.Fatal(err)
		}
	})
	b.check(t, path)
	if err := sendRaw(context.Background(), td.sys, td.acct["alice"].Address, []string{td.gameAddress()}, sheetMail(td, "sheet-2@attu.test", "orders-1-us-actions.yaml", yaml)); err != nil {
		t.Fatal(err)
	}
	td.settled(t, 30*time.Second)

	log, err := td.db.Log("g1", 1)
	if err != nil {
		t.Fatal(err)
	}
	var applied []string
	for _, e := range log {
		if e.Kind != store.KindOrders || !strings.HasPrefix(e.MessageID, "<sheet-") && !strings.HasPrefix(e.MessageID, "sheet-") {
			continue
		}
		switch o := mustOrders(t, e.Entry); {
		case o.Decision != nil:
			applied = append(applied, fmt.Sprintf("decision refit %v night %v", o.Decision.Refit, o.Decision.Night))
		case len(o.Actions) == 1 && o.Actions[0].Move != nil:
			mv := o.Actions[0].Move
			applied = append(applied, fmt.Sprintf("move %s to %s", mv.Unit, mv.Path[len(mv.Path)-1]))
		default:
			applied = append(applied, fmt.Sprintf("%+v", o))
		}
	}
	want := []string{"decision refit false night false", fmt.Sprintf("move %s to %s", unit, to)}
	if strings.Join(applied, "; ") != strings.Join(want, "; ") {
		t.Errorf("the daemon applied %q, want %q", applied, want)
	}
}

// openMailedSheet waits for a report to user carrying the order sheet
// name, opens the sheet from a file and waits until ready (a script
// expression) holds: the page unpacks itself after it has loaded, and a
// poll begun while the browser swaps the document in finds its context
// gone and is tried again. It returns the sheet as mailed and its path.
func openMailedSheet(t *testing.T, b *browser, td *testDaemon, user, name, ready string) ([]byte, string) {
	t.Helper()
	var page []byte
	for deadline := time.Now().Add(30 * time.Second); page == nil; time.Sleep(200 * time.Millisecond) {
		for _, raw := range td.waitInbox(t, user, 1, 30*time.Second) {
			if p := attachmentIn(t, raw, name); p != nil {
				page = p
			}
		}
		if page == nil && time.Now().After(deadline) {
			t.Fatalf("no report to %s carries %s", user, name)
		}
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate((&url.URL{Scheme: "file", Path: path}).String())); err != nil {
		t.Fatal(err)
	}
	for until := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](ready, chromedp.WithPollingTimeout(time.Until(until))))
		if err == nil {
			return page, path
		}
		if !strings.Contains(err.Error(), "Cannot find context") || time.Now().After(until) {
			t.Fatalf("the sheet never drew itself: %v", err)
		}
	}
}

// playSheet waits for the U.S. player's report carrying the order sheet
// name, opens the sheet from a file, lets click choose, types token and
// returns the file the sheet downloads and the sheet's path.
func playSheet(t *testing.T, b *browser, td *testDaemon, name, token string, click func()) (string, string) {
	t.Helper()
	page, path := openMailedSheet(t, b, td, "alice", name, `!!window.attuSheet`)
	click()
	if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("token"), token)); err != nil {
		t.Fatal(err)
	}
	mailto := b.eval(t, `document.getElementById("mailto").href`)
	if want := "mailto:" + td.gameAddress() + "?subject=" + url.PathEscape("[attu g1] "); !strings.HasPrefix(strings.ReplaceAll(mailto, "%20", " "), strings.ReplaceAll(want, "%20", " ")) {
		t.Errorf("%s: the mail link is %.120s, want %s…", name, mailto, want)
	}
	if strings.Contains(string(page), token) {
		t.Errorf("%s holds the token", name)
	}
	// The file as the player downloads it: the token is added then.
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("download"), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, strings.TrimSuffix(name, ".html")+".yaml")
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(file); err == nil && len(data) > 0 {
			return string(data), path
		}
		if time.Now().After(end) {
			t.Fatalf("%s: no %s downloaded", name, filepath.Base(file))
		}
	}
}

// sheetMail is a mail from alice to game g1 carrying file: in the body,
// or attached under the name attach.
func sheetMail(td *testDaemon, id, attach, file string) []byte {
	head := "From: <" + td.acct["alice"].Address + ">\r\nTo: <" + td.gameAddress() + ">\r\nSubject: [attu g1] orders\r\nMessage-ID: <" + id + ">\r\n" +
		"Date: " + time.Now().Format(time.RFC1123Z) + "\r\nMIME-Version: 1.0\r\n"
	body := strings.ReplaceAll(file, "\n", "\r\n")
	if attach == "" {
		return []byte(head + "Content-Type: text/plain; charset=utf-8\r\n\r\n" + body)
	}
	return []byte(head + "Content-Type: multipart/mixed; boundary=b1\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy orders.\r\n" +
		"--b1\r\nContent-Type: application/yaml\r\nContent-Disposition: attachment; filename=\"" + attach + "\"\r\n\r\n" + body + "\r\n--b1--\r\n")
}

func mustParseHex(t *testing.T, s string) adjudicator.Hex {
	t.Helper()
	h, err := adjudicator.ParseHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
