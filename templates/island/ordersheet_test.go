package island

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	iw "github.com/attu-pbem/attu/adjudicator/island"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/templates"
)

var (
	sheetDataRE  = regexp.MustCompile(`(?s)<script type="application/json" id="data">(.*?)</script>`)
	policyMeta   = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
	inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	inlineStyle  = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
)

// sheetOf is the order sheet of side's report of p, if any, with its data.
func sheetOf(t testing.TB, p *Position, side adjudicator.Side, evs []json.RawMessage) (string, []byte, *sheetData) {
	t.Helper()
	rep, err := Rules{}.Report(reportFor(p, side, evs))
	if err != nil {
		t.Fatal(err)
	}
	if (rep.SheetName == "") != (rep.TemplateName == "") {
		t.Fatalf("%s: template %q but sheet %q", p.Wait(), rep.TemplateName, rep.SheetName)
	}
	if rep.SheetName == "" {
		return "", nil, nil
	}
	_, markup, _, err := templates.Unpack(rep.Sheet)
	if err != nil {
		t.Fatalf("the sheet does not unpack: %v", err)
	}
	m := sheetDataRE.FindSubmatch(markup)
	if m == nil {
		t.Fatalf("the sheet has no data")
	}
	var d sheetData
	if err := json.Unmarshal(m[1], &d); err != nil {
		t.Fatalf("the sheet's data: %v", err)
	}
	return rep.SheetName, rep.Sheet, &d
}

