package island

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/attu-pbem/attu/orders"
	"go.yaml.in/yaml/v3"
)

// The strict reading of a YAML file: a file is read into a yaml.Node, then
// walked against the Go shape of the format, every unknown key, repeated key
// and value of the wrong kind reported at its line and column.
//
// Package orders has a strict reader shared by every system (ParseDocument,
// DecodeStrict); this one keeps its own because a scenario file's answers
// differ from an order file's in what a user sees, and the golden files
// under testdata/broken hold them: each problem has its own "what to
// change" (orders.Error has one message), list items are counted from 1,
// mappings whose keys the file chooses keep the file's order and every
// value keeps its line and column (Str, Num, Map), anchors are refused as
// well as aliases, lone carriage returns and Unicode line breaks are
// refused, the limits suit a scenario (MaxSize, MaxDepth), and an empty
// file or a syntax error points to the shipped example. What is the same
// is shared: the words for a node and the nearest key.

// Limits on what a scenario file may be, so a stranger's file cannot exhaust
// the server.
const (
	// MaxSize is the largest scenario file accepted, in bytes. A full game
	// (a 40x30 map with a few hundred hexside features and a hundred units)
	// is about 40 KB.
	MaxSize = 1 << 20
	// MaxDepth is how deeply a file may nest lists and mappings; the format
	// needs six.
	MaxDepth = 16
)

// Str is a single value (a word, a hex id, a date) with where it is written.
// Numbers are read as the text they are written as, so a hex id needs no
// quotes.
type Str struct {
	Value string
	Pos
	// lead is 1 when the value is quoted, so the value's own characters
	// begin one column after Pos.
	lead int
}

// Set reports whether the value was written.
func (s Str) Set() bool { return s.Line > 0 }

// at returns where the value's i-th character (a rune index) is written,
// for values on one line without escapes.
func (s Str) at(i int) Pos { return Pos{s.Line, s.Col + s.lead + i} }

// Num is a whole number with where it is written.
type Num struct {
	Value int
	Pos
}

// Set reports whether the value was written.
func (n Num) Set() bool { return n.Line > 0 }

// Entry is one key of a mapping whose keys the file chooses (terrain names,
// area names), with its value.
type Entry[T any] struct {
	Key   Str
	Value T
}

// Map is a mapping whose keys the file chooses, in the order written.
type Map[T any] []Entry[T]

// add appends an entry for key and returns its value to decode into; the
// value is decoded before the next add, so the append cannot move it away.
func (m *Map[T]) add(key Str) reflect.Value {
	*m = append(*m, Entry[T]{Key: key})
	return reflect.ValueOf(&(*m)[len(*m)-1].Value).Elem()
}

// adder is what Map implements for the decoder.
type adder interface{ add(Str) reflect.Value }

// readDocument reads data as one YAML document whose top is a mapping. It
// refuses, at a line and column, what the YAML library would accept or
// report obscurely: too large a file, text that is not UTF-8, tabs used for
// indentation, an empty file, syntax errors, several documents, aliases and
// nesting deeper than MaxDepth.
func readDocument(data []byte, ps *problems) *yaml.Node {
	start := Pos{1, 1}
	if len(data) > MaxSize {
		ps.at(start, "a scenario is a few tens of kilobytes: send the scenario file only", "the file is %d bytes; the limit is %d", len(data), MaxSize)
		return nil
	}
	if !utf8.Valid(data) {
		ps.at(position(data, orders.InvalidUTF8(data)), "save it as plain UTF-8", "the file is not UTF-8 text")
		return nil
	}
	if off := oddBreak(data); off >= 0 {
		ps.at(position(data, off), "save the file with plain line ends (LF or CR LF)", "the file has a line break that is not a line end: a lone carriage return, or U+0085, U+2028 or U+2029")
		return nil
	}
	if tabs(data, ps) {
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			ps.at(start, "start from examples/island-war/ridge-42-invented.yaml", "the file is empty")
		} else {
			syntaxError(err, data, ps)
		}
		return nil
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		ps.at(Pos{orders.DocumentMarker(data), 1}, "keep one scenario per file and remove the line \"---\" and what follows it", "the file holds more than one YAML document")
		return nil
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		ps.at(start, "start from examples/island-war/ridge-42-invented.yaml", "the file is empty")
		return nil
	}
	root := doc.Content[0]
	if !checkNode(root, 1, ps) {
		return nil
	}
	if root.Kind != yaml.MappingNode {
		ps.at(pos(root), "write key: value lines such as game_turns: 8", "the file must be a mapping, not %s", describe(root))
		return nil
	}
	return root
}

