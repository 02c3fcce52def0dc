package wind

import (
	"reflect"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

func TestParseStanding(t *testing.T) {
	src := envelope1 + `actions: []
standing:
  losses: concentrate
  loss_order: [1/17-A, 1/17-B]
  retreat: below-4
  retreat_at: {2717: always, 2618: never}
  advance: strongest
  advance_at:
    2717: all
  friendly_fire: fewest-steps
  melee_order: [2717, 2618]
  melee_pick: listed
  martinez: 2717
  arnold: never
`
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := &wind.Standing{
		Losses:       wind.LossesConcentrate,
		LossOrder:    []string{"1/17-A", "1/17-B"},
		Retreat:      "below-4",
		RetreatAt:    map[wind.Hex]string{2717: "always", 2618: "never"},
		Advance:      wind.AdvanceStrongest,
		AdvanceAt:    map[wind.Hex]string{2717: "all"},
		FriendlyFire: wind.FireFewestSteps,
		MeleeOrder:   []wind.Hex{2717, 2618},
		MeleePick:    wind.PickListed,
		Martinez:     "2717",
		Arnold:       wind.HeroNever,
	}
	o := f.Orders()
	if !reflect.DeepEqual(o.Standing, want) {
		t.Fatalf("standing = %+v\nwant %+v", o.Standing, want)
	}
	if len(o.Actions) != 0 || o.Decision != nil {
		t.Errorf("orders = %+v", o)
	}
	if l, c := f.Field("standing.retreat_at"); l != 11 || c != 3 {
		t.Errorf("Field(standing.retreat_at) = %d:%d", l, c)
	}
	// What the file does not name stays as it was.
	merged := wind.DefaultStanding(wind.US).Merge(*o.Standing)
	if merged.Losses != wind.LossesConcentrate || merged.Martinez != "2717" {
		t.Errorf("merged = %+v", merged)
	}
}

func TestParseStandingJapanese(t *testing.T) {
	src := envelopeJP + "actions: []\nstanding: {unknown_table: fewest, unknown_table_at: {2717: U03}, advance: none}\n"
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := f.Orders().Standing
	if st.UnknownTable != wind.TableFewest || st.UnknownTableAt[2717] != "U03" || st.Advance != wind.AdvanceNone {
		t.Fatalf("standing = %+v", st)
	}
}

func TestParseStandingInDecision(t *testing.T) {
	src := decisionUS + "decision: {refit: false, night: true}\nstanding: {retreat: if-losing}\n"
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := f.Orders()
	if o.Decision == nil || !o.Decision.Night || o.Standing == nil || o.Standing.Retreat != wind.RetreatIfLosing {
		t.Fatalf("orders = %+v", o)
	}
}

func TestParseStandingEmpty(t *testing.T) {
	for _, src := range []string{"standing:\n", "standing: {}\n"} {
		f, err := Parse([]byte(envelope1+"actions: []\n"+src), Options{})
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if st := f.Orders().Standing; st != nil && !reflect.DeepEqual(*st, wind.Standing{}) {
			t.Errorf("%q: standing = %+v", src, st)
		}
	}
}

// TestParseStandingClear: an empty list clears a list given before, while
// a key with nothing after it changes nothing.
func TestParseStandingClear(t *testing.T) {
	f, err := Parse([]byte(envelope1+"actions: []\nstanding:\n  loss_order: []\n  melee_order:\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := wind.Standing{LossOrder: []string{"1/17-A"}, MeleeOrder: []wind.Hex{2717}}
	after := before.Merge(*f.Orders().Standing)
	if len(after.LossOrder) != 0 || len(after.MeleeOrder) != 1 {
		t.Errorf("after = %+v", after)
	}
}

func TestParseStandingErrors(t *testing.T) {
	us := envelope1 + "actions: []\n"
	jp := envelopeJP + "actions: []\n"
	cases := []struct {
		name, src string
		want      []string
	}{
		{"not a mapping", us + "standing: [retreat]\n", []string{"7:11: standing: want key: value lines"}},
		{"unknown field", us + "standing:\n  retreet: never\n", []string{`8:3: unknown field "retreet" in standing (did you mean "retreat"?)`}},
		{"camel case", us + "standing: {lossOrder: [A]}\n", []string{`7:12: unknown field "lossOrder" in standing (did you mean "loss_order"?)`}},
		{"bad policy", us + "standing:\n  losses: spred\n", []string{`8:11: standing: losses "spred": want one of spread, concentrate`}},
		{"bad retreat", us + "standing:\n  retreat: below-x\n", []string{`8:12: standing: retreat "below-x": below-N needs a number of steps, like below-4`}},
		{"policy a list", us + "standing: {advance: [all]}\n", []string{"7:21: standing.advance: want a single value, got a list"}},
		{"bad hero", us + "standing:\n  martinez: sometimes\n  arnold: 27\n", []string{`8:13: standing: martinez "sometimes": want auto, never or a hex like 2717`, `9:11: standing: arnold "27": want auto, never`}},
		{"retreat from the Japanese", jp + "standing:\n  retreat: always\n", []string{"8:12: standing: retreat: only the U.S. may retreat from melee (rule 8.2.1.3)"}},
		{"retreat_at from the Japanese", jp + "standing:\n  retreat_at: {2717: always, 2618: never}\n",
			[]string{"8:3: standing: retreat: only the U.S. may retreat from melee (rule 8.2.1.3)"}},
		{"heroes from the Japanese", jp + "standing: {martinez: auto}\n", []string{"7:22: standing: martinez and arnold are U.S. heroes"}},
		{"unknown table from the U.S.", us + "standing:\n  unknown_table: most\n  unknown_table_at: {2717: U03}\n",
			[]string{"8:18: standing: unknown_table: only the Japanese roll Unknown tables (rule 2.5)", "9:3: standing: unknown_table: only the Japanese"}},
		{"bad value at a hex", us + "standing:\n  retreat_at:\n    2717: always\n    2618: sometimes\n  advance_at: {2717: everyone}\n",
			[]string{`10:11: standing: retreat at 2618 "sometimes": want one of never, always, if-losing, below-N`, `11:22: standing: advance at 2717 "everyone": want one of all, none, strongest`}},
		{"bad hex key", us + "standing:\n  retreat_at: {27x7: always, 271: never}\n",
			[]string{`8:16: standing.retreat_at: "27x7" is not a hex`, `8:30: standing.retreat_at: "271" is not a hex`}},
		{"hex key twice", us + "standing:\n  advance_at:\n    2717: all\n    2717: none\n", []string{`10:5: standing.advance_at: "2717" is given twice (first at line 9)`}},
		{"hex without a value", us + "standing:\n  advance_at: {2717: }\n", []string{"8:22: standing: advance_at: 2717 has no value"}},
		{"bad melee order", us + "standing:\n  melee_order: [2717, 2618, 2717, 99]\n", []string{`8:35: standing.melee_order[3]: "99" is not a hex`}},
		{"melee order twice", us + "standing:\n  melee_order: [2717, 2618, 2717]\n", []string{"8:29: standing: melee_order: 2717 is listed twice (first at line 8)"}},
		{"loss order", us + "standing:\n  loss_order: [A, '', A]\n", []string{"8:19: standing: loss_order[1] is empty", "8:23: standing: A is listed twice in loss_order"}},
		{"with mistakes elsewhere", envelope1 + "actions:\n  - melee: {units: [A]}\nstanding: {losses: all}\n",
			[]string{"7:12: melee needs target", `8:20: standing: losses "all"`}},
		{"in a refused wait", "game: g\nside: us\nturn: 1\nwait: banzai\ntoken: t\nstanding: {losses: all}\n",
			[]string{`4:1: wait: "banzai" is not a kind of orders`, `6:20: standing: losses "all"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantErrors(t, c.src, c.want) })
	}
}
