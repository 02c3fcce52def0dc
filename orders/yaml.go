package orders

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Limits on what a file may be, so a stranger's mail cannot exhaust the
// server.
const (
	// MaxSize is the largest order file accepted, in bytes.
	MaxSize = 256 << 10
	// MaxDepth is how deeply a file may nest lists and mappings; order files
	// need at most eight (a path inside a Yamasaki move).
	MaxDepth = 32
)

// ParseDocument reads data as one YAML document whose top is a mapping and
// returns that mapping node. It refuses, with player-readable messages at a
// line and column, what the YAML library would accept or report obscurely:
// input larger than maxSize bytes, text that is not UTF-8, tabs used for
// indentation, an empty file, syntax errors, more than one document,
// aliases (which can expand exponentially), and nesting deeper than
// MaxDepth.
func ParseDocument(data []byte, maxSize int) (*yaml.Node, Errors) {
	if len(data) > maxSize {
		return nil, Errors{ErrAt(1, 1, "the file is %d bytes; the limit is %d: send only the orders", len(data), maxSize)}
	}
	if !utf8.Valid(data) {
		line, col := position(data, InvalidUTF8(data))
		return nil, Errors{ErrAt(line, col, "the file is not UTF-8 text; save it as plain UTF-8")}
	}
	if errs := tabs(data); len(errs) > 0 {
		return nil, errs
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, Errors{ErrAt(1, 1, "the file is empty: it needs key: value lines such as side: us")}
		}
		return nil, Errors{syntaxError(err, data)}
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		line := DocumentMarker(data)
		return nil, Errors{ErrAt(line, 1, "the file holds more than one YAML document; a line \"---\" starts another one: remove it and everything meant for another file")}
	}
	if len(doc.Content) == 0 || IsNull(doc.Content[0]) {
		return nil, Errors{ErrAt(1, 1, "the file is empty: it needs key: value lines such as side: us")}
	}
	root := doc.Content[0]
	var errs Errors
	checkNode(root, 1, &errs)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	if root.Kind != yaml.MappingNode {
		return nil, Errors{ErrAt(root.Line, root.Column, "the file must be key: value lines (like side: us), not %s", Describe(root))}
	}
	return root, nil
}

// checkNode refuses aliases and excessive depth anywhere under n.
func checkNode(n *yaml.Node, depth int, errs *Errors) {
	if depth > MaxDepth {
		*errs = append(*errs, ErrAt(n.Line, n.Column, "the file nests lists and mappings more than %d deep; order files need far fewer", MaxDepth))
		return
	}
	if n.Kind == yaml.AliasNode {
		*errs = append(*errs, ErrAt(n.Line, n.Column, "aliases (*%s) are not allowed; write the value out in full", n.Value))
		return
	}
	for _, c := range n.Content {
		checkNode(c, depth+1, errs)
		if len(*errs) > 0 {
			// One alias or one over-deep branch says it all; an alias
			// bomb would otherwise produce a page of identical lines.
			return
		}
	}
}

// tabs reports each line indented with a tab, the commonest reason a YAML
// file that looks right will not read: the first MaxErrors of them.
func tabs(data []byte) Errors {
	var errs Errors
	for i, line := range strings.Split(string(data), "\n") {
		if len(errs) >= MaxErrors {
			break
		}
		for j, r := range line {
			if r == '\t' {
				errs = append(errs, ErrAt(i+1, j+1, "a tab is used for indentation; YAML needs spaces"))
				break
			}
			if r != ' ' && r != '-' {
				break
			}
		}
	}
	return errs
}

var lineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a YAML library error into a mistake at a line, in words
// a player can act on.
func syntaxError(err error, data []byte) *Error {
	msg := err.Error()
	line := 0
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	switch {
	case strings.Contains(msg, "exceeded max depth"):
		msg = "the file nests lists and mappings far too deep"
	case strings.HasPrefix(msg, "unknown anchor"):
		msg = "aliases (*name) are not allowed; write the value out in full"
		if i := bytes.IndexByte(data, '*'); i >= 0 && line == 0 {
			line, _ = position(data, i)
		}
	case strings.Contains(msg, "mapping values are not allowed"):
		msg = "a \"key: value\" is not allowed here: check the indentation, and quote a value that itself contains \": \""
	case strings.Contains(msg, "did not find expected key"):
		msg = "this line is not indented like the lines above it"
	case strings.Contains(msg, "could not find expected ':'"):
		msg = "a key is missing its \":\""
	case strings.Contains(msg, "did not find expected ',' or ']'"):
		msg = "a [list] is not closed with \"]\" (the mistake may be on a later line)"
	case strings.Contains(msg, "did not find expected ',' or '}'"):
		msg = "a {mapping} is not closed with \"}\" (the mistake may be on a later line)"
	case strings.Contains(msg, "did not find expected '-' indicator"):
		msg = "a list item must start with \"- \" like the items above it"
	case strings.Contains(msg, "found unexpected end of stream"):
		msg = "the file ends inside a quoted value or a bracket: close it"
	case strings.Contains(msg, "cannot start any token"):
		msg = "this line starts with a character YAML does not allow there (a tab, @ or `): remove it or quote the value"
	default:
		msg = "this is not valid YAML: " + msg
	}
	return ErrAt(line, 1, "%s", msg)
}

// position converts a byte offset into a line and column (in characters).
func position(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

// InvalidUTF8 returns the byte offset of the first byte that is not UTF-8
// in data, which utf8.Valid refuses.
func InvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}

// DocumentMarker returns the line of the first "---" or "..." marker that
// follows content, where a second document begins.
func DocumentMarker(data []byte) int {
	content := false
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimRight(line, " \r")
		if content && (t == "---" || strings.HasPrefix(t, "--- ") || t == "...") {
			return i + 1
		}
		if s := strings.TrimSpace(t); s != "" && !strings.HasPrefix(s, "#") && s != "---" {
			content = true
		}
	}
	return 1
}
