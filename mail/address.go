package mail

import (
	"fmt"
	"strings"
)

// This file reads address fields (From, Sender, To, Cc) as RFC 5322
// section 3.4 writes them, obsolete forms of section 4.4 included, and
// compares addresses. One parser serves every field, so that what decides
// who wrote a mail is what decides where its answer goes. net/mail is not
// used for it: it rejects comments inside angle brackets and in local
// parts, which RFC 5322 allows, and a loose reading of a field it
// rejects would believe an author the field does not name.

// parseAddressList reads an address-list (RFC 5322 section 3.4): each
// mailbox, a group's members in their place. It returns the addresses as
// local@domain, the local part without its quotes and quoted-pairs (as
// RFC 5321 section 4.1.2 holds them the same), the domain as written.
// Comments may stand between any two tokens, angle brackets included;
// encoded words (RFC 2047) are atoms of a display name and never become
// part of an address. Empty list elements (section 4.4) are skipped.
func parseAddressList(v string) ([]string, error) {
	p := &scanner{s: v, bad: errAddress}
	var out []string
	for {
		if err := p.cfws(); err != nil {
			return nil, err
		}
		if p.eof() {
			return out, nil
		}
		if p.peek() == ',' {
			p.i++
			continue
		}
		l, err := p.address(true)
		if err != nil {
			return nil, err
		}
		out = append(out, l...)
		if err := p.cfws(); err != nil {
			return nil, err
		}
		if !p.eof() && !p.take(',') {
			return nil, p.fail("a comma between addresses")
		}
	}
}

// ParseMailbox returns the address of a field value that names exactly
// one mailbox ("Name <us@example.org>", "us@example.org (Us)"), read as
// parseAddressList reads address fields; an error otherwise.
func ParseMailbox(v string) (string, error) {
	l, err := parseAddressList(v)
	if err == nil && len(l) != 1 {
		err = fmt.Errorf("%w: %d mailboxes, not one", errAddress, len(l))
	}
	if err != nil {
		return "", err
	}
	return l[0], nil
}

// address reads a mailbox, or a group's mailboxes when groups are
// allowed (section 3.4: group = display-name ":" [group-list] ";").
func (p *scanner) address(groups bool) ([]string, error) {
	if err := p.cfws(); err != nil {
		return nil, err
	}
	if p.peek() == '<' {
		a, err := p.angleAddr()
		return []string{a}, err
	}
	words, err := p.words()
	if err != nil {
		return nil, err
	}
	switch {
	case len(words) == 0:
		return nil, p.fail("an address")
	case p.peek() == '@':
		local, err := localPart(words)
		if err != nil {
			return nil, err
		}
		p.i++
		d, err := p.domain()
		return []string{local + "@" + d}, err
	case !isPhrase(words):
		return nil, p.fail("a display name")
	case p.peek() == '<':
		a, err := p.angleAddr()
		return []string{a}, err
	case p.take(':') && groups:
		return p.groupList()
	}
	return nil, p.fail("an address")
}

// groupList reads a group's mailboxes up to its closing ";". A group
// holds no group.
func (p *scanner) groupList() ([]string, error) {
	var out []string
	for {
		if err := p.cfws(); err != nil {
			return nil, err
		}
		switch {
		case p.take(';'):
			return out, nil
		case p.eof():
			return nil, p.fail(`the ";" that ends a group`)
		case p.take(','):
			continue
		}
		l, err := p.address(false)
		if err != nil {
			return nil, err
		}
		out = append(out, l...)
		if err := p.cfws(); err != nil {
			return nil, err
		}
		if p.peek() != ';' && !p.take(',') {
			return nil, p.fail("a comma between addresses")
		}
	}
}

