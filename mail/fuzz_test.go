package mail

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzExtract feeds the extractor what strangers may send, starting from
// the corpus and the bad mail the daemon's tests send (testdata/badmail,
// tokens left as placeholders): it must never panic, must stay within its limits, and must
// hand back only valid UTF-8 (the store keeps it as JSON).
//
//	go test -fuzz FuzzExtract ./mail
func FuzzExtract(f *testing.F) {
	files, err := filepath.Glob("testdata/corpus/*.eml")
	bad, err2 := filepath.Glob("testdata/badmail/*.eml")
	files = append(files, bad...)
	if err != nil || err2 != nil || len(files) == 0 || len(bad) == 0 {
		f.Fatalf("no corpus: %v %v", err, err2)
	}
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte("Subject: [attu g1] Re: status\r\n\r\n> q\r\n-- \r\n"))
	lim := Limits{MaxBytes: 64 << 10, MaxParts: 16, MaxDepth: 4, MaxHeaderBytes: 8 << 10, MaxOrdersBytes: 4 << 10}
	f.Fuzz(func(t *testing.T, raw []byte) {
		opts := lim
		m, err := Extract(bytes.NewReader(raw), opts)
		var le *LimitError
		switch {
		case err == nil && m == nil:
			t.Fatal("no error and no message")
		case errors.As(err, &le):
			if le.Error() == "" || le.Limit <= 0 {
				t.Fatalf("limit error %#v", le)
			}
		case err != nil && !errors.Is(err, ErrMalformed):
			t.Fatalf("unexpected error %v", err)
		}
		if m == nil {
			return
		}
		if int64(len(m.Orders)) > lim.MaxOrdersBytes {
			t.Fatalf("orders of %d bytes past the %d limit", len(m.Orders), lim.MaxOrdersBytes)
		}
		if int64(len(m.Text)) > lim.MaxBytes {
			t.Fatalf("text of %d bytes past the size limit", len(m.Text))
		}
		strs := []string{m.From, m.Sender, m.ReturnPath, m.Subject, m.MessageID, m.InReplyTo,
			m.AutoSubmitted, m.Precedence, m.ListID, m.ContentType, m.Orders, m.OrdersFile, m.Command, m.Text}
		for _, l := range [][]string{m.To, m.Cc, m.DeliveredTo, m.References} {
			strs = append(strs, l...)
		}
		for _, s := range strs {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
		if m.Orders != "" && m.Command != "" {
			t.Fatal("both orders and a command")
		}
		if m.HTMLOnly && m.Text != "" {
			t.Fatal("HTML only with a text body")
		}
		for _, l := range strings.Split(m.Text, "\n") {
			if strings.HasPrefix(l, ">") {
				t.Fatalf("quoted line %q kept", l)
			}
		}
		IsAutomatic(m, "attu@attu.test")
		v := Authenticate(m, raw, AuthConfig{Required: true, AuthServIDs: []string{"mx.attu.test"}})
		if v.Trusted && (m.Authors != 1 || m.FromFields != 1 || !strings.HasPrefix(v.By, "d")) || v.Trusted == (v.Why != "") {
			t.Fatalf("verdict %+v on %d mailboxes in %d From fields", v, m.Authors, m.FromFields)
		}
		m.Auth = Verdict{}
		// The same bytes give the same message.
		m2, err2 := Extract(bytes.NewReader(raw), opts)
		if !reflect.DeepEqual(m, m2) || (err == nil) != (err2 == nil) {
			t.Fatal("two extractions differ")
		}
	})
}

// FuzzRouting feeds subjects, addresses and bodies to the routing and
// cleaning helpers, starting from those of the bad mail.
//
//	go test -fuzz FuzzRouting ./mail
func FuzzRouting(f *testing.F) {
	f.Add("Re: [attu g1] status", "attu+g1@attu.test", "status\n\nOn x wrote:\n> q\n-- \nsig")
	f.Add("AW: Fwd: [ATTU g-2] extend 48h", "ATTU+g-2@ATTU.TEST", "a long \nline\n stuffed")
	f.Add("[attu [attu g1]g2]", "attu+@attu.test", "-----Original Message-----")
	// The subjects, recipients and bodies of the bad mail.
	files, _ := filepath.Glob("testdata/badmail/*.eml")
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		if m, err := Extract(bytes.NewReader(raw), Limits{}); err == nil {
			f.Add(m.Subject, strings.Join(m.To, ","), m.Text)
		}
	}
	f.Fuzz(func(t *testing.T, subject, addr, body string) {
		if g, ok := GameFromSubject(subject); ok != (g != "") || (ok && !ValidGameID(g)) {
			t.Fatalf("GameFromSubject(%q) = %q, %v", subject, g, ok)
		}
		if g, ok := GameFromAddress(addr, "attu@attu.test"); ok != (g != "") || (ok && !ValidGameID(g)) {
			t.Fatalf("GameFromAddress(%q) = %q, %v", addr, g, ok)
		}
		if s := SubjectText(subject); len(s) > len(subject)+1 {
			t.Fatalf("SubjectText grew %q to %q", subject, s)
		}
		for _, l := range strings.Split(cleanBody(body), "\n") {
			if strings.HasPrefix(l, ">") {
				t.Fatalf("quoted line %q kept", l)
			}
		}
		if u := unflow(body, true); len(u) > len(body) {
			t.Fatalf("unflow grew %q to %q", body, u)
		}
		looseAddress(addr)
		bareID(addr)
		irt, refs := ReplyIDs(addr, strings.Fields(body))
		for _, id := range append(refs, irt) {
			if len(id) > maxReplyID || strings.ContainsAny(id, " \r\n") {
				t.Fatalf("reply id %q", id)
			}
		}
		if s := ReplySubject(subject); utf8.RuneCountInString(s) > maxReplySubject || strings.ContainsAny(s, "\r\n") {
			t.Fatalf("reply subject %q", s)
		}
	})
}

