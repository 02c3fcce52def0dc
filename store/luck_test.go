package store

import (
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// A dice log with known faces and needs gives exact expectations: a die
// needing N counts (11-N)/10 expected hits and a hit when it shows N or more.
func TestLuckAgainstNeed(t *testing.T) {
	us, jp := "1/17-A", "J01"
	for _, id := range []string{us, jp} {
		if _, ok := wind.BuiltinCounters().Get(id); !ok {
			t.Fatalf("no counter %s", id)
		}
	}
	roll := func(p wind.DiePurpose, side wind.Side, unit string, need, face int) Roll {
		return Roll{Die: wind.Die{Purpose: p, Side: side, Unit: unit, Need: need, Seen: wind.AudienceBoth}, Face: face}
	}
	US, JP := wind.US, wind.JP
	rolls := []Roll{
		roll(wind.DieWeather, wind.NoSide, "", 0, 3), // no need: faces only, neither side
		roll(wind.DieAirpower, US, "", 0, 8),
		roll(wind.DieMeleeAttack, US, us, 7, 7),    // hit
		roll(wind.DieMeleeAttack, US, us, 7, 6),    // miss
		roll(wind.DieMeleeDefence, US, us, 10, 10), // hit
		roll(wind.DieAirStrike, US, "", 9, 9),      // hit
		roll(wind.DieAirStrike, US, "", 9, 2),      // miss
		roll(wind.DieRanged, JP, jp, 5, 5),         // hit
		roll(wind.DieRanged, JP, jp, 5, 4),         // miss
		roll(wind.DieRanged, JP, jp, 1, 1),         // hit
	}
	for i := range rolls {
		rolls[i].Seq, rolls[i].Entry = uint64(i+1), 2
	}
	l := computeLuck(rolls, map[uint64]bool{2: true}, 10, (windsys.Rules{}).LuckRules())

	type want struct {
		dice, hits int
		expected   float64
	}
	wants := map[wind.Side]map[string]want{
		wind.US: {"melee": {3, 2, 0.4 + 0.4 + 0.1}, "air": {2, 1, 0.2 + 0.2}, "ranged": {}},
		wind.JP: {"ranged": {3, 2, 0.6 + 0.6 + 1.0}, "melee": {}, "air": {}},
	}
	total := map[wind.Side]int{wind.US: 6, wind.JP: 3, wind.NoSide: 1}
	if len(l.Sides) != 3 {
		t.Fatalf("sides: %+v", l.Sides)
	}
	for _, s := range l.Sides {
		if s.Dice != total[s.Side] {
			t.Errorf("%s: %d dice, want %d", s.Side, s.Dice, total[s.Side])
		}
		for _, f := range s.Fire {
			w := wants[s.Side][f.Kind]
			if f.Dice != w.dice || f.Hits != w.hits || math.Abs(f.Expected-w.expected) > 1e-9 {
				t.Errorf("%s %s: %d dice, %d hits, %.2f expected; want %d, %d, %.2f", s.Side, f.Kind, f.Dice, f.Hits, f.Expected, w.dice, w.hits, w.expected)
			}
		}
	}
	if us := l.Sides[0]; us.Faces[7] != 1 || us.Faces[8] != 1 || us.Faces[10] != 1 || us.Faces[1] != 0 {
		t.Errorf("U.S. faces %v", us.Faces)
	}
	summaryHas(t, l,
		"melee     3 dice:    2 hits,    0.9 expected (+1.1, a little lucky)",
		"air       2 dice:    1 hits,    0.4 expected (+0.6, a little lucky)",
		"ranged    3 dice:    2 hits,    2.2 expected (-0.2, as expected)",
		"neither side (weather): 1 dice")
}

// summaryHas checks that the luck summary's text holds every line, and
// returns the text.
func summaryHas(t *testing.T, l *Luck, lines ...string) string {
	t.Helper()
	var b strings.Builder
	l.WriteText(&b)
	for _, line := range lines {
		if !strings.Contains(b.String(), line) {
			t.Errorf("summary lacks %q:\n%s", line, b.String())
		}
	}
	return b.String()
}

// The luck of an export is the audit's, rolled-back entries left out.
func TestExportLuck(t *testing.T) {
	db := rolledBackGame(t)
	x := mustExport(t, db, "g1", true)
	got := x.Luck(windsys.Rules{})
	if audit := mustAudit(t, x).Luck; !reflect.DeepEqual(got, audit) {
		t.Fatalf("the export's luck\n%+v\nthe audit's\n%+v", got, audit)
	}
	var rolled int
	for _, s := range got.Sides {
		rolled += s.Dice
	}
	if rolled == 0 || rolled == len(x.Dice) {
		t.Fatalf("%d dice counted of %d: the rolled-back entries' dice should be left out, the others in", rolled, len(x.Dice))
	}
}

// A kind of die judged by its mean face (Island War's combat die, where a
// low face helps the attacker who rolls it): the mean and its deviation
// from a fair die's in standard errors, read toward the side rolling.
func TestLuckOfMeanFace(t *testing.T) {
	lr := LuckRules{Ranked: []RankedKind{{Name: "combat", Purposes: []wind.DiePurpose{"combat"}, Low: true}}}
	var rolls []Roll
	for i, f := range []int{1, 1, 2, 1, 3, 2, 1, 2, 6} { // U.S.: sum 19, mean 2.11
		rolls = append(rolls, Roll{Seq: uint64(i + 1), Entry: 2, Die: wind.Die{Purpose: "combat", Side: wind.US}, Face: f})
	}
	rolls = append(rolls, Roll{Seq: 10, Entry: 2, Die: wind.Die{Purpose: "combat", Side: wind.JP}, Face: 4})
	rolls = append(rolls, Roll{Seq: 11, Entry: 3, Die: wind.Die{Purpose: "combat", Side: wind.JP}, Face: 1}) // rolled back
	l := computeLuck(rolls, map[uint64]bool{2: true}, 6, lr)
	us, jp := l.Sides[0].Ranked[0], l.Sides[1].Ranked[0]
	if us.Dice != 9 || us.Sum != 19 || jp.Dice != 1 || jp.Sum != 4 {
		t.Fatalf("U.S. %+v, Japanese %+v", us, jp)
	}
	// (3.5 - 19/9) / sqrt(35/12/9) = 2.440 standard errors in the U.S.'s favour.
	if s := us.Sigma(6); math.Abs(s-2.4398) > 1e-3 {
		t.Errorf("U.S. sigma %.4f", s)
	}
	if s := jp.Sigma(6); math.Abs(s+0.2928) > 1e-3 {
		t.Errorf("Japanese sigma %.4f", s)
	}
	text := summaryHas(t, l,
		"Dice luck: each side's dice by face, and the mean face where a low or high face helps (fair: 3.5)",
		"US: 9 dice",
		"  combat    9 dice: mean face 2.11, a low face helps (lucky)",
		"  combat    1 dice: mean face 4.00, a low face helps (as expected)")
	if strings.Contains(text, "to-hit") {
		t.Errorf("a system without to-hit dice is told of them:\n%s", text)
	}
}
