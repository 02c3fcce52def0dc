package adjudicator

// Test helpers of this package for its external tests (package
// adjudicator_test: game_property_test.go, turn_bench_test.go), which
// import package autoplay and so cannot be in package adjudicator.
var (
	RandomState = randomState
	USSecrets   = usSecrets
	Leaks       = leaks
	// A server step of Resolve that the generated-game test replays.
	CheckSuddenVictory = (*State).checkSuddenVictory
)
