package wind

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// sheetData reads the data block of an order sheet.
func sheetDataOf(t testing.TB, page []byte) *sheetData {
	t.Helper()
	_, markup, _, err := templates.Unpack(page)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="data">(.*?)</script>`).FindSubmatch(markup)
	if m == nil {
		t.Fatal("the sheet holds no data block")
	}
	var d sheetData
	dec := json.NewDecoder(bytes.NewReader(m[1]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("the sheet's data block does not decode: %v", err)
	}
	return &d
}

var sheetDir = flag.String("sheets", "", "directory TestOrderSheetsOfGeneratedGames writes a sheet of each wait kind to")

// TestOrderSheetsOfGeneratedGames checks the order sheet of every report
// awaited in generated games (-templategames, 200 in .ci/run; half from
// the setup waits of rule 12): there is one exactly when there is an
// order template, and the data it carries is the data the template is
// written from: its choices (each move's path followed back through the
// vias as the page does) are the outlook's, and the order template
// written again from the sheet's view and outlook alone is the same to
// the byte, so every unit and every
// choice the template lists (each move with its cost and path, melee,
// fire target with its spotters, refit item, setup hex, landing zone) is
// in the sheet. The envelope it writes names the game, side, turn and
// wait awaited, and the sheet, packed, is within 64 KB (a mail of a
// player's reports keeps to 120 KB a turn).
func TestOrderSheetsOfGeneratedGames(t *testing.T) {
	t.Parallel()
	games := 30
	switch {
	case *templateGames > 0:
		games = *templateGames
	case testing.Short():
		games = 10
	}
	tally := map[string]int{}
	biggest := 0
	check := func(st step) bool {
		for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
			rep := reportOf(t, st, side)
			tname, body, hasTemplate := rep.OrderTemplate()
			name, page, ok := rep.OrderSheet("attu+g1@example.org")
			what := fmt.Sprintf("seed %d step %d, %s: %s", st.seed, st.n, side, name)
			if ok != hasTemplate {
				t.Fatalf("%s: a sheet %v, a template %v", what, ok, hasTemplate)
			}
			if !ok {
				continue
			}
			w := rep.Outlook.Wait
			// The sheet, the template and the file the sheet writes bear
			// one name, which names the side once.
			if name != strings.TrimSuffix(tname, ".yaml")+".html" || strings.Count(name, "-"+side.String()+"-") != 1 {
				t.Fatalf("%s: named %q beside the template %q", what, name, tname)
			}
			d := sheetDataOf(t, page)
			again := &Report{Game: rep.Game, Map: rep.Map, View: d.View, Outlook: d.outlook(t)}
			tname2, body2, _ := again.OrderTemplate()
			if got := d.outlook(t); !reflect.DeepEqual(got.Options, rep.Outlook.Options) || !reflect.DeepEqual(got.Refit, rep.Outlook.Refit) || !reflect.DeepEqual(got.Setup, rep.Outlook.Setup) {
				t.Fatalf("%s: the sheet's choices differ from the outlook's:\n%+v\n%+v", what, got, rep.Outlook)
			}
			if tname2 != tname || body2 != body {
				t.Fatalf("%s: the template written from the sheet's data differs from the report's:\n%s\n---\n%s", what, body2, body)
			}
			if d.Game != rep.Game.ID || d.Side != side || d.Turn != w.Turn || d.Wait != w.Kind || d.File != tname ||
				d.Subject != "[attu g1] "+strings.TrimSuffix(tname, ".yaml") {
				t.Fatalf("%s: the envelope reads %s %s %d %s %s %q", what, d.Game, d.Side, d.Turn, d.Wait, d.File, d.Subject)
			}
			if len(page) > 64<<10 {
				t.Errorf("%s: %d bytes, more than 64 KB", what, len(page))
			}
			biggest = max(biggest, len(page))
			tally[string(w.Kind)]++
			if *sheetDir != "" {
				os.WriteFile(filepath.Join(*sheetDir, name), page, 0o644)
			}
		}
		return true
	}
	seeds := seedsFrom(1000, games)
	playGames(t, seeds[:len(seeds)/2], 6, check)
	playSetupGames(t, seeds[len(seeds)/2:], 8, check)
	t.Logf("sheets checked: %v; the largest %d bytes", tally, biggest)
	for _, k := range []adjudicator.WaitKind{wind.WaitActions, wind.WaitUSDecision, wind.WaitJPSetup, wind.WaitUSLanding} {
		if tally[string(k)] == 0 {
			t.Errorf("no sheet of kind %s among the games played", k)
		}
	}
}

// outlook is the Outlook the sheet carries, each move's path followed
// back through the vias as the page does.
func (d *sheetData) outlook(t testing.TB) *wind.Outlook {
	t.Helper()
	o := *d.Outlook
	for _, so := range d.Options {
		uo := so.UnitOptions
		uo.Moves = nil
		via := map[adjudicator.Hex]adjudicator.Hex{}
		for _, s := range so.Moves {
			var mv wind.MoveOption
			var v adjudicator.Hex
			var to, from string
			if _, err := fmt.Sscanf(s, "%s %d %s", &to, &mv.MP, &from); err != nil {
				t.Fatalf("move %q: %v", s, err)
			}
			mv.To, v = mustHex(t, to), mustHex(t, from)
			via[mv.To] = v
			uo.Moves = append(uo.Moves, mv)
		}
		for i := range uo.Moves {
			mv := &uo.Moves[i]
			for h := mv.To; h != uo.Hex && len(mv.Path) < 99; h = via[h] {
				mv.Path = append([]adjudicator.Hex{h}, mv.Path...)
			}
		}
		o.Options = append(o.Options, uo)
	}
	return &o
}

func mustHex(t testing.TB, s string) adjudicator.Hex {
	t.Helper()
	h, err := adjudicator.ParseHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A sheet carries what it is given as text, never as markup or script: a
// game id that tries to close the data block reaches the page's script
// intact through its JSON block, and the title is escaped. The page's
// policy runs its own script alone (checkPolicy).
func TestOrderSheetEscapes(t *testing.T) {
	st := findStep(t, 0, func(st step) bool { return awaitedSide(st.s) == adjudicator.US })
	rep := reportOf(t, st, adjudicator.US)
	rep.Game.ID = `g</script><script>alert(1)</script>`
	_, page, ok := rep.OrderSheet(`x@example.org"><b>`)
	if !ok {
		t.Fatal("no sheet for the side awaited")
	}
	if n := strings.Count(string(page), "<script"); n != 2 {
		t.Errorf("the sheet has %d script elements, want the data and the script", n)
	}
	checkPolicy(t, "the sheet", page)
	if strings.Contains(string(page), "<b>") {
		t.Error("the address reaches the page as markup")
	}
	if d := sheetDataOf(t, page); d.Game != rep.Game.ID || d.Address != `x@example.org"><b>` {
		t.Errorf("the data reads game %q, address %q", d.Game, d.Address)
	}
}