// FuzzAddressAuth feeds the From and Authentication-Results readers
// what strangers may write, starting from the crafted fields of the
// tests: neither may panic; an address list that parses yields
// addresses of a non-empty local part and domain, and parses the same
// when written back out; a field that parses has an authserv-id and a
// lower-case method and value in every result; and a mail made of the
// two is trusted only by a check of the configured server, when its From
// names exactly one mailbox.
//
//	go test -fuzz FuzzAddressAuth ./mail
func FuzzAddressAuth(f *testing.F) {
	for _, s := range [][2]string{
		{`"us" <us@example.test> (x) mallory@evil.test`, `mx.attu.test; spf=fail smtp.mailfrom="x;dmarc=pass header.from=example.test;"@evil.test; dmarc=fail header.from=example.test`},
		{`"us" <us(in brackets)@example.test>`, `mx.attu.test (amavisd-new); dmarc=pass header.from=example.test`},
		{`uſ@example.test`, `mx.attu.test 2; dmarc=pass header.from=example.test`},
		{`players: us@example.test;`, `mx.attu.test; spf=none (helo=a\); dmarc=pass \(b) smtp.helo=a; dmarc=fail`},
		{`=?utf-8?q?J=C3=BCrgen?= <j@example.test>, <@relay.test:x@[192.0.2.1]>`, `mx.attu.test; dkim=pass header.d=mail.example.test; dmarc=none`},
		{`(c) us (d) @ (e) example . test (f)`, `mx.attu.test; dkim=pass header.d=example.test.evil.test`},
		{`us@example.test (open`, `mx.attu.test; none`},
		{`"Doe, John" <j@example.test>`, `mx.attu.test; dmarc=pass action=none header.from=example.test; compauth=pass reason=100;`},
	} {
		f.Add(s[0], s[1])
	}
	cfg := AuthConfig{Required: true, AuthServIDs: []string{"mx.attu.test"}}
	f.Fuzz(func(t *testing.T, from, results string) {
		if l, err := parseAddressList(from); err == nil {
			var out []string
			for _, a := range l {
				local, domain, ok := splitAddress(a)
				if !ok || local == "" || domain == "" {
					t.Fatalf("%q gives the address %q", from, a)
				}
				out = append(out, "<"+quoteLocal(local)+"@"+domain+">")
			}
			if back, err := parseAddressList(strings.Join(out, ", ")); err != nil || !reflect.DeepEqual(back, l) && len(l) > 0 {
				t.Fatalf("%q gives %q, written back %q gives %q, %v", from, l, out, back, err)
			}
		}
		if ar, err := parseAuthResults(results); err == nil {
			if ar.id == "" {
				t.Fatalf("%q: no authserv-id", results)
			}
			for _, r := range ar.results {
				if r.method == "" || r.value == "" || r.method != asciiLower(r.method) || r.value != asciiLower(r.value) {
					t.Fatalf("%q: result %+v", results, r)
				}
			}
		}
		raw := []byte("From: " + from + "\r\nAuthentication-Results: " + results + "\r\nSubject: status\r\n\r\nstatus\r\n")
		m, err := Extract(bytes.NewReader(raw), Limits{})
		if err != nil {
			return
		}
		v := Authenticate(m, raw, cfg)
		if v.Trusted && (m.Authors != 1 || m.FromFields != 1 || m.fromProblem != "" || !strings.HasSuffix(v.By, "@mx.attu.test")) {
			t.Fatalf("verdict %+v on %d mailboxes (%q) in %d From fields", v, m.Authors, m.fromProblem, m.FromFields)
		}
	})
}

// quoteLocal writes a local part as a quoted string when it is not a
// dot-atom (RFC 5322 section 3.4.1).
func quoteLocal(local string) string {
	atoms := strings.Split(local, ".")
	dotAtom := true
	for _, a := range atoms {
		dotAtom = dotAtom && a != "" && strings.IndexFunc(a, func(r rune) bool { return r < 0x80 && !isAtext(byte(r)) }) < 0
	}
	if dotAtom {
		return local
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(local); i++ {
		if c := local[i]; c == '"' || c == '\\' || c == '\r' || c == '\n' {
			b.WriteByte('\\')
		}
		b.WriteByte(local[i])
	}
	b.WriteByte('"')
	return b.String()
}