// angleAddr reads "<" [obs-route] addr-spec ">" (sections 3.4 and 4.4);
// the obsolete source route is read and dropped.
func (p *scanner) angleAddr() (string, error) {
	p.i++ // "<"
	if err := p.cfws(); err != nil {
		return "", err
	}
	if c := p.peek(); c == '@' || c == ',' {
		for p.peek() == '@' || p.peek() == ',' {
			if p.take('@') {
				if _, err := p.domain(); err != nil {
					return "", err
				}
			} else {
				p.i++
			}
			if err := p.cfws(); err != nil {
				return "", err
			}
		}
		if !p.take(':') {
			return "", p.fail(`the ":" after a route`)
		}
	}
	words, err := p.words()
	if err != nil {
		return "", err
	}
	local, err := localPart(words)
	if err != nil {
		return "", err
	}
	if !p.take('@') {
		return "", p.fail(`"@"`)
	}
	d, err := p.domain()
	if err != nil {
		return "", err
	}
	if err := p.cfws(); err != nil {
		return "", err
	}
	if !p.take('>') {
		return "", p.fail(`">"`)
	}
	return local + "@" + d, nil
}

// word is an atom, a quoted string or a dot of a phrase or local part.
type word struct {
	text   string
	quoted bool
	dot    bool
}

// words reads atoms, quoted strings and dots, with comments and white
// space between them, up to the first other character.
func (p *scanner) words() ([]word, error) {
	var out []word
	for {
		if err := p.cfws(); err != nil {
			return nil, err
		}
		switch c := p.peek(); {
		case c == '"':
			s, err := p.quoted()
			if err != nil {
				return nil, err
			}
			out = append(out, word{text: s, quoted: true})
		case c == '.':
			p.i++
			out = append(out, word{text: ".", dot: true})
		case isAtext(c) && !p.eof():
			out = append(out, word{text: p.atom()})
		default:
			return out, nil
		}
	}
}

// isPhrase tells whether words form a display name: a word, then words
// and dots (obs-phrase, section 4.1).
func isPhrase(words []word) bool { return len(words) > 0 && !words[0].dot }

// localPart joins the words of a local part: word *("." word), the
// obs-local-part of section 4.4, which includes dot-atom and
// quoted-string.
func localPart(words []word) (string, error) {
	var b strings.Builder
	for i, w := range words {
		if w.dot != (i%2 == 1) || i == len(words)-1 && w.dot {
			return "", fmt.Errorf("%w: a local part of misplaced dots or spaces", errAddress)
		}
		b.WriteString(w.text)
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("%w: an empty local part", errAddress)
	}
	return b.String(), nil
}

// domain reads a domain: atoms joined by dots (dot-atom, or obs-domain
// with comments between them) or a domain literal ("[192.0.2.1]").
func (p *scanner) domain() (string, error) {
	if err := p.cfws(); err != nil {
		return "", err
	}
	if p.take('[') {
		start := p.i - 1
		for !p.eof() && p.peek() != ']' {
			if c := p.peek(); c == '[' || c == '\\' {
				return "", p.fail("a domain literal")
			}
			p.i++
		}
		if !p.take(']') {
			return "", p.fail(`the "]" of a domain literal`)
		}
		return p.s[start:p.i], nil
	}
	var b strings.Builder
	for {
		if err := p.cfws(); err != nil {
			return "", err
		}
		if p.eof() || !isAtext(p.peek()) {
			return "", p.fail("a domain")
		}
		b.WriteString(p.atom())
		save := p.i
		if err := p.cfws(); err != nil {
			return "", err
		}
		if !p.take('.') {
			p.i = save
			return b.String(), nil
		}
		b.WriteByte('.')
	}
}

// scanner reads the lexical tokens of structured header fields (RFC
// 5322 section 3.2) and of Authentication-Results (RFC 8601 section 2.2,
// which builds on them).
type scanner struct {
	s   string
	i   int
	bad error // the error that syntax errors wrap: errAddress or errAuthResults
}

func (p *scanner) eof() bool { return p.i >= len(p.s) }

// peek returns the next byte, or 0 at the end.
func (p *scanner) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

