package store

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// canonicalForms are texts that reach each rule of the form (key order, a
// name given twice, escapes of every kind, surrogates paired and not,
// invalid UTF-8, U+2028 and U+2029, numbers, white space, what comes after
// the value) and their canonical form as the entries of stored games were
// hashed in it; "" where the text is refused.
var canonicalForms = []struct{ in, want string }{
	{`{"seq":1,"prev":"","kind":"create","time":"2026-05-11T08:00:00Z","turn":0,"state":"ab","next":{"turn":1,"kind":"us-decision"}}`, `{"kind":"create","next":{"kind":"us-decision","turn":1},"prev":"","seq":1,"state":"ab","time":"2026-05-11T08:00:00Z","turn":0}`},
	{`{"b":1,"a":2,"c":{"z":[1,2,{"y":null,"x":true}],"a":false}}`, `{"a":2,"b":1,"c":{"a":false,"z":[1,2,{"x":true,"y":null}]}}`},
	{`{"a":1,"a":2}`, `{"a":2}`},
	{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
	{`{"\u0061":1,"a":2}`, `{"a":2}`},
	{`{"a":2,"\u0061":1}`, `{"a":1}`},
	{`{"":1," ":2,"!":3}`, `{"":1," ":2,"!":3}`},
	{`{"ab":1,"a":2,"a\u0000":3}`, `{"a":2,"a\u0000":3,"ab":1}`},
	{"{\"\u00e9\":1,\"e\":2,\"\\u00e9\":3}", "{\"e\":2,\"\u00e9\":3}"},
	{` { "a" : [ 1 , 2 ] , "b" : { } } `, `{"a":[1,2],"b":{}}`},
	{"\t\r\n[ ]\n", `[]`},
	{`[]`, `[]`},
	{`{}`, `{}`},
	{`[[],{},[{}]]`, `[[],{},[{}]]`},
	{`"\u003c\u003e\u0026 <>&"`, `"<>& <>&"`},
	{`"\"\\\/\b\f\n\r\t"`, `"\"\\/\b\f\n\r\t"`},
	{`"\u0001\u001f\u007f\u0080\u00ff"`, "\"\\u0001\\u001f\x7f\u0080\u00ff\""},
	{`"\ud83d\ude00"`, "\"\U0001f600\""},
	{`"\ud83d"`, "\"\ufffd\""},
	{`"\ude00"`, "\"\ufffd\""},
	{`"\ud83d\u0041"`, "\"\ufffdA\""},
	{`"\ud83d\ud83d\ude00"`, "\"\ufffd\U0001f600\""},
	{`"\uD83D\uDE00"`, "\"\U0001f600\""},
	{`"\ud83d\u00"`, ""},
	{`"\u12"`, ""},
	{`"\x"`, ""},
	{`"\'"`, ""},
	{"\"\x00\"", ""},
	{"\"\x7f\"", "\"\x7f\""},
	{"\"\xff\"", "\"\ufffd\""},
	{"\"a\xe2\x82\"", "\"a\ufffd\ufffd\""},
	{"\"\u2028\u2029\"", `"\u2028\u2029"`},
	{`"\u2028\u2029"`, `"\u2028\u2029"`},
	{"\"\ufffd\"", "\"\ufffd\""},
	{"\"\xed\xa0\x80\"", "\"\ufffd\ufffd\ufffd\""},
	{"{\"\xff\":1,\"\xfe\":2}", "{\"\ufffd\":2}"},
	{"{\"\xff\":1,\"\ufffd\":2}", "{\"\ufffd\":2}"},
	{`0`, `0`},
	{`-0`, `-0`},
	{`1.5e+10`, `1.5e+10`},
	{`1E-7`, `1E-7`},
	{`-12.340`, `-12.340`},
	{`01`, ""},
	{`1.`, ""},
	{`.5`, ""},
	{`-`, ""},
	{`1e`, ""},
	{`+1`, ""},
	{`1e+`, ""},
	{`123456789012345678901234567890`, `123456789012345678901234567890`},
	{`true`, `true`},
	{`false`, `false`},
	{`null`, `null`},
	{`tru`, ""},
	{`nul`, ""},
	{`truex`, ""},
	{`nullx`, ""},
	{``, ""},
	{` `, ""},
	{`{`, ""},
	{`[`, ""},
	{`{"a"}`, ""},
	{`{"a":}`, ""},
	{`{"a":1,}`, ""},
	{`[1,]`, ""},
	{`[,1]`, ""},
	{`{1:2}`, ""},
	{`{"a" 1}`, ""},
	{`[1 2]`, ""},
	{`{}]`, `{}`},
	{`{}}`, `{}`},
	{`{} ]x`, `{}`},
	{`1]`, `1`},
	{`1}`, `1`},
	{`{} x`, ""},
	{`{}{}`, ""},
	{`[] []`, ""},
	{`1 2`, ""},
	{`"a"x`, ""},
	{`"a"]`, `"a"`},
	{"{}\n\n", `{}`},
	{"\ufeff{}", ""},
}

func TestCanonicalForm(t *testing.T) {
	for _, c := range canonicalForms {
		got, err := Canonical([]byte(c.in))
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%q: accepted as %q", c.in, got)
		case c.want != "" && (err != nil || string(got) != c.want):
			t.Errorf("%q: got %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	// Nesting: encoding/json allows 10,000 levels and no more.
	for n, ok := range map[int]bool{10000: true, 10001: false} {
		for _, s := range []string{strings.Repeat("[", n) + strings.Repeat("]", n), strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)} {
			if got, err := Canonical([]byte(s)); (err == nil) != ok || ok && string(got) != s {
				t.Errorf("%d levels: accepted %v (%v), want %v", n, err == nil, err, ok)
			}
		}
	}
}

// storedExport reads testdata/schema7-export.json.gz: a game of the real
// rules as an earlier release exported it, its entries as it hashed them.
func storedExport(t testing.TB) *Export {
	t.Helper()
	f, err := os.Open("testdata/schema7-export.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	x, err := ReadExport(zr)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// Every stored entry takes the canonical form it was hashed in (the
// hash its export records) from the text exported, from its encoding/json
// text before it was made canonical and from an indented copy: the
// entries of a game played now and those an earlier release stored.
func TestCanonicalOfEntries(t *testing.T) {
	for _, x := range []*Export{endedGame(t), storedExport(t)} {
		for _, xe := range x.Log {
			var e Entry
			if err := json.Unmarshal(xe.Entry, &e); err != nil {
				t.Fatal(err)
			}
			marshalled, err := json.Marshal(&e)
			if err != nil {
				t.Fatal(err)
			}
			var indented bytes.Buffer
			json.Indent(&indented, xe.Entry, "", "  ")
			for _, raw := range [][]byte{xe.Entry, marshalled, indented.Bytes()} {
				got, err := Canonical(raw)
				if err != nil || hashHex(got) != xe.Hash {
					t.Fatalf("entry %d: %v: its canonical form %s is not the one hashed", e.Seq, err, got)
				}
			}
		}
	}
}

// decodeFirst decodes the first JSON value of raw as Canonical reads it.
func decodeFirst(t *testing.T, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	return v
}

// The canonical form of any text Canonical accepts is compact JSON that
// means what the text means, and is its own canonical form: so an entry
// stored in it hashes the same however often it is exported and read
// back.
func FuzzCanonical(f *testing.F) {
	for _, c := range canonicalForms {
		f.Add([]byte(c.in))
	}
	for _, xe := range storedExport(f).Log {
		f.Add([]byte(xe.Entry))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := Canonical(raw)
		if err != nil {
			return
		}
		again, err := Canonical(c)
		if err != nil || !bytes.Equal(again, c) {
			t.Fatalf("%q: canonical %q, then %q, %v", raw, c, again, err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, c); err != nil || !bytes.Equal(compact.Bytes(), c) {
			t.Fatalf("%q: canonical %q is not compact JSON (%v)", raw, c, err)
		}
		if a, b := decodeFirst(t, raw), decodeFirst(t, c); !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: canonical %q means %v, not %v", raw, c, b, a)
		}
	})
}

// BenchmarkCanonical puts every entry of a played game in canonical form,
// as the audit and the replay page do.
func BenchmarkCanonical(b *testing.B) {
	x := endedGame(b)
	size := 0
	for _, xe := range x.Log {
		size += len(xe.Entry)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, xe := range x.Log {
			if _, err := Canonical(xe.Entry); err != nil {
				b.Fatal(err)
			}
		}
	}
}
