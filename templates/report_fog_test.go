package templates

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// artefacts is everything a U.S. report consists of, as bytes.
type artefacts struct {
	text, template, json, png []byte
}

func usArtefacts(t testing.TB, s *adjudicator.State, evs []adjudicator.Event) artefacts {
	t.Helper()
	rep := reportOf(t, step{s: s, events: evs}, adjudicator.US)
	all, err := rep.Render()
	if err != nil {
		t.Fatal(err)
	}
	a := artefacts{text: []byte(all.Text), json: all.JSON, png: all.PNG}
	if all.TemplateName != "" {
		a.template = []byte(all.Template)
	}
	return a
}

var tableLine = regexp.MustCompile(`(?m)^  (U\d\d): \[[0-9, ]*\]$`)

// tableMixes are counter mixes whose Unknown tables are drawn at random:
// the tables are the counters' and only the Japanese may read them.
var tableMixes = sync.OnceValues(func() ([]*adjudicator.Counters, error) {
	data, err := os.ReadFile("../adjudicator/data/counters.yaml")
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewSource(7))
	var out []*adjudicator.Counters
	for range 4 {
		mixed := tableLine.ReplaceAllFunc(data, func(line []byte) []byte {
			id := tableLine.FindSubmatch(line)[1]
			var vals []string
			for range 10 {
				vals = append(vals, fmt.Sprint(1+r.Intn(3)))
			}
			return fmt.Appendf(nil, "  %s: [%s]", id, strings.Join(vals, ", "))
		})
		cs, err := adjudicator.ParseCounters(mixed)
		if err != nil {
			return nil, err
		}
		out = append(out, cs)
	}
	return out, nil
})

// scrambleHidden changes, in s, what the U.S. may not know, keeping every
// hex's counters where they are: which Japanese units stand face down in
// each hex (face-down units trade hexes, and trade places with units off
// the map), the pool, eliminated and set-aside boxes, the Unknown tables,
// the Japanese units' activation, and the Komandorski chits not yet
// revealed. Face-up Japanese units and everything U.S. stay.
func scrambleHidden(t testing.TB, s *adjudicator.State, r *rand.Rand) {
	t.Helper()
	mixes, err := tableMixes()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Attach(s.Map(), mixes[r.Intn(len(mixes))]); err != nil {
		t.Fatal(err)
	}
	if !s.Komandorski.EffectRevealed {
		s.Komandorski.Effect = []int{24, 27, 30}[r.Intn(3)]
	}
	if !s.Komandorski.DelayRevealed {
		s.Komandorski.Delay = 1 + r.Intn(4)
	}
	var jp []*adjudicator.Unit
	for _, u := range s.Units {
		if u.Side() == adjudicator.JP && !u.Captured {
			jp = append(jp, u)
			if r.Intn(3) == 0 {
				u.Acted = !u.Acted
				u.MPSpent = r.Intn(6)
			}
		}
	}
	hidden := func(u *adjudicator.Unit) bool {
		return u.OnMap() && (u.FaceDown || u.Kind() == adjudicator.Unknown)
	}
	offBox := func(u *adjudicator.Unit) string {
		switch u.Kind() {
		case adjudicator.Unknown:
			return adjudicator.BoxOffMap
		case adjudicator.Infantry:
			return []string{adjudicator.BoxPool, adjudicator.BoxEliminated}[r.Intn(2)]
		}
		return adjudicator.BoxEliminated
	}
	for range 1 + r.Intn(40) {
		a, b := jp[r.Intn(len(jp))], jp[r.Intn(len(jp))]
		switch {
		case a == b:
		case hidden(a) && hidden(b):
			// Each stays hidden: a face-down unit stays face down, an
			// Unknown unit is anonymous either way.
			a.Hex, b.Hex = b.Hex, a.Hex
			a.Melee, b.Melee = b.Melee, a.Melee
		case hidden(a) && !b.OnMap() && b.Box != adjudicator.BoxUnused,
			hidden(b) && !a.OnMap() && a.Box != adjudicator.BoxUnused:
			on, off := a, b
			if !hidden(a) {
				on, off = b, a
			}
			off.Hex, off.Box, off.FaceDown, off.Melee = on.Hex, "", true, on.Melee
			on.Hex, on.Box, on.FaceDown, on.Melee = 0, offBox(on), false, 0
		case !a.OnMap() && !b.OnMap() && a.Box != adjudicator.BoxUnused && b.Box != adjudicator.BoxUnused:
			a.Box, b.Box = offBox(a), offBox(b)
		}
	}
}

