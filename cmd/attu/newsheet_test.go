package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
)

// attu new -sheet sets which sides are mailed no order sheet: the U.S.
// welcome, which asks for the first decision, carries the order
// template and, unless -sheet turns it off for the U.S., the sheet.
func TestNewSheetOption(t *testing.T) {
	for _, c := range []struct {
		flag  string
		sheet bool
	}{{"on", true}, {"off", false}, {"us=off", false}, {"jp=off", true}, {"off,us=on", true}} {
		path := filepath.Join(t.TempDir(), "attu.db")
		if code, _, errs := runAttu("new", "-db", path, "-address", "attu@example.org", "-id", "g1",
			"-us", "alice@example.org", "-jp", "bob@example.org", "-sheet", c.flag); code != 0 {
			t.Fatalf("attu new -sheet %s: %s", c.flag, errs)
		}
		db, err := store.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		queued, err := db.Outbox("g1")
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		var template, sheet bool
		for _, m := range queued {
			if m.To[0] != "alice@example.org" {
				continue
			}
			for _, a := range m.Attachments {
				template = template || a.Type == "application/yaml"
				sheet = sheet || strings.HasSuffix(a.Name, ".html")
			}
		}
		if !template || sheet != c.sheet {
			t.Errorf("-sheet %s: the U.S. welcome carries the template %v and the sheet %v, want the sheet %v", c.flag, template, sheet, c.sheet)
		}
	}
	for _, bad := range []string{"maybe", "umpire=off", "us=no", ""} {
		path := filepath.Join(t.TempDir(), "attu.db")
		if code, _, errs := runAttu("new", "-db", path, "-address", "attu@example.org", "-id", "g1",
			"-us", "alice@example.org", "-jp", "bob@example.org", "-sheet", bad); code != 2 || !strings.Contains(errs, "-sheet") {
			t.Errorf("attu new -sheet %q: exit %d, %s", bad, code, errs)
		}
	}
}

// A player who mails "sheet off" to the running daemon gets the next
// report that asks for orders with its order template and no order
// sheet, through the real mail servers.
func TestE2ESheetOff(t *testing.T) {
	td := startTestDaemon(t, testMailSystem(t))
	c := td.newGame(t, "No sheet")
	token := c.Tokens[adjudicator.US]
	var template []byte
	for _, raw := range td.waitInbox(t, "alice", 1, 30*time.Second) {
		if b := attachmentIn(t, raw, "orders-1-us-decision.yaml"); b != nil {
			template = b
		}
	}
	if template == nil || attachmentIn(t, td.waitInbox(t, "alice", 1, time.Second)[0], "orders-1-us-decision.html") == nil {
		t.Fatal("the welcome carries no order template or no order sheet")
	}
	head := func(id, subject string) string {
		return "From: <" + td.acct["alice"].Address + ">\r\nTo: <" + td.gameAddress() + ">\r\nSubject: " + subject + "\r\nMessage-ID: <" + id + ">\r\n" +
			"Date: " + time.Now().Format(time.RFC1123Z) + "\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
	}
	if err := sendRaw(context.Background(), td.sys, td.acct["alice"].Address, []string{td.gameAddress()},
		[]byte(head("off-1@attu.test", "[attu g1] sheet off")+"token: "+token+"\r\n")); err != nil {
		t.Fatal(err)
	}
	ms := td.waitInbox(t, "alice", 2, 30*time.Second)
	if !strings.Contains(strings.Join(strings.Fields(string(ms[len(ms)-1])), " "), "no longer carry the order sheet") {
		t.Fatalf("the answer to sheet off:\n%s", ms[len(ms)-1])
	}
	orders := strings.Replace(string(template), "PASTE-YOUR-TOKEN-HERE", token, 1)
	if err := sendRaw(context.Background(), td.sys, td.acct["alice"].Address, []string{td.gameAddress()},
		[]byte(head("off-2@attu.test", "[attu g1] orders")+strings.ReplaceAll(orders, "\n", "\r\n"))); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		for _, raw := range td.waitInbox(t, "alice", 3, 30*time.Second) {
			if attachmentIn(t, raw, "orders-1-us-actions.yaml") != nil {
				if attachmentIn(t, raw, "orders-1-us-actions.html") != nil {
					t.Fatal("the report after sheet off carries the order sheet")
				}
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no report asks alice for her actions")
		}
	}
}
