package referee

import (
	"github.com/attu-pbem/attu/orders"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// A message reaches its game by the game's address, by the tag in its
// subject (under any number of reply prefixes), or by the game its orders
// file names; the command may be the subject's first word.
func TestRouting(t *testing.T) {
	h := newHarness(t, NewGame{})
	h.newMails()
	m := h.message(jpAddr, "Re: RE: Fwd: [attu g1] status please")
	m.To = []string{"attu@example.org"}
	out := h.send(m)
	mustContain(t, "status by the subject", mailTo(t, out, jpAddr).Text, "Waiting:  the U.S. (turn 1, May 11)")

	m = h.message(usAddr, "my orders")
	m.To = []string{"Attu Games <attu@example.org>"}
	m.Orders = h.file(nil, h.tokens[adjudicator.US])
	if out := h.send(m); len(out) != 2 || h.game().Entries != 2 {
		t.Fatalf("routed by the file's game: %v", subjects(out))
	}

	m = h.message("Bob <jp@Example.ORG>", "")
	m.To = []string{"attu+G1@EXAMPLE.org"}
	m.Text = "> status\n\nhelp\n-- \nBob\nstatus\n"
	mustContain(t, "help from a display-named address", mailTo(t, h.send(m), "jp@Example.ORG").Text, "attu game g1: help")

	// The local part compares byte for byte (mail.SameAddress): another
	// case is another mailbox, a stranger's.
	m = h.message("JP@example.org", "[attu g1] status")
	mustContain(t, "status from another case", mailTo(t, h.send(m), "JP@example.org").Text, "attu did not accept your message")
}

func TestParseCommand(t *testing.T) {
	for _, c := range []struct {
		subject, text string
		name          string
		args          []string
		token         string
	}{
		{"", "status\n", "status", nil, ""},
		{"Re: [attu g1] orders", "absent 2026-06-01\ntoken: abc\n", "absent", []string{"2026-06-01"}, "abc"},
		{"[attu g1] extend 2d", "Token:  xyz  \n", "extend", []string{"2d"}, "xyz"},
		{"hello", "> token: quoted\n>concede\n\n  takeback  \n", "takeback", nil, ""},
		{"", "", "", nil, ""},
		{"", "go\n-- \ntoken: in-signature\n", "go", nil, ""},
	} {
		name, args, token := parseCommand(c.subject, c.text)
		if name != c.name || strings.Join(args, " ") != strings.Join(c.args, " ") || token != c.token {
			t.Errorf("%q %q: got %q %q %q", c.subject, c.text, name, args, token)
		}
	}
}

// What strangers write never makes the command reader or the envelope
// reader fail.
func FuzzParseCommand(f *testing.F) {
	f.Add("Re: [attu g1] status", "token: abc\nconcede\n")
	f.Add("", "> token: x\n-- \n")
	f.Add("[attu", "\r\n\r\n  \t")
	f.Fuzz(func(t *testing.T, subject, text string) {
		name, _, token := parseCommand(subject, text)
		if strings.ContainsAny(token, " \t\n") || strings.ContainsAny(name, " \t\n") {
			t.Fatalf("%q %q", name, token)
		}
		orders.ReadEnvelope([]byte(text))
	})
}

// A game's address is its mailbox's, tagged with the game's id in place
// of any tag the mailbox carried; what is no address gives none.
func TestGameAddress(t *testing.T) {
	for _, c := range []struct{ mailbox, id, want string }{
		{"attu@example.org", "g1", "attu+g1@example.org"},
		{"attu+games@example.org", "bay", "attu+bay@example.org"},
		{"attu", "g1", ""},
	} {
		if got := GameAddress(c.mailbox, c.id); got != c.want {
			t.Errorf("GameAddress(%q, %q) = %q, want %q", c.mailbox, c.id, got, c.want)
		}
	}
}
