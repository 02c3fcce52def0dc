package mail

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"
)

func TestGameRouting(t *testing.T) {
	for _, tc := range []struct {
		addr, own, game string
	}{
		{"attu+g1@attu.test", "attu@attu.test", "g1"},
		{"attu+Game-2@ATTU.test", "attu@attu.test", "game-2"},
		// The local part compares byte for byte (SameAddress).
		{"ATTU+g1@attu.test", "attu@attu.test", ""},
		{"attu+g1@attu.te\u017ft", "attu@attu.test", ""},
		{"attu+g.b_c@attu.test", "attu@attu.test", ""},
		{"attu@attu.test", "attu@attu.test", ""},
		{"attu+@attu.test", "attu@attu.test", ""},
		{"attu+g1@other.test", "attu@attu.test", ""},
		{"other+g1@attu.test", "attu@attu.test", ""},
		{"attu+g/1@attu.test", "attu@attu.test", ""},
		{"attu+g1", "attu@attu.test", ""},
	} {
		if g, _ := GameFromAddress(tc.addr, tc.own); g != tc.game {
			t.Errorf("GameFromAddress(%q) = %q, want %q", tc.addr, g, tc.game)
		}
	}
	for subject, game := range map[string]string{
		"Re: [attu g1] Turn 3": "g1", "[ATTU  G-2] x": "g-2", "[attu] x": "", "[attu g1": "", "attu g1": "",
	} {
		if g, _ := GameFromSubject(subject); g != game {
			t.Errorf("GameFromSubject(%q) = %q, want %q", subject, g, game)
		}
	}
	if got := SubjectText("Re: Fwd: [attu g1]  Re: status"); got != "status" {
		t.Errorf("SubjectText: %q", got)
	}
	if !ValidGameID("g1") || ValidGameID("") || ValidGameID("-g") || ValidGameID(strings.Repeat("g", 33)) || !ValidGameID(strings.Repeat("g", 32)) {
		t.Error("ValidGameID")
	}
}

func TestIsAutomatic(t *testing.T) {
	human := Message{From: "us@example.org", ReturnPath: "us@example.org"}
	for _, tc := range []struct {
		name string
		edit func(*Message)
		auto bool
	}{
		{"a person", func(*Message) {}, false},
		{"Auto-Submitted: no", func(m *Message) { m.AutoSubmitted = "no" }, false},
		{"Auto-Submitted: auto-replied", func(m *Message) { m.AutoSubmitted = "auto-replied" }, true},
		{"Auto-Submitted with a comment", func(m *Message) { m.AutoSubmitted = "Auto-Generated (vacation)" }, true},
		{"Precedence: bulk", func(m *Message) { m.Precedence = "bulk" }, true},
		{"Precedence: junk", func(m *Message) { m.Precedence = "JUNK" }, true},
		{"Precedence: list", func(m *Message) { m.Precedence = "list" }, true},
		{"Precedence: urgent", func(m *Message) { m.Precedence = "urgent" }, false},
		{"List-Id", func(m *Message) { m.ListID = "<x.lists.example.org>" }, true},
		{"null return path", func(m *Message) { m.ReturnPath, m.NullReturnPath = "", true }, true},
		{"a report", func(m *Message) { m.ContentType = "multipart/report" }, true},
		{"X-Autoreply", func(m *Message) { m.AutoReply = []string{"X-Autoreply"} }, true},
		{"mailer-daemon", func(m *Message) { m.From = "MAILER-DAEMON@mx.example.org" }, true},
		{"postmaster", func(m *Message) { m.From = "postmaster@example.org" }, true},
		{"list owner", func(m *Message) { m.Sender = "owner-wargames@example.org" }, true},
		{"list request", func(m *Message) { m.ReturnPath = "wargames-request@example.org" }, true},
		{"our own address", func(m *Message) { m.From = "Attu@attu.test" }, true},
		{"our plus-address", func(m *Message) { m.From = "attu+g1@attu.test" }, true},
		{"a neighbour", func(m *Message) { m.From = "attu2@attu.test" }, false},
	} {
		m := human
		tc.edit(&m)
		if auto, why := IsAutomatic(&m, own); auto != tc.auto {
			t.Errorf("%s: automatic %v (%s), want %v", tc.name, auto, why, tc.auto)
		}
	}
}

