package templates

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/attu-pbem/attu/adjudicator"
)

// Budgets of what one incoming mail can make attu write: whatever a
// stranger or a careless mailer sends, the answer stays short.
const (
	// MaxReply is the most a reply other than a report may weigh, its text
	// and attachments together: the answers to commands, refusals, notices.
	MaxReply  = 64 << 10
	MaxListed = 20  // how many mistakes a refusal lists; it says how many more there are
	maxQuoted = 200 // characters of a player's own words (a subject, a file name, a mistake) a reply repeats
	// A reply to mail that does not prove its sender (no token, a wrong
	// one) repeats at most glimpseWords words and glimpseChars characters
	// of its subject, and nothing else of it: anybody may have written
	// it, and a lure ("your token was reset, reply to ...") must not
	// arrive inside attu's own mail.
	glimpseWords = 6
	glimpseChars = 40
)

// Glimpse returns the few words of a subject a reply to mail that does
// not prove its sender repeats: the first glimpseWords words, at most
// glimpseChars characters, with "..." where it was cut.
func Glimpse(subject string) string {
	words := strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, subject))
	cut := len(words) > glimpseWords
	words = words[:min(len(words), glimpseWords)]
	rs := []rune(strings.Join(words, " "))
	if len(rs) > glimpseChars {
		rs, cut = rs[:glimpseChars-3], true
	}
	if !cut {
		return string(rs)
	}
	return strings.TrimRight(string(rs), " ") + "..."
}

// Bounded returns text cut to at most max bytes, at a line's end, with a
// last line saying that the rest was left out; text itself when it fits.
func Bounded(text string, max int) string {
	if len(text) <= max {
		return text
	}
	const cut = "\n[The rest of this answer is left out: attu's answers are kept under 64 KB.]\n"
	keep := text[:max-len(cut)]
	if i := strings.LastIndexByte(keep, '\n'); i > 0 {
		keep = keep[:i]
	}
	return strings.ToValidUTF8(keep, "") + cut
}

// quote returns a player's words fit to repeat in a reply: control
// characters as spaces, at most maxQuoted characters, a word too long
// for a line broken into pieces that fit.
func quote(s string) string {
	rs := []rune(s)
	if len(rs) > maxQuoted {
		rs = append(rs[:maxQuoted-3], []rune("...")...)
	}
	var b strings.Builder
	word := 0
	for _, r := range rs {
		if unicode.IsControl(r) {
			r = ' '
		}
		if word = word + 1; unicode.IsSpace(r) {
			word = 0
		} else if word > MaxWidth-12 {
			b.WriteByte(' ')
			word = 1
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SkippedPart is a part of a mail that attu did not read, which a reply
// names with what to send instead.
type SkippedPart struct {
	Part      string // its number: "2", "1.2"
	Type      string // its media type
	Name      string // its file name, when it has one
	Undecoded bool   // it could not be decoded; otherwise it was read and set aside
	// Unproven says the mail carried no token: its name and type, the
	// sender's words, are not repeated, only the advice they lead to.
	Unproven bool
}

// kind sorts a skipped part by what the player should do about it.
func (p SkippedPart) kind() string {
	t, ext := strings.ToLower(p.Type), strings.ToLower(path.Ext(p.Name))
	switch {
	case strings.Contains(t, "signature") || ext == ".sig":
		return "signature"
	case strings.Contains(t, "encrypted") || strings.Contains(t, "pkcs7-mime") ||
		ext == ".gpg" || ext == ".pgp" || ext == ".asc" || ext == ".p7m":
		return "encrypted"
	case p.Undecoded && (ext == ".yaml" || ext == ".yml" || strings.Contains(t, "yaml")):
		return "undecoded-yaml"
	case p.Undecoded:
		return "undecoded"
	case slices.ContainsFunc([]string{"zip", "compressed", "x-tar", "x-7z", "x-rar"}, func(s string) bool { return strings.Contains(t, s) }) ||
		slices.Contains([]string{".zip", ".gz", ".tgz", ".7z", ".rar", ".bz2", ".xz"}, ext):
		return "compressed"
	}
	return "other"
}

// Sentence says what the part is and what to send instead; empty for a
// part nobody means as orders (a signature).
func (p SkippedPart) Sentence() string {
	var about []string
	if p.Name != "" && !p.Unproven {
		about = append(about, fmt.Sprintf("%q", quote(p.Name)))
	}
	if p.Type != "" && !p.Unproven {
		about = append(about, quote(p.Type))
	}
	what := "Part " + quote(p.Part)
	if len(about) > 0 {
		what += " (" + strings.Join(about, ", ") + ")"
	}
	return strings.Join(strings.Fields(execute("skipped-"+p.kind(), struct {
		SkippedPart
		What string
	}{p, what})), " ")
}

// skippedLines are the sentences of the parts worth naming, at most ten.
func skippedLines(ps []SkippedPart) []string {
	var out []string
	for _, p := range ps {
		if s := p.Sentence(); s != "" && len(out) < 10 {
			out = append(out, s)
		}
	}
	return out
}

// Token problems of a mail from a player's registered address that does
// not authenticate (TokenRefused.Problem).
const (
	TokenMissing   = "missing"     // no token line, or no token: key in the file
	TokenEmpty     = "empty"       // a token line with nothing after it
	TokenUnfilled  = "placeholder" // the template's TokenPlaceholder left in
	TokenWrong     = "wrong"       // no side's token of this game
	TokenOtherSide = "other-side"  // the token of another side of the game
	TokenOtherFile = "other-file"  // an orders file for a side the address does not play
)

// TokenRefused answers a mail from a player's registered address whose
// token does not authenticate it: which check failed, where, and where
// the token is found. It goes only to the registered address, so it
// tells a forger nothing; and as anybody may have sent the mail, it
// repeats only a glimpse of its subject (Glimpse), never its arguments,
// its attachments' names or a command attu does not know.
type TokenRefused struct {
	Game     string
	About    string             // the subject of the mail refused, to help the player find it: a Glimpse of it is repeated
	Sides    []adjudicator.Side // the sides the address plays
	FileSide adjudicator.Side   // the side an orders file named
	Other    adjudicator.Side   // the side whose token it carried
	Problem  string             // one of the Token constants
	Command  string             // the command the mail gave, one of attu's; empty for an orders file or words attu does not know
	Mail     bool               // the mail held no orders file
}

// Text renders the answer to a mail whose token failed.
func (r TokenRefused) Text() string {
	r.About = quote(Glimpse(r.About))
	r.Command = quote(r.Command)
	return execute("reply-token.tmpl", r)
}

// Subject is the subject of the answer to a mail whose token failed.
func (r TokenRefused) Subject() string {
	return strings.TrimSpace(execute("subject-token-"+r.Problem, r))
}

// SlowDown is the one note a side gets when its mails come faster than
// the game answers them; later ones go unanswered until the pace drops.
type SlowDown struct {
	Game string
	// Limit replies per Window, as the game allows them.
	Limit  int
	Window string
}

// Text renders the note.
func (s SlowDown) Text() string { return execute("reply-slowdown.tmpl", s) }

// Subject is the note's subject.
func (SlowDown) Subject() string { return "too many mails: later ones go unanswered for a while" }
