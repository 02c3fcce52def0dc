package store_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// systemPackage matches the packages of one game system: every package
// below adjudicator, orders or templates (adjudicator/wind, orders/wind,
// templates/wind, adjudicator/island, ...) but their internal ones. Their
// roots hold what every system shares.
var systemPackage = regexp.MustCompile(`^github\.com/attu-pbem/attu/(adjudicator|orders|templates)/[^/]+`)

// TestHostKnowsNoSystem asks the go tool for everything the host's
// packages depend on: none of a system's packages may be among them, so
// that a second system plugs in beside the first instead of through it.
func TestHostKnowsNoSystem(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the dependencies with")
	}
	for _, pkg := range []string{"store", "store/referee", "store/tournament", "cmd/attu/daemon", "mail", "adjudicator", "orders", "templates"} {
		cmd := exec.Command(gotool, "list", "-deps", "./"+pkg)
		cmd.Dir = ".."
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps ./%s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 5 {
			t.Fatalf("go list -deps ./%s lists only %d packages; the listing is broken", pkg, len(deps))
		}
		for _, d := range deps {
			if systemPackage.MatchString(d) && !strings.Contains(d, "/internal/") {
				t.Errorf("%s depends on %s, a package of one game system", pkg, d)
			}
		}
	}
}
