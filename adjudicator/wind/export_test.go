package wind

// Test helpers of this package for its external tests (package
// adjudicator_test: game_property_test.go, turn_bench_test.go), which
// import package autoplay and so cannot be in package adjudicator.
var (
	RandomState = randomState
	USSecrets   = usSecrets
	Leaks       = leaks
	// A server step of Resolve that the generated-game test replays.
	CheckSuddenVictory = (*State).checkSuddenVictory
	// The server steps of the solitaire rules (rule 13) the replay adds.
	SoloAir        = (*State).soloAir
	SoloAdHocFire  = (*State).soloAdHocFire
	SoloAdHoc      = (*State).soloAdHoc
	SoloAfterMelee = (*State).soloAfterMelee
)

// eventText words an event as the reports do: templates.EventText, set by
// render_test.go. This package's own tests cannot import package
// templates, which imports this one; its external tests can, and they are
// built into the same test binary.
var eventText func(Event) string

// SetEventText sets eventText (render_test.go).
func SetEventText(f func(Event) string) { eventText = f }

// usText words an event as the U.S. reads it, or "" when it does not.
func usText(e Event) string {
	if r, ok := Redact(e, US); ok {
		return eventText(r)
	}
	return ""
}
