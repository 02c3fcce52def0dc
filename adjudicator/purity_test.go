package adjudicator

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The adjudicator is pure, so that a game replays from its log and its
// rules are tested without a server: no files, network,
// clock or global randomness. This test reads the imports of every non-test
// file under adjudicator/ and of every project package they import, and
// refuses the packages that do I/O.
//
// One import is let through without being followed: the rules-case runner
// words what happened with package templates, as every report does.
// Wording is not the rules, and the rules package itself cannot import it
// (templates imports the rules).
func TestAdjudicatorDoesNoIO(t *testing.T) {
	forbidden := []string{"os", "os/exec", "os/signal", "net", "net/", "io/ioutil", "syscall", "time",
		"math/rand", "math/rand/v2", "crypto/rand", "log", "log/slog", "plugin", "unsafe", "runtime/cgo"}
	const module = "github.com/attu-pbem/attu/"
	wording := map[string]string{"adjudicator/rulecase": module + "templates"}
	isForbidden := func(imp string) bool {
		for _, f := range forbidden {
			if imp == f || (strings.HasSuffix(f, "/") && strings.HasPrefix(imp, f)) {
				return true
			}
		}
		for _, p := range []string{"store", "mail", "templates", "cmd"} {
			if strings.HasPrefix(imp, module+p) {
				return true
			}
		}
		return false
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	todo := []string{"adjudicator"}
	walked := map[string]bool{}
	// Every package directory under adjudicator/ is checked.
	filepath.WalkDir(filepath.Join(root, "adjudicator"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() != "testdata" && d.Name() != "data" {
			rel, _ := filepath.Rel(root, p)
			todo = append(todo, filepath.ToSlash(rel))
		}
		return nil
	})
	checked := 0
	for len(todo) > 0 {
		dir := todo[0]
		todo = todo[1:]
		if walked[dir] {
			continue
		}
		walked[dir] = true
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, is := range af.Imports {
				imp, _ := strconv.Unquote(is.Path.Value)
				if wording[dir] == imp {
					continue
				}
				if isForbidden(imp) {
					t.Errorf("%s imports %q: the rules must not do I/O", strings.TrimPrefix(f, root+"/"), imp)
				}
				if rest, ok := strings.CutPrefix(imp, module); ok {
					todo = append(todo, rest)
				}
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d files checked; the walk is broken", checked)
	}
}
