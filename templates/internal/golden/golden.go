// Package golden is what the tests of the templates share: golden files
// under testdata/, refreshed with -update, and the width of a mail's lines.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// update is the -update flag of a test binary that imports this package.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Updating reports whether the test run rewrites its golden files.
func Updating() bool { return *update }

// Check compares got with testdata/name, or rewrites the file with -update.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file; run go test with -update and review the diff.\ngot:\n%s", name, got)
	}
}

// Columns fails when a line of text is wider than width characters or ends
// in blanks.
func Columns(t testing.TB, what, text string, width int) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(l); n > width {
			t.Fatalf("%s: line %d is %d characters wide, more than %d:\n%s", what, i+1, n, width, l)
		}
		if strings.TrimRight(l, " \t") != l {
			t.Fatalf("%s: line %d ends in blanks: %q", what, i+1, l)
		}
	}
}
