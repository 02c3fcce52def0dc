package wind_test

// These tests import package rulecase, which imports templates: they are
// in package templates_test to keep the import graph acyclic.

import (
	"flag"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/adjudicator/wind/rulecase"
	"github.com/attu-pbem/attu/templates"
)

// updating reports whether -update (declared in asciimap_test.go) was given.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// sample is an event to word, and where it comes from.
type sample struct {
	from string
	ev   wind.Event
}

// variant names what of an event changes its wording: its kind, the rule
// branch, the cause of a loss, how much the U.S. sees, and whose unit it
// is about.
func variant(e wind.Event) string {
	v := []string{string(e.Kind)}
	if e.Reason != "" {
		v = append(v, string(e.Reason))
	}
	if e.Private != nil && e.Private.Reason != "" {
		v = append(v, "private "+string(e.Private.Reason))
	}
	if e.Kind == wind.EventConverted && e.Private != nil && e.Private.Table == "" {
		v = append(v, "no table") // rule 13.2's victory hex
	}
	if e.Kind == wind.EventInfiltration && len(e.Dice) > 0 && e.Dice[0].Face == 10 {
		v = append(v, "die 10") // read as 0 (rule 13.5)
	}
	if e.Kind == wind.EventVictory && e.VP != nil {
		v = append(v, "chits") // rule 14.0
	}
	if e.Cause != nil {
		v = append(v, "cause "+string(e.Cause.Kind))
	}
	if len(e.Units) > 0 {
		u := e.Units[0]
		who := u.Side.String()
		if u.Kind == wind.Unknown {
			who += " unknown"
		}
		v = append(v, "unit "+who)
	}
	hidden := 0
	for _, u := range slices.Concat(e.Units, e.Others) {
		if !u.Known {
			hidden++
		}
	}
	if hidden > 0 {
		v = append(v, fmt.Sprintf("%d of %d units not known", hidden, len(e.Units)+len(e.Others)))
	}
	v = append(v, "U.S. sight "+e.Seen.US.String())
	return strings.Join(v, ", ")
}

// caseSamples runs every rules case and keeps the first event of each
// variant, in the order met.
func caseSamples(t *testing.T) []sample {
	t.Helper()
	files, err := filepath.Glob("../../adjudicator/wind/rulecase/testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rules cases: %v", err)
	}
	var out []sample
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := rulecase.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, e := range c.Run(windsys.EventText).Events {
			if v := variant(e); !seen[v] {
				seen[v] = true
				out = append(out, sample{"rules case " + filepath.Base(f), e})
			}
		}
	}
	return out
}

// gameSamples are the events of a game's start and of a U.S. decision with
// standing instructions, from the rules themselves.
func gameSamples(t *testing.T) []sample {
	t.Helper()
	s, evs := wind.NewGame(nil, nil, &wind.ForcedDice{Values: []int{5, 3}})
	o := wind.Orders{Side: adjudicator.US, Turn: 1, Wait: wind.WaitUSDecision,
		Decision: &wind.Decision{Night: true}, Standing: &wind.Standing{Retreat: wind.RetreatAlways}}
	_, more, ps := wind.Resolve(s, o, &wind.ForcedDice{Values: []int{4, 9, 8}})
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	var out []sample
	for _, e := range append(evs, more...) {
		out = append(out, sample{"a new game", e})
	}
	return out
}

