package wind_test

import (
	"fmt"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// A night turn from the U.S. decision: the Japanese act first (rule 3.2),
// and orders for any other wait are refused, naming the one awaited.
func ExampleResolve() {
	s, _ := wind.NewGame(nil, nil, &wind.ForcedDice{Values: []int{1, 1}}) // the Komandorski chits
	_ = s.Place("1/17-A", 2821, "")
	_ = s.Place("J01", 2717, "")
	fmt.Println(s.WaitText())

	dice := &wind.ForcedDice{Values: []int{5, 8, 9}} // weather, U.S. and Japanese airpower
	decision := wind.Orders{Side: wind.US, Turn: 1, Wait: wind.WaitUSDecision,
		Decision: &wind.Decision{Night: true}}
	s, _, _ = wind.Resolve(s, decision, dice)
	fmt.Println(s.WaitText())

	us := wind.Orders{Side: wind.US, Turn: 1, Wait: wind.WaitActions}
	_, _, problems := wind.Resolve(s, us, dice)
	fmt.Println(problems[0].Msg)
	// Output:
	// U.S. decision, turn 1 (May 11)
	// Japanese actions, turn 1 (May 11), night
	// the game waits for the Japanese actions of turn 1 (May 11, night), not U.S. actions
}
