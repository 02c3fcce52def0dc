package island

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	iw "github.com/attu-pbem/attu/adjudicator/island"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/templates"
)

// hidden swaps what side may not see in p (IW26): the enemy's standing
// instructions and, when side is defending, the pending orders' parts the
// defender does not see before they are used.
func hidden(p *Position, side adjudicator.Side, n int) *Position {
	q := p.clone()
	enemy := ruleSide(side).Enemy()
	min := n
	q.Standing = map[iw.Side]oi.Standing{}
	for s, st := range p.Standing {
		q.Standing[s] = st
	}
	q.Standing[enemy] = oi.Standing{Ask: n%2 == 0, Defence: iw.Defence{
		FPF:     []iw.FPFPlan{{Protect: fmt.Sprintf("X%d", n), GSP: n, MinDifferential: &min}},
		Own:     iw.Instructions{Order: []string{"Y"}, Displace: map[string][]iw.Hex{"Z": {{Col: 1, Row: n}}}},
		Advance: n%3 == 0}}
	if p.Pending != nil && ruleSide(side) != p.Game.Phasing {
		pend := *p.Pending
		pend.Attacks = append([]iw.Attack(nil), p.Pending.Attacks...)
		for k := range pend.Attacks {
			pend.Attacks[k].Advance = []iw.Advance{{Unit: "W", To: iw.Hex{Col: 2, Row: n}}}
			pend.Attacks[k].Removals = []string{"V"}
		}
		pend.Own = iw.Instructions{Retreats: map[string]iw.RetreatPlan{"U": {Toward: &iw.Hex{Col: 3, Row: 3}}}}
		q.Pending = &pend
	}
	return q
}

// TestFog: every report, template and picture of a side is byte for byte
// the same when what it may not see is changed, over every position of
// many random games with defence waits.
func TestFog(t *testing.T) {
	checked, turns := 0, 0
	for seed := uint64(20); seed < 20+uint64(*fogGames); seed++ {
		ps, evs := randomGame(t, seed, func(s iw.Side, turn int) bool { return (turn+int(seed))%2 == 0 })
		turns += ps[len(ps)-1].Game.Turn
		for i, p := range ps {
			for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
				a := reportFor(p, side, evs[i])
				b := reportFor(hidden(p, side, i+1), side, evs[i])
				ra, err := Rules{}.Report(a)
				if err != nil {
					t.Fatal(err)
				}
				rb, err := Rules{}.Report(b)
				if err != nil {
					t.Fatal(err)
				}
				if ra.Text != rb.Text || ra.Template != rb.Template || !bytes.Equal(ra.JSON, rb.JSON) || ra.Subject != rb.Subject || ra.PictureKey != rb.PictureKey {
					t.Fatalf("seed %d position %d: the %s report changes with what it may not see:\n%s\n---\n%s\n%s\n---\n%s", seed, i, side, ra.Text, rb.Text, ra.Template, rb.Template)
				}
				if i%7 == 0 {
					pa, _ := Rules{}.Picture(a)
					pb, _ := Rules{}.Picture(b)
					if !bytes.Equal(pa, pb) {
						t.Fatalf("seed %d position %d: the %s picture changes with what it may not see", seed, i, side)
					}
				}
				checked++
			}
		}
	}
	t.Logf("%d games, %d Game-Turns, %d positions: %d reports and templates alike whatever the enemy hid", *fogGames, turns, checked/2, checked)
	if checked < 200 {
		t.Fatalf("only %d reports checked", checked)
	}
}

// goldenGame plays a fixed game far enough for a report with attacks,
// and returns its positions and events.
func goldenGame(t testing.TB) ([]*Position, [][]json.RawMessage) {
	return randomGame(t, 4, func(s iw.Side, turn int) bool { return s == iw.Japan })
}