// handSamples are built by hand, as the rules emit them, for what no rules
// case shows yet.
func handSamples() []sample {
	type (
		E = wind.Event
		U = wind.EventUnit
		H = adjudicator.Hex
	)
	public := wind.Public
	anon := wind.Visibility{US: wind.SightAnonymous, JP: wind.SightFull}
	us := adjudicator.US
	jp := adjudicator.JP
	up := func(id string, side adjudicator.Side, kind wind.Kind, h H, steps int) U {
		return U{ID: id, Side: side, Kind: kind, Hex: h, Steps: steps, Known: true}
	}
	down := func(id string, kind wind.Kind, h H) U {
		return U{ID: id, Side: jp, Kind: kind, Hex: h, Steps: 1}
	}
	evs := []E{
		{Kind: wind.EventActionsCutShort, Seen: public, Side: us, Activation: 3, LastActivation: 5},
		{Kind: wind.EventActivationSkipped, Seen: wind.OnlyTo(jp), Side: jp, Activation: 2,
			Note: "J01 is not on the map (it is in eliminated)"},
		{Kind: wind.EventAirWasted, Seen: public, Side: us, Hexes: []H{2717}, Target: 2717, Factors: 2},
		{Kind: wind.EventFriendlyFireMissed, Seen: public, Side: jp, Hexes: []H{2618}, Target: 2618},
		{Kind: wind.EventChargeEnds, Seen: public, Side: jp, Hexes: []H{2619}, Target: 2619},
		{Kind: wind.EventCharge, Seen: anon, Side: jp, Units: []U{down("J07", wind.Infantry, 2619)},
			Hexes: []H{2717, 2618, 2619}, MP: 4, Allowance: 10},
		{Kind: wind.EventCannotRetreat, Seen: public, Side: us, Units: []U{up("105-1", us, wind.Artillery, 2618, 2)},
			Hexes: []H{2618}, Target: 2619, Reason: wind.ReasonStanding, Instruction: "always"},
		{Kind: wind.EventCannotRetreat, Seen: public, Side: us, Units: []U{up("1/17-A", us, wind.Infantry, 2618, 1)},
			Hexes: []H{2618}, Target: 2619, Reason: wind.ReasonLeftAlone},
		{Kind: wind.EventAdvanceBarred, Seen: wind.OnlyTo(jp), Side: jp, Units: []U{down("U03", wind.Unknown, 2618)},
			Hexes: []H{2618, 2717}, Target: 2717},
		{Kind: wind.EventAdvanceStacked, Seen: public, Side: us, Units: []U{up("1/17-B", us, wind.Infantry, 2618, 4)},
			Hexes: []H{2618, 2717}, Target: 2717, Note: "13 steps of 1/17 (limit 12 for one battalion, rule 4.1)"},
		{Kind: wind.EventAdvanceStacked, Seen: public, Side: jp, Units: []U{up("J02", jp, wind.Infantry, 2818, 1)},
			Hexes: []H{2818, 2717}, Target: 2717},
		{Kind: wind.EventMeleeBrokenOff, Seen: public, Side: us, Hexes: []H{2717}, Target: 2717, Round: wind.MaxMeleeRounds},
		{Kind: wind.EventMeleeLapsed, Seen: public, Side: us, Units: []U{up("1/17-A", us, wind.Infantry, 2618, 4)},
			Hexes: []H{2618, 2717}, Target: 2717, Reason: wind.ReasonNoEnemy},
		{Kind: wind.EventMeleeLapsed, Seen: anon, Side: jp, Units: []U{down("J01", wind.Infantry, 2818), down("U02", wind.Unknown, 2818)},
			Hexes: []H{2818, 2717}, Target: 2717, Reason: wind.ReasonNotAdjacent},
		{Kind: wind.EventConverted, Seen: anon, Side: jp, Units: []U{down("U04", wind.Unknown, 2619)},
			Others: []U{up("J33", jp, wind.Infantry, 2619, 1)}, Hexes: []H{2619},
			Private: &wind.Private{Table: "U04", Die: 10, Yield: 2, Reason: wind.ReasonPoolEmpty}},
		{Kind: wind.EventConverted, Seen: anon, Side: jp, Units: []U{down("U05", wind.Unknown, 2619), down("U06", wind.Unknown, 2619)},
			Hexes: []H{2619}, Private: &wind.Private{Table: "U06", Die: 1, Yield: 1, Reason: wind.ReasonHexFull}},
		{Kind: wind.EventConverted, Seen: anon, Side: jp, Units: []U{down("U07", wind.Unknown, 2717)},
			Others: []U{up("J34", jp, wind.Infantry, 2717, 1)}, Hexes: []H{2717},
			Private: &wind.Private{Yield: 3, Reason: wind.ReasonPoolEmpty}},
		{Kind: wind.EventInfiltration, Seen: public, Side: us, Units: []U{up("1/17-A", us, wind.Infantry, 2618, 4)},
			Hexes: []H{2618}, Dice: []wind.EventDie{{Face: 10}}, DRM: 1, Reason: wind.ReasonHeldInZOC},
		{Kind: wind.EventSetAsideEliminated, Seen: public, Side: jp, Units: []U{up("105-2", us, wind.Artillery, 0, 1)},
			Hexes: []H{2619}, Target: 2619, Reason: wind.ReasonNotCaptured},
		{Kind: wind.EventMeleeEnds, Seen: public, Side: jp, Hexes: []H{2619}, Target: 2619, Round: 100, Reason: wind.ReasonBothStand},
		{Kind: wind.EventEliminated, Seen: anon, Units: []U{down("U01", wind.Unknown, 2717)}, Hexes: []H{2717},
			Cause: &wind.Cause{Kind: wind.CauseAir, Side: us, Hex: 2717}},
		{Kind: wind.EventHitsLost, Seen: public, Hexes: []H{2717, 2818}, Hits: 1},
		{Kind: wind.EventLeftAlone, Seen: anon, Side: jp, Units: []U{down("J03", wind.Infantry, 2619), down("20MM2", wind.Artillery, 2619)},
			Hexes: []H{2619}, Target: 2717},
		{Kind: wind.EventZoneCleared, Seen: anon, Side: us, Units: []U{down("U09", wind.Unknown, 3521)},
			Hexes: []H{3622, 3521}, Zone: "A", ZoneName: "Alexei Point", Place: "Alexei Point"},
		{Kind: wind.EventHidden, Seen: anon, Side: jp, Units: []U{up("J02", jp, wind.Infantry, 2717, 1), down("U01", wind.Unknown, 2818)}},
		{Kind: wind.EventRefitSkipped, Seen: public, Side: us, Part: "restore", Activation: 1, Note: "1/17-A in 2720 is out of supply"},
		{Kind: wind.EventRefitHexFull, Seen: public, Side: us, Units: []U{up("1/17-B", us, wind.Infantry, 2720, 2)}, Hexes: []H{2720}},
		{Kind: wind.EventAdvanceOutOfArea, Seen: public, Side: us, Units: []U{up("1/17-A", us, wind.Infantry, 2417, 4)},
			Hexes: []H{2417, 2517}, Target: 2517,
			Note: "2517 lies in the south area of The Linkup, and units cross from the north only once Jarmin Pass (2117) is secured, its zone cleared (rule 15.3)"},
		{Kind: wind.EventSoloCount, Seen: public, Side: jp, Dice: []wind.EventDie{{Face: 10}}, Total: 11},
		{Kind: wind.EventAdHoc, Seen: public, Side: jp, Target: 2717, Total: 3},
		{Kind: wind.EventAmbushWithdraw, Seen: public, Side: jp, Others: []U{up("J10", jp, wind.Infantry, 2321, 1)},
			Hexes: []H{2321}, Target: 2321, Reason: wind.ReasonAmbushMelt},
		{Kind: wind.EventAmbushWithdraw, Seen: public, Side: us, Units: []U{up("1/17-A", us, wind.Infantry, 2320, 2)},
			Hexes: []H{2321, 2320}, Target: 2321, Reason: wind.ReasonAmbushRoundLimit, Instruction: "never"},
		{Kind: wind.EventStandingDecision, Seen: wind.OnlyTo(us), Side: us, Turn: 6, Instruction: wind.DecisionNight},
		{Kind: wind.EventVPValues, Seen: wind.OnlyTo(jp), Side: jp, Reason: wind.ReasonDrawn,
			Private: &wind.Private{VP: []wind.VPHex{{Hex: 1425, Value: 2, Name: "Temnac Bay"}, {Hex: 2011, Value: 3, Name: "Holtz Bay"}}}},
	}
	var out []sample
	for _, e := range evs {
		out = append(out, sample{"built by hand", e})
	}
	return out
}

