package wind

import (
	"errors"
	"fmt"
	"github.com/attu-pbem/attu/orders"
	"strings"
	"testing"
	"time"
)

// A file of thousands of mistakes is refused with the first MaxErrors of
// them, in line order, and costs little: a 250 KB file of tab-indented
// lines, and one of 20,000 unknown keys.
func TestParseStopsCollecting(t *testing.T) {
	var tabbed, keys strings.Builder
	for tabbed.Len() < 250<<10 {
		tabbed.WriteString("\tx: 1\n")
	}
	keys.WriteString("game: g1\nside: us\nturn: 1\nwait: actions\ntoken: x\nactions: []\n")
	for i := range 20000 {
		fmt.Fprintf(&keys, "k%d: 1\n", i)
	}
	for name, file := range map[string]string{"tabs": tabbed.String(), "keys": keys.String()} {
		start := time.Now()
		_, err := Parse([]byte(file), Options{})
		took := time.Since(start)
		var errs orders.Errors
		if !errors.As(err, &errs) {
			t.Fatalf("%s: %v", name, err)
		}
		if len(errs) != orders.MaxErrors {
			t.Errorf("%s: %d mistakes, want the first %d", name, len(errs), orders.MaxErrors)
		}
		for i := 1; i < len(errs); i++ {
			if errs[i].Line < errs[i-1].Line {
				t.Fatalf("%s: mistakes out of line order: %v then %v", name, errs[i-1], errs[i])
			}
		}
		if errs[0].Line > 7 {
			t.Errorf("%s: the first mistake reported is at line %d", name, errs[0].Line)
		}
		t.Logf("%s: %d bytes, %d mistakes kept, %v", name, len(file), len(errs), took)
	}
}
