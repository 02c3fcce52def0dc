package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/attu-pbem/attu/templates"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
)

// writeExportFile writes x as "attu export" does and returns its path.
func writeExportFile(t *testing.T, x *store.Export, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	var buf bytes.Buffer
	if err := x.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// replayPage runs "attu replay" on x and returns the page's path and bytes.
func replayPage(t *testing.T, x *store.Export) (string, []byte) {
	t.Helper()
	in := writeExportFile(t, x, "attu-"+x.Game+".json")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"replay", in}, &stdout, &stderr); code != 0 {
		t.Fatalf("attu replay: exit %d: %s", code, stderr.String())
	}
	out := strings.TrimSuffix(in, ".json") + ".html"
	if !strings.Contains(stdout.String(), "wrote "+out) {
		t.Fatalf("attu replay says %q", stdout.String())
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, page
}

// pageData is the part of the page's embedded data the tests read.
type pageData struct {
	Seed    string `json:"seed"`
	Entries []struct {
		JSON string `json:"json"`
		Hash string `json:"hash"`
	} `json:"entries"`
	Dice  []json.RawMessage `json:"dice"`
	Views []struct {
		Units []int `json:"units"`
	} `json:"views"`
	Units [][]any `json:"units"`
	Steps []struct {
		Entry  uint64        `json:"entry"`
		View   [3]int        `json:"view"`
		Events [3][]int      `json:"events"`
		Luck   [2][3]float64 `json:"luck"`
	} `json:"steps"`
}

var dataScript = regexp.MustCompile(`(?s)<script type="application/json" id="data">(.*?)</script>`)

func readPageData(t *testing.T, page []byte) *pageData {
	t.Helper()
	_, markup, _, err := templates.Unpack(page)
	if err != nil {
		t.Fatal(err)
	}
	m := dataScript.FindSubmatch(markup)
	if m == nil {
		t.Fatal("the page holds no data")
	}
	d := new(pageData)
	if err := json.Unmarshal(m[1], d); err != nil {
		t.Fatal(err)
	}
	return d
}

// The replay page of a 20-turn game is one file that asks for nothing from
// elsewhere: no src or href leaves the page, no style sheet, font or
// script is linked, the only URL in it is the SVG namespace (a name, not a
// request), and it weighs under 2 MB. Its data holds every log entry with
// bytes that hash to the entry's hash, every die, one step per entry, no
// face-down Japanese unit in the U.S. view, and luck totals equal to those
// of the audit.
func TestReplayPageIsSelfContained(t *testing.T) {
	x, err := twentyTurnGame()
	if err != nil {
		t.Fatal(err)
	}
	path, page := replayPage(t, x)
	// The game ended and its seed is public: anyone may read its page.
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("the page of an ended game: %v, want mode 0644", err)
	}
	t.Logf("the page of a %d-entry game with %d dice: %.2f MB", len(x.Log), len(x.Dice), float64(len(page))/(1<<20))
	if len(page) >= 2<<20 {
		t.Errorf("the page is %d bytes, not under 2 MB", len(page))
	}
	attr := regexp.MustCompile(`(?i)\b(src|href|xlink:href|action|srcset|poster|data)\s*=\s*["']?([^"'\s>]*)`)
	for _, m := range attr.FindAllSubmatch(page, -1) {
		if v := string(m[2]); !strings.HasPrefix(v, "#") && !strings.HasPrefix(v, "data:") {
			t.Errorf("%s=%q points out of the page", m[1], v)
		}
	}
	for _, bad := range []string{"<link", "@import", "url(", "<iframe", "<img", "fetch(", "XMLHttpRequest", "<script src", "WebSocket"} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("the page has %q", bad)
		}
	}
	rest := strings.ReplaceAll(string(page), "http://www.w3.org/2000/svg", "")
	if u := regexp.MustCompile(`(?i)\b(https?|ftp|wss?)://`).FindString(rest); u != "" {
		t.Errorf("the page names a URL: %q", u)
	}
	if !bytes.Contains(page, []byte("Content-Security-Policy")) {
		t.Error("the page does not forbid loading from elsewhere")
	}

	d := readPageData(t, page)
	if d.Seed != x.Seed || len(d.Entries) != len(x.Log) || len(d.Steps) != len(x.Log) || len(d.Dice) != len(x.Dice) {
		t.Fatalf("the page holds %d entries, %d steps, %d dice; the export %d entries, %d dice", len(d.Entries), len(d.Steps), len(d.Dice), len(x.Log), len(x.Dice))
	}
	for i, e := range d.Entries {
		sum := sha256.Sum256([]byte(e.JSON))
		if h := hex.EncodeToString(sum[:]); h != x.Log[i].Hash || e.Hash != x.Log[i].Hash {
			t.Fatalf("entry %d: its bytes hash to %s, the log lists %s", i+1, h, x.Log[i].Hash)
		}
	}
	for i, s := range d.Steps {
		for _, j := range d.Views[s.View[0]].Units {
			u := d.Units[j]
			if u[1] == "jp" && (u[4] != 0.0 || u[5] == wind.Unknown.String()) {
				t.Fatalf("step %d: the U.S. view shows the face-down Japanese unit %v", i+1, u)
			}
		}
	}
	rep := store.Audit(x, windsys.Rules{})
	if !rep.OK() {
		t.Fatalf("the game does not audit: %v", rep.Bad)
	}
	last := d.Steps[len(d.Steps)-1].Luck
	for _, sl := range rep.Luck.Sides {
		k := map[adjudicator.Side]int{adjudicator.US: 0, adjudicator.JP: 1}[sl.Side]
		if sl.Side != adjudicator.US && sl.Side != adjudicator.JP {
			continue
		}
		n, hits, exp := 0, 0, 0.0
		for _, f := range sl.Fire {
			n, hits, exp = n+f.Dice, hits+f.Hits, exp+f.Expected
		}
		if float64(n) != last[k][0] || float64(hits) != last[k][2] || math.Abs(exp-last[k][1]) > 0.01 {
			t.Errorf("%s luck: the page %v, the audit %d dice, %d hits, %.2f expected", sl.Side, last[k], n, hits, exp)
		}
	}
}

// "attu replay" names what is wrong with its arguments.
func TestReplayCommandArguments(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"replay"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "name one export file") {
		t.Fatalf("no file: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"format":"attu-export/1"}`), 0o644)
	if code := run([]string{"replay", bad}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "export format") {
		t.Fatalf("an old export: exit %d, %q", code, stderr.String())
	}
}
