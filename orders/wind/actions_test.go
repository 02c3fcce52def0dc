package wind

import (
	"reflect"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

const envelopeJP = "game: attu-1\nside: jp\nturn: 4\nwait: actions\ntoken: t\n"

func TestParseMelee(t *testing.T) {
	src := envelope1 + `actions:
  - melee: {units: [1/17-A, 1/17-B], target: 2717}
  - melee:
      units:
        - 2/32-E
      target: 2618
`
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := f.Orders()
	want := []wind.Action{
		{Melee: &wind.Melee{Units: []string{"1/17-A", "1/17-B"}, Target: 2717}},
		{Melee: &wind.Melee{Units: []string{"2/32-E"}, Target: 2618}},
	}
	if !reflect.DeepEqual(o.Actions, want) {
		t.Fatalf("actions = %+v", o.Actions)
	}
	locate(t, f, []located{
		{wind.Problem{Action: 0, Step: -1}, 7, 5},
		{wind.Problem{Action: 0, Step: 1}, 7, 29},
		{wind.Problem{Action: 1, Step: 0}, 10, 11},
		{wind.Problem{Action: 1, Step: 1}, 8, 5},
	})
}

func TestParseAir(t *testing.T) {
	src := envelope1 + `actions:
  - move: {unit: 1/17-A, path: [2720]}
  - air:
      - {hex: 2717, factors: 2}
      - hex: 2618
        factors: 1
`
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := f.Orders().Actions[1].Air
	want := &wind.AirStrikes{Attacks: []wind.AirAttack{{Hex: 2717, Factors: 2}, {Hex: 2618, Factors: 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("air = %+v", got)
	}
	locate(t, f, []located{
		{wind.Problem{Action: 1, Step: -1}, 8, 5},
		{wind.Problem{Action: 1, Step: 0}, 9, 9},
		{wind.Problem{Action: 1, Step: 1}, 10, 9},
	})
}

func TestParseYamasaki(t *testing.T) {
	src := envelopeJP + `actions:
  - yamasaki:
      hex: 2717
      moves:
        - {unit: J12, path: [2718, 2719]}
        - unit: J07
          path:
            - 2617
`
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := f.Orders().Actions[0].Yamasaki
	want := &wind.Yamasaki{Hex: 2717, Moves: []wind.Move{
		{Unit: "J12", Path: []wind.Hex{2718, 2719}},
		{Unit: "J07", Path: []wind.Hex{2617}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("yamasaki = %+v", got)
	}
	locate(t, f, []located{
		{wind.Problem{Action: 0, Step: -1}, 7, 5},
		{wind.Problem{Action: 0, Step: 0}, 7, 5}, // a step without a move
		{wind.Problem{Action: 0, Step: -1, Move: 1}, 10, 11},
		{wind.Problem{Action: 0, Step: 1, Move: 1}, 10, 36},
		{wind.Problem{Action: 0, Step: -1, Move: 2}, 11, 11},
		{wind.Problem{Action: 0, Step: 0, Move: 2}, 13, 15},
		{wind.Problem{Action: 0, Step: 5, Move: 2}, 11, 11},
		{wind.Problem{Action: 0, Step: 0, Move: 3}, 7, 5},
	})
	errs := f.Problems([]wind.Problem{{Action: 0, Step: 1, Move: 1, Msg: "2719 is out of reach"}})
	if got := errs.Error(); got != "10:36: 2719 is out of reach" {
		t.Errorf("Problems = %q", got)
	}
}

func TestParseAllKinds(t *testing.T) {
	src := envelopeJP + `actions:
  - move: {unit: J01, path: [2717]}
  - fire: {units: [J02], target: 2618}
  - melee: {units: [J03], target: 2619}
  - air: [{hex: 2620, factors: 1}]
  - yamasaki: {hex: 2721, moves: [{unit: J04, path: [2722]}]}
`
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range f.Actions {
		if a.Kind() == "" {
			t.Errorf("activation %d holds not exactly one order: %+v", i, a)
		}
		if a.Pos.Line != 7+i || a.Pos.Col != 5 {
			t.Errorf("activation %d at %+v", i, a.Pos)
		}
	}
	if len(f.Orders().Actions) != 5 {
		t.Fatalf("orders = %+v", f.Orders())
	}
}

func TestParseActionErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"melee without units and target", envelope1 + "actions:\n  - melee: {}\n", []string{"7:12: melee needs units", "7:12: melee needs target"}},
		{"melee empty unit", envelope1 + "actions:\n  - melee: {units: [A, ''], target: 2717}\n", []string{"7:24: melee: units[1] is empty"}},
		{"melee unit twice", envelope1 + "actions:\n  - melee: {units: [A, A], target: 2717}\n", []string{"7:24: melee: A is listed twice in units"}},
		{"melee bad target", envelope1 + "actions:\n  - melee: {units: [A], target: 27}\n", []string{`7:33: melee.target: "27" is not a hex`}},
		{"melee unknown field", envelope1 + "actions:\n  - melee: {units: [A], targte: 2717}\n", []string{`7:25: unknown field "targte" in melee (did you mean "target"?)`}},
		{"melee as a list", envelope1 + "actions:\n  - melee: [A, 2717]\n", []string{"7:12: melee: want a mapping"}},
		{"melee target a list", envelope1 + "actions:\n  - melee: {units: [A], target: [2717]}\n", []string{"7:33: melee.target: want a single value, got a list"}},

		{"air as a mapping", envelope1 + "actions:\n  - air: {hex: 2717, factors: 2}\n", []string{"7:10: air: want a list of attacks, one per hex"}},
		{"air empty", envelope1 + "actions:\n  - air: []\n", []string{"7:10: air: the list of attacks is empty"}},
		{"air nothing", envelope1 + "actions:\n  - air:\n", []string{"7:9: air: want a list of attacks"}},
		{"air without hex and factors", envelope1 + "actions:\n  - air:\n      - {}\n", []string{"8:9: air[0] needs hex", "8:9: air[0] needs factors"}},
		{"air zero factors", envelope1 + "actions:\n  - air: [{hex: 2717, factors: 0}]\n", []string{"7:32: air[0]: factors: want at least 1"}},
		{"air factors a word", envelope1 + "actions:\n  - air: [{hex: 2717, factors: two}]\n", []string{`7:32: air[0].factors: want a whole number, got "two"`}},
		{"air bad hex", envelope1 + "actions:\n  - air: [{hex: 9999x, factors: 1}]\n", []string{`7:17: air[0].hex: "9999x" is not a hex`}},
		{"air hex twice", envelope1 + "actions:\n  - air:\n      - {hex: 2717, factors: 1}\n      - {hex: 2717, factors: 2}\n", []string{"9:9: air[1]: 2717 is attacked twice (first at line 8); put all its factors in one attack"}},
		{"air unknown field", envelope1 + "actions:\n  - air: [{hex: 2717, dice: 2}]\n", []string{`7:23: unknown field "dice" in air[0]`}},
		{"two air activations", envelope1 + "actions:\n  - air: [{hex: 2717, factors: 1}]\n  - move: {unit: A, path: [2720]}\n  - air: [{hex: 2618, factors: 1}]\n",
			[]string{"9:5: activation 3: all of the turn's air attacks are announced together in one air activation (rule 8.1.6), and activation 1 already holds them"}},

		{"yamasaki from the U.S.", envelope1 + "actions:\n  - yamasaki: {hex: 2717, moves: [{unit: A, path: [2718]}]}\n", []string{"7:5: activation 1: only the Japanese player has Colonel Yamasaki (rule 11.3)"}},
		{"yamasaki twice", envelopeJP + "actions:\n  - yamasaki: {hex: 2717, moves: [{unit: A, path: [2718]}]}\n  - yamasaki: {hex: 2618, moves: [{unit: B, path: [2619]}]}\n",
			[]string{"8:5: activation 2: Colonel Yamasaki leads one attack a game (rule 11), and activation 1 already calls on him"}},
		{"yamasaki without hex and moves", envelopeJP + "actions:\n  - yamasaki: {}\n", []string{"7:15: yamasaki needs hex", "7:15: yamasaki needs moves"}},
		{"yamasaki move without unit and path", envelopeJP + "actions:\n  - yamasaki:\n      hex: 2717\n      moves:\n        - {}\n        - {unit: B, path: [2718, '']}\n",
			[]string{"10:11: yamasaki: moves[0] needs unit", "10:11: yamasaki: moves[0] needs path", "11:34: yamasaki: moves[1]: path[1] is empty"}},
		{"yamasaki bad hex in a path", envelopeJP + "actions:\n  - yamasaki:\n      hex: 2717\n      moves:\n        - {unit: B, path: [2718, 0000]}\n",
			[]string{`10:34: yamasaki.moves[0].path[1]: "0000" is not a hex: column and row start at 01`}},
		{"yamasaki empty step", envelopeJP + "actions:\n  - yamasaki: {hex: 2717, moves: [{unit: B, path: [2718, '']}]}\n", []string{"7:58: yamasaki: moves[0]: path[1] is empty"}},
		{"yamasaki unit twice", envelopeJP + "actions:\n  - yamasaki:\n      hex: 2717\n      moves:\n        - {unit: J1, path: [2718]}\n        - {unit: J1, path: [2719]}\n",
			[]string{"11:18: yamasaki: J1 moves twice (first at line 10); give each unit one move"}},
		{"yamasaki moves not a list", envelopeJP + "actions:\n  - yamasaki: {hex: 2717, moves: {unit: J1}}\n", []string{"7:34: yamasaki.moves: want a list"}},
		{"yamasaki unknown field in a move", envelopeJP + "actions:\n  - yamasaki: {hex: 2717, moves: [{unit: J1, hexes: [2718]}]}\n", []string{`7:46: unknown field "hexes" in yamasaki.moves[0]; known fields: path, unit`}},
		{"mistakes in several kinds", envelopeJP + "actions:\n  - melee: {units: [A]}\n  - air: [{hex: 2717}]\n  - yamasaki: {moves: [{unit: B, path: [2718]}]}\n",
			[]string{"7:12: melee needs target", "8:11: air[0] needs factors", "9:15: yamasaki needs hex"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantErrors(t, c.src, c.want) })
	}
}

type located struct {
	p         wind.Problem
	line, col int
}

func locate(t *testing.T, f *File, cases []located) {
	t.Helper()
	for _, c := range cases {
		if l, col := f.Locate(c.p); l != c.line || col != c.col {
			t.Errorf("Locate(%+v) = %d:%d, want %d:%d", c.p, l, col, c.line, c.col)
		}
	}
}
