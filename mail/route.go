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
// "attu+g1@example.org" is game g1 of "attu@example.org". Local parts and
// domains compare without regard to case; the id is lower-cased.
func GameFromAddress(addr, own string) (string, bool) {
	local, domain, ok := splitAddress(addr)
	ownLocal, ownDomain, ok2 := splitAddress(own)
	if !ok || !ok2 || !strings.EqualFold(domain, ownDomain) {
		return "", false
	}
	base, id, plus := strings.Cut(local, "+")
	id = strings.ToLower(id)
	if !plus || !strings.EqualFold(base, ownLocal) || !ValidGameID(id) {
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
		if !ok || !slices.ContainsFunc(replyPrefixes, func(p string) bool { return strings.EqualFold(p, word) }) {
			return s
		}
		s = rest
	}
}

// replyPrefixes are the words mail programs put before a subject they
// answer or forward, in several languages.
var replyPrefixes = []string{"re", "fwd", "fw", "aw", "sv", "antw", "tr", "wg"}

// SameAddress tells whether two addresses are the same mailbox. Local
// parts compare without regard to case as every common provider does.
func SameAddress(a, b string) bool {
	return a != "" && strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

func splitAddress(a string) (local, domain string, ok bool) {
	i := strings.LastIndexByte(a, '@')
	if i <= 0 || i == len(a)-1 {
		return "", "", false
	}
	return a[:i], a[i+1:], true
}
