package wind

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The adjudicator is pure, so that a game replays from its log and its
// rules are tested without a server: no files, network,
// clock or global randomness. This test reads the imports of every non-test
// file under adjudicator/ and of every project package they import, and
// refuses the packages that do I/O. The rules-case runner and the random
// player are held to the same: a case's result is worded by its caller.
func TestAdjudicatorDoesNoIO(t *testing.T) {
	forbidden := []string{"os", "os/exec", "os/signal", "net", "net/", "io/ioutil", "syscall", "time",
		"math/rand", "math/rand/v2", "crypto/rand", "log", "log/slog", "plugin", "unsafe", "runtime/cgo"}
	const module = "github.com/attu-pbem/attu/"
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
	root, err := filepath.Abs("../..")
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

// TestRulesPullInNoNetwork asks the go tool for every package the rules
// depend on, those of other modules too, which the walk above does not
// follow: neither the database nor any network package may be among them,
// so that the rules build and run without a server.
func TestRulesPullInNoNetwork(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the dependencies with")
	}
	cmd := exec.Command(gotool, "list", "-deps", "./...")
	cmd.Dir = ".." // every package under adjudicator/, of every system
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := bytes.Fields(out)
	if len(deps) < 10 {
		t.Fatalf("go list lists only %d packages; the listing is broken", len(deps))
	}
	for _, p := range deps {
		imp := string(p)
		if imp == "net" || strings.HasPrefix(imp, "net/") || strings.Contains(imp, "bbolt") {
			t.Errorf("the rules pull in %s", imp)
		}
	}
}
