package mail

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
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
