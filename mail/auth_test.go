package mail

import (
	"bytes"
	"cmp"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
)

// testKey is a DKIM key of selector "test" for a domain, and the TXT
// lookup that serves its public half.
type testKey struct {
	domain string
	priv   ed25519.PrivateKey
}

func newTestKey(t *testing.T, domain string) *testKey {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &testKey{domain: domain, priv: priv}
}

func (k *testKey) lookup(name string) ([]string, error) {
	if name != "test._domainkey."+k.domain {
		return nil, errors.New("no such record")
	}
	return []string{"v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(k.priv.Public().(ed25519.PublicKey))}, nil
}

func (k *testKey) sign(t *testing.T, raw []byte) []byte {
	var b bytes.Buffer
	if err := dkim.Sign(&b, bytes.NewReader(raw), &dkim.SignOptions{Domain: k.domain, Selector: "test", Signer: k.priv}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func authMail(header ...string) []byte {
	return []byte(strings.Join(append(header, "To: <attu+g1@attu.test>", "Subject: status",
		"Message-ID: <a-1@example.org>", "", "status", ""), "\r\n"))
}

// Who wrote a mail: one From with one mailbox, then, when required, a
// trusted server's results or a DKIM signature of the author's domain.
func TestAuthenticate(t *testing.T) {
	key := newTestKey(t, "example.org")
	other := newTestKey(t, "evil.test")
	trusted := AuthConfig{Required: true, AuthServIDs: []string{"mx.attu.test", ".mx.provider.test"}}
	signing := AuthConfig{Required: true, DKIM: true, LookupTXT: func(n string) ([]string, error) {
		if strings.HasSuffix(n, "evil.test") {
			return other.lookup(n)
		}
		return key.lookup(n)
	}}
	signed := key.sign(t, authMail("From: <us@example.org>"))
	tampered := bytes.Replace(signed, []byte("\r\nstatus\r\n"), []byte("\r\nconcede\r\n"), 1)
	cases := []struct {
		name  string
		raw   []byte
		cfg   AuthConfig
		trust bool
		by    string
	}{
		{"one author, nothing required", authMail("From: <us@example.org>"), AuthConfig{}, true, "from"},
		{"two From fields", authMail("From: <us@example.org>", "From: <jp@example.org>"), AuthConfig{}, false, ""},
		{"two mailboxes and Sender", authMail("From: <jp@example.org>, <us@example.org>", "Sender: <jp@example.org>"), AuthConfig{}, false, ""},
		{"a group of no mailbox", authMail("From: players:;"), AuthConfig{}, false, ""},
		// Bare CRs that an MTA turned into spaces: one From line.
		{"a header run into one line", []byte("From: <us@example.org> To: <attu+g1@attu.test> Subject: status Message-ID: <cr@x.test> status\r\n"),
			AuthConfig{}, false, ""},
		{"nothing to show", authMail("From: <us@example.org>"), trusted, false, ""},
		{"DMARC pass", authMail("Authentication-Results: mx.attu.test; spf=fail; dmarc=pass (p=none) header.from=example.org", "From: <us@example.org>"), trusted, true, "dmarc@mx.attu.test"},
		{"DMARC pass of another domain", authMail("Authentication-Results: mx.attu.test; dmarc=pass header.from=evil.test", "From: <us@example.org>"), trusted, false, ""},
		{"aligned DKIM pass", authMail("Authentication-Results: mx3.mx.provider.test;\r\n dkim=pass header.d=example.org; dmarc=none", "From: <us@mail.example.org>"), trusted, true, "dkim@mx3.mx.provider.test"},
		{"DKIM pass by header.i", authMail("Authentication-Results: mx.attu.test; dkim=pass header.i=@example.org", "From: <us@example.org>"), trusted, true, "dkim@mx.attu.test"},
		{"DKIM pass of another domain", authMail("Authentication-Results: mx.attu.test; dkim=pass header.d=evil.test", "From: <us@example.org>"), trusted, false, ""},
		{"another authserv-id", authMail("Authentication-Results: mx.evil.test; dmarc=pass header.from=example.org", "From: <us@example.org>"), trusted, false, ""},
		{"a forged field below the provider's", authMail("Authentication-Results: mx.attu.test; dmarc=fail header.from=example.org",
			"Authentication-Results: mx.attu.test; dmarc=pass header.from=example.org", "From: <us@example.org>"), trusted, false, ""},
		{"DMARC pass, two From fields", authMail("Authentication-Results: mx.attu.test; dmarc=pass header.from=example.org",
			"From: <us@example.org>", "From: <jp@example.org>"), trusted, false, ""},
		{"a valid signature", signed, signing, true, "dkim"},
		{"a valid signature, bare LF", bytes.ReplaceAll(signed, []byte("\r\n"), []byte("\n")), signing, true, "dkim"},
		{"a tampered body", tampered, signing, false, ""},
		{"a signature of another domain", other.sign(t, authMail("From: <us@example.org>")), signing, false, ""},
		{"a signature, results not configured", signed, trusted, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Extract(bytes.NewReader(c.raw), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			v := Authenticate(m, c.raw, c.cfg)
			if v.Trusted != c.trust || v.By != c.by || m.Auth != v || (v.Why == "") != v.Trusted {
				t.Errorf("verdict %+v, want trusted %v by %q", v, c.trust, c.by)
			}
		})
	}
}

// What a reply copies of the mail it answers stays within a header line.
func TestReplyBounds(t *testing.T) {
	long := strings.Repeat("x", 30000) + "@example.org"
	refs := []string{"<" + long + ">"}
	for i := range 30 {
		refs = append(refs, "<r"+strings.Repeat("0", i)+"@example.org>")
	}
	irt, got := ReplyIDs("<"+long+">", refs)
	if irt != "" || len(got) != maxReplyRefs || got[len(got)-1] != bareID(refs[30]) {
		t.Errorf("In-Reply-To %.40q, References %d, the last %q", irt, len(got), got[len(got)-1])
	}
	if irt, _ := ReplyIDs("a-1@example.org", nil); irt != "a-1@example.org" {
		t.Errorf("In-Reply-To %q", irt)
	}
	s := ReplySubject("Re: " + strings.Repeat("état ", 10000) + "\r\nBcc: x@example.org")
	if n := len([]rune(s)); n != maxReplySubject || strings.ContainsAny(s, "\r\n") {
		t.Errorf("subject of %d runes: %.80q", n, s)
	}
}

// Crafted Authentication-Results fields: text a sender chose inside a
// quoted string or a comment of the trusted field is no result of its
// own; only the topmost trusted field counts, and one that does not
// parse fails; DMARC must name the From domain; DKIM aligns by the
// organizational domain (RFC 7489 section 3.1.1, relaxed).
func TestAuthenticationResults(t *testing.T) {
	cfg := AuthConfig{Required: true, AuthServIDs: []string{"mx.attu.test", "mx.google.com"}}
	const from = "From: <us@example.org>"
	ar := func(v string) string { return "Authentication-Results: " + v }
	cases := []struct {
		name   string
		fields []string // topmost first
		from   string   // the From field; from when empty
		by     string   // "" when not trusted
	}{
		{"the MAIL FROM local part quoted", []string{ar(`mx.attu.test; spf=fail smtp.mailfrom="x;dmarc=pass header.from=example.org;"@evil.test; dmarc=fail header.from=example.org`)}, "", ""},
		{"the HELO name quoted", []string{ar(`mx.attu.test; spf=none smtp.helo="a;dmarc=pass header.from=example.org"; dmarc=fail header.from=example.org`)}, "", ""},
		{"the HELO name in a comment", []string{ar(`mx.attu.test; spf=none (helo=a\); dmarc=pass header.from=example.org \(b) smtp.helo=a; dmarc=fail header.from=example.org`)}, "", ""},
		{"a nested comment", []string{ar(`mx.attu.test; spf=none (x (y; dmarc=pass header.from=example.org) z) smtp.helo=a; dmarc=none`)}, "", ""},
		// A quote in a comment is a character of it (RFC 5322 section 3.2.2).
		{"a quote in a comment", []string{ar(`mx.attu.test; spf=none (x ") smtp.helo=a; dmarc=pass header.from=example.org`)}, "", "dmarc@mx.attu.test"},
		{"a quote in a comment, then text", []string{ar(`mx.attu.test; spf=none (x ")" ; dmarc=pass header.from=example.org) smtp.helo=a`)}, "", ""},
		{"DMARC pass without header.from", []string{ar(`mx.attu.test; dmarc=pass`)}, "", ""},
		{"DMARC pass of a parent domain", []string{ar(`mx.attu.test; dmarc=pass header.from=example.org`)}, "From: <us@mail.example.org>", ""},
		{"DMARC pass of a longer domain", []string{ar(`mx.attu.test; dmarc=pass header.from=example.org.evil.test`)}, "", ""},
		{"DMARC pass in another case", []string{ar(`mx.attu.test; DMARC=Pass header.From=EXAMPLE.org`)}, "", "dmarc@mx.attu.test"},
		{"DMARC pass with a Kelvin sign", []string{ar("mx.attu.test; dmarc=pass header.from=\u212aexample.org")}, "From: <us@kexample.org>", ""},
		{"two header.from", []string{ar(`mx.attu.test; dmarc=pass header.from=evil.test header.from=example.org`)}, "", ""},
		{"a comment after the authserv-id", []string{ar(`mx.attu.test (amavisd-new); dmarc=pass header.from=example.org`)}, "", "dmarc@mx.attu.test"},
		{"version 1", []string{ar(`mx.attu.test 1; dmarc=pass header.from=example.org`)}, "", "dmarc@mx.attu.test"},
		{"version 2", []string{ar(`mx.attu.test 2; dmarc=pass header.from=example.org`)}, "", ""},
		{"a forged field below version 2", []string{ar(`mx.attu.test 2; dmarc=fail header.from=example.org`), ar(`mx.attu.test; dmarc=pass header.from=example.org`)}, "", ""},
		{"a forged field below an unparsable one", []string{ar(`mx.attu.test; spf=pass smtp.mailfrom="open; dmarc=fail`), ar(`mx.attu.test; dmarc=pass header.from=example.org`)}, "", ""},
		{"a forged field below an open comment", []string{ar(`mx.attu.test (open; dmarc=fail`), ar(`mx.attu.test; dmarc=pass header.from=example.org`)}, "", ""},
		{"a forged field below none", []string{ar(`mx.attu.test; none`), ar(`mx.attu.test; dmarc=pass header.from=example.org`)}, "", ""},
		{"a field above the trusted one", []string{ar(`mx.evil.test; dmarc=pass header.from=example.org`), ar(`mx.attu.test; dmarc=fail header.from=example.org`)}, "", ""},
		{"an unparsable field above the trusted one", []string{ar(`"mx.evil.test; dmarc=pass`), ar(`mx.attu.test; dmarc=pass header.from=example.org`)}, "", "dmarc@mx.attu.test"},
		{"a quoted authserv-id", []string{ar(`"mx.attu.test"; dmarc=pass header.from=example.org`)}, "", "dmarc@mx.attu.test"},
		{"a DMARC temperror leaves an aligned DKIM pass", []string{ar(`mx.attu.test; dkim=pass header.d=example.org; dmarc=temperror header.from=example.org`)}, "", "dkim@mx.attu.test"},
		{"DMARC fail vetoes an aligned DKIM pass", []string{ar(`mx.attu.test; dkim=pass header.d=mail.example.org; dmarc=fail header.from=example.org`)}, "", ""},
		{"a subdomain's signature", []string{ar(`mx.attu.test; dkim=pass header.d=mail.example.org; dmarc=none`)}, "", "dkim@mx.attu.test"},
		{"a parent's signature", []string{ar(`mx.attu.test; dkim=pass header.d=example.org`)}, "From: <us@mail.example.org>", "dkim@mx.attu.test"},
		{"a sibling's signature", []string{ar(`mx.attu.test; dkim=pass header.i=@lists.example.org`)}, "From: <us@mail.example.org>", "dkim@mx.attu.test"},
		{"a signature of a longer domain", []string{ar(`mx.attu.test; dkim=pass header.d=example.org.evil.test`)}, "", ""},
		{"a signature of the public suffix", []string{ar(`mx.attu.test; dkim=pass header.d=org`)}, "", ""},
		{"a signature of another domain below a suffix", []string{ar(`mx.attu.test; dkim=pass header.d=other.co.uk`)}, "From: <us@example.co.uk>", ""},
		{"a signature of a private suffix's neighbour", []string{ar(`mx.attu.test; dkim=pass header.d=mallory.github.io`)}, "From: <us@alice.github.io>", ""},
		{"a signature of an address literal", []string{ar(`mx.attu.test; dkim=pass header.d=[192.0.2.2]`)}, "From: <us@[192.0.2.1]>", ""},
		{"a failed signature", []string{ar(`mx.attu.test; dkim=fail header.d=example.org`)}, "", ""},
		{"Microsoft's action", []string{ar(`mx.attu.test; dmarc=pass action=none header.from=example.org; compauth=pass reason=100`)}, "", "dmarc@mx.attu.test"},
		{"a final semicolon", []string{ar(`mx.attu.test; dmarc=pass header.from=example.org;`)}, "", "dmarc@mx.attu.test"},
		{"Gmail's field", []string{ar("mx.google.com;\r\n       dkim=pass header.i=@example.org header.s=20230601 header.b=Ab/c+D=;\r\n" +
			"       spf=pass (google.com: domain of us@example.org designates 192.0.2.1 as permitted sender) smtp.mailfrom=us@example.org;\r\n" +
			"       dmarc=pass (p=NONE sp=QUARANTINE dis=NONE) header.from=example.org")}, "", "dmarc@mx.google.com"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := authMail(append(c.fields, cmp.Or(c.from, from))...)
			m, err := Extract(bytes.NewReader(raw), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if v := Authenticate(m, raw, cfg); v.By != c.by || v.Trusted != (c.by != "") {
				t.Errorf("verdict %+v, want by %q", v, c.by)
			}
		})
	}
}

// The reader of a field: what it finds in a valid one, and that it
// refuses what RFC 8601 section 2.2 does not allow.
func TestParseAuthResults(t *testing.T) {
	f, err := parseAuthResults(`mx.example.org (amavisd-new) 1; spf=pass (a; b) smtp.mailfrom="x;y"@example.org; dkim/1 = pass reason="good" header.d = example.org (c) header.b=a/b+c=; none=fail`)
	want := []authResult{
		{method: "spf", value: "pass", props: map[string]string{"smtp.mailfrom": "x;y@example.org"}},
		{method: "dkim", value: "pass", props: map[string]string{"reason": "good", "header.d": "example.org", "header.b": "a/b+c="}},
		{method: "none", value: "fail", props: map[string]string{}},
	}
	if err != nil || f.id != "mx.example.org" || !reflect.DeepEqual(f.results, want) {
		t.Errorf("%+v, %v", f, err)
	}
	if f, err := parseAuthResults("mx.example.org; none"); err != nil || len(f.results) != 0 {
		t.Errorf("none: %+v, %v", f, err)
	}
	for _, bad := range []string{
		"", "; dkim=pass", "mx.example.org", "mx.example.org 2; dkim=pass", "mx.example.org; none; dkim=pass",
		"mx.example.org; dkim", "mx.example.org; dkim=", "mx.example.org; dkim=pass header.d", "mx.example.org dkim=pass",
		"mx.example.org; dkim=pass header.d=a (open", `mx.example.org; dkim=pass header.d="open`, "mx.example.org; =pass",
		"spf=pass (sender IP is 192.0.2.1) smtp.mailfrom=example.org", "mx.example.org; dkim=pass header.=x",
	} {
		if f, err := parseAuthResults(bad); !errors.Is(err, errAuthResults) {
			t.Errorf("%q: %+v, %v; want an error", bad, f, err)
		}
	}
}

// The crafted mails of the daemon's bad-mail corpus get the verdicts its
// tests expect of them: with authentication required and mx.attu.test
// trusted, the ar- mails; with it off, the from- mails and the mail of
// CR CR LF line ends.
func TestBadMailVerdicts(t *testing.T) {
	required := AuthConfig{Required: true, AuthServIDs: []string{"mx.attu.test"}}
	for file, want := range map[string]struct {
		cfg  AuthConfig
		by   string
		from string
	}{
		"ar-quoted-mailfrom.eml":         {required, "", "alice@attu.test"},
		"ar-helo-comment.eml":            {required, "", "alice@attu.test"},
		"ar-dmarc-no-header-from.eml":    {required, "", "alice@attu.test"},
		"ar-version-2.eml":               {required, "", "alice@attu.test"},
		"ar-unparsable-forged-below.eml": {required, "", "alice@attu.test"},
		"ar-field-above.eml":             {required, "", "alice@attu.test"},
		"ar-dkim-longer-domain.eml":      {required, "", "alice@attu.test"},
		"ar-dkim-subdomain.eml":          {required, "dkim@mx.attu.test", "alice@attu.test"},
		"ar-comment-authserv.eml":        {required, "dmarc@mx.attu.test", "alice@attu.test"},
		"from-trailing-address.eml":      {AuthConfig{}, "", "alice@attu.test"},
		"from-long-s.eml":                {AuthConfig{}, "from", "alice@attu.te\u017ft"},
		"from-comment-in-brackets.eml":   {AuthConfig{}, "from", "alice@attu.test"},
		"cr-cr-lf.eml":                   {AuthConfig{}, "from", "alice@attu.test"},
	} {
		raw, err := os.ReadFile(filepath.Join("testdata/badmail", file))
		if err != nil {
			t.Fatal(err)
		}
		m, err := Extract(bytes.NewReader(raw), Limits{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		v := Authenticate(m, raw, want.cfg)
		if v.By != want.by || m.From != want.from || m.Subject == "" || m.Orders == "" && m.Command == "" {
			t.Errorf("%s: From %q, subject %q, verdict %+v; want %q by %q", file, m.From, m.Subject, v, want.from, want.by)
		}
		if SameAddress(m.From, "alice@attu.test") != (want.from == "alice@attu.test") {
			t.Errorf("%s: SameAddress(%q, alice@attu.test) wrong", file, m.From)
		}
	}
}
