package wind

import (
	"os"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

const (
	jpSetupEnvelope   = "game: g\nside: jp\nturn: 1\nwait: jp-setup\ntoken: t\n"
	usLandingEnvelope = "game: g\nside: us\nturn: 1\nwait: us-landing\ntoken: t\n"
)

func TestParseSetup(t *testing.T) {
	f, err := Parse([]byte(jpSetupEnvelope+`setup:
  place:
    - {unit: U01, hex: 2722}
    - unit: 75MM1
      hex: 3311
  vp: [{hex: 2717, value: 3}]
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	js := f.Orders().JPSetup
	if js == nil || len(js.Place) != 2 || js.Place[1] != (wind.Placement{Unit: "75MM1", Hex: 3311}) ||
		len(js.VP) != 1 || js.VP[0] != (wind.VPPlacement{Hex: 2717, Value: 3}) {
		t.Fatalf("decoded %+v", js)
	}

	f, err = Parse([]byte(usLandingEnvelope+"landing:\n  land:\n    - {unit: 2/17-E, zone: D}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l := f.Orders().Landing; l == nil || l.Delay || len(l.Land) != 1 || l.Land[0] != (wind.Landing{Unit: "2/17-E", Zone: "D"}) {
		t.Fatalf("decoded %+v", l)
	}
	f, err = Parse([]byte(usLandingEnvelope+"landing: {delay: true}\n"), Options{})
	if err != nil || !f.Orders().Landing.Delay {
		t.Fatalf("delay: %v, %+v", err, f)
	}
}

func TestParseSetupErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"setup not a mapping", jpSetupEnvelope + "setup: [U01]\n", []string{"6:8: setup: want place: and vp: lists"}},
		{"unknown field", jpSetupEnvelope + "setup:\n  plce: []\n", []string{`7:3: unknown field "plce" in setup`}},
		{"placement without hex", jpSetupEnvelope + "setup:\n  place:\n    - {unit: U01}\n", []string{"8:7: setup.place[0] needs unit: and hex:"}},
		{"chit without value", jpSetupEnvelope + "setup:\n  vp:\n    - {hex: 2717}\n", []string{"8:7: setup.vp[0] needs hex: and value:"}},
		{"bad hex", jpSetupEnvelope + "setup:\n  place:\n    - {unit: U01, hex: 27x7}\n", []string{`8:24: setup.place[0].hex: "27x7" is not a hex`}},
		{"setup from the U.S.", usLandingEnvelope + "setup: {}\n", []string{"1:1: landing is missing", "6:1: setup: the Japanese setup is sent by the Japanese player"}},
		{"landing without zone", usLandingEnvelope + "landing:\n  land:\n    - {unit: 2/17-E}\n", []string{"8:7: landing.land[0] needs unit: and zone:"}},
		{"landing in actions", envelope1 + "actions: []\nlanding: {delay: true}\n", []string{"7:1: landing: the U.S. landing is sent before the first turn"}},
		{"landing not a mapping", usLandingEnvelope + "landing: yes\n", []string{"6:10: landing: want land:"}},
		{"decision at the landing", usLandingEnvelope + "landing: {}\ndecision: {refit: false, night: false}\n", []string{"7:1: decision: the first decision comes once the U.S. has landed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantErrors(t, c.src, c.want) })
	}
}

// The setup examples are legal in the game they describe: a campaign with
// the free setups and the victory point chits placed by the Japanese.
// The rules' refusals point at the entry at fault.
func TestSetupExamplesAreLegal(t *testing.T) {
	s, _, err := wind.NewGameFrom("campaign", wind.Options{JPSetup: wind.SetupFree, USSetup: wind.SetupFree, VPChits: wind.VPPlaced}, &wind.ForcedDice{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"jp-setup.yaml", "us-landing.yaml"} {
		data, err := os.ReadFile("../../examples/orders/" + name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if ps := wind.CheckOrders(s, f.Orders()); len(ps) > 0 {
			t.Fatalf("%s: %v", name, f.Problems(ps))
		}
		ns, _, ps := wind.Resolve(s, f.Orders(), &wind.ForcedDice{Values: repeat(10, 40)})
		if len(ps) > 0 {
			t.Fatal(ps)
		}
		s = ns
	}
	if w := s.Wait(); w.Kind != wind.WaitUSDecision || w.Turn != 1 {
		t.Fatalf("after the examples the game waits for %s", w)
	}

	// A gun out of place and a landing zone left bare, at their lines.
	s, _, _ = wind.NewGameFrom("campaign", wind.Options{JPSetup: wind.SetupFree}, &wind.ForcedDice{})
	data, _ := os.ReadFile("../../examples/orders/jp-setup.yaml")
	src := strings.Replace(string(data), "{unit: 20MM4, hex: 3312}", "{unit: 20MM4, hex: 2011}", 1)
	src = strings.Replace(src, "{unit: U03, hex: 1523}", "{unit: U03, hex: 2012}", 1)
	src = src[:strings.Index(src, "  # Rule 14.0")]
	f, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	errs := f.Problems(wind.CheckOrders(s, f.Orders()))
	got := errs.Error()
	for _, w := range []string{
		"13:1: landing zone H (1324) needs two Unknown units two or three hexes away; only U04 in 1524 does (rule 12.4)",
		"13:1: landing zone I (1725) needs two Unknown units",
		"42:7: 20MM4: 2011 is 13 hexes from 3311; the 20mm guns set up within five hexes of it (rule 12.4)",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("errors lack %q:\n%s", w, got)
		}
	}
}

func repeat(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}
