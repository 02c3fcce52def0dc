package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/store"
)

// attu new names the game's system: -h lists those attu hosts, the
// default is War in the Wind's and is recorded with the game, and a name
// attu does not host is a usage error (exit 2) listing them, creating
// nothing. An export of a system attu does not host is refused by
// audit and replay, saying so.
func TestNewNamesItsSystem(t *testing.T) {
	db := filepath.Join(t.TempDir(), "attu.db")
	code, out, errs := runAttu("new", "-h")
	if code != 0 || !strings.Contains(out+errs, "-system") || !strings.Contains(out+errs, strings.Join(systemNames(), ", ")) {
		t.Fatalf("attu new -h: exit %d, %s%s", code, out, errs)
	}
	code, _, errs = runAttu("new", "-db", db, "-system", "chess", "-address", "attu@example.org", "-us", "a@x.org", "-jp", "b@x.org")
	if code != 2 || !strings.Contains(errs, `"chess" is not a game system attu hosts; use war-in-the-wind`) {
		t.Fatalf("attu new -system chess: exit %d, %s", code, errs)
	}
	code, _, errs = runAttu("new", "-db", db, "-system", "war-in-the-wind", "-id", "g1", "-address", "attu@example.org", "-us", "a@x.org", "-jp", "b@x.org")
	if code != 0 {
		t.Fatalf("attu new -system war-in-the-wind: exit %d, %s", code, errs)
	}
	d, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := d.Game("g1")
	if err != nil {
		t.Fatal(err)
	}
	x, err := d.Export("g1", false)
	d.Close()
	if err != nil || g.System != "war-in-the-wind" {
		t.Fatalf("the game is of %q (%v)", g.System, err)
	}
	x.System = "chess"
	b, err := x.JSON()
	if err != nil {
		t.Fatal(err)
	}
	file := writeFile(t, "chess.json", string(b))
	if code, out, errs := runAttu("audit", file); code == 0 || !strings.Contains(out+errs, `"chess" is not a game system attu hosts`) {
		t.Fatalf("attu audit of a chess export: exit %d, %s%s", code, out, errs)
	}
	if code, out, errs := runAttu("replay", "-o", filepath.Join(t.TempDir(), "chess.html"), file); code == 0 || !strings.Contains(out+errs, `"chess" is not a game system attu hosts`) {
		t.Fatalf("attu replay of a chess export: exit %d, %s%s", code, out, errs)
	}
}
