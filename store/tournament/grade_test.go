package tournament

import (
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// A game decided by the victory point chits scores by the grade of its
// victory as the system gave it, whatever its level's words; a result
// recorded before results had grades scores by its words, as it did.
func TestGamePointsByGrade(t *testing.T) {
	p := Points{Win: 2, Draw: 1, Loss: 0, Major: [2]int{6, 0}, Minor: [2]int{4, 1}, Marginal: [2]int{3, 2}}
	for _, c := range []struct {
		r      Result
		us, jp int
	}{
		{Result{Winner: adjudicator.US, Grade: adjudicator.GradeMajor, Level: "a crushing win"}, 6, 0},
		{Result{Winner: adjudicator.JP, Grade: adjudicator.GradeMinor, Level: "Japanese major victory"}, 1, 4},
		{Result{Winner: adjudicator.US, Grade: adjudicator.GradeMarginal}, 3, 2},
		{Result{Winner: adjudicator.JP, Level: "Japanese marginal victory"}, 2, 3}, // recorded before grades
		{Result{Winner: adjudicator.US}, 2, 0},
		{Result{Winner: adjudicator.NoSide}, 1, 1},
		{Result{Winner: adjudicator.US, Grade: adjudicator.GradeMajor, Void: true}, 0, 0},
	} {
		if us, jp := gamePoints(p, &c.r); us != c.us || jp != c.jp {
			t.Errorf("%+v scores %d and %d, want %d and %d", c.r, us, jp, c.us, c.jp)
		}
	}
}
