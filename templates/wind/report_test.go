package wind

import (
	"bytes"
	"encoding/json"
	"fmt"
	gf "github.com/attu-pbem/attu/templates/internal/golden"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// reportCase is a position whose reports are kept as golden files.
type reportCase struct {
	name  string
	st    step
	sides []adjudicator.Side
}

var (
	casesOnce   sync.Once
	casesCached []reportCase
)

// reportCases are the positions whose reports are kept as golden files:
// one of each kind of wait and moment, found in generated games (once for
// all the tests that use them).
func reportCases(t *testing.T) []reportCase {
	casesOnce.Do(func() { casesCached = findReportCases(t) })
	if casesCached == nil {
		t.Fatal("the report cases could not be found")
	}
	return casesCached
}

func findReportCases(t *testing.T) []reportCase {
	us, jp, ump := adjudicator.US, adjudicator.JP, adjudicator.Umpire
	opening := findStep(t, 0, func(st step) bool { return true })
	actions := findStep(t, 12, func(st step) bool {
		return st.s.Turn >= 2 && awaitedSide(st.s) == us && waitKind(st.s) == wind.WaitActions
	})
	night := findStep(t, 30, func(st step) bool {
		return st.s.Night && awaitedSide(st.s) == jp && waitKind(st.s) == wind.WaitActions && st.s.Turn >= 2
	})
	melee := findStep(t, 12, func(st step) bool {
		return hasKind(st.events, us, wind.EventMeleeEnds) && hasKind(st.events, us, wind.EventFired) && len(st.s.View(us).Enemy) > 0
	})
	ended := findStep(t, 80, func(st step) bool { return waitKind(st.s) == adjudicator.WaitEnded })
	usRefit := findStep(t, 30, func(st step) bool { return waitKind(st.s) == wind.WaitUSRefit })
	jpRefit := findStep(t, 30, func(st step) bool { return waitKind(st.s) == wind.WaitJPRefit })
	setup := func(seed int64, n int) step {
		var found *step
		playSetupGames(t, []int64{seed}, n, func(st step) bool {
			if st.n == n {
				found = &st
				return false
			}
			return true
		})
		if found == nil || !isSetupWait(waitKind(found.s)) {
			t.Fatalf("setup game %d does not wait for setup orders after step %d", seed, n)
		}
		return *found
	}
	return []reportCase{
		// A campaign with the free setups and the victory point chits placed
		// by the Japanese; the historic setups; a free U.S. landing.
		{"jp-setup", setup(2, 0), []adjudicator.Side{jp, us}},
		{"us-landing", setup(0, 0), []adjudicator.Side{us, jp}},
		{"us-landing-free", setup(1, 1), []adjudicator.Side{us}},
		{"opening", opening, []adjudicator.Side{us, jp, ump}},
		{"actions", actions, []adjudicator.Side{us, jp}},
		{"night", night, []adjudicator.Side{jp, us}},
		{"melee", melee, []adjudicator.Side{us, jp, ump}},
		{"ended", ended, []adjudicator.Side{us, jp}},
		{"us-refit", usRefit, []adjudicator.Side{us}},
		{"jp-refit", jpRefit, []adjudicator.Side{jp}},
	}
}

// reportCaseNamed returns the report case called name.
func reportCaseNamed(t *testing.T, name string) reportCase {
	for _, c := range reportCases(t) {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no report case %q", name)
	return reportCase{}
}

// TestReportGolden keeps the report of each side in each case as a golden
// file, with the order template of the side awaited and one JSON report.
func TestReportGolden(t *testing.T) {
	for _, c := range reportCases(t) {
		for _, side := range c.sides {
			rep := reportOf(t, c.st, side)
			name := fmt.Sprintf("report-%s-%s", c.name, side)
			text := rep.Text()
			checkColumns(t, name, text)
			golden(t, name+".txt", text)
			if tn, body, ok := rep.OrderTemplate(); ok {
				checkColumns(t, tn, body)
				golden(t, fmt.Sprintf("orders-%s-%s.yaml", c.name, side), body)
				// The template travels attached, once: the report names it
				// and leaves its lines out.
				if !strings.Contains(strings.Join(strings.Fields(text), " "), "attached to this mail as "+tn) || strings.Contains(text, strings.SplitN(body, "\n", 2)[0]) {
					t.Errorf("%s: the report does not name its attached order template %s, or repeats it", name, tn)
				}
			}
			if c.name == "actions" && side == adjudicator.US {
				b, err := rep.JSON()
				if err != nil {
					t.Fatal(err)
				}
				golden(t, name+".json", string(b))
			}
		}
	}
}

// TestReportSays checks, on the cases, what a reader must find in each
// report, whatever its wording.
func TestReportSays(t *testing.T) {
	for _, c := range reportCases(t) {
		for _, side := range c.sides {
			rep := reportOf(t, c.st, side)
			text := rep.Text()
			name := fmt.Sprintf("%s/%s", c.name, side)
			for _, want := range []string{
				"game g1 (Friday club)",
				fmt.Sprintf("Turn %d, %s", c.st.s.Turn, wind.TurnDate(c.st.s.Turn)),
				"THE ISLAND", "STANDING INSTRUCTIONS IN FORCE", "U.S. casualty track:",
				"Chain head: " + testGame(t).Head, "Dice commitment: " + testGame(t).Commitment,
			} {
				if !strings.Contains(text, want) {
					t.Errorf("%s: the report does not say %q", name, want)
				}
			}
			if waitKind(c.st.s) != adjudicator.WaitEnded && !strings.Contains(text, "Deadline: Mon 4 May 2026 18:00 UTC (Mon 4 May 10:00 AKDT in America/Anchorage)") {
				t.Errorf("%s: no deadline in UTC and in the reader's zone", name)
			}
			for _, u := range rep.Outlook.Units {
				if !strings.Contains(text, u.ID) {
					t.Errorf("%s: unit %s is not listed", name, u.ID)
				}
			}
			for _, vh := range rep.View.VictoryHexes {
				if !strings.Contains(text, vh.Hex.String()+"  "+vh.Name) {
					t.Errorf("%s: victory hex %s is not listed", name, vh.Hex)
				}
			}
			_, _, awaited := rep.OrderTemplate()
			if awaited != (awaitedSide(c.st.s) == side) {
				t.Errorf("%s: template %v, but the game waits for %s", name, awaited, awaitedSide(c.st.s))
			}
			if side == adjudicator.US {
				for _, hs := range rep.View.Hidden {
					if !strings.Contains(text, fmt.Sprintf("%s: %d hidden", hs.Hex, hs.Count)) {
						t.Errorf("%s: the hidden counters of %s are not listed", name, hs.Hex)
					}
				}
			}
		}
	}
}

// TestReportGroupsEvents checks that every event the reader may read is
// told once, in order, under a step title.
func TestReportGroupsEvents(t *testing.T) {
	checked := 0
	playGames(t, seedsFrom(1, 10), 12, func(st step) bool {
		for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.Umpire} {
			evs := wind.VisibleEvents(st.events, side)
			var got []wind.Event
			for _, s := range groupSteps(evs) {
				if s.Title == "" || len(s.Events) == 0 {
					t.Fatalf("seed %d step %d: empty step %+v", st.seed, st.n, s)
				}
				got = append(got, s.Events...)
			}
			var want []wind.Event
			for _, e := range evs {
				if e.Kind != wind.EventWait {
					want = append(want, e)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("seed %d step %d: the steps do not hold the events in order", st.seed, st.n)
			}
			checked++
		}
		return true
	})
	if checked < 100 {
		t.Fatalf("only %d reports checked", checked)
	}
}

// TestPictureGolden keeps the picture of the opening and a close-up of a
// melee for review, and compares them pixel by pixel: the PNG bytes may
// change with the compressor, the picture may not.
func TestPictureGolden(t *testing.T) {
	opening, melee := reportCaseNamed(t, "opening").st, reportCaseNamed(t, "melee").st
	pic, err := reportOf(t, opening, adjudicator.US).PNG()
	if err != nil {
		t.Fatal(err)
	}
	goldenPNG(t, "picture-opening-us.png", pic)
	var at adjudicator.Hex
	for _, e := range wind.VisibleEvents(melee.events, adjudicator.US) {
		if e.Kind == wind.EventMeleeEnds && at == 0 {
			at = e.Target
		}
	}
	pic, err = reportOf(t, melee, adjudicator.US).PNGAround(at, closeUpRadius)
	if err != nil {
		t.Fatal(err)
	}
	goldenPNG(t, "picture-melee-us.png", pic)
}

func goldenPNG(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if gf.Updating() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./templates -update to create it)", err)
	}
	a, b := decodePNG(t, got), decodePNG(t, want)
	if a.Bounds() != b.Bounds() {
		t.Fatalf("%s: %v, golden %v; run go test ./templates -update and look at it", name, a.Bounds(), b.Bounds())
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				t.Fatalf("%s differs from the golden picture at (%d, %d); run go test ./templates -update and look at it", name, x, y)
			}
		}
	}
}

