package main

import (
	"path/filepath"
	"strings"
	"testing"

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
