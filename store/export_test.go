package store

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
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

// An export read back is written again byte for byte as an earlier
// release wrote it.
func TestWriteJSONAsStored(t *testing.T) {
	f, err := os.Open("testdata/schema7-export.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	x, err := ReadExport(bytes.NewReader(stored))
	if err != nil {
		t.Fatal(err)
	}
	got, err := x.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, stored) {
		t.Fatal("the export is written otherwise than it was stored")
	}
}

// BenchmarkWriteJSON writes a played game's export.
func BenchmarkWriteJSON(b *testing.B) {
	x := endedGame(b)
	for b.Loop() {
		if _, err := x.JSON(); err != nil {
			b.Fatal(err)
		}
	}
}