// usSecretIDs are the ids of the Japanese units the U.S. may not identify
// now: face-down or Unknown on the map, and every one off it.
func usSecretIDs(s *adjudicator.State) []string {
	var out []string
	for _, u := range s.Units {
		if u.Side() == adjudicator.JP && !u.Captured && (!u.OnMap() || u.FaceDown || u.Kind() == adjudicator.Unknown) {
			out = append(out, u.ID)
		}
	}
	return out
}

// wordsIn returns the words of secrets that occur in out as whole words:
// J01 is not found in J010.
func wordsIn(out []byte, secrets []string) []string {
	word := func(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	var found []string
	for _, sec := range secrets {
		for i := 0; ; {
			j := bytes.Index(out[i:], []byte(sec))
			if j < 0 {
				break
			}
			j += i
			end := j + len(sec)
			if (j == 0 || !word(out[j-1])) && (end == len(out) || !word(out[end])) {
				found = append(found, sec)
				break
			}
			i = j + 1
		}
	}
	return found
}

// withoutEvents cuts what happened out of the artefacts: the events may
// name a unit the U.S. saw before it turned face down (3.9) or died, which
// the player was told at the time. Everything else is built from the
// position and must name no unit the U.S. cannot identify now.
func withoutEvents(t testing.TB, a artefacts) [][]byte {
	t.Helper()
	text := string(a.text)
	i, j := strings.Index(text, "WHAT HAPPENED SINCE YOUR LAST REPORT"), strings.Index(text, "\nTHE ISLAND\n")
	if i < 0 || j < i {
		t.Fatal("the report has no events section before the map")
	}
	var doc map[string]any
	if err := json.Unmarshal(a.json, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "steps")
	js, _ := json.Marshal(doc)
	return [][]byte{[]byte(text[:i] + text[j:]), a.template, js}
}

// TestUSReportsIgnoreHidden proves the fog of war on the bytes (DESIGN 4):
// over more than 2,000 resolved steps of generated games, the U.S. report
// text, order template, JSON and picture are the same, byte for byte, when
// what the U.S. may not know is scrambled; and apart from the events it was
// told, no U.S. artefact names a Japanese unit it cannot identify now.
func TestUSReportsIgnoreHidden(t *testing.T) {
	t.Parallel()
	want := 2000
	if testing.Short() {
		want = 50
	}
	r := rand.New(rand.NewSource(1))
	steps, awaited, differ := 0, 0, 0
	for seed := int64(5000); steps < want; seed++ {
		playGames(t, []int64{seed}, 14, func(st step) bool {
			evs := adjudicator.VisibleEvents(st.events, adjudicator.US)
			a := usArtefacts(t, st.s, evs)
			other := st.s.Clone()
			scrambleHidden(t, other, r)
			if !bytes.Equal(mustMarshal(t, st.s.View(adjudicator.JP)), mustMarshal(t, other.View(adjudicator.JP))) {
				differ++ // the scramble changed what the Japanese see
			}
			b := usArtefacts(t, other, evs)
			what := fmt.Sprintf("seed %d step %d (%s)", st.seed, st.n, st.s.WaitText())
			for _, c := range []struct {
				name string
				x, y []byte
			}{{"text", a.text, b.text}, {"order template", a.template, b.template}, {"JSON", a.json, b.json}, {"PNG", a.png, b.png}} {
				if !bytes.Equal(c.x, c.y) {
					t.Fatalf("%s: the U.S. %s changes with what the U.S. may not know", what, c.name)
				}
			}
			secrets := usSecretIDs(st.s)
			for _, part := range withoutEvents(t, a) {
				if found := wordsIn(part, secrets); len(found) > 0 {
					t.Fatalf("%s: a U.S. artefact names %v, which the U.S. cannot identify:\n%s", what, found, part)
				}
			}
			if a.template != nil {
				awaited++
			}
			steps++
			return steps < want
		})
	}
	t.Logf("%d steps compared, %d with a U.S. order template; the scramble changed the Japanese view in %d", steps, awaited, differ)
	if awaited < steps/4 || differ < steps*9/10 {
		t.Fatalf("too few templates (%d) or real scrambles (%d) in %d steps", awaited, differ, steps)
	}
}

func mustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
