package wind

import (
	"strings"
	"testing"
)

func mustCounter(t *testing.T, id string) *Counter {
	t.Helper()
	c, ok := BuiltinCounters().Get(id)
	if !ok {
		t.Fatalf("no counter %s", id)
	}
	return c
}

// The counter mix of the built-in counters.
func TestCounterMix(t *testing.T) {
	cs := BuiltinCounters()
	for _, bn := range []string{"1/17", "2/17", "3/17", "1/32", "2/32", "3/32", "1/4"} {
		n := 0
		for _, id := range cs.IDs() {
			c, _ := cs.Get(id)
			if c.Battalion == bn && c.Class.ID == "rifle-company" {
				n++
			}
		}
		if n != 4 {
			t.Errorf("battalion %s has %d companies, want 4 (rule 12.5)", bn, n)
		}
	}
	count := func(s Side, k Kind) int { return len(cs.Of(s, k)) }
	if n := count(JP, Infantry); n != 64 {
		t.Errorf("%d Japanese infantry platoons, want 64 (rule 2.5)", n)
	}
	if n := count(JP, Unknown); n != 16 {
		t.Errorf("%d Unknown units, want 16 (rule 2.5)", n)
	}
	var jp20, jp75, us105, us75 int
	for _, id := range cs.IDs() {
		c, _ := cs.Get(id)
		switch c.Class.ID {
		case "jp-20mm":
			jp20++
		case "jp-75mm":
			jp75++
		case "105mm-battery":
			us105++
		case "75mm-section":
			us75++
		}
	}
	if jp20 != 4 || jp75 != 3 {
		t.Errorf("Japanese artillery %d x 20mm, %d x 75mm, want 4 and 3 (rule 12.3)", jp20, jp75)
	}
	if us105 != 6 || us75 != 1 {
		t.Errorf("U.S. artillery %d x 105mm, %d x 75mm, want 6 and 1 (rule 12.5)", us105, us75)
	}
	for _, id := range []string{"7SCT", "7RCN", "IRP", "13E-A", "13E-B", "13E-C", "50E-A", "50E-B", "50E-C"} {
		mustCounter(t, id)
	}
	if c := mustCounter(t, "7RCN"); c.MaxSteps() < 3 {
		t.Errorf("the recon troop starts at 3 steps (12.5), so it has at least 3, got %d", c.MaxSteps())
	}
	// Every engineer company has its own depot (7.3, 9.4).
	for _, e := range cs.Of(US, Engineer) {
		n := 0
		for _, d := range cs.Of(US, Depot) {
			if c, _ := cs.Get(d); c.Engineer == e {
				n++
			}
		}
		if n != 1 {
			t.Errorf("engineer %s has %d depots, want 1", e, n)
		}
	}
	// Unknown tables: each its own, 1 to 3 infantry (2.5).
	seen := map[string]bool{}
	distinct := 0
	for _, id := range cs.Of(JP, Unknown) {
		c := mustCounter(t, id)
		if len(c.Table) != 10 {
			t.Fatalf("%s table has %d entries", id, len(c.Table))
		}
		key := sprintInts(c.Table)
		if !seen[key] {
			distinct++
		}
		seen[key] = true
	}
	if distinct < 8 {
		t.Errorf("only %d distinct Unknown tables", distinct)
	}
}

func sprintInts(v []int) string {
	var b strings.Builder
	for _, n := range v {
		b.WriteByte(byte('0' + n))
	}
	return b.String()
}

// The values the rules' examples rely on.
func TestCounterValuesFromExamples(t *testing.T) {
	co := mustCounter(t, "1/17-A")
	if co.MaxSteps() != 4 {
		t.Errorf("a company has %d steps, want 4 (reduced by 3 to one step, 8.2 example)", co.MaxSteps())
	}
	if r := co.Rating(4); r.Melee != 6 {
		t.Errorf("a full company melees with %d dice, want 6 (8.2 example)", r.Melee)
	}
	if r := co.Rating(1); r.Melee != 1 {
		t.Errorf("a one-step company melees with %d dice, want 1 (8.2 example)", r.Melee)
	}
	a, b := mustCounter(t, "2/32-E").Rating(4), mustCounter(t, "2/32-F").Rating(4)
	if a.Ranged+b.Ranged != 4 || a.Range < 2 {
		t.Errorf("two companies fire %d dice at range %d, want 4 dice reaching 2 hexes (8.1 example)", a.Ranged+b.Ranged, a.Range)
	}
	art := mustCounter(t, "105-1")
	if art.MaxSteps() != 2 || art.Rating(2).Ranged != 5 || !art.Class.Fixed || !art.Class.SoftGround || art.Kind() != Artillery {
		t.Errorf("105mm battery: %d steps, %d dice, fixed %v, soft ground %v; want 2 steps, 5 dice, fixed, soft ground (8.1, 8.1.5)",
			art.MaxSteps(), art.Rating(2).Ranged, art.Class.Fixed, art.Class.SoftGround)
	}
	if r := mustCounter(t, "J01").Rating(1); r.Melee != 3 {
		t.Errorf("a Japanese platoon melees with %d dice, want 3 (8.2 example)", r.Melee)
	}
	mp := map[string]int{"IND1": 8, "13E-A": 6, "J01": 5, "U01": 5, "1/17-A": 6}
	for id, want := range mp {
		if got := mustCounter(t, id).Class.MP; got != want {
			t.Errorf("%s moves %d, want %d", id, got, want)
		}
	}
	if !mustCounter(t, "IND1").Class.Independent {
		t.Error("independent units must stack with every battalion (4.1)")
	}
	for _, id := range BuiltinCounters().Of(JP, Infantry) {
		if mustCounter(t, id).MaxSteps() != 1 {
			t.Errorf("Japanese unit %s has more than one step (2.4)", id)
		}
	}
}

func TestParseCountersRejectsBadFiles(t *testing.T) {
	bad := map[string]string{
		"unknown class": "classes: []\ncounters: [{ids: [X], class: nope}]\n",
		"dup id":        "classes: [{id: c, side: jp, kind: infantry, mp: 5, ratings: [{melee: 1}]}]\ncounters: [{ids: [X, X], class: c}]\n",
		"bad table":     "classes: [{id: u, side: jp, kind: unknown, mp: 5, ratings: [{melee: 1}]}]\ncounters: [{ids: [U1], class: u}]\nunknown_tables: {U1: [1, 2, 4, 1, 1, 1, 1, 1, 1, 1]}\n",
		"no battalion":  "classes: [{id: c, side: us, kind: infantry, mp: 5, ratings: [{melee: 1}]}]\ncounters: [{ids: [X], class: c}]\n",
		"bad side":      "classes: [{id: c, side: both, kind: infantry, mp: 5, ratings: [{melee: 1}]}]\ncounters: []\n",
		"bad range":     "classes: [{id: c, side: jp, kind: infantry, mp: 5, ratings: [{melee: 1}]}]\ncounters: [{ids: [J9..J1], class: c}]\n",
	}
	for name, src := range bad {
		if _, err := ParseCounters([]byte(src)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
