package tournament

import (
	"encoding/json"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"os"
	"strings"
	"testing"
)

// The example file of examples/ is a valid tournament, and says what it
// means: its defaults are the package's.
func TestExampleFile(t *testing.T) {
	data, err := os.ReadFile("../../examples/tournament.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(data, windsys.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	if f.ID != "spring43" || f.System != "war-in-the-wind" || len(f.Players) != 6 || len(f.Rounds) != 3 || f.Rules.Words["vp-chits"] != "off" || duration(f.Rules.Settle) != 1800e9 {
		t.Fatalf("%+v", f)
	}
	p := f.Scoring.Points()
	if p != (Scoring{}).Points() {
		t.Fatalf("the example's scoring %+v is not the default %+v", p, (Scoring{}).Points())
	}
	if strings.Join(f.TieBreaks, ",") != strings.Join(DefaultTieBreaks, ",") {
		t.Fatalf("the example's tie-breaks %v are not the default", f.TieBreaks)
	}
}

// Every mistake in a tournament file is reported, each at its line and
// column.
func TestFileMistakes(t *testing.T) {
	const bad = `id: Spring 43
name: Open
umpire: {name: Una, address: umpire@example.org, time-zone: Mars/Olympus}
players:
  - {name: Alice, address: alice@example.org}
  - {name: Alice, address: alice2@example.org}
  - {name: Bruno, address: bruno@example.org}
pairing: knockout
sides: drawn
rounds:
  - scenario: up-the-hogs-back
  - {scenario: campaign, jp-setup: secret}
deadlines: {each: soon, waits: {lunch: 2h}}
rules: {vp-chits: drawn}
digest: "7am"
tie-breaks: [wins, coin]
`
	_, err := Parse([]byte(bad), windsys.Rules{})
	if err == nil {
		t.Fatal("the file passes")
	}
	want := []string{
		"1:5: id: give the tournament a short id",
		"3:9: umpire: time-zone \"Mars/Olympus\"",
		"6:5: players: Alice is named twice",
		"8:10: pairing: \"knockout\"",
		"11:5: rounds[1]: the victory point chits (rule 14.0) are a campaign rule",
		"12:5: rounds[2]: setup \"secret\"",
		"13:12: deadlines: each: \"soon\"",
		"13:12: deadlines: waits: \"lunch\" is not a kind of wait",
		"15:9: digest: \"7am\"",
		"16:13: tie-breaks: \"coin\"",
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("no %q in\n%v", w, err)
		}
	}
	// A misspelt key is found while the file is read, with a guess.
	_, err = Parse([]byte(strings.Replace(bad, "{name: Bruno, address:", "{name: Bruno, adress:", 1)), windsys.Rules{})
	if err == nil || !strings.Contains(err.Error(), "7:19: unknown field \"adress\" in players[2] (did you mean \"address\"?)") {
		t.Fatalf("a misspelt key: %v", err)
	}
}

// otherWind is War in the Wind's rules under another system's name.
type otherWind struct{ windsys.Rules }

func (otherWind) System() string { return "other-wind" }

// A tournament file's system: line picks its games' system among those
// hosted, none is War in the Wind's, and a system not hosted is refused
// at its line with the list of those that are.
func TestFileNamesItsSystem(t *testing.T) {
	example, err := os.ReadFile("../../examples/tournament.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(strings.Replace(string(example), "\nsystem: war-in-the-wind\n", "\n", 1))
	if string(data) == string(example) {
		t.Fatal("the example names no system")
	}
	for _, c := range []struct{ line, want string }{{"", ""}, {"system: war-in-the-wind\n", "war-in-the-wind"}, {"system: other-wind\n", "other-wind"}} {
		f, err := Parse(append([]byte(c.line), data...), windsys.Rules{}, otherWind{})
		if err != nil || f.System != c.want {
			t.Fatalf("%q: system %q, %v", c.line, f.System, err)
		}
	}
	_, err = Parse(append([]byte("system: chess\n"), data...), windsys.Rules{}, otherWind{})
	if err == nil || !strings.Contains(err.Error(), `1:9: system: "chess" is not a game system this server hosts; use war-in-the-wind, other-wind`) {
		t.Fatalf("a file of an unhosted system: %v", err)
	}
	if _, err := Parse(append([]byte("system: other-wind\n"), data...), windsys.Rules{}); err == nil {
		t.Fatal("a file of a system not hosted passes")
	}
}

// The rules: of a tournament file are the host's settle and the system's
// own words, which the system reads into each game's optional rules and
// judges, once for the file and again for each round's scenario; a
// tournament's record kept before the words were generic reads the same.
func TestFileRulesAreTheSystemsWords(t *testing.T) {
	example, err := os.ReadFile("../../examples/tournament.yaml")
	if err != nil {
		t.Fatal(err)
	}
	with := func(rules string) string {
		return strings.Replace(string(example), "rules:\n  vp-chits: off\n  settle: 30m\n", rules, 1)
	}
	if with("") == string(example) {
		t.Fatal("the example's rules are not where the test looks")
	}
	for _, c := range []struct{ rules, want string }{
		{"rules: {vp-chits: sometimes}\n", `rules: vp-chits "sometimes": use off, drawn or placed (rule 14.0)`},
		{"rules: {vp-chips: drawn}\n", `rules: "vp-chips" is not an optional rule of a tournament (vp-chits, settle)`},
		{"rules: {vp-chits: placed}\n", "rounds[1]: the victory point chits (rule 14.0) are a campaign rule; up-the-hogs-back is a short scenario"},
		{"rules: {vp-chits: [drawn]}\n", "rules: line"},
		{"rules: {settle: 1h, settle: 2h}\n", `"settle" is given twice`},
	} {
		if _, err := Parse([]byte(with(c.rules)), windsys.Rules{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.rules, err, c.want)
		}
	}
	campaigns := strings.NewReplacer("scenario: up-the-hogs-back", "scenario: campaign", "scenario: holtz-bay-to-jarmin-pass", "scenario: campaign")
	f, err := Parse([]byte(campaigns.Replace(with("rules: {vp-chits: placed, settle: 1h}\n"))), windsys.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	if on, errs := f.Rules.options(windsys.Rules{}, "campaign"); len(errs) != 0 || strings.Join(on, ",") != "vp-chits-placed" || f.Rules.Settle != "1h" {
		t.Fatalf("the options of a campaign round: %v %v, settle %q", on, errs, f.Rules.Settle)
	}
	var old RulesFile
	if err := json.Unmarshal([]byte(`{"vp_chits":"drawn","settle":"30m"}`), &old); err != nil || old.Words["vp-chits"] != "drawn" || old.Settle != "30m" {
		t.Fatalf("a record of the old layout reads as %+v (%v)", old, err)
	}
	b, err := json.Marshal(f.Rules)
	var again RulesFile
	if err != nil || json.Unmarshal(b, &again) != nil || again.Words["vp-chits"] != "placed" || again.Settle != "1h" {
		t.Fatalf("the rules do not round-trip: %s", b)
	}
}