// oddBreak returns the offset of the first character YAML reads as a line
// break but editors and this package's line numbers do not: a carriage
// return without a line feed, NEL, LS or PS; -1 when there is none.
func oddBreak(data []byte) int {
	for i, r := range string(data) {
		switch {
		case r == '\r' && (i+1 >= len(data) || data[i+1] != '\n'):
			return i
		case r == '\u0085' || r == '\u2028' || r == '\u2029':
			return i
		}
	}
	return -1
}

// checkNode refuses aliases and excessive depth anywhere under n; the first
// one found says it all (an alias bomb would give a page of the same line).
func checkNode(n *yaml.Node, depth int, ps *problems) bool {
	if depth > MaxDepth {
		ps.at(pos(n), "a scenario needs far fewer levels", "the file nests lists and mappings more than %d deep", MaxDepth)
		return false
	}
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		ps.at(pos(n), "write the value out in full", "anchors and aliases (&name, *name) are not allowed")
		return false
	}
	for _, c := range n.Content {
		if !checkNode(c, depth+1, ps) {
			return false
		}
	}
	return true
}

// tabs reports each line indented with a tab, the commonest reason a YAML
// file that looks right will not read.
func tabs(data []byte, ps *problems) bool {
	found := false
	for i, line := range strings.Split(string(data), "\n") {
		for j, r := range line {
			if r == '\t' {
				ps.at(Pos{i + 1, j + 1}, "indent with spaces", "a tab is used for indentation")
				found = true
				break
			}
			if r != ' ' && r != '-' {
				break
			}
		}
	}
	return found
}

var lineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a YAML library error into a problem a user can act on.
func syntaxError(err error, data []byte, ps *problems) {
	msg := err.Error()
	line := 1
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	what, fix := "this is not valid YAML: "+msg, "compare it with examples/island-war/ridge-42-invented.yaml"
	switch {
	case strings.Contains(msg, "mapping values are not allowed"):
		what, fix = "a \"key: value\" is not allowed here", "check the indentation, and quote a value that itself contains \": \""
	case strings.Contains(msg, "did not find expected key"):
		what, fix = "this line is not indented like the lines above it", "line it up with its neighbours"
	case strings.Contains(msg, "could not find expected ':'"):
		what, fix = "a key is missing its \":\"", "write key: value"
	case strings.Contains(msg, "did not find expected ',' or ']'"):
		what, fix = "a [list] is not closed", "close it with \"]\" (the mistake may be on a later line)"
	case strings.Contains(msg, "did not find expected ',' or '}'"):
		what, fix = "a {mapping} is not closed", "close it with \"}\" (the mistake may be on a later line)"
	case strings.Contains(msg, "did not find expected '-' indicator"):
		what, fix = "a list item does not start like the items above it", "start it with \"- \""
	case strings.Contains(msg, "found unexpected end of stream"):
		what, fix = "the file ends inside a quoted value or a bracket", "close it"
	case strings.Contains(msg, "unknown anchor"):
		what, fix = "aliases (*name) are not allowed", "write the value out in full"
	}
	// The library may count one line past the end of the file.
	line = min(line, bytes.Count(data, []byte("\n"))+1)
	ps.at(Pos{line, 1}, fix, "%s", what)
}

func position(data []byte, off int) Pos {
	off = min(max(off, 0), len(data))
	before := data[:off]
	start := bytes.LastIndexByte(before, '\n') + 1
	return Pos{bytes.Count(before, []byte("\n")) + 1, utf8.RuneCount(before[start:]) + 1}
}

func pos(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }

// The words for what a node holds and the nearest known key are package
// orders' own, the same for every system's files.
var (
	isNull   = orders.IsNull
	describe = orders.Describe
)

// decoder walks a node against a Go value: structs by their yaml tags (a
// field of type Pos receives where the struct's mapping is written), Map,
// slices, Str, Num, bool and pointers.
type decoder struct {
	ps *problems
}

var (
	strType = reflect.TypeOf(Str{})
	numType = reflect.TypeOf(Num{})
	posType = reflect.TypeOf(Pos{})
	adderT  = reflect.TypeOf((*adder)(nil)).Elem()
)

func label(ctx string) string {
	if ctx == "" {
		return "the file"
	}
	return ctx
}

