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

// The export a final report attaches, gzip-compressed, reads as the same
// game as its JSON, and gunzip gives that JSON byte for byte.
func TestGzipJSONReadsAsJSON(t *testing.T) {
	x := endedGame(t)
	plain, err := x.JSON()
	if err != nil {
		t.Fatal(err)
	}
	z, err := x.GzipJSON()
	if err != nil {
		t.Fatal(err)
	}
	if len(z) >= len(plain)/2 {
		t.Errorf("the compressed export is %d bytes, its JSON %d", len(z), len(plain))
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	if un, err := io.ReadAll(zr); err != nil || !bytes.Equal(un, plain) {
		t.Fatalf("gunzip does not give the export's JSON: %v", err)
	}
	y, err := ReadExport(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := y.JSON(); !bytes.Equal(again, plain) {
		t.Fatal("the compressed export does not read as the same game")
	}
	if _, err := ReadExport(bytes.NewReader(z[:len(z)/2])); err == nil {
		t.Error("a torn compressed export reads without an error")
	}
}