// checkSheetPolicy requires of the page's Content-Security-Policy what
// the browser enforces: nothing loaded, no unsafe source, no base URL nor
// form target; the one inline script (the one that unpacks the rest) and
// the style sheet and script it unpacks allowed by their SHA-256 and
// nothing else; no other script or style sheet in the page or in its
// unpacked markup; and no script that evaluates strings.
func checkSheetPolicy(t *testing.T, page []byte) {
	t.Helper()
	m := policyMeta.FindSubmatch(page)
	if m == nil {
		t.Fatal("the sheet has no Content-Security-Policy")
	}
	policy := html.UnescapeString(string(m[1]))
	dirs := map[string]string{}
	for _, d := range strings.Split(policy, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		dirs[name] = value
	}
	if strings.Contains(policy, "unsafe") {
		t.Errorf("the policy allows unsafe sources: %s", policy)
	}
	for name, want := range map[string]string{"default-src": "'none'", "base-uri": "'none'", "form-action": "'none'", "img-src": "data:"} {
		if dirs[name] != want {
			t.Errorf("%s is %q, want %q", name, dirs[name], want)
		}
	}
	css, markup, js, err := templates.Unpack(page)
	if err != nil {
		t.Fatal(err)
	}
	if inlineStyle.Match(page) || inlineStyle.Match(markup) || inlineScript.Match(markup) || bytes.Contains(markup, []byte("<style")) {
		t.Error("the sheet holds a style sheet or a script besides those of its policy")
	}
	if n := bytes.Count(page, []byte("<script")); n != 2 {
		t.Errorf("the sheet has %d script elements, want the packed block and the script that unpacks it", n)
	}
	loader := inlineScript.FindAllSubmatch(page, -1)
	if len(loader) != 1 {
		t.Fatalf("the sheet has %d inline scripts, want 1", len(loader))
	}
	hash := func(b string) string {
		sum := sha256.Sum256([]byte(b))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	if want := hash(string(loader[0][1])) + " " + hash(js); dirs["script-src"] != want {
		t.Errorf("script-src is %q; the scripts hash to %s", dirs["script-src"], want)
	}
	if want := hash(css); dirs["style-src"] != want {
		t.Errorf("style-src is %q; the style sheet hashes to %s", dirs["style-src"], want)
	}
	for _, s := range []string{string(loader[0][1]), js} {
		if strings.Contains(s, "eval(") || strings.Contains(s, "new Function") {
			t.Error("the sheet's script evaluates strings")
		}
	}
}

// reachItem is one hex of a unit's reach as the order template writes it.
var reachItem = regexp.MustCompile(`^(\d{4,}) (\d+)(\.5)?MP(?: \(zoc ([^)]*)\))?$`)

// templateReach reads the reach of every unit out of an orders template.
func templateReach(t *testing.T, body string) map[string][]sheetMove {
	t.Helper()
	out := map[string][]sheetMove{}
	head := regexp.MustCompile(`^# (\S+) \(.*\) (in \d+|arriving this Game-Turn):$`)
	unit, inReach := "", false
	for _, l := range strings.Split(body, "\n") {
		if m := head.FindStringSubmatch(l); m != nil {
			unit, inReach = m[1], false
			out[unit] = []sheetMove{}
			continue
		}
		rest, ok := strings.CutPrefix(l, "#   reach: ")
		if !ok && inReach {
			rest, ok = strings.CutPrefix(l, "#          ")
		}
		inReach = ok
		if !ok || unit == "" {
			continue
		}
		for _, it := range strings.Split(strings.TrimSuffix(rest, ","), ", ") {
			m := reachItem.FindStringSubmatch(strings.TrimSpace(it))
			if m == nil {
				t.Fatalf("reach item %q of %s", it, unit)
			}
			n, _ := strconv.Atoi(m[2])
			mv := sheetMove{To: m[1], Half: 2 * n}
			if m[3] != "" {
				mv.Half++
			}
			if m[4] != "" {
				mv.ZOC = strings.Split(m[4], " ")
			}
			out[unit] = append(out[unit], mv)
		}
	}
	return out
}

// TestOrderSheetAgreesWithTemplate: over every position of random games,
// the sheet comes with every order template and lists the same choices:
// the same reach, costs and zones of control per unit, the same attacks
// filled in, placements, guns in range, Ground Support Points and
// standing instructions; each path it offers is one the engine moves
// along; and it stays within its size.
func TestOrderSheetAgreesWithTemplate(t *testing.T) {
	kinds, largest := map[string]int{}, 0
	for seed := uint64(40); seed < 44; seed++ {
		ps, evs := randomGame(t, seed, func(s iw.Side, turn int) bool { return (turn+int(seed))%3 == 0 })
		for i, p := range ps {
			for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
				name, page, d := sheetOf(t, p, side, evs[i])
				if d == nil {
					continue
				}
				kinds[d.Wait]++
				where := fmt.Sprintf("seed %d position %d %s", seed, i, name)
				largest = max(largest, len(page))
				if len(page) > 150<<10 {
					t.Fatalf("%s: %d bytes, more than 150 KB", where, len(page))
				}
				if kinds[d.Wait] == 1 {
					checkSheetPolicy(t, page)
				}
				_, body, _ := Rules{}.Template(reportFor(p, side, evs[i]))
				tf, err := oi.ReadOrders([]byte(strings.Replace(body, TokenPlaceholder, "tok", 1)))
				if err != nil {
					t.Fatalf("%s: the template does not read: %v", where, err)
				}
				if d.GSP != p.Game.GSP[ruleSide(side)] || !strings.Contains(body, fmt.Sprintf("left: %d", d.GSP)) && !strings.Contains(body, fmt.Sprintf("have %d left", d.GSP)) && d.Wait != "setup" {
					t.Fatalf("%s: the sheet gives %d GSP", where, d.GSP)
				}
				switch d.Wait {
				case "orders":
					want := templateReach(t, body)
					got := map[string][]sheetMove{}
					for _, u := range d.Units {
						if u.Side != ruleSide(side) {
							continue
						}
						got[u.ID] = []sheetMove{}
						for _, m := range u.Moves {
							got[u.ID] = append(got[u.ID], sheetMove{To: m.To, Half: m.Half, ZOC: m.ZOC})
							var path []iw.Hex
							for k := 0; k < len(m.Path); k += 4 {
								h, _ := iw.ParseHex(m.Path[k : k+4])
								path = append(path, h)
							}
							if _, _, ps := p.e.Move(p.Game, iw.Orders{Moves: []iw.Move{{Unit: u.ID, Path: path}}}); len(ps) > 0 && !strings.Contains(ps[0].Error(), "5.31") {
								t.Fatalf("%s: %s's path %s is refused: %v", where, u.ID, m.Path, ps)
							}
						}
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: the sheet's reach\n%v\nthe template's\n%v", where, got, want)
					}
					if !reflect.DeepEqual(d.Duty, tf.Play.Attacks) {
						t.Fatalf("%s: the sheet fills in %v, the template %v", where, d.Duty, tf.Play.Attacks)
					}
				case "setup":
					got := map[string]iw.Hex{}
					for _, pl := range d.Setup {
						h, _ := iw.ParseHex(pl.Default)
						got[pl.Unit] = h
						if !strings.Contains(body, "free hexes of area "+pl.Area) || !slices.Contains(pl.Free, pl.Default) {
							t.Fatalf("%s: %s's free hexes %v", where, pl.Unit, pl.Free)
						}
						for _, f := range pl.Free {
							if !strings.Contains(body, f) {
								t.Fatalf("%s: the template does not list %s", where, f)
							}
						}
					}
					if !reflect.DeepEqual(got, tf.Setup) {
						t.Fatalf("%s: the sheet places %v, the template %v", where, got, tf.Setup)
					}
				case "defence":
					for def, guns := range d.Guns {
						if l := fmt.Sprintf("artillery in range of %s: %s ", def, strings.Join(guns, ", ")); !strings.Contains(body, l) {
							t.Fatalf("%s: the template lacks %q", where, l)
						}
					}
					if strings.Count(body, "artillery in range of") != len(d.Guns) || !reflect.DeepEqual(d.Declared, publicAttacks(p.Pending.Attacks)) {
						t.Fatalf("%s: the guns or attacks differ", where)
					}
					want := iw.Defence{}
					if d.Standing != nil {
						want = d.Standing.Defence
					}
					if a, b := mustJSON(*tf.Defence), mustJSON(want); !bytes.Equal(a, b) {
						t.Fatalf("%s: the template fills in %s, the sheet %s", where, a, b)
					}
				}
			}
		}
	}
	for _, k := range []string{"setup", "orders", "defence"} {
		if kinds[k] < 2 {
			t.Errorf("only %d %s sheets checked", kinds[k], k)
		}
	}
	t.Logf("sheets checked: %v; the largest %d bytes", kinds, largest)
}

// TestOrderSheetFog: the sheet is byte for byte the same when what its
// reader may not see changes: the enemy's standing instructions and the
// pending orders' hidden parts (IW26).
func TestOrderSheetFog(t *testing.T) {
	n := 0
	for seed := uint64(20); seed < 20+uint64(*fogGames); seed++ {
		ps, evs := randomGame(t, seed, func(s iw.Side, turn int) bool { return (turn+int(seed))%2 == 0 })
		for i, p := range ps {
			for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
				_, a, _ := sheetOf(t, p, side, evs[i])
				_, b, _ := sheetOf(t, hidden(p, side, i+1), side, evs[i])
				if !bytes.Equal(a, b) {
					t.Fatalf("seed %d position %d: the %s sheet changes with what it may not see", seed, i, side)
				}
				if a != nil {
					n++
				}
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d sheets checked", n)
	}
}
