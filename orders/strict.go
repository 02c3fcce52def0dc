package orders

import (
	"encoding"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// DecodeStrict decodes n into v, which must be a non-nil pointer, reporting
// every mistake with its line and column: mapping keys that v's struct has no
// yaml tag for, keys given twice, aliases, and values of the wrong kind (a
// list where one value belongs, a word where a number belongs). Fields
// missing from n are left as they are; checking that required fields are
// present is the caller's job, since only it knows which are.
//
// yaml.Node.Decode ignores KnownFields, so decoding from a node through the
// YAML library alone would silently drop misspelt keys; this walks the node
// against v's type instead. It understands structs (by their yaml tags),
// pointers, slices, fixed-size arrays, maps with string keys, strings,
// numbers, booleans, yaml.Node (kept as is, for parts a caller decodes
// later), and types implementing encoding.TextUnmarshaler or
// yaml.Unmarshaler. An exported struct field of type Pos is not a key: it
// receives where the mapping decoded into the struct is written, so a caller
// can point at it in later, semantic, errors.
func DecodeStrict(n *yaml.Node, v any) Errors {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		line, col := 1, 1
		if n != nil {
			line, col = n.Line, n.Column
		}
		return Errors{ErrAt(line, col, "internal error: DecodeStrict needs a non-nil pointer, got %T", v)}
	}
	if n == nil {
		return nil
	}
	var d strictDecoder
	d.decode(n, rv.Elem(), "")
	d.errs.Sort()
	return d.errs
}

// DecodeStrictIn is DecodeStrict for a part of a file named ctx, which
// its messages name ("unknown field "x" in move"); the errors are left in
// the order found, for the caller to sort with the rest of its file's.
func DecodeStrictIn(n *yaml.Node, v any, ctx string) Errors {
	var d strictDecoder
	d.decode(n, reflect.ValueOf(v).Elem(), ctx)
	return d.errs
}

type strictDecoder struct {
	errs Errors
}

// full reports whether the decoder has collected MaxErrors mistakes:
// enough to refuse the file, so finding words for more costs for nothing.
func (d *strictDecoder) full() bool { return len(d.errs) >= MaxErrors }

func (d *strictDecoder) fail(n *yaml.Node, format string, args ...any) {
	if d.full() {
		return
	}
	d.errs = append(d.errs, ErrAt(n.Line, n.Column, format, args...))
}

var (
	nodeType            = reflect.TypeOf(yaml.Node{})
	textUnmarshalerType = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
	yamlUnmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()
)

// prefix returns "ctx: " for messages about the value under key ctx.
func prefix(ctx string) string {
	if ctx == "" {
		return ""
	}
	return ctx + ": "
}

// Describe names what a node holds, for "want X, got Y" messages.
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping (key: value lines)"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if IsNull(n) {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "something else"
}

func IsNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func (d *strictDecoder) decode(n *yaml.Node, v reflect.Value, ctx string) {
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return
		}
		n = n.Content[0]
	}
	if n.Kind == yaml.AliasNode {
		d.fail(n, "%saliases (*%s) are not allowed; write the value out in full", prefix(ctx), n.Value)
		return
	}
	t := v.Type()
	if t == nodeType {
		v.Set(reflect.ValueOf(*n))
		return
	}
	if t.Kind() == reflect.Pointer {
		if IsNull(n) {
			return
		}
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		d.decode(n, v.Elem(), ctx)
		return
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		if n.Kind != yaml.ScalarNode {
			d.fail(n, "%swant a single value, got %s", prefix(ctx), Describe(n))
			return
		}
		if IsNull(n) {
			return
		}
		if err := v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(n.Value)); err != nil {
			d.fail(n, "%s%v", prefix(ctx), err)
		}
		return
	}
	if reflect.PointerTo(t).Implements(yamlUnmarshalerType) {
		if err := n.Decode(v.Addr().Interface()); err != nil {
			d.fail(n, "%s%s", prefix(ctx), strings.TrimPrefix(err.Error(), "yaml: "))
		}
		return
	}
	switch t.Kind() {
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			d.fail(n, "%swant a single value, got %s", prefix(ctx), Describe(n))
			return
		}
		if !IsNull(n) {
			v.SetString(n.Value)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		d.number(n, v, ctx)
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
			d.fail(n, "%swant true or false, got %s", prefix(ctx), Describe(n))
			return
		}
		var b bool
		if err := n.Decode(&b); err != nil {
			d.fail(n, "%swant true or false, got %s", prefix(ctx), Describe(n))
			return
		}
		v.SetBool(b)
	case reflect.Slice:
		if IsNull(n) {
			return
		}
		if n.Kind != yaml.SequenceNode {
			d.fail(n, "%swant a list, got %s", prefix(ctx), Describe(n))
			return
		}
		s := reflect.MakeSlice(t, len(n.Content), len(n.Content))
		for i, c := range n.Content {
			d.decode(c, s.Index(i), fmt.Sprintf("%s[%d]", ctx, i))
		}
		v.Set(s)
	case reflect.Array:
		if n.Kind != yaml.SequenceNode || len(n.Content) != t.Len() {
			d.fail(n, "%swant a list of %d values, got %s", prefix(ctx), t.Len(), Describe(n))
			return
		}
		for i, c := range n.Content {
			d.decode(c, v.Index(i), fmt.Sprintf("%s[%d]", ctx, i))
		}
	case reflect.Map:
		d.mapping(n, v, ctx)
	case reflect.Struct:
		d.structure(n, v, ctx)
	case reflect.Interface:
		if err := n.Decode(v.Addr().Interface()); err != nil {
			d.fail(n, "%s%s", prefix(ctx), strings.TrimPrefix(err.Error(), "yaml: "))
		}
	default:
		d.fail(n, "internal error: cannot decode into %s", t)
	}
}

