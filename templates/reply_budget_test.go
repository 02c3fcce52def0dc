package templates

import (
	"fmt"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// budgetReplies are the replies that keep what one mail causes small and
// say what is wrong with it, filled as the game service would; their
// golden files are kept with the others (TestReplyGolden).
func budgetReplies(t *testing.T) map[string]interface{ Text() string } {
	var errs []LineError
	var file strings.Builder
	for i := 1; i <= 100; i++ {
		file.WriteString("\tkey" + fmt.Sprint(i) + ": x\n")
		errs = append(errs, LineError{Line: i, Col: 1, Msg: "a tab is used for indentation; YAML needs spaces"})
	}
	long := strings.Repeat("k", 5000)
	sides := []adjudicator.Side{adjudicator.US}
	out := map[string]interface{ Text() string }{
		"refused-many": Refused{Game: "g1", Subject: "orders " + strings.Repeat("x", 500), Errors: errs, File: []byte(file.String()), Stopped: true},
		"refused-long-key": Refused{Game: "g1", Subject: "orders",
			Errors: append(errs[:21:21], LineError{Line: 1, Col: 1, Msg: long + ": unknown key"}), File: []byte(file.String())},
		"help-skipped": Help{Game: "g1", Address: "attu+g1@example.org", Puzzled: true, Skipped: []SkippedPart{
			{Part: "2", Type: "application/zip", Name: "orders.zip"},
			{Part: "3", Type: "application/pgp-encrypted"},
			{Part: "4", Type: "application/octet-stream", Name: "encrypted.asc"},
			{Part: "5", Type: "application/yaml", Name: "us.yaml", Undecoded: true},
			{Part: "6", Type: "text/plain", Name: "orders.txt"},
			{Part: "7", Type: "application/pgp-signature", Name: "signature.asc"},
		}},
		// A mail without the token: its parts are named by number only.
		"help-skipped-unproven": Help{Game: "g1", Address: "attu+g1@example.org", Puzzled: true, Tokenless: 5, Skipped: []SkippedPart{
			{Part: "2", Type: "application/x-your-token-was-reset", Name: "reply to mallory@evil.test.zip", Unproven: true},
			{Part: "3", Type: "application/yaml", Name: "us.yaml", Undecoded: true, Unproven: true},
		}},
		"refused-not-yaml": Refused{Game: "g1", Subject: Glimpse("[attu g1] your token was reset, reply to mallory@evil.test"), Why: "why-not-yaml",
			Reason: Notice{Kind: "why-not-yaml", Note: "line 1, column 1"}.Text() + "."},
		"slowdown": SlowDown{Game: "g1", Limit: 30, Window: "an hour"},
		"log-cut": Log{Game: "g1", Side: adjudicator.Umpire, Earlier: 40, Next: 44, Entries: []LogLine{
			{Seq: 41, Entry: Entry{Kind: "orders", Turn: 9, Wait: wind.WaitActions, Side: adjudicator.JP}, Events: []string{"Weather: clear (die 7)."}},
			{Seq: 42, Entry: Entry{Kind: "note", Side: adjudicator.US, Note: "The U.S. player asked for a takeback."}},
			{Seq: 43, Entry: Entry{Kind: "rollback", To: 40, Note: "mistyped hex"}}}},
	}
	// A lure in the subject is cut to a glimpse; words attu does not know
	// as a command are not repeated.
	out["token-wrong-unknown"] = TokenRefused{Game: "g1", About: "[attu g1] your token was reset, reply to mallory@evil.test for a new one",
		Sides: sides, Problem: TokenWrong, Mail: true}
	for _, p := range []string{TokenMissing, TokenEmpty, TokenUnfilled, TokenWrong, TokenOtherSide, TokenOtherFile} {
		r := TokenRefused{Game: "g1", About: "[attu g1] orders", Sides: sides, Problem: p, Other: adjudicator.JP, FileSide: adjudicator.JP}
		out["token-"+p] = r
		if p != TokenOtherFile {
			r.Command, r.About = "pause", "[attu g1] pause"
			r.Sides = []adjudicator.Side{adjudicator.US, adjudicator.Umpire}
			out["token-"+p+"-command"] = r
		}
	}
	return out
}

// A refusal lists at most MaxListed mistakes and says how many more, and
// repeats no more than a bounded piece of the player's own words.
func TestRefusedIsBounded(t *testing.T) {
	r := budgetReplies(t)["refused-many"].(Refused)
	text := r.Text()
	if n := strings.Count(text, ", column "); n != MaxListed {
		t.Errorf("%d mistakes listed, want %d", n, MaxListed)
	}
	for _, w := range []string{"100 mistakes", "stopped looking", "and 80 more"} {
		if !strings.Contains(text, w) {
			t.Errorf("the refusal lacks %q:\n%s", w, text)
		}
	}
	long := budgetReplies(t)["refused-long-key"].(Refused).Text()
	if len(long) > 8<<10 || !strings.Contains(long, "and 2 more") {
		t.Errorf("a refusal of 22 mistakes, one of 5000 characters, is %d bytes:\n%s", len(long), long)
	}
}

// Bounded keeps a text that fits, and cuts one that does not at a line's
// end within the limit, saying so.
func TestBounded(t *testing.T) {
	if got := Bounded("short\n", 100); got != "short\n" {
		t.Errorf("a short text changed: %q", got)
	}
	big := strings.Repeat("0123456789 abcdefghij\n", 10000)
	got := Bounded(big, MaxReply)
	if len(got) > MaxReply || !strings.HasSuffix(got, "kept under 64 KB.]\n") || !strings.HasPrefix(big, strings.SplitAfter(got, "\n[The rest")[0][:len(got)-100]) {
		t.Errorf("cut to %d bytes, ending %q", len(got), got[len(got)-100:])
	}
}

// Each kind of skipped part gets its own advice; a signature none.
func TestSkippedSentences(t *testing.T) {
	for _, c := range []struct {
		p    SkippedPart
		want string
	}{
		{SkippedPart{Part: "2", Type: "application/zip", Name: "orders.zip"}, "Attach the .yaml file itself"},
		{SkippedPart{Part: "2", Type: "application/x-gzip", Name: "orders.yaml.gz"}, "compressed"},
		{SkippedPart{Part: "2", Type: "application/pkcs7-mime", Name: "smime.p7m"}, "encrypted"},
		{SkippedPart{Part: "2", Type: "application/yaml", Name: "orders.yaml", Undecoded: true}, "could not be decoded"},
		{SkippedPart{Part: "2", Type: "application/vnd.oasis.opendocument.text", Name: "orders.odt"}, "not a .yaml file"},
		{SkippedPart{Part: "2", Type: "application/pgp-signature", Name: "signature.asc"}, ""},
	} {
		got := c.p.Sentence()
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

// Glimpse keeps at most six words and 40 characters of a subject, saying
// where it cut.
func TestGlimpse(t *testing.T) {
	for in, want := range map[string]string{
		"":                                    "",
		"orders":                              "orders",
		"Re:  [attu g1]\tstatus":              "Re: [attu g1] status",
		"one two three four five six":         "one two three four five six",
		"one two three four five six seven":   "one two three four five six...",
		strings.Repeat("x", 60):               strings.Repeat("x", 37) + "...",
		"your token was reset, reply to evil": "your token was reset, reply to...",
		"überlong ÄÖÜ words " + strings.Repeat("é", 40): "überlong ÄÖÜ words " + strings.Repeat("é", 18) + "...",
	} {
		if got := Glimpse(in); got != want || len([]rune(got)) > glimpseChars {
			t.Errorf("Glimpse(%q) = %q, want %q", in, got, want)
		}
	}
}
