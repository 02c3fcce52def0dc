package mail

import (
	"bytes"
	"fmt"

	"github.com/emersion/go-msgauth/dkim"
)

// maxSignatures bounds the signatures VerifyDKIM checks, each costing a
// DNS lookup.
const maxSignatures = 5

// VerifyDKIM checks that a raw mail carries a valid DKIM signature (RFC
// 6376) of its author's domain: the signing domain has the organizational
// domain of from's (relaxed alignment, RFC 7489 section 3.1.1; see
// aligned). It
// returns nil on success, else an error wrapping ErrDKIMNone (no signature
// of that domain), ErrDKIMFail (a signature of that domain fails: the mail
// was altered, or forged) or ErrDKIMTemp (the key could not be fetched
// now). Any error of a signature counts as a failure, not only permanent
// ones: a tampered body is not reported as permanent by the library.
// lookupTXT returns the DNS TXT records of a name; net.LookupTXT when nil.
func VerifyDKIM(raw []byte, from string, lookupTXT func(name string) ([]string, error)) error {
	_, domain, ok := splitAddress(from)
	if !ok {
		return fmt.Errorf("%w: no author address", ErrDKIMNone)
	}
	domain = canonicalDomain(domain)
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: lookupTXT, MaxVerifications: maxSignatures})
	if err != nil && len(vs) == 0 {
		return fmt.Errorf("%w: %v", ErrDKIMFail, err)
	}
	var failed, temp error
	for _, v := range vs {
		if !aligned(v.Domain, domain) {
			continue
		}
		switch {
		case v.Err == nil:
			return nil
		case dkim.IsTempFail(v.Err):
			temp = v.Err
		default:
			failed = v.Err
		}
	}
	switch {
	case failed != nil:
		return fmt.Errorf("%w: %s: %v", ErrDKIMFail, domain, failed)
	case temp != nil:
		return fmt.Errorf("%w: %s: %v", ErrDKIMTemp, domain, temp)
	}
	return fmt.Errorf("%w: %s", ErrDKIMNone, domain)
}
