package templates

import (
	"testing"

	gf "github.com/attu-pbem/attu/templates/internal/golden"
)

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	gf.Check(t, name, got)
}

// checkColumns fails when a line of text is wider than MaxWidth
// characters or ends in blanks.
func checkColumns(t testing.TB, what, text string) {
	t.Helper()
	gf.Columns(t, what, text, MaxWidth)
}
