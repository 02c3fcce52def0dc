package mail

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// AuthConfig says how Authenticate decides who wrote a mail.
type AuthConfig struct {
	// Required makes a mail that passes no check come from nobody: it
	// gets a stranger's treatment. When false, the author is believed
	// on the From field alone (the token in the mail still decides what
	// it may do).
	Required bool
	// AuthServIDs are the authserv-ids (RFC 8601 section 2.5) of the
	// receiving servers whose Authentication-Results are trusted: the
	// provider's own, which it adds to every mail it receives. An id
	// starting with a dot (".mx.example.net") matches every host below
	// that domain, for providers whose MX hosts each write their own.
	AuthServIDs []string
	// DKIM verifies the DKIM signatures of the mail itself (VerifyDKIM),
	// each costing a DNS lookup.
	DKIM bool
	// LookupTXT returns the DNS TXT records of a name for DKIM;
	// net.LookupTXT when nil. Tests answer with their own keys.
	LookupTXT func(name string) ([]string, error)
}

// Verdict is what Authenticate concluded about a mail's author.
type Verdict struct {
	// Trusted says From names the author: one mailbox and, when
	// authentication is required, a check that passed.
	Trusted bool
	// By names the check that passed: "dmarc" or "dkim" with the
	// server's authserv-id ("dmarc@mx.example.net"), "dkim" for a
	// signature verified here, or "from" when no check is required.
	By  string
	Why string // says what failed, for the log; empty when Trusted
}

// Authenticate decides whether m's From names who wrote it, sets m.Auth
// and returns it. raw is the mail as received. A mail whose From fields
// do not parse (RFC 5322 section 3.4), or name other than exactly one
// mailbox, is never trusted. When cfg requires
// authentication, the topmost Authentication-Results field of a trusted
// server must report DMARC pass or a DKIM pass aligned with the author's
// domain (RFC 7489 section 3.1.1, relaxed), or, with cfg.DKIM, the mail must carry
// a valid aligned signature; every other Authentication-Results field is
// ignored, since anyone can write one below the provider's.
func Authenticate(m *Message, raw []byte, cfg AuthConfig) Verdict {
	m.Auth = authenticate(m, raw, cfg)
	return m.Auth
}

func authenticate(m *Message, raw []byte, cfg AuthConfig) Verdict {
	if m.fromProblem != "" {
		return Verdict{Why: "From does not parse: " + m.fromProblem}
	}
	if m.FromFields != 1 || m.Authors != 1 || m.From == "" {
		return Verdict{Why: fmt.Sprintf("From names %d mailboxes in %d fields, not one", m.Authors, m.FromFields)}
	}
	if !cfg.Required {
		return Verdict{Trusted: true, By: "from"}
	}
	var why []string
	if len(cfg.AuthServIDs) > 0 {
		by, err := trustedResults(m, cfg.AuthServIDs)
		if err == nil {
			return Verdict{Trusted: true, By: by}
		}
		why = append(why, err.Error())
	}
	if cfg.DKIM {
		err := VerifyDKIM(NormalizeLineEnds(raw), m.From, cfg.LookupTXT)
		if err == nil {
			return Verdict{Trusted: true, By: "dkim"}
		}
		why = append(why, err.Error())
	}
	if len(why) == 0 {
		why = append(why, "no check is configured")
	}
	return Verdict{Why: strings.Join(why, "; ")}
}

// trustedResults reads the topmost Authentication-Results field whose
// authserv-id is trusted and returns the check that passed. That field
// alone counts: the provider writes it on top of what the mail carried
// (RFC 8601 section 5), so a field below it may be the sender's, and one
// above it is of no server the operator named. A trusted field that does
// not parse, or of a version other than 1, fails: reading on to the next
// one would trust a field the sender may have written.
func trustedResults(m *Message, ids []string) (string, error) {
	_, domain, _ := splitAddress(m.From)
	domain = canonicalDomain(domain)
	for _, field := range m.authResults {
		id, err := parseAuthServID(field)
		if err != nil || !trustedID(id, ids) {
			continue
		}
		f, err := parseAuthResults(field)
		if err != nil {
			return "", fmt.Errorf("the Authentication-Results of %s do not parse: %v", clipID(id), err)
		}
		return judgeResults(f, domain)
	}
	return "", errors.New("no Authentication-Results of a trusted server")
}

