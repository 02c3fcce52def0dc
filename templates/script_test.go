package templates

import (
	"strings"
	"testing"
)

func TestCompactScriptDropsIndentationAndCommentLines(t *testing.T) {
	js := "\"use strict\";\n// a comment\n  const a = \"x  // not a comment\";\n\n    if (a) f(a); // kept\n"
	want := "\"use strict\";\nconst a = \"x  // not a comment\";\nif (a) f(a); // kept\n"
	if got := CompactScript(js); got != want {
		t.Errorf("CompactScript = %q, want %q", got, want)
	}
}

func TestSheetPagePacksTheSharedScriptFirst(t *testing.T) {
	page := SheetPage("orders", "p{}", []byte("<p>x</p>"), "own();\n")
	_, markup, js, err := Unpack(page)
	if err != nil {
		t.Fatal(err)
	}
	if string(markup) != "<p>x</p>" || js != sheetFileJS+"own();\n" || !strings.Contains(sheetFileJS, "function sheetFile(") {
		t.Errorf("the sheet packs markup %q and script %q", markup, js)
	}
}
