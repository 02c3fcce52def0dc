package adjudicator_test

import (
	"fmt"

	"github.com/attu-pbem/attu/adjudicator"
)

// A night turn from the U.S. decision: the Japanese act first (rule 3.2),
// and orders for any other wait are refused, naming the one awaited.
func ExampleResolve() {
	s, _ := adjudicator.NewGame(nil, nil, &adjudicator.ForcedDice{Values: []int{1, 1}}) // the Komandorski chits
	_ = s.Place("1/17-A", 2821, "")
	_ = s.Place("J01", 2717, "")
	fmt.Println(s.WaitText())

	dice := &adjudicator.ForcedDice{Values: []int{5, 8, 9}} // weather, U.S. and Japanese airpower
	decision := adjudicator.Orders{Side: adjudicator.US, Turn: 1, Wait: adjudicator.WaitUSDecision,
		Decision: &adjudicator.Decision{Night: true}}
	s, _, _ = adjudicator.Resolve(s, decision, dice)
	fmt.Println(s.WaitText())

	us := adjudicator.Orders{Side: adjudicator.US, Turn: 1, Wait: adjudicator.WaitActions}
	_, _, problems := adjudicator.Resolve(s, us, dice)
	fmt.Println(problems[0].Msg)
	// Output:
	// U.S. decision, turn 1 (May 11)
	// Japanese actions, turn 1 (May 11), night
	// the game waits for the Japanese actions of turn 1 (May 11, night), not U.S. actions
}
