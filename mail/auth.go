package mail

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-msgauth/authres"
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
// name other than exactly one mailbox is never trusted. When cfg requires
// authentication, the topmost Authentication-Results field of a trusted
// server must report DMARC pass or a DKIM pass aligned with the author's
// domain (RFC 7489 section 3.1.1), or, with cfg.DKIM, the mail must carry
// a valid aligned signature; every other Authentication-Results field is
// ignored, since anyone can write one below the provider's.
func Authenticate(m *Message, raw []byte, cfg AuthConfig) Verdict {
	m.Auth = authenticate(m, raw, cfg)
	return m.Auth
}

func authenticate(m *Message, raw []byte, cfg AuthConfig) Verdict {
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
// authserv-id is trusted and returns the check that passed.
func trustedResults(m *Message, ids []string) (string, error) {
	_, domain, _ := splitAddress(m.From)
	domain = canonicalDomain(domain)
	for _, field := range m.authResults {
		// A parse error ends the results where it happened; what came
		// before it still counts.
		id, results, _ := authres.Parse(field)
		if id == "" || !trustedID(id, ids) {
			continue
		}
		for _, r := range results {
			switch r := r.(type) {
			case *authres.DMARCResult:
				if r.Value == authres.ResultPass && (r.From == "" || canonicalDomain(r.From) == domain) {
					return "dmarc@" + id, nil
				}
			case *authres.DKIMResult:
				d := r.Domain
				if d == "" {
					_, d, _ = strings.Cut(r.Identifier, "@")
				}
				if r.Value == authres.ResultPass && aligned(canonicalDomain(d), domain) {
					return "dkim@" + id, nil
				}
			}
		}
		return "", fmt.Errorf("the Authentication-Results of %s show no DMARC pass and no DKIM pass of %s", id, domain)
	}
	return "", errors.New("no Authentication-Results of a trusted server")
}

// trustedID reports whether id is one of ids, or below one of them that
// starts with a dot. Host names compare without case.
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

// aligned reports whether a signing domain d is the author's domain or
// a parent of it (relaxed alignment, RFC 7489 section 3.1.1).
func aligned(d, author string) bool {
	return strings.Contains(d, ".") && author != "" && (d == author || strings.HasSuffix(author, "."+d))
}

func canonicalDomain(d string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimSpace(d), "."))
}
