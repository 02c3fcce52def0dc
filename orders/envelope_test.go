package orders

import (
	"strings"
	"testing"
)

// The envelope is read from the top-level keys whatever else the file
// holds, with where the wait and the turn are written; a file that is not
// a YAML mapping has none.
func TestReadEnvelope(t *testing.T) {
	env, ok := ReadEnvelope([]byte("# orders\ngame: g1\nside: us\nturn: 3\nwait: actions\ntoken: abc\nactions: [{move: x}]\nnonsense: {a: b}\n"))
	if !ok || env.Game != "g1" || env.Side != "us" || env.Turn != "3" || env.Wait != "actions" || env.Token != "abc" ||
		env.TurnAt != (Pos{Line: 4, Col: 7}) || env.WaitAt != (Pos{Line: 5, Col: 7}) || env.Doc == nil {
		t.Fatalf("%+v %v", env, ok)
	}
	for _, bad := range []string{"- a list\n", "a: &x [1]\nb: *x\n", "\tside: us\n", ""} {
		if _, ok := ReadEnvelope([]byte(bad)); ok {
			t.Errorf("%q reads as an envelope", bad)
		}
	}
}

// FuzzReadEnvelope: whatever a stranger sends, reading its envelope never
// panics, and an envelope read keeps its file for the system to decode.
func FuzzReadEnvelope(f *testing.F) {
	f.Add([]byte("game: g1\nside: us\ntoken: t\n"))
	f.Add([]byte("side: [us]\nturn: {a: 1}\n"))
	f.Add([]byte(strings.Repeat("a: b\n", 100)))
	f.Fuzz(func(t *testing.T, data []byte) {
		if env, ok := ReadEnvelope(data); ok && env.Doc == nil {
			t.Fatal("an envelope without its file")
		}
	})
}
