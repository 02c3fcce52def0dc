package wind

import (
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

const decisionUS = "game: attu-1\nside: us\nturn: 5\nwait: us-decision\ntoken: t\n"

func TestParseDecision(t *testing.T) {
	cases := []struct {
		src  string
		want wind.Decision
	}{
		{"decision: {refit: false, night: true}\n", wind.Decision{Night: true}},
		{"decision: {refit: false, night: false}\n", wind.Decision{}},
		{"decision:\n  refit: true\n", wind.Decision{Refit: true}},
		{"decision: {refit: true, night: false}\n", wind.Decision{Refit: true}},
	}
	for _, c := range cases {
		f, err := Parse([]byte(decisionUS+c.src), Options{})
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		o := f.Orders()
		if o.Decision == nil || *o.Decision != c.want || o.Wait != wind.WaitUSDecision || len(o.Actions) != 0 {
			t.Errorf("%q: orders = %+v", c.src, o)
		}
	}
	f, err := Parse([]byte(decisionUS+"decision:\n  refit: false\n  night: true\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l, c := f.Field("decision.night"); l != 8 || c != 3 {
		t.Errorf("Field(decision.night) = %d:%d", l, c)
	}
	if l, c := f.Field("decision"); l != 6 || c != 1 {
		t.Errorf("Field(decision) = %d:%d", l, c)
	}
	// A rules case may leave out the envelope but not the decision.
	if _, err := Parse([]byte("side: us\nwait: us-decision\ndecision: {refit: false, night: true}\n"), Options{Case: true}); err != nil {
		t.Errorf("decision in a case: %v", err)
	}
}

func TestParseDecisionErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"missing", decisionUS, []string{"1:1: decision is missing: write decision: {refit: false, night: false}"}},
		{"nothing", decisionUS + "decision:\n", []string{"6:10: decision: want refit: and night:"}},
		{"a word", decisionUS + "decision: night\n", []string{`6:11: decision: want refit: and night:, like decision: {refit: false, night: true}; got "night"`}},
		{"empty", decisionUS + "decision: {}\n", []string{"6:11: decision needs refit: true to call a refit turn (rule 3.1), or refit: false", "6:11: decision needs night: true for a night turn"}},
		{"night forgotten", decisionUS + "decision: {refit: false}\n", []string{"6:11: decision needs night:"}},
		{"refit forgotten", decisionUS + "decision: {night: true}\n", []string{"6:11: decision needs refit:"}},
		{"refit at night", decisionUS + "decision: {refit: true, night: true}\n", []string{"6:32: decision: a refit turn replaces the rest of the turn, so it is never a night turn (rule 3.1)"}},
		{"yes for true", decisionUS + "decision: {refit: false, night: yes}\n", []string{`6:33: decision.night: want true or false, got "yes"`}},
		{"unknown field", decisionUS + "decision: {refit: false, nihgt: true}\n", []string{`6:26: unknown field "nihgt" in decision (did you mean "night"?)`}},
		{"from the Japanese", "game: attu-1\nside: jp\nturn: 5\nwait: us-decision\ntoken: t\ndecision: {refit: false, night: true}\n",
			[]string{"4:1: wait: only the U.S. player decides on refit and night turns (rules 3.1, 3.2)"}},
		{"with actions", decisionUS + "decision: {refit: false, night: false}\nactions: []\n",
			[]string{"7:1: actions: the decision holds no activations: send them when attu asks for the turn's actions"}},
		{"in actions orders", envelope1 + "decision: {refit: false, night: true}\nactions: []\n",
			[]string{"6:1: decision: the refit and night decision belongs only in the U.S. decision at the start of a turn, sent with wait: us-decision"}},
		{"in orders without a wait", "game: g\nside: us\nturn: 1\ntoken: t\ndecision: {refit: false, night: true}\n",
			[]string{"1:1: actions is missing", "5:1: decision: the refit and night decision belongs only"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantErrors(t, c.src, c.want) })
	}
}