func (d *decoder) decode(n *yaml.Node, v reflect.Value, ctx string) {
	if d.ps.full() {
		return
	}
	t := v.Type()
	switch {
	case t == strType:
		if n.Kind != yaml.ScalarNode || isNull(n) {
			fix := "write one value"
			if n.Value == "~" {
				fix = "a bare ~ means nothing in YAML: write \"~\""
			}
			d.ps.at(pos(n), fix, "%s: want a single value, got %s", label(ctx), describe(n))
			return
		}
		s := Str{Value: n.Value, Pos: pos(n)}
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			s.lead = 1
		}
		v.Set(reflect.ValueOf(s))
	case t == numType:
		var i int
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&i) != nil {
			d.ps.at(pos(n), "write a whole number such as 3", "%s: want a whole number, got %s", label(ctx), describe(n))
			return
		}
		v.Set(reflect.ValueOf(Num{Value: i, Pos: pos(n)}))
	case reflect.PointerTo(t).Implements(adderT):
		if !d.isMapping(n, ctx) {
			return
		}
		for _, kv := range d.pairs(n, ctx) {
			target := v.Addr().Interface().(adder).add(Str{Value: kv[0].Value, Pos: pos(kv[0])})
			d.decode(kv[1], target, ctx+"."+kv[0].Value)
		}
	case t.Kind() == reflect.Bool:
		var b bool
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(&b) != nil {
			d.ps.at(pos(n), "write true or false", "%s: want true or false, got %s", label(ctx), describe(n))
			return
		}
		v.SetBool(b)
	case t.Kind() == reflect.Pointer:
		if isNull(n) {
			return
		}
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		d.decode(n, v.Elem(), ctx)
	case t.Kind() == reflect.Slice:
		if isNull(n) {
			return
		}
		if n.Kind != yaml.SequenceNode {
			d.ps.at(pos(n), "write a list, as [a, b] or as lines starting with \"- \"", "%s: want a list, got %s", label(ctx), describe(n))
			return
		}
		s := reflect.MakeSlice(t, len(n.Content), len(n.Content))
		for i, c := range n.Content {
			d.decode(c, s.Index(i), fmt.Sprintf("%s[%d]", ctx, i+1))
		}
		v.Set(s)
	case t.Kind() == reflect.Struct:
		d.structure(n, v, ctx)
	default:
		panic("island: cannot decode into " + t.String())
	}
}

func (d *decoder) isMapping(n *yaml.Node, ctx string) bool {
	if isNull(n) {
		return false
	}
	if n.Kind != yaml.MappingNode {
		d.ps.at(pos(n), "write key: value lines, or {key: value, ...}", "%s: want a mapping, got %s", label(ctx), describe(n))
		return false
	}
	return true
}

// pairs returns a mapping's key/value pairs whose key is a single word
// given once.
func (d *decoder) pairs(n *yaml.Node, ctx string) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.ps.at(pos(k), "write a single word before the \":\"", "%s: a key must be a single word, got %s", label(ctx), describe(k))
			continue
		}
		if first, ok := seen[k.Value]; ok {
			d.ps.at(pos(k), "keep one of them", "%s: %q is given twice (first at line %d)", label(ctx), k.Value, first)
			continue
		}
		seen[k.Value] = k.Line
		out = append(out, [2]*yaml.Node{k, val})
	}
	return out
}

func (d *decoder) structure(n *yaml.Node, v reflect.Value, ctx string) {
	if !d.isMapping(n, ctx) {
		return
	}
	t := v.Type()
	names := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Type == posType {
			v.Field(i).Set(reflect.ValueOf(pos(n)))
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if f.IsExported() && name != "-" && name != "" {
			names[name] = i
		}
	}
	for _, kv := range d.pairs(n, ctx) {
		k := kv[0]
		i, ok := names[k.Value]
		if !ok {
			d.ps.at(pos(k), knownKeys(k.Value, names), "%s: unknown key %q", label(ctx), k.Value)
			continue
		}
		d.decode(kv[1], v.Field(i), strings.TrimPrefix(ctx+"."+k.Value, "."))
	}
}

// knownKeys says which keys are allowed, with the nearest one first when
// the key looks misspelt.
func knownKeys(key string, names map[string]int) string {
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	msg := "the keys allowed here are " + strings.Join(list, ", ")
	if s := orders.Closest(key, list); s != "" {
		msg = fmt.Sprintf("did you mean %q? ", s) + msg
	}
	return msg
}
