package wind

import (
	"reflect"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

const (
	usRefit1 = "game: attu-1\nside: us\nturn: 9\nwait: us-refit\ntoken: t\n"
	jpRefit1 = "game: attu-1\nside: jp\nturn: 9\nwait: jp-refit\ntoken: t\n"
)

func TestParseUSRefit(t *testing.T) {
	src := usRefit1 + `refit:
  restore:
    - {unit: 1/17-A, steps: 2}
    - unit: 3/17-K
  land:
    - {unit: 1/32-A, zone: E}
  independents: [2/17-E]
  depots:
    - 50E-B
`
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := f.Orders()
	want := &wind.Refit{
		Restore:      []wind.Restore{{Unit: "1/17-A", Steps: 2}, {Unit: "3/17-K"}},
		Land:         []wind.Landing{{Unit: "1/32-A", Zone: "E"}},
		Independents: []string{"2/17-E"},
		Depots:       []string{"50E-B"},
	}
	if o.Wait != wind.WaitUSRefit || o.Side != wind.US || !reflect.DeepEqual(o.Refit, want) || o.Rearrange != nil || o.Decision != nil {
		t.Fatalf("orders = %+v, refit %+v", o, o.Refit)
	}
	// The adjudicator's problems point at the entry they are about.
	for _, c := range []struct {
		p         wind.Problem
		line, col int
	}{
		{wind.Problem{Action: -1, Part: wind.PartRestore, Step: 0}, 8, 7},
		{wind.Problem{Action: -1, Part: wind.PartRestore, Step: 1}, 9, 7},
		{wind.Problem{Action: -1, Part: wind.PartLand, Step: 0}, 11, 7},
		{wind.Problem{Action: -1, Part: wind.PartIndependents, Step: 0}, 12, 18},
		{wind.Problem{Action: -1, Part: wind.PartDepots, Step: 0}, 14, 7},
		{wind.Problem{Action: -1, Part: wind.PartDepots, Step: 5}, 6, 1},
		{wind.Problem{Action: -1, Step: -1}, 1, 1},
	} {
		if l, col := f.Locate(c.p); l != c.line || col != c.col {
			t.Errorf("Locate(%+v) = %d:%d, want %d:%d", c.p, l, col, c.line, c.col)
		}
	}
	if l, c := f.Field("refit.land"); l != 10 || c != 3 {
		t.Errorf("Field(refit.land) = %d:%d", l, c)
	}

	// Nothing at all is a refit too.
	f, err = Parse([]byte(usRefit1+"refit: {}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o := f.Orders(); o.Refit == nil || !reflect.DeepEqual(*o.Refit, wind.Refit{}) {
		t.Errorf("refit: {} = %+v", o.Refit)
	}
}

func TestParseJPRefit(t *testing.T) {
	src := jpRefit1 + `refit:
  hide: [J12, 75MM1]
  move:
    - {unit: U03, to: 2512}
  swap:
    - hex: 2115
      place:
        - {unit: U09, to: 2115}
        - {unit: U11, to: 2014}
`
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := f.Orders()
	want := &wind.Rearrange{
		Hide:  []string{"J12", "75MM1"},
		Moves: []wind.UnknownMove{{Unit: "U03", To: 2512}},
		Swaps: []wind.Swap{{Hex: 2115, Place: []wind.UnknownMove{{Unit: "U09", To: 2115}, {Unit: "U11", To: 2014}}}},
	}
	if o.Wait != wind.WaitJPRefit || !reflect.DeepEqual(o.Rearrange, want) || o.Refit != nil {
		t.Fatalf("orders = %+v, rearrange %+v", o, o.Rearrange)
	}
	for _, c := range []struct {
		p         wind.Problem
		line, col int
	}{
		{wind.Problem{Action: -1, Part: wind.PartHide, Step: 1}, 7, 15},
		{wind.Problem{Action: -1, Part: wind.PartMove, Step: 0}, 9, 7},
		{wind.Problem{Action: -1, Part: wind.PartSwap, Step: 0}, 11, 7},
		{wind.Problem{Action: -1, Part: wind.PartSwap, Step: 0, Place: 2}, 14, 11},
	} {
		if l, col := f.Locate(c.p); l != c.line || col != c.col {
			t.Errorf("Locate(%+v) = %d:%d, want %d:%d", c.p, l, col, c.line, c.col)
		}
	}
}

func TestParseRefitInDecision(t *testing.T) {
	f, err := Parse([]byte(decisionUS+"decision: {refit: true}\nrefit:\n  restore: [{unit: 1/17-A}]\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := f.Orders()
	if o.Decision == nil || !o.Decision.Refit || o.Refit == nil || len(o.Refit.Restore) != 1 || o.Refit.Restore[0].Unit != "1/17-A" {
		t.Fatalf("orders = %+v", o)
	}
	if l, c := f.Locate(wind.Problem{Action: -1, Part: wind.PartRestore, Step: 0}); l != 8 || c != 13 {
		t.Errorf("Locate = %d:%d, want 8:13", l, c)
	}
}

// TestParseRefitErrors: every mistake of a refit file is reported at once,
// each at its line and column.
func TestParseRefitErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"missing", usRefit1, []string{"1:1: refit is missing: list under refit: the steps to restore"}},
		{"missing, Japanese", jpRefit1, []string{"1:1: refit is missing: list under refit: the units to hide"}},
		{"a list", usRefit1 + "refit: [1/17-A]\n", []string{"6:8: refit: want key: value lines naming the refit orders"}},
		{"the wrong side", "game: g\nside: jp\nturn: 9\nwait: us-refit\ntoken: t\nrefit: {}\n",
			[]string{"4:1: wait: us-refit orders come from the U.S. player; the Japanese refit orders are sent with wait: jp-refit"}},
		{"the other side's list", usRefit1 + "refit:\n  hide: [J01]\n",
			[]string{`7:3: unknown field "hide" in refit; known fields: depots, independents, land, restore; the U.S. refit takes restore, land, independents and depots; hide, move and swap are the Japanese refit's`}},
		{"a misspelt list", jpRefit1 + "refit:\n  hdie: [J01]\n", []string{`7:3: unknown field "hdie" in refit (did you mean "hide"?)`}},
		{"every mistake at once", usRefit1 + `refit:
  restore:
    - {steps: 2}
    - {unit: 1/17-B, steps: 0}
    - {unit: 1/17-C, stpes: 1}
  land:
    - {unit: 1/32-A}
  independents: ["", 2/17-E]
`, []string{
			`10:22: unknown field "stpes" in refit.restore[2] (did you mean "steps"?); known fields: steps, unit`,
		}},
		{"every mistake at once, shape right", usRefit1 + `refit:
  restore:
    - {steps: 2}
    - {unit: 1/17-B, steps: 0}
  land:
    - {unit: 1/32-A}
  independents: ["", 2/17-E]
  depots: [""]
`, []string{
			"8:7: refit.restore[0] needs unit:",
			"9:29: refit.restore[1].steps: write 1 or more",
			"11:7: refit.land[0] needs unit: and zone:",
			"12:18: refit.independents[0] is empty",
			"13:12: refit.depots[0] is empty",
		}},
		{"a swap without placements", jpRefit1 + "refit:\n  swap:\n    - {hex: 2115}\n  move:\n    - {unit: U01}\n",
			[]string{"8:7: refit.swap[0] needs place:", "10:7: refit.move[0] needs unit: and to:"}},
		{"a bad hex", jpRefit1 + "refit:\n  move:\n    - {unit: U01, to: 25}\n", []string{`8:23: refit.move[0].to: "25" is not a hex`}},
		{"actions in refit orders", usRefit1 + "refit: {}\nactions: []\n", []string{"7:1: actions: refit orders hold no activations"}},
		{"a decision in refit orders", usRefit1 + "refit: {}\ndecision: {refit: true}\n", []string{"7:1: decision: the refit decision was made at the start of the turn"}},
		{"refit in actions orders", envelope1 + "actions: []\nrefit: {}\n", []string{"7:1: refit: refit orders are sent in a refit turn"}},
		{"refit orders without a refit turn", decisionUS + "decision: {refit: false, night: false}\nrefit: {}\n",
			[]string{"7:1: refit: refit orders come with a refit turn: write decision: {refit: true}"}},
		{"a misspelt part in a decision", decisionUS + "decision: {refit: true}\nrefit: {lnad: []}\n",
			[]string{`7:9: unknown field "lnad" in refit (did you mean "land"?)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantErrors(t, c.src, c.want) })
	}
}
