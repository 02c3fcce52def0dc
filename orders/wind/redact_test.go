package wind

import (
	"bytes"
	"encoding/json"
	"github.com/attu-pbem/attu/orders"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	const tok = "k3jd8s2mq9x7vb4ne6pw5tza"
	cases := []struct{ name, in, want string }{
		{"block", "game: g1\nside: us\ntoken: " + tok + "\nturn: 1\n",
			"game: g1\nside: us\ntoken: REDACTED\nturn: 1\n"},
		{"comment", "token: " + tok + "   # from the welcome mail\nside: us\n",
			"token: REDACTED   # from the welcome mail\nside: us\n"},
		{"double quoted", "token: \"" + tok + "\"\nside: us\n", "token: REDACTED\nside: us\n"},
		{"single quoted", "token: 'it''s " + tok + "'\nside: us\n", "token: REDACTED\nside: us\n"},
		{"crlf", "side: us\r\ntoken: " + tok + "\r\nturn: 2\r\n", "side: us\r\ntoken: REDACTED\r\nturn: 2\r\n"},
		{"flow keeps the next key's column", "{side: us, token: " + tok + ", turn: 1}\n",
			"{side: us, token: REDACTED" + strings.Repeat(" ", len(tok)-8) + ", turn: 1}\n"},
		{"over two lines", "side: us\ntoken: " + tok[:10] + "\n  " + tok[10:] + "\nturn: 1\n",
			"side: us\ntoken: REDACTED\n\nturn: 1\n"},
		{"literal block", "token: |\n  " + tok + "\nturn: 1\n", "token: REDACTED\n\nturn: 1\n"},
		{"nested token is not the envelope's", "side: us\nnote:\n  token: x\n", "side: us\nnote:\n  token: x\n"},
		{"already redacted", "token: REDACTED\n", "token: REDACTED\n"},
		{"no token", "side: us\n", "side: us\n"},
		{"not YAML", "token: [\n", "token: [\n"},
	}
	for _, c := range cases {
		got := string(orders.Redact([]byte(c.in)))
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		if strings.Contains(c.want, "REDACTED") && strings.Contains(got, tok[10:]) {
			t.Errorf("%s: the token survives", c.name)
		}
	}
}

// Every example file, redacted, decodes to the same orders with every field
// and activation where it was; only the token differs.
func TestRedactKeepsPositions(t *testing.T) {
	files, _ := filepath.Glob("../../examples/orders/*.yaml")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Parse(src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		red := orders.Redact(src)
		b, err := Parse(red, Options{})
		if err != nil {
			t.Fatalf("%s redacted: %v", name, err)
		}
		if b.Token != orders.RedactedToken || strings.Contains(string(red), a.Token) {
			t.Errorf("%s: token %q after redaction", name, b.Token)
		}
		ja, _ := json.Marshal(a.Orders())
		jb, _ := json.Marshal(b.Orders())
		if !bytes.Equal(ja, jb) {
			t.Errorf("%s: orders differ:\n%s\n%s", name, ja, jb)
		}
		for _, k := range []string{"game", "side", "turn", "wait", "token", "actions", "decision", "standing"} {
			la, ca := a.Field(k)
			lb, cb := b.Field(k)
			if la != lb || ca != cb {
				t.Errorf("%s: %s moved from %d:%d to %d:%d", name, k, la, ca, lb, cb)
			}
		}
		for i := range a.Actions {
			if a.Actions[i].Pos != b.Actions[i].Pos {
				t.Errorf("%s: activation %d moved", name, i+1)
			}
		}
	}
}

// FuzzRedact: whatever a file holds, a file that parses still parses after
// Redact, to the same orders, on as many lines, with the marker as token.
func FuzzRedact(f *testing.F) {
	f.Add([]byte(envelope1 + "actions: []\n"))
	f.Add([]byte("{game: g, side: us, turn: 1, token: \"a\\\"b\", actions: []}"))
	f.Add([]byte("game: g\nside: us\nturn: 1\ntoken: >\n  a\n  b\nactions: []\n"))
	f.Add([]byte("game: g\nside: us\nturn: 1\ntoken: 'a\n  b'\nactions: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Parse(data, Options{})
		red := orders.Redact(data)
		if bytes.Count(red, []byte("\n")) != bytes.Count(data, []byte("\n")) {
			t.Fatalf("lines changed:\n%q\n%q", data, red)
		}
		if err != nil {
			return
		}
		b, err := Parse(red, Options{})
		if err != nil {
			// A token over several lines inside braces is left as it was.
			if bytes.Equal(red, data) {
				return
			}
			t.Fatalf("redacted file refused: %v\n%q\n%q", err, data, red)
		}
		if b.Token != orders.RedactedToken && !bytes.Equal(red, data) {
			t.Fatalf("token %q", b.Token)
		}
		ja, _ := json.Marshal(a.Orders())
		jb, _ := json.Marshal(b.Orders())
		if !bytes.Equal(ja, jb) {
			t.Fatalf("orders differ:\n%s\n%s", ja, jb)
		}
	})
}
