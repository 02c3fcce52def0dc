package templates

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A packed page gives back its style sheet, markup and script byte for
// byte, holds none of them in the clear, escapes its title, and is a
// fraction of their size when they repeat themselves, as pages do.
func TestPackedPageRoundTrip(t *testing.T) {
	css := strings.Repeat("body { margin: 0 } ", 200)
	markup := []byte(strings.Repeat(`<p class="x">a hex</p>`, 500) + `<script type="application/json" id="data">{"a":"<\/script>"}</script>`)
	js := `"use strict"; document.title = "</script>";` + strings.Repeat("\n// a comment", 300)
	page := PackedPage(`turn <1> & "more"`, css, markup, js)
	gotCSS, gotMarkup, gotJS, err := Unpack(page)
	if err != nil {
		t.Fatal(err)
	}
	if gotCSS != css || !bytes.Equal(gotMarkup, markup) || gotJS != js {
		t.Fatal("the page does not unpack to what was packed")
	}
	if !strings.Contains(string(page), "<title>turn &lt;1&gt; &amp; &#34;more&#34;</title>") {
		t.Errorf("the title is not escaped:\n%s", page)
	}
	if bytes.Contains(page, []byte("a hex")) || bytes.Contains(page, []byte("margin")) {
		t.Error("the page holds its markup or style sheet in the clear")
	}
	if n := len(css) + len(markup) + len(js); len(page) > n/5 {
		t.Errorf("the page is %d bytes, what it packs %d", len(page), n)
	}
	for _, line := range strings.Split(string(page), "\n") {
		if len(line) > 998 {
			t.Fatalf("a line of %d characters, more than a mail line may hold", len(line))
		}
	}
	if _, _, _, err := Unpack([]byte("<html></html>")); !errors.Is(err, ErrNotPacked) {
		t.Errorf("a page without a packed block: %v", err)
	}
}
