package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// canonicalFast is Canonical's own pass alone, without the error wording
// of encoding/json it falls back on.
func canonicalFast(raw []byte) ([]byte, bool) {
	c := canonicalizer{in: raw}
	if !c.document() {
		return nil, false
	}
	return c.out, true
}

// checkCanonical requires Canonical's pass to agree with the reference on
// raw: the same bytes, or both refusing it (then with the same error).
func checkCanonical(t *testing.T, raw []byte) {
	t.Helper()
	want, werr := canonicalByValue(raw)
	got, ok := canonicalFast(raw)
	switch {
	case ok != (werr == nil):
		t.Fatalf("%q: the pass accepts it: %v, encoding/json: %v", raw, ok, werr)
	case ok && !bytes.Equal(got, want):
		t.Fatalf("%q:\n got %q\nwant %q", raw, got, want)
	}
	out, err := Canonical(raw)
	if fmt.Sprint(err) != fmt.Sprint(werr) || !bytes.Equal(out, want) {
		t.Fatalf("%q: Canonical gives %q, %v; want %q, %v", raw, out, err, want, werr)
	}
}

// canonicalSeeds are texts that reach each rule of the form: key order,
// a name given twice, escapes of every kind, surrogates paired and not,
// invalid UTF-8, U+2028 and U+2029, numbers, white space, and what comes
// after the value.
var canonicalSeeds = []string{
	`{"seq":1,"prev":"","kind":"create","time":"2026-05-11T08:00:00Z","turn":0,"state":"ab","next":{"turn":1,"kind":"us-decision"}}`,
	`{"b":1,"a":2,"c":{"z":[1,2,{"y":null,"x":true}],"a":false}}`,
	`{"a":1,"a":2}`, `{"a":1,"b":2,"a":3}`, `{"\u0061":1,"a":2}`, `{"a":2,"\u0061":1}`,
	`{"":1," ":2,"!":3}`, `{"ab":1,"a":2,"a\u0000":3}`, `{"é":1,"e":2,"\u00e9":3}`,
	` { "a" : [ 1 , 2 ] , "b" : { } } `, "\t\r\n[ ]\n", `[]`, `{}`, `[[],{},[{}]]`,
	`"\u003c\u003e\u0026 <>&"`, `"\"\\\/\b\f\n\r\t"`, `"\u0001\u001f\u007f\u0080\u00ff"`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`, `"\uD83D\uDE00"`,
	`"\ud83d\u00"`, `"\u12"`, `"\x"`, `"\'"`, "\"\x00\"", "\"\x7f\"",
	"\"\xff\"", "\"a\xe2\x82\"", "\"\xe2\x80\xa8\xe2\x80\xa9\"", `"\u2028\u2029"`, "\"\xef\xbf\xbd\"", "\"\xed\xa0\x80\"",
	"{\"\xff\":1,\"\xfe\":2}", "{\"\xff\":1,\"\xef\xbf\xbd\":2}",
	`0`, `-0`, `1.5e+10`, `1E-7`, `-12.340`, `01`, `1.`, `.5`, `-`, `1e`, `+1`, `1e+`, `123456789012345678901234567890`,
	`true`, `false`, `null`, `tru`, `nul`, `truex`, `nullx`,
	``, ` `, `{`, `[`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `{1:2}`, `{"a" 1}`, `[1 2]`,
	`{}]`, `{}}`, `{} ]x`, `1]`, `1}`, `{} x`, `{}{}`, `[] []`, `1 2`, `"a"x`, `"a"]`, `{}` + "\n\n", "\ufeff{}",
}

func TestCanonicalAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range canonicalSeeds {
		checkCanonical(t, []byte(s))
	}
	// Nesting: encoding/json allows 10,000 levels and no more.
	for _, n := range []int{canonicalMaxDepth, canonicalMaxDepth + 1} {
		checkCanonical(t, []byte(strings.Repeat("[", n)+strings.Repeat("]", n)))
		checkCanonical(t, []byte(strings.Repeat(`{"a":`, n)+"1"+strings.Repeat("}", n)))
	}
}

// Every entry a game writes, and its encoding/json text before it was
// made canonical, takes the same form both ways.
func TestCanonicalOfEntries(t *testing.T) {
	x := endedGame(t)
	for _, xe := range x.Log {
		checkCanonical(t, xe.Entry)
		var e Entry
		if err := json.Unmarshal(xe.Entry, &e); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(&e)
		if err != nil {
			t.Fatal(err)
		}
		checkCanonical(t, b)
		var indented bytes.Buffer
		json.Indent(&indented, xe.Entry, "", "  ")
		checkCanonical(t, indented.Bytes())
	}
}

// Canonical's pass and encoding/json agree on any text.
func FuzzCanonical(f *testing.F) {
	for _, s := range canonicalSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkCanonical(t, raw)
	})
}

// BenchmarkCanonical puts every entry of a played game in canonical form,
// as the audit and the replay page do: Canonical's pass against the
// encoding/json way it replaces.
func BenchmarkCanonical(b *testing.B) {
	x := endedGame(b)
	size := 0
	for _, xe := range x.Log {
		size += len(xe.Entry)
	}
	for _, f := range []struct {
		name string
		fn   func([]byte) ([]byte, error)
	}{{"pass", Canonical}, {"encoding-json", canonicalByValue}} {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, xe := range x.Log {
					if _, err := f.fn(xe.Entry); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
