package wind

import (
	"flag"
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// listedUnit is what an order template lists for one unit, read back from
// its comments the way a player reads them.
type listedUnit struct {
	unit     string
	from     adjudicator.Hex
	moves    map[adjudicator.Hex]adjudicator.Hex // hex → the hex it is entered from (0: the start)
	melee    []adjudicator.Hex
	fire     []listedFire
	examples []string // the "#- " lines
}

type listedFire struct {
	target adjudicator.Hex
	text   string // the entry, its lines joined
}

func (f listedFire) list(re *regexp.Regexp) []string {
	if m := re.FindStringSubmatch(f.text); m != nil {
		return strings.Split(strings.TrimSpace(m[1]), ", ")
	}
	return nil
}

var (
	unitHead  = regexp.MustCompile(`^  # (\S+) in (\d{4}): `)
	moveItem  = regexp.MustCompile(`(\d{4}) \((\d+)(?: via (\d{4}))?\)`)
	meleeItem = regexp.MustCompile(`(\d{4}) \(`)
	fireHead  = regexp.MustCompile(`^  #   (\d{4}): (.*)$`)
	spotters  = regexp.MustCompile(`spotter: one of ([^;]+)`)
	targetIDs = regexp.MustCompile(`target_unit: one of ([^;]+)`)
)

// readTemplate reads the unit blocks of an actions template.
func readTemplate(t testing.TB, body string) []*listedUnit {
	t.Helper()
	var out []*listedUnit
	var cur *listedUnit
	section := ""
	hex := func(s string) adjudicator.Hex {
		h, err := adjudicator.ParseHex(s)
		if err != nil {
			t.Fatalf("template lists %q as a hex", s)
		}
		return h
	}
	for _, l := range strings.Split(body, "\n") {
		if m := unitHead.FindStringSubmatch(l); m != nil {
			cur = &listedUnit{unit: m[1], from: hex(m[2]), moves: map[adjudicator.Hex]adjudicator.Hex{}}
			out = append(out, cur)
			section = ""
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case strings.HasPrefix(l, "  #- "):
			cur.examples = append(cur.examples, l)
			section = ""
		case strings.HasPrefix(l, "  # Move to: "):
			section = "move"
		case strings.HasPrefix(l, "  # Declare melee against: "):
			section = "melee"
		case strings.HasPrefix(l, "  # Fire at:"):
			section = "fire"
			continue
		case strings.HasPrefix(l, "  #   "):
		default:
			section = ""
		}
		switch section {
		case "move":
			for _, m := range moveItem.FindAllStringSubmatch(l, -1) {
				var via adjudicator.Hex
				if m[3] != "" {
					via = hex(m[3])
				}
				cur.moves[hex(m[1])] = via
			}
		case "melee":
			for _, m := range meleeItem.FindAllStringSubmatch(strings.TrimPrefix(l, "  # Declare melee against: "), -1) {
				cur.melee = append(cur.melee, hex(m[1]))
			}
		case "fire":
			if m := fireHead.FindStringSubmatch(l); m != nil {
				cur.fire = append(cur.fire, listedFire{target: hex(m[1]), text: m[2]})
			} else if len(cur.fire) > 0 {
				cur.fire[len(cur.fire)-1].text += " " + strings.TrimSpace(strings.TrimPrefix(l, "  #"))
			}
		}
	}
	return out
}

// path follows the "via" chain of a listed move back to the unit.
func (lu *listedUnit) path(t testing.TB, to adjudicator.Hex) []adjudicator.Hex {
	t.Helper()
	p := []adjudicator.Hex{to}
	for h := to; lu.moves[h] != 0; h = lu.moves[h] {
		if _, ok := lu.moves[lu.moves[h]]; !ok || len(p) > 40 {
			t.Fatalf("%s: %s is entered via %s, which is not listed", lu.unit, h, lu.moves[h])
		}
		p = append([]adjudicator.Hex{lu.moves[h]}, p...)
	}
	return p
}

// randomOption returns one of the unit's listed choices as an activation,
// or false when it lists none.
func (lu *listedUnit) randomOption(t testing.TB, r *rand.Rand) (wind.Action, string, bool) {
	n := len(lu.moves) + len(lu.melee) + len(lu.fire)
	if n == 0 {
		return wind.Action{}, "", false
	}
	k := r.Intn(n)
	if k < len(lu.moves) {
		var dests []adjudicator.Hex
		for h := range lu.moves {
			dests = append(dests, h)
		}
		sortHexes(dests)
		p := lu.path(t, dests[k])
		return wind.Action{Move: &wind.Move{Unit: lu.unit, Path: p}}, "move", true
	}
	k -= len(lu.moves)
	if k < len(lu.melee) {
		return wind.Action{Melee: &wind.Melee{Units: []string{lu.unit}, Target: lu.melee[k]}}, "melee", true
	}
	f := lu.fire[k-len(lu.melee)]
	fire := &wind.Fire{Units: []string{lu.unit}, Target: f.target}
	if sp := f.list(spotters); len(sp) > 0 {
		fire.Spotter = sp[r.Intn(len(sp))]
	}
	if ids := f.list(targetIDs); len(ids) > 0 {
		fire.TargetUnit = ids[r.Intn(len(ids))]
	}
	kind := "fire"
	if fire.Spotter != "" {
		kind = "spotted fire"
	}
	return wind.Action{Fire: fire}, kind, true
}

func sortHexes(hs []adjudicator.Hex) {
	for i := 1; i < len(hs); i++ {
		for j := i; j > 0 && hs[j] < hs[j-1]; j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
}

// checkOne judges a file holding one activation of side.
func checkOne(s *wind.State, side adjudicator.Side, a wind.Action) []wind.Problem {
	o := s.DefaultOrders()
	o.Side = side
	o.Actions = []wind.Action{a}
	return wind.CheckOrders(s, o)
}

// parseAccepted parses an orders file and judges it in s.
func parseAccepted(t testing.TB, s *wind.State, what, body string) *windorders.File {
	t.Helper()
	f, err := windorders.Parse([]byte(body), windorders.Options{})
	if err != nil {
		t.Fatalf("%s does not parse:\n%v\n%s", what, err, body)
	}
	if ps := wind.CheckOrders(s, f.Orders()); len(ps) > 0 {
		t.Fatalf("%s is refused: %v\n%s", what, f.Problems(ps), body)
	}
	return f
}

// templateGames is how many generated games TestOrderTemplatesOfGeneratedGames
// plays; .ci/run asks for 200.
var templateGames = flag.Int("templategames", 0, "generated games TestOrderTemplatesOfGeneratedGames plays (0: 30, 10 with -short)")

// TestOrderTemplatesOfGeneratedGames checks the order template of every
// report of generated games (200 in .ci/run), half of them from the setup waits of rule
// 12: it parses and, sent unchanged, is accepted and does nothing (at the
// setup waits: is the default orders); for each unit one choice it lists,
// taken at random and written as a player would from the comments, is
// accepted (a hex to set up in, a zone to land at, a move, a melee, a
// fire); a random one of its ready-made lines, uncommented, is accepted;
// and its standing instructions, uncommented, change nothing.
func TestOrderTemplatesOfGeneratedGames(t *testing.T) {
	t.Parallel()
	games := 30
	switch {
	case *templateGames > 0:
		games = *templateGames
	case testing.Short():
		games = 10
	}
	r := rand.New(rand.NewSource(1))
	tally := map[string]int{}
	// Half the games start from a random deployment, half as players
	// create them, from the setup waits of rule 12.
	play := func(seeds []int64, steps int, f func(st step) bool) {
		playGames(t, seeds[:len(seeds)/2], steps, f)
		playSetupGames(t, seeds[len(seeds)/2:], steps+2, f)
	}
	play(seedsFrom(1000, games), 6, func(st step) bool {
		side := awaitedSide(st.s)
		if side == adjudicator.NoSide {
			return true
		}
		rep := reportOf(t, st, side)
		name, body, ok := rep.OrderTemplate()
		what := fmt.Sprintf("seed %d step %d: %s", st.seed, st.n, name)
		if !ok {
			t.Fatalf("%s: no template for the side awaited", what)
		}
		checkColumns(t, what, body)
		f := parseAccepted(t, st.s, what, body)
		if o := f.Orders(); isSetupWait(waitKind(st.s)) {
			// The setup orders stand as the default the game applies.
			def := st.s.DefaultOrders()
			if !reflect.DeepEqual(o.JPSetup, def.JPSetup) || !reflect.DeepEqual(o.Landing, def.Landing) || o.Standing != nil {
				t.Fatalf("%s is not the default orders as it stands: %+v, want %+v", what, o, def)
			}
		} else if len(o.Actions) != 0 || o.Standing != nil || (o.Decision != nil && *o.Decision != wind.Decision{}) {
			t.Fatalf("%s does something as it stands: %+v", what, o)
		}
		tally["templates"]++
		tally["templates "+string(waitKind(st.s))]++

		// The standing instructions, uncommented, are those in force.
		at := strings.Index(body, "\n#standing:\n")
		if at < 0 {
			t.Fatalf("%s has no standing instructions", what)
		}
		std := body[:at] + strings.NewReplacer("\n#standing:", "\nstanding:", "\n#  ", "\n  ").Replace(body[at:])
		if f := parseAccepted(t, st.s, what+" with standing: uncommented", std); !reflect.DeepEqual(
			st.s.Standing(side), st.s.Standing(side).Merge(*f.Standing)) {
			t.Fatalf("%s: the standing instructions listed are not those in force", what)
		}

		switch waitKind(st.s) {
		case wind.WaitJPSetup:
			checkSetupTemplate(t, st.s, what, body, r, tally)
			return true
		case wind.WaitUSLanding:
			checkLandingTemplate(t, st.s, what, body, r, tally)
			return true
		}
		if k := waitKind(st.s); k == wind.WaitUSRefit || k == wind.WaitJPRefit {
			checkRefitTemplate(t, st.s, what, body, r, tally)
			return true
		}
		if waitKind(st.s) == wind.WaitUSDecision {
			night := strings.Replace(body, "  night: false", "  night: true", 1)
			if f := parseAccepted(t, st.s, what+" at night", night); !f.Decision.Night {
				t.Fatalf("%s: night: true is not read", what)
			}
			return true
		}
		units := readTemplate(t, body)
		if len(units) != len(rep.Outlook.Options) {
			t.Fatalf("%s lists %d units, the side has %d on the map", what, len(units), len(rep.Outlook.Options))
		}
		var examples []string
		for _, lu := range units {
			examples = append(examples, lu.examples...)
			a, kind, ok := lu.randomOption(t, r)
			if !ok {
				continue
			}
			if ps := checkOne(st.s, side, a); len(ps) > 0 {
				t.Fatalf("%s: %s lists a %s that is refused: %v", what, lu.unit, kind, ps)
			}
			tally[kind]++
		}
		if len(examples) > 0 {
			ex := examples[r.Intn(len(examples))]
			parseAccepted(t, st.s, what+" with "+strings.TrimSpace(ex)+" uncommented",
				strings.Replace(body, ex, strings.Replace(ex, "  #- ", "  - ", 1), 1))
			tally["example lines"]++
		}
		return true
	})
	t.Logf("checked: %v", tally)
	if tally["refit templates"] == 0 || tally["refit items"] == 0 {
		t.Errorf("no refit template checked: %v", tally)
	}
	// The few games of -short may have no value chits to place.
	if tally["templates jp-setup"] < games/20 || tally["templates us-landing"] < games/10 || tally["placements"] == 0 ||
		(tally["value chits"] == 0 && !testing.Short()) || tally["landings"] == 0 || tally["delays"] == 0 {
		t.Errorf("too few setup templates or choices checked: %v", tally)
	}
	if tally["templates"] < games*4 || tally["move"] < games || tally["melee"] == 0 || tally["fire"] == 0 || tally["spotted fire"] == 0 {
		t.Errorf("too few choices of some kind checked: %v", tally)
	}
}

// checkRefitTemplate takes one random choice of a refit template the way
// its comments say: refit: {} deleted, refit:, the part and the line
// uncommented; the file must be accepted.
func checkRefitTemplate(t *testing.T, s *wind.State, what, body string, r *rand.Rand, tally map[string]int) {
	t.Helper()
	tally["refit templates"]++
	lines := strings.Split(body, "\n")
	var items []int
	for i, l := range lines {
		if strings.HasPrefix(l, "#    - ") {
			items = append(items, i)
		}
	}
	if len(items) == 0 {
		return
	}
	k := items[r.Intn(len(items))]
	head := k
	for !strings.HasPrefix(lines[head], "#  ") || strings.HasPrefix(lines[head], "#    ") || strings.HasPrefix(lines[head], "#  #") {
		head--
	}
	var out []string
	for i, l := range lines {
		switch {
		case l == "refit: {}":
			continue
		case l == "#refit:", i == head, i == k:
			l = strings.TrimPrefix(l, "#")
		}
		out = append(out, l)
	}
	choice := strings.TrimSpace(lines[head]) + " " + strings.TrimSpace(lines[k])
	f := parseAccepted(t, s, what+" with "+choice, strings.Join(out, "\n"))
	if f.Orders().Refit == nil && f.Orders().Rearrange == nil {
		t.Fatalf("%s: %s orders nothing", what, choice)
	}
	tally["refit items"]++
}