// take consumes c when it is next.
func (p *scanner) take(c byte) bool {
	if p.peek() == c && !p.eof() {
		p.i++
		return true
	}
	return false
}

func (p *scanner) fail(want string) error {
	if p.eof() {
		return fmt.Errorf("%w: %s expected at the end", p.bad, want)
	}
	return fmt.Errorf("%w: %s expected at offset %d", p.bad, want, p.i)
}

// cfws skips folding white space and comments (RFC 5322 section 3.2.2).
// Comments nest, and a backslash quotes the character after it, so that
// "(a \) b (c) ;)" is one comment. A comment left open is an error.
func (p *scanner) cfws() error {
	for !p.eof() {
		switch p.s[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		case '(':
			depth := 0
			for {
				if p.eof() {
					return fmt.Errorf("%w: a comment left open", p.bad)
				}
				c := p.s[p.i]
				p.i++
				switch {
				case c == '\\':
					p.i++ // section 3.2.1, quoted-pair
				case c == '(':
					depth++
				case c == ')':
					depth--
				}
				if depth == 0 {
					break
				}
			}
		default:
			return nil
		}
	}
	return nil
}

// quoted reads a quoted string (section 3.2.4) and returns its content
// without the quotes and with each quoted-pair replaced by the character
// it quotes.
func (p *scanner) quoted() (string, error) {
	p.i++ // the opening quote
	var b strings.Builder
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if p.eof() {
				return "", fmt.Errorf("%w: a quoted string left open", p.bad)
			}
			b.WriteByte(p.s[p.i])
			p.i++
		case '\r', '\n':
			// Folding inside the string (section 3.2.4, FWS) is no part of it.
		default:
			b.WriteByte(c)
		}
	}
	return "", fmt.Errorf("%w: a quoted string left open", p.bad)
}

// atom reads 1*atext.
func (p *scanner) atom() string {
	start := p.i
	for !p.eof() && isAtext(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// isAtext tells whether c may be part of an atom (RFC 5322 section
// 3.2.3); bytes above ASCII are UTF-8 (RFC 6532 section 3.2).
func isAtext(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c >= 0x80:
		return true
	}
	return strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}

// SameAddress tells whether two addresses (local@domain) name the same
// mailbox: the local parts equal byte for byte, as RFC 5321 section
// 2.4 leaves them to the receiving host, and the domains equal up to the
// case of ASCII letters. Unicode case folding is never applied: it would
// make "uſ@example.org" (U+017F, long s) and "us@example.org" one
// mailbox. Every comparison of a player's or the umpire's address goes
// through it.
func SameAddress(a, b string) bool {
	la, da, ok1 := splitAddress(strings.TrimSpace(a))
	lb, db, ok2 := splitAddress(strings.TrimSpace(b))
	return ok1 && ok2 && la == lb && canonicalDomain(da) == canonicalDomain(db)
}

// AddressKey is the form of an address under which SameAddress finds it
// equal to itself: the local part as it is, the domain canonical. Keys
// such as the answer quotas use it, so that writing the domain in other
// cases does not make a new address.
func AddressKey(a string) string {
	l, d, ok := splitAddress(strings.TrimSpace(a))
	if !ok {
		return strings.TrimSpace(a)
	}
	return l + "@" + canonicalDomain(d)
}

// splitAddress splits an address at its last "@": a quoted local part
// may hold one, a domain never does.
func splitAddress(a string) (local, domain string, ok bool) {
	i := strings.LastIndexByte(a, '@')
	if i <= 0 || i == len(a)-1 {
		return "", "", false
	}
	return a[:i], a[i+1:], true
}

// canonicalDomain is a domain for comparison: its ASCII letters in lower
// case, without white space around it or a final dot. Other bytes stay as
// they are (strings.ToLower would fold the Kelvin sign K into "k").
func canonicalDomain(d string) string {
	return asciiLower(strings.TrimSuffix(strings.TrimSpace(d), "."))
}

// asciiLower lower-cases the ASCII letters of s and only those.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