// allSamples is every sample, each variant once, rules first.
func allSamples(t *testing.T) []sample {
	var out []sample
	seen := map[string]bool{}
	for _, s := range slices.Concat(caseSamples(t), gameSamples(t), handSamples()) {
		if v := variant(s.ev); !seen[v] {
			seen[v] = true
			out = append(out, s)
		}
	}
	return out
}

// TestEventWords words one event of every kind and variant for each
// reader and compares the whole with testdata/events.golden (refresh it
// with go test ./templates -update and review the diff).
func TestEventWords(t *testing.T) {
	samples := allSamples(t)
	var b strings.Builder
	b.WriteString("# Every kind of event as each reader reads it (go test ./templates -update).\n")
	kinds := map[wind.EventKind]bool{}
	for _, s := range samples {
		kinds[s.ev.Kind] = true
		b.WriteString("\n" + wrap(fmt.Sprintf("%s (%s)", variant(s.ev), s.from), "  "))
		for _, side := range []adjudicator.Side{adjudicator.Umpire, adjudicator.JP, adjudicator.US} {
			text := "(reads nothing)"
			if r, ok := wind.Redact(s.ev, side); ok {
				text = windsys.EventText(r)
				if strings.HasPrefix(text, "[") || strings.Contains(text, "<no value>") || strings.Contains(text, "%!") {
					t.Errorf("%s, %s: %q", variant(s.ev), side, text)
				}
			}
			b.WriteString(wrap(fmt.Sprintf("  %-7s %s", side.String()+":", text), "          "))
		}
	}
	for _, k := range wind.EventKinds() {
		if !kinds[k] {
			t.Errorf("no sample of %s: add one", k)
		}
	}
	path := filepath.Join("testdata", "events.golden")
	got := b.String()
	if updating() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./templates -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("events differ from %s; run go test ./templates -update and review the diff.\ngot:\n%s", path, got)
	}
}

// wrap breaks line at spaces to fit the 100 columns of every golden text
// (TestGoldenWidths), continuing with indent, and ends it with a newline.
func wrap(line, indent string) string {
	const width = templates.MaxWidth
	var b strings.Builder
	for len(line) > width {
		cut := strings.LastIndex(line[:width+1], " ")
		if cut <= len(indent) {
			break
		}
		b.WriteString(line[:cut] + "\n")
		line = indent + line[cut+1:]
	}
	b.WriteString(line + "\n")
	return b.String()
}

// Every kind has its wording, and a kind without one says so rather than
// vanishing.
func TestEveryKindWorded(t *testing.T) {
	for _, k := range wind.EventKinds() {
		if got := windsys.EventText(wind.Event{Kind: k}); strings.HasPrefix(got, "[") && !strings.Contains(got, ":") {
			t.Errorf("%s has no wording: %q", k, got)
		}
	}
	if got := windsys.EventText(wind.Event{Kind: "no-such-kind"}); got != "[no-such-kind]" {
		t.Errorf("an unknown kind reads %q", got)
	}
}
