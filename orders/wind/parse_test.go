package wind

import (
	"errors"
	"github.com/attu-pbem/attu/orders"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

const envelope1 = "game: attu-1\nside: us\nturn: 1\nwait: actions\ntoken: t\n"

// TestParseExamples parses every example a player may copy and checks that
// each shows what its name promises.
func TestParseExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/orders/*.yaml")
	if len(files) == 0 {
		t.Fatal("no example order files")
	}
	shows := map[string]func(*File) bool{
		"move.yaml":  func(f *File) bool { return anyAction(f, func(a Action) bool { return a.Move != nil }) },
		"fire.yaml":  func(f *File) bool { return anyAction(f, func(a Action) bool { return a.Fire != nil }) },
		"melee.yaml": func(f *File) bool { return anyAction(f, func(a Action) bool { return a.Melee != nil }) },
		"air.yaml":   func(f *File) bool { return anyAction(f, func(a Action) bool { return a.Air != nil }) },
		"yamasaki.yaml": func(f *File) bool {
			return f.Side == wind.JP && anyAction(f, func(a Action) bool { return a.Yamasaki != nil })
		},
		"decision.yaml": func(f *File) bool { return f.Decision != nil && f.Decision.Night && f.Standing != nil },
		"standing.yaml": func(f *File) bool { return len(f.Actions) == 0 && f.Standing != nil },
		"us-refit.yaml": func(f *File) bool {
			r := f.Refit
			return f.Wait == wind.WaitUSRefit && r != nil && len(r.Restore) > 0 && len(r.Land) > 0 && len(r.Independents) > 0 && len(r.Depots) > 0
		},
		"jp-refit.yaml": func(f *File) bool {
			r := f.Rearrange
			return f.Wait == wind.WaitJPRefit && f.Side == wind.JP && r != nil && len(r.Hide) > 0 && len(r.Moves) > 0 && len(r.Swaps) > 0
		},
		"jp-setup.yaml": func(f *File) bool {
			return f.Wait == wind.WaitJPSetup && f.JPSetup != nil && len(f.JPSetup.Place) > 0 && len(f.JPSetup.VP) > 0
		},
		"us-landing.yaml": func(f *File) bool {
			return f.Wait == wind.WaitUSLanding && f.Landing != nil && len(f.Landing.Land) > 0 && !f.Landing.Delay
		},
		"decision-refit.yaml": func(f *File) bool {
			return f.Decision != nil && f.Decision.Refit && f.Refit != nil && len(f.Refit.Restore) > 0 && len(f.Refit.Land) > 0
		},
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Parse(data, Options{})
			if err != nil {
				t.Fatalf("example does not parse:\n%v", err)
			}
			show, ok := shows[filepath.Base(name)]
			if !ok {
				t.Fatal("a new example: say in TestParseExamples what it shows")
			}
			if !show(f) {
				t.Errorf("example does not show what its name says: %+v", f.Orders())
			}
		})
	}
}

// anyAction reports whether one of f's activations satisfies is.
func anyAction(f *File, is func(Action) bool) bool {
	for _, a := range f.Actions {
		if is(a) {
			return true
		}
	}
	return false
}

func TestParseMove(t *testing.T) {
	src := envelope1 + `actions:
  - move: {unit: 1/17-A, path: [2720, 2719]}
  - move:
      unit: 1/17-B
      path:
        - 2720
`
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := f.Orders()
	if o.Side != wind.US || o.Turn != 1 || o.Wait != "actions" || len(o.Actions) != 2 {
		t.Fatalf("orders = %+v", o)
	}
	m := o.Actions[0].Move
	if m.Unit != "1/17-A" || len(m.Path) != 2 || m.Path[1] != 2719 {
		t.Fatalf("move = %+v", m)
	}
	cases := []struct {
		p         wind.Problem
		line, col int
	}{
		{wind.Problem{Action: 0, Step: 1}, 7, 39},
		{wind.Problem{Action: 0, Step: -1}, 7, 5},
		{wind.Problem{Action: 1, Step: 0}, 11, 11},
		{wind.Problem{Action: -1, Step: -1}, 1, 1},
		{wind.Problem{Action: 7, Step: 0}, 1, 1},
	}
	for _, c := range cases {
		if l, col := f.Locate(c.p); l != c.line || col != c.col {
			t.Errorf("Locate(%+v) = %d:%d, want %d:%d", c.p, l, col, c.line, c.col)
		}
	}
	errs := f.Problems([]wind.Problem{{Action: 0, Step: 1, Msg: "costs 4 MP, 3 left"}})
	if got := errs.Error(); got != "7:39: costs 4 MP, 3 left" {
		t.Errorf("Problems = %q", got)
	}
	if l, c := f.Field("turn"); l != 3 || c != 1 {
		t.Errorf("Field(turn) = %d:%d", l, c)
	}
}

func TestParseFire(t *testing.T) {
	src := envelope1 + "actions:\n  - fire: {units: [105-1], target: 2717, spotter: 2/32-E, target_unit: J12}\n"
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	fi := f.Orders().Actions[0].Fire
	if fi == nil || fi.Target != 2717 || fi.Spotter != "2/32-E" || fi.TargetUnit != "J12" || len(fi.Units) != 1 {
		t.Fatalf("fire = %+v", fi)
	}
}

func TestParseCaseOptions(t *testing.T) {
	f, err := Parse([]byte("side: jp\nactions: []\n"), Options{Case: true})
	if err != nil {
		t.Fatal(err)
	}
	if f.Wait != "actions" || f.Turn != 0 || f.Side != wind.JP {
		t.Fatalf("file = %+v", f)
	}
	if _, err := Parse([]byte("side: jp\nactions: []\n"), Options{}); err == nil {
		t.Fatal("mailed orders without game, token and turn accepted")
	}
}

// TestParseErrors checks one mistake of each kind: the message a player gets
// and where it points.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // "line:col: substring", in order
	}{
		{"empty", "", []string{"1:1: the file is empty"}},
		{"comments only", "# nothing\n\n", []string{"1:1: the file is empty"}},
		{"not a mapping", "- move: {}\n", []string{"1:1: the file must be key: value lines"}},
		{"scalar", "hello\n", []string{"1:1: the file must be key: value lines"}},
		{"unknown field", envelope1 + "actions: []\ncolour: red\n", []string{`7:1: unknown field "colour" here`}},
		{"misspelt field", "game: g\nsied: us\nturn: 1\ntoken: t\nactions: []\n", []string{`1:1: side is missing`, `2:1: unknown field "sied" here (did you mean "side"?)`}},
		{"unknown field in move", envelope1 + "actions:\n  - move: {unit: 1/17-A, paht: [2720]}\n", []string{`7:26: unknown field "paht" in move (did you mean "path"?)`}},
		{"duplicate key", envelope1 + "side: jp\nactions: []\n", []string{`6:1: "side" is given twice (first at line 2)`}},
		{"duplicate key in move", envelope1 + "actions:\n  - move: {unit: A, unit: B, path: [2720]}\n", []string{`7:21: "unit" is given twice`}},
		{"tab", "game: g\nside: us\n\tturn: 1\n", []string{"3:1: a tab is used for indentation"}},
		{"two tabs", "game: g\n\tside: us\n\tturn: 1\n", []string{"2:1: a tab", "3:1: a tab"}},
		{"alias", envelope1 + "actions:\n  - move: &m {unit: 1/17-A, path: [2720]}\n  - move: *m\n", []string{"8:11: aliases (*m) are not allowed"}},
		{"alias bomb", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n", []string{"2:8: aliases"}},
		{"two documents", envelope1 + "actions: []\n---\nside: jp\n", []string{"7:1: the file holds more than one YAML document"}},
		{"too large", "side: us\n#" + strings.Repeat("x", orders.MaxSize) + "\n", []string{"1:1: the file is"}},
		{"too deep", "a: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n", []string{"1:35: the file nests lists and mappings more than 32 deep"}},
		{"far too deep", "a: " + strings.Repeat("[", 20000) + "\n", []string{"1:1: the file nests lists and mappings far too deep"}},
		{"not utf8", "side: us\ngame: \xff\n", []string{"2:7: the file is not UTF-8"}},
		{"bad indentation", "game: g\nside: us\n  turn: 1\n", []string{"3:1: a \"key: value\" is not allowed here"}},
		{"unclosed bracket", envelope1 + "actions:\n  - move: {unit: A, path: [2720}\n", []string{"6:1: a [list] is not closed"}},
		{"unclosed quote", "game: 'g\nside: us\n", []string{"3:1: the file ends inside a quoted value"}},
		{"bad side", "game: g\nside: usa\nturn: 1\ntoken: t\nactions: []\n", []string{`2:7: side: side "usa": want us, jp or umpire`}},
		{"bad turn", "game: g\nside: us\nturn: first\ntoken: t\nactions: []\n", []string{`3:7: turn: want a whole number, got "first"`}},
		{"zero turn", "game: g\nside: us\nturn: 0\ntoken: t\nactions: []\n", []string{`3:1: turn: turns start at 1`}},
		{"setup wait for the other side", "game: g\nside: us\nturn: 1\nwait: jp-setup\ntoken: t\nactions: []\n", []string{"1:1: setup is missing: list under setup: place:", `4:1: wait: jp-setup orders come from the Japanese player; the U.S. player answers wait: us-landing`, "6:1: actions: the setup holds no activations"}},
		{"setup word", "game: g\nside: us\nturn: 1\nwait: landing\ntoken: t\n", []string{`4:1: wait: the orders before the first turn are wait: jp-setup (the Japanese setup) and wait: us-landing (the U.S. landing)`}},
		{"refit for a side", "game: g\nside: us\nturn: 1\nwait: refit\ntoken: t\nactions: []\n", []string{`4:1: wait: the orders of a refit turn are wait: us-refit (U.S.) and wait: jp-refit (Japanese)`}},
		{"misspelt wait", "game: g\nside: us\nturn: 1\nwait: acions\ntoken: t\nactions: []\n", []string{`4:1: wait: "acions" is not a kind of orders (did you mean "actions"?); attu takes actions orders`}},
		{"unknown wait", "game: g\nside: us\nturn: 1\nwait: banzai\ntoken: t\n", []string{`4:1: wait: "banzai" is not a kind of orders; attu takes`}},
		{"missing envelope", "actions: []\n", []string{"1:1: game is missing", "1:1: token is missing", "1:1: turn is missing", "1:1: side is missing"}},
		{"missing actions", envelope1, []string{"1:1: actions is missing"}},
		{"actions not a list", envelope1 + "actions: move\n", []string{`6:10: actions: want a list of activations`}},
		{"activation not a mapping", envelope1 + "actions:\n  - move\n", []string{`7:5: activation 1: want one order`}},
		{"two orders in one activation", envelope1 + "actions:\n  - move: {unit: A, path: [2720]}\n    fire: {units: [B], target: 2717}\n", []string{`8:5: activation 1 holds more than one order (move and fire)`}},
		{"unknown order", envelope1 + "actions:\n  - mvoe: {unit: A, path: [2720]}\n", []string{`7:5: activation 1: unknown order "mvoe" (did you mean "move"?)`}},
		{"unknown order far from any", envelope1 + "actions:\n  - charge: {}\n", []string{`7:5: activation 1: unknown order "charge"; want move, fire, melee, air or yamasaki`}},
		{"fire unit twice", envelope1 + "actions:\n  - fire: {units: [B, C, B], target: 2717}\n", []string{`7:26: fire: B is listed twice in units (first at line 7)`}},
		{"bad hex", envelope1 + "actions:\n  - move: {unit: A, path: [2720, 27x9, 271]}\n", []string{`7:34: move.path[1]: "27x9" is not a hex`, `7:40: move.path[2]: "271" is not a hex`}},
		{"path not a list", envelope1 + "actions:\n  - move: {unit: A, path: 2720}\n", []string{`7:27: move.path: want a list, got "2720"`}},
		{"move without unit and path", envelope1 + "actions:\n  - move: {}\n", []string{"7:11: move needs unit", "7:11: move needs path"}},
		{"move as a list", envelope1 + "actions:\n  - move: [A, 2720]\n", []string{"7:11: move: want a mapping"}},
		{"fire without units and target", envelope1 + "actions:\n  - fire: {spotter: B}\n", []string{"7:11: fire needs units", "7:11: fire needs target"}},
		{"fire units not a list of words", envelope1 + "actions:\n  - fire: {units: [[A]], target: 2717}\n", []string{"7:20: fire.units[0]: want a single value, got a list"}},
		{"several mistakes", envelope1 + "actions:\n  - move: {unit: A, path: [9]}\n  - fire: {units: [B]}\n  - jump: {}\n", []string{"7:28: move.path[0]", "8:11: fire needs target", "9:5: activation 3: unknown order"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantErrors(t, c.src, c.want) })
	}
}

// wantErrors parses src as mailed orders and checks that it is refused with
// exactly the mistakes in want, each "line:col: substring", in order.
func wantErrors(t *testing.T, src string, want []string) {
	t.Helper()
	_, err := Parse([]byte(src), Options{})
	if err == nil {
		t.Fatal("accepted")
	}
	var errs orders.Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error is %T, not Errors", err)
	}
	got := strings.Split(err.Error(), "\n")
	if len(got) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(got), len(want), err)
	}
	for i, w := range want {
		pos, sub, _ := strings.Cut(w, ": ")
		if !strings.HasPrefix(got[i], pos+":") || !strings.Contains(got[i], sub) {
			t.Errorf("error %d = %q, want %q", i, got[i], w)
		}
	}
	for _, e := range errs {
		if e.Line < 1 || e.Col < 1 {
			t.Errorf("error without a position: %+v", e)
		}
	}
}

// A problem an earlier activation brought about names that activation and
// its line, so that the player sees why an option the template listed
// was refused.
func TestMessageCitesTheEarlierLine(t *testing.T) {
	src := "game: g1\nside: us\nturn: 2\ntoken: x\nactions:\n" +
		"  - move: {unit: 2/32-E, path: [2620]}\n" +
		"  - fire: {units: [105-1], target: 2717, spotter: 2/32-E}\n"
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := wind.Problem{Action: 1, Step: -1, Msg: "spotter 2/32-E has no line of sight to 2717", Cause: 1}
	want := "spotter 2/32-E has no line of sight to 2717; 2/32-E moved on line 6, earlier in this file (activations are judged in the order written)"
	if got := f.Message(p); got != want {
		t.Errorf("Message = %q\nwant      %q", got, want)
	}
	p.Cause = 0
	if got := f.Message(p); got != p.Msg {
		t.Errorf("without a cause, Message = %q, want the problem's own words", got)
	}
	if errs := f.Problems([]wind.Problem{{Action: 1, Step: -1, Msg: "m", Cause: 1}}); len(errs) != 1 || errs[0].Line != 7 || !strings.Contains(errs[0].Msg, "on line 6") {
		t.Errorf("Problems = %v, want the fire's line 7 citing line 6", errs)
	}
}
