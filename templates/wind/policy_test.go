package wind

import (
	"crypto/sha256"
	"encoding/base64"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/templates"
)

var (
	policyMeta   = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
	inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	inlineStyle  = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
)

// checkPolicy requires of a page's Content-Security-Policy what the
// browser enforces: no 'unsafe-inline' anywhere, no base URL and no form
// target; its one inline script (the one that unpacks the rest) and the
// style sheet and script it unpacks allowed by the SHA-256 of their
// bytes, nothing else; and no other script or style sheet in the page
// or in its unpacked markup.
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
	css, markup, js, err := templates.Unpack(page)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if inlineStyle.Match(page) || inlineStyle.Match(markup) || inlineScript.Match(markup) || strings.Contains(string(markup), "<style") {
		t.Errorf("%s holds a style sheet or a script besides those of its policy", what)
	}
	if n := strings.Count(string(page), "<script"); n != 2 {
		t.Errorf("%s has %d script elements, want the packed block and the script that unpacks it", what, n)
	}
	loader := inlineScript.FindAllSubmatch(page, -1)
	if len(loader) != 1 {
		t.Fatalf("%s has %d inline scripts, want 1", what, len(loader))
	}
	hash := func(b string) string {
		sum := sha256.Sum256([]byte(b))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	if want := hash(string(loader[0][1])) + " " + hash(js); directives["script-src"] != want {
		t.Errorf("%s: script-src is %q; its scripts hash to %s", what, directives["script-src"], want)
	}
	if want := hash(css); directives["style-src"] != want {
		t.Errorf("%s: style-src is %q; its style sheet hashes to %s", what, directives["style-src"], want)
	}
}
