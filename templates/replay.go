package templates

import _ "embed"

// replayVerifyJS is the script every replay page runs before its own:
// the one copy of the dice derivation and of the checks of the seed, the
// commitment and the hash chain in the browser.
//
//go:embed replay/verify.js
var replayVerifyJS string

// ReplayScript returns a replay page's script js after the frame's
// checks, for PackedPage: js draws the game and calls
// attuVerify.verify(data, dieState, dieName) with the page's data (its
// commitment, seed, head, the log entries' canonical JSON and hashes, and
// the dice as recorded, each in the JSON of ReplayDie), which re-derives
// every die from the seed, checks the seed against the commitment and the
// chain up to the head, and marks each die as matching or not.
func ReplayScript(js string) string { return replayVerifyJS + "\n" + js }
