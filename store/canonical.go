package store

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Canonical returns JSON text in the form whose SHA-256 is an entry's hash
// (see the package documentation): decoded (numbers kept as written) and
// encoded again by encoding/json without HTML escaping, so invalid UTF-8
// reads as U+FFFD and a member named twice keeps its last value. An
// export can be re-indented or reordered by any tool and still audit.
//
// The decoder stops at the end of the first value; text after it is
// refused unless it starts with a closing bracket or brace, which
// Decoder.More takes for the end of a stream. The entries of stored games
// were hashed in this form, so it must not change.
func Canonical(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("text after the JSON value")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