// judgeResults returns the check of a trusted field that vouches for the
// author's domain: a DMARC pass that names it in header.from (RFC 7489
// section 11.2), or a DKIM pass of a signing domain aligned with it. A
// DMARC fail vetoes both: the server judged the From domain by its own
// policy and found it wanting (the domain may require strict alignment,
// which a subdomain's signature does not meet). Other DMARC values (none,
// temperror, permerror, Microsoft's bestguesspass) leave the DKIM result
// to speak.
func judgeResults(f authResults, domain string) (string, error) {
	for _, r := range f.results {
		if r.method == "dmarc" && r.value == "fail" {
			return "", fmt.Errorf("the Authentication-Results of %s say dmarc=%s", clipID(f.id), r.value)
		}
	}
	for _, r := range f.results {
		if r.method == "dmarc" && r.value == "pass" && sameDomain(r.props["header.from"], domain) {
			return "dmarc@" + f.id, nil
		}
	}
	for _, r := range f.results {
		if r.method != "dkim" || r.value != "pass" {
			continue
		}
		d := r.props["header.d"]
		if i := strings.LastIndexByte(r.props["header.i"], '@'); d == "" && i >= 0 {
			d = r.props["header.i"][i+1:] // RFC 6376 section 3.5, i= is [local-part] "@" domain
		}
		if aligned(d, domain) {
			return "dkim@" + f.id, nil
		}
	}
	return "", fmt.Errorf("the Authentication-Results of %s show no DMARC pass and no DKIM pass of %s", clipID(f.id), domain)
}

// sameDomain tells whether a header.from value names domain. Some servers
// write the whole address there; its domain is taken.
func sameDomain(from, domain string) bool {
	if i := strings.LastIndexByte(from, '@'); i >= 0 {
		from = from[i+1:]
	}
	return domain != "" && canonicalDomain(from) == domain
}

// clipID bounds an authserv-id quoted in a log line.
func clipID(id string) string {
	if len(id) > 100 {
		return id[:100] + "…"
	}
	return id
}

// trustedID reports whether id is one of ids, or below one of them that
// starts with a dot. Host names compare without the case of ASCII
// letters.
func trustedID(id string, ids []string) bool {
	id = canonicalDomain(id)
	for _, t := range ids {
		t = canonicalDomain(t)
		if t == id || strings.HasPrefix(t, ".") && len(t) > 1 && strings.HasSuffix(id, t) {
			return true
		}
	}
	return false
}

// aligned reports whether a signing domain d is aligned with the
// author's domain under RFC 7489's relaxed rule (section 3.1.1): the two
// have the same organizational domain (section 3.2), the name one label
// below its public suffix by the Public Suffix List. So d=mail.example.org
// signs for From: ...@example.org and the other way round, while
// d=example.org.evil.test signs for nothing of example.org. A domain
// that is a public suffix itself aligns with itself only.
func aligned(d, author string) bool {
	d, author = canonicalDomain(d), canonicalDomain(author)
	if !hostName(d) || !hostName(author) {
		return false
	}
	if d == author {
		return true
	}
	od, err1 := publicsuffix.EffectiveTLDPlusOne(d)
	oa, err2 := publicsuffix.EffectiveTLDPlusOne(author)
	return err1 == nil && err2 == nil && od == oa
}

// hostName tells whether d (lower case) is a host name of two labels or
// more: letters, digits, hyphens and underscores, or UTF-8, and a last
// label that is not a number. An address literal ("[192.0.2.1]") or an
// IP address has no organizational domain.
func hostName(d string) bool {
	labels := strings.Split(d, ".")
	if len(labels) < 2 || strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return false
	}
	for _, l := range labels {
		if l == "" {
			return false
		}
		for i := 0; i < len(l); i++ {
			if c := l[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c >= 0x80) {
				return false
			}
		}
	}
	return true
}
