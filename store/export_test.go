package store

import (
	"bytes"
	"encoding/json"
	"testing"
)

// indentReference is the export's JSON as a json.Encoder indents it.
func indentReference(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// An export is written as encoding/json indents it, byte for byte.
func TestWriteJSONIndentsAsEncodingJSON(t *testing.T) {
	x := endedGame(t)
	x.Log[3].Entry = json.RawMessage(`{"a": [ ], "b" : {}, "c":"\"}{][,:\\"}`)
	var got bytes.Buffer
	if err := x.WriteJSON(&got); err != nil {
		t.Fatal(err)
	}
	if want := indentReference(x); !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("WriteJSON differs from encoding/json's indentation:\n%s", got.Bytes())
	}
}

// IndentJSON indents any compact JSON text as json.Indent does.
func FuzzIndentJSON(f *testing.F) {
	for _, s := range canonicalSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var compact bytes.Buffer
		if json.Compact(&compact, raw) != nil {
			return
		}
		src := append(compact.Bytes(), '\n')
		var want bytes.Buffer
		if err := json.Indent(&want, src, "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := IndentJSON(nil, compact.Bytes()); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q:\n got %q\nwant %q", compact.Bytes(), got, want.Bytes())
		}
	})
}

// BenchmarkWriteJSON writes a played game's export.
func BenchmarkWriteJSON(b *testing.B) {
	x := endedGame(b)
	for _, f := range []struct {
		name string
		fn   func() []byte
	}{
		{"IndentJSON", func() []byte { var buf bytes.Buffer; x.WriteJSON(&buf); return buf.Bytes() }},
		{"encoding-json", func() []byte { return indentReference(x) }},
	} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				f.fn()
			}
		})
	}
}
