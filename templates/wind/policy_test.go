package wind

import (
	"crypto/sha256"
	"encoding/base64"
	"html"
	"regexp"
	"strings"
	"testing"
)

var (
	policyMeta   = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
	inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	inlineStyle  = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
)

// checkPolicy requires of a page's Content-Security-Policy what the
// browser enforces: no 'unsafe-inline' anywhere, no base URL and no form
// target, and its one script and one style sheet allowed by the SHA-256
// of their bytes as they stand in the page, nothing else.
func checkPolicy(t *testing.T, what string, page []byte) {
	t.Helper()
	m := policyMeta.FindSubmatch(page)
	if m == nil {
		t.Fatalf("%s has no Content-Security-Policy", what)
	}
	policy := html.UnescapeString(string(m[1]))
	directives := map[string]string{}
	for _, d := range strings.Split(policy, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	if strings.Contains(policy, "unsafe") {
		t.Errorf("%s allows unsafe sources: %s", what, policy)
	}
	for name, want := range map[string]string{"default-src": "'none'", "base-uri": "'none'", "form-action": "'none'", "img-src": "data:"} {
		if directives[name] != want {
			t.Errorf("%s: %s is %q, want %q", what, name, directives[name], want)
		}
	}
	for name, re := range map[string]*regexp.Regexp{"script-src": inlineScript, "style-src": inlineStyle} {
		blocks := re.FindAllSubmatch(page, -1)
		if len(blocks) != 1 {
			t.Fatalf("%s has %d inline %s blocks, want 1", what, len(blocks), name)
		}
		sum := sha256.Sum256(blocks[0][1])
		if want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; directives[name] != want {
			t.Errorf("%s: %s is %q; the block in the page hashes to %s", what, name, directives[name], want)
		}
	}
}