func decodePNG(t testing.TB, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the picture does not decode: %v", err)
	}
	return img
}

// TestReportJSON checks that report.json is versioned, decodes, and says
// what the text says.
func TestReportJSON(t *testing.T) {
	st := reportCaseNamed(t, "melee").st
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.Umpire} {
		rep := reportOf(t, st, side)
		b, err := rep.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			Format string `json:"format"`
			Side   string `json:"side"`
			Game   struct {
				Deadline string `json:"deadline"`
			} `json:"game"`
			Steps []struct {
				Title  string `json:"title"`
				Events []struct {
					Text string `json:"text"`
				} `json:"events"`
			} `json:"steps"`
			View    wind.View    `json:"view"`
			Outlook wind.Outlook `json:"outlook"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		if d.Format != ReportFormat || d.Side != side.String() || d.Game.Deadline != "2026-05-04T18:00:00Z" {
			t.Fatalf("%s: format %q side %q deadline %q", side, d.Format, d.Side, d.Game.Deadline)
		}
		text := rep.Text()
		for _, s := range d.Steps {
			if !strings.Contains(text, "\n"+s.Title+"\n") {
				t.Errorf("%s: step %q is not in the text", side, s.Title)
			}
		}
		if len(d.View.Units) != len(rep.View.Units) || len(d.Outlook.Units) != len(rep.Outlook.Units) {
			t.Errorf("%s: the JSON view does not round-trip", side)
		}
	}
}

// TestOrderTemplateParses checks the templates of the golden cases the way
// a server would read them back.
func TestOrderTemplateParses(t *testing.T) {
	for _, c := range reportCases(t) {
		side := awaitedSide(c.st.s)
		if side == adjudicator.NoSide {
			continue
		}
		_, body, ok := reportOf(t, c.st, side).OrderTemplate()
		if !ok {
			t.Fatalf("%s: no template for the side awaited", c.name)
		}
		f, err := windorders.Parse([]byte(body), windorders.Options{})
		if err != nil {
			t.Fatalf("%s: the template does not parse:\n%v\n%s", c.name, err, body)
		}
		if f.Token != TokenPlaceholder || f.Game != "g1" || f.Side != side || f.Turn != c.st.s.Turn {
			t.Fatalf("%s: envelope %+v", c.name, f)
		}
		if ps := wind.CheckOrders(c.st.s, f.Orders()); len(ps) > 0 {
			t.Fatalf("%s: the template is refused: %v", c.name, ps)
		}
	}
}

// TestGoldenWidths checks every golden report, template and reply: no
// line wider than MaxWidth characters, none ending in blanks.
func TestGoldenWidths(t *testing.T) {
	files, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".png") || strings.HasSuffix(f, ".json") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkColumns(t, f, string(b))
		n++
	}
	if n < 30 {
		t.Fatalf("only %d golden texts", n)
	}
}
