package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// Canonical returns JSON text in the form whose SHA-256 is an entry's hash:
// no insignificant white space, object keys sorted byte-wise, numbers as
// written, strings escaped as encoding/json does without HTML escaping. So
// an export can be re-indented or have its keys reordered by any tool and
// still audit.
//
// The form is defined by encoding/json: the text decoded into a value (an
// `any`, numbers kept as written) and encoded again. Every log entry passes
// through here when it is written, audited or shown, so the text is put in
// that form in one pass over it rather than through a tree of maps; the
// result is the same, byte for byte, as the fuzz test checks. A member
// named twice keeps the last value, as decoding into a map does.
func Canonical(raw []byte) ([]byte, error) {
	c := canonicalizer{in: raw, out: make([]byte, 0, len(raw))}
	if c.document() {
		return c.out, nil
	}
	// Not JSON: encoding/json words what is wrong.
	return canonicalByValue(raw)
}

// canonicalByValue is Canonical through encoding/json: decoded into a
// value and encoded again. Canonical gives its error for text it refuses,
// so that the messages are encoding/json's.
func canonicalByValue(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("text after the JSON value")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// canonicalMaxDepth is how deep encoding/json lets arrays and objects nest
// (its scanner's maxNestingDepth); deeper text is refused.
const canonicalMaxDepth = 10000

// canonicalizer reads JSON text and writes its canonical form. Each method
// reads one piece at c.in[c.pos:] and appends its form to c.out; false
// means the text is not JSON as encoding/json reads it.
type canonicalizer struct {
	in    []byte
	pos   int
	out   []byte
	depth int
	// members holds the members of the objects being read, innermost
	// last: each object's are sorted when it closes.
	members []canonicalMember
}

// canonicalMember is one object member as written to out: out[start:end]
// is `"name":value`, key the name decoded (what the order is by).
type canonicalMember struct {
	key        []byte
	start, end int
}

// document reads the whole text: one value, then nothing but white space
// — or anything after a closing bracket or brace, which encoding/json's
// Decoder.More takes for the end of a stream, and so Canonical always has.
func (c *canonicalizer) document() bool {
	c.space()
	if !c.value() {
		return false
	}
	c.space()
	return c.pos == len(c.in) || c.in[c.pos] == ']' || c.in[c.pos] == '}'
}

// space skips JSON's white space.
func (c *canonicalizer) space() {
	for c.pos < len(c.in) {
		switch c.in[c.pos] {
		case ' ', '\t', '\r', '\n':
			c.pos++
		default:
			return
		}
	}
}

func (c *canonicalizer) value() bool {
	if c.pos >= len(c.in) {
		return false
	}
	switch b := c.in[c.pos]; {
	case b == '{':
		return c.object()
	case b == '[':
		return c.array()
	case b == '"':
		_, ok := c.string(false)
		return ok
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	case b == '-' || '0' <= b && b <= '9':
		return c.number()
	}
	return false
}

func (c *canonicalizer) literal(word string) bool {
	if !bytes.HasPrefix(c.in[c.pos:], []byte(word)) {
		return false
	}
	c.pos += len(word)
	c.out = append(c.out, word...)
	return true
}

// number copies a number as written, once it has checked it against
// JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (c *canonicalizer) number() bool {
	in, i := c.in, c.pos
	digits := func() bool {
		start := i
		for i < len(in) && '0' <= in[i] && in[i] <= '9' {
			i++
		}
		return i > start
	}
	if in[i] == '-' {
		i++
	}
	switch {
	case i < len(in) && in[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(in) && in[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	c.out = append(c.out, in[c.pos:i]...)
	c.pos = i
	return true
}

// enter reads the bracket or brace open that starts an array or object,
// and end at once when it is empty. ok is false past encoding/json's
// limit of nesting; empty says the array or object has ended.
func (c *canonicalizer) enter(open, end byte) (ok, empty bool) {
	c.depth++
	c.pos++
	if c.depth > canonicalMaxDepth {
		return false, false
	}
	c.out = append(c.out, open)
	c.space()
	if c.at(end) {
		c.leave(end)
		return true, true
	}
	return true, false
}

// at reports whether the next byte to read is b.
func (c *canonicalizer) at(b byte) bool { return c.pos < len(c.in) && c.in[c.pos] == b }

// leave reads the bracket or brace b that ends an array or object.
func (c *canonicalizer) leave(b byte) {
	c.pos++
	c.depth--
	c.out = append(c.out, b)
}

func (c *canonicalizer) array() bool {
	if ok, empty := c.enter('[', ']'); !ok || empty {
		return ok
	}
	for {
		c.space()
		if !c.value() {
			return false
		}
		c.space()
		if c.pos >= len(c.in) {
			return false
		}
		switch c.in[c.pos] {
		case ',':
			c.pos++
			c.out = append(c.out, ',')
		case ']':
			c.leave(']')
			return true
		default:
			return false
		}
	}
}

func (c *canonicalizer) object() bool {
	body := len(c.out) + 1 // after the brace
	base := len(c.members)
	if ok, empty := c.enter('{', '}'); !ok || empty {
		return ok
	}
	for {
		c.space()
		if !c.at('"') {
			return false
		}
		if len(c.members) > base {
			c.out = append(c.out, ',')
		}
		start := len(c.out)
		key, ok := c.string(true)
		if !ok {
			return false
		}
		c.space()
		if !c.at(':') {
			return false
		}
		c.pos++
		c.out = append(c.out, ':')
		c.space()
		if !c.value() {
			return false
		}
		c.members = append(c.members, canonicalMember{key: key, start: start, end: len(c.out)})
		c.space()
		if c.pos >= len(c.in) {
			return false
		}
		switch c.in[c.pos] {
		case ',':
			c.pos++
		case '}':
			c.sortMembers(body, base)
			c.leave('}')
			return true
		default:
			return false
		}
	}
}

// sortMembers puts the members of the object whose text starts at
// out[body] in the order of their decoded names, byte-wise, keeping only
// the last of the members of one name (as a map keeps the last value
// stored under a key). Text already canonical is left as it is.
func (c *canonicalizer) sortMembers(body, base int) {
	ms := c.members[base:]
	defer func() { c.members = c.members[:base] }()
	sorted := true
	for i := 1; i < len(ms); i++ {
		if bytes.Compare(ms[i-1].key, ms[i].key) >= 0 {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	text := slices.Clone(c.out[body:])
	c.out = c.out[:body]
	slices.SortStableFunc(ms, func(a, b canonicalMember) int { return bytes.Compare(a.key, b.key) })
	first := true
	for i, m := range ms {
		if i+1 < len(ms) && bytes.Equal(m.key, ms[i+1].key) {
			continue // a later member of the same name wins
		}
		if !first {
			c.out = append(c.out, ',')
		}
		first = false
		c.out = append(c.out, text[m.start-body:m.end-body]...)
	}
}

// string reads a string and writes it as encoding/json would write the
// Go string it decodes to: invalid UTF-8 and unpaired surrogates become
// U+FFFD (as decoding does), then only ", \, the control characters and
// U+2028, U+2029 are escaped, in the shortest escape (as encoding
// without HTML escaping does). With key set it also returns the decoded
// string.
func (c *canonicalizer) string(key bool) ([]byte, bool) {
	in := c.in
	start := c.pos + 1
	c.out = append(c.out, '"')
	// The decoded string is the text itself while nothing in it is
	// escaped or replaced; dec holds it from the first that is.
	var dec []byte
	plain := true
	run := start // in[run:i] is still to be copied as it is
	for i := start; i < len(in); {
		b := in[i]
		var r rune
		switch {
		case b == '"':
			c.out = append(c.out, in[run:i]...)
			c.out = append(c.out, '"')
			c.pos = i + 1
			switch {
			case !key:
				return nil, true
			case plain:
				return in[start:i], true
			}
			return append(dec, in[run:i]...), true
		case b < 0x20:
			return nil, false
		case b == '\\':
			var n int
			if r, n = escaped(in[i:]); n == 0 {
				return nil, false
			}
			c.out = append(c.out, in[run:i]...)
			if key {
				dec = append(dec, in[run:i]...)
			}
			i += n
		case b < utf8.RuneSelf:
			i++
			continue
		default:
			var n int
			r, n = utf8.DecodeRune(in[i:])
			if !(r == utf8.RuneError && n == 1 || r == '\u2028' || r == '\u2029') {
				i += n
				continue
			}
			c.out = append(c.out, in[run:i]...)
			if key {
				dec = append(dec, in[run:i]...)
			}
			i += n
		}
		// r replaces in[run:i] (an escape, or what decoding replaces or
		// encoding escapes).
		plain = false
		run = i
		c.out = appendRune(c.out, r)
		if key {
			dec = utf8.AppendRune(dec, r)
		}
	}
	return nil, false
}

// escaped decodes the escape at the start of s (which starts with a
// backslash) as encoding/json does, and returns the rune and how many
// bytes it took; 0 when it is not a JSON escape. A \u escape of a
// surrogate takes the next \u escape with it when the two make a pair,
// and is U+FFFD otherwise.
func escaped(s []byte) (rune, int) {
	if len(s) < 2 {
		return 0, 0
	}
	switch s[1] {
	case '"', '\\', '/':
		return rune(s[1]), 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r := hex4(s)
		if r < 0 {
			return 0, 0
		}
		if !utf16.IsSurrogate(r) {
			return r, 6
		}
		if r2 := hex4(s[6:]); r2 >= 0 {
			if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
				return pair, 12
			}
		}
		return utf8.RuneError, 6
	}
	return 0, 0
}

// hex4 reads the \uXXXX at the start of s; -1 when there is none.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, b := range s[2:6] {
		switch {
		case '0' <= b && b <= '9':
			b -= '0'
		case 'a' <= b && b <= 'f':
			b -= 'a' - 10
		case 'A' <= b && b <= 'F':
			b -= 'A' - 10
		default:
			return -1
		}
		r = r*16 + rune(b)
	}
	return r
}

// appendRune writes one decoded rune as encoding/json writes it in a
// string without HTML escaping.
func appendRune(out []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	switch r {
	case '"', '\\':
		return append(out, '\\', byte(r))
	case '\b':
		return append(out, '\\', 'b')
	case '\f':
		return append(out, '\\', 'f')
	case '\n':
		return append(out, '\\', 'n')
	case '\r':
		return append(out, '\\', 'r')
	case '\t':
		return append(out, '\\', 't')
	case '\u2028', '\u2029':
		return append(out, '\\', 'u', '2', '0', '2', hex[r&0xF])
	}
	if r < 0x20 {
		return append(out, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xF])
	}
	return utf8.AppendRune(out, r)
}
