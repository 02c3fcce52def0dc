package store

import "regexp"

// GameIDPattern is the syntax of a game's id, a regular expression without
// anchors: a lower-case letter or digit, then up to 31 lower-case letters,
// digits and dashes. Such an id passes unchanged through a plus-address's
// local part (attu+ID@host) and a subject tag ([attu ID]). Mail systems
// may change the case of an address, so an id read from mail is
// lower-cased before it is checked. The game service gives games only
// such ids, and every router of incoming mail (the mail package, the
// game service) reads them with this pattern, so that they agree.
const GameIDPattern = `[a-z0-9][a-z0-9-]{0,31}`

var gameIDSyntax = regexp.MustCompile(`^` + GameIDPattern + `$`)

// ValidGameID tells whether id is a game id by GameIDPattern.
func ValidGameID(id string) bool { return gameIDSyntax.MatchString(id) }
