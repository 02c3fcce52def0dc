package mail

import (
	"regexp"
	"slices"
	"strings"
)

// GameIDPattern is the syntax of a game's id, a regular expression without
// anchors: a lower-case letter or digit, then up to 31 lower-case letters,
// digits and dashes. Such an id passes unchanged through a plus-address's
// local part (attu+ID@host) and a subject tag ([attu ID]); ids outside it
// cannot be addressed by mail. The game service gives games only such ids
// and routes mail with this pattern too, so that the two agree.
const GameIDPattern = `[a-z0-9][a-z0-9-]{0,31}`

// The tag's word "attu" and the id are read in any case, and the id
// lower-cased, since mail systems may change the case of what they carry.
var (
	subjectTag   = regexp.MustCompile(`(?i)\[attu\s+(` + GameIDPattern + `)\]`)
	gameIDSyntax = regexp.MustCompile(`^` + GameIDPattern + `$`)
)

// ValidGameID tells whether id can be used in a plus-address and a
// subject tag: it matches GameIDPattern.
func ValidGameID(id string) bool { return gameIDSyntax.MatchString(id) }

// GameFromAddress returns the game of a plus-address of the mailbox own:
// "attu+g1@example.org" is game g1 of "attu@example.org". The address
// without its tag must be own (SameAddress); the id is lower-cased.
func GameFromAddress(addr, own string) (string, bool) {
	local, domain, ok := splitAddress(addr)
	if !ok {
		return "", false
	}
	base, id, plus := strings.Cut(local, "+")
	id = strings.ToLower(id)
	if !plus || !SameAddress(base+"@"+domain, own) || !ValidGameID(id) {
		return "", false
	}
	return id, true
}

// GameFromSubject returns the game of a subject tag, lower-cased: "Re:
// [attu G1] orders" is game g1.
func GameFromSubject(subject string) (string, bool) {
	m := subjectTag.FindStringSubmatch(subject)
	if m == nil {
		return "", false
	}
	return strings.ToLower(m[1]), true
}

// SubjectText returns a subject without its reply and forward prefixes
// and game tags: "Re: [attu g1] Status" gives "Status".
func SubjectText(subject string) string {
	s := subjectTag.ReplaceAllString(subject, " ")
	for {
		s = strings.TrimSpace(s)
		word, rest, ok := strings.Cut(s, ":")
		if !ok || !slices.ContainsFunc(replyPrefixes, func(p string) bool { return p == asciiLower(word) }) {
			return s
		}
		s = rest
	}
}

// replyPrefixes are the words mail programs put before a subject they
// answer or forward, in several languages.
var replyPrefixes = []string{"re", "fwd", "fw", "aw", "sv", "antw", "tr", "wg"}