// A sender gets n answers at once, then one each window/n; other senders
// are counted apart, and senders gone quiet are forgotten.
func TestLimiter(t *testing.T) {
	now := time.Date(1943, 5, 11, 0, 0, 0, 0, time.UTC)
	r := NewLimiter(3, time.Hour)
	for i := range 3 {
		if !r.Allow("us@example.org", now) {
			t.Fatalf("answer %d refused", i+1)
		}
		now = now.Add(time.Minute)
	}
	if r.Allow("US@example.org", now) {
		t.Error("a fourth answer within minutes allowed (case differs)")
	}
	if !r.Allow("jp@example.org", now) {
		t.Error("another sender refused")
	}
	now = now.Add(20 * time.Minute) // a third of the hour since the first
	if !r.Allow("us@example.org", now) {
		t.Error("refused once a third of the window has passed")
	}
	if r.Allow("us@example.org", now) {
		t.Error("allowed two once one was due")
	}
	// One answer per window: exactly one in any window.
	one := NewLimiter(1, time.Hour)
	if !one.Allow("x@example.org", now) || one.Allow("x@example.org", now.Add(59*time.Minute)) || !one.Allow("x@example.org", now.Add(time.Hour)) {
		t.Error("NewLimiter(1, hour) does not give one answer an hour")
	}
	// Many senders do not grow it without bound.
	for i := range maxSenders + 10 {
		r.Allow(fmt.Sprintf("s%d@example.org", i), now)
	}
	now = now.Add(2 * time.Hour)
	r.Allow("last@example.org", now)
	r.Allow("last2@example.org", now)
	if n := len(r.senders); n > 10 {
		t.Errorf("%d senders remembered after all went quiet", n)
	}
}

// dkimKey signs mails for a domain and answers the DNS lookups of a
// verifier, as a test stand-in for the domain's TXT record.
type dkimKey struct {
	domain string
	priv   ed25519.PrivateKey
	txt    string
}

func newDKIMKey(t *testing.T, domain string) *dkimKey {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &dkimKey{domain: domain, priv: priv, txt: "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)}
}

func (k *dkimKey) sign(t *testing.T, raw string) []byte {
	var b bytes.Buffer
	err := dkim.Sign(&b, strings.NewReader(raw), &dkim.SignOptions{Domain: k.domain, Selector: "s1", Signer: k.priv,
		HeaderKeys: []string{"From", "To", "Subject", "Message-ID"}})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func lookup(keys ...*dkimKey) func(string) ([]string, error) {
	return func(name string) ([]string, error) {
		for _, k := range keys {
			if name == "s1._domainkey."+k.domain {
				return []string{k.txt}, nil
			}
		}
		return nil, fmt.Errorf("no TXT record for %s", name)
	}
}

func TestVerifyDKIM(t *testing.T) {
	key := newDKIMKey(t, "example.org")
	raw := "From: us@example.org\r\nTo: attu+g1@attu.test\r\nSubject: orders\r\nMessage-ID: <d1@example.org>\r\n\r\ngame: g1\r\nside: us\r\n"
	signed := key.sign(t, raw)
	opts := lookup(key)

	if err := VerifyDKIM(signed, "us@example.org", opts); err != nil {
		t.Errorf("a good signature: %v", err)
	}
	if err := VerifyDKIM(signed, "us@mail.example.org", opts); err != nil {
		t.Errorf("a parent domain's signature: %v", err)
	}
	tampered := bytes.Replace(signed, []byte("side: us"), []byte("side: jp"), 1)
	if err := VerifyDKIM(tampered, "us@example.org", opts); !errors.Is(err, ErrDKIMFail) {
		t.Errorf("a tampered body: %v, want ErrDKIMFail", err)
	}
	if err := VerifyDKIM([]byte(raw), "us@example.org", opts); !errors.Is(err, ErrDKIMNone) {
		t.Errorf("no signature: %v, want ErrDKIMNone", err)
	}
	// Signed by another domain than the author's: it proves nothing.
	other := newDKIMKey(t, "evil.example")
	forged := other.sign(t, raw)
	if err := VerifyDKIM(forged, "us@example.org", lookup(key, other)); !errors.Is(err, ErrDKIMNone) {
		t.Errorf("another domain's signature: %v, want ErrDKIMNone", err)
	}
	dnsDown := func(string) ([]string, error) {
		return nil, &net.DNSError{Err: "server misbehaving", Name: "s1._domainkey.example.org", IsTemporary: true}
	}
	if err := VerifyDKIM(signed, "us@example.org", dnsDown); !errors.Is(err, ErrDKIMTemp) {
		t.Errorf("DNS down: %v, want ErrDKIMTemp", err)
	}
}
