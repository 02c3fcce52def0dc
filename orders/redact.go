package orders

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// RedactedToken is what Redact writes in place of a side's token. It reads
// as a token, so a redacted file still parses, and it is no one's token.
const RedactedToken = "REDACTED"

// Redact returns an order file with the value of its top-level token key
// replaced by RedactedToken, so that a file can be stored, exported and
// audited without the secret it carried (a token never leaves the
// server). Every line stays where it was and, outside the token's own line,
// every column too; on that line what follows the token keeps its column
// as well unless only a comment follows it. A file that is not a YAML
// mapping, or has no token, comes back unchanged. A token written over
// several lines is cut to the marker and the lines it spanned are left
// empty.
func Redact(raw []byte) []byte {
	root, errs := ParseDocument(raw, MaxSize)
	if len(errs) > 0 {
		return raw
	}
	lines := splitLines(raw)
	changed := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value != "token" {
			continue
		}
		if v.Kind == yaml.ScalarNode && v.Value == RedactedToken && v.Style == 0 {
			continue
		}
		// The value ends before the next key, or with the file.
		limit := len(lines) + 1
		if i+2 < len(root.Content) {
			limit = root.Content[i+2].Line
		}
		if redactValue(lines, v, limit, root.Style&yaml.FlowStyle != 0) {
			changed = true
		}
	}
	if !changed {
		return raw
	}
	return bytes.Join(lines, nil)
}

// splitLines cuts data after each newline, so that joining the pieces gives
// data back.
func splitLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		n := bytes.IndexByte(data, '\n')
		if n < 0 {
			out = append(out, bytes.Clone(data))
			break
		}
		out = append(out, bytes.Clone(data[:n+1]))
		data = data[n+1:]
	}
	return out
}

// redactValue writes the marker over the scalar v. limit is the line of
// whatever follows v in its mapping; flow says the mapping is written in
// {braces}, where a value may share its line with the next key.
func redactValue(lines [][]byte, v *yaml.Node, limit int, flow bool) bool {
	if v.Line < 1 || v.Line > len(lines) {
		return false
	}
	line := lines[v.Line-1]
	body, eol := cutEOL(line)
	start := byteOffset(body, v.Column)
	if start < 0 {
		return false
	}
	if end := scalarEnd(body, start, v); end >= 0 {
		marker := RedactedToken
		rest := strings.TrimSpace(string(body[end:]))
		if rest != "" && !strings.HasPrefix(rest, "#") {
			// Something follows on the line: keep its column.
			if w := utf8.RuneCount(body[start:end]); w > len(marker) {
				marker += strings.Repeat(" ", w-len(marker))
			}
		}
		lines[v.Line-1] = concat(body[:start], []byte(marker), body[end:], eol)
		return true
	}
	if flow {
		// A value over several lines inside braces: the next key may share
		// its last line, so there is no safe cut. Leave it; the store
		// refuses a file that still carries a token.
		return false
	}
	lines[v.Line-1] = concat(body[:start], []byte(RedactedToken), eol)
	for n := v.Line + 1; n < limit && n <= len(lines); n++ {
		_, eol := cutEOL(lines[n-1])
		lines[n-1] = bytes.Clone(eol)
	}
	return true
}

// scalarEnd returns the byte offset just past v's text when v is written
// whole on this line from start, else -1.
func scalarEnd(body []byte, start int, v *yaml.Node) int {
	if v.Kind != yaml.ScalarNode {
		return -1
	}
	s := body[start:]
	switch v.Style {
	case 0:
		if v.Value != "" && bytes.HasPrefix(s, []byte(v.Value)) {
			return start + len(v.Value)
		}
	case yaml.SingleQuotedStyle:
		for i := 1; i < len(s); i++ {
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					i++
					continue
				}
				return start + i + 1
			}
		}
	case yaml.DoubleQuotedStyle:
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return start + i + 1
			}
		}
	}
	return -1
}

// cutEOL splits a line into its text and its line ending.
func cutEOL(line []byte) (body, eol []byte) {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
		if n > 0 && line[n-1] == '\r' {
			n--
		}
	}
	return line[:n], line[n:]
}

// byteOffset turns a 1-based column in characters into a byte offset.
func byteOffset(body []byte, col int) int {
	off := 0
	for c := 1; c < col; c++ {
		if off >= len(body) {
			return -1
		}
		_, n := utf8.DecodeRune(body[off:])
		off += n
	}
	return off
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
