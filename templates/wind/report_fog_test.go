package wind

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/templates"
)

// artefacts is everything a U.S. report consists of, as bytes.
type artefacts struct {
	text, template, json, png, sheet []byte
}

func usArtefacts(t testing.TB, s *wind.State, evs []wind.Event) artefacts {
	t.Helper()
	a, _ := usReport(t, s, evs)
	return a
}

// usReport is usArtefacts with the report they were made from.
func usReport(t testing.TB, s *wind.State, evs []wind.Event) (artefacts, *Report) {
	t.Helper()
	rep := reportOf(t, step{s: s, events: evs}, adjudicator.US)
	all, err := rep.RenderWords()
	if err != nil {
		t.Fatal(err)
	}
	a := artefacts{text: []byte(all.Text), json: all.JSON}
	if a.png, err = rep.PNG(); err != nil {
		t.Fatal(err)
	}
	if all.TemplateName != "" {
		a.template = []byte(all.Template)
	}
	// The sheet as the browser unpacks it: its packed bytes are base64,
	// where any word may turn up by chance.
	if _, sheet, ok := rep.OrderSheet("attu+g1@example.org"); ok {
		css, markup, js, err := templates.Unpack(sheet)
		if err != nil {
			t.Fatal(err)
		}
		a.sheet = slices.Concat([]byte(css), markup, []byte(js))
	}
	return a, rep
}

var tableLine = regexp.MustCompile(`(?m)^  (U\d\d): \[[0-9, ]*\]$`)