// TestReportGolden holds each side's report, template and report.json at
// a set-up, a Player-Turn's orders, a defence wait and the end to their
// golden files.
func TestReportGolden(t *testing.T) {
	ps, evs := goldenGame(t)
	want := map[adjudicator.WaitKind]int{}
	for i, p := range ps {
		w := p.Wait()
		k := w.Kind
		if _, done := want[k]; done || (k == oi.WaitOrders && p.Game.Turn < 3) {
			continue
		}
		want[k] = i
		for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
			in := reportFor(p, side, evs[i])
			in.Ended = w.Over()
			r, err := Rules{}.Report(in)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("testdata/report-%s-%s", k, side)
			golden(t, name+".txt", []byte(r.Subject+"\n\n"+r.Text))
			golden(t, name+".json", r.JSON)
			if r.TemplateName != "" {
				golden(t, name+"-template.yaml", []byte(r.Template))
				// The template, its token filled in, is a file the game
				// accepts as it is.
				raw := strings.Replace(r.Template, TokenPlaceholder, "t", 1)
				o, err := Rules{}.Read([]byte(raw))
				if err != nil {
					t.Fatalf("%s template does not read: %v", name, err)
				}
				if ps := (Rules{}).Check(p, o); len(ps) > 0 {
					t.Fatalf("%s template refused: %v", name, ps)
				}
			}
			if (r.TemplateName != "") != (w.Open() && w.Side == side) {
				t.Errorf("%s: template %q for a game waiting for %v", name, r.TemplateName, w)
			}
		}
	}
	for _, k := range []adjudicator.WaitKind{oi.WaitSetup, oi.WaitOrders, oi.WaitDefence, adjudicator.WaitEnded} {
		if _, ok := want[k]; !ok {
			t.Errorf("the game never waited for %q", k)
		}
	}
}

// TestPicture draws a position: a PNG as wide as the map, the same bytes
// each time, held to its golden file.
func TestPicture(t *testing.T) {
	ps, evs := goldenGame(t)
	p := ps[len(ps)/2]
	b, err := Rules{}.Picture(reportFor(p, adjudicator.US, evs[len(ps)/2]))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w < 12*45 {
		t.Errorf("picture %d pixels wide for 12 columns", w)
	}
	golden(t, "testdata/picture.png", b)
}

// TestLogAndReplay words a whole game's log for a side and draws its
// replay page with every entry, event and die.
func TestLogAndReplay(t *testing.T) {
	ps, evs := goldenGame(t)
	var items []templates.LogItem
	r := &templates.Replay{Game: "g1", Scenario: DefaultScenario, Commitment: "c0ffee", Seed: "5eed", Head: "head"}
	die := uint64(1)
	for i := range ps {
		items = append(items, templates.LogItem{Seq: uint64(i + 1), Events: evs[i]})
		en := templates.ReplayEntry{Hash: fmt.Sprintf("h%d", i), Events: evs[i], Position: ps[i], DiceFrom: die}
		en.Kind = "create"
		if i > 0 {
			w := ps[i-1].Wait()
			en.Kind, en.Side, en.Wait, en.Turn = "orders", w.Side, w.Kind, w.Turn
		}
		for _, raw := range evs[i] {
			var ev iw.Event
			json.Unmarshal(raw, &ev)
			if ev.Kind == iw.EvCombat {
				r.Dice = append(r.Dice, templates.ReplayDie{Seq: die, Entry: uint64(i + 1), Faces: 6, Face: ev.Combat.Die})
				die++
			}
		}
		en.DiceTo = die
		r.Entries = append(r.Entries, en)
	}
	parts, err := Rules{}.LogParts(items, adjudicator.US, adjudicator.Wait{})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range parts {
		for _, l := range p.Events {
			lines = append(lines, fmt.Sprintf("%d: %s", p.Seq, l))
		}
	}
	golden(t, "testdata/log.txt", []byte(strings.Join(lines, "\n")+"\n"))
	page, err := Rules{}.ReplayPage(r)
	if err != nil {
		t.Fatal(err)
	}
	_, markup, js, err := templates.Unpack(page)
	if err != nil {
		t.Fatal(err)
	}
	if frame := templates.ReplayScript(""); !strings.HasPrefix(js, frame) || len(js) == len(frame) {
		t.Error("the page's script is not its own after the frame's checks")
	}
	if n := strings.Count(string(markup), "<section"); n != len(ps) {
		t.Errorf("%d sections for %d entries", n, len(ps))
	}
	golden(t, "testdata/replay.html", markup)
	_ = os.Remove
}
