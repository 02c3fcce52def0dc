package templates

import "testing"

func TestCompactScriptDropsIndentationAndCommentLines(t *testing.T) {
	js := "\"use strict\";\n// a comment\n  const a = \"x  // not a comment\";\n\n    if (a) f(a); // kept\n"
	want := "\"use strict\";\nconst a = \"x  // not a comment\";\nif (a) f(a); // kept\n"
	if got := CompactScript(js); got != want {
		t.Errorf("CompactScript = %q, want %q", got, want)
	}
}