// tableMixes are counter mixes whose Unknown tables are drawn at random:
// the tables are the counters' and only the Japanese may read them.
var tableMixes = sync.OnceValues(func() ([]*wind.Counters, error) {
	data, err := os.ReadFile("../../adjudicator/wind/data/counters.yaml")
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewSource(7))
	var out []*wind.Counters
	for range 4 {
		mixed := tableLine.ReplaceAllFunc(data, func(line []byte) []byte {
			id := tableLine.FindSubmatch(line)[1]
			var vals []string
			for range 10 {
				vals = append(vals, fmt.Sprint(1+r.Intn(3)))
			}
			return fmt.Appendf(nil, "  %s: [%s]", id, strings.Join(vals, ", "))
		})
		cs, err := wind.ParseCounters(mixed)
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
func scrambleHidden(t testing.TB, s *wind.State, r *rand.Rand) {
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
	var jp []*wind.Unit
	for _, u := range s.Units {
		if u.Side() == adjudicator.JP && !u.Captured {
			jp = append(jp, u)
			if r.Intn(3) == 0 {
				u.Acted = !u.Acted
				u.MPSpent = r.Intn(6)
			}
		}
	}
	hidden := func(u *wind.Unit) bool {
		return u.OnMap() && (u.FaceDown || u.Kind() == wind.Unknown)
	}
	offBox := func(u *wind.Unit) string {
		switch u.Kind() {
		case wind.Unknown:
			return wind.BoxOffMap
		case wind.Infantry:
			return []string{wind.BoxPool, wind.BoxEliminated}[r.Intn(2)]
		}
		return wind.BoxEliminated
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
		case hidden(a) && !b.OnMap() && b.Box != wind.BoxUnused,
			hidden(b) && !a.OnMap() && a.Box != wind.BoxUnused:
			on, off := a, b
			if !hidden(a) {
				on, off = b, a
			}
			off.Hex, off.Box, off.FaceDown, off.Melee = on.Hex, "", true, on.Melee
			on.Hex, on.Box, on.FaceDown, on.Melee = 0, offBox(on), false, 0
		case !a.OnMap() && !b.OnMap() && a.Box != wind.BoxUnused && b.Box != wind.BoxUnused:
			a.Box, b.Box = offBox(a), offBox(b)
		}
	}
}

// usSecretIDs are the ids of the Japanese units the U.S. may not identify
// now: face-down or Unknown on the map, and every one off it.
func usSecretIDs(s *wind.State) []string {
	var out []string
	for _, u := range s.Units {
		if u.Side() == adjudicator.JP && !u.Captured && (!u.OnMap() || u.FaceDown || u.Kind() == wind.Unknown) {
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

// faceDownIDs are the ids of the Japanese units face down on the map.
func faceDownIDs(s *wind.State) []string {
	var out []string
	for _, u := range s.Units {
		if u.Side() == adjudicator.JP && u.OnMap() && u.FaceDown {
			out = append(out, u.ID)
		}
	}
	return out
}

// pictureLabels is every text drawn on the report's picture: the title
// and the labels of the units in each hex.
func pictureLabels(rep *Report) []byte {
	out := []byte(rep.title())
	for _, h := range rep.View.Hexes() {
		for _, c := range rep.chipsAt(h) {
			out = append(append(out, ' '), c.s...)
		}
	}
	return out
}

var fogTurns = flag.Int("fogturns", 0, "turns of generated games TestUSReportsIgnoreHidden checks (0: 300, 40 with -short; .ci/run: 2,000)")

// fogTally counts what TestUSReportsIgnoreHidden compared.
type fogTally struct {
	// steps played, compared (one a turn); awaited: steps compared whose
	// U.S. report has an order template; differ: steps compared whose
	// scramble changed the Japanese view.
	games, turns, steps, compared, awaited, differ, artefacts int
}

func (a *fogTally) add(b fogTally) {
	a.games += b.games
	a.turns += b.turns
	a.steps += b.steps
	a.compared += b.compared
	a.awaited += b.awaited
	a.differ += b.differ
	a.artefacts += b.artefacts
}

// TestUSReportsIgnoreHidden proves the fog of war on the bytes:
// over more than 2,000 turns of generated games in .ci/run (-fogturns; 300
// in a plain run), after a step of each
// drawn at random, the U.S. report text, order template, order sheet, JSON
// and picture are the same, byte for byte (their SHA-256 compared), when what the U.S. may not know is
// scrambled; no U.S. artefact, nor any label drawn on its picture, names a
// Japanese unit face down; and apart from the events it was told, none
// names a Japanese unit the U.S. cannot identify now. Half the games start
// from a random deployment, half as players create them, from the setup
// waits of rule 12. The games are played on GOMAXPROCS workers.
func TestUSReportsIgnoreHidden(t *testing.T) {
	t.Parallel()
	wantTurns := 300
	switch {
	case *fogTurns > 0:
		wantTurns = *fogTurns
	case testing.Short():
		wantTurns = 40
	}
	var (
		mu    sync.Mutex
		total fogTally
		next  = int64(5000)
	)
	// seed hands out the next game while too few turns are done.
	seed := func(done fogTally) (int64, bool) {
		mu.Lock()
		defer mu.Unlock()
		total.add(done)
		if total.turns >= wantTurns {
			return 0, false
		}
		next++
		return next - 1, true
	}
	workers := runtime.GOMAXPROCS(0)
	t.Run("games", func(t *testing.T) {
		for w := range workers {
			t.Run(fmt.Sprint("worker-", w), func(t *testing.T) {
				t.Parallel()
				var done fogTally
				for {
					sd, ok := seed(done)
					if !ok {
						return
					}
					done = fogGame(t, sd)
				}
			})
		}
	})
	if t.Failed() {
		return
	}
	t.Logf("%d games, %d turns, %d steps played; in each turn one step compared: %d steps (%d with a U.S. order template), "+
		"%d artefacts; the scramble changed the Japanese view in %d", total.games, total.turns, total.steps, total.compared,
		total.awaited, total.artefacts, total.differ)
	if total.turns < wantTurns || total.compared != total.turns || total.awaited < total.compared/4 || total.differ < total.compared*9/10 {
		t.Fatalf("too few turns, templates or real scrambles: %+v", total)
	}
}

// fogGame plays generated game seed to its end and checks the U.S.
// artefacts after one step of each turn, drawn at random among the turn's
// steps (every kind of wait comes up: the setup, the decision, the refit
// orders and both sides' actions).
func fogGame(t *testing.T, seed int64) fogTally {
	t.Helper()
	r := rand.New(rand.NewSource(seed))
	var n fogTally
	// The step drawn in the current turn, kept with the position before it.
	var drawn, before *step
	var prev *wind.State
	inTurn := 0
	flush := func() {
		if drawn != nil {
			var b *wind.State
			if before != nil {
				b = before.s
			}
			checkFog(t, *drawn, b, r, &n)
			n.turns++
		}
		drawn, before, inTurn = nil, nil, 0
	}
	play := func(st step) bool {
		n.steps++
		if drawn != nil && st.s.Turn != drawn.s.Turn {
			flush()
		}
		// Reservoir sampling: the k-th step of a turn replaces the one
		// drawn with chance 1/k.
		inTurn++
		if r.Intn(inTurn) == 0 {
			drawn = &st
			before = nil
			if prev != nil {
				before = &step{s: prev}
			}
		}
		prev = st.s
		return true
	}
	// Odd seeds start from the setup waits; games run to their end.
	if seed%2 == 1 {
		playSetupGames(t, []int64{seed}, 400, play)
	} else {
		playGames(t, []int64{seed}, 400, play)
	}
	flush()
	n.games = 1
	return n
}

// checkFog checks the U.S. artefacts of one step: before is the position
// before it (nil for a game's opening).
func checkFog(t *testing.T, st step, before *wind.State, r *rand.Rand, n *fogTally) {
	t.Helper()
	evs := wind.VisibleEvents(st.events, adjudicator.US)
	a, rep := usReport(t, st.s, evs)
	what := fmt.Sprintf("seed %d step %d (%s)", st.seed, st.n, st.s.WaitText())
	// The position: no artefact, nor the picture's labels, names a
	// Japanese unit face down, nor any the U.S. cannot identify now.
	facedown := faceDownIDs(st.s)
	secrets := usSecretIDs(st.s)
	parts := withoutEvents(t, a)
	for _, c := range []struct {
		name string
		b    []byte
	}{{"text", parts[0]}, {"order template", parts[1]}, {"JSON", parts[2]}, {"picture", pictureLabels(rep)}, {"order sheet", a.sheet}} {
		if found := wordsIn(c.b, facedown); len(found) > 0 {
			t.Fatalf("%s: the U.S. %s names %v, face down:\n%s", what, c.name, found, c.b)
		}
		if found := wordsIn(c.b, secrets); len(found) > 0 {
			t.Fatalf("%s: the U.S. %s names %v, which the U.S. cannot identify:\n%s", what, c.name, found, c.b)
		}
	}
	// What happened: a unit face down now is named only if the U.S. saw
	// it face up during the step (3.9 turns units face down at the end of
	// a turn, in the U.S. player's sight).
	if told := append(wordsIn(a.text, facedown), wordsIn(a.json, facedown)...); len(told) > 0 {
		seen := seenFaceUp(before, st.events)
		for _, id := range told {
			if !seen[id] {
				t.Fatalf("%s: the U.S. report names %s, face down and never seen face up in the step:\n%s", what, id, a.text)
			}
		}
	}
	sums := a.sums()
	other := st.s.Clone()
	scrambleHidden(t, other, r)
	if !bytes.Equal(mustMarshal(t, st.s.View(adjudicator.JP)), mustMarshal(t, other.View(adjudicator.JP))) {
		n.differ++ // the scramble changed what the Japanese see
	}
	for i, sum := range usArtefacts(t, other, evs).sums() {
		if sum != sums[i] {
			t.Fatalf("%s: the U.S. %s changes with what the U.S. may not know", what, artefactNames[i])
		}
	}
	n.compared++
	n.artefacts += 3
	if a.template != nil {
		n.artefacts += 2 // the template and the order sheet
		n.awaited++
	}
}

// seenFaceUp returns the Japanese units the U.S. saw face up in a step:
// face up on the map before it, turned face up by firing in U.S. sight or
// for a melee, or placed face up for an Unknown unit (rule 2.5).
func seenFaceUp(before *wind.State, evs []wind.Event) map[string]bool {
	seen := map[string]bool{}
	if before != nil {
		for _, u := range before.Units {
			if u.Side() == adjudicator.JP && u.OnMap() && !u.FaceDown && u.Kind() != wind.Unknown {
				seen[u.ID] = true
			}
		}
	}
	for _, e := range evs {
		switch e.Kind {
		case wind.EventFiredFaceUp, wind.EventMeleeRevealed:
			for _, u := range e.Units {
				seen[u.ID] = true
			}
		case wind.EventConverted:
			for _, u := range e.Others {
				seen[u.ID] = true
			}
		}
	}
	return seen
}

var artefactNames = []string{"text", "order template", "JSON", "PNG", "order sheet"}

// sums are the SHA-256 of the artefacts, in the order of artefactNames.
func (a artefacts) sums() [5][sha256.Size]byte {
	return [5][sha256.Size]byte{sha256.Sum256(a.text), sha256.Sum256(a.template), sha256.Sum256(a.json), sha256.Sum256(a.png), sha256.Sum256(a.sheet)}
}

func mustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
