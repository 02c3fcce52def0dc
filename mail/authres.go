package mail

import (
	"fmt"
	"strings"
)

// This file reads Authentication-Results fields (RFC 8601). It is written
// here rather than taken from go-msgauth's authres, whose reader splits
// the field at every ";" and so takes a semicolon inside a quoted string
// or a comment (text a sender chose: a MAIL FROM local part, a HELO name)
// for the start of a result, and rejects valid comments after the
// authserv-id. What attu needs is small: the authserv-id and, for each
// result, its method, its value and its properties.

// authResults is one Authentication-Results field.
type authResults struct {
	id      string // the authserv-id (RFC 8601 section 2.5), as written
	results []authResult
}

// authResult is one resinfo of a field: "dkim=pass header.d=example.org".
// Method, value and property names are in lower case (section 2.2: they
// are keywords, read without regard to case); property values are as
// written, their quotes removed.
type authResult struct {
	method string            // "dkim", "dmarc", "spf"
	value  string            // "pass", "fail", "none"
	props  map[string]string // "header.from": "example.org"
}

// parseAuthServID reads the authserv-id at the start of a field, so that
// the fields of other servers are passed over without reading the rest.
func parseAuthServID(v string) (string, error) {
	p := &scanner{s: v, bad: errAuthResults}
	return p.authServID()
}

// parseAuthResults reads a whole field (RFC 8601 section 2.2):
//
//	authres-payload = [CFWS] authserv-id [ CFWS authres-version ]
//	                  ( no-result / 1*resinfo ) [CFWS] CRLF
//	resinfo = [CFWS] ";" methodspec [ CFWS reasonspec ] [ CFWS 1*propspec ]
//
// Comments and quoted strings are honoured wherever they stand; a
// version other than 1 is an error (section 2.2: a reader must not
// interpret a version it does not know). Two leniencies, which cannot
// make text inside a quoted string or comment count as a result: a
// property without a ptype ("action=none", as Microsoft writes after
// DMARC) is kept under its bare name, and a field may end in ";".
func parseAuthResults(v string) (authResults, error) {
	p := &scanner{s: v, bad: errAuthResults}
	id, err := p.authServID()
	if err != nil {
		return authResults{}, err
	}
	f := authResults{id: id}
	if err := p.cfws(); err != nil {
		return f, err
	}
	if c := p.peek(); '0' <= c && c <= '9' {
		if ver := p.digits(); ver != "1" {
			return f, fmt.Errorf("%w: version %s, not 1", errAuthResults, ver)
		}
	}
	for {
		if err := p.cfws(); err != nil {
			return f, err
		}
		if p.eof() {
			break
		}
		if !p.take(';') {
			return f, p.fail(`";"`)
		}
		if err := p.cfws(); err != nil {
			return f, err
		}
		if p.eof() {
			break // a final ";"
		}
		r, err := p.resinfo()
		if err != nil {
			return f, err
		}
		if r.method == "none" && r.value == "" {
			// section 2.2, no-result: "; none" alone.
			if len(f.results) > 0 || !p.eof() {
				return f, p.fail(`nothing after "none"`)
			}
			return f, nil
		}
		f.results = append(f.results, r)
	}
	if len(f.results) == 0 {
		return f, p.fail("a result")
	}
	return f, nil
}

// authServID reads authserv-id = value (section 2.2), a token or a
// quoted string (RFC 2045 section 5.1).
func (p *scanner) authServID() (string, error) {
	if err := p.cfws(); err != nil {
		return "", err
	}
	var id string
	if p.peek() == '"' {
		s, err := p.quoted()
		if err != nil {
			return "", err
		}
		id = s
	} else {
		id = p.token()
	}
	if id == "" {
		return "", p.fail("an authserv-id")
	}
	return id, nil
}

// resinfo reads one result after its ";": methodspec, then the reason
// and properties (section 2.2).
func (p *scanner) resinfo() (authResult, error) {
	r := authResult{method: asciiLower(p.keyword()), props: map[string]string{}}
	if r.method == "" {
		return r, p.fail("a method")
	}
	if err := p.cfws(); err != nil {
		return r, err
	}
	if p.take('/') { // method-version
		if err := p.cfws(); err != nil {
			return r, err
		}
		if p.digits() == "" {
			return r, p.fail("a method version")
		}
		if err := p.cfws(); err != nil {
			return r, err
		}
	}
	if !p.take('=') {
		if r.method == "none" && (p.eof() || p.peek() == ';') {
			return r, nil
		}
		return r, p.fail(`"=" after the method`)
	}
	if err := p.cfws(); err != nil {
		return r, err
	}
	if r.value = asciiLower(p.keyword()); r.value == "" {
		return r, p.fail("a result")
	}
	for {
		if err := p.cfws(); err != nil {
			return r, err
		}
		if p.eof() || p.peek() == ';' {
			return r, nil
		}
		name, err := p.property()
		if err != nil {
			return r, err
		}
		if _, dup := r.props[name]; dup {
			// Two values of one property: which one the server meant
			// cannot be told.
			return r, fmt.Errorf("%w: %s twice in one result", errAuthResults, name)
		}
		if r.props[name], err = p.pvalue(); err != nil {
			return r, err
		}
	}
}

// property reads "ptype.property =" (propspec) or "reason =" (reasonspec)
// and returns the name, "header.from" or "reason", in lower case.
func (p *scanner) property() (string, error) {
	name := asciiLower(p.keyword())
	if name == "" {
		return "", p.fail("a property")
	}
	if err := p.cfws(); err != nil {
		return "", err
	}
	if p.take('.') {
		if err := p.cfws(); err != nil {
			return "", err
		}
		prop := asciiLower(p.keyword())
		if prop == "" {
			return "", p.fail("a property after the ptype")
		}
		name += "." + prop
		if err := p.cfws(); err != nil {
			return "", err
		}
	}
	if !p.take('=') {
		return "", p.fail(`"=" after a property`)
	}
	return name, nil
}

// pvalue reads a property's value (section 2.2: a token, a quoted string,
// or [local-part] "@" domain, whose local part may be quoted), as the
// characters up to white space, a comment or ";", with each quoted
// string's content in its place. Characters RFC 2045 keeps out of a
// token ("/" and "=" of a base64 header.b, the brackets of an address
// literal) are taken as well, since servers write them unquoted.
func (p *scanner) pvalue() (string, error) {
	if err := p.cfws(); err != nil {
		return "", err
	}
	var b strings.Builder
	for !p.eof() {
		switch c := p.peek(); {
		case c == '"':
			s, err := p.quoted()
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		case c <= ' ' || c == ';' || c == '(' || c == ')' || c == '\\' || c == 0x7f:
			return b.String(), nil
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return b.String(), nil
}

// keyword reads Keyword = ldh-str (section 2.2, RFC 5321 section 4.1.2):
// letters, digits and hyphens. It may be empty.
func (p *scanner) keyword() string {
	start := p.i
	for !p.eof() {
		c := p.s[p.i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			break
		}
		p.i++
	}
	return p.s[start:p.i]
}

// token reads an RFC 2045 token: printable ASCII but tspecials.
func (p *scanner) token() string {
	start := p.i
	for !p.eof() {
		c := p.s[p.i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?=`, c) >= 0 {
			break
		}
		p.i++
	}
	return p.s[start:p.i]
}

func (p *scanner) digits() string {
	start := p.i
	for !p.eof() && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
	}
	return p.s[start:p.i]
}
