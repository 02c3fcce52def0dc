package mail

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

// An address field reads as RFC 5322 writes it: comments anywhere,
// groups, quoted local parts, obsolete forms; what does not parse names
// no mailbox.
func TestParseAddressList(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string // nil: does not parse
	}{
		{`<us@example.test>`, []string{"us@example.test"}},
		{`"us" <us@example.test>`, []string{"us@example.test"}},
		{`us@example.test (Us)`, []string{"us@example.test"}},
		{`"us" <us(comment)@example.test>`, []string{"us@example.test"}},
		{`<(a)us(b)@(c)example.test(d)>`, []string{"us@example.test"}},
		{`(c) us (d) @ (e) example . test (f)`, []string{"us@example.test"}},
		{`(a <mallory@evil.test> (b \) c)) <us@example.test>`, []string{"us@example.test"}},
		{`"Doe, John" <j@example.test>, jp@example.test`, []string{"j@example.test", "jp@example.test"}},
		{`John Q. Public <jqp@example.test>`, []string{"jqp@example.test"}},
		{`"u\"s"@example.test`, []string{`u"s@example.test`}},
		{`"us"@example.test`, []string{"us@example.test"}},
		{`first.last@example.test`, []string{"first.last@example.test"}},
		{`<@relay.test,@other.test:us@example.test>`, []string{"us@example.test"}},
		{`us@[192.0.2.1]`, []string{"us@[192.0.2.1]"}},
		{`players: us@example.test;`, []string{"us@example.test"}},
		{`players: us@example.test, <jp@example.test>;, carol@example.test`, []string{"us@example.test", "jp@example.test", "carol@example.test"}},
		{`players:;`, []string{}},
		{`, , us@example.test,`, []string{"us@example.test"}},
		{`=?utf-8?q?J=C3=BCrgen?= <j@example.test>`, []string{"j@example.test"}},
		// An encoded word is a display name, never an address.
		{`=?utf-8?q?us=40example.test?= <mallory@evil.test>`, []string{"mallory@evil.test"}},
		{`uſ@example.test`, []string{"uſ@example.test"}},
		{"\"us\"\r\n <us@example.test>", []string{"us@example.test"}},

		{`"us" <us@example.test> (x) mallory@evil.test`, nil},
		{`us@example.test <mallory@evil.test>`, nil},
		{`=?utf-8?q?us@example.test?= <mallory@evil.test>`, nil}, // "@" in an encoded word (RFC 2047 section 5)
		{`<us@example.test> mallory@evil.test`, nil},
		{`<us@example.test>;`, nil},
		{`us@example.test (open comment`, nil},
		{`"open quote <us@example.test>`, nil},
		{`<us@example.test`, nil},
		{`us.@example.test`, nil},
		{`.us@example.test`, nil},
		{`u s@example.test`, nil},
		{`us@`, nil},
		{`@example.test`, nil},
		{`us`, nil},
		{`players: team: us@example.test;;`, nil},
		{`players: us@example.test`, nil},
		{`<us@example.test> <jp@example.test>`, nil},
	} {
		got, err := parseAddressList(c.in)
		if c.want == nil {
			if err == nil || !errors.Is(err, errAddress) {
				t.Errorf("%q: %q, %v; want an error", c.in, got, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) && len(got)+len(c.want) > 0 {
			t.Errorf("%q: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// Addresses compare exactly: local parts byte for byte, domains without
// the case of ASCII letters only.
func TestSameAddress(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"us@example.test", "us@example.test", true},
		{"us@example.test", " us@EXAMPLE.Test ", true},
		{"us@example.test.", "us@example.test", true},
		{"US@example.test", "us@example.test", false},
		{"uſ@example.test", "us@example.test", false},      // U+017F, long s
		{"\u212a@example.test", "k@example.test", false},   // U+212A, Kelvin sign
		{"us@example.te\u017ft", "us@example.test", false}, // ſ in the domain
		{"us@\u212aexample.test", "us@kexample.test", false},
		{"us@example.test", "us@example.test.evil.test", false},
		{"", "", false},
		{"us", "us", false},
	} {
		if got := SameAddress(c.a, c.b); got != c.same {
			t.Errorf("SameAddress(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
		// A key (the answer quotas) is the same exactly for the same
		// mailbox, so a domain written in other cases counts as one.
		if c.same && AddressKey(c.a) != AddressKey(c.b) {
			t.Errorf("AddressKey(%q) = %q, AddressKey(%q) = %q, want them equal", c.a, AddressKey(c.a), c.b, AddressKey(c.b))
		}
		if !c.same && c.a != c.b && AddressKey(c.a) == AddressKey(c.b) {
			t.Errorf("AddressKey(%q) = AddressKey(%q) = %q, want them to differ", c.a, c.b, AddressKey(c.a))
		}
	}
}

// The author of a mail is its From field reduced to one mailbox; a From
// that does not parse, or names several, is from nobody, whatever a
// loose reading of it finds.
func TestFromAuthors(t *testing.T) {
	for _, c := range []struct {
		from  string
		trust bool
		addr  string // m.From, the address an answer goes to
	}{
		{`From: "us" <us@example.test>`, true, "us@example.test"},
		{`From: "us" <us(in brackets)@example.test>`, true, "us@example.test"},
		{`From: players: us@example.test;`, true, "us@example.test"},
		{`From: =?utf-8?q?us=40example.test?= <mallory@evil.test>`, true, "mallory@evil.test"},
		{`From: =?utf-8?q?us@example.test?= <mallory@evil.test>`, false, "mallory@evil.test"},
		{`From: "us" <us@example.test> (x) mallory@evil.test`, false, "us@example.test"},
		{`From: us@example.test <mallory@evil.test>`, false, "mallory@evil.test"},
		{`From: players: us@example.test, jp@example.test;`, false, "us@example.test"},
		{`From: players:;`, false, ""},
	} {
		raw := authMail(c.from)
		m, err := Extract(bytes.NewReader(raw), Limits{})
		if err != nil {
			t.Fatalf("%s: %v", c.from, err)
		}
		v := Authenticate(m, raw, AuthConfig{})
		if v.Trusted != c.trust || m.From != c.addr {
			t.Errorf("%s: From %q, verdict %+v; want %q, trusted %v", c.from, m.From, v, c.addr, c.trust)
		}
	}
}
