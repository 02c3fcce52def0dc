package wind

import (
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// The Victory Level Table (rule 14.0) gives each score its winner, the
// level's words and its grade, line by line at each line's edge.
func TestVictoryLevelTable(t *testing.T) {
	for _, c := range []struct {
		points int
		winner Side
		level  string
		grade  adjudicator.Grade
	}{
		{11, US, "U.S. major victory", adjudicator.GradeMajor},
		{10, US, "U.S. minor victory", adjudicator.GradeMinor},
		{9, US, "U.S. minor victory", adjudicator.GradeMinor},
		{8, US, "U.S. marginal victory", adjudicator.GradeMarginal},
		{7, US, "U.S. marginal victory", adjudicator.GradeMarginal},
		{6, JP, "Japanese marginal victory", adjudicator.GradeMarginal},
		{5, JP, "Japanese marginal victory", adjudicator.GradeMarginal},
		{4, JP, "Japanese minor victory", adjudicator.GradeMinor},
		{3, JP, "Japanese minor victory", adjudicator.GradeMinor},
		{2, JP, "Japanese major victory", adjudicator.GradeMajor},
		{-5, JP, "Japanese major victory", adjudicator.GradeMajor},
	} {
		w, l := VictoryLevel(c.points)
		if g := VictoryGrade(c.points); w != c.winner || l != c.level || g != c.grade {
			t.Errorf("%d points: %s, %q, %s; want %s, %q, %s", c.points, w, l, g, c.winner, c.level, c.grade)
		}
	}
}

// A U.S. victory the chits decide at the end of the last turn reads as
// the chits' verdict, not as the U.S. failing to win (rule 14.0); a game
// the chits did not decide reads as stored.
func TestVictoryTextOfChits(t *testing.T) {
	s := &State{VP: &VPChits{Revealed: true}, Winner: US,
		Victory: lastTurnWhy + chitsDecide + "Attu Village (3409): captured, 3; 9 victory points: U.S. minor victory"}
	want := "the victory point chits decide (rule 14.0): Attu Village (3409): captured, 3; 9 victory points: U.S. minor victory; the game ended when the last turn was over (rule 3.8.3)"
	if got := s.VictoryText(); got != want {
		t.Errorf("VictoryText = %q, want %q", got, want)
	}
	s = &State{Winner: JP, Victory: lastTurnWhy}
	if got := s.VictoryText(); got != lastTurnWhy {
		t.Errorf("without chits VictoryText = %q", got)
	}
}