func (d *strictDecoder) number(n *yaml.Node, v reflect.Value, ctx string) {
	want := "a whole number"
	tagOK := n.ShortTag() == "!!int"
	if k := v.Kind(); k == reflect.Float32 || k == reflect.Float64 {
		want = "a number"
		tagOK = tagOK || n.ShortTag() == "!!float"
	}
	if n.Kind != yaml.ScalarNode || !tagOK {
		d.fail(n, "%swant %s, got %s", prefix(ctx), want, Describe(n))
		return
	}
	p := reflect.New(v.Type())
	if err := n.Decode(p.Interface()); err != nil {
		d.fail(n, "%s%s %q is out of range", prefix(ctx), want, n.Value)
		return
	}
	v.Set(p.Elem())
}

// keysOf checks a mapping's keys: scalars, each given once. It returns the
// pairs worth decoding.
func (d *strictDecoder) keysOf(n *yaml.Node, ctx string) (keys, values []*yaml.Node) {
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.AliasNode {
			d.fail(k, "%saliases (*%s) are not allowed; write the value out in full", prefix(ctx), k.Value)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			d.fail(k, "%sa key must be a single word, got %s", prefix(ctx), Describe(k))
			continue
		}
		if first, ok := seen[k.Value]; ok {
			d.fail(k, "%s%q is given twice (first at line %d); keep one", prefix(ctx), k.Value, first.Line)
			continue
		}
		seen[k.Value] = k
		keys = append(keys, k)
		values = append(values, val)
	}
	return keys, values
}

// isMapping reports whether n holds a mapping to decode: false for a null
// (nothing written) and, with a complaint, for any other kind of node.
func (d *strictDecoder) isMapping(n *yaml.Node, ctx string) bool {
	if IsNull(n) {
		return false
	}
	if n.Kind != yaml.MappingNode {
		d.fail(n, "%swant a mapping (key: value lines), got %s", prefix(ctx), Describe(n))
		return false
	}
	return true
}

func (d *strictDecoder) mapping(n *yaml.Node, v reflect.Value, ctx string) {
	if !d.isMapping(n, ctx) {
		return
	}
	t := v.Type()
	if v.IsNil() {
		v.Set(reflect.MakeMap(t))
	}
	keys, values := d.keysOf(n, ctx)
	for i, k := range keys {
		kv := reflect.New(t.Key()).Elem()
		before := len(d.errs)
		d.decode(k, kv, ctx)
		if len(d.errs) > before {
			continue
		}
		ev := reflect.New(t.Elem()).Elem()
		d.decode(values[i], ev, join(ctx, k.Value))
		v.SetMapIndex(kv, ev)
	}
}

func join(ctx, key string) string {
	if ctx == "" {
		return key
	}
	return ctx + "." + key
}

var posType = reflect.TypeOf(Pos{})

// field is one struct field reachable from YAML.
type field struct {
	name  string
	index int
}

// fieldsOf lists a struct's fields by their yaml names: the tag's name, or
// the lower-cased field name as the YAML library does.
func fieldsOf(t reflect.Type) []field {
	var fs []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Type == posType {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		fs = append(fs, field{name: name, index: i})
	}
	return fs
}

func (d *strictDecoder) structure(n *yaml.Node, v reflect.Value, ctx string) {
	if !d.isMapping(n, ctx) {
		return
	}
	for i := 0; i < v.NumField(); i++ {
		if f := v.Type().Field(i); f.IsExported() && f.Type == posType {
			v.Field(i).Set(reflect.ValueOf(Pos{n.Line, n.Column}))
		}
	}
	fs := fieldsOf(v.Type())
	keys, values := d.keysOf(n, ctx)
	for i, k := range keys {
		idx := -1
		for _, f := range fs {
			if f.name == k.Value {
				idx = f.index
				break
			}
		}
		if idx < 0 {
			if !d.full() {
				d.fail(k, "%s", unknownField(ctx, k.Value, fs))
			}
			continue
		}
		d.decode(values[i], v.Field(idx), join(ctx, k.Value))
	}
}

func unknownField(ctx, key string, fs []field) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	where := "here"
	if ctx != "" {
		where = "in " + ctx
	}
	msg := fmt.Sprintf("unknown field %q %s", key, where)
	if s := Closest(key, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	return msg + "; known fields: " + strings.Join(sorted, ", ")
}

// Closest returns the name within two edits of s, if there is one.
func Closest(s string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(s), n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
