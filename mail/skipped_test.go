package mail

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A part attu does not read is listed in Skipped with its type and file
// name, so that a reply can name it: a zipped orders file, an encrypted
// one, a .txt attachment; a part in an unknown transfer encoding keeps
// the reason it could not be decoded.
func TestExtractSkippedNamesParts(t *testing.T) {
	raw := strings.ReplaceAll(`From: <us@example.org>
To: <attu+g1@attu.test>
Subject: orders
Message-ID: <skip-1@example.org>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b"

--b
Content-Type: text/plain

see attached
--b
Content-Type: application/zip; name="orders.zip"
Content-Transfer-Encoding: base64
Content-Disposition: attachment; filename="orders.zip"

UEsDBAoAAAAAAA==
--b
Content-Type: text/plain; name="orders.txt"
Content-Disposition: attachment; filename="orders.txt"

game: g1
--b
Content-Type: application/yaml
Content-Transfer-Encoding: x-unknown
Content-Disposition: attachment; filename="us.yaml"

game: g1
--b--
`, "\n", "\r\n")
	m, err := Extract(bytes.NewReader([]byte(raw)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Orders != "" {
		t.Errorf("orders read from a part that cannot be decoded: %q", m.Orders)
	}
	want := []PartError{
		{Part: "2", Type: "application/zip", Name: "orders.zip", Err: ErrNotRead},
		{Part: "3", Type: "text/plain", Name: "orders.txt", Err: ErrNotRead},
		{Part: "4", Type: "application/yaml", Name: "us.yaml"},
	}
	if len(m.Skipped) != len(want) {
		t.Fatalf("skipped %v, want %d parts", m.Skipped, len(want))
	}
	for i, w := range want {
		g := m.Skipped[i]
		if g.Part != w.Part || g.Type != w.Type || g.Name != w.Name || w.Err != nil && !errors.Is(g.Err, w.Err) {
			t.Errorf("skipped part %d: %+v, want %+v", i, g, w)
		}
	}
	if errors.Is(m.Skipped[2].Err, ErrNotRead) || m.Skipped[2].Err == nil {
		t.Errorf("the undecodable part's reason is lost: %v", m.Skipped[2].Err)
	}
}
