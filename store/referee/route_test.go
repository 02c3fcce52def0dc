package referee

import (
	windsys "github.com/attu-pbem/attu/templates/wind"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/mail"
)

// The mail package and the game service read the game a mail is for in
// the same way: the same plus-addresses and subject tags name the same
// game, and the same ones name none (one syntax, mail.GameIDPattern).
func TestRoutingAgreesWithMail(t *testing.T) {
	const own = "attu@example.org"
	s := New(nil, Config{System: windsys.Rules{}, Address: own})
	addrs := []string{
		"attu+g1@example.org", "ATTU+G1@EXAMPLE.ORG", "attu+game-2@example.org", "attu+Game-2.b_c@example.org",
		"attu+g_1@example.org", "attu+" + strings.Repeat("a", 32) + "@example.org", "attu+" + strings.Repeat("a", 33) + "@example.org",
		"attu+-g@example.org", "attu+g1+x@example.org", "other+g1@example.org", "attu+g1@other.org", "attu+@example.org",
		"attu@example.org", "attu+g1", "attu+9@example.org", "attu+g1@example.org.", "attu+é1@example.org",
	}
	subjects := []string{
		"[attu g1]", "Re: [ATTU G1] turn 3", "[attu  g-2] x", "[attu g.1]", "[attu g_1]", "[attu -g]", "[attu]",
		"[attu " + strings.Repeat("z", 32) + "]", "[attu " + strings.Repeat("z", 33) + "]", "[attu\tg3]", "[attu g1 ]",
	}
	r := rand.New(rand.NewPCG(13, 1943))
	const alphabet = "aG1-._+@ z]"
	for range 2000 {
		b := []byte("attu+")
		for n := r.IntN(12); n > 0; n-- {
			b = append(b, alphabet[r.IntN(len(alphabet))])
		}
		addrs = append(addrs, string(b)+"@example.org")
		subjects = append(subjects, "Re: [attu "+string(b[5:])+"]")
	}
	for _, a := range addrs {
		want, _ := mail.GameFromAddress(a, own)
		if got := s.route(&Message{To: []string{a}}); got != want {
			t.Errorf("to %q: the service routes to %q, the mail package to %q", a, got, want)
		}
	}
	for _, subj := range subjects {
		want, _ := mail.GameFromSubject(subj)
		if got := s.route(&Message{Subject: subj}); got != want {
			t.Errorf("subject %q: the service routes to %q, the mail package to %q", subj, got, want)
		}
	}
}
